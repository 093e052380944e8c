import {
  createExecutionContext,
  createMessageBatch,
  evictDurableObject,
  getQueueResult,
  runDurableObjectAlarm,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exploreTool } from '../../core/ste/engine.ts';
import { STE_SFT_SYSTEM } from '../../core/ste/sft.ts';
import { surfaceVersion } from '../../core/ste/targets.ts';
import { S_OOD_SURFACE } from '../../core/surfaces/builtin.ts';
import { database } from '../../db/client.ts';
import { jobs, steExemplars } from '../../db/schema.ts';
import type { SteToolParams } from '../../durable-objects/ste-explorer.ts';
import { launchSteStageChanges } from '../../edge/jobs/ste-schedules.ts';
import { STE_TOOL } from '../../edge/jobs/ste-tool.ts';
import { createLogger } from '../../edge/log.ts';
import { textModelFor } from '../../edge/models.ts';
import { createSteRun, reportSteOutcome } from '../../edge/stores/ste.ts';
import { steStub } from '../../edge/stubs.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import worker from '../../functions/index.ts';
import { checkSftRecord } from '../../gpu-jobs/validate.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';

const INIT_DB = S_OOD_SURFACE.tools.find((t) => t.kernel === 'LoadDB')?.name as string;
const SMALL = { episodes: 2, trials: 2, chunkCalls: 3 };

