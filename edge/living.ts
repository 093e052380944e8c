/**
 * Living drift at the edge (issue 26 §2, §4): what starts a stream's maintenance and evaluation. A release of a
 * stream with a plan enqueues one `stream-maintain` job per release (`stream-maintain:<stream>:<n>`, so however
 * often the release is asked for — a cron tick fired twice, a redelivered advance — its maintenance is enqueued
 * once); the job itself (edge/jobs/stream-living.ts) records each release's maintenance once and then enqueues
 * the evaluation.
 */
import type { Bindings } from './env.ts';
import { enqueueJob } from './jobs/enqueue.ts';
import { getPlan } from './stores/stream-living.ts';
import type { StreamRow } from './stores/streams.ts';

export const STREAM_MAINTAIN = 'stream-maintain';
export const STREAM_EVALUATE = 'stream-evaluate';

export interface LivingPayload {
  streamId: string;
  /** The release the job brings maintenance (or evaluation) up to. */
  n: number;
}

/** Enqueues maintenance (then evaluation) up to release n of a stream that has a plan; once per release. */
export async function enqueueLiving(
  env: Bindings,
  stream: Pick<StreamRow, 'id' | 'ownerId'>,
  n: number,
): Promise<{ id: string; created: boolean } | null> {
  if (!(await getPlan(env, stream.id))) return null;
  return enqueueJob(env, STREAM_MAINTAIN, { streamId: stream.id, n } satisfies LivingPayload, {
    id: `${STREAM_MAINTAIN}:${stream.id}:${n}`,
    ownerId: stream.ownerId,
  });
}
