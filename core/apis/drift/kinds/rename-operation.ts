/**
 * `rename-operation` — tools get new names: the words of the name (its operationId; for a name spelled from
 * method and path, the method and the route's literal segments) with some replaced by synonyms, written in
 * another style (`GET_movie-movie_id-credits` → `fetchFilmCredits`, `getAnimeDetails` →
 * `retrieve_anime_info`). The old name answers with a message naming the new call.
 */
import type { Rng } from '../../../util/random.ts';
import { literalSegments } from '../../surface/route.ts';
import { choose, defineApiDriftKind } from '../kind.ts';
import { freeName, nameWords, styled, styleOf, synonymWords, WORD_STYLES } from '../names.ts';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/**
 * The words a new name is made of: for a name spelled from method and path (`GET_movie-movie_id-credits`), the
 * method and the route's literal segments (`get movie credits`); else the name's words without consecutive
 * repeats.
 */
export function operationWords(name: string, route?: { method?: string; path?: string }): string[] {
  const words = nameWords(name).filter((w, i, all) => i === 0 || w !== all[i - 1]);
  if (route?.method !== undefined && route.path !== undefined && METHODS.has(words[0] ?? '')) {
    return [route.method, ...literalSegments(route.path).flatMap(nameWords)];
  }
  return words;
}

function candidate(name: string, route: { method?: string; path?: string }, rng: Rng): string {
  const words = operationWords(name, route);
  const renamed = synonymWords(words, rng) ?? [...words, 'v2'];
  const own = styleOf(name);
  const style = rng.pick(TOOL_STYLES.filter((s) => s !== own));
  return styled(renamed, style).slice(0, 64);
}

/** Tool names are written in snake_case, camelCase or PascalCase. */
const TOOL_STYLES = WORD_STYLES.filter((s) => s !== 'kebab');

export const renameOperation = defineApiDriftKind({
  id: 'rename-operation',
  summary: 'tools renamed (synonyms and another name style)',
  order: 80,
  apply(work) {
    const rng = work.root.fork('rename-operation');
    const taken = new Set(
      [
        ...work.base.tools.map((t) => t.name),
        ...work.base.retired.flatMap((r) => (r.name ? [r.name] : [])),
      ].map((n) => n.toLowerCase()),
    );
    for (const d of work.tools) taken.add(d.name.toLowerCase());
    for (const d of choose(work.tools, 0.6, rng)) {
      const old = d.name;
      d.name = freeName(
        taken,
        (attempt) => candidate(old, d.base, work.root.fork(`rename-operation/${d.op.name}/${attempt}`)),
        old,
      );
    }
  },
});
