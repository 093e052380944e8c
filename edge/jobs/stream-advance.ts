/**
 * Drift streams on the cron tick (issue 26): every stream whose next due time has come gets one `stream-advance`
 * job per due time (job id `stream-advance:<stream>:<due>`, so a tick fired twice, or two ticks before the job
 * ran, enqueue it once), and the job makes the release (`advanceForDueTime`: only while that due time is still
 * the stream's next one, and release n only from n−1), so a redelivered message or a job run twice advances the
 * stream once. The release is derived in the job, not in the tick, so a tick stays short however many streams
 * are due and whatever their APIs weigh.
 */
import type { Bindings } from '../env.ts';
import type { Logger } from '../log.ts';
import { dueStreams } from '../stores/streams.ts';
import { advanceForDueTime } from '../streams.ts';
import { enqueueJob } from './enqueue.ts';
import type { JobKind } from './types.ts';

export const STREAM_ADVANCE = 'stream-advance';

export interface StreamAdvancePayload {
  streamId: string;
  /** The cadence's due time (ms) this release is for. */
  due: number;
}

export const streamAdvanceJob: JobKind = {
  kind: STREAM_ADVANCE,
  run: async (payload, { env, log }) => {
    const { streamId, due } = payload as StreamAdvancePayload;
    const outcome = await advanceForDueTime(env, streamId, due);
    log.info(outcome.created ? 'stream advanced' : 'stream due time already handled', {
      streamId,
      due,
      ...outcome,
    });
    return outcome;
  },
};

export interface StreamDue {
  streamId: string;
  due: number;
  jobId: string;
  created: boolean;
}

/** Enqueues the advance of every stream due by `at` (the tick's scheduled time). */
export async function enqueueDueStreams(env: Bindings, at: number, log: Logger): Promise<StreamDue[]> {
  const out: StreamDue[] = [];
  for (const s of await dueStreams(env, at)) {
    const due = s.nextDueAt as number;
    const job = await enqueueJob(
      env,
      STREAM_ADVANCE,
      { streamId: s.id, due } satisfies StreamAdvancePayload,
      { id: `${STREAM_ADVANCE}:${s.id}:${due}`, ownerId: s.ownerId },
    );
    out.push({ streamId: s.id, due, jobId: job.id, created: job.created });
    if (job.created) log.info('stream advance enqueued', { streamId: s.id, due });
  }
  return out;
}
