/**
 * Batching and caching in front of any embedding model. Texts are looked up by a content hash (SHA-256 of
 * provider, model and text), repeated texts within a call are embedded once, and only the misses go to the
 * provider, in batches no larger than the provider accepts. The cache interface is asynchronous so a
 * persistent store (KV, D1) can stand in for the in-memory one.
 */
import { sha256Hex } from './digest.ts';
import { ModelResponseError } from './errors.ts';
import type { EmbeddingModel } from './types.ts';

export interface EmbeddingCache {
  get(key: string): Promise<number[] | undefined>;
  set(key: string, vector: number[]): Promise<void>;
}

/** Least-recently-used, bounded by entry count. */
export class MemoryEmbeddingCache implements EmbeddingCache {
  readonly maxEntries: number;
  readonly #entries = new Map<string, number[]>();

  constructor(maxEntries = 10_000) {
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<number[] | undefined> {
    const vector = this.#entries.get(key);
    if (vector) {
      // Re-insert to mark as most recently used.
      this.#entries.delete(key);
      this.#entries.set(key, vector);
    }
    return vector;
  }

  async set(key: string, vector: number[]): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, vector);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}

export interface CachedEmbeddingOptions {
  /** Most texts per provider request (Workers AI bge: 100). */
  batchSize?: number;
  cache?: EmbeddingCache;
}

export class CachedEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly model: string;
  readonly dimensions: number;
  readonly batchSize: number;
  readonly cache: EmbeddingCache;
  readonly #inner: EmbeddingModel;

  constructor(inner: EmbeddingModel, options: CachedEmbeddingOptions = {}) {
    const batchSize = options.batchSize ?? 64;
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
    this.#inner = inner;
    this.provider = inner.provider;
    this.model = inner.model;
    this.dimensions = inner.dimensions;
    this.batchSize = batchSize;
    this.cache = options.cache ?? new MemoryEmbeddingCache();
  }

  /** The cache key of `text` for this provider and model. */
  contentKey(text: string): Promise<string> {
    return sha256Hex(`${this.provider}\u0000${this.model}\u0000${text}`);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const keys = await Promise.all(texts.map((t) => this.contentKey(t)));
    const found = new Map<string, number[]>();
    const missing = new Map<string, string>(); // key → text, first occurrence wins
    for (const [i, key] of keys.entries()) {
      if (found.has(key) || missing.has(key)) continue;
      const hit = await this.cache.get(key);
      if (hit) found.set(key, hit);
      else missing.set(key, texts[i]!);
    }
    const pending = [...missing.entries()];
    const batches: Array<Array<[string, string]>> = [];
    for (let at = 0; at < pending.length; at += this.batchSize)
      batches.push(pending.slice(at, at + this.batchSize));
    await Promise.all(
      batches.map(async (batch) => {
        const vectors = await this.#inner.embed(
          batch.map(([, text]) => text),
          signal,
        );
        for (const [j, [key]] of batch.entries()) {
          const vector = vectors[j];
          if (!vector)
            throw new ModelResponseError(
              this.provider,
              `expected ${batch.length} embeddings, got ${vectors.length}`,
            );
          found.set(key, vector);
          await this.cache.set(key, vector);
        }
      }),
    );
    return keys.map((key) => found.get(key)!);
  }
}

/** Validates a provider's embedding answer: one vector per text, each of the expected length. */
export function checkEmbeddings(
  provider: string,
  raw: unknown,
  count: number,
  dimensions: number,
  extract: (raw: unknown) => number[][],
): number[][] {
  const vectors = extract(raw);
  if (vectors.length !== count) {
    throw new ModelResponseError(provider, `expected ${count} embeddings, got ${vectors.length}`);
  }
  for (const [i, vector] of vectors.entries()) {
    if (vector.length !== dimensions) {
      throw new ModelResponseError(
        provider,
        `embedding ${i} has ${vector.length} dimensions, expected ${dimensions}`,
      );
    }
  }
  return vectors;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length)
    throw new RangeError(`cosineSimilarity: lengths ${a.length} and ${b.length} differ`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
