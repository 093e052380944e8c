/**
 * JSON Schema validation for imported APIs: request arguments, response bodies, examples and OpenAPI documents.
 *
 * Built on `@cfworker/json-schema`, a validator written for Workers: it interprets schemas instead of compiling
 * them to code, so it needs no `eval` / `new Function` (which workerd forbids; ajv needs them). It supports
 * drafts 4, 7, 2019-09 and 2020-12; catalog schemas are 2020-12 (`core/apis/types.ts`), the official OpenAPI 2.0
 * and 3.0 schemas draft 4.
 *
 * A `Validator` indexes its schema when it is built, so validators are cached per schema *object* (a WeakMap:
 * the cache goes when the catalog goes) — validating every call of an operation reuses one validator.
 *
 * Errors: `@cfworker/json-schema` reports the whole chain from the root (`Property "paths" does not match
 * schema.`, `A subschema had errors.`, …) down to what actually failed. `validateJson` keeps the failures that
 * say something — a wrong type, a missing property, a value outside an enum, a property that is not allowed —
 * each with the JSON pointer of the value concerned, first failure first.
 */
import { type OutputUnit, Validator } from '@cfworker/json-schema';
import type { JsonSchema } from './types.ts';

export type SchemaDraft = '4' | '7' | '2019-09' | '2020-12';

export interface JsonValidationError {
  /** JSON pointer of the failing value inside the validated instance (`''` = the instance itself). */
  pointer: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, `additionalProperties`, …). */
  keyword: string;
  message: string;
}

export interface JsonValidationResult {
  valid: boolean;
  errors: JsonValidationError[];
}

export interface ValidateOptions {
  /** Default `2020-12` (what catalog schemas are). */
  draft?: SchemaDraft;
  /** Report every failure instead of stopping at the first (slower on large instances). Default false. */
  allErrors?: boolean;
}

const cache = new WeakMap<object, Map<string, Validator>>();

function validatorFor(schema: object, draft: SchemaDraft, allErrors: boolean): Validator {
  let byMode = cache.get(schema);
  if (!byMode) {
    byMode = new Map();
    cache.set(schema, byMode);
  }
  const key = `${draft}:${allErrors ? 'all' : 'first'}`;
  let validator = byMode.get(key);
  if (!validator) {
    validator = new Validator(schema as ConstructorParameters<typeof Validator>[0], draft, !allErrors);
    byMode.set(key, validator);
  }
  return validator;
}

/** Validates `value` against `schema`; `errors` is empty when valid. */
export function validateJson(
  schema: JsonSchema,
  value: unknown,
  opts: ValidateOptions = {},
): JsonValidationResult {
  if (schema === true) return { valid: true, errors: [] };
  if (schema === false) {
    return {
      valid: false,
      errors: [{ pointer: '', keyword: 'false', message: 'No value is allowed here.' }],
    };
  }
  const result = validatorFor(schema, opts.draft ?? '2020-12', opts.allErrors ?? false).validate(value);
  return { valid: result.valid, errors: result.valid ? [] : meaningfulErrors(result.errors) };
}

/** `true` when `value` validates (no error details). */
export function isValidJson(schema: JsonSchema, value: unknown, draft: SchemaDraft = '2020-12'): boolean {
  return validateJson(schema, value, { draft }).valid;
}

/** Keywords whose failure is itself the reason (the others only say that something below them failed). */
const LEAF_KEYWORDS = new Set([
  'type',
  'required',
  'enum',
  'const',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependencies',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'not',
  'false',
]);

/** Turns the validator's chain of output units into the failures worth reading, first failure first. */
export function meaningfulErrors(units: readonly OutputUnit[]): JsonValidationError[] {
  const out: JsonValidationError[] = [];
  const seen = new Set<string>();
  for (const [i, unit] of units.entries()) {
    if (!LEAF_KEYWORDS.has(unit.keyword)) continue;
    const pointer = instancePointer(unit.instanceLocation);
    let error: JsonValidationError;
    if (unit.keyword === 'false') {
      // A `false` schema below additionalProperties / unevaluatedProperties: a property that is not allowed.
      const parent = units[i - 1];
      const property = unescapeToken(pointer.slice(pointer.lastIndexOf('/') + 1));
      error =
        parent && (parent.keyword === 'additionalProperties' || parent.keyword === 'unevaluatedProperties')
          ? { pointer, keyword: parent.keyword, message: `Property "${property}" is not allowed here.` }
          : { pointer, keyword: 'false', message: 'No value is allowed here.' };
    } else {
      error = { pointer, keyword: unit.keyword, message: readable(unit.error) };
    }
    const key = `${error.pointer}\u0000${error.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  if (out.length === 0 && units.length > 0) {
    const last = units[units.length - 1]!;
    out.push({
      pointer: instancePointer(last.instanceLocation),
      keyword: last.keyword,
      message: readable(last.error),
    });
  }
  return out;
}

/** `#/paths/~1a~1%7Bid%7D` (a URI fragment) → `/paths/~1a~1{id}` (a JSON pointer). */
function instancePointer(location: string): string {
  const fragment = location.startsWith('#') ? location.slice(1) : location;
  try {
    return decodeURI(fragment);
  } catch {
    return fragment;
  }
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function readable(message: string): string {
  return message.replace(/^Instance\b/, 'Value');
}