function post(body: unknown, key: string | null = USER_KEY) {
  return call('/v1/ste/runs', {
    method: 'POST',
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface RunBody {
  id: string;
  status: string;
  progress: { tools: number; toolsDone: number; trialsDone: number; trialsTotal: number; exemplars: number };
  tools: {
    tool: string;
    status: string;
    trialsDone: number;
    kept: number;
    dropped: number;
    exemplars: number;
  }[];
}

async function waitForRun(id: string, timeoutMs = 50_000): Promise<RunBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await (await call(`/v1/ste/runs/${id}`, { key: USER_KEY })).json()) as RunBody;
    if (body.status !== 'queued' && body.status !== 'running') return body;
    if (Date.now() > deadline) throw new Error(`STE run ${id} still ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function exemplarsOf(runId: string) {
  return database(env.DB).select().from(steExemplars).where(eq(steExemplars.runId, runId));
}

describe('STE runs', () => {
  it('explores a tool through the queue with the simulator and keeps exemplars by surface version', async () => {
    const res = await post({ surface: 's-ood', tools: [INIT_DB], seed: 'edge', ...SMALL });
    expect(res.status).toBe(202);
    const created = (await res.json()) as RunBody & { surfaceVersion: string; docs: string };
    expect(created.surfaceVersion).toBe(surfaceVersion(S_OOD_SURFACE));
    expect(created.docs).toBe('s-ood');
    const done = await waitForRun(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toMatchObject({ tools: 1, toolsDone: 1, trialsDone: 4, trialsTotal: 4 });
    const tool = done.tools[0];
    expect(tool).toMatchObject({ tool: INIT_DB, status: 'succeeded', trialsDone: 4 });
    expect((tool?.kept ?? 0) + (tool?.dropped ?? 0)).toBe(4);

    const list = await call(`/v1/ste/exemplars?run=${created.id}&limit=2`, { key: USER_KEY });
    expect(list.status).toBe(200);
    const page = (await list.json()) as {
      items: { tool: string; surfaceVersion: string }[];
      nextCursor: string | null;
    };
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((e) => e.tool === INIT_DB && e.surfaceVersion === created.surfaceVersion)).toBe(
      true,
    );
    const stored = await exemplarsOf(created.id);
    expect(stored.length).toBe(tool?.exemplars);
    if (stored.length > 2) {
      expect(page.nextCursor).not.toBeNull();
      const next = await call(`/v1/ste/exemplars?run=${created.id}&limit=2&cursor=${page.nextCursor}`, {
        key: USER_KEY,
      });
      const second = (await next.json()) as { items: { id: string }[] };
      expect(second.items.length).toBeGreaterThan(0);
    }

    const memory = (await (await call(`/v1/ste/runs/${created.id}/memory`, { key: USER_KEY })).json()) as {
      items: { tool: string; position: number; solved: boolean }[];
      nextCursor: string | null;
    };
    expect(memory.items.map((m) => m.position)).toEqual([0, 1, 2, 3]);
    expect(memory.nextCursor).toBeNull();
    // By page (and by tool): the same entries.
    const firstHalf = (await (
      await call(`/v1/ste/runs/${created.id}/memory?limit=2`, { key: USER_KEY })
    ).json()) as { items: { position: number }[]; nextCursor: string };
    const secondHalf = (await (
      await call(
        `/v1/ste/runs/${created.id}/memory?limit=2&cursor=${encodeURIComponent(firstHalf.nextCursor)}`,
        { key: USER_KEY },
      )
    ).json()) as { items: { position: number }[]; nextCursor: string | null };
    expect([...firstHalf.items, ...secondHalf.items].map((m) => m.position)).toEqual([0, 1, 2, 3]);
    expect(secondHalf.nextCursor).toBeNull();
    const memoryTool = memory.items[0]?.tool as string;
    const ofTool = (await (
      await call(`/v1/ste/runs/${created.id}/memory?tool=${encodeURIComponent(memoryTool)}`, {
        key: USER_KEY,
      })
    ).json()) as { items: unknown[] };
    expect(ofTool.items).toHaveLength(4);

    const sft = await call(`/v1/exports/ste-sft.jsonl?run=${created.id}`, { key: USER_KEY });
    expect(sft.headers.get('content-type')).toBe('application/x-ndjson');
    expect(sft.headers.get('x-total-count')).toBe(String(2 * stored.length));
    const lines = (await sft.text()).trim().split('\n');
    expect(lines).toHaveLength(2 * stored.length);
    for (const line of lines) expect(checkSftRecord(JSON.parse(line)).problems).toEqual([]);
    // One exemplar a page: two lines each, linked to the next.
    const one = await call(`/v1/exports/ste-sft.jsonl?run=${created.id}&limit=1`, { key: USER_KEY });
    expect((await one.text()).trim().split('\n')).toHaveLength(2);
    expect(one.headers.get('link') !== null).toBe(stored.length > 1);
    // An unknown run is a 404 for the export and the exemplar list alike.
    for (const path of ['/v1/exports/ste-sft.jsonl?run=nope', '/v1/ste/exemplars?run=nope'])
      await expectProblem(await call(path, { key: USER_KEY }), 404, 'not-found');
    // STE §2.2: no API documentation in the records' context by default; the agent prompt on request.
    const first = JSON.parse(lines[0] as string) as {
      messages: { content: string }[];
      meta: { documentation: string };
    };
    expect(first.messages[0]?.content).toBe(STE_SFT_SYSTEM);
    expect(first.meta.documentation).toBe('none');
    const withDocs = await call(`/v1/exports/ste-sft.jsonl?run=${created.id}&documentation=agent-prompt`, {
      key: USER_KEY,
    });
    const docsLine = JSON.parse((await withDocs.text()).split('\n')[0] as string) as {
      messages: { content: string }[];
    };
    expect(docsLine.messages[0]?.content).toContain(`${INIT_DB}[`);

    const events = await call(`/v1/ste/runs/${created.id}/events`, { key: USER_KEY });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    const text = await events.text();
    expect(text).toMatch(/^event: progress\ndata: \{"status":"succeeded"/);
    expect(text).toContain('event: done\n');

    const runs = (await (await call('/v1/ste/runs?surface=s-ood', { key: USER_KEY })).json()) as {
      items: { id: string }[];
    };
    expect(runs.items.map((r) => r.id)).toContain(created.id);
  });

  it('runs the Table 2 ablations: one-trial episodes with the trial count kept, no reflection marks', async () => {
    const res = await post({
      surface: 's-ood',
      tools: [INIT_DB],
      seed: 'ablate',
      episodes: 1,
      trials: 3,
      shortTermMemory: false,
      selfReflection: false,
      longTermMemory: 'trial',
      paraphrase: false,
      chunkCalls: 4,
    });
    expect(res.status).toBe(202);
    const created = (await res.json()) as RunBody & { config: Record<string, unknown> };
    expect(created.config).toMatchObject({
      shortTermMemory: false,
      selfReflection: false,
      longTermMemory: 'trial',
      executionFeedback: true,
    });
    const done = await waitForRun(created.id);
    expect(done.status).toBe('succeeded');
    expect(done.progress).toMatchObject({ trialsDone: 3, trialsTotal: 3 });
    const state = await steStub(env, created.id, INIT_DB).state();
    expect(state?.options).toMatchObject({ episodes: 3, trials: 1 });
    expect(state?.trials.map((t) => [t.episode, t.trial, t.solved])).toEqual([
      [0, 0, null],
      [1, 0, null],
      [2, 0, null],
    ]);
    const memory = (await (await call(`/v1/ste/runs/${created.id}/memory`, { key: USER_KEY })).json()) as {
      items: { solved: boolean | null }[];
    };
    expect(memory.items.map((m) => m.solved)).toEqual([null, null, null]);
  });

  it('serves a run as the demonstrations aid of /v1/solve; an unknown set is a 400', async () => {
    const res = await post({ surface: 's-ood', tools: [INIT_DB], seed: 'aid', ...SMALL });
    const { id } = (await res.json()) as { id: string };
    expect((await waitForRun(id)).status).toBe('succeeded');
    const solve = (set: string) =>
      call('/v1/solve', {
        method: 'POST',
        key: USER_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          question: 'Which columns does the coffee database have?',
          surface: 's-ood',
          promptSurface: 'pc',
          mode: 'greedy',
          aids: { demonstrations: { set, count: 8 } },
        }),
      });
    const ok = await solve(id);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { trajectory: { steps: { action?: string }[] } };
    expect(body.trajectory.steps.length).toBeGreaterThan(0);
    const bad = await expectProblem(await solve('no-such-run'), 400, 'validation-error');
    expect(JSON.stringify(bad)).toContain('aids.demonstrations.set');
  });

  it('ends with the same exemplars when evicted before every alarm', async () => {
    const options = { tool: INIT_DB, seed: 'evict', episodes: 2, trials: 2 };
    const runId = 'ste-evict-run';
    await createSteRun(env.DB, {
      id: runId,
      surfaceId: 's-ood',
      surfaceVersion: surfaceVersion(S_OOD_SURFACE),
      docsSurfaceId: 's-ood',
      sinceSurfaceId: null,
      config: {},
      tools: [INIT_DB],
      trialsPerTool: 4,
      trigger: null,
    });
    const params: SteToolParams = {
      runId,
      surfaceId: 's-ood',
      surfaceVersion: surfaceVersion(S_OOD_SURFACE),
      docsSurfaceId: 's-ood',
      model: {},
      options,
      chunkCalls: 2,
    };
    const stub = steStub(env, runId, INIT_DB);
    await stub.start(params);
    const object = env.STE.get(env.STE.idFromName(`${runId}/${INIT_DB}`));
    let rounds = 0;
    for (; rounds < 200; rounds++) {
      if ((await stub.progress())?.done) break;
      await evictDurableObject(object);
      await runDurableObjectAlarm(object);
    }
    expect(rounds).toBeGreaterThan(5);
    const state = await stub.state();
    const reference = await exploreTool(
      {
        model: textModelFor(env, {}),
        world: worldFor(env),
        surface: S_OOD_SURFACE,
        deps: edgeKernelDeps(env),
      },
      options,
    );
    expect(state?.exemplars).toEqual(reference.exemplars);
    expect(state?.trials).toEqual(reference.trials);
    const stored = await exemplarsOf(runId);
    expect(stored.map((e) => e.id).sort()).toEqual(reference.exemplars.map((e) => `${runId}/${e.id}`).sort());
  });

  it('creates no duplicate exemplars when a ste-tool message is redelivered or a report repeats', async () => {
    const res = await post({ surface: 's-ood', tools: [INIT_DB], seed: 'redeliver', ...SMALL });
    const { id } = (await res.json()) as { id: string };
    await waitForRun(id);
    const before = await exemplarsOf(id);
    expect(before.length).toBeGreaterThan(0);
    const jobId = `${id}:${INIT_DB}`;
    await database(env.DB).update(jobs).set({ status: 'running' }).where(eq(jobs.id, jobId));
    const batch = createMessageBatch('tooldrift-jobs', [
      { id: 'again', timestamp: new Date(), attempts: 2, body: { jobId, kind: STE_TOOL } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['again']);
    const state = await steStub(env, id, INIT_DB).state();
    await reportSteOutcome(
      env.DB,
      { runId: id, surfaceId: 's-ood', surfaceVersion: surfaceVersion(S_OOD_SURFACE) },
      state as never,
      'succeeded',
      null,
    );
    const after = await exemplarsOf(id);
    expect(after.map((e) => e.id).sort()).toEqual(before.map((e) => e.id).sort());
  });

  it('targets only the tools changed since another surface, and cancels', async () => {
    const res = await post({ surface: 's-ood', since: 's-in', seed: 'cl', episodes: 15 });
    expect(res.status).toBe(202);
    const body = (await res.json()) as RunBody & { since: string };
    expect(body.since).toBe('s-in');
    expect(body.progress.tools).toBe(11);
    const del = await call(`/v1/ste/runs/${body.id}`, { method: 'DELETE', key: USER_KEY });
    expect(del.status).toBe(200);
    expect(((await del.json()) as RunBody).status).toBe('cancelled');
    expect((await waitForRun(body.id)).status).toBe('cancelled');
  });

  it('launches one run per drift-schedule stage change at the cron tick, over the changed tools', async () => {
    const res = await call('/v1/ste/schedules', {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        schedule: {
          id: 'drift',
          stages: [
            { surface: 's-in', effectiveFrom: '2026-01-01' },
            { surface: 's-ood', effectiveFrom: '2026-02-01' },
          ],
        },
        run: { episodes: 1, trials: 1, paraphrase: false, seed: 'cron', chunkCalls: 10 },
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const log = createLogger('error');
    const before = await launchSteStageChanges(env, Date.parse('2026-01-15'), log);
    expect(before.filter((l) => l.scheduleId === id)).toEqual([]);
    const first = (await launchSteStageChanges(env, Date.parse('2026-03-01'), log)).find(
      (l) => l.scheduleId === id,
    );
    expect(first).toMatchObject({ stage: 1, created: true });
    const again = (await launchSteStageChanges(env, Date.parse('2026-03-02'), log)).find(
      (l) => l.scheduleId === id,
    );
    expect(again).toMatchObject({ stage: 1, created: false, runId: first?.runId });
    const view = (await (await call(`/v1/ste/schedules/${id}`, { key: USER_KEY })).json()) as {
      runs: { id: string; trigger: string }[];
    };
    expect(view.runs).toEqual([
      expect.objectContaining({ id: first?.runId, trigger: `ste-schedule:${id}:1` }),
    ]);
    const run = await waitForRun(first?.runId as string);
    expect(run.status).toBe('succeeded');
    expect(run.progress.tools).toBe(11);
    const del = await call(`/v1/ste/schedules/${id}`, { method: 'DELETE', key: USER_KEY });
    expect(del.status).toBe(204);
    await expectProblem(await call(`/v1/ste/schedules/${id}`, { key: USER_KEY }), 404, 'not-found');
  });

  it('rejects bad input with problem+json', async () => {
    const schedule = (stages: unknown) =>
      call('/v1/ste/schedules', {
        method: 'POST',
        key: USER_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ schedule: { id: 'x', stages } }),
      });
    await expectProblem(
      await schedule([{ surface: 'nope', effectiveFrom: '2026-01-01' }]),
      400,
      'validation-error',
    );
    await expectProblem(
      await schedule([{ surface: 'pc', effectiveFrom: 'yesterday' }]),
      400,
      'validation-error',
    );
    await expectProblem(
      await schedule([
        { surface: 'pc', effectiveFrom: '2026-02-01' },
        { surface: 's-in', effectiveFrom: '2026-01-01' },
      ]),
      400,
      'validation-error',
    );
    await expectProblem(await post({ surface: 'nope' }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', docs: 'nope' }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', tools: ['LoadDB'] }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-in', since: 's-in' }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', tools: ['Finish'] }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', episodes: 0 }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', trials: 9 }), 400, 'validation-error');
    await expectProblem(await post({ surface: 's-ood', bogus: 1 }), 400, 'validation-error');
    await expectProblem(
      await post({ surface: 's-ood', longTermMemory: 'sometimes' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('/v1/exports/ste-sft.jsonl?documentation=all', { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post({ surface: 's-ood', model: { provider: 'nope' } }),
      400,
      'validation-error',
    );
    await expectProblem(await post({ surface: 's-ood' }, null), 401, 'unauthorized');
    const notJson = await call('/v1/ste/runs', {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    await expectProblem(await call('/v1/ste/runs/missing', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call('/v1/ste/runs/missing', { method: 'DELETE', key: USER_KEY }),
      404,
      'not-found',
    );
    await expectProblem(await call('/v1/ste/runs/missing/events', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/ste/runs/missing/memory', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/ste/exemplars?limit=0', { key: USER_KEY }), 400, 'validation-error');
    await expectProblem(
      await call('/v1/ste/exemplars?cursor=bad', { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/ste/runs?limit=500', { key: USER_KEY }), 400, 'validation-error');
    await expectProblem(await call('/v1/ste/exemplars'), 401, 'unauthorized');
    await expectProblem(await call('/v1/exports/ste-sft.jsonl'), 401, 'unauthorized');
  });
});
