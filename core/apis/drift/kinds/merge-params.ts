/**
 * `merge-params` — two or three optional scalar parameters in the same place are carried in one string, joined
 * by a separator in a fixed order (`{"year": 2019, "region": "US"}` → `{"year_region": "2019|US"}`); an empty part
 * leaves that parameter out (`"|US"`). Free text (query, name, title, …) is never merged, since it may hold the
 * separator; each part is read as its base parameter's type.
 */
import type { ExposedParam } from '../../surface/model.ts';
import { isScalarSchema, schemaTypes } from '../../surface/values.ts';
import { choose, defineApiDriftKind } from '../kind.ts';
import { draftKeys, nameWords, styled, styleOf, type WordStyle } from '../names.ts';

type PlainParam = Extract<ExposedParam, { kind: 'param' }>;

const SEPARATORS = ['|', ';', '~'];
const FREE_TEXT =
  /query|text|keyword|name|title|search|term|phrase|address|description|comment|message|note|url|email/i;

function mergeable(p: ExposedParam): p is PlainParam {
  if (p.kind !== 'param' || p.convert !== undefined || p.required || (p.in !== 'query' && p.in !== 'body'))
    return false;
  if (p.base === 'body' || !isScalarSchema(p.schema) || FREE_TEXT.test(p.name)) return false;
  const s = p.schema as Record<string, unknown>;
  return !(schemaTypes(p.schema).has('string') && s.format !== undefined);
}

/**
 * The merged key: the keys' words in order (`year_region`); when that is longer than a key may be, the first two
 * words of each, cut at a word; a number is appended while the key is taken.
 */
function mergedName(keys: readonly string[], style: WordStyle, taken: ReadonlySet<string>): string {
  let words = keys.flatMap((k) => nameWords(k));
  if (styled(words, style).length > 60) words = keys.flatMap((k) => nameWords(k).slice(0, 2));
  while (words.length > 1 && styled(words, style).length > 60) words = words.slice(0, -1);
  const stem = styled(words, style);
  let name = stem;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}${n}`;
  return name;
}

export const mergeParams = defineApiDriftKind({
  id: 'merge-params',
  summary: 'optional scalar parameters merged into one separated string',
  order: 40,
  apply(work) {
    const rng = work.root.fork('merge-params');
    const groups = (params: readonly ExposedParam[]) =>
      (['query', 'body'] as const)
        .map((loc) => params.filter((p): p is PlainParam => mergeable(p) && p.in === loc))
        .filter((g) => g.length >= 2);
    for (const d of choose(
      work.tools.filter((t) => groups(t.params).length > 0),
      0.5,
      rng,
    )) {
      const r = work.root.fork(`merge-params/${d.op.name}`);
      const group = r.pick(groups(d.params));
      const chosen = r.sample(group, group.length >= 3 && r.chance(0.3) ? 3 : 2);
      const ordered = group.filter((p) => chosen.includes(p));
      const separator = r.pick(SEPARATORS);
      const taken = draftKeys(d.params.filter((p) => !ordered.includes(p as PlainParam)));
      const style = styleOf(ordered[0]?.name ?? '');
      const name = mergedName(
        ordered.map((p) => p.name),
        style,
        taken,
      );
      const merged: ExposedParam = {
        kind: 'merged',
        name,
        in: ordered[0]?.in ?? 'query',
        required: false,
        schema: { type: 'string' },
        description:
          `${ordered.map((p) => p.name).join(` ${separator} `)} in one string, joined by "${separator}" in this order ` +
          `(leave a part empty to leave it out). ${ordered.map((p) => `${p.name}: ${p.description ?? 'see the API'}`).join(' ')}`,
        bases: ordered.map((p) => p.base),
        separator,
      };
      const at = d.params.indexOf(ordered[0] as ExposedParam);
      d.params = d.params.flatMap((p, i) =>
        i === at ? [merged] : ordered.includes(p as PlainParam) ? [] : [p],
      );
    }
  },
});
