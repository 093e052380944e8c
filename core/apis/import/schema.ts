/**
 * Catalog schemas from a dereferenced OpenAPI 3.1 document: plain JSON trees (no `$ref`, no shared or circular
 * objects), JSON Schema 2020-12.
 *
 * The dereferencer (`@scalar/openapi-parser`'s `dereference`) resolves every `$ref` in place, so a recursive
 * schema (a person whose `friends` are persons) becomes a circular object graph. `catalogSchema` copies a schema
 * out of that graph and cuts a recursion at its second visit: the `$ref` site that would enter a schema already
 * being expanded on the current branch becomes `{}` (any value) and the import gets a "recursive schema cut"
 * warning naming the schema (`core/apis/types.ts`). Keywords are read by what they hold: subschemas are copied
 * as schemas, name → schema maps (`properties`, …) by name — so a property called `default` stays a schema —
 * and everything else (examples, defaults, `enum`, annotations) as data.
 */
import type { JsonSchema } from '../types.ts';

/** Keywords whose value is one schema or a list of schemas. */
const SCHEMA_KEYWORDS = new Set([
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'dependentSchemas',
  '$defs',
  'definitions',
]);

export interface SchemaCopier {
  /** The `$ref` each resolved site came from (filled by the dereferencer's `onDereference` hook). */
  refOf: WeakMap<object, string>;
  /** Called once per cut: the reference that recursed. */
  onCut(ref: string): void;
}

export function catalogSchema(node: unknown, copier: SchemaCopier): JsonSchema {
  return copySchema(node, copier, [], new Set());
}

function copySchema(
  node: unknown,
  copier: SchemaCopier,
  refs: readonly string[],
  ancestors: Set<object>,
): JsonSchema {
  if (node === true || node === false) return node;
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return {};
  if (ancestors.has(node)) {
    // A cycle that no recorded reference explains (not expected; a guard against runaway recursion).
    copier.onCut(refs[refs.length - 1] ?? '#');
    return {};
  }
  const ref = copier.refOf.get(node);
  if (ref !== undefined) {
    if (refs.includes(ref)) {
      copier.onCut(ref);
      return {};
    }
    refs = [...refs, ref];
  }
  ancestors.add(node);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (SCHEMA_KEYWORDS.has(key)) {
      out[key] = Array.isArray(value)
        ? value.map((v) => copySchema(v, copier, refs, ancestors))
        : copySchema(value, copier, refs, ancestors);
    } else if (
      SCHEMA_MAP_KEYWORDS.has(key) &&
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value)
    ) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, v]) => [name, copySchema(v, copier, refs, ancestors)]),
      );
    } else {
      out[key] = copyData(value);
    }
  }
  ancestors.delete(node);
  return withoutOpenApi30Keywords(out);
}

/**
 * What the 3.0 → 3.1 upgrader leaves of OpenAPI 3.0's schema dialect, made JSON Schema 2020-12: `nullable`
 * beside a `type` becomes a type union and without one is dropped (OpenAPI 3.0.3: it then has no effect),
 * `example` becomes `examples`, boolean `exclusiveMinimum` / `exclusiveMaximum` take the numeric form.
 */
function withoutOpenApi30Keywords(schema: Record<string, unknown>): Record<string, unknown> {
  if ('nullable' in schema) {
    const nullable = schema.nullable === true;
    delete schema.nullable;
    const type = schema.type;
    if (nullable && typeof type === 'string') schema.type = [type, 'null'];
    else if (nullable && Array.isArray(type) && !type.includes('null')) schema.type = [...type, 'null'];
  }
  if ('example' in schema) {
    if (schema.examples === undefined) schema.examples = [schema.example];
    delete schema.example;
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof schema[flag] !== 'boolean') continue;
    if (schema[flag] === true && typeof schema[bound] === 'number') {
      schema[flag] = schema[bound];
      delete schema[bound];
    } else {
      delete schema[flag];
    }
  }
  return schema;
}

/** A JSON copy of a data value (examples may be shared between places of the dereferenced graph). */
export function copyData(value: unknown, ancestors: Set<object> = new Set()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (ancestors.has(value)) return {};
  ancestors.add(value);
  const out = Array.isArray(value)
    ? value.map((v) => copyData(v, ancestors))
    : Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, copyData(v, ancestors)]),
      );
  ancestors.delete(value);
  return out;
}

/** True when the schema describes a JSON object with named properties (a body that can be flattened). */
export function objectSchemaParts(
  schema: JsonSchema,
): { properties: Record<string, JsonSchema>; required: string[] } | null {
  if (typeof schema !== 'object') return null;
  if (schema.oneOf || schema.anyOf || schema.not || schema.if) return null;
  const parts: { properties: Record<string, JsonSchema>; required: string[] } = {
    properties: {},
    required: [],
  };
  const own = schema.properties;
  const type = schema.type;
  const isObject = type === 'object' || (Array.isArray(type) && type.length === 1 && type[0] === 'object');
  if (!isObject && !(own && typeof own === 'object') && !Array.isArray(schema.allOf)) return null;
  if (type !== undefined && !isObject) return null;
  if (own && typeof own === 'object') Object.assign(parts.properties, own);
  if (Array.isArray(schema.required)) parts.required.push(...(schema.required as string[]));
  if (Array.isArray(schema.allOf)) {
    // allOf of plain object schemas (a common way to extend a base schema) merges into one object.
    for (const member of schema.allOf as JsonSchema[]) {
      const sub = objectSchemaParts(member);
      if (!sub) return null;
      for (const [name, prop] of Object.entries(sub.properties)) {
        if (name in parts.properties) return null; // the same property constrained twice: leave the body whole
        parts.properties[name] = prop;
      }
      parts.required.push(...sub.required);
    }
  }
  if (Object.keys(parts.properties).length === 0) return null;
  parts.required = [...new Set(parts.required)].filter((name) => name in parts.properties);
  return parts;
}
