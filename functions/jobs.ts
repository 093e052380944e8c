/**
 * Background jobs: a D1 row per job (the source of truth for status, attempts and result) and a message on
 * the JOBS queue that carries only its id. The consumer is idempotent: a redelivered message for a job that
 * already finished is acknowledged without running it again, so queue retries never duplicate work.
 * Later features register their job kinds (tree searches, evaluation tasks) with `registerJobKind`.
 */
import { eq } from 'drizzle-orm';
import { database } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import type { Bindings } from './env.ts';
import type { Logger } from './http/log.ts';

export interface JobMessage {
  jobId: string;
  kind: string;
}

export interface JobContext {
  env: Bindings;
  jobId: string;
  attempt: number;
  log: Logger;
}

export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<unknown>;

const handlers = new Map<string, JobHandler>();

export function registerJobKind(kind: string, handler: JobHandler): void {
  handlers.set(kind, handler);
}

export function jobKinds(): string[] {
  return [...handlers.keys()].sort();
}

/** Attempts before a failing job is marked failed (matches the consumer's max_retries + 1). */
export const MAX_ATTEMPTS = 4;

/**
 * Records a job and sends its message. With an explicit `id` the call is idempotent: an existing job with
 * that id is left alone and not sent again.
 */
export async function enqueueJob(
  env: Bindings,
  kind: string,
  payload: unknown,
  opts: { id?: string; delaySeconds?: number } = {},
): Promise<{ id: string; created: boolean }> {
  if (!handlers.has(kind)) throw new Error(`unknown job kind ${kind}`);
  const id = opts.id ?? crypto.randomUUID();
  const now = Date.now();
  const inserted = await database(env.DB)
    .insert(jobs)
    .values({ id, kind, status: 'queued', payload, attempts: 0, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  if (inserted.length === 0) return { id, created: false };
  const message: JobMessage = { jobId: id, kind };
  await env.JOBS.send(message, opts.delaySeconds ? { delaySeconds: opts.delaySeconds } : undefined);
  return { id, created: true };
}

export async function getJob(env: Bindings, id: string) {
  const rows = await database(env.DB).select().from(jobs).where(eq(jobs.id, id)).limit(1);
  return rows[0] ?? null;
}

function isJobMessage(body: unknown): body is JobMessage {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as JobMessage).jobId === 'string' &&
    typeof (body as JobMessage).kind === 'string'
  );
}

/** The queue consumer. Each message is acked or retried individually. */
export async function consumeJobBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  log: Logger,
): Promise<void> {
  const db = database(env.DB);
  for (const message of batch.messages) {
    const body = message.body;
    if (!isJobMessage(body)) {
      log.warn('dropping malformed job message', { messageId: message.id });
      message.ack();
      continue;
    }
    const jobLog = log.child({ jobId: body.jobId, kind: body.kind });
    const job = await getJob(env, body.jobId);
    if (!job) {
      jobLog.warn('job row missing; message dropped');
      message.ack();
      continue;
    }
    if (job.status === 'succeeded' || job.status === 'failed') {
      jobLog.info('duplicate delivery of a finished job; acknowledged without running');
      message.ack();
      continue;
    }
    const handler = handlers.get(job.kind);
    const attempt = job.attempts + 1;
    if (!handler) {
      await db
        .update(jobs)
        .set({
          status: 'failed',
          error: `unknown job kind ${job.kind}`,
          attempts: attempt,
          updatedAt: Date.now(),
          finishedAt: Date.now(),
        })
        .where(eq(jobs.id, job.id));
      message.ack();
      continue;
    }
    await db
      .update(jobs)
      .set({ status: 'running', attempts: attempt, updatedAt: Date.now() })
      .where(eq(jobs.id, job.id));
    try {
      const result = await handler(job.payload, { env, jobId: job.id, attempt, log: jobLog });
      const now = Date.now();
      await db
        .update(jobs)
        .set({ status: 'succeeded', result: result ?? null, error: null, updatedAt: now, finishedAt: now })
        .where(eq(jobs.id, job.id));
      message.ack();
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const final = attempt >= MAX_ATTEMPTS;
      const now = Date.now();
      await db
        .update(jobs)
        .set({ status: final ? 'failed' : 'queued', error, updatedAt: now, finishedAt: final ? now : null })
        .where(eq(jobs.id, job.id));
      jobLog.warn('job attempt failed', { attempt, final, error });
      if (final) message.ack();
      else message.retry({ delaySeconds: Math.min(60, 2 ** attempt) });
    }
  }
}

/**
 * The canary: a job that does nothing but prove the queue round trip works. The cron handler enqueues one per
 * tick; /health reports the latest one, so a stuck consumer shows up as a stale canary.
 */
registerJobKind('canary', async (payload) => {
  const enqueuedAt = (payload as { enqueuedAt?: number } | null)?.enqueuedAt ?? Date.now();
  return { roundTripMs: Date.now() - enqueuedAt };
});
