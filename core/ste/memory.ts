/**
 * The exemplar memory of STE's in-context learning (spec `ste.md`, "Exploitation"): for a user query, the 8
 * exemplars whose queries are most similar by cosine similarity of sentence embeddings, over de-duplicated
 * exemplar queries (one exemplar per distinct query, the first kept). Any `EmbeddingModel` works (Workers AI
 * embeddings at the edge, the lexical model offline).
 *
 * Hand-written search, on purpose: the vectors are normalised once into one Float32Array, so a query costs one
 * dot product per distinct query and a bounded top-k selection (no sort of all scores) — exact, with no index
 * library to ship into workerd. `bruteForceTopK` is the straightforward baseline the benchmark compares with.
 */
import { cosineSimilarity } from '../models/embeddings.ts';
import type { EmbeddingModel } from '../models/types.ts';
import { STE_RETRIEVAL_K } from './constants.ts';
import type { SteExemplar } from './engine.ts';

export interface ScoredIndex {
  index: number;
  score: number;
}

/** Exact top-k by dot product over row-major normalised vectors; ties keep the lower index first. */
export function topKDot(
  matrix: Float32Array,
  dimensions: number,
  query: Float32Array,
  k: number,
): ScoredIndex[] {
  const rows = dimensions === 0 ? 0 : matrix.length / dimensions;
  const best: ScoredIndex[] = [];
  for (let r = 0; r < rows; r++) {
    let dot = 0;
    const base = r * dimensions;
    for (let i = 0; i < dimensions; i++) dot += (matrix[base + i] as number) * (query[i] as number);
    if (best.length < k) {
      best.push({ index: r, score: dot });
      best.sort((a, b) => b.score - a.score || a.index - b.index);
    } else if (k > 0 && dot > (best[k - 1] as ScoredIndex).score) {
      best[k - 1] = { index: r, score: dot };
      best.sort((a, b) => b.score - a.score || a.index - b.index);
    }
  }
  return best;
}

/** The baseline: cosine similarity of every vector, then a full sort. */
export function bruteForceTopK(
  vectors: readonly number[][],
  query: readonly number[],
  k: number,
): ScoredIndex[] {
  return vectors
    .map((v, index) => ({ index, score: cosineSimilarity(v, query) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, k);
}

function normalised(v: readonly number[]): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const inv = n === 0 ? 0 : 1 / Math.sqrt(n);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * inv;
  return out;
}

export class ExemplarMemory {
  readonly #embedder: EmbeddingModel;
  /** Distinct queries in insertion order, with the first exemplar of each. */
  readonly #queries: string[] = [];
  readonly #first: SteExemplar[] = [];
  readonly #index = new Map<string, number>();
  #matrix = new Float32Array(0);
  #rows = 0;

  constructor(embedder: EmbeddingModel) {
    this.#embedder = embedder;
  }

  get size(): number {
    return this.#rows;
  }

  /** Adds exemplars; a query already present keeps its first exemplar. */
  async add(exemplars: readonly SteExemplar[], signal?: AbortSignal): Promise<void> {
    const fresh: SteExemplar[] = [];
    const seen = new Set<string>();
    for (const e of exemplars) {
      if (this.#index.has(e.query) || seen.has(e.query)) continue;
      seen.add(e.query);
      fresh.push(e);
    }
    if (fresh.length === 0) return;
    const vectors = await this.#embedder.embed(
      fresh.map((e) => e.query),
      signal,
    );
    const d = this.#embedder.dimensions;
    const grown = new Float32Array((this.#rows + fresh.length) * d);
    grown.set(this.#matrix.subarray(0, this.#rows * d));
    fresh.forEach((e, i) => {
      grown.set(normalised(vectors[i] as number[]), (this.#rows + i) * d);
      this.#index.set(e.query, this.#rows + i);
      this.#queries.push(e.query);
      this.#first.push(e);
    });
    this.#matrix = grown;
    this.#rows += fresh.length;
  }

  /** The k (default 8) exemplars whose queries are most similar to `query`, most similar first. */
  async retrieve(query: string, k = STE_RETRIEVAL_K, signal?: AbortSignal): Promise<SteExemplar[]> {
    if (this.#rows === 0 || k <= 0) return [];
    const [v] = await this.#embedder.embed([query], signal);
    return this.nearest(v as number[], k).map((s) => this.#first[s.index] as SteExemplar);
  }

  /** Top-k by cosine similarity for an already embedded query. */
  nearest(vector: readonly number[], k = STE_RETRIEVAL_K): ScoredIndex[] {
    return topKDot(this.#matrix, this.#embedder.dimensions, normalised(vector), k);
  }
}
