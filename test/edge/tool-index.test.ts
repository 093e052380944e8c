/**
 * The sharded Durable Object index of large toolsets (issue 14 §2): a `ToolIndexShard` persists its rows and
 * answers the same after eviction; a repeated chunk is a no-op; the builder fills the shards in alarm-driven
 * chunks (evicted before every alarm) and the search route serves dense and hybrid from it for pools beyond
 * MAX_DENSE_POOL, answering 503 with the build's progress until it is ready. Also Vectorize behind the same
 * interface, against a mock binding (Vectorize does not run locally).
 */
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { syntheticCatalog } from '../../core/retrieval/catalog.ts';
import { normalise } from '../../core/retrieval/dense.ts';
import type { Hit } from '../../core/retrieval/types.ts';
import { QuantizedShard, quantize } from '../../core/retrieval/vector-index.ts';
import { Rng } from '../../core/util/random.ts';
import { embeddingModelFor } from '../../edge/models.ts';
import { DurableObjectIndex, doIndexName, RETRY_FAILED_BUILD_MS } from '../../edge/retrieval/do-index.ts';
import { type VectorizeBinding, VectorizeToolIndex } from '../../edge/retrieval/vectorize-index.ts';
import { toolIndexStub } from '../../edge/stubs.ts';
import { expectProblem, postJson as post } from './helpers.ts';

const dim = 32;
const rng = new Rng('tool-index-edge');
const vectors = Array.from({ length: 600 }, () =>
  normalise(Float32Array.from({ length: dim }, () => rng.float(-1, 1))),
);

function chunkOf(from: number, to: number) {
  const codes = new Int8Array((to - from) * dim);
  const scales = new Float32Array(to - from);
  for (let i = from; i < to; i++) {
    const q = quantize(vectors[i] as Float32Array);
    codes.set(q.codes, (i - from) * dim);
    scales[i - from] = q.scale;
  }
  return { codes, scales };
}

describe('ToolIndexShard', () => {
  it('persists its rows, ignores a repeated chunk and answers the same after eviction', async () => {
    const stub = toolIndexStub(env, 'test-shard/shard/0');
    const raw = env.TOOL_INDEX.get(env.TOOL_INDEX.idFromName('test-shard/shard/0'));
    await stub.configure({ dimensions: dim, capacity: 600 });
    for (let at = 0; at < 600; at += 200) {
      const { codes, scales } = chunkOf(at, at + 200);
      await stub.append(at, codes, scales);
    }
    const again = chunkOf(200, 400);
    expect(await stub.append(200, again.codes, again.scales)).toBe(600);
    expect((await stub.info()).size).toBe(600);
    // The same rows in memory: the object's answers are the core shard's.
    const local = new QuantizedShard(dim, 600);
    for (const [i, v] of vectors.entries()) local.add(i, v);
    const q = vectors[17] as Float32Array;
    const before = await stub.query(q, 5, { search: 'exact' });
    expect(before).toEqual(local.topK(q, 5, { search: 'exact' }));
    expect(before[0]?.index).toBe(17);
    const pruned = await stub.query(q, 5, { rescore: 50, queryDims: 8 }); // the shard's default search
    expect(pruned).toEqual(local.topK(q, 5, { search: 'pruned', rescore: 50, queryDims: 8 }));
    await evictDurableObject(raw);
    expect(await stub.query(q, 5, { search: 'exact' })).toEqual(before);
    expect(await stub.query(q, 5, { rescore: 50, queryDims: 8 })).toEqual(pruned);
    // Wrong sizes are errors, not silent truncation.
    // (Caught here rather than with `rejects`: a rejected RPC promise left to vitest is reported as unhandled.)
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        (e: unknown) => String(e),
      );
    expect(await failure(stub.append(600, new Int8Array(dim + 1), new Float32Array(1)))).toMatch(
      /chunk has 33 dimensions, index has 32/,
    );
    expect(await failure(stub.query(new Float32Array(dim - 1), 5))).toMatch(/query has 31 dimensions/);
  });

  it('fans a query out over shards and merges them like one index', async () => {
    for (let n = 0; n < 3; n++) {
      const stub = toolIndexStub(env, `test-fan/shard/${n}`);
      await stub.configure({ dimensions: dim, capacity: 200 });
      const { codes, scales } = chunkOf(n * 200, (n + 1) * 200);
      await stub.append(n * 200, codes, scales);
    }
    const index = new DurableObjectIndex(env, 'test-fan', dim, 600, 200, { search: 'exact' });
    const local = new QuantizedShard(dim, 600);
    for (const [i, v] of vectors.entries()) local.add(i, v);
    for (const i of [3, 250, 599]) {
      const q = vectors[i] as Float32Array;
      expect(await index.query(q, 5)).toEqual(local.topK(q, 5, { search: 'exact' }));
    }
    await expect(index.query(new Float32Array(3), 5)).rejects.toThrow(/3 dimensions/);
  });
});

