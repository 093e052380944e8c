/**
 * The job machinery shared by every background kind (issue 24): each key's fair share of the queue (JOB_SHARE jobs in
 * flight, the rest `waiting` and released in order as its jobs end), a claim before a job runs (a second delivery of
 * a job another runner is on is acknowledged without running it), a running job's heartbeat, and the cron tick's
 * sweeper — a job whose message or runner vanished is sent again, once, and resumes from what it stored; a search
 * tree, STE tool or DRAFT tool whose alarm vanished is woken and finishes with the same result.
 */
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  runInDurableObject,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { draftRunTools, jobs, steTools, trees } from '../../db/schema.ts';
import type { DraftToolObject } from '../../durable-objects/draft-tool.ts';
import type { SearchTreeObject } from '../../durable-objects/search-tree.ts';
import type { SteExplorerObject } from '../../durable-objects/ste-explorer.ts';
import type { Bindings } from '../../edge/env.ts';
import { consumeJobBatch } from '../../edge/jobs/consumer.ts';
import { enqueueJob } from '../../edge/jobs/enqueue.ts';
import { registerJobKind } from '../../edge/jobs/kinds.ts';
import { sweepStalledWork } from '../../edge/jobs/sweeper.ts';
import { createLogger } from '../../edge/log.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { call, USER_KEY, waitUntil } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const log = createLogger('error');

/** A JOBS queue that records what is sent instead of delivering it. */
function recordingQueue() {
  const sent: { jobId: string; kind: string }[] = [];
  const queue = {
    send: async (body: { jobId: string; kind: string }) => void sent.push(body),
    sendBatch: async (messages: Iterable<{ body: { jobId: string; kind: string } }>) => {
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue;
  return { sent, queue };
}

/** Delivers messages for the given jobs to the consumer, as the queue would. */
async function deliver(e: Bindings, ids: string[], kind: string) {
  const batch = createMessageBatch(
    'tooldrift-jobs',
    ids.map((id, i) => ({
      id: `m-${id}-${i}`,
      timestamp: new Date(),
      attempts: 1,
      body: { jobId: id, kind },
    })),
  );
  await consumeJobBatch(batch, e, log);
  return batch;
}

const runs: string[] = [];
registerJobKind('test-fair', async (payload) => {
  runs.push((payload as { n: string }).n);
  return 'ran';
});

let tasks: Task[];
beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
}, 120_000);

