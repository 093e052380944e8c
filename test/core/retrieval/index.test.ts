import { describe, expect, it } from 'vitest';
import { normalise } from '../../../core/retrieval/dense.ts';
import { topKOf } from '../../../core/retrieval/topk.ts';
import { mergeTopK, QuantizedShard, ShardedVectorIndex } from '../../../core/retrieval/vector-index.ts';
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
    // Allocated by capacity: 4 shards × 300 rows × (64 int8 codes + a float32 scale + an int32 id).
    expect(index.bytes).toBe(4 * 300 * (dim + 8));
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
    expect(index.bytes).toBe(4_096 * (8 + 8));
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
