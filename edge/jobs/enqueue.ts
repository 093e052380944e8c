/**
 * Enqueueing a background job: a D1 row per job (edge/stores/jobs.ts) and a message on the JOBS queue that
 * carries only its id. With an explicit `id` the call is idempotent: an existing job with that id is left alone
 * and not sent again. The kind is checked by the consumer against the explicit list (edge/jobs/kinds.ts); a
 * row of an unknown kind is marked failed there.
 *
 * Fair share: a job that works for a key (`ownerId`) is sent at once only while that key has fewer than
 * JOB_SHARE jobs in flight (queued or running); otherwise it is stored `waiting` and sent when one of the key's
 * jobs ends (`releaseJobs`, called by the consumer and the cron sweeper). So one key's hundreds of evaluation
 * groups or trees never stand in the queue ahead of another key's work: the queue holds at most JOB_SHARE
 * messages per key, and every key's next job is at most that many messages away. Jobs without an owner (the
 * canary) are sent at once.
 */
import { type Bindings, readConfig } from '../env.ts';
import { insertJob, jobsInFlight, releaseWaiting } from '../stores/jobs.ts';
import type { JobMessage } from './types.ts';

export async function enqueueJob(
  env: Bindings,
  kind: string,
  payload: unknown,
  opts: { id?: string; delaySeconds?: number; ownerId?: string | null } = {},
): Promise<{ id: string; created: boolean }> {
  const id = opts.id ?? crypto.randomUUID();
  const ownerId = opts.ownerId ?? null;
  const wait = ownerId !== null && (await jobsInFlight(env, ownerId)) >= readConfig(env).jobShare;
  if (!(await insertJob(env, id, kind, payload, { ownerId, status: wait ? 'waiting' : 'queued' })))
    return { id, created: false };
  if (wait) return { id, created: true };
  const message: JobMessage = { jobId: id, kind };
  await env.JOBS.send(message, opts.delaySeconds ? { delaySeconds: opts.delaySeconds } : undefined);
  return { id, created: true };
}

/** Sends as many of the key's waiting jobs as its share has room for (oldest first); returns how many. */
export async function releaseJobs(env: Bindings, ownerId: string): Promise<number> {
  const room = readConfig(env).jobShare - (await jobsInFlight(env, ownerId));
  const released = await releaseWaiting(env, ownerId, room);
  if (released.length > 0)
    await env.JOBS.sendBatch(
      released.map((j) => ({ body: { jobId: j.id, kind: j.kind } satisfies JobMessage })),
    );
  return released.length;
}
