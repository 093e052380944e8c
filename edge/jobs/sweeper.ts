/**
 * The cron tick's sweeper (issue 24, recovery): work whose job or alarm vanished — the runtime was restarted or
 * killed mid-run, a queue message was lost — is started again from its last checkpoint, once.
 *
 * - Queue jobs (evaluation groups and their continuations, exploration trees' starts, STE tools' starts, DRAFT
 *   tools' starts and finalisations, training chunks): a job in flight whose row has not changed for JOB_STALE_MS
 *   (no heartbeat from a runner, no delivery) is claimed — back to `queued`, its row touched, by one conditional
 *   update, so one sweep sends it — and its message is sent again. Every job kind resumes from what it stored:
 *   an evaluation chunk skips the task runs it finds, a training chunk reads its checkpoint, a start finds its
 *   object started.
 * - Waiting jobs of keys whose share of the queue has room are released (a release lost with its runner).
 * - Durable Object work (search trees, STE tools, DRAFT tools) whose progress row has not changed for
 *   JOB_STALE_MS is woken once per stall: the object sets its alarm again if it has none, and its next chunk
 *   reloads its stored state.
 * - DRAFT runs whose tools have all ended but that were never finalised get their finalisation enqueued (its job
 *   id makes that once).
 */
import { type Bindings, readConfig } from '../env.ts';
import type { Logger } from '../log.ts';
import { claimStalledDraftTools, draftRunsAwaitingFinalize } from '../stores/draft.ts';
import { claimStalledTrees } from '../stores/explorations.ts';
import { claimStaleJob, ownersWithWaitingJobs, staleJobs } from '../stores/jobs.ts';
import { claimStalledSteTools } from '../stores/ste.ts';
import { draftToolStub, steStub, treeStub } from '../stubs.ts';
import { enqueueDraftFinalize } from './draft.ts';
import { releaseJobs } from './enqueue.ts';
import type { JobMessage } from './types.ts';

/** Rows looked at per kind and sweep (the next tick takes the rest). */
const SWEEP_LIMIT = 200;

export interface SweepSummary {
  /** Jobs sent again. */
  jobs: string[];
  /** Waiting jobs released to the queue. */
  released: number;
  /** Objects whose alarm was set again. */
  trees: string[];
  steTools: string[];
  draftTools: string[];
  /** DRAFT runs whose finalisation was enqueued. */
  finalised: string[];
}

export async function sweepStalledWork(env: Bindings, now: number, log: Logger): Promise<SweepSummary> {
  const before = now - readConfig(env).jobStaleMs;
  const out: SweepSummary = { jobs: [], released: 0, trees: [], steTools: [], draftTools: [], finalised: [] };

  for (const job of await staleJobs(env, before, SWEEP_LIMIT)) {
    if (!(await claimStaleJob(env, job.id, job.updatedAt))) continue;
    await env.JOBS.send({ jobId: job.id, kind: job.kind } satisfies JobMessage);
    out.jobs.push(job.id);
  }
  for (const owner of await ownersWithWaitingJobs(env)) out.released += await releaseJobs(env, owner);

  for (const id of await claimStalledTrees(env, before, SWEEP_LIMIT))
    if (await treeStub(env, id).resume()) out.trees.push(id);
  for (const t of await claimStalledSteTools(env.DB, before, SWEEP_LIMIT))
    if (await steStub(env, t.runId, t.tool).resume()) out.steTools.push(`${t.runId}/${t.tool}`);
  for (const t of await claimStalledDraftTools(env, before, SWEEP_LIMIT))
    if (await draftToolStub(env, t.runId, t.toolKey).resume()) out.draftTools.push(`${t.runId}/${t.toolKey}`);
  for (const runId of await draftRunsAwaitingFinalize(env, before, SWEEP_LIMIT))
    if (await enqueueDraftFinalize(env, runId)) out.finalised.push(runId);

  const woken =
    out.jobs.length +
    out.released +
    out.trees.length +
    out.steTools.length +
    out.draftTools.length +
    out.finalised.length;
  if (woken > 0) log.info('stalled work started again', { ...out });
  return out;
}
