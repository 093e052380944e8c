/**
 * The JOBS queue consumer. Each message is acked or retried individually. It is idempotent: a redelivered
 * message for a job that already finished is acknowledged without running it again, so queue retries never
 * duplicate work.
 */
import type { Bindings } from '../env.ts';
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
): Promise<void> {
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
