/**
 * Reading the shape of a (dereferenced, draft 2020-12) schema the way the mock needs it: the properties of an
 * object schema with `allOf` merged, the alternatives of `oneOf` / `anyOf`, the item schema of an array, the
 * types a schema allows. Pure functions over plain JSON.
 */
import type { ApiOperation, ApiResponse, JsonSchema } from '../types.ts';

export type SchemaObject = { [key: string]: unknown };

export function asObject(schema: JsonSchema | undefined): SchemaObject {
  return typeof schema === 'object' && schema !== null ? schema : {};
}

/** The JSON types a schema allows (from `type`, else inferred from its keywords); empty means any. */
export function typesOf(schema: JsonSchema | undefined): string[] {
  const s = asObject(schema);
  if (typeof s.type === 'string') return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  if (s.properties || s.additionalProperties || s.required) return ['object'];
  if (s.items || s.prefixItems) return ['array'];
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    return [...new Set(s.enum.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)))];
  }
  return [];
}

/** The alternatives of a `oneOf` / `anyOf` (the schema itself when it has none). */
export function alternatives(schema: JsonSchema | undefined): JsonSchema[] {
  const s = asObject(schema);
  const alts = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (!Array.isArray(alts) || alts.length === 0) return [schema ?? {}];
  const { oneOf: _o, anyOf: _a, ...rest } = s;
  // Keywords beside the alternatives apply to each of them (`{type: object, oneOf: [...]}`).
  return alts.map((alt) => (Object.keys(rest).length > 0 ? mergeSchemas(rest, asObject(alt)) : alt));
}

function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a, ...b };
  if (a.properties || b.properties) {
    out.properties = { ...asObject(a.properties as JsonSchema), ...asObject(b.properties as JsonSchema) };
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  }
  return out;
}

/** The schema with its `allOf` parts merged into one (properties and required lists united). */
export function flattenAllOf(schema: JsonSchema | undefined): SchemaObject {
  const s = asObject(schema);
  if (!Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  let merged: SchemaObject = rest;
  for (const part of allOf as JsonSchema[]) merged = mergeSchemas(merged, flattenAllOf(part));
  return merged;
}

/** The properties of an object schema (allOf merged; of a oneOf/anyOf, the first alternative's). */
export function propertiesOf(schema: JsonSchema | undefined): Record<string, JsonSchema> {
  const s = flattenAllOf(alternatives(schema)[0]);
  return asObject(s.properties as JsonSchema) as Record<string, JsonSchema>;
}

/** The item schema of an array schema (`items`, or the first `prefixItems`). */
export function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  const s = flattenAllOf(alternatives(schema)[0]);
  if (s.items !== undefined && typeof s.items !== 'boolean') return s.items as JsonSchema;
  if (Array.isArray(s.prefixItems) && s.prefixItems.length > 0) return s.prefixItems[0] as JsonSchema;
  return undefined;
}

function statusRank(status: string): number {
  if (status === '200') return 0;
  if (/^2\d\d$/.test(status)) return 1;
  if (status === '2XX') return 2;
  return 3;
}

/** The success response: 200, else the first other 2xx, else `2XX`. */
export function successResponse(op: ApiOperation): ApiResponse | undefined {
  const ok = op.responses.filter((r) => statusRank(r.status) < 3);
  return ok.sort((a, b) => statusRank(a.status) - statusRank(b.status))[0];
}

/** The declared response for an error status: the exact code, else `4XX` / `5XX`, else `default`. */
export function errorResponse(op: ApiOperation, status: number): ApiResponse | undefined {
  return (
    op.responses.find((r) => r.status === String(status)) ??
    op.responses.find((r) => r.status.toUpperCase() === `${String(status)[0]}XX`) ??
    op.responses.find((r) => r.status === 'default')
  );
}

/** `/results/*` style pointer step. */
export function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${typeof key === 'number' ? '*' : key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}