describe('dense and hybrid search over a toolset beyond MAX_DENSE_POOL', () => {
  it('answers 503 with progress while the index builds in chunks, then serves dense and hybrid from it', async () => {
    const created = await post('/v1/toolsets', { source: 'synthetic', name: 'big-index', tools: 6_000 });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const res = await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'dense' });
    expect(res.headers.get('retry-after')).toBe('5');
    const building = await expectProblem(res, 503, 'unavailable');
    expect(building.detail).toMatch(/being built: \d+\/6000 tools/);
    expect((building as unknown as { index: { total: number } }).index.total).toBe(6_000);

    const name = doIndexName(id, embeddingModelFor(env));
    const builder = toolIndexStub(env, `${name}/build`);
    const raw = env.TOOL_INDEX.get(env.TOOL_INDEX.idFromName(`${name}/build`));
    let alarms = 0;
    for (; alarms < 20; alarms++) {
      const status = await builder.buildStatus();
      if (status?.state !== 'building') break;
      await evictDurableObject(raw);
      await runDurableObjectAlarm(raw);
    }
    const status = await builder.buildStatus();
    expect(status).toMatchObject({ state: 'ready', done: 6_000, total: 6_000, shards: 1 });
    expect(alarms).toBeGreaterThanOrEqual(3); // chunks of 2,000

    const tools = syntheticCatalog({ seed: 'tool-catalog', tools: 6_000 }).tools;
    const target = tools[4_321];
    for (const ranker of ['dense', 'hybrid']) {
      const found = await post(`/v1/toolsets/${id}/search`, {
        query: target?.description ?? '',
        k: 5,
        ranker,
      });
      expect(found.status).toBe(200);
      const out = (await found.json()) as { results: { rank: number; tool: { name: string } }[] };
      expect(out.results).toHaveLength(5);
      expect(out.results.map((r) => r.tool.name)).toContain(target?.name);
    }
  });
});

describe('a failed index build', () => {
  it('stays failed (503 with the wait in Retry-After) until RETRY_FAILED_BUILD_MS has passed, then resumes to ready', async () => {
    const created = await post('/v1/toolsets', { source: 'synthetic', name: 'flaky-index', tools: 5_500 });
    const { id } = (await created.json()) as { id: string };
    await expectProblem(
      await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'dense' }),
      503,
      'unavailable',
    );
    const name = doIndexName(id, embeddingModelFor(env));
    const builder = toolIndexStub(env, `${name}/build`);
    const raw = env.TOOL_INDEX.get(env.TOOL_INDEX.idFromName(`${name}/build`));
    await runDurableObjectAlarm(raw); // the first chunk of 2,000 tools
    const partial = await builder.buildStatus();
    expect(partial).toMatchObject({ state: 'building', done: 2_000 });
    // The build as five failed alarms in a row leave it: failed, with what was stored so far.
    const failAt = async (finishedAt: number) =>
      runInDurableObject(raw, async (_instance, state) => {
        const failed = { ...partial, state: 'failed', error: 'D1 unavailable', finishedAt };
        state.storage.sql.exec(
          'INSERT OR REPLACE INTO kv (key, json) VALUES (?, ?)',
          'build',
          JSON.stringify(failed),
        );
        await state.storage.deleteAlarm();
      });

    await failAt(Date.now());
    const res = await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'dense' });
    const wait = Number(res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    const failed = await expectProblem(res, 503, 'unavailable');
    expect(failed.detail).toMatch(/failed at 2000\/5500 tools: D1 unavailable/);
    expect(await builder.buildStatus()).toMatchObject({ state: 'failed' });

    await failAt(Date.now() - RETRY_FAILED_BUILD_MS - 1);
    const resumed = await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'dense' });
    expect(resumed.headers.get('retry-after')).toBe('5');
    expect((await expectProblem(resumed, 503, 'unavailable')).detail).toMatch(/being built: 2000\/5500/);
    for (let i = 0; i < 10 && (await builder.buildStatus())?.state === 'building'; i++)
      await runDurableObjectAlarm(raw);
    expect(await builder.buildStatus()).toMatchObject({ state: 'ready', done: 5_500, error: null });
    expect((await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'dense' })).status).toBe(200);
  });
});

