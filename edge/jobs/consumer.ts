/**
 * The JOBS queue consumer. Each message is acked or retried individually. It is idempotent: a redelivered
 * message for a job that already finished is acknowledged without running it again, so queue retries never
 * duplicate work.
 *
 * A batch's messages run one after another, so one invocation lasts as long as their chunks together. Once
 * JOB_BATCH_MS of wall time is spent, the messages not yet started are sent again as new messages and acked
 * (their jobs stay queued; `message.retry()` would spend the queue's max_retries on work that never failed), so
 * an invocation ends well inside the consumer's wall-clock limit however slow the model behind the chunks is.
 */
import { type Bindings, readConfig } from '../env.ts';
import type { Logger } from '../log.ts';
import { getJob, markJobAttemptFailed, markJobRunning, markJobSucceeded } from '../stores/jobs.ts';
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
    await markJobRunning(env, job.id, attempt);
    try {
      const result = await handler(job.payload, { env, jobId: job.id, attempt, log: jobLog });
      await markJobSucceeded(env, job.id, result);
      message.ack();
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      const final = attempt >= MAX_ATTEMPTS;
      await markJobAttemptFailed(env, job.id, error, final);
      jobLog.warn('job attempt failed', { attempt, final, error });
      if (final) message.ack();
      else message.retry({ delaySeconds: Math.min(60, 2 ** attempt) });
    }
  }
}
