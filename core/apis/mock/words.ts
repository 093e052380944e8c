/**
 * Word helpers for reading an API's own vocabulary: splitting identifiers (`getUserProfile`, `movie_credits`,
 * `production-companies`) into words, singular forms, and the normalised key two spellings of one name share
 * (`sourceId`, `source_id`, `SourceID` → `sourceid`). English only, rules rather than a dictionary: enough for
 * resource names in paths and operation ids.
 */

/** `getUserProfile` → [get, user, profile]; `movie_credits` → [movie, credits]; `HTTPStatus` → [http, status]. */
export function words(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '')
    .map((w) => w.toLowerCase());
}

const IRREGULAR: Record<string, string> = {
  people: 'person',
  children: 'child',
  men: 'man',
  women: 'woman',
  data: 'data',
  media: 'media',
  series: 'series',
  news: 'news',
  status: 'status',
  analysis: 'analysis',
  address: 'address',
  business: 'business',
};

/** The singular of one lower-case English word (`companies` → `company`, `movies` → `movie`). */
export function singular(word: string): string {
  const w = word.toLowerCase();
  const irregular = IRREGULAR[w];
  if (irregular) return irregular;
  if (w.length <= 3) return w;
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (/(ss|sh|ch|x|zz)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

const normalKeys = new Map<string, string>();

/** The key under which two spellings of a name meet: lower case, letters and digits only. */
export function normalKey(name: string): string {
  let key = normalKeys.get(name);
  if (key === undefined) {
    key = name.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (normalKeys.size < 50_000) normalKeys.set(name, key);
  }
  return key;
}

/** A resource name from words: singular, snake case (`user profiles` → `user_profile`). */
export function resourceName(parts: readonly string[]): string {
  if (parts.length === 0) return '';
  const last = parts.length - 1;
  return parts.map((p, i) => (i === last ? singular(p) : p)).join('_');
}
