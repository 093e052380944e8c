/**
 * Enqueueing a background job: a D1 row per job (edge/stores/jobs.ts) and a message on the JOBS queue that
 * carries only its id. With an explicit `id` the call is idempotent: an existing job with that id is left alone
 * and not sent again. The kind is checked by the consumer against the explicit list (edge/jobs/kinds.ts); a
 * row of an unknown kind is marked failed there.
 */
import type { Bindings } from '../env.ts';
import { insertJob } from '../stores/jobs.ts';
import type { JobMessage } from './types.ts';

export async function enqueueJob(
  env: Bindings,
  kind: string,
  payload: unknown,
  opts: { id?: string; delaySeconds?: number } = {},
): Promise<{ id: string; created: boolean }> {
  const id = opts.id ?? crypto.randomUUID();
  if (!(await insertJob(env, id, kind, payload))) return { id, created: false };
  const message: JobMessage = { jobId: id, kind };
  await env.JOBS.send(message, opts.delaySeconds ? { delaySeconds: opts.delaySeconds } : undefined);
  return { id, created: true };
}
