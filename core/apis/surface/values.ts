/**
 * Values on the way between a surface and its API: the JSON types a schema admits, text from a URL or a header
 * read as the JSON value the schema wants (and written back), and the `ValueConversion`s of a retyped parameter
 * in both directions (exposed → base when a call is resolved, base → exposed when a base call is translated onto
 * the surface). Both directions live here so that one definition serves both (`translate.ts` checks every
 * translation by resolving it again).
 */
import type { JsonSchema } from '../types.ts';
import type { ValueConversion } from './model.ts';

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

function jsonTypeOf(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** The JSON types a schema admits (from `type`, else `enum`/`const`, else `anyOf`/`oneOf`); empty = any. */
export function schemaTypes(schema: JsonSchema | undefined): Set<JsonType> {
  if (typeof schema !== 'object' || schema === null) return new Set();
  const t = schema.type;
  if (typeof t === 'string') return new Set([t as JsonType]);
  if (Array.isArray(t)) return new Set(t as JsonType[]);
  if (Array.isArray(schema.enum)) return new Set((schema.enum as unknown[]).map(jsonTypeOf));
  if ('const' in schema) return new Set([jsonTypeOf(schema.const)]);
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives)) {
    const out = new Set<JsonType>();
    for (const a of alternatives) {
      const ts = schemaTypes(a);
      if (ts.size === 0) return new Set();
      for (const x of ts) out.add(x);
    }
    return out;
  }
  return new Set();
}

/** A scalar schema: its only types are among string, integer, number, boolean (and null). */
export function isScalarSchema(schema: JsonSchema | undefined): boolean {
  const ts = schemaTypes(schema);
  return ts.size > 0 && [...ts].every((t) => t !== 'array' && t !== 'object');
}

function itemsSchema(schema: JsonSchema): JsonSchema {
  return typeof schema === 'object' && schema !== null && schema.items !== undefined
    ? (schema.items as JsonSchema)
    : {};
}

const INTEGER_TEXT = /^-?[0-9]+$/;
const NUMBER_TEXT = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/**
 * Text from a path segment, a query string or a header, read as the JSON value the schema wants: integers,
 * numbers, booleans (`true`/`false`) and `null` from their text; an object from JSON text; an array from
 * repeated values or from one comma-separated value. Text that fits none of the schema's types stays text
 * (validation then names the field). A schema that admits strings keeps the text as it is.
 */
export function coerceText(schema: JsonSchema, raw: string | readonly string[]): unknown {
  const types = schemaTypes(schema);
  if (Array.isArray(raw)) {
    return types.size === 0 || types.has('array') ? raw.map((r) => coerceText(itemsSchema(schema), r)) : raw;
  }
  const text = raw as string;
  if (types.size === 0 || types.has('string')) return text;
  if (types.has('integer') && INTEGER_TEXT.test(text)) return Number(text);
  if (types.has('number') && NUMBER_TEXT.test(text)) return Number(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  if (types.has('object') && text.trimStart().startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (types.has('array'))
    return text === '' ? [] : text.split(',').map((t) => coerceText(itemsSchema(schema), t));
  return text;
}

/** A JSON value written as text for a URL or a header (`coerceText` reads it back): arrays comma-joined. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Conversions

export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

function isoDate(seconds: number, format: 'date' | 'date-time'): string | null {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  return format === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z`;
}

/** Does a conversion fit the base parameter's schema? (The model's definitions of each kind.) */
export function conversionFits(conv: ValueConversion, base: JsonSchema): boolean {
  const types = schemaTypes(base);
  switch (conv.kind) {
    case 'to-string':
      return types.size > 0 && [...types].every((t) => t === 'integer' || t === 'number' || t === 'boolean');
    case 'boolean-to-enum':
      return types.size === 1 && types.has('boolean') && conv.true !== conv.false;
    case 'to-integer':
    case 'date-to-timestamp':
      return types.size === 1 && types.has('string');
    case 'to-array':
      return types.size === 1 && types.has('string') && conv.separator !== '';
  }
}

/** An exposed value (already valid for the exposed schema) as the base value. */
export function toBaseValue(conv: ValueConversion, value: unknown, base: JsonSchema): Converted {
  switch (conv.kind) {
    case 'to-string': {
      const text = String(value);
      const types = schemaTypes(base);
      if (types.has('boolean') && (text === 'true' || text === 'false'))
        return { ok: true, value: text === 'true' };
      if (types.has('integer') && INTEGER_TEXT.test(text)) return { ok: true, value: Number(text) };
      if (types.has('number') && NUMBER_TEXT.test(text)) return { ok: true, value: Number(text) };
      const what = types.has('boolean')
        ? '"true" or "false"'
        : types.has('integer')
          ? 'an integer'
          : 'a number';
      return { ok: false, message: `must be a string holding ${what}` };
    }
    case 'to-integer':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
        ? { ok: true, value: String(value) }
        : { ok: false, message: 'must be a non-negative integer' };
    case 'date-to-timestamp': {
      const iso = typeof value === 'number' && Number.isInteger(value) ? isoDate(value, conv.format) : null;
      return iso === null
        ? { ok: false, message: 'must be a Unix timestamp in whole seconds' }
        : { ok: true, value: iso };
    }
    case 'boolean-to-enum':
      if (value === conv.true) return { ok: true, value: true };
      if (value === conv.false) return { ok: true, value: false };
      return { ok: false, message: `must be ${JSON.stringify(conv.true)} or ${JSON.stringify(conv.false)}` };
    case 'to-array': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        return { ok: false, message: 'must be an array of strings' };
      if (value.some((v: string) => v.includes(conv.separator)))
        return { ok: false, message: `items must not contain ${JSON.stringify(conv.separator)}` };
      return { ok: true, value: value.join(conv.separator) };
    }
  }
}

/** A base value as the exposed value (the inverse of `toBaseValue`, where one exists). */
export function fromBaseValue(conv: ValueConversion, value: unknown): Converted {
  switch (conv.kind) {
    case 'to-string':
      return typeof value === 'number' || typeof value === 'boolean'
        ? { ok: true, value: String(value) }
        : { ok: false, message: 'is not a number or a boolean' };
    case 'to-integer':
      return typeof value === 'string' &&
        /^(0|[1-9][0-9]*)$/.test(value) &&
        Number.isSafeInteger(Number(value))
        ? { ok: true, value: Number(value) }
        : { ok: false, message: 'is not a string of digits without leading zeros' };
    case 'date-to-timestamp': {
      const ms =
        typeof value === 'string' ? Date.parse(conv.format === 'date' ? `${value}T00:00:00Z` : value) : NaN;
      if (Number.isNaN(ms) || ms % 1000 !== 0)
        return { ok: false, message: 'is not an ISO date in whole seconds' };
      const seconds = ms / 1000;
      return isoDate(seconds, conv.format) === value
        ? { ok: true, value: seconds }
        : {
            ok: false,
            message: `is not written the way a ${conv.format} is written back (UTC, no fractions)`,
          };
    }
    case 'boolean-to-enum':
      return typeof value === 'boolean'
        ? { ok: true, value: value ? conv.true : conv.false }
        : { ok: false, message: 'is not a boolean' };
    case 'to-array':
      return typeof value === 'string'
        ? { ok: true, value: value.split(conv.separator) }
        : { ok: false, message: 'is not a string' };
  }
}

/** Deep equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => sameJson(x, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}
