import {
  createExecutionContext,
  createMessageBatch,
  evictDurableObject,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSearchConfig } from '../../core/search/config.ts';
import { createSearch, runSearch, searchEnv } from '../../core/search/mcts.ts';
import { serializeTree } from '../../core/search/tree.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { jobs, trajectories, trees } from '../../db/schema.ts';
import type { SearchTreeObject, TreeStartParams } from '../../durable-objects/search-tree.ts';
import { EXPLORE_TREE } from '../../edge/jobs/explore-tree.ts';
import { textModelFor } from '../../edge/models.ts';
import { treeStub } from '../../edge/stubs.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import worker from '../../functions/index.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

let tasks: Task[];
beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
}, 120_000);

function post(body: unknown, key: string | null = USER_KEY) {
  return call('/v1/explorations', {
    method: 'POST',
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function waitForExploration(id: string, timeoutMs = 50_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/v1/explorations/${id}`, { key: USER_KEY });
    const body = (await res.json()) as { status: string; counts: Record<string, number> } & Record<
      string,
      unknown
    >;
    if (body.status !== 'queued' && body.status !== 'running') return body;
    if (Date.now() > deadline) throw new Error(`exploration ${id} still ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const SMALL = { k: 2, maxDepth: 4, simulations: 3 };

describe('explorations', () => {
  it('runs 2 tasks × 2 trees with the simulator through the queue to completion', async () => {
    const taskIds = tasks.slice(0, 2).map((t) => t.id);
    const res = await post({
      tasks: taskIds,
      // The default server surface is s-in (ToolEvo explores there); this scenario was built on P_c.
      surface: 'pc',
      treesPerTask: 2,
      search: SMALL,
      seed: 'e2e',
      chunkIterations: 1,
    });
    expect(res.status).toBe(202);
    const created = (await res.json()) as { id: string; trees: number; status: string };
    expect(created.trees).toBe(4);
    const done = await waitForExploration(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.counts).toEqual({ queued: 0, running: 0, done: 4, failed: 0, cancelled: 0 });
    const usage = done.usage as { modelCalls: number; nodes: number; iterations: number };
    expect(usage.modelCalls).toBeGreaterThan(0);
    expect(typeof done.successRate).toBe('number');

    const rows = await database(env.DB).select().from(trees).where(eq(trees.explorationId, created.id));
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.seed)).size).toBe(4);
    let nodeTotal = 0;
    for (const row of rows) {
      expect(row.status).toBe('succeeded');
      expect(row.solved).not.toBeNull();
      const tree = await call(`/v1/trees/${row.id}`, { key: USER_KEY });
      expect(tree.status).toBe(200);
      const view = (await tree.json()) as {
        nodes: { id: number; visits: number; cached: boolean }[];
        progress: { done: boolean; simulations: number; nodes: number; solved: boolean };
      };
      expect(view.progress.done).toBe(true);
      expect(view.nodes).toHaveLength(row.nodes);
      expect(view.progress.solved).toBe(row.solved);
      for (const n of view.nodes) expect(n.cached).toBe(n.id !== 0 && n.visits === 0);
      nodeTotal += row.nodes;
    }
    expect(usage.nodes).toBe(nodeTotal);
    // Every finished tree's terminal paths were recorded, once.
    const recorded = await database(env.DB)
      .select()
      .from(trajectories)
      .where(eq(trajectories.explorationId, created.id));
    expect(recorded.length).toBeGreaterThan(0);
    expect(new Set(recorded.map((r) => `${r.treeId}/${r.leafNode}`)).size).toBe(recorded.length);

    // The aggregate event stream of a finished exploration reports it and ends.
    const events = await call(`/v1/explorations/${created.id}/events`, { key: USER_KEY });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const text = await events.text();
    expect(text).toMatch(/^event: progress\ndata: \{"status":"succeeded"/);
    expect(text).toContain('event: done\n');

    // The tree's own stream ends too.
    const treeEvents = await call(`/v1/trees/${rows[0]?.id}/events`, { key: USER_KEY });
    expect(await treeEvents.text()).toContain('event: done\ndata: {"treeId"');
  });

  it('resumes a tree evicted between and during chunks into exactly the uninterrupted search', async () => {
    const task = tasks[2] as Task;
    const config = resolveSearchConfig({ ...SMALL, simulations: 5, seed: 'evict/1' });
    const params: TreeStartParams = {
      treeId: 'evict-test-tree',
      explorationId: 'evict-test',
      task: { id: task.id, question: task.question, gold: task.gold, dataset: task.dataset },
      config,
      surfaceId: 'pc',
      promptSurfaceId: 'pc',
      model: {},
      chunkIterations: 1,
    };
    const stub = treeStub(env, params.treeId);
    await stub.start(params);
    const doStub = env.TREES.get(env.TREES.idFromName(params.treeId));
    // Each round evicts the object (possibly mid-chunk: the start's alarm also fires on its own) and runs the
    // next alarm on a fresh instance that reloads the tree from storage.
    let rounds = 0;
    for (; rounds < 50; rounds++) {
      const progress = await stub.progress();
      if (progress?.done) break;
      await evictDurableObject(doStub);
      await runDurableObjectAlarm(doStub);
    }
    const stored = await stub.searchTree();
    expect(stored?.done).toBe(true);

    // The tree keeps its task's dataset (the prompt's few-shot pool), so the reference search gets it too.
    const reference = createSearch(
      { id: task.id, question: task.question, gold: task.gold, dataset: task.dataset },
      config,
    );
    await runSearch(
      reference,
      searchEnv(reference, {
        model: textModelFor(env, {}),
        world: worldFor(env),
        surface: PC_SURFACE,
        docs: PC_SURFACE,
        deps: edgeKernelDeps(env, task.gold),
      }),
    );
    expect(reference.nodes.length).toBeGreaterThan(1);
    expect(reference.iteration).toBeGreaterThan(1);
    expect(rounds).toBeGreaterThan(0);
    expect(serializeTree(stored as never)).toBe(serializeTree(reference));

    // Storage holds exactly one row per node.
    const rows = await runInDurableObject(doStub, (_i: SearchTreeObject, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM nodes').one(),
    );
    expect(rows.n).toBe(reference.nodes.length);
    // A second start is a no-op.
    await stub.start({ ...params, config: { ...config, seed: 'other' } });
    expect(serializeTree((await stub.searchTree()) as never)).toBe(serializeTree(reference));
  });

  it('creates no duplicate tree when an explore-tree message is redelivered', async () => {
    const res = await post({ tasks: [tasks[0]?.id], treesPerTask: 1, search: { ...SMALL, simulations: 1 } });
    const { id } = (await res.json()) as { id: string };
    await waitForExploration(id);
    const [row] = await database(env.DB).select().from(trees).where(eq(trees.explorationId, id));
    const before = await treeStub(env, row?.id as string).searchTree();
    const jobId = `${id}:${row?.id}`;
    // Force the consumer to run the handler again, as if the first delivery's ack was lost mid-run.
    await database(env.DB).update(jobs).set({ status: 'running' }).where(eq(jobs.id, jobId));
    const batch = createMessageBatch('tooldrift-jobs', [
      { id: 'redelivered', timestamp: new Date(), attempts: 2, body: { jobId, kind: EXPLORE_TREE } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['redelivered']);
    const after = await treeStub(env, row?.id as string).searchTree();
    expect(serializeTree(after as never)).toBe(serializeTree(before as never));
    const rows = await database(env.DB).select().from(trees).where(eq(trees.explorationId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('succeeded');
  });

  it('cancels an exploration', async () => {
    const res = await post({
      tasks: [tasks[1]?.id],
      treesPerTask: 2,
      search: { ...SMALL, simulations: 200 },
    });
    const { id } = (await res.json()) as { id: string };
    const del = await call(`/v1/explorations/${id}`, { method: 'DELETE', key: USER_KEY });
    expect(del.status).toBe(200);
    const body = (await del.json()) as { status: string; counts: Record<string, number> };
    expect(body.status).toBe('cancelled');
    expect(body.counts.cancelled).toBe(2);
    const later = await waitForExploration(id);
    expect(later.status).toBe('cancelled');
  });

  it('rejects bad requests with problem+json', async () => {
    const id = tasks[0]?.id;
    await expectProblem(await post({ tasks: [id], surface: 'no-such-surface' }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id], promptSurface: 'nope' }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id], treesPerTask: 0 }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id], treesPerTask: 51 }), 400, 'validation-error');
    await expectProblem(await post({ tasks: { dataset: 'nope' } }), 400, 'validation-error');
    await expectProblem(await post({ tasks: { limit: 0 } }), 400, 'validation-error');
    await expectProblem(await post({ tasks: ['no-such-task'] }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id], search: { k: 0 } }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id], search: { bogus: 1 } }), 400, 'validation-error');
    await expectProblem(await post({ tasks: [id] }, null), 401, 'unauthorized');
    await expectProblem(await call('/v1/explorations/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/trees/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/explorations/nope/events', { key: USER_KEY }), 404, 'not-found');
  });

  it('stores a Durable Object location hint and rejects an unknown one', async () => {
    const id = tasks[0]?.id;
    const bad = await expectProblem(
      await post({ tasks: [id], locationHint: 'mars' }),
      400,
      'validation-error',
    );
    expect(bad.field).toBe('locationHint');
    const res = await post({
      tasks: [id],
      treesPerTask: 1,
      search: SMALL,
      seed: 'hint',
      locationHint: 'weur',
    });
    expect(res.status).toBe(202);
    const { id: explorationId } = (await res.json()) as { id: string };
    const view = (await (await call(`/v1/explorations/${explorationId}`, { key: USER_KEY })).json()) as {
      config: Record<string, unknown>;
    };
    expect(view.config.locationHint).toBe('weur');
    // Locally the hint changes nothing: the tree, got with the hint, runs as any other.
    const done = await waitForExploration(explorationId);
    expect(done.status).toBe('succeeded');
    expect(done.counts).toEqual({ queued: 0, running: 0, done: 1, failed: 0, cancelled: 0 });
  });

  it('lists its routes in /openapi.json', async () => {
    const doc = (await (await call('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const path of [
      '/v1/explorations',
      '/v1/explorations/{id}',
      '/v1/explorations/{id}/events',
      '/v1/trees/{id}',
      '/v1/trees/{id}/events',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
  });
});
