import { describe, expect, it, vi } from 'vitest';
import { jsonPointer } from '../../../core/apis/json.ts';
import { isValidJson, validateJson } from '../../../core/apis/validate.ts';

// Counts the validators built, to check that one is built per schema object and mode.
const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('@cfworker/json-schema', async (importOriginal) => {
  const original = await importOriginal<typeof import('@cfworker/json-schema')>();
  class CountingValidator extends original.Validator {
    constructor(...args: ConstructorParameters<typeof original.Validator>) {
      super(...args);
      built.count++;
    }
  }
  return { ...original, Validator: CountingValidator };
});

const PERSON = {
  type: 'object',
  required: ['name', 'ids'],
  properties: {
    name: { type: 'string', minLength: 1 },
    ids: { type: 'array', items: { type: 'integer' } },
    role: { enum: ['cast', 'crew'] },
    'a/b': { type: 'boolean' },
  },
  additionalProperties: false,
};

describe('validateJson (JSON Schema 2020-12, @cfworker/json-schema)', () => {
  it('accepts a valid value', () => {
    expect(validateJson(PERSON, { name: 'Sofia', ids: [1, 2], role: 'crew' })).toEqual({
      valid: true,
      errors: [],
    });
  });

  it('names the failing value by JSON pointer and keyword, not the chain above it', () => {
    const wrongItem = validateJson(PERSON, { name: 'Sofia', ids: [1, 'two'] });
    expect(wrongItem.valid).toBe(false);
    expect(wrongItem.errors[0]).toEqual({
      pointer: '/ids/1',
      keyword: 'type',
      message: 'Value type "string" is invalid. Expected "integer".',
    });
    expect(validateJson(PERSON, { ids: [] }).errors[0]).toMatchObject({ pointer: '', keyword: 'required' });
    expect(validateJson(PERSON, { name: 'x', ids: [], role: 'grip' }).errors[0]).toMatchObject({
      pointer: '/role',
      keyword: 'enum',
    });
  });

  it('reports a property that is not allowed under its own pointer', () => {
    const result = validateJson(PERSON, { name: 'x', ids: [], extra: 1 });
    expect(result.errors).toEqual([
      {
        pointer: '/extra',
        keyword: 'additionalProperties',
        message: 'Property "extra" is not allowed here.',
      },
    ]);
  });

  it('escapes pointer tokens (RFC 6901)', () => {
    expect(validateJson(PERSON, { name: 'x', ids: [], 'a/b': 'yes' }).errors[0]?.pointer).toBe('/a~1b');
    expect(jsonPointer('paths', '/movie/{movie_id}', 'get')).toBe('/paths/~1movie~1{movie_id}/get');
    expect(jsonPointer('a~b', 0)).toBe('/a~0b/0');
  });

  it('stops at the first failure unless every failure is asked for', () => {
    const value = { name: '', ids: ['a', 'b'] };
    expect(validateJson(PERSON, value).errors).toHaveLength(1);
    const all = validateJson(PERSON, value, { allErrors: true }).errors.map((e) => e.pointer);
    expect(all).toEqual(expect.arrayContaining(['/name', '/ids/0', '/ids/1']));
  });

  it('takes boolean schemas and other drafts', () => {
    expect(isValidJson(true, 42)).toBe(true);
    expect(validateJson(false, 42)).toMatchObject({ valid: false, errors: [{ pointer: '' }] });
    // Draft 4's boolean exclusiveMinimum (OpenAPI 3.0 schemas are draft 4).
    const draft4 = { type: 'number', minimum: 0, exclusiveMinimum: true };
    expect(isValidJson(draft4, 0, '4')).toBe(false);
    expect(isValidJson(draft4, 0.5, '4')).toBe(true);
  });

  it('builds one validator per schema object and mode, then reuses it', () => {
    const schema = { type: 'integer', maximum: 3 };
    const before = built.count;
    for (let i = 0; i < 5; i++) expect(isValidJson(schema, i)).toBe(i <= 3);
    expect(built.count).toBe(before + 1);
    validateJson(schema, 9, { allErrors: true });
    validateJson(schema, 9, { allErrors: true });
    expect(built.count).toBe(before + 2);
    expect(isValidJson({ type: 'integer', maximum: 3 }, 2)).toBe(true); // an equal but other object
    expect(built.count).toBe(before + 3);
  });
});
