import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  evictDurableObject,
  getQueueResult,
  runInDurableObject,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { database } from '../../db/client.ts';
import { cronTicks, jobs, meta } from '../../db/schema.ts';
import type { RateLimiter } from '../../durable-objects/rate-limiter.ts';
import { consumeJobBatch } from '../../edge/jobs/consumer.ts';
import { enqueueJob } from '../../edge/jobs/enqueue.ts';
import { registerJobKind } from '../../edge/jobs/kinds.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { LEASE_WAIT_MS, leaseSize, takeLeased } from '../../functions/http/rate-limit.ts';
import worker from '../../functions/index.ts';
import { EXPECTED_MIGRATIONS } from '../../functions/routes/health.ts';
import { ADMIN_KEY, call, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

describe('D1 through drizzle', () => {
  it('writes and reads a row', async () => {
    const db = database(env.DB);
    await db.insert(meta).values({ key: 'probe', value: { seed: 'abc', scale: 2 } });
    const rows = await db.select().from(meta).where(eq(meta.key, 'probe'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toEqual({ seed: 'abc', scale: 2 });
    expect(rows[0]?.updatedAt).toBeGreaterThan(1_700_000_000_000);
  });
});

describe('RateLimiter Durable Object', () => {
  const stubFor = (name: string) => env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));

  it('keeps its bucket across requests', async () => {
    const stub = stubFor('across-requests');
    const first = await stub.take(5, 1);
    const second = await stub.take(5, 1);
    expect(first).toMatchObject({ allowed: true, remaining: 4 });
    expect(second).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('keeps its bucket after eviction (state is in SQLite storage, not memory)', async () => {
    const stub = stubFor('after-eviction');
    for (let i = 0; i < 3; i++) await stub.take(3, 0.001);
    expect(await stub.take(3, 0.001)).toMatchObject({ allowed: false });
    await evictDurableObject(stub);
    const after = await stub.take(3, 0.001);
    expect(after.allowed).toBe(false);
    expect(after.retryAfterSeconds).toBeGreaterThan(60);
    const state = await runInDurableObject(stub, (instance: RateLimiter) => instance.peek());
    expect(state?.tokens).toBeLessThan(1);
  });

  it('leases several tokens at once and takes back what a lease did not use', async () => {
    const stub = stubFor('leases');
    expect(await stub.lease(10, 0.001, 4)).toMatchObject({ granted: 4, remaining: 6 });
    // Three tokens of that lease went unused: handed back with the next lease.
    expect(await stub.lease(10, 0.001, 4, 3)).toMatchObject({ granted: 4, remaining: 5 });
  });

  it('admits no more requests through leases than the bucket holds, however many arrive at once', async () => {
    // A burst of 40 leases 5 tokens at a time; 60 concurrent requests of one key, no refill to speak of.
    const bucket = { RATE_LIMITER: env.RATE_LIMITER };
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => takeLeased(bucket, 'leased-burst', 40, 0.001)),
    );
    expect(leaseSize(40)).toBe(5);
    expect(answers.filter((a) => a.allowed)).toHaveLength(40);
    const refused = answers.find((a) => !a.allowed);
    expect(refused).toMatchObject({ allowed: false });
    expect((refused as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(60);
  });

  it("shares a lease request without awaiting it: a request is answered even when another's lease never returns", async () => {
    // The first request's lease hangs (its client went away, its I/O belongs to it alone); the second waits for it
    // on its own timers, then leases by itself. Awaiting the first's promise would hang here — and in workerd
    // fails as I/O on behalf of another request.
    let calls = 0;
    const bucket = {
      RATE_LIMITER: {
        idFromName: (n: string) => n,
        get: () => ({
          lease: (_burst: number, _perMinute: number, want: number) => {
            calls++;
            return calls === 1
              ? new Promise(() => {})
              : Promise.resolve({ granted: want, remaining: 100, retryAfterSeconds: 0 });
          },
        }),
      },
    } as unknown as Parameters<typeof takeLeased>[0];
    void takeLeased(bucket, 'hung-lease', 40, 60);
    const started = Date.now();
    const second = await takeLeased(bucket, 'hung-lease', 40, 60);
    expect(second).toMatchObject({ allowed: true });
    expect(calls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(LEASE_WAIT_MS - 5);
  });
});

async function waitForJob(id: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(env, id);
    if (job && (job.status === 'succeeded' || job.status === 'failed')) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('JOBS queue', () => {
  it('produces a message and the consumer runs the job', async () => {
    const res = await call('/v1/admin/canary', { method: 'POST', key: ADMIN_KEY });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const job = await waitForJob(id);
    expect(job.status).toBe('succeeded');
    expect(job.attempts).toBe(1);
    expect((job.result as { roundTripMs: number }).roundTripMs).toBeGreaterThanOrEqual(0);
    const viaApi = await call(`/v1/jobs/${id}`, { key: USER_KEY });
    expect(await viaApi.json()).toMatchObject({ id, kind: 'canary', status: 'succeeded', attempts: 1 });
  });

  it('does not run a finished job again when its message is redelivered', async () => {
    const runs = vi.fn(async () => 'ran');
    registerJobKind('test-counting', runs);
    const { id } = await enqueueJob(env, 'test-counting', {});
    await waitForJob(id);
    expect(runs).toHaveBeenCalledTimes(1);
    const batch = createMessageBatch('tooldrift-jobs', [
      { id: 'redelivery', timestamp: new Date(), attempts: 2, body: { jobId: id, kind: 'test-counting' } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['redelivery']);
    expect(runs).toHaveBeenCalledTimes(1);
  });

  it('retries a failing job and marks it failed after the last attempt', async () => {
    registerJobKind('test-failing', async () => {
      throw new Error('boom');
    });
    const db = database(env.DB);
    const now = Date.now();
    await db.insert(jobs).values({
      id: 'failing-1',
      kind: 'test-failing',
      status: 'queued',
      payload: {},
      attempts: 0,
      createdAt: now,
      updatedAt: now,
    });
    const deliver = async (attempts: number) => {
      const batch = createMessageBatch('tooldrift-jobs', [
        {
          id: `m${attempts}`,
          timestamp: new Date(),
          attempts,
          body: { jobId: 'failing-1', kind: 'test-failing' },
        },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      return getQueueResult(batch, ctx);
    };
    const first = await deliver(1);
    expect(first.retryMessages.map((m) => m.msgId)).toEqual(['m1']);
    expect(first.explicitAcks).toEqual([]);
    expect((await getJob(env, 'failing-1'))?.status).toBe('queued');
    await deliver(2);
    await deliver(3);
    const last = await deliver(4);
    expect(last.explicitAcks).toEqual(['m4']);
    const job = await getJob(env, 'failing-1');
    expect(job).toMatchObject({ status: 'failed', attempts: 4, error: 'boom' });
  });

  it('hands the rest of a batch back to the queue once JOB_BATCH_MS is spent, without running or failing it', async () => {
    const runs: string[] = [];
    let clock = 0;
    registerJobKind('test-slow', async (payload) => {
      runs.push((payload as { n: string }).n);
      clock += 400_000; // each job takes 400 s of (fake) wall time
      return 'ran';
    });
    const db = database(env.DB);
    const created = Date.now();
    for (const n of ['a', 'b', 'c', 'd'])
      await db.insert(jobs).values({
        id: `slow-${n}`,
        kind: 'test-slow',
        status: 'queued',
        payload: { n },
        attempts: 0,
        createdAt: created,
        updatedAt: created,
      });
    const batch = createMessageBatch(
      'tooldrift-jobs',
      ['a', 'b', 'c', 'd'].map((n) => ({
        id: `msg-${n}`,
        timestamp: new Date(),
        attempts: 1,
        body: { jobId: `slow-${n}`, kind: 'test-slow' },
      })),
    );
    const sent: unknown[] = [];
    const jobsQueue = {
      send: async (body: unknown) => void sent.push(body),
      sendBatch: async (messages: Iterable<{ body: unknown }>) => {
        for (const m of messages) sent.push(m.body);
      },
    } as unknown as Queue;
    const ctx = createExecutionContext();
    const log = { info() {}, warn() {}, error() {}, debug() {}, child: () => log } as never;
    // The default budget (600 s): a and b start (0 s, 400 s); c would start at 800 s.
    await consumeJobBatch(batch, { ...env, JOBS: jobsQueue }, log, () => clock);
    const result = await getQueueResult(batch, ctx);
    expect(runs).toEqual(['a', 'b']);
    expect(sent).toEqual([
      { jobId: 'slow-c', kind: 'test-slow' },
      { jobId: 'slow-d', kind: 'test-slow' },
    ]);
    expect(result.explicitAcks.sort()).toEqual(['msg-a', 'msg-b', 'msg-c', 'msg-d']);
    expect(result.retryMessages).toEqual([]);
    expect(await getJob(env, 'slow-c')).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await getJob(env, 'slow-b')).toMatchObject({ status: 'succeeded' });
  });

  it('drops malformed messages instead of crashing the consumer', async () => {
    const batch = createMessageBatch('tooldrift-jobs', [
      { id: 'junk', timestamp: new Date(), attempts: 1, body: 'not a job' },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['junk']);
  });
});

describe('cron trigger', () => {
  it('handles a due time once, even when invoked twice', async () => {
    const scheduledTime = Date.UTC(2026, 10, 21, 12, 5);
    for (let i = 0; i < 2; i++) {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron: '*/5 * * * *', scheduledTime }), env, ctx);
      await waitOnExecutionContext(ctx);
    }
    const ticks = await database(env.DB)
      .select()
      .from(cronTicks)
      .where(eq(cronTicks.scheduledTime, scheduledTime));
    expect(ticks).toHaveLength(1);
    expect(ticks[0]?.finishedAt).not.toBeNull();
    const canary = await waitForJob(`canary:${scheduledTime}`);
    expect(canary.status).toBe('succeeded');
  });
});

describe('GET /health', () => {
  it('reports every binding as ok with the build version', async () => {
    await seedTestWorld();
    const res = await call('/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      status: string;
      version: string;
      checks: Record<string, { ok: boolean }>;
    };
    expect(body.status).toBe('ok');
    expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(body.checks).sort()).toEqual([
      'd1',
      'durableObjects',
      'migrations',
      'queue',
      'workersAi',
      'world',
    ]);
    for (const [name, check] of Object.entries(body.checks)) expect(check.ok, name).toBe(true);
    expect(body.checks.migrations).toMatchObject({
      pending: [],
      applied: EXPECTED_MIGRATIONS,
    });
    expect(body.checks.world).toMatchObject({ seed: 'edge-test', scale: 0.05 });
  });
});

describe('logs', () => {
  it('carry the request id and never the API key', async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
      lines.push(String(line));
    });
    try {
      const res = await call('/v1/jobs/log-probe', {
        key: USER_KEY,
        headers: { 'x-request-id': 'log-probe-1' },
      });
      expect(res.status).toBe(404);
    } finally {
      spy.mockRestore();
    }
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = records.find((r) => r.msg === 'request');
    expect(access).toMatchObject({
      requestId: 'log-probe-1',
      path: '/v1/jobs/log-probe',
      status: 404,
      level: 'info',
    });
    expect(typeof access?.keyId).toBe('string');
    expect(lines.join('\n')).not.toContain(USER_KEY);
  });
});
