/** The D1 `jobs` table: one row per background job, the source of truth for status, attempts and result. */
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { jobs } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

export type JobRow = typeof jobs.$inferSelect;

/** Inserts a queued job; false when a job with that id exists already. */
export async function insertJob(env: Bindings, id: string, kind: string, payload: unknown): Promise<boolean> {
  const now = Date.now();
  const inserted = await database(env.DB)
    .insert(jobs)
    .values({ id, kind, status: 'queued', payload, attempts: 0, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return inserted.length > 0;
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

export async function markJobRunning(env: Bindings, id: string, attempts: number): Promise<void> {
  await database(env.DB)
    .update(jobs)
    .set({ status: 'running', attempts, updatedAt: Date.now() })
    .where(eq(jobs.id, id));
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
