/**
 * Living drift at the edge (issue 26 §2, §4): a stream with a plan is maintained through the queue once per release
 * — a redelivered maintenance message, or the job run again, records nothing twice and charges nothing twice —
 * then evaluated per release; the series route computes success per configuration from the recorded runs, with
 * retirements and maintenance spend; the plan and series routes answer bad input with a problem naming the field,
 * and another key's stream with a 404.
 */
import { createMessageBatch } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../db/client.ts';
import { jobs, modelSpend, streamMaintenance, streamResults } from '../../db/schema.ts';
import { consumeJobBatch } from '../../edge/jobs/consumer.ts';
import { jobHandler } from '../../edge/jobs/kinds.ts';
import { createLogger } from '../../edge/log.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY, waitUntil } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const OTHER_KEY = 'test-queue-key';
const log = createLogger('error');

const send = (path: string, method: string, body?: unknown, key = USER_KEY) =>
  call(path, {
    method,
    key,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

interface Series {
  stream: string;
  releases: number[];
  configurations: { id: string; label: string; success: (number | null)[]; runs: number[] }[];
  retirements: { release: number; names: string[] }[];
  maintenance: { release: number; modelCalls: number; steps: { step: string; modelCalls: number }[] }[];
}

const PLAN = {
  // Small STE rounds keep the test quick (the defaults are the paper's 15 × 4).
  maintenance: { steEpisodes: 1, steTrials: 1 },
  evaluation: { sampleSize: 1, configurations: ['stale', 'draft', 'combined'], maxSteps: 6 },
};

async function createStream(seed: string): Promise<string> {
  const res = await send('/v1/streams', 'POST', {
    name: `living ${seed}`,
    backend: 'kernel',
    seed,
    intensity: { 'rename-tool': 1 },
    cadence: { everySeconds: 3600 },
    window: { releases: 0 },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const series = async (id: string, query = '', key = USER_KEY) =>
  call(`/v1/streams/${id}/series${query}`, { key });

const maintainedRows = async (id: string) =>
  database(env.DB).select().from(streamMaintenance).where(eq(streamMaintenance.streamId, id));

const ledger = async (id: string, n: number) =>
  (
    await database(env.DB)
      .select()
      .from(modelSpend)
      .where(and(eq(modelSpend.kind, 'stream'), eq(modelSpend.subjectId, `${id}/r${n}`)))
  )[0]?.modelCalls;

beforeAll(async () => {
  await seedTestWorld();
});

describe('maintenance and evaluation per release', () => {
  it('maintains each release exactly once under redelivery, evaluates it, and the series shows it', async () => {
    const id = await createStream('living-1');
    const put = await send(`/v1/streams/${id}/plan`, 'PUT', PLAN);
    expect(put.status).toBe(200);
    expect(((await put.json()) as { enqueued: string | null }).enqueued).toBe(`stream-maintain:${id}:0`);
    const adv = await send(`/v1/streams/${id}/advance`, 'POST');
    expect(adv.status).toBe(201);

    const done = await waitUntil(
      'maintenance and evaluation of releases 0 and 1',
      async () => (await (await series(id)).json()) as Series,
      (s) => s.maintenance.length === 2 && s.configurations.every((c) => c.runs.every((n) => n > 0)),
    );
    expect(done.releases).toEqual([0, 1]);
    expect(done.configurations.map((c) => c.id)).toEqual(['stale', 'draft', 'combined']);
    // The same tasks at every release, for every configuration.
    const runs = done.configurations[0]?.runs[0] as number;
    expect(runs).toBeGreaterThan(0);
    for (const c of done.configurations) expect(c.runs).toEqual([runs, runs]);
    for (const c of done.configurations) for (const x of c.success) expect(x).toBeGreaterThanOrEqual(0);
    expect(done.retirements.map((r) => r.release)).toEqual([1]);
    const r1 = done.maintenance[1];
    expect(r1?.steps.map((s) => s.step)).toEqual(['draft', 'ste', 'pool']);
    expect(r1?.modelCalls).toBeGreaterThan(0);

    // Maintenance was charged to the key, once per release.
    const charged = await ledger(id, 1);
    expect(charged).toBeGreaterThanOrEqual(r1?.modelCalls as number);

    // The maintenance message of release 1 delivered again while the job looks unfinished, twice in one batch.
    const jobId = `stream-maintain:${id}:1`;
    await database(env.DB).update(jobs).set({ status: 'running', updatedAt: 0 }).where(eq(jobs.id, jobId));
    const batch = createMessageBatch(
      'tooldrift-jobs',
      [0, 1].map((i) => ({
        id: `again-${i}`,
        timestamp: new Date(),
        attempts: 2,
        body: { jobId, kind: 'stream-maintain' },
      })),
    );
    await consumeJobBatch(batch, env, log);
    // And the job's work itself run again for the same release: nothing is maintained twice.
    const handler = jobHandler('stream-maintain');
    const again = await handler?.({ streamId: id, n: 1 }, { env, jobId, attempt: 3, log });
    expect(again).toEqual({ maintained: [] });
    const rows = await maintainedRows(id);
    expect(rows.map((r) => r.n).sort()).toEqual([0, 1]);
    await waitUntil(
      'the evaluation job re-run',
      async () => ledger(id, 1),
      (x) => x === charged,
    );
    expect(await ledger(id, 1)).toBe(charged);
    const results = await database(env.DB).select().from(streamResults).where(eq(streamResults.streamId, id));
    expect(results).toHaveLength(2 * 3);
    expect(((await (await series(id)).json()) as Series).maintenance).toEqual(done.maintenance);

    // The admin sees the series too; the range narrows it.
    const one = (await (await series(id, '?from=1&to=1', ADMIN_KEY)).json()) as Series;
    expect(one.releases).toEqual([1]);
    expect(one.configurations[0]?.success).toEqual([done.configurations[0]?.success[1]]);

    // Deleting the stream removes its maintenance rows, results and state blobs.
    expect((await env.BLOBS.list({ prefix: `streams/${id}/` })).objects.length).toBe(2);
    expect((await call(`/v1/streams/${id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(204);
    expect((await env.BLOBS.list({ prefix: `streams/${id}/` })).objects).toEqual([]);
    expect(await maintainedRows(id)).toEqual([]);
    expect(await database(env.DB).select().from(streamResults).where(eq(streamResults.streamId, id))).toEqual(
      [],
    );
  }, 120_000);
});

describe('bad input and ownership', () => {
  it('the series route: a range problem names the field; another key’s stream is a 404', async () => {
    const id = await createStream('living-2');
    const empty = (await (await series(id)).json()) as Series;
    expect(empty.releases).toEqual([0]);
    expect(empty.maintenance).toEqual([]);

    const backwards = await expectProblem(await series(id, '?from=3&to=1'), 400, 'validation-error');
    expect(JSON.stringify(backwards.errors)).toContain('to');
    const negative = await expectProblem(await series(id, '?from=-1'), 400, 'validation-error');
    expect(JSON.stringify(negative.errors)).toContain('from');
    const word = await expectProblem(await series(id, '?to=soon'), 400, 'validation-error');
    expect(JSON.stringify(word.errors)).toContain('to');

    await expectProblem(await series(id, '', OTHER_KEY), 404, 'not-found');
    await expectProblem(await series('nosuchstream'), 404, 'not-found');
    expect((await call(`/v1/streams/${id}/series`)).status).toBe(401);
  });

  it('the plan route: unknown configurations and fields are named; another key cannot set or read it', async () => {
    const id = await createStream('living-3');
    const unknown = await expectProblem(
      await send(`/v1/streams/${id}/plan`, 'PUT', { evaluation: { configurations: ['stale', 'oracle'] } }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(unknown.errors)).toContain('/evaluation/configurations/1');
    const extra = await expectProblem(
      await send(`/v1/streams/${id}/plan`, 'PUT', { maintenance: { steEpisodes: 0, wizard: true } }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(extra.errors)).toContain('/maintenance');
    await expectProblem(await send(`/v1/streams/${id}/plan`, 'PUT', PLAN, OTHER_KEY), 404, 'not-found');
    await expectProblem(await call(`/v1/streams/${id}/plan`, { key: USER_KEY }), 404, 'not-found');
    expect(await maintainedRows(id)).toEqual([]);
  });
});