describe('a fair share of the queue per key', () => {
  it("sends a key's jobs up to its share, keeps the rest waiting, and releases them in order as jobs end", async () => {
    const { sent, queue } = recordingQueue();
    const e: Bindings = { ...env, JOBS: queue };
    for (let n = 1; n <= 6; n++)
      await enqueueJob(e, 'test-fair', { n: `a${n}` }, { id: `fair-a${n}`, ownerId: 'key-a' });
    // Another key's job is sent at once: it does not queue behind key-a's.
    await enqueueJob(e, 'test-fair', { n: 'b1' }, { id: 'fair-b1', ownerId: 'key-b' });
    expect(sent.map((m) => m.jobId)).toEqual(['fair-a1', 'fair-a2', 'fair-a3', 'fair-a4', 'fair-b1']);
    expect((await getJob(env, 'fair-a5'))?.status).toBe('waiting');
    expect((await getJob(env, 'fair-a6'))?.status).toBe('waiting');
    // The deployment's own jobs (no key) are never held back.
    await enqueueJob(e, 'test-fair', { n: 'sys' }, { id: 'fair-sys' });
    expect(sent.at(-1)?.jobId).toBe('fair-sys');

    await deliver(e, ['fair-a1'], 'test-fair');
    expect(runs).toContain('a1');
    expect(sent.at(-1)?.jobId).toBe('fair-a5');
    expect((await getJob(env, 'fair-a5'))?.status).toBe('queued');
    expect((await getJob(env, 'fair-a6'))?.status).toBe('waiting');
    await deliver(e, ['fair-a2', 'fair-a3'], 'test-fair');
    expect(sent.at(-1)?.jobId).toBe('fair-a6');
    await deliver(e, ['fair-a4', 'fair-a5', 'fair-a6', 'fair-b1'], 'test-fair');
    for (const n of ['a4', 'a5', 'a6', 'b1']) expect(runs).toContain(n);
    expect(await database(env.DB).select().from(jobs).where(eq(jobs.status, 'waiting'))).toEqual([]);
  });

  it('runs a job once when a second message for it arrives while another runner is on it', async () => {
    const { queue } = recordingQueue();
    const e: Bindings = { ...env, JOBS: queue };
    const now = Date.now();
    const row = { kind: 'test-fair', payload: { n: 'dup' }, attempts: 1, createdAt: now, updatedAt: now };
    await database(env.DB)
      .insert(jobs)
      .values({ ...row, id: 'fair-running', status: 'running' });
    const batch = await deliver(e, ['fair-running'], 'test-fair');
    expect(runs).not.toContain('dup');
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toHaveLength(1);
    // A runner that stopped beating long ago is gone: the next delivery runs the job.
    await database(env.DB)
      .update(jobs)
      .set({ updatedAt: now - 600_000 })
      .where(eq(jobs.id, 'fair-running'));
    await deliver(e, ['fair-running'], 'test-fair');
    expect(runs.filter((n) => n === 'dup')).toHaveLength(1);
    expect((await getJob(env, 'fair-running'))?.status).toBe('succeeded');
  });

  it("beats a running job's heartbeat, so the sweeper leaves it alone", async () => {
    const e: Bindings = { ...env, JOB_STALE_MS: '400' };
    const seen: number[] = [];
    registerJobKind('test-beating', async (_payload, ctx) => {
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, 150));
        seen.push((await getJob(ctx.env, ctx.jobId))?.updatedAt ?? 0);
      }
      return 'done';
    });
    const { id } = await enqueueJob(
      { ...e, JOBS: recordingQueue().queue },
      'test-beating',
      {},
      { id: 'beating' },
    );
    await deliver(e, [id], 'test-beating');
    expect((await getJob(env, id))?.status).toBe('succeeded');
    // Beats every 100 ms (a quarter of JOB_STALE_MS): the row moved on while the job ran.
    expect(new Set(seen).size).toBeGreaterThan(1);
  });
});

