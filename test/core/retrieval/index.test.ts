import { describe, expect, it } from 'vitest';
import { normalise } from '../../../core/retrieval/dense.ts';
import { topKOf } from '../../../core/retrieval/topk.ts';
import {
  mergeTopK,
  QuantizedShard,
  quantize,
  recallAtK,
  ShardedVectorIndex,
} from '../../../core/retrieval/vector-index.ts';
import { Rng } from '../../../core/util/random.ts';

function randomUnit(rng: Rng, dim: number): Float32Array {
  return normalise(Float32Array.from({ length: dim }, () => rng.float(-1, 1)));
}

describe('int8 sharded vector index', () => {
  const dim = 64;
  const rng = new Rng('index');
  const vectors = Array.from({ length: 1_000 }, () => randomUnit(rng, dim));
  const queries = Array.from({ length: 20 }, () => randomUnit(rng, dim));
  const exact = (q: Float32Array) =>
    topKOf(
      vectors.map((v) => v.reduce((a, x, i) => a + x * (q[i] as number), 0)),
      5,
    );

  it('stores one byte per dimension per row and scores within quantisation error of float dot products', async () => {
    const index = new ShardedVectorIndex(dim, { shardSize: 300 });
    for (const v of vectors) index.add(v);
    expect(index.size).toBe(1_000);
    expect(index.shards).toHaveLength(4);
    // Allocated by capacity: 4 shards × 300 rows × (64 int8 codes + a float32 scale + an int32 id + 64 sign bits).
    expect(index.bytes).toBe(4 * 300 * (dim + 8 + dim / 8));
    let agree = 0;
    for (const q of queries) {
      const want = exact(q);
      const got = await index.query(q, 5);
      expect(got).toHaveLength(5);
      expect(Math.abs((got[0]?.score ?? 0) - (want[0]?.score ?? 0))).toBeLessThan(0.02);
      if (got[0]?.index === want[0]?.index) agree++;
    }
    expect(agree).toBeGreaterThanOrEqual(18);
  });

  it('merges shard lists into the same answer as one shard', async () => {
    const one = new ShardedVectorIndex(dim, { shardSize: 5_000 });
    const many = new ShardedVectorIndex(dim, { shardSize: 97 });
    for (const v of vectors) {
      one.add(v);
      many.add(v);
    }
    for (const q of queries) expect(await many.query(q, 5)).toEqual(await one.query(q, 5));
    expect(
      mergeTopK(
        [
          [{ index: 3, score: 0.5 }],
          [
            { index: 9, score: 0.7 },
            { index: 1, score: 0.2 },
          ],
        ],
        2,
      ),
    ).toEqual([
      { index: 9, score: 0.7 },
      { index: 3, score: 0.5 },
    ]);
  });

  it('grows a shard’s storage past its first 1,024 rows without losing rows', async () => {
    const index = new ShardedVectorIndex(8, { shardSize: 5_000 });
    const local = new Rng('grow');
    const rows = Array.from({ length: 2_500 }, () => randomUnit(local, 8));
    for (const v of rows) index.add(v);
    expect(index.shards).toHaveLength(1);
    expect(index.bytes).toBe(4_096 * (8 + 8 + 4));
    for (const id of [0, 1_023, 1_024, 2_047, 2_048, 2_499])
      expect((await index.query(rows[id] as Float32Array, 1))[0]?.index).toBe(id);
  });

  it('rejects vectors of the wrong size and a full shard', () => {
    const shard = new QuantizedShard(4, 1);
    expect(() => shard.add(0, [1, 2, 3])).toThrow(/3 dimensions/);
    shard.add(0, [1, 0, 0, 0]);
    expect(() => shard.add(1, [1, 0, 0, 0])).toThrow(/full/);
    expect(() => new ShardedVectorIndex(4, { shardSize: 0 })).toThrow(RangeError);
  });
});

