/**
 * The cron handler. Each due time is handled once: the (cron, scheduled_time) row in cron_ticks is claimed
 * with an insert that fails on conflict, so retried or overlapping invocations do nothing. A tick enqueues the
 * canary job, launches the evaluation schedules due since the previous tick (edge/jobs/schedules.ts) and the STE
 * runs of drift-schedule stage changes (edge/jobs/ste-schedules.ts), lets DRAFT watches re-document the
 * tools of surfaces that changed (edge/jobs/draft-follow.ts), enqueues the advance of the drift streams that are due
 * (edge/jobs/stream-advance.ts), and starts again the work whose job or alarm
 * vanished (edge/jobs/sweeper.ts).
 */
import type { Bindings } from '../env.ts';
import type { Logger } from '../log.ts';
import { claimCronTick, finishCronTick } from '../stores/cron-ticks.ts';
import { CANARY } from './canary.ts';
import { followDrift } from './draft-follow.ts';
import { enqueueJob } from './enqueue.ts';
import { launchDueSchedules } from './schedules.ts';
import { launchSteStageChanges } from './ste-schedules.ts';
import { enqueueDueStreams } from './stream-advance.ts';
import { sweepStalledWork } from './sweeper.ts';

export interface TickOutcome {
  claimed: boolean;
  summary?: Record<string, unknown>;
}

export async function runScheduledTick(
  cron: string,
  scheduledTime: number,
  env: Bindings,
  log: Logger,
): Promise<TickOutcome> {
  if (!(await claimCronTick(env, cron, scheduledTime))) {
    log.info('cron tick already handled', { cron, scheduledTime });
    return { claimed: false };
  }
  const canary = await enqueueJob(
    env,
    CANARY,
    { enqueuedAt: Date.now(), scheduledTime },
    { id: `canary:${scheduledTime}` },
  );
  const launches = await launchDueSchedules(env, scheduledTime, log);
  const steLaunches = await launchSteStageChanges(env, scheduledTime, log);
  const follows = await followDrift(env, scheduledTime, log);
  const streams = await enqueueDueStreams(env, scheduledTime, log);
  const swept = await sweepStalledWork(env, Date.now(), log);
  const summary = {
    canaryJobId: canary.id,
    evaluations: launches.map((l) => ({
      scheduleId: l.scheduleId,
      dueTime: l.dueTime,
      evalId: l.evalId ?? null,
      created: l.created,
      ...(l.error ? { error: l.error } : {}),
    })),
    ste: steLaunches,
    draft: follows.filter((f) => f.runId || f.error),
    streams: streams.filter((s) => s.created),
    swept,
  };
  await finishCronTick(env, cron, scheduledTime, summary);
  log.info('cron tick handled', { cron, scheduledTime, ...summary });
  return { claimed: true, summary };
}
