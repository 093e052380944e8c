/**
 * The vector index behind dense retrieval: vectors quantised to int8 (one scale per vector, symmetric:
 * q = round(127 · x / max|x|)), split into shards that each return their own top-k, and a merge of the shards'
 * lists. A shard is the unit a Durable Object holds in production; Cloudflare Vectorize can stand behind the same
 * `VectorIndex` interface. 100,000 × 512-d vectors take 51 MB as int8 (205 MB as float32), which is what lets
 * them fit a Worker's 128 MB across a few shards.
 */
import { TopK } from './topk.ts';
import type { Hit } from './types.ts';

export interface VectorIndex {
  readonly dimensions: number;
  readonly size: number;
  /** The k vectors with the highest dot product with `vector` (cosine when both sides are unit vectors). */
  query(vector: ArrayLike<number>, k: number): Promise<Hit[]>;
}

/** One shard: a contiguous block of int8 rows with their scales; ids are global pool positions. */
export class QuantizedShard {
  readonly dimensions: number;
  /** Most rows the shard takes; storage starts at ≤ 1,024 rows and doubles up to this. */
  readonly capacity: number;
  #ids: Int32Array;
  #codes: Int8Array;
  #scales: Float32Array;
  #size = 0;

  constructor(dimensions: number, capacity: number) {
    this.dimensions = dimensions;
    this.capacity = capacity;
    const rows = Math.min(capacity, 1_024);
    this.#ids = new Int32Array(rows);
    this.#codes = new Int8Array(rows * dimensions);
    this.#scales = new Float32Array(rows);
  }

  get size(): number {
    return this.#size;
  }

  #grow(): void {
    const rows = Math.min(this.capacity, this.#ids.length * 2);
    const ids = new Int32Array(rows);
    ids.set(this.#ids);
    const codes = new Int8Array(rows * this.dimensions);
    codes.set(this.#codes);
    const scales = new Float32Array(rows);
    scales.set(this.#scales);
    this.#ids = ids;
    this.#codes = codes;
    this.#scales = scales;
  }

  /** Bytes allocated for the vectors (codes + scales + ids). */
  get bytes(): number {
    return this.#codes.byteLength + this.#scales.byteLength + this.#ids.byteLength;
  }

  add(id: number, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions)
      throw new RangeError(`vector has ${vector.length} dimensions, index has ${this.dimensions}`);
    if (this.#size >= this.capacity) throw new RangeError('shard is full');
    if (this.#size === this.#ids.length) this.#grow();
    let max = 0;
    for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i] as number));
    const scale = max > 0 ? max / 127 : 0;
    const inv = max > 0 ? 127 / max : 0;
    const base = this.#size * this.dimensions;
    for (let i = 0; i < this.dimensions; i++) this.#codes[base + i] = Math.round((vector[i] as number) * inv);
    this.#scales[this.#size] = scale;
    this.#ids[this.#size] = id;
    this.#size++;
  }

  /** The shard's top-k for a float query (scores are dequantised dot products). */
  topK(query: Float32Array, k: number): Hit[] {
    const top = new TopK(k);
    const dim = this.dimensions;
    const codes = this.#codes;
    for (let row = 0, base = 0; row < this.#size; row++, base += dim) {
      // Four accumulators: independent adds the JIT can overlap.
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      let i = 0;
      for (; i + 3 < dim; i += 4) {
        s0 += (codes[base + i] as number) * (query[i] as number);
        s1 += (codes[base + i + 1] as number) * (query[i + 1] as number);
        s2 += (codes[base + i + 2] as number) * (query[i + 2] as number);
        s3 += (codes[base + i + 3] as number) * (query[i + 3] as number);
      }
      for (; i < dim; i++) s0 += (codes[base + i] as number) * (query[i] as number);
      const score = (s0 + s1 + s2 + s3) * (this.#scales[row] as number);
      if (score > top.threshold) top.push(this.#ids[row] as number, score);
    }
    return top.result();
  }
}

/** Merges per-shard top-k lists into one global top-k (best first, ties to the lower id). */
export function mergeTopK(lists: readonly Hit[][], k: number): Hit[] {
  const top = new TopK(k);
  for (const list of lists) for (const hit of list) top.push(hit.index, hit.score);
  return top.result();
}

export interface ShardedIndexOptions {
  /** Vectors per shard (default 25,000: 12.8 MB of int8 at 512-d). */
  shardSize?: number;
}

/** An in-memory sharded int8 index; ids are the positions vectors were added at. */
export class ShardedVectorIndex implements VectorIndex {
  readonly dimensions: number;
  readonly shardSize: number;
  readonly shards: QuantizedShard[] = [];

  constructor(dimensions: number, options: ShardedIndexOptions = {}) {
    this.dimensions = dimensions;
    this.shardSize = options.shardSize ?? 25_000;
    if (!Number.isInteger(this.shardSize) || this.shardSize < 1)
      throw new RangeError(`shardSize must be a positive integer, got ${this.shardSize}`);
  }

  get size(): number {
    return this.shards.reduce((n, s) => n + s.size, 0);
  }

  get bytes(): number {
    return this.shards.reduce((n, s) => n + s.bytes, 0);
  }

  add(vector: ArrayLike<number>): number {
    const id = this.size;
    let shard = this.shards.at(-1);
    if (!shard || shard.size === shard.capacity) {
      shard = new QuantizedShard(this.dimensions, this.shardSize);
      this.shards.push(shard);
    }
    shard.add(id, vector);
    return id;
  }

  /** Fans the query out to every shard and merges (in production each shard answers from its own isolate). */
  async query(vector: ArrayLike<number>, k: number): Promise<Hit[]> {
    const q = Float32Array.from(vector);
    return mergeTopK(
      this.shards.map((s) => s.topK(q, k)),
      k,
    );
  }
}