describe('prefilters (binary sign bits, pruned query) with int8 rescoring', () => {
  // Clustered data like real tool vectors: 40 topic centres, each row a centre plus noise; queries are noisy
  // copies of rows (a paraphrase lands near its tool), so the true top 5 stands out from the rest.
  const dim = 128;
  const rng = new Rng('binary-index');
  const centres = Array.from({ length: 40 }, () => randomUnit(rng, dim));
  const noisy = (v: Float32Array, amount: number) =>
    normalise(Float32Array.from(v, (x) => x + amount * rng.float(-1, 1)));
  const rows = Array.from({ length: 4_000 }, (_, i) => noisy(centres[i % 40] as Float32Array, 0.15));
  const queries = Array.from({ length: 60 }, (_, i) =>
    noisy(rows[(i * 61) % rows.length] as Float32Array, 0.1),
  );

  function build(options: ConstructorParameters<typeof ShardedVectorIndex>[1]) {
    const index = new ShardedVectorIndex(dim, options);
    for (const v of rows) index.add(v);
    return index;
  }

  it('binary: finds the exact int8 top 5 for most queries while rescoring 5 % of the rows', async () => {
    const index = build({ shardSize: 2_000, search: 'binary', rescore: 100 });
    const exact = await Promise.all(queries.map((q) => index.query(q, 5, { search: 'exact' })));
    const approx = await Promise.all(queries.map((q) => index.query(q, 5)));
    const recall = recallAtK(approx, exact);
    expect(recall).toBeGreaterThanOrEqual(0.9);
    // Scores of the hits it returns are the exact int8 scores (rescoring, not the Hamming estimate).
    for (const [i, list] of approx.entries())
      for (const hit of list) {
        const same = exact[i]?.find((h) => h.index === hit.index);
        if (same) expect(hit.score).toBe(same.score);
      }
    // A prefilter that keeps too few rows loses neighbours: the test can fail.
    const starved = await Promise.all(queries.map((q) => index.query(q, 5, { rescore: 5 })));
    expect(recallAtK(starved, exact)).toBeLessThan(recall);
  });

  it('pruned: scores the query’s largest coordinates, rescores the best rows and is exact for sparse queries', async () => {
    const index = build({ shardSize: 2_000, search: 'pruned', rescore: 100, queryDims: 48 });
    const exact = await Promise.all(queries.map((q) => index.query(q, 5, { search: 'exact' })));
    const approx = await Promise.all(queries.map((q) => index.query(q, 5)));
    expect(recallAtK(approx, exact)).toBeGreaterThanOrEqual(0.9);
    const starved = await Promise.all(queries.map((q) => index.query(q, 5, { queryDims: 1, rescore: 5 })));
    expect(recallAtK(starved, exact)).toBeLessThan(0.9);
    // A query with no more non-zero coordinates than queryDims gets the exact answer.
    const sparse = queries.map((q) => Float32Array.from(q, (x, d) => (d % 4 === 0 ? x : 0)));
    for (const q of sparse)
      expect(await index.query(q, 5)).toEqual(await index.query(q, 5, { search: 'exact' }));
    const d = await Promise.all(queries.slice(0, 10).map((q) => index.query(q, 5)));
    const again = build({ shardSize: 2_000, search: 'pruned', rescore: 100, queryDims: 48 });
    expect(await Promise.all(queries.slice(0, 10).map((q) => again.query(q, 5)))).toEqual(d);
  });

  it('is deterministic: two indexes built from the same rows answer identically', async () => {
    const a = build({ shardSize: 1_500, search: 'binary', rescore: 64 });
    const b = build({ shardSize: 1_500, search: 'binary', rescore: 64 });
    for (const q of queries.slice(0, 20)) expect(await a.query(q, 10)).toEqual(await b.query(q, 10));
  });

  it('is exact when the prefilter keeps every row', async () => {
    const index = build({ shardSize: 4_000, search: 'binary', rescore: 4_000 });
    for (const q of queries.slice(0, 10))
      expect(await index.query(q, 5)).toEqual(await index.query(q, 5, { search: 'exact' }));
  });

  it('rejects queries and rows of the wrong size', async () => {
    const index = build({ shardSize: 2_000, search: 'binary', rescore: 50 });
    await expect(index.query(new Float32Array(dim - 1), 5)).rejects.toThrow(/127 dimensions, index has 128/);
    const shard = new QuantizedShard(dim, 10);
    expect(() => shard.addQuantized(0, new Int8Array(dim + 1), 1)).toThrow(/129 dimensions/);
    expect(() => shard.topK(new Float32Array(3), 5)).toThrow(/3 dimensions/);
    expect(() => new ShardedVectorIndex(0)).toThrow(RangeError);
  });

  it('reloads quantised rows into the same index (how a Durable Object shard wakes up)', async () => {
    const shard = new QuantizedShard(dim, 500);
    for (const [i, v] of rows.slice(0, 500).entries()) shard.add(i, v);
    const copy = new QuantizedShard(dim, 500);
    const stored = shard.rows();
    for (let i = 0; i < stored.ids.length; i++)
      copy.addQuantized(
        stored.ids[i] as number,
        stored.codes.subarray(i * dim, (i + 1) * dim),
        stored.scales[i] as number,
      );
    for (const q of queries.slice(0, 10))
      expect(copy.topK(q, 5, { search: 'binary', rescore: 40 })).toEqual(
        shard.topK(q, 5, { search: 'binary', rescore: 40 }),
      );
    expect(quantize([0.5, -1, 0]).codes).toEqual(Int8Array.from([64, -127, 0]));
  });
});
