/**
 * Docs that follow drift: a watch on a drift schedule re-documents on cron ticks — once per change however many
 * ticks (or repeated firings of one tick) see it, only the tools whose API changed, and from the previous set.
 */
import { env } from 'cloudflare:workers';
import { like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../db/client.ts';
import { draftRuns } from '../../db/schema.ts';
import { runScheduledTick } from '../../edge/jobs/scheduled.ts';
import { createLogger } from '../../edge/log.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

beforeAll(async () => {
  await seedTestWorld();
}, 120_000);

const CRON = '*/5 * * * *';
const log = createLogger('error');

function postWatch(body: unknown) {
  return call('/v1/draft/watches', {
    method: 'POST',
    key: USER_KEY,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function runsOf(watchId: string) {
  return database(env.DB)
    .select()
    .from(draftRuns)
    .where(like(draftRuns.trigger, `watch:${watchId}:%`))
    .orderBy(draftRuns.createdAt);
}

async function waitForRun(id: string) {
  const deadline = Date.now() + 50_000;
  for (;;) {
    const body = (await (await call(`/v1/draft/runs/${id}`, { key: USER_KEY })).json()) as {
      status: string;
      docsetId: string | null;
    };
    if (!['queued', 'running', 'finalizing'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('docs that follow drift', () => {
  it('launches one re-documentation per schedule stage change, from the previous set', async () => {
    const res = await postWatch({
      schedule: {
        id: 'follow-test',
        stages: [
          { surface: 's-in', effectiveFrom: '2020-01-01' },
          { surface: 's-ood', effectiveFrom: '2040-01-01' },
        ],
      },
      tools: ['LoadDB', 'RetrieveScirex'],
      // The follow mechanics are under test, not the encoder: the weight-free one spares this file USE's load.
      options: { encoder: 'lexical' },
      chunkSteps: 4,
    });
    expect(res.status).toBe(201);
    const watch = (await res.json()) as { id: string };

    const t1 = Date.parse('2030-06-01T00:00:00Z');
    await runScheduledTick(CRON, t1, env, log);
    await runScheduledTick(CRON, t1, env, log); // the same tick fired twice
    await runScheduledTick(CRON, t1 + 300_000, env, log); // a later tick, same stage
    let runs = await runsOf(watch.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ serverSurface: 's-in', parentDocset: null });
    expect((runs[0]!.config as { tools: string[] }).tools).toEqual(['RetrieveScirex', 'LoadDB']);
    const first = await waitForRun(runs[0]!.id);
    expect(first.status).toBe('succeeded');

    // The schedule moves to s-ood: one more run, fired twice, continuing the first set.
    const t2 = Date.parse('2041-01-01T00:00:00Z');
    await runScheduledTick(CRON, t2, env, log);
    await runScheduledTick(CRON, t2, env, log);
    await runScheduledTick(CRON, t2 + 300_000, env, log);
    runs = await runsOf(watch.id);
    expect(runs).toHaveLength(2);
    expect(runs[1]).toMatchObject({ serverSurface: 's-ood', parentDocset: first.docsetId });
    const second = await waitForRun(runs[1]!.id);
    expect(second.status).toBe('succeeded');
    const set = (await (await call(`/v1/docsets/${second.docsetId}`, { key: USER_KEY })).json()) as {
      parent: string;
    };
    expect(set.parent).toBe(first.docsetId);

    const list = (await (await call('/v1/draft/watches', { key: USER_KEY })).json()) as {
      items: { id: string; lastDocset: string | null }[];
    };
    expect(list.items.find((w) => w.id === watch.id)?.lastDocset).toBe(second.docsetId);
    expect((await call(`/v1/draft/watches/${watch.id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(
      204,
    );
  });

  it('rejects bad watches', async () => {
    await expectProblem(await postWatch({}), 400, 'validation-error');
    await expectProblem(
      await postWatch({ surface: 's-in', schedule: { id: 'x', stages: [] } }),
      400,
      'validation-error',
    );
    await expectProblem(await postWatch({ surface: 'nope' }), 400, 'validation-error');
    await expectProblem(await postWatch({ surface: 's-in', tools: ['Finish'] }), 400, 'validation-error');
    await expectProblem(
      await postWatch({ schedule: { id: 'x', stages: [{ surface: 'nope', effectiveFrom: '2020-01-01' }] } }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('/v1/draft/watches/nope', { method: 'DELETE', key: USER_KEY }),
      404,
      'not-found',
    );
  });
});
