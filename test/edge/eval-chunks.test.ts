/**
 * Chunked `eval-group` jobs (issue 13, item 7): a group runs as a chain of chunk jobs of at most
 * EVAL_CHUNK_TASKS task runs, each enqueuing its continuation. Redelivered chunks neither duplicate rows nor
 * skip tasks nor enqueue a continuation twice, and greedy-memory's carried memory is what one job over the
 * whole group would carry (the chunked run's trajectories equal the single-job run's).
 *
 * The queue is replaced by a recording one, and this test delivers the messages itself, redeliveries included.
 */
import { env } from 'cloudflare:workers';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { EvalSuiteSchema } from '../../core/evals/suite.ts';
import { database } from '../../db/client.ts';
import { evalResults } from '../../db/schema.ts';
import type { Bindings } from '../../edge/env.ts';
import { evalGroupJob, launchEval } from '../../edge/jobs/eval-group.ts';
import type { JobMessage } from '../../edge/jobs/types.ts';
import { createLogger } from '../../edge/log.ts';
import { getEval } from '../../edge/stores/evaluations.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { seedTestWorld } from './world-fixture.ts';

beforeAll(async () => {
  await seedTestWorld();
}, 120_000);

/** The bindings with a chunk budget and a queue that only records what is sent. */
function chunkedEnv(tasksPerChunk: number): { env: Bindings; sent: JobMessage[] } {
  const sent: JobMessage[] = [];
  const queue = {
    send: async (message: JobMessage) => {
      sent.push(message);
    },
  } as unknown as Queue;
  return { env: { ...env, EVAL_CHUNK_TASKS: String(tasksPerChunk), JOBS: queue }, sent };
}

async function deliver(e: Bindings, message: JobMessage) {
  const job = await getJob(e, message.jobId);
  if (!job) throw new Error(`no job row ${message.jobId}`);
  return evalGroupJob.run(job.payload, {
    env: e,
    jobId: job.id,
    attempt: 1,
    log: createLogger('error'),
  }) as Promise<{
    ran?: number;
    continuation?: number;
    skipped?: string;
  }>;
}

const suite = (seed: string) =>
  EvalSuiteSchema.parse({
    surfaces: ['s-ood'],
    methods: ['greedy-memory'],
    datasets: ['coffee'],
    difficulties: ['easy'],
    sampleSize: 3,
    seed,
  });

async function runsOf(evalId: string) {
  return database(env.DB)
    .select()
    .from(evalResults)
    .where(eq(evalResults.evalId, evalId))
    .orderBy(asc(evalResults.id));
}

describe('chunked evaluation groups', () => {
  it('runs a group as chunks of the budget, each continuation once, redeliveries adding nothing', async () => {
    const { env: e, sent } = chunkedEnv(1);
    const launch = await launchEval(e, suite('chunks-a'));
    expect(launch.total).toBe(3);
    expect(sent.map((m) => m.jobId)).toEqual([`${launch.id}:0`]);

    // The first chunk: one task run, then its continuation at task 1.
    const first = await deliver(e, sent[0] as JobMessage);
    expect(first).toMatchObject({ ran: 1, continuation: 1 });
    expect(sent.map((m) => m.jobId)).toEqual([`${launch.id}:0`, `${launch.id}:0@0001`]);
    // Redelivered before its continuation ran: it stops where the continuation starts and enqueues nothing.
    expect(await deliver(e, sent[0] as JobMessage)).toMatchObject({ ran: 0 });
    expect(sent).toHaveLength(2);
    expect(await runsOf(launch.id)).toHaveLength(1);

    expect(await deliver(e, sent[1] as JobMessage)).toMatchObject({ ran: 1, continuation: 2 });
    expect(await deliver(e, sent[2] as JobMessage)).toMatchObject({ ran: 1 });
    expect(sent.map((m) => m.jobId)).toEqual([
      `${launch.id}:0`,
      `${launch.id}:0@0001`,
      `${launch.id}:0@0002`,
    ]);
    // Every chunk redelivered after the group finished: no rows, no messages.
    for (const m of [...sent]) expect(await deliver(e, m)).toMatchObject({ skipped: 'done' });
    expect(sent).toHaveLength(3);

    const runs = await runsOf(launch.id);
    expect(runs.map((r) => r.id.slice(-3))).toEqual(['000', '001', '002']);
    expect((await getEval(env, launch.id))?.status).toBe('done');
  });

  it("carries greedy-memory's memory across chunks exactly as one job over the group does", async () => {
    const chunked = chunkedEnv(1);
    const whole = chunkedEnv(100);
    const a = await launchEval(chunked.env, suite('chunks-memory'));
    const b = await launchEval(whole.env, suite('chunks-memory'));
    for (let i = 0; i < chunked.sent.length; i++) await deliver(chunked.env, chunked.sent[i] as JobMessage);
    for (let i = 0; i < whole.sent.length; i++) await deliver(whole.env, whole.sent[i] as JobMessage);
    expect(chunked.sent).toHaveLength(3);
    expect(whole.sent).toHaveLength(1);
    const [ra, rb] = [await runsOf(a.id), await runsOf(b.id)];
    expect(ra).toHaveLength(3);
    const shape = (r: (typeof ra)[number]) => ({
      taskId: r.taskId,
      answer: r.answer,
      correct: r.correct,
      trajectory: r.trajectory,
    });
    expect(ra.map(shape)).toEqual(rb.map(shape));
    // The memory is not empty: an earlier run's tool updates reach the later runs' prompts.
    const updates = ra.flatMap((r) => (r.trajectory as { toolUpdates: string[] }).toolUpdates);
    expect(updates.length).toBeGreaterThan(0);
  });
});
