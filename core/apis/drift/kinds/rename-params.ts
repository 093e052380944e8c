/**
 * `rename-params` — parameter keys get new names, the same way everywhere in the API (a real API renames a
 * concept, not one occurrence): some words are replaced by synonyms and the key may change style
 * (`movie_id` → `filmId`, `include_adult` → `with_mature`, `query` → `lookup`; a one-word key without synonyms
 * gets a qualifier: `timezone` → `timezoneValue`). A renamed path parameter renames
 * its placeholder too (`/movie/{movie_id}` → `/movie/{filmId}`). Keys that would clash within a tool draw again.
 */
import type { ExposedParam } from '../../surface/model.ts';
import { pageParams } from '../../surface/pagination.ts';
import { choose, defineApiDriftKind } from '../kind.ts';
import { nameWords, styled, styleOf, synonymWords, WORD_STYLES } from '../names.ts';

/** Keys are written in snake_case or camelCase. */
const KEY_STYLES = WORD_STYLES.filter((s) => s === 'snake' || s === 'camel');

/** Appended to a one-word key without synonyms, so that the rename changes more than its case. */
const QUALIFIERS = ['value', 'param', 'input'];

export const renameParams = defineApiDriftKind({
  id: 'rename-params',
  summary: 'parameter keys renamed (synonyms and another case style), consistently across the API',
  order: 50,
  apply(work) {
    const rng = work.root.fork('rename-params');
    const names = [
      ...new Set(
        work.tools.flatMap((d) =>
          d.params
            .filter((p) => !(p.kind === 'param' && p.base === 'body' && p.in === 'body'))
            .map((p) => p.name),
        ),
      ),
    ];
    const chosen = new Set(choose(names, 0.5, rng));
    const fresh = (old: string, attempt: number): string => {
      const r = work.root.fork(`rename-params/${old}/${attempt}`);
      const words = nameWords(old);
      const renamed = synonymWords(words, r) ?? (words.length === 1 ? [...words, r.pick(QUALIFIERS)] : words);
      const own = styleOf(old);
      const style = renamed === words || r.chance(0.5) ? r.pick(KEY_STYLES.filter((s) => s !== own)) : own;
      return styled(renamed, style);
    };
    for (const d of work.tools) {
      const taken = new Set<string>([
        ...d.params.filter((p) => !chosen.has(p.name)).map((p) => p.name.toLowerCase()),
        ...(d.pagination ? pageParams(d.pagination).map((p) => p.name.toLowerCase()) : []),
      ]);
      const renames = new Map<string, string>();
      d.params = d.params.map((p): ExposedParam => {
        if (!chosen.has(p.name) || (p.kind === 'param' && p.base === 'body' && p.in === 'body')) return p;
        let name = '';
        for (let attempt = 0; attempt < 50; attempt++) {
          const candidate = fresh(p.name, attempt);
          if (
            candidate !== p.name &&
            /^[A-Za-z0-9_.-]{1,64}$/.test(candidate) &&
            !taken.has(candidate.toLowerCase())
          ) {
            name = candidate;
            break;
          }
        }
        if (name === '') return p;
        taken.add(name.toLowerCase());
        renames.set(p.name, name);
        return { ...p, name };
      });
      if (d.path !== undefined) {
        d.path = d.path.replace(/\{([^{}/]+)\}/g, (m, n: string) =>
          renames.has(n) ? `{${renames.get(n)}}` : m,
        );
      }
    }
  },
});
