/**
 * The D1 `jobs` table: one row per background job, the source of truth for status, attempts and result — and for
 * the two things the queue itself cannot do: a fair share of it per key (`waiting` jobs, released one by one as the
 * key's jobs in flight end) and recovery (a running job's `updated_at` is its heartbeat; the cron sweeper re-sends
 * jobs whose heartbeat or queue message vanished).
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

export type JobRow = typeof jobs.$inferSelect;

/** Jobs in flight: their messages are on the queue or being run. */
const IN_FLIGHT = ['queued', 'running'] as const;

/**
 * Inserts a job as `queued` (its message is to be sent now) or `waiting` (its key's share of the queue is taken);
 * false when a job with that id exists already.
 */
export async function insertJob(
  env: Bindings,
  id: string,
  kind: string,
  payload: unknown,
  opts: { ownerId?: string | null; status?: 'queued' | 'waiting' } = {},
): Promise<boolean> {
  const now = Date.now();
  const inserted = await database(env.DB)
    .insert(jobs)
    .values({
      id,
      kind,
      status: opts.status ?? 'queued',
      payload,
      attempts: 0,
      ownerId: opts.ownerId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return inserted.length > 0;
}

/** Jobs of a key in flight (queued or running). */
export async function jobsInFlight(env: Bindings, ownerId: string): Promise<number> {
  const [row] = await database(env.DB)
    .select({ n: sql<number>`count(*)` })
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), inArray(jobs.status, [...IN_FLIGHT])));
  return row?.n ?? 0;
}

/**
 * Moves up to `n` of the key's oldest waiting jobs to `queued` and returns them (their messages are to be sent).
 * One statement: two releases at once never take the same job.
 */
export async function releaseWaiting(
  env: Bindings,
  ownerId: string,
  n: number,
): Promise<{ id: string; kind: string }[]> {
  if (n <= 0) return [];
  const d = database(env.DB);
  const oldest = d
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.ownerId, ownerId), eq(jobs.status, 'waiting')))
    .orderBy(asc(jobs.createdAt), asc(jobs.id))
    .limit(n);
  return d
    .update(jobs)
    .set({ status: 'queued', updatedAt: Date.now() })
    .where(and(inArray(jobs.id, oldest), eq(jobs.status, 'waiting')))
    .returning({ id: jobs.id, kind: jobs.kind });
}

/** Keys that have waiting jobs. */
export async function ownersWithWaitingJobs(env: Bindings): Promise<string[]> {
  const rows = await database(env.DB)
    .selectDistinct({ ownerId: jobs.ownerId })
    .from(jobs)
    .where(and(eq(jobs.status, 'waiting'), isNotNull(jobs.ownerId)));
  return rows.map((r) => r.ownerId as string);
}

/** In-flight jobs whose row has not changed since `before` (no heartbeat, no delivery): at most `limit`, oldest first. */
export async function staleJobs(env: Bindings, before: number, limit: number): Promise<JobRow[]> {
  return database(env.DB)
    .select()
    .from(jobs)
    .where(and(inArray(jobs.status, [...IN_FLIGHT]), lt(jobs.updatedAt, before)))
    .orderBy(asc(jobs.updatedAt))
    .limit(limit);
}

/**
 * Claims a stale job for a re-send: true for exactly one caller, the one whose update found the row as it was read
 * (`updatedAt`). The claim puts the job back to `queued` (a running job's runner is gone) and refreshes the row, so
 * the re-sent message claims it normally and the job is not stale again before another full period.
 */
export async function claimStaleJob(env: Bindings, id: string, updatedAt: number): Promise<boolean> {
  const claimed = await database(env.DB)
    .update(jobs)
    .set({ status: 'queued', updatedAt: Date.now() })
    .where(and(eq(jobs.id, id), eq(jobs.updatedAt, updatedAt), inArray(jobs.status, [...IN_FLIGHT])))
    .returning({ id: jobs.id });
  return claimed.length > 0;
}

/** Ids of the jobs whose id starts with `prefix` (a range scan on the primary key). */
export async function jobIdsWithPrefix(env: Bindings, prefix: string): Promise<string[]> {
  const rows = await database(env.DB)
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(gte(jobs.id, prefix), lt(jobs.id, `${prefix}\uffff`)));
  return rows.map((r) => r.id);
}

export async function getJob(env: Bindings, id: string): Promise<JobRow | null> {
  const rows = await database(env.DB).select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return rows[0] ?? null;
}

/**
 * Claims a delivered job for running (attempt `attempts`): true when it was queued, or running with a heartbeat
 * older than `staleBefore` (its runner is gone); false when another delivery runs it or it has ended — so a job
 * re-sent by the sweeper while its first message is still queued runs once.
 */
export async function claimJobRun(
  env: Bindings,
  id: string,
  attempts: number,
  staleBefore: number,
): Promise<boolean> {
  const claimed = await database(env.DB)
    .update(jobs)
    .set({ status: 'running', attempts, updatedAt: Date.now() })
    .where(
      and(
        eq(jobs.id, id),
        or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.updatedAt, staleBefore))),
      ),
    )
    .returning({ id: jobs.id });
  return claimed.length > 0;
}

/** A running job's heartbeat: it is alive, so the sweeper leaves it alone. */
export async function touchJob(env: Bindings, id: string): Promise<void> {
  await database(env.DB)
    .update(jobs)
    .set({ updatedAt: Date.now() })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')));
}

export async function markJobSucceeded(env: Bindings, id: string, result: unknown): Promise<void> {
  const now = Date.now();
  await database(env.DB)
    .update(jobs)
    .set({ status: 'succeeded', result: result ?? null, error: null, updatedAt: now, finishedAt: now })
    .where(eq(jobs.id, id));
}

/** A failed attempt: the job goes back to `queued` for a retry, or to `failed` when it was the last one. */
export async function markJobAttemptFailed(
  env: Bindings,
  id: string,
  error: string,
  final: boolean,
  attempts?: number,
): Promise<void> {
  const now = Date.now();
  await database(env.DB)
    .update(jobs)
    .set({
      status: final ? 'failed' : 'queued',
      error,
      ...(attempts !== undefined ? { attempts } : {}),
      updatedAt: now,
      finishedAt: final ? now : null,
    })
    .where(eq(jobs.id, id));
}

/** The newest job of a kind (the cron's canary, for /health), without its payload and result. */
export async function latestJobOfKind(env: Bindings, kind: string) {
  const rows = await database(env.DB)
    .select({ id: jobs.id, status: jobs.status, createdAt: jobs.createdAt, finishedAt: jobs.finishedAt })
    .from(jobs)
    .where(eq(jobs.kind, kind))
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  return rows[0] ?? null;
}
