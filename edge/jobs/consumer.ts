/**
 * The JOBS queue consumer. Each message is acked or retried individually. It is idempotent: a redelivered
 * message for a job that already finished is acknowledged without running it again, and a job is claimed before
 * it runs (queued → running in one conditional update), so a message the cron sweeper sent again while the first
 * was still queued runs the job once. While a job runs, its row's `updated_at` is touched every heartbeat
 * (HEARTBEAT_MS, at most a quarter of JOB_STALE_MS); a job whose heartbeat stopped (the runtime died) is claimed
 * again by its next delivery. When a key's job ends, that key's next waiting jobs are sent (its fair share of the
 * queue, edge/jobs/enqueue.ts).
 *
 * A batch's messages run one after another, so one invocation lasts as long as their chunks together. Once
 * JOB_BATCH_MS of wall time is spent, the messages not yet started are sent again as new messages and acked
 * (their jobs stay queued; `message.retry()` would spend the queue's max_retries on work that never failed), so
 * an invocation ends well inside the consumer's wall-clock limit however slow the model behind the chunks is.
 */
import { type Bindings, readConfig } from '../env.ts';
import type { Logger } from '../log.ts';
import { claimJobRun, getJob, markJobAttemptFailed, markJobSucceeded, touchJob } from '../stores/jobs.ts';
import { releaseJobs } from './enqueue.ts';
import { jobHandler } from './kinds.ts';
import { type JobMessage, MAX_ATTEMPTS } from './types.ts';

function isJobMessage(body: unknown): body is JobMessage {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as JobMessage).jobId === 'string' &&
    typeof (body as JobMessage).kind === 'string'
  );
}

export async function consumeJobBatch(
  batch: MessageBatch<unknown>,
  env: Bindings,
  log: Logger,
  now: () => number = Date.now,
): Promise<void> {
  const started = now();
  const budget = readConfig(env).jobBatchMs;
  for (const [i, message] of batch.messages.entries()) {
    if (i > 0 && now() - started >= budget) {
      const rest = batch.messages.slice(i);
      await env.JOBS.sendBatch(rest.map((m) => ({ body: m.body })));
      for (const m of rest) m.ack();
      log.info('batch time budget spent; handed the rest back to the queue', {
        handedBack: rest.length,
        elapsedMs: now() - started,
      });
      return;
    }
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
    const handler = jobHandler(job.kind);
    const attempt = job.attempts + 1;
    if (!handler) {
      await markJobAttemptFailed(env, job.id, `unknown job kind ${job.kind}`, true, attempt);
      message.ack();
      continue;
    }
    const config = readConfig(env);
    if (!(await claimJobRun(env, job.id, attempt, now() - config.jobStaleMs))) {
      jobLog.info('job is run by another delivery; acknowledged without running');
      message.ack();
      continue;
    }
    const stopBeating = heartbeat(env, job.id, Math.min(HEARTBEAT_MS, config.jobStaleMs / 4));
    let ended = false;
    try {
      const result = await handler(job.payload, { env, jobId: job.id, attempt, log: jobLog });
      stopBeating();
      await markJobSucceeded(env, job.id, result);
      ended = true;
      message.ack();
    } catch (err) {
      stopBeating();
      const error = err instanceof Error ? err.message : String(err);
      const final = attempt >= MAX_ATTEMPTS;
      await markJobAttemptFailed(env, job.id, error, final);
      jobLog.warn('job attempt failed', { attempt, final, error });
      ended = final;
      if (final) message.ack();
      else message.retry({ delaySeconds: Math.min(60, 2 ** attempt) });
    }
    if (ended && job.ownerId) await releaseJobs(env, job.ownerId);
  }
}

/** Heartbeat period of a running job (its row's `updated_at`; the sweeper leaves a beating job alone). */
export const HEARTBEAT_MS = 30_000;

/** Touches the job's row every `periodMs` until the returned function is called. */
function heartbeat(env: Bindings, jobId: string, periodMs: number): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = () => {
    timer = setTimeout(async () => {
      if (stopped) return;
      await touchJob(env, jobId).catch(() => undefined);
      if (!stopped) beat();
    }, periodMs);
  };
  beat();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
