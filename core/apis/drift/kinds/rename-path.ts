/**
 * `rename-path` — literal path segments get new names across every route that has them (`/movie/…` →
 * `/film/…` in all 20 TMDB routes under `movie`; `/getUserProfile` → `/fetchMemberProfile`): some words of the
 * segment are replaced by synonyms, in the segment's own style; a segment with no word in the vocabulary is
 * pluralised or singularised. A new segment is never one the API already uses, and no two routes may end up
 * equal. The old routes answer 410 naming the new ones. Version segments (`v1`, `3`) are left alone.
 */
import type { Rng } from '../../../util/random.ts';
import { choose, defineApiDriftKind } from '../kind.ts';
import { baseSegments, nameWords, routeKey, styled, styleOf, synonymWords } from '../names.ts';

function renamedSegment(segment: string, rng: Rng): string {
  const words = nameWords(segment);
  const renamed = synonymWords(words, rng);
  if (renamed) return styled(renamed, styleOf(segment));
  return segment.endsWith('s') ? segment.slice(0, -1) : `${segment}s`;
}

export const renamePath = defineApiDriftKind({
  id: 'rename-path',
  summary: 'path segments renamed across every route that has them',
  order: 60,
  apply(work) {
    const rng = work.root.fork('rename-path');
    const used = baseSegments(work);
    const segments = [
      ...new Set(
        work.tools.flatMap((d) =>
          (d.path ?? '').split('/').filter((s) => s !== '' && !s.includes('{') && !/^v?[0-9]+$/.test(s)),
        ),
      ),
    ];
    for (const segment of choose(segments, 0.4, rng)) {
      for (let attempt = 0; attempt < 20; attempt++) {
        const next = renamedSegment(segment, work.root.fork(`rename-path/${segment}/${attempt}`));
        if (
          next === segment ||
          next === '' ||
          used.has(next.toLowerCase()) ||
          !/^[A-Za-z0-9_.~-]+$/.test(next)
        )
          continue;
        const moved = work.tools.map((d) =>
          d.path === undefined
            ? undefined
            : d.path
                .split('/')
                .map((s) => (s === segment ? next : s))
                .join('/'),
        );
        const keys = work.tools.flatMap((d, i) =>
          d.method !== undefined && moved[i] !== undefined ? [routeKey(d.method, moved[i] as string)] : [],
        );
        if (new Set(keys).size < keys.length) continue;
        work.tools.forEach((d, i) => {
          if (moved[i] !== undefined) d.path = moved[i];
        });
        used.add(next.toLowerCase());
        break;
      }
    }
  },
});
