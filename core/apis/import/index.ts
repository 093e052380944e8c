/**
 * Importing an API (issue 22 §2): a document's text → its operation catalog (`core/apis/types.ts`), or the
 * problems that stop it (the first one first; nothing is stored on failure).
 *
 * OpenAPI and Swagger documents:
 * 1. parse JSON or YAML (`parse.ts`; a syntax error names line and column);
 * 2. validate against the official schema of the declared version (`openapi-schemas.ts`, `@cfworker/json-schema`;
 *    unknown fields on fixed-field objects tolerated) — a violation names the JSON pointer of the offending value
 *    and its line;
 * 3. upgrade to OpenAPI 3.1 with `@scalar/openapi-upgrader` (Swagger 2.0 → 3.0 → 3.1: `nullable` becomes a type
 *    union, `example` becomes `examples`, definitions become components, …) — the catalog's schemas are then
 *    JSON Schema 2020-12, and the upgraded document is what `GET /v1/apis/{id}/openapi.json` serves;
 * 4. dereference with `@scalar/openapi-parser`'s `dereference` (synchronous, local references; an unresolvable
 *    `$ref` is a problem naming where it is written);
 * 5. build the operations (`operations.ts`).
 *
 * Why Scalar's packages: they are maintained together and released often (the upgrader is what Scalar's own API
 * client and CLI use), written in TypeScript as plain ES modules with no Node built-ins on these paths, and run in
 * workerd. The usual alternatives do not: `@apidevtools/swagger-parser` and `@readme/openapi-parser` validate
 * with ajv (which compiles schemas with `new Function`, refused by workerd) and resolve through Node's `fs`/`http`;
 * `swagger2openapi` has had no release since 2021 and is Node-only; `@scalar/json-magic`'s `dereference` pulls in
 * `undici` and `node:dns` for remote references. `@scalar/openapi-parser`'s index also exports an ajv-based
 * `validate`: only `dereference` is imported here, the package is marked `sideEffects: false`, and a test bundles
 * these modules as wrangler does to check that neither ajv nor `new Function` / `eval` comes along
 * (`test/core/apis/worker-safe.test.ts`).
 *
 * Function catalogs (OpenAI-style lists, STE, ToolBench): `catalogs.ts`.
 */
import { dereference } from '@scalar/openapi-parser';
import { upgrade } from '@scalar/openapi-upgrader';
import { isJsonObject, type JsonObject, jsonPointer } from '../json.ts';
import type { ApiCatalog, ApiSource, ImportWarning } from '../types.ts';
import { importFunctionCatalog } from './catalogs.ts';
import { type OpenApiVersion, openApiVersion, validateOpenApiDocument } from './openapi-schemas.ts';
import { buildOperations } from './operations.ts';
import { type DocumentSyntax, documentSyntax, lineOfPointer, parseDocumentText } from './parse.ts';
import { defusePatterns } from './patterns.ts';
import { type ImportInput, type ImportProblem, type ImportResult, MAX_IMPORT_BYTES } from './result.ts';

export type { OpenApiValidationOptions } from './openapi-schemas.ts';
export { validateOpenApiDocument } from './openapi-schemas.ts';
export { type ImportInput, type ImportProblem, type ImportResult, MAX_IMPORT_BYTES } from './result.ts';

export async function importApi(input: ImportInput): Promise<ImportResult> {
  // UTF-16 units ≤ UTF-8 bytes ≤ 3 × units: only a long text is measured.
  if (input.text.length * 3 > MAX_IMPORT_BYTES) {
    const bytes = new TextEncoder().encode(input.text).length;
    if (bytes > MAX_IMPORT_BYTES) {
      return fail({
        pointer: '',
        reason: `the document is ${bytes} bytes; at most ${MAX_IMPORT_BYTES} bytes (10 MB) import`,
      });
    }
  }
  const syntax = documentSyntax(input.text, input.filename, input.contentType);
  const parsed = parseDocumentText(input.text, syntax);
  if (!parsed.ok) return fail(parsed.problem);
  const value = parsed.value;
  if (isJsonObject(value) && ('openapi' in value || 'swagger' in value)) {
    return importOpenApi(value, input, syntax);
  }
  const catalog = importFunctionCatalog(value, input.title);
  return catalog.ok
    ? { ok: true, catalog: defusePatterns(catalog.catalog), document: null }
    : fail(catalog.problem);
}

