/**
 * Model-spend metering (issue 24, edge/metering.ts) on every route that spends model calls — solve, STE, DRAFT,
 * explorations, evaluations, and trainings when the deployment's encoder bills each request (a provider's):
 * - a key with quota 0 starts nothing on any of them (403 quota-exhausted, with the estimate), and spends nothing;
 *   nor does its STE drift schedule at the cron tick (the launch checks the quota as a POST does);
 * - every `POST` answer carries `estimate.modelCalls`; `dryRun: true` answers the estimate alone and creates nothing;
 * - an estimate above what the key has left is refused; one within it starts;
 * - what a run spends is charged to the key and its ledger row, call for call;
 * - a run stops within one batch once the quota is used up (here by other spending), and reports the overshoot;
 * - a default that costs thousands of calls (`POST /v1/ste/runs {}`) needs `tools: "all"` or a list.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { S_OOD_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { apiKeys, draftRuns, evals, explorations, steRuns, toolsetTrainings } from '../../db/schema.ts';
import { launchSteStageChanges } from '../../edge/jobs/ste-schedules.ts';
import { createLogger } from '../../edge/log.ts';
import worker from '../../functions/index.ts';
import { ADMIN_KEY, call, expectProblem, waitUntil } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const INIT_DB = S_OOD_SURFACE.tools.find((t) => t.kernel === 'LoadDB')?.name as string;

function send(path: string, body: unknown, key: string) {
  return call(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Key {
  id: string;
  secret: string;
}

async function issue(name: string, modelCallQuota: number | null): Promise<Key> {
  const res = await send(
    '/v1/keys',
    { name, ...(modelCallQuota === null ? {} : { modelCallQuota }) },
    ADMIN_KEY,
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Key;
}

async function used(id: string): Promise<number> {
  const [row] = await database(env.DB).select().from(apiKeys).where(eq(apiKeys.id, id));
  return row?.modelCallsUsed ?? Number.NaN;
}

/** Other spending of the key (a run elsewhere): its count moves to `n`. */
async function setUsed(id: string, n: number): Promise<void> {
  await database(env.DB).update(apiKeys).set({ modelCallsUsed: n }).where(eq(apiKeys.id, id));
}

const get = async <T>(path: string, key: string) => (await (await call(path, { key })).json()) as T;

interface Spent {
  status: string;
  estimate: { modelCalls: number } | null;
  spend: { modelCalls: number; overshoot: number } | null;
}

let tasks: Task[];

beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
}, 120_000);

/** One request per spending route, small enough to run to its end in a test. */
function spendingRequests(): [string, Record<string, unknown>][] {
  return [
    ['/v1/solve', { taskId: tasks[0]?.id, seed: 'meter' }],
    ['/v1/ste/runs', { surface: 's-ood', tools: [INIT_DB], episodes: 1, trials: 2, paraphrase: false }],
    ['/v1/draft/runs', { surface: 's-in', tools: ['LoadDB'], options: { iterations: 1 } }],
    ['/v1/explorations', { tasks: [tasks[0]?.id], treesPerTask: 1, search: { simulations: 2, maxDepth: 4 } }],
    [
      '/v1/evals',
      { surfaces: ['pc'], datasets: ['coffee'], difficulties: ['easy'], sampleSize: 1, seed: 'meter' },
    ],
  ];
}

