/**
 * The vector index behind dense retrieval: vectors quantised to int8 (one scale per vector, symmetric:
 * q = round(127 · x / max|x|)), split into shards that each return their own top-k, and a merge of the shards'
 * lists. A shard is the unit a Durable Object holds in production (durable-objects/tool-index-shard.ts);
 * Cloudflare Vectorize can stand behind the same `VectorIndex` interface (edge/retrieval/vectorize-index.ts).
 * 100,000 × 512-d vectors take 51 MB as int8 (205 MB as float32), which is what lets them fit a Worker's 128 MB
 * across a few shards.
 *
 * Three searches over the same rows (a tooldrift choice; the spec's retriever is an exact dot product, eq. 10):
 *  - `exact`: every row's int8 dot product with the float query (51 M multiply-adds at 100k × 512);
 *  - `pruned`: a query-pruned prefilter — only the query's `queryDims` largest-magnitude coordinates are scored,
 *    over a column-major copy of the codes (dimension-major, so each coordinate is one sequential pass over the
 *    rows), the `rescore` best partial scores per shard are rescored exactly with int8 and the top k of those is
 *    returned. Exact whenever the query has at most `queryDims` non-zero coordinates (hashed lexical queries have
 *    about 100 of 512); the column copy is made on the first pruned query (+1 byte per row and dimension);
 *  - `binary`: a sign-bit prefilter — each row also keeps one bit per dimension (code > 0), the query likewise,
 *    and the Hamming distance (XOR + popcount over 32-bit words, 16 words at 512-d) ranks every row; the
 *    `rescore` nearest rows per shard are rescored with int8. The sign bits add dim / 8 bytes per row.
 * `pruned` and `binary` are approximate: recall@k against `exact` is what `npm run bench:retrieval[:workerd]`
 * prints (binary recalls poorly on the sparse hashed lexical vectors, which is why the served default is pruned).
 * `ShardedVectorIndex` defaults to `exact` (the accuracy tables rank with it); the Durable Object shards that
 * serve large toolsets default to `pruned`.
 */
import { TopK } from './topk.ts';
import type { Hit } from './types.ts';

export interface VectorIndex {
  readonly dimensions: number;
  readonly size: number;
  /** The k vectors with the highest dot product with `vector` (cosine when both sides are unit vectors). */
  query(vector: ArrayLike<number>, k: number): Promise<Hit[]>;
}

export const INDEX_SEARCHES = ['pruned', 'binary', 'exact'] as const;
export type IndexSearch = (typeof INDEX_SEARCHES)[number];

export interface SearchOptions {
  /** `pruned` or `binary` (prefilter + int8 rescoring, approximate) or `exact` (int8 scan of every row). */
  search?: IndexSearch;
  /** Rows per shard rescored with int8 after a prefilter (default 256; at least k). */
  rescore?: number;
  /** Query coordinates the `pruned` prefilter scores (default 32). */
  queryDims?: number;
}

export const DEFAULT_RESCORE = 256;
export const DEFAULT_QUERY_DIMS = 32;

/** Set bits of a 32-bit word (SWAR popcount; JavaScript has no popcount instruction). */
function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Throws the index's dimension-mismatch error. */
export function checkDimensions(got: number, want: number, what = 'vector'): void {
  if (got !== want) throw new RangeError(`${what} has ${got} dimensions, index has ${want}`);
}

/** One shard: a contiguous block of int8 rows with their scales; ids are global pool positions. */
export class QuantizedShard {
  readonly dimensions: number;
  /** Most rows the shard takes; storage starts at ≤ 1,024 rows and doubles up to this. */
  readonly capacity: number;
  /** 32-bit words of sign bits per row. */
  readonly words: number;
  #ids: Int32Array;
  #codes: Int8Array;
  #scales: Float32Array;
  #bits: Uint32Array;
  /** Column-major codes (dimension d of row r at d · rows + r) for `pruned`; made on demand. */
  #columns: Int8Array | null = null;
  #size = 0;

