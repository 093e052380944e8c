/**
 * JSON Schema (draft 2020-12) validation for imported APIs, with `@cfworker/json-schema`: a validator built for
 * Workers (no code generation, so no `eval` / `new Function`, which workerd forbids). Validators are cached per
 * schema object. (Provisional version; engineer X's module replaces it at integration.)
 */
import { type Schema, Validator } from '@cfworker/json-schema';
import type { JsonSchema } from './types.ts';

export interface SchemaError {
  /** JSON pointer into the validated value (`/results/0/id`; `` for the value itself). */
  pointer: string;
  keyword: string;
  message: string;
}

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: JsonSchema): Validator {
  if (typeof schema === 'boolean') return new Validator(schema, '2020-12', true);
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as Schema, '2020-12', true);
    validators.set(schema, v);
  }
  return v;
}

export function validateJson(schema: JsonSchema, value: unknown): { valid: boolean; errors: SchemaError[] } {
  const result = validatorFor(schema).validate(value);
  if (result.valid) return { valid: true, errors: [] };
  return {
    valid: false,
    errors: result.errors.map((e) => ({
      pointer: e.instanceLocation.replace(/^#/, ''),
      keyword: e.keyword,
      message: e.error,
    })),
  };
}