describe('Vectorize behind the VectorIndex interface (mock binding)', () => {
  /** A brute-force stand-in for the binding: dot product per namespace, matches best first. */
  function mockVectorize() {
    const stored = new Map<string, { id: string; values: number[] }[]>();
    const calls: { upserts: number[]; topK: number[] } = { upserts: [], topK: [] };
    const binding: VectorizeBinding = {
      async upsert(batch) {
        calls.upserts.push(batch.length);
        for (const v of batch) {
          const list = stored.get(v.namespace ?? '') ?? [];
          list.push({ id: v.id, values: Array.from(v.values) });
          stored.set(v.namespace ?? '', list);
        }
        return { ids: batch.map((v) => v.id), count: batch.length };
      },
      async query(vector, options) {
        calls.topK.push(options?.topK ?? 5);
        const q = Array.from(vector);
        const matches = (stored.get(options?.namespace ?? '') ?? [])
          .map((v) => ({ id: v.id, score: v.values.reduce((a, x, i) => a + x * (q[i] ?? 0), 0) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, options?.topK ?? 5);
        return { matches, count: matches.length };
      },
    };
    return { binding, calls };
  }

  it('upserts in batches of at most 1,000, queries its namespace and maps ids back to pool positions', async () => {
    const { binding, calls } = mockVectorize();
    const many = Array.from({ length: 2_300 }, (_, i) => vectors[i % 600] as Float32Array);
    const index = new VectorizeToolIndex(binding, 'toolset-a', dim, many.length);
    expect(await index.upsert(0, many)).toBe(2_300);
    expect(calls.upserts).toEqual([1_000, 1_000, 300]);
    const other = new VectorizeToolIndex(binding, 'toolset-b', dim, 1);
    await other.upsert(0, [vectors[5] as Float32Array]);
    const hits: Hit[] = await index.query(vectors[42] as Float32Array, 3);
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.index % 600 === 42)).toBe(true); // 42, 642, 1242… are the same vector
    expect(hits[0]?.score).toBeCloseTo(1, 5);
    expect((await other.query(vectors[42] as Float32Array, 3)).map((h) => h.index)).toEqual([0]);
  });

  it('rejects a query of the wrong size, a k beyond Vectorize’s limit and a long namespace', async () => {
    const { binding } = mockVectorize();
    const index = new VectorizeToolIndex(binding, 'x', dim, 10);
    await expect(index.query(new Float32Array(dim + 1), 5)).rejects.toThrow(/33 dimensions, index has 32/);
    await expect(index.query(vectors[0] as Float32Array, 101)).rejects.toThrow(/1…100/);
    await expect(index.upsert(0, [new Float32Array(2)])).rejects.toThrow(/2 dimensions/);
    expect(() => new VectorizeToolIndex(binding, 'n'.repeat(65), dim, 1)).toThrow(/64 bytes/);
  });
});
