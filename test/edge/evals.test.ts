/**
 * Evaluations and schedules at the edge: a full suite (pc, s-in, s-ood × 7 datasets × easy/hard) with the
 * simulator through the queue to its tables and taxonomy; scheduled launches exactly once per due time (cron
 * handler and direct launches); comparisons that flag drops; the bad paths of every route.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EVAL_DATASETS, TABLE_DATASET_ORDER } from '../../core/evals/suite.ts';
import { ERROR_CATEGORIES } from '../../core/evals/taxonomy.ts';
import { database } from '../../db/client.ts';
import { evalResults, evals, jobs } from '../../db/schema.ts';
import { launchDueSchedules } from '../../edge/jobs/schedules.ts';
import { createLogger } from '../../edge/log.ts';
import worker from '../../functions/index.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

beforeAll(async () => {
  await seedTestWorld();
}, 120_000);

function send(path: string, method: string, body: unknown, key: string | null = USER_KEY) {
  return call(path, {
    method,
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Summary {
  id: string;
  status: string;
  progress: { done: number; total: number };
  successRate: number | null;
  flagged: boolean;
  scheduleId: string | null;
  dueTime: string | null;
}

interface EvalBody extends Summary {
  columns: { dataset: string; difficulty: string }[];
  table: {
    method: string;
    surface: string;
    cells: {
      dataset: string;
      difficulty: string;
      total: number;
      done: number;
      correct: number;
      successRate: number | null;
    }[];
    average: number | null;
    averageEasy: number | null;
    averageHard: number | null;
  }[];
  taxonomy: {
    categories: { id: string }[];
    rows: {
      method: string;
      surface: string;
      failures: number;
      runErrors: number;
      counts: Record<string, number>;
    }[];
  };
  usage: { modelCalls: number };
  comparison: null | {
    previousEvalId: string;
    flagged: boolean;
    threshold: number;
    drops: { surface: string; delta: number }[];
  };
  model: { provider: string; simulated: boolean };
}

async function waitForEval(id: string, timeoutMs = 50_000): Promise<EvalBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/v1/evals/${id}`, { key: USER_KEY });
    expect(res.status).toBe(200);
    const body = (await res.json()) as EvalBody;
    if (body.status !== 'running') return body;
    if (Date.now() > deadline)
      throw new Error(`evaluation ${id} still running: ${JSON.stringify(body.progress)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One invocation of the Worker's cron handler, awaited to the end of its waitUntil work. */
async function tick(scheduledTime: number): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: '*/5 * * * *', scheduledTime }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const FULL_SUITE = { surfaces: ['pc', 's-in', 's-ood'], sampleSize: 1, seed: 'edge' };

