/**
 * Valid base calls of a catalog's operations, for round-trip property tests: every required parameter and a
 * seeded choice of the optional ones, each with a value drawn from its schema (an enum member, a number within
 * its bounds, an ISO date for date-like strings, text with spaces for free text, arrays and objects built from
 * their item and property schemas). A whole (non-flattened) body is built from the body schema. A parameter whose
 * schema admits no value (TMDB's `with_status`: type string, integer enum) is left out.
 */
import type { ApiCatalog, ApiOperation, JsonSchema } from '../../../../core/apis/types.ts';
import { isValidJson } from '../../../../core/apis/validate.ts';
import { Rng } from '../../../../core/util/random.ts';

/** A schema no value satisfies (a slip of the document): the parameter is left out. */
const UNSATISFIABLE = Symbol('unsatisfiable');

const WORDS = [
  'Sofia Coppola',
  'Lost in Translation',
  'the matrix',
  'Tokyo',
  'blue axolotl',
  'en-US',
  'alpha',
];

function sample(schema: JsonSchema, name: string, rng: Rng, depth = 0): unknown {
  if (typeof schema !== 'object' || schema === null) return 'x';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    // TMDB's with_status / with_type declare a string type with integer members: no value is valid there.
    const options = (schema.enum as unknown[]).filter((v) => v !== '' && isValidJson(schema, v));
    return options.length > 0 ? rng.pick(options) : UNSATISFIABLE;
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0)
    return sample(alternatives[0] as JsonSchema, name, rng, depth);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  const lower = name.toLowerCase();
  switch (type) {
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      const max = typeof schema.maximum === 'number' ? schema.maximum : min + 500;
      return rng.int(min, max);
    }
    case 'number':
      return rng.int(1, 90) / 10;
    case 'boolean':
      return rng.chance(0.5);
    case 'array':
      return depth > 3
        ? []
        : [sample((schema.items ?? { type: 'string' }) as JsonSchema, name, rng, depth + 1)];
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 3) return out;
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      for (const [k, s] of Object.entries(props)) out[k] = sample(s, k, rng, depth + 1);
      return out;
    }
    default: {
      if (schema.format === 'date-time')
        return `20${rng.int(10, 25)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}T10:30:00Z`;
      if (schema.format === 'date' || lower.includes('date'))
        return `20${rng.int(10, 25)}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`;
      if (schema.format === 'email') return 'ana@example.com';
      if (lower.includes('id')) return String(rng.int(100, 99999));
      return rng.pick(WORDS);
    }
  }
}

/** A valid base call of the operation (all required parameters, optional ones with probability `p`). */
export function sampleBaseArgs(op: ApiOperation, seed: string, p = 0.7): Record<string, unknown> {
  const rng = new Rng(`${seed}/${op.name}`);
  const args: Record<string, unknown> = {};
  for (const param of op.params) {
    if (!param.required && !rng.chance(p)) continue;
    if (op.pagination?.style === 'offset' && param.name === op.pagination.offsetParam) {
      args[param.name] = op.pagination.pageSize * rng.int(0, 3);
      continue;
    }
    if (op.pagination?.style === 'offset' && param.name === op.pagination.limitParam) continue;
    const value = sample(param.schema, param.name, rng);
    if (value !== UNSATISFIABLE) args[param.name] = value;
  }
  if (op.body && !op.body.flattened && (op.body.required || rng.chance(p)))
    args.body = sample(op.body.schema, 'body', rng);
  return args;
}

/** One sampled base call per operation of the catalog. */
export function sampleBaseCalls(
  catalog: ApiCatalog,
  seed: string,
): { operation: string; args: Record<string, unknown> }[] {
  return catalog.operations.map((op) => ({ operation: op.name, args: sampleBaseArgs(op, seed) }));
}
