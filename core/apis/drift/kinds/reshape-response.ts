/**
 * `reshape-response` — every answer changes shape: its object keys are written in another case
 * (`poster_path` → `posterPath`, `PosterPath` or `poster-path`; the case the API's response schemas mostly use is
 * never drawn), and/or the body is wrapped in an envelope (`{"data": …, "meta": {"status": 200}}`), error bodies
 * included (core/apis/surface/shape.ts).
 */
import type { KeyCase } from '../../surface/model.ts';
import type { JsonSchema } from '../../types.ts';
import { defineApiDriftKind } from '../kind.ts';
import { styleOf } from '../names.ts';

const CASES: readonly KeyCase[] = ['snake', 'camel', 'pascal', 'kebab'];
const ENVELOPES: readonly (readonly [string, string])[] = [
  ['data', 'meta'],
  ['result', 'info'],
  ['payload', 'status'],
  ['response', 'details'],
];

function collectKeys(schema: JsonSchema, out: string[], depth = 0): void {
  if (typeof schema !== 'object' || schema === null || depth > 6) return;
  const props = schema.properties;
  if (typeof props === 'object' && props !== null) {
    for (const [k, v] of Object.entries(props)) {
      out.push(k);
      collectKeys(v as JsonSchema, out, depth + 1);
    }
  }
  for (const key of ['items', 'additionalProperties'])
    if (schema[key] !== undefined) collectKeys(schema[key] as JsonSchema, out, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list) collectKeys(s as JsonSchema, out, depth + 1);
  }
}

/** The key case most multi-word keys of the API's response schemas are written in. */
export function dominantKeyCase(schemas: readonly JsonSchema[]): KeyCase {
  const keys: string[] = [];
  for (const s of schemas) collectKeys(s, keys);
  const counts = new Map<KeyCase, number>();
  for (const k of keys) {
    if (!/[_\-A-Z]/.test(k.slice(1))) continue;
    const c = styleOf(k);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'snake';
}

export const reshapeResponse = defineApiDriftKind({
  id: 'reshape-response',
  summary: 'answers reshaped (another key case and/or an envelope)',
  order: 90,
  apply(work) {
    const rng = work.root.fork('reshape-response');
    let keyCase = rng.chance(0.6);
    const envelope = rng.chance(0.6);
    if (!keyCase && !envelope) keyCase = true;
    const shape = { ...work.response };
    if (keyCase) {
      const own = dominantKeyCase(
        work.catalog.operations.flatMap((o) =>
          o.responses.flatMap((r) => (r.schema !== undefined ? [r.schema] : [])),
        ),
      );
      shape.keyCase = rng.pick(CASES.filter((c) => c !== own && c !== shape.keyCase));
    }
    if (envelope) {
      const [dataKey, metaKey] = rng.pick(ENVELOPES);
      shape.envelope = rng.chance(0.5) ? { dataKey, metaKey } : { dataKey };
    }
    work.response = shape;
  },
});