describe('evaluations', () => {
  let full: EvalBody;

  it('runs pc, s-in and s-ood × 7 datasets × easy/hard with the simulator to its tables and taxonomy', async () => {
    const res = await send('/v1/evals', 'POST', FULL_SUITE);
    expect(res.status).toBe(202);
    const created = (await res.json()) as Summary;
    expect(res.headers.get('location')).toBe(`/v1/evals/${created.id}`);
    expect(created).toMatchObject({ status: 'running', progress: { done: 0, total: 42 } });
    full = await waitForEval(created.id);
    expect(full.status).toBe('done');
    expect(full.progress).toEqual({ done: 42, total: 42 });
    expect(full.model).toMatchObject({ provider: 'sim', simulated: true });
    expect(full.columns).toHaveLength(14);
    // Table columns in the ToolEvo paper's order (spec §10), the default suite's seven datasets (no GSM8K).
    expect(DEFAULT_EVAL_DATASETS).not.toContain('gsm8k');
    expect(full.columns.map((c) => c.dataset)).toEqual(
      TABLE_DATASET_ORDER.filter((d) => d !== 'gsm8k').flatMap((d) => [d, d]),
    );
    expect(full.table.map((r) => `${r.method}/${r.surface}`)).toEqual([
      'greedy/pc',
      'greedy/s-in',
      'greedy/s-ood',
    ]);
    for (const row of full.table) {
      expect(row.cells.every((c) => c.total === 1 && c.done === 1)).toBe(true);
      const correct = row.cells.reduce((n, c) => n + c.correct, 0);
      expect(row.average).toBeCloseTo(correct / 14, 10);
      const tax = full.taxonomy.rows.find((t) => t.method === row.method && t.surface === row.surface);
      // Every failed run has exactly one category.
      expect((tax?.failures ?? 0) + (tax?.runErrors ?? 0)).toBe(14 - correct);
      expect(Object.values(tax?.counts ?? {}).reduce((a, b) => a + b, 0)).toBe(tax?.failures);
    }
    expect(full.taxonomy.categories.map((c) => c.id)).toEqual(ERROR_CATEGORIES.map((c) => c.id));
    // The static simulator reads P_c's docs: perfect where the server speaks P_c, worse on the drifted OOD surface.
    const [pc, , ood] = full.table;
    expect(pc?.average).toBeGreaterThan(ood?.average ?? 1);
    expect(full.usage.modelCalls).toBeGreaterThan(42);

    // The same tasks for every surface, and results readable one by one with their trajectory.
    const page = await call(`/v1/evals/${full.id}/results?surface=s-ood&limit=100`, { key: USER_KEY });
    const { items: results, nextCursor } = (await page.json()) as {
      items: {
        id: string;
        taskId: string;
        correct: boolean;
        errorClass: string | null;
        links: { self: string };
      }[];
      nextCursor: string | null;
    };
    expect(results).toHaveLength(14);
    expect(nextCursor).toBeNull();
    const pcPage = (await (
      await call(`/v1/evals/${full.id}/results?surface=pc`, { key: USER_KEY })
    ).json()) as {
      items: { taskId: string }[];
    };
    expect(pcPage.items.map((r) => r.taskId).sort()).toEqual(results.map((r) => r.taskId).sort());
    const failed = results.find((r) => !r.correct);
    expect(failed?.errorClass).toBeTruthy();
    const detail = (await (await call(failed?.links.self ?? '', { key: USER_KEY })).json()) as {
      trajectory: { steps: { text: string; observation: string; outcome: string }[] };
      gold: unknown;
    };
    expect(detail.trajectory.steps.length).toBeGreaterThan(0);
    expect(detail.gold).toBeNull();
    const asAdmin = (await (await call(failed?.links.self ?? '', { key: ADMIN_KEY })).json()) as {
      gold: unknown;
    };
    expect(asAdmin.gold).not.toBeNull();
  }, 90_000);

  it('pages results with a cursor and filters them', async () => {
    const firstPage = await call(`/v1/evals/${full.id}/results?limit=5`, { key: USER_KEY });
    const first = (await firstPage.json()) as { items: { id: string }[]; nextCursor: string };
    expect(first.items).toHaveLength(5);
    expect(firstPage.headers.get('link')).toBe(
      `</v1/evals/${full.id}/results?limit=5&cursor=${encodeURIComponent(first.nextCursor)}>; rel="next"`,
    );
    const second = (await (
      await call(`/v1/evals/${full.id}/results?limit=5&cursor=${first.nextCursor}`, { key: USER_KEY })
    ).json()) as { items: { id: string }[] };
    expect((second.items[0]?.id ?? '') > (first.items.at(-1)?.id ?? '')).toBe(true);
    const wrong = (await (
      await call(`/v1/evals/${full.id}/results?correct=false&limit=200`, { key: USER_KEY })
    ).json()) as {
      items: { correct: boolean }[];
    };
    const failures = full.table.reduce((n, r) => n + r.cells.reduce((m, c) => m + c.done - c.correct, 0), 0);
    expect(wrong.items).toHaveLength(failures);
    expect(wrong.items.every((r) => !r.correct)).toBe(true);
  });

  it('lists evaluations newest first', async () => {
    const res = await call('/v1/evals?limit=50', { key: USER_KEY });
    const body = (await res.json()) as { items: Summary[] };
    expect(body.items.some((e) => e.id === full.id && e.status === 'done' && e.progress.done === 42)).toBe(
      true,
    );
    // Page by page with the cursor: the same evaluations, in the same order.
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (
        await call(`/v1/evals?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          key: USER_KEY,
        })
      ).json()) as { items: Summary[]; nextCursor: string | null };
      paged.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor !== null && paged.length < 60);
    expect(paged).toEqual(body.items.map((e) => e.id));
  });

  it('does not run a group twice when its message is redelivered', async () => {
    const res = await send('/v1/evals', 'POST', {
      surfaces: ['pc'],
      datasets: ['coffee'],
      difficulties: ['easy'],
      sampleSize: 2,
      seed: 'redeliver',
    });
    const { id } = (await res.json()) as Summary;
    const done = await waitForEval(id);
    expect(done.progress).toEqual({ done: 2, total: 2 });
    const [job] = await database(env.DB)
      .select()
      .from(jobs)
      .where(eq(jobs.id, `${id}:0`));
    expect(job?.status).toBe('succeeded');
    // Run the job's handler again as a redelivery would (after the consumer lost its ack).
    await database(env.DB)
      .update(jobs)
      .set({ status: 'queued' })
      .where(eq(jobs.id, `${id}:0`));
    await env.JOBS.send({ jobId: `${id}:0`, kind: 'eval-group' });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const [j] = await database(env.DB)
        .select()
        .from(jobs)
        .where(eq(jobs.id, `${id}:0`));
      if (j?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const rows = await database(env.DB).select().from(evalResults).where(eq(evalResults.evalId, id));
    expect(rows).toHaveLength(2);
  });

  it('cancels a running evaluation', async () => {
    const res = await send('/v1/evals', 'POST', {
      surfaces: ['pc', 's-ood'],
      methods: ['greedy', 'mcts'],
      sampleSize: 3,
      seed: 'cancel',
    });
    const { id } = (await res.json()) as Summary;
    const del = await call(`/v1/evals/${id}`, { method: 'DELETE', key: USER_KEY });
    expect(del.status).toBe(200);
    expect(((await del.json()) as Summary).status).toBe('cancelled');
    const again = await call(`/v1/evals/${id}`, { key: USER_KEY });
    expect(((await again.json()) as Summary).status).toBe('cancelled');
  });

  it('rejects bad suites with problem+json naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ surfaces: ['pc', 'nope'] }, '/surfaces/1'],
      [{ sampleSize: 0 }, '/sampleSize'],
      [{ methods: ['beam'] }, '/methods/0'],
      [{ surfaces: ['pc', 'pc'] }, '/surfaces'],
      [{ datasets: ['imdb'] }, '/datasets/0'],
      [{ unknownField: 1 }, ''],
      [
        {
          methods: ['greedy', 'greedy-memory', 'mcts'],
          surfaces: Array.from({ length: 20 }, (_, i) => `x${i}`),
          sampleSize: 100,
        },
        '/sampleSize',
      ],
      [{ model: { provider: 'openai' } }, '/model/provider'],
    ];
    for (const [body, pointer] of cases) {
      const res = await send('/v1/evals', 'POST', body);
      const problem = await expectProblem(res, 400, 'validation-error');
      const errors = problem.errors as { pointer: string }[];
      if (pointer)
        expect(
          errors.map((e) => e.pointer),
          JSON.stringify(body),
        ).toContain(pointer);
    }
    await expectProblem(await send('/v1/evals', 'POST', {}, null), 401, 'unauthorized');
    const notJson = await call('/v1/evals', {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    await expectProblem(notJson, 400, 'validation-error').catch(async () => expect(notJson.status).toBe(400));
  });

  it('answers unknown ids and bad queries with 404 / 400 problems', async () => {
    await expectProblem(await call('/v1/evals/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/evals/nope/results', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call(`/v1/evals/${full.id}/results/nope`, { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/evals/${full.id}/results?cursor=%%%`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call(`/v1/evals/${full.id}/results?limit=0`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call(`/v1/evals/${full.id}/results?dataset=imdb`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/evals?cursor=xyz', { key: USER_KEY }), 400, 'validation-error');
    // `before` was the cursor's old name: now an unknown query parameter, named as such.
    const old = await expectProblem(
      await call('/v1/evals?before=1_x', { key: USER_KEY }),
      400,
      'validation-error',
    );
    expect(old.field).toBe('before');
    // A schedule that never existed is a 404, not an empty page.
    await expectProblem(await call('/v1/evals?scheduleId=nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/evals/nope', { method: 'DELETE', key: USER_KEY }), 404, 'not-found');
  });
});

describe('OpenAPI', () => {
  it('documents the evaluation and schedule routes behind bearer auth', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const routes: [string, string][] = [
      ['/v1/evals', 'post'],
      ['/v1/evals', 'get'],
      ['/v1/evals/{id}', 'get'],
      ['/v1/evals/{id}', 'delete'],
      ['/v1/evals/{id}/results', 'get'],
      ['/v1/evals/{id}/results/{resultId}', 'get'],
      ['/v1/schedules', 'post'],
      ['/v1/schedules', 'get'],
      ['/v1/schedules/{id}', 'get'],
      ['/v1/schedules/{id}', 'patch'],
      ['/v1/schedules/{id}', 'delete'],
    ];
    for (const [path, method] of routes) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
  });
});

describe('schedules', () => {
  const suite = { surfaces: ['pc', 's-ood'], datasets: ['coffee', 'yelp'], sampleSize: 1, seed: 'sched' };

  it('launches a schedule once per due time from the cron handler, and compares runs', async () => {
    const created = await send('/v1/schedules', 'POST', {
      name: 'nightly',
      cron: '0 3 * * *',
      suite,
      threshold: 0.2,
    });
    expect(created.status).toBe(201);
    const schedule = (await created.json()) as { id: string; nextDueAt: string; enabled: boolean };
    expect(schedule.enabled).toBe(true);
    expect(new Date(schedule.nextDueAt).getUTCHours()).toBe(3);
    // The schedule exists from now on; its due times are the next days' 03:00.
    const day = 24 * 3600_000;
    const firstDue = Math.ceil((Date.now() + 1) / day) * day + 3 * 3600_000;
    // Two invocations for the same tick (a retry, an overlapping run) and a direct relaunch: one run.
    await tick(firstDue);
    await tick(firstDue);
    const relaunch = await launchDueSchedules(env, firstDue + 60_000, createLogger('error'));
    expect(relaunch.find((l) => l.scheduleId === schedule.id)).toMatchObject({
      dueTime: firstDue,
      created: false,
    });
    // A tick whose window holds no due time launches nothing.
    await tick(firstDue + 3600_000);
    let runs = await database(env.DB).select().from(evals).where(eq(evals.scheduleId, schedule.id));
    expect(runs).toHaveLength(1);
    const first = await waitForEval(runs[0]?.id ?? '');
    expect(first.comparison).toBeNull();
    expect(first.dueTime).toBe(new Date(firstDue).toISOString());

    // The first run looked better than it was: the next run drops by more than the threshold and is flagged.
    await database(env.DB)
      .update(evalResults)
      .set({ correct: true })
      .where(and(eq(evalResults.evalId, first.id), eq(evalResults.surface, 's-ood')));
    await tick(firstDue + day);
    runs = await database(env.DB).select().from(evals).where(eq(evals.scheduleId, schedule.id));
    expect(runs).toHaveLength(2);
    const second = await waitForEval(runs.find((r) => r.id !== first.id)?.id ?? '');
    expect(second.comparison?.previousEvalId).toBe(first.id);
    expect(second.comparison?.threshold).toBe(0.2);
    expect(second.flagged).toBe(second.comparison?.flagged);
    const oodAverage = second.table.find((r) => r.surface === 's-ood')?.average ?? 1;
    expect(second.comparison?.flagged).toBe(1 - oodAverage > 0.2);
    expect(second.comparison?.drops.every((d) => d.surface === 's-ood' && d.delta < -0.2)).toBe(true);
    expect(second.comparison?.drops.length ?? 0).toBeGreaterThan(0);

    // The schedule shows its runs newest first (the trend).
    const detail = (await (await call(`/v1/schedules/${schedule.id}`, { key: USER_KEY })).json()) as {
      runs: Summary[];
      lastRun: Summary;
    };
    expect(detail.runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(detail.lastRun.id).toBe(second.id);
  }, 90_000);

  it('does not launch disabled schedules; PATCH and DELETE', async () => {
    const created = await send('/v1/schedules', 'POST', {
      name: 'off',
      cron: '*/10 * * * *',
      suite,
      enabled: false,
    });
    const { id } = (await created.json()) as { id: string };
    const launches = await launchDueSchedules(env, Date.now() + 3600_000, createLogger('error'), 3600_000);
    expect(launches.some((l) => l.scheduleId === id)).toBe(false);
    const patched = await send(`/v1/schedules/${id}`, 'PATCH', { enabled: true, threshold: 0.5 });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ enabled: true, threshold: 0.5, cron: '*/10 * * * *' });
    const list = (await (await call('/v1/schedules', { key: USER_KEY })).json()) as {
      items: { id: string }[];
    };
    expect(list.items.some((s) => s.id === id)).toBe(true);
    expect((await call(`/v1/schedules/${id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(204);
    await expectProblem(await call(`/v1/schedules/${id}`, { key: USER_KEY }), 404, 'not-found');
  });

  it('rejects bad schedules with problem+json', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'x', cron: '61 * * * *', suite }, '/cron'],
      [{ name: 'x', cron: '* * *', suite }, '/cron'],
      [{ name: 'x', cron: '0 0 * * * *', suite }, '/cron'],
      [{ name: '', cron: '0 3 * * *', suite }, '/name'],
      [{ name: 'x', cron: '0 3 * * *', suite: { ...suite, surfaces: ['nope'] } }, '/suite/surfaces/0'],
      [{ name: 'x', cron: '0 3 * * *', suite: { ...suite, sampleSize: -1 } }, '/suite/sampleSize'],
      [{ name: 'x', cron: '0 3 * * *', suite, threshold: 2 }, '/threshold'],
      [{ cron: '0 3 * * *', suite }, '/name'],
      [
        { name: 'x', cron: '0 3 * * *', suite: { ...suite, model: { provider: 'openai' } } },
        '/suite/model/provider',
      ],
    ];
    for (const [body, pointer] of cases) {
      const problem = await expectProblem(await send('/v1/schedules', 'POST', body), 400, 'validation-error');
      expect(
        (problem.errors as { pointer: string }[]).map((e) => e.pointer),
        JSON.stringify(body),
      ).toContain(pointer);
    }
    await expectProblem(await send('/v1/schedules/nope', 'PATCH', { enabled: false }), 404, 'not-found');
    await expectProblem(
      await send('/v1/schedules', 'POST', { name: 'x', cron: '0 3 * * *', suite }, null),
      401,
      'unauthorized',
    );
  });
});