describe('model-call metering', () => {
  it('starts nothing for a key with quota 0 on any spending route, and charges it nothing', async () => {
    const key = await issue('broke', 0);
    for (const [path, body] of spendingRequests()) {
      const problem = await expectProblem(await send(path, body, key.secret), 403, 'quota-exhausted');
      expect(problem.modelCallsLeft, path).toBe(0);
      expect((problem.estimate as { modelCalls: number }).modelCalls, path).toBeGreaterThan(0);
      // A dry run still answers the estimate.
      const dry = await send(path, { ...body, dryRun: true }, key.secret);
      expect(dry.status, path).toBe(200);
      expect(await dry.json()).toMatchObject({ dryRun: true, modelCallsLeft: 0 });
    }
    const d = database(env.DB);
    for (const table of [steRuns, draftRuns, explorations, evals])
      expect(await d.select().from(table).where(eq(table.ownerId, key.id))).toEqual([]);
    expect(await used(key.id)).toBe(0);
  });

  it('answers a dry run with the estimate and creates nothing; a POST carries the same estimate', async () => {
    const key = await issue('estimates', null);
    const d = database(env.DB);
    const owned = async () => {
      const counts = [];
      for (const table of [steRuns, draftRuns, explorations, evals])
        counts.push((await d.select().from(table).where(eq(table.ownerId, key.id))).length);
      return counts;
    };
    for (const [path, body] of spendingRequests()) {
      const before = await owned();
      const dry = await send(path, { ...body, dryRun: true }, key.secret);
      expect(dry.status, path).toBe(200);
      const answer = (await dry.json()) as { dryRun: boolean; estimate: { modelCalls: number } };
      expect(answer.dryRun).toBe(true);
      expect(answer.estimate.modelCalls, path).toBeGreaterThan(0);
      expect(await owned(), path).toEqual(before);
      const real = await send(path, body, key.secret);
      expect([200, 202], path).toContain(real.status);
      const view = (await real.json()) as { estimate: { modelCalls: number } };
      expect(view.estimate, path).toEqual(answer.estimate);
    }
  });

  it('refuses an estimate above what is left, naming both; starts one within it and charges what it spent', async () => {
    const key = await issue('solver', 19);
    const greedy = { taskId: tasks[1]?.id, seed: 'meter' };
    // greedy: one call per step, 20 steps by default.
    const refused = await expectProblem(await send('/v1/solve', greedy, key.secret), 403, 'quota-exhausted');
    expect(refused).toMatchObject({ estimate: { modelCalls: 20 }, modelCallsLeft: 19 });
    expect(await used(key.id)).toBe(0);
    const res = await send('/v1/solve', { ...greedy, search: { maxDepth: 10 } }, key.secret);
    expect(res.status).toBe(200);
    const solved = (await res.json()) as { estimate: { modelCalls: number }; usage: { modelCalls: number } };
    expect(solved.estimate.modelCalls).toBe(10);
    expect(solved.usage.modelCalls).toBeGreaterThan(0);
    expect(solved.usage.modelCalls).toBeLessThanOrEqual(10);
    expect(await used(key.id)).toBe(solved.usage.modelCalls);
  });

  it('charges an STE run and a DRAFT run call for call, in the key and in the run', async () => {
    const key = await issue('explorer', 5_000);
    const [, steBody] = spendingRequests()[1] as [string, Record<string, unknown>];
    const ste = (await (await send('/v1/ste/runs', { ...steBody, chunkCalls: 3 }, key.secret)).json()) as {
      id: string;
    };
    const steDone = await waitUntil(
      'STE run',
      () => get<Spent & { progress: { modelCalls: number } }>(`/v1/ste/runs/${ste.id}`, key.secret),
      (r) => r.status !== 'queued' && r.status !== 'running',
    );
    expect(steDone.status).toBe('succeeded');
    expect(steDone.progress.modelCalls).toBeGreaterThan(0);
    expect(steDone.spend).toEqual({ modelCalls: steDone.progress.modelCalls, overshoot: 0 });
    expect(steDone.progress.modelCalls).toBeLessThanOrEqual(steDone.estimate?.modelCalls ?? 0);

    const [, draftBody] = spendingRequests()[2] as [string, Record<string, unknown>];
    const draft = (await (await send('/v1/draft/runs', draftBody, key.secret)).json()) as { id: string };
    const draftDone = await waitUntil(
      'DRAFT run',
      () => get<Spent & { progress: { modelCalls: number } }>(`/v1/draft/runs/${draft.id}`, key.secret),
      (r) => !['queued', 'running', 'finalizing'].includes(r.status),
    );
    expect(draftDone.status).toBe('succeeded');
    // The tools' calls and the finalisation's tool-level rewrite.
    expect(draftDone.spend?.modelCalls).toBeGreaterThan(draftDone.progress.modelCalls);
    expect(draftDone.spend?.modelCalls).toBeLessThanOrEqual(draftDone.estimate?.modelCalls ?? 0);
    expect(await used(key.id)).toBe(
      (steDone.spend?.modelCalls ?? Number.NaN) + (draftDone.spend?.modelCalls ?? Number.NaN),
    );
  });

  it('stops an evaluation within one task run once the quota is used up, and reports the overshoot', async () => {
    const suite = {
      surfaces: ['pc'],
      datasets: ['coffee'],
      difficulties: ['easy'],
      sampleSize: 4,
      seed: 'stop',
    };
    const key = await issue('evaluator', 80); // 4 runs × 20 steps: just enough to start
    const res = await send('/v1/evals', suite, key.secret);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    // Another run of the key spends all but one call before the queue delivers the first group.
    await setUsed(key.id, 79);
    const stopped = await waitUntil(
      'evaluation',
      () =>
        get<Spent & { stoppedFor: string | null; progress: { done: number }; usage: { modelCalls: number } }>(
          `/v1/evals/${id}`,
          key.secret,
        ),
      (e) => e.status !== 'running',
    );
    expect(stopped.status).toBe('cancelled');
    expect(stopped.stoppedFor).toBe('quota-exhausted');
    // One run started (one call was left), and nothing after it.
    expect(stopped.progress.done).toBe(1);
    expect(stopped.spend?.modelCalls).toBe(stopped.usage.modelCalls);
    expect(await used(key.id)).toBe(79 + stopped.usage.modelCalls);
    // The overshoot: the calls past the quota, at most one task run's worth.
    expect(stopped.spend?.overshoot).toBe(79 + stopped.usage.modelCalls - 80);
    expect(stopped.spend?.overshoot).toBeLessThanOrEqual(20);
    await expectProblem(await send('/v1/evals', suite, key.secret), 403, 'quota-exhausted');
  });

  it('stops an exploration and an STE run within one chunk once the quota is used up', async () => {
    const key = await issue('chunks', 4_000);
    const exploration = (await (
      await send(
        '/v1/explorations',
        {
          tasks: tasks.slice(0, 5).map((t) => t.id),
          treesPerTask: 2,
          search: { k: 2, maxDepth: 6, simulations: 20 },
          chunkIterations: 1,
          seed: 'quota',
        },
        key.secret,
      )
    ).json()) as { id: string; estimate: { modelCalls: number } };
    // Per tree and simulation: an expansion and a rollout of ≤ T + 2 calls from each of its k = 2 new children.
    expect(exploration.estimate.modelCalls).toBe(10 * 20 * (1 + 2 * 8));
    await setUsed(key.id, 3_999);
    const end = await waitUntil(
      'exploration',
      () => get<Spent & { stoppedFor: string | null }>(`/v1/explorations/${exploration.id}`, key.secret),
      (b) => b.status !== 'queued' && b.status !== 'running',
    );
    expect(end.status, JSON.stringify(end)).toBe('cancelled');
    expect(end.stoppedFor).toBe('quota-exhausted');
    expect(await used(key.id)).toBe(3_999 + (end.spend?.modelCalls ?? 0));
    // A tree stops at its next chunk: one iteration each, a few calls.
    expect(end.spend?.overshoot).toBe((end.spend?.modelCalls ?? 0) - 1);

    const steKey = await issue('ste-chunks', 2_000);
    const ste = (await (
      await send(
        '/v1/ste/runs',
        { surface: 's-ood', tools: [INIT_DB], episodes: 3, trials: 2, paraphrase: false, chunkCalls: 2 },
        steKey.secret,
      )
    ).json()) as { id: string };
    await setUsed(steKey.id, 1_999);
    const steEnd = await waitUntil(
      'STE run',
      () => get<Spent & { tools: { error: string | null }[] }>(`/v1/ste/runs/${ste.id}`, steKey.secret),
      (r) => r.status !== 'queued' && r.status !== 'running',
    );
    expect(steEnd.status, JSON.stringify(steEnd)).toBe('cancelled');
    expect(steEnd.tools.map((t) => t.error)).toContain('quota-exhausted');
    // One chunk of two calls ran on the last call left: one call past the quota.
    expect(steEnd.spend?.modelCalls).toBe(2);
    expect(steEnd.spend?.overshoot).toBe(1);
    expect(await used(steKey.id)).toBe(2_001);
  });

  it('needs `tools: "all"` or a list when the default would cost thousands of model calls', async () => {
    const key = await issue('defaults', null);
    const problem = await expectProblem(await send('/v1/ste/runs', {}, key.secret), 400, 'validation-error');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'tools', pointer: '/tools' })]);
    expect(problem.detail).toMatch(/model calls/);
    const all = await send('/v1/ste/runs', { tools: 'all', dryRun: true }, key.secret);
    expect(all.status).toBe(200);
    expect(((await all.json()) as { estimate: { modelCalls: number } }).estimate.modelCalls).toBeGreaterThan(
      1_000,
    );
    await expectProblem(await send('/v1/ste/runs', { tools: 'some' }, key.secret), 400, 'validation-error');
    // A default that costs less starts as before (DRAFT over every explorable tool, one iteration each).
    const draft = await send(
      '/v1/draft/runs',
      { surface: 's-in', options: { iterations: 1 }, dryRun: true },
      key.secret,
    );
    expect(draft.status).toBe(200);
  });

  it('starts no training for a key with quota 0 when the encoder bills (a provider embeds), and one when it does not', async () => {
    const key = await issue('broke trainer', 0);
    const created = await send(
      '/v1/toolsets',
      { source: 'synthetic', name: 'metered', tools: 120, seed: 'meter' },
      key.secret,
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // The same deployment with a provider's embeddings (Workers AI): every encoder request is a model call.
    const billed = { ...env, EMBEDDING_PROVIDER: 'workers-ai', AI: {} } as unknown as typeof env;
    const train = async (body: unknown, on: typeof env) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`https://tooldrift.test/v1/toolsets/${id}/train`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key.secret}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        on,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const problem = await expectProblem(await train({}, billed), 403, 'quota-exhausted');
    expect(problem.modelCallsLeft).toBe(0);
    expect((problem.estimate as { modelCalls: number }).modelCalls).toBeGreaterThan(0);
    const dry = await train({ dryRun: true }, billed);
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ dryRun: true, modelCallsLeft: 0 });
    const d = database(env.DB);
    expect(await d.select().from(toolsetTrainings).where(eq(toolsetTrainings.toolsetId, id))).toEqual([]);
    // The local encoder costs no model call: the estimate is 0 and the same key may train.
    const local = await train({ dryRun: true }, env);
    expect(((await local.json()) as { estimate: { modelCalls: number } }).estimate.modelCalls).toBe(0);
    expect(await used(key.id)).toBe(0);
  });

  it('launches no scheduled STE run for a key with quota 0 at the cron tick', async () => {
    const key = await issue('broke scheduler', 0);
    // A schedule spends nothing when it is made: its runs are launched at the cron tick, each checked then.
    const made = await send(
      '/v1/ste/schedules',
      {
        schedule: {
          id: 'broke-drift',
          stages: [
            { surface: 's-in', effectiveFrom: '2026-01-01' },
            { surface: 's-ood', effectiveFrom: '2026-02-01' },
          ],
        },
        run: { episodes: 1, trials: 1, paraphrase: false, seed: 'broke' },
      },
      key.secret,
    );
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    const launched = (
      await launchSteStageChanges(env, Date.parse('2026-03-01'), createLogger('error'))
    ).filter((l) => l.scheduleId === id);
    expect(launched).toEqual([
      expect.objectContaining({ created: false, error: expect.stringMatching(/quota/i) }),
    ]);
    expect(await database(env.DB).select().from(steRuns).where(eq(steRuns.ownerId, key.id))).toEqual([]);
    expect(await used(key.id)).toBe(0);
  });
});