  constructor(dimensions: number, capacity: number) {
    if (!Number.isInteger(dimensions) || dimensions < 1)
      throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.dimensions = dimensions;
    this.capacity = capacity;
    this.words = Math.ceil(dimensions / 32);
    const rows = Math.min(capacity, 1_024);
    this.#ids = new Int32Array(rows);
    this.#codes = new Int8Array(rows * dimensions);
    this.#scales = new Float32Array(rows);
    this.#bits = new Uint32Array(rows * this.words);
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
    const bits = new Uint32Array(rows * this.words);
    bits.set(this.#bits);
    this.#ids = ids;
    this.#codes = codes;
    this.#scales = scales;
    this.#bits = bits;
  }

  /** Bytes allocated for the vectors (codes + scales + ids + sign bits). */
  get bytes(): number {
    return this.#codes.byteLength + this.#scales.byteLength + this.#ids.byteLength + this.#bits.byteLength;
  }

  add(id: number, vector: ArrayLike<number>): void {
    checkDimensions(vector.length, this.dimensions);
    const { codes, scale } = quantize(vector);
    this.addQuantized(id, codes, scale);
  }

  /** Adds a row already quantised by `quantize` (how a Durable Object shard is filled and reloaded). */
  addQuantized(id: number, codes: Int8Array, scale: number): void {
    checkDimensions(codes.length, this.dimensions, 'row');
    if (this.#size >= this.capacity) throw new RangeError('shard is full');
    if (this.#size === this.#ids.length) this.#grow();
    const dim = this.dimensions;
    this.#codes.set(codes, this.#size * dim);
    const wbase = this.#size * this.words;
    const bits = this.#bits;
    for (let i = 0; i < dim; i++) {
      const w = wbase + (i >>> 5);
      if ((codes[i] as number) > 0) bits[w] = (bits[w] as number) | (1 << (i & 31));
    }
    this.#scales[this.#size] = scale;
    this.#ids[this.#size] = id;
    this.#size++;
    this.#columns = null;
  }

  /** The int8 dot product of row `row` with the float query (dequantised). */
  #score(row: number, query: Float32Array): number {
    const dim = this.dimensions;
    const codes = this.#codes;
    const base = row * dim;
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
    return (s0 + s1 + s2 + s3) * (this.#scales[row] as number);
  }

  /** The shard's top-k for a float query (scores are dequantised dot products); `binary` unless told `exact`. */
  topK(query: Float32Array, k: number, options: SearchOptions = {}): Hit[] {
    checkDimensions(query.length, this.dimensions, 'query');
    const rescore = Math.max(k, options.rescore ?? DEFAULT_RESCORE);
    if (options.search === 'exact' || this.#size <= rescore) return this.#exact(query, k);
    if (options.search === 'pruned')
      return this.#pruned(query, k, rescore, options.queryDims ?? DEFAULT_QUERY_DIMS);
    return this.#binary(query, k, rescore);
  }

  #columnar(): Int8Array {
    if (this.#columns) return this.#columns;
    const n = this.#size;
    const dim = this.dimensions;
    const codes = this.#codes;
    const columns = new Int8Array(n * dim);
    for (let row = 0, base = 0; row < n; row++, base += dim)
      for (let d = 0; d < dim; d++) columns[d * n + row] = codes[base + d] as number;
    this.#columns = columns;
    return columns;
  }

  /** Partial scores over the query's largest coordinates, then int8 rescoring of the `rescore` best rows. */
  #pruned(query: Float32Array, k: number, rescore: number, queryDims: number): Hit[] {
    const n = this.#size;
    const columns = this.#columnar();
    const dims: number[] = [];
    for (let d = 0; d < this.dimensions; d++) if ((query[d] as number) !== 0) dims.push(d);
    // Largest |q_d| first, ties to the lower dimension (deterministic).
    dims.sort((a, b) => Math.abs(query[b] as number) - Math.abs(query[a] as number) || a - b);
    dims.length = Math.min(dims.length, Math.max(1, queryDims));
    const partial = new Float32Array(n);
    // Four coordinates per pass over the rows: one read and one write of `partial` per four columns.
    let j = 0;
    for (; j + 3 < dims.length; j += 4) {
      const [d0, d1, d2, d3] = [dims[j], dims[j + 1], dims[j + 2], dims[j + 3]] as number[];
      const w0 = query[d0 as number] as number;
      const w1 = query[d1 as number] as number;
      const w2 = query[d2 as number] as number;
      const w3 = query[d3 as number] as number;
      const b0 = (d0 as number) * n;
      const b1 = (d1 as number) * n;
      const b2 = (d2 as number) * n;
      const b3 = (d3 as number) * n;
      for (let row = 0; row < n; row++)
        partial[row] =
          (partial[row] as number) +
          w0 * (columns[b0 + row] as number) +
          w1 * (columns[b1 + row] as number) +
          w2 * (columns[b2 + row] as number) +
          w3 * (columns[b3 + row] as number);
    }
    for (; j < dims.length; j++) {
      const d = dims[j] as number;
      const w = query[d] as number;
      const base = d * n;
      for (let row = 0; row < n; row++)
        partial[row] = (partial[row] as number) + w * (columns[base + row] as number);
    }
    const scales = this.#scales;
    const candidates = new TopK(rescore);
    for (let row = 0; row < n; row++) {
      const s = (partial[row] as number) * (scales[row] as number);
      if (s > candidates.threshold) candidates.push(row, s);
    }
    const top = new TopK(k);
    for (const c of candidates.result()) {
      const score = this.#score(c.index, query);
      if (score > top.threshold || score === top.threshold) top.push(this.#ids[c.index] as number, score);
    }
    return top.result();
  }

  #exact(query: Float32Array, k: number): Hit[] {
    const top = new TopK(k);
    for (let row = 0; row < this.#size; row++) {
      const score = this.#score(row, query);
      if (score > top.threshold) top.push(this.#ids[row] as number, score);
    }
    return top.result();
  }

  /** Hamming prefilter over sign bits, then int8 rescoring of the `rescore` nearest rows (ties to lower rows). */
  #binary(query: Float32Array, k: number, rescore: number): Hit[] {
    const words = this.words;
    const dim = this.dimensions;
    const q = new Uint32Array(words);
    for (let i = 0; i < dim; i++)
      if ((query[i] as number) > 0) q[i >>> 5] = (q[i >>> 5] as number) | (1 << (i & 31));
    const n = this.#size;
    const bits = this.#bits;
    const distance = new Uint16Array(n);
    const histogram = new Int32Array(dim + 1);
    for (let row = 0, base = 0; row < n; row++, base += words) {
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount32(((bits[base + w] as number) ^ (q[w] as number)) >>> 0);
      distance[row] = d;
      histogram[d] = (histogram[d] as number) + 1;
    }
    // The cut-off distance: rows nearer than `cut` all qualify, rows at `cut` fill up to `rescore` in row order.
    let cut = 0;
    let below = 0;
    while (cut < dim && below + (histogram[cut] as number) < rescore) below += histogram[cut++] as number;
    let atCut = rescore - below;
    const top = new TopK(k);
    for (let row = 0; row < n; row++) {
      const d = distance[row] as number;
      if (d > cut) continue;
      if (d === cut) {
        if (atCut === 0) continue;
        atCut--;
      }
      const score = this.#score(row, query);
      if (score > top.threshold) top.push(this.#ids[row] as number, score);
    }
    return top.result();
  }

  /** Rows `from`…`to` − 1 as stored (codes and scales), for persisting a shard. */
  rows(from = 0, to = this.#size): { ids: Int32Array; codes: Int8Array; scales: Float32Array } {
    const end = Math.min(to, this.#size);
    return {
      ids: this.#ids.slice(from, end),
      codes: this.#codes.slice(from * this.dimensions, end * this.dimensions),
      scales: this.#scales.slice(from, end),
    };
  }
}

/** Symmetric int8 quantisation of one vector: q = round(127 · x / max|x|), scale = max|x| / 127. */
export function quantize(vector: ArrayLike<number>): { codes: Int8Array; scale: number } {
  let max = 0;
  for (let i = 0; i < vector.length; i++) max = Math.max(max, Math.abs(vector[i] as number));
  const inv = max > 0 ? 127 / max : 0;
  const codes = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) codes[i] = Math.round((vector[i] as number) * inv);
  return { codes, scale: max > 0 ? max / 127 : 0 };
}

/** Merges per-shard top-k lists into one global top-k (best first, ties to the lower id). */
export function mergeTopK(lists: readonly Hit[][], k: number): Hit[] {
  const top = new TopK(k);
  for (const list of lists) for (const hit of list) top.push(hit.index, hit.score);
  return top.result();
}

export interface ShardedIndexOptions extends SearchOptions {
  /** Vectors per shard (default 25,000: 12.8 MB of int8 at 512-d). */
  shardSize?: number;
}

/** An in-memory sharded int8 index; ids are the positions vectors were added at. */
export class ShardedVectorIndex implements VectorIndex {
  readonly dimensions: number;
  readonly shardSize: number;
  readonly shards: QuantizedShard[] = [];
  readonly search: SearchOptions;

  constructor(dimensions: number, options: ShardedIndexOptions = {}) {
    if (!Number.isInteger(dimensions) || dimensions < 1)
      throw new RangeError(`dimensions must be a positive integer, got ${dimensions}`);
    this.dimensions = dimensions;
    this.search = { search: options.search ?? 'exact', rescore: options.rescore ?? DEFAULT_RESCORE };
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
    checkDimensions(vector.length, this.dimensions);
    const { codes, scale } = quantize(vector);
    return this.addQuantized(codes, scale);
  }

  /** Adds a row already quantised by `quantize`; its id is the next position. */
  addQuantized(codes: Int8Array, scale: number): number {
    const id = this.size;
    let shard = this.shards.at(-1);
    if (!shard || shard.size === shard.capacity) {
      shard = new QuantizedShard(this.dimensions, this.shardSize);
      this.shards.push(shard);
    }
    shard.addQuantized(id, codes, scale);
    return id;
  }

  /**
   * Fans the query out to every shard and merges (in production each shard answers from its own isolate).
   * `options` override the index's own search for this query (e.g. `{search: 'exact'}` for a recall baseline).
   */
  async query(vector: ArrayLike<number>, k: number, options: SearchOptions = {}): Promise<Hit[]> {
    checkDimensions(vector.length, this.dimensions, 'query');
    const q = Float32Array.from(vector);
    const search = { ...this.search, ...options };
    return mergeTopK(
      this.shards.map((s) => s.topK(q, k, search)),
      k,
    );
  }
}

/** Recall@k of approximate lists against exact ones: the share of the exact top-k ids the approximate lists hold. */
export function recallAtK(approximate: readonly Hit[][], exact: readonly Hit[][]): number {
  let found = 0;
  let wanted = 0;
  for (const [i, want] of exact.entries()) {
    const got = new Set((approximate[i] ?? []).map((h) => h.index));
    for (const h of want) if (got.has(h.index)) found++;
    wanted += want.length;
  }
  return wanted === 0 ? 1 : found / wanted;
}
