/**
 * Cloudflare Vectorize behind the `VectorIndex` interface (core/retrieval/vector-index.ts; issue 14 §2): the
 * production alternative to the Durable Object shards. One namespace per indexed pool (≤ 64 bytes), vector ids are
 * pool positions as decimal strings, the index's metric is expected to be `dot-product` or `cosine` over unit
 * vectors (both rank like the int8 index's dot product). Limits (developers.cloudflare.com/vectorize/platform/
 * limits): upserts of at most 1,000 vectors per call from a Worker; topK ≤ 100 without values or metadata.
 * Vectorize does not run under `wrangler dev`, so the binding exists only in the production environment and the
 * tests use a mock binding.
 */

import type { Hit } from '../../core/retrieval/types.ts';
import { checkDimensions, type VectorIndex } from '../../core/retrieval/vector-index.ts';

/** Most vectors one `upsert` call from a Worker may carry. */
export const VECTORIZE_UPSERT_BATCH = 1_000;
/** Largest topK Vectorize answers without values or metadata. */
export const VECTORIZE_MAX_TOP_K = 100;

/** The part of the binding this index uses (the `VectorizeIndex` binding type satisfies it). */
export type VectorizeBinding = Pick<VectorizeIndex, 'query' | 'upsert'>;

export class VectorizeToolIndex implements VectorIndex {
  constructor(
    readonly binding: VectorizeBinding,
    readonly namespace: string,
    readonly dimensions: number,
    readonly size: number,
  ) {
    if (new TextEncoder().encode(namespace).length > 64)
      throw new RangeError('a Vectorize namespace is at most 64 bytes');
  }

  /** Writes `vectors` as pool positions `first`, `first + 1`, … in batches of 1,000. */
  async upsert(first: number, vectors: readonly ArrayLike<number>[]): Promise<number> {
    let written = 0;
    for (let at = 0; at < vectors.length; at += VECTORIZE_UPSERT_BATCH) {
      const batch = vectors.slice(at, at + VECTORIZE_UPSERT_BATCH).map((v, i) => {
        checkDimensions(v.length, this.dimensions);
        return { id: String(first + at + i), values: Array.from(v), namespace: this.namespace };
      });
      written += (await this.binding.upsert(batch)).count;
    }
    return written;
  }

  async query(vector: ArrayLike<number>, k: number): Promise<Hit[]> {
    checkDimensions(vector.length, this.dimensions, 'query');
    if (!Number.isInteger(k) || k < 1 || k > VECTORIZE_MAX_TOP_K)
      throw new RangeError(`k must be an integer in 1…${VECTORIZE_MAX_TOP_K}, got ${k}`);
    const { matches } = await this.binding.query(Array.from(vector), {
      topK: k,
      namespace: this.namespace,
      returnValues: false,
      returnMetadata: 'none',
    });
    return matches
      .map((m) => ({ index: Number(m.id), score: m.score }))
      .filter((h) => Number.isInteger(h.index) && h.index >= 0 && h.index < this.size)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, k);
  }
}
