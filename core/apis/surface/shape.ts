/**
 * Response shaping: a base response as the surface answers it, in three steps (the same for values and, for
 * the surface's OpenAPI document, for schemas):
 * 1. paging fields in the tool's exposed paging style (2xx answers of a tool with `pagination`, `pagination.ts`);
 * 2. every object key in the surface's key case (`ResponseShape.keyCase`): a key is cut into words at `_`, `-`,
 *    `.`, spaces, case changes and digit runs and written again (`poster_path` → `posterPath`, `PosterPath`,
 *    `poster-path`; `iso_3166_1` → `iso31661` in camel case). Keys with other characters, and the empty key, stay
 *    as they are; when two keys of one object would become the same, the second keeps its own spelling;
 * 3. the envelope (`ResponseShape.envelope`): `{[dataKey]: body, [metaKey]: {status}}` around every JSON body,
 *    error bodies included (a body-less answer stays body-less).
 * The status and the headers stay (a `content-length` of the base body is dropped when the body changed).
 */
import type { JsonSchema } from '../types.ts';
import type { KeyCase, ResponseShape } from './model.ts';
import { type PageState, shapePage, shapePageSchema } from './pagination.ts';

/** What the shaping needs to know about the call a response answers (from `resolveApiCall`). */
export interface ShapeContext {
  /** The exposed tool name that was called. */
  tool: string;
  /** The base operation behind it. */
  operation: string;
  /** The paging request, when the tool pages in another style than its operation. */
  page?: PageState;
}

const WORDS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;
const CASEABLE = /^[A-Za-z0-9_.\- ]+$/;

const keyCache = new Map<string, string>();

/** A key written in a case (see the module header). */
export function recaseKey(key: string, keyCase: KeyCase): string {
  const cacheKey = `${keyCase}\u0000${key}`;
  const hit = keyCache.get(cacheKey);
  if (hit !== undefined) return hit;
  let out = key;
  if (CASEABLE.test(key)) {
    const words = (key.match(WORDS) ?? []).map((w) => w.toLowerCase());
    if (words.length > 0) {
      const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
      if (keyCase === 'snake') out = words.join('_');
      else if (keyCase === 'kebab') out = words.join('-');
      else if (keyCase === 'pascal') out = words.map(cap).join('');
      else out = words.map((w, i) => (i === 0 ? w : cap(w))).join('');
    }
  }
  if (keyCache.size > 50_000) keyCache.clear();
  keyCache.set(cacheKey, out);
  return out;
}

/** Every object key of a JSON value in a case. */
export function recaseValue(value: unknown, keyCase: KeyCase): unknown {
  if (Array.isArray(value)) return value.map((v) => recaseValue(v, keyCase));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const nk = recaseKey(k, keyCase);
    out[Object.hasOwn(out, nk) ? k : nk] = recaseValue(v, keyCase);
  }
  return out;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_ONES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/** A JSON Schema of values whose keys are recased: property names, `required`, and example values. */
export function recaseSchema(schema: JsonSchema, keyCase: KeyCase): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = { ...schema };
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  const renamed = new Map<string, string>();
  if (props && typeof props === 'object') {
    const next: Record<string, JsonSchema> = {};
    for (const [k, v] of Object.entries(props)) {
      const nk = recaseKey(k, keyCase);
      const key = Object.hasOwn(next, nk) ? k : nk;
      renamed.set(k, key);
      next[key] = recaseSchema(v, keyCase);
    }
    out.properties = next;
  }
  for (const m of SCHEMA_MAPS) {
    if (m === 'properties') continue;
    const map = schema[m] as Record<string, JsonSchema> | undefined;
    if (map && typeof map === 'object')
      out[m] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, recaseSchema(v, keyCase)]));
  }
  for (const l of SCHEMA_LISTS) {
    const list = schema[l];
    if (Array.isArray(list)) out[l] = list.map((s) => recaseSchema(s as JsonSchema, keyCase));
  }
  for (const o of SCHEMA_ONES) {
    if (schema[o] !== undefined) out[o] = recaseSchema(schema[o] as JsonSchema, keyCase);
  }
  if (Array.isArray(schema.required))
    out.required = (schema.required as string[]).map((k) => renamed.get(k) ?? recaseKey(k, keyCase));
  if (Array.isArray(schema.examples)) out.examples = schema.examples.map((e) => recaseValue(e, keyCase));
  if (Array.isArray(schema.enum)) out.enum = schema.enum.map((e) => recaseValue(e, keyCase));
  for (const k of ['default', 'const'] as const) if (k in schema) out[k] = recaseValue(schema[k], keyCase);
  return out;
}

/** Steps 2 and 3 of the module header on a value (step 1 is the caller's: it depends on the tool). */
export function shapeBody(shape: ResponseShape, status: number, body: unknown): unknown {
  if (body === undefined) return body;
  let out = shape.keyCase ? recaseValue(body, shape.keyCase) : body;
  if (shape.envelope) {
    const wrapped: Record<string, unknown> = { [shape.envelope.dataKey]: out };
    if (shape.envelope.metaKey !== undefined) wrapped[shape.envelope.metaKey] = { status };
    out = wrapped;
  }
  return out;
}

/** Steps 2 and 3 on a schema. */
export function shapeBodySchema(shape: ResponseShape, schema: JsonSchema): JsonSchema {
  let out = shape.keyCase ? recaseSchema(schema, shape.keyCase) : schema;
  if (shape.envelope) {
    const { dataKey, metaKey } = shape.envelope;
    const properties: Record<string, JsonSchema> = { [dataKey]: out };
    const required = [dataKey];
    if (metaKey !== undefined) {
      properties[metaKey] = {
        type: 'object',
        properties: { status: { type: 'integer', description: 'The HTTP status of the answer.' } },
        required: ['status'],
      };
      required.push(metaKey);
    }
    out = { type: 'object', properties, required };
  }
  return out;
}

/** A response schema of a tool as the surface answers it (all three steps; paging only for 2xx answers). */
export function shapeResponseSchema(
  shape: ResponseShape,
  paging: { exposed: PageState['exposed']; base: PageState['base'] } | undefined,
  status: string,
  schema: JsonSchema,
): JsonSchema {
  const paged =
    paging && status.startsWith('2') ? shapePageSchema(paging.exposed, paging.base, schema) : schema;
  return shapeBodySchema(shape, paged);
}

/** A response example (or any body) of a tool, as `shapeApiResponse` would answer it for that status. */
export function shapeResponseValue(
  shape: ResponseShape,
  page: PageState | undefined,
  status: number,
  body: unknown,
): unknown {
  const paged = page && status >= 200 && status < 300 ? shapePage(page, body) : body;
  return shapeBody(shape, status, paged);
}

/** A base response as the surface answers it (see the module header). */
export function shapeApiResponse(
  surface: { response: ResponseShape },
  context: ShapeContext,
  response: { status: number; headers: Record<string, string>; body: unknown },
): { status: number; headers: Record<string, string>; body: unknown } {
  const body = shapeResponseValue(surface.response, context.page, response.status, response.body);
  let headers = response.headers;
  if (body !== response.body) {
    headers = Object.fromEntries(
      Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-length'),
    );
  }
  return { status: response.status, headers, body };
}
