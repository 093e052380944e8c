/**
 * `retype-params` — parameters change type or format, with a conversion the surface applies
 * (`ValueConversion`): an integer, number or boolean becomes a string (`"550"`, `"true"`); a boolean becomes a
 * pair of words (`"include"` / `"exclude"`); a date string (`format: date` or `date-time`, or a string parameter
 * whose name says date) becomes a Unix timestamp in seconds; a comma-separated list in one string (its
 * description says so) becomes an array of strings; a string of digits (`pattern` of digits, `format: int32/64`)
 * becomes an integer. Only plain renamed parameters are retyped (not merged, split or already converted ones).
 */
import type { Rng } from '../../../util/random.ts';
import type { ExposedParam, ValueConversion } from '../../surface/model.ts';
import { schemaTypes } from '../../surface/values.ts';
import type { JsonSchema } from '../../types.ts';
import { choose, defineApiDriftKind } from '../kind.ts';

type PlainParam = Extract<ExposedParam, { kind: 'param' }>;

const ENUM_PAIRS: readonly (readonly [string, string])[] = [
  ['yes', 'no'],
  ['on', 'off'],
  ['include', 'exclude'],
  ['enabled', 'disabled'],
  ['Y', 'N'],
];

function field(schema: JsonSchema, key: string): unknown {
  return typeof schema === 'object' && schema !== null ? schema[key] : undefined;
}

/** The conversions that fit a parameter (see the module header). */
export function conversionsFor(p: PlainParam): ValueConversion[] {
  const types = schemaTypes(p.schema);
  const format = field(p.schema, 'format');
  const hasEnum = Array.isArray(field(p.schema, 'enum'));
  if (types.size === 0 || types.has('null')) return [];
  if ([...types].every((t) => t === 'integer' || t === 'number')) return [{ kind: 'to-string' }];
  if (types.size === 1 && types.has('boolean'))
    return [{ kind: 'to-string' }, { kind: 'boolean-to-enum', true: 'yes', false: 'no' }];
  if (types.size !== 1 || !types.has('string') || hasEnum) return [];
  if (format === 'date' || format === 'date-time') return [{ kind: 'date-to-timestamp', format }];
  if (format === undefined && field(p.schema, 'pattern') === undefined && /date/i.test(p.base))
    return [{ kind: 'date-to-timestamp', format: 'date' }];
  if (
    format === 'int32' ||
    format === 'int64' ||
    field(p.schema, 'pattern') === '^[0-9]+$' ||
    field(p.schema, 'pattern') === '^\\d+$'
  )
    return [{ kind: 'to-integer' }];
  const description = `${p.description ?? ''} ${typeof field(p.schema, 'description') === 'string' ? field(p.schema, 'description') : ''}`;
  if (
    format === undefined &&
    /comma[- ]?separated|comma and pipe|comma or pipe|list of [^.]*,/i.test(description)
  )
    return [{ kind: 'to-array', separator: ',' }];
  return [];
}

/** The exposed schema and the description added for a conversion. */
function retyped(p: PlainParam, conv: ValueConversion): { schema: JsonSchema; note: string } {
  const types = schemaTypes(p.schema);
  switch (conv.kind) {
    case 'to-string':
      if (types.has('boolean'))
        return {
          schema: { type: 'string', enum: ['true', 'false'] },
          note: 'Sent as the string "true" or "false".',
        };
      return types.has('number')
        ? {
            schema: { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' },
            note: 'Sent as a string holding the number.',
          }
        : {
            schema: { type: 'string', pattern: '^-?[0-9]+$' },
            note: 'Sent as a string holding the integer.',
          };
    case 'boolean-to-enum':
      return {
        schema: { type: 'string', enum: [conv.true, conv.false] },
        note: `"${conv.true}" for true, "${conv.false}" for false.`,
      };
    case 'date-to-timestamp':
      return {
        schema: { type: 'integer' },
        note: `Sent as a Unix timestamp in seconds (UTC${conv.format === 'date' ? ' midnight of the day' : ''}).`,
      };
    case 'to-array':
      return {
        schema: { type: 'array', items: { type: 'string' } },
        note: 'Sent as an array of strings, one per item.',
      };
    case 'to-integer':
      return { schema: { type: 'integer', minimum: 0 }, note: 'Sent as an integer.' };
  }
}

function withPair(conv: ValueConversion, rng: Rng): ValueConversion {
  if (conv.kind !== 'boolean-to-enum') return conv;
  const [t, f] = rng.pick(ENUM_PAIRS);
  return { kind: 'boolean-to-enum', true: t, false: f };
}

export const retypeParams = defineApiDriftKind({
  id: 'retype-params',
  summary:
    'parameters change type or format (numbers as strings, booleans as words, dates as timestamps, lists as arrays)',
  order: 20,
  apply(work) {
    const rng = work.root.fork('retype-params');
    const eligible = work.tools.flatMap((d) =>
      d.params.flatMap((p) =>
        p.kind === 'param' &&
        p.convert === undefined &&
        !(p.base === 'body' && p.in === 'body') &&
        conversionsFor(p).length > 0
          ? [{ d, p }]
          : [],
      ),
    );
    for (const { d, p } of choose(eligible, 0.35, rng)) {
      const r = work.root.fork(`retype-params/${d.op.name}/${p.base}`);
      const conv = withPair(r.pick(conversionsFor(p as PlainParam)), r);
      const { schema, note } = retyped(p as PlainParam, conv);
      const next: PlainParam = { ...(p as PlainParam), schema, convert: conv };
      next.description = p.description ? `${p.description} ${note}` : note;
      d.params = d.params.map((x) => (x === p ? next : x));
    }
  },
});
