/**
 * OpenAPI 3.1 validity of a surface's document, as the product checks it: `validateOpenApiDocument`
 * (core/apis/import/) against the official schema, unknown fields rejected.
 */
import { validateOpenApiDocument } from '../../../../core/apis/import/index.ts';

/** `pointer: reason` lines, empty when the document is a valid OpenAPI 3.1 document. */
export function openApi31Problems(doc: unknown): string[] {
  const declared = (doc as { openapi?: unknown } | null)?.openapi;
  if (typeof declared !== 'string' || !declared.startsWith('3.1.'))
    return [`/openapi: not 3.1 (${String(declared)})`];
  return validateOpenApiDocument(doc).map((p) => `${p.pointer}: ${p.reason}`);
}