function importOpenApi(doc: JsonObject, input: ImportInput, syntax: DocumentSyntax): ImportResult {
  const detected = openApiVersion(doc);
  if ('problem' in detected) return fail(detected.problem);
  const problems = validateOpenApiDocument(doc, { unknownFields: 'allow' });
  if (problems.length > 0) return fail(...problems.map((p) => withLine(p, input.text, syntax)));

  // The 2.0 → 3.0 step rewrites the document in place; a Swagger document is kept as sent to name places in it.
  const upgraded = upgrade(
    detected.version === '2.0' ? structuredClone(doc) : doc,
    '3.1',
  ) as unknown as JsonObject;
  if (detected.version === '2.0') {
    // The 2.0 → 3.0 conversion restructures the document (definitions, body parameters, produces/consumes), so
    // its output is checked as well: a document it got wrong is reported, never stored. (3.0 → 3.1 only
    // rewrites schema keywords; checking it again would cost as much as the first validation.)
    const after = validateOpenApiDocument(upgraded, { unknownFields: 'allow' });
    if (after.length > 0) {
      return fail(
        ...after.map((p) => ({ pointer: p.pointer, reason: `after conversion to OpenAPI 3.1: ${p.reason}` })),
      );
    }
  }

  const refOf = new WeakMap<object, string>();
  const dereferenced = dereference(upgraded, {
    onDereference: ({ schema, ref }: { schema: unknown; ref: string }) => {
      if (schema !== null && typeof schema === 'object') refOf.set(schema, ref);
    },
  });
  const refError = dereferenced.errors?.[0];
  if (refError)
    return fail(
      referenceProblem(refError.message, detected.version === '2.0' ? doc : upgraded, detected.version),
    );
  const resolved = dereferenced.schema as JsonObject;

  const built = buildOperations({
    doc: resolved,
    refOf,
    refPointer: (ref) => refTargetPointer(ref, detected.version),
  });
  if (!built.ok) return fail(built.problem);

  const info = isJsonObject(doc.info) ? doc.info : {};
  const warnings: ImportWarning[] = [...built.warnings];
  if (built.operations.length === 0)
    warnings.push({ pointer: '/paths', message: 'the document describes no operations' });
  const description =
    typeof info.description === 'string' && info.description !== '' ? info.description : undefined;
  const catalog: ApiCatalog = {
    format: 'openapi',
    source: SOURCE_OF[detected.version],
    title: input.title ?? (typeof info.title === 'string' ? info.title : 'API'),
    version: typeof info.version === 'string' ? info.version : '',
    ...(description ? { description } : {}),
    servers: serverUrls(upgraded.servers),
    operations: built.operations,
    warnings,
  };
  return { ok: true, catalog: defusePatterns(catalog), document: upgraded };
}

const SOURCE_OF: Record<OpenApiVersion, ApiSource> = {
  '2.0': 'swagger-2.0',
  '3.0': 'openapi-3.0',
  '3.1': 'openapi-3.1',
};

/** Server URLs with their `{variables}` replaced by the variables' defaults. */
function serverUrls(servers: unknown): string[] {
  if (!Array.isArray(servers)) return [];
  return servers.flatMap((server) => {
    if (!isJsonObject(server) || typeof server.url !== 'string') return [];
    const variables = isJsonObject(server.variables) ? server.variables : {};
    return [
      server.url.trim().replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const v = variables[name];
        return isJsonObject(v) && typeof v.default === 'string' ? v.default : whole;
      }),
    ];
  });
}

/** A reference the dereferencer could not resolve: named where the document writes it. */
function referenceProblem(message: string, doc: JsonObject, version: OpenApiVersion): ImportProblem {
  const ref = /:\s*(\S+)\s*$/.exec(message)?.[1];
  if (ref === undefined) return { pointer: '', reason: message };
  // In a Swagger document the reference is written in its 2.0 form (`#/definitions/Pet`).
  const written = version === '2.0' ? `#${refTargetPointer(ref, version)}` : ref;
  return {
    pointer: findRef(doc, written, '') ?? '',
    reason: `the reference "${written}" cannot be resolved`,
  };
}

function findRef(node: unknown, ref: string, pointer: string): string | null {
  if (node === null || typeof node !== 'object') return null;
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const hit = findRef(item, ref, `${pointer}/${i}`);
      if (hit !== null) return hit;
    }
    return null;
  }
  const record = node as JsonObject;
  if (record.$ref === ref) return `${pointer}/$ref`;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'example' || key === 'examples' || key === 'default' || key === 'enum' || key === 'const')
      continue;
    const hit = findRef(value, ref, pointer + jsonPointer(key));
    if (hit !== null) return hit;
  }
  return null;
}

/** The pointer, in the input document, of a local `$ref` target of the upgraded document. */
function refTargetPointer(ref: string, version: OpenApiVersion): string {
  const pointer = ref.startsWith('#') ? ref.slice(1) : ref;
  if (version !== '2.0') return pointer;
  return pointer
    .replace(/^\/components\/schemas\//, '/definitions/')
    .replace(/^\/components\/(parameters|requestBodies)\//, '/parameters/')
    .replace(/^\/components\/responses\//, '/responses/');
}

function withLine(problem: ImportProblem, text: string, syntax: DocumentSyntax): ImportProblem {
  const line = lineOfPointer(text, syntax, problem.pointer);
  return line === null ? problem : { pointer: problem.pointer, reason: `${problem.reason} (line ${line})` };
}

function fail(...problems: ImportProblem[]): ImportResult {
  return { ok: false, problems };
}
