/**
 * Names several API drift kinds share: cutting a name into words and writing words in a style (`snake_case`,
 * `camelCase`, `PascalCase`, `kebab-case`), renaming words with synonyms (`vocab.ts`), and finding a free name
 * or route (the first candidate of a seeded sequence that nothing else uses).
 */
import type { Rng } from '../../util/random.ts';
import { routeShape } from '../surface/route.ts';
import { API_EXPOSED_NAME } from '../surface/tools.ts';
import type { ApiDriftWork } from './kind.ts';
import { apiSynonyms } from './vocab.ts';

export const WORD_STYLES = ['snake', 'camel', 'pascal', 'kebab'] as const;
export type WordStyle = (typeof WORD_STYLES)[number];

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

/** `GET_movie-movie_id-credits` → get, movie, movie, id, credits (lower case). */
export function nameWords(name: string): string[] {
  return (name.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** The style a name is written in (a single lower-case word counts as snake). */
export function styleOf(name: string): WordStyle {
  if (name.includes('-') && !name.includes('_')) return 'kebab';
  if (name.includes('_')) return 'snake';
  if (/^[A-Z]/.test(name)) return 'pascal';
  return /[A-Z]/.test(name) ? 'camel' : 'snake';
}

/** Words written in a style; words holding `_` (`launch_date`) count as several. */
export function styled(words: readonly string[], style: WordStyle): string {
  const ws = words.flatMap((w) => w.split('_')).filter((w) => w !== '');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  switch (style) {
    case 'snake':
      return ws.join('_');
    case 'kebab':
      return ws.join('-');
    case 'pascal':
      return ws.map(cap).join('');
    case 'camel':
      return ws.map((w, i) => (i === 0 ? w : cap(w))).join('');
  }
}

/**
 * Words with some of them replaced by synonyms (each with probability `p`, at least one when any word has
 * synonyms); null when no word has one.
 */
export function synonymWords(words: readonly string[], rng: Rng, p = 0.6): string[] | null {
  const candidates = words.flatMap((w, i) => (apiSynonyms(w).length > 0 ? [i] : []));
  if (candidates.length === 0) return null;
  const out = words.map((w) => {
    const syn = apiSynonyms(w);
    return syn.length > 0 && rng.chance(p) ? rng.pick(syn) : w;
  });
  if (out.every((w, i) => w === words[i])) {
    const i = rng.pick(candidates);
    out[i] = rng.pick(apiSynonyms(words[i] as string));
  }
  return out;
}

/**
 * The first candidate (attempt 0, 1, …; null skips an attempt) that is an exposed name and not taken
 * (compared ignoring case); it is added to `taken`.
 */
export function freeName(
  taken: Set<string>,
  candidate: (attempt: number) => string | null,
  what: string,
): string {
  for (let attempt = 0; attempt < 200; attempt++) {
    const name = candidate(attempt);
    if (name === null || !API_EXPOSED_NAME.test(name) || name.toLowerCase() === 'finish') continue;
    if (taken.has(name.toLowerCase())) continue;
    taken.add(name.toLowerCase());
    return name;
  }
  throw new Error(`api drift: no free name for ${what}`);
}

/** `get /movie/{}/credits`: what two routes must not share. */
export function routeKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${routeShape(path)}`;
}

/** The routes the drafts use, with the operation behind each. */
export function draftRoutes(work: ApiDriftWork): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of work.tools) {
    if (d.method !== undefined && d.path !== undefined) out.set(routeKey(d.method, d.path), d.op.name);
  }
  return out;
}

/** The literal path segments of every base route (a renamed segment must be none of them). */
export function baseSegments(work: ApiDriftWork): Set<string> {
  const out = new Set<string>();
  for (const t of work.base.tools) {
    for (const seg of (t.path ?? '').split('/'))
      if (seg !== '' && !seg.includes('{')) out.add(seg.toLowerCase());
  }
  return out;
}

/** Every key a draft's parameters use, lower-cased (paging parameters included). */
export function draftKeys(params: readonly { name: string }[], extra: readonly string[] = []): Set<string> {
  return new Set([...params.map((p) => p.name), ...extra].map((k) => k.toLowerCase()));
}