describe('the sweeper', () => {
  it('sends a job whose message vanished again, once; puts a job whose runner died back in the queue; releases waiting jobs', async () => {
    const { sent, queue } = recordingQueue();
    const e: Bindings = { ...env, JOBS: queue };
    const now = Date.now();
    const old = now - 10 * 60_000;
    const row = { kind: 'test-fair', payload: { n: 'x' }, attempts: 0, createdAt: old };
    await database(env.DB)
      .insert(jobs)
      .values([
        { ...row, id: 'sweep-lost', status: 'queued', updatedAt: old },
        { ...row, id: 'sweep-dead', status: 'running', attempts: 1, updatedAt: old },
        { ...row, id: 'sweep-fresh', status: 'queued', updatedAt: now },
        { ...row, id: 'sweep-done', status: 'succeeded', updatedAt: old },
        { ...row, id: 'sweep-waiting', status: 'waiting', ownerId: 'key-sweep', updatedAt: old },
      ]);
    const first = await sweepStalledWork(e, now, log);
    expect(first.jobs.filter((j) => j.startsWith('sweep-')).sort()).toEqual(['sweep-dead', 'sweep-lost']);
    expect(first.released).toBeGreaterThanOrEqual(1);
    expect(
      sent
        .map((m) => m.jobId)
        .filter((j) => j.startsWith('sweep-'))
        .sort(),
    ).toEqual(['sweep-dead', 'sweep-lost', 'sweep-waiting']);
    expect((await getJob(env, 'sweep-dead'))?.status).toBe('queued');
    // Exactly once: the next tick finds them fresh.
    const second = await sweepStalledWork(e, Date.now(), log);
    expect(second.jobs.filter((j) => j.startsWith('sweep-'))).toEqual([]);
    // The re-sent job runs from its message as any other.
    await deliver(e, ['sweep-dead'], 'test-fair');
    expect((await getJob(env, 'sweep-dead'))?.status).toBe('succeeded');
  });

  it('wakes a search tree, an STE tool and a DRAFT tool whose alarms vanished; each finishes', async () => {
    const post = (path: string, body: unknown) =>
      call(path, {
        method: 'POST',
        key: USER_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const exploration = (await (
      await post('/v1/explorations', {
        tasks: [tasks[0]?.id],
        treesPerTask: 1,
        search: { simulations: 6, maxDepth: 4, k: 2 },
        chunkIterations: 1,
        seed: 'sweep',
      })
    ).json()) as { id: string };
    const ste = (await (
      await post('/v1/ste/runs', {
        surface: 's-ood',
        tools: ['Init_DB'],
        episodes: 2,
        trials: 2,
        paraphrase: false,
        chunkCalls: 2,
        seed: 'sweep',
      })
    ).json()) as { id: string };
    const draft = (await (
      await post('/v1/draft/runs', {
        surface: 's-in',
        tools: ['LoadDB'],
        chunkSteps: 1,
        options: { seed: 'sweep' },
      })
    ).json()) as { id: string };
    const d = database(env.DB);
    const treeId = `${exploration.id}.0.0`;
    await waitUntil(
      'tree running',
      async () => (await d.select().from(trees).where(eq(trees.id, treeId)))[0]?.status,
      (s) => s === 'running',
    );
    await waitUntil(
      'STE tool running',
      async () => (await d.select().from(steTools).where(eq(steTools.runId, ste.id)))[0]?.status,
      (s) => s === 'running',
    );
    await waitUntil(
      'DRAFT tool running',
      async () => (await d.select().from(draftRunTools).where(eq(draftRunTools.runId, draft.id)))[0]?.status,
      (s) => s === 'running',
    );
    // The runtime loses every alarm (a restart that kept storage but not its schedule) and the rows go stale.
    const tree = env.TREES.get(env.TREES.idFromName(treeId));
    await runInDurableObject(tree, (_o: SearchTreeObject, state) => state.storage.deleteAlarm());
    const steObject = env.STE.get(env.STE.idFromName(`${ste.id}/Init_DB`));
    await runInDurableObject(steObject, (_o: SteExplorerObject, state) => state.storage.deleteAlarm());
    const draftObject = env.DRAFT_TOOLS.get(env.DRAFT_TOOLS.idFromName(`${draft.id}/LoadDB`));
    await runInDurableObject(draftObject, (_o: DraftToolObject, state) => state.storage.deleteAlarm());
    const old = Date.now() - 10 * 60_000;
    await d.update(trees).set({ updatedAt: old }).where(eq(trees.id, treeId));
    await d.update(steTools).set({ updatedAt: old }).where(eq(steTools.runId, ste.id));
    await d.update(draftRunTools).set({ updatedAt: old }).where(eq(draftRunTools.runId, draft.id));

    const swept = await sweepStalledWork(env, Date.now(), log);
    expect(swept.trees).toContain(treeId);
    expect(swept.steTools).toContain(`${ste.id}/Init_DB`);
    expect(swept.draftTools).toContain(`${draft.id}/LoadDB`);
    // Once: a second sweep finds their rows touched and their alarms set.
    const again = await sweepStalledWork(env, Date.now(), log);
    expect(again.trees).not.toContain(treeId);

    const get = async (path: string) =>
      (await (await call(path, { key: USER_KEY })).json()) as { status: string };
    expect(
      (
        await waitUntil(
          'exploration',
          () => get(`/v1/explorations/${exploration.id}`),
          (b) => !['queued', 'running'].includes(b.status),
        )
      ).status,
    ).toBe('succeeded');
    expect(
      (
        await waitUntil(
          'STE run',
          () => get(`/v1/ste/runs/${ste.id}`),
          (b) => !['queued', 'running'].includes(b.status),
        )
      ).status,
    ).toBe('succeeded');
    expect(
      (
        await waitUntil(
          'DRAFT run',
          () => get(`/v1/draft/runs/${draft.id}`),
          (b) => !['queued', 'running', 'finalizing'].includes(b.status),
        )
      ).status,
    ).toBe('succeeded');
  });
});
