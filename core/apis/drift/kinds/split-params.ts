/**
 * `split-params` — a free-text parameter is split in two: its first word and the rest, joined again with a space
 * before they reach the API (`{"query": "Sofia Coppola"}` → `{"query_head": "Sofia", "query_tail": "Coppola"}`).
 * The first part is required when the parameter was; the second is optional (a one-word value leaves it out).
 * Only plain string parameters in the query string or the body without enum, format or pattern are split, those
 * whose name says free text (query, text, keyword, name, title, search, …) first.
 */
import type { ExposedParam } from '../../surface/model.ts';
import { schemaTypes } from '../../surface/values.ts';
import { type ApiToolDraft, choose, defineApiDriftKind } from '../kind.ts';
import { draftKeys, nameWords, styled, styleOf } from '../names.ts';

const SUFFIXES: readonly (readonly [string, string])[] = [
  ['head', 'tail'],
  ['first', 'rest'],
  ['start', 'more'],
  ['lead', 'remainder'],
];
const FREE_TEXT =
  /query|text|keyword|name|title|search|term|phrase|address|description|comment|message|note/i;

function splittable(p: ExposedParam): boolean {
  if (
    p.kind !== 'param' ||
    p.convert !== undefined ||
    (p.in !== 'query' && p.in !== 'body') ||
    p.base === 'body'
  )
    return false;
  const s = p.schema as Record<string, unknown>;
  const types = schemaTypes(p.schema);
  return (
    types.size === 1 &&
    types.has('string') &&
    s.enum === undefined &&
    s.format === undefined &&
    s.pattern === undefined
  );
}

export const splitParams = defineApiDriftKind({
  id: 'split-params',
  summary: 'free-text parameters split into their first word and the rest',
  order: 30,
  apply(work) {
    const rng = work.root.fork('split-params');
    const all = work.tools.flatMap((d) => d.params.filter(splittable).map((p) => ({ d, p })));
    const preferred = all.filter(({ p }) => FREE_TEXT.test(p.name));
    for (const { d, p } of choose(preferred.length > 0 ? preferred : all, 0.5, rng)) {
      const r = work.root.fork(`split-params/${d.op.name}/${p.name}`);
      const taken = draftKeys((d as ApiToolDraft).params);
      const style = styleOf(p.name);
      const options = SUFFIXES.map(
        ([a, b]) =>
          [styled([...nameWords(p.name), a], style), styled([...nameWords(p.name), b], style)] as const,
      ).filter(([a, b]) => !taken.has(a.toLowerCase()) && !taken.has(b.toLowerCase()));
      if (options.length === 0) continue;
      const [first, rest] = r.pick(options);
      const about = p.description ? ` (${p.description.replace(/\s+$/, '')})` : '';
      const parts: ExposedParam[] = [
        {
          kind: 'part',
          name: first,
          in: p.in,
          required: p.required,
          schema: { type: 'string' },
          description: `The first word of ${p.name}${about}. The API joins it with ${rest} by a space.`,
          base: (p as Extract<ExposedParam, { kind: 'param' }>).base,
          index: 0,
          count: 2,
          joiner: ' ',
        },
        {
          kind: 'part',
          name: rest,
          in: p.in,
          required: false,
          schema: { type: 'string' },
          description: `The rest of ${p.name} after its first word (leave it out for one word).`,
          base: (p as Extract<ExposedParam, { kind: 'param' }>).base,
          index: 1,
          count: 2,
          joiner: ' ',
        },
      ];
      d.params = d.params.flatMap((x) => (x === p ? parts : [x]));
    }
  },
});
