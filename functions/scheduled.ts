/**
 * The cron handler. Each due time is handled once: the (cron, scheduled_time) row in cron_ticks is claimed
 * with an insert that fails on conflict, so retried or overlapping invocations do nothing. A tick enqueues the
 * canary job, launches the evaluation schedules due since the previous tick (functions/schedules.ts), and lets
 * DRAFT watches re-document the tools of surfaces that changed (functions/draft-follow.ts).
 */
import { and, eq } from 'drizzle-orm';
import { database } from '../db/client.ts';
import { cronTicks } from '../db/schema.ts';
import { followDrift } from './draft-follow.ts';
import type { Bindings } from './env.ts';
import type { Logger } from './http/log.ts';
import { enqueueJob } from './jobs.ts';
import { launchDueSchedules } from './schedules.ts';

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
  const db = database(env.DB);
  const claimed = await db
    .insert(cronTicks)
    .values({ cron, scheduledTime, startedAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: cronTicks.id });
  if (claimed.length === 0) {
    log.info('cron tick already handled', { cron, scheduledTime });
    return { claimed: false };
  }
  const canary = await enqueueJob(
    env,
    'canary',
    { enqueuedAt: Date.now(), scheduledTime },
    { id: `canary:${scheduledTime}` },
  );
  const launches = await launchDueSchedules(env, scheduledTime, log);
  const follows = await followDrift(env, scheduledTime, log);
  const summary = {
    canaryJobId: canary.id,
    evaluations: launches.map((l) => ({
      scheduleId: l.scheduleId,
      dueTime: l.dueTime,
      evalId: l.evalId ?? null,
      created: l.created,
      ...(l.error ? { error: l.error } : {}),
    })),
    draft: follows.filter((f) => f.runId || f.error),
  };
  await db
    .update(cronTicks)
    .set({ finishedAt: Date.now(), summary })
    .where(and(eq(cronTicks.cron, cron), eq(cronTicks.scheduledTime, scheduledTime)));
  log.info('cron tick handled', { cron, scheduledTime, ...summary });
  return { claimed: true, summary };
}
