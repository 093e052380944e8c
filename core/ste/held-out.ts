/**
 * STE's held-out test queries (spec `ste.md`, "Evaluation": 15 queries per API are kept aside as the test set):
 * they are never exploration or demonstration data. A run on an imported API carries the keys of its API's
 * evaluation queries (every query set imported for it — STE's `tool_test.json` among them); a trial whose imagined
 * query is one of them never becomes an exemplar (engine.ts: verdict `held-out`, no judge call), a paraphrase that
 * reproduces one is dropped, and the test protocol (evaluation.ts `runSteTest`) never shows a demonstration whose
 * query is a test query.
 *
 * Queries are compared after normalisation (case, whitespace, surrounding quotes and final punctuation), as
 * 16-hex-digit hashes so a run's configuration holds 750 of them in 12 KB.
 */
import { hash128 } from '../util/random.ts';

/** A query as compared: lower case, runs of whitespace as one space, no surrounding quotes or final punctuation. */
export function normalizeQuery(query: string): string {
  return query
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .replace(/[\s.?!。？！]+$/u, '')
    .trim();
}

/** The key of a query (the hash of its normalised text). */
export function heldOutKey(query: string): string {
  return hash128(`ste-held-out/${normalizeQuery(query)}`)
    .map((x) => x.toString(16).padStart(8, '0'))
    .join('')
    .slice(0, 16);
}

/** The sorted, distinct keys of some queries. */
export function heldOutKeys(queries: Iterable<string>): string[] {
  return [...new Set([...queries].map(heldOutKey))].sort();
}

/** A membership test over keys (`heldOutKeys`). */
export function heldOutTest(keys: readonly string[] | undefined): (query: string) => boolean {
  if (!keys || keys.length === 0) return () => false;
  const set = new Set(keys);
  return (query) => set.has(heldOutKey(query));
}
