/**
 * Scheduled evaluations: the cron handler asks which enabled schedules have a due time in the window since the
 * previous tick and launches each once (functions/eval-jobs.ts: the (schedule, due time) unique index makes a
 * second launch for the same due time a no-op, so retried or overlapping ticks launch nothing twice).
 *
 * The Worker's cron trigger fires every five minutes (wrangler.toml `triggers.crons`); a schedule's due time
 * is handled by the first tick at or after it. A schedule finer than five minutes runs once per tick (its latest
 * due time in the window); ticks missed while the Worker was not triggered are not caught up. A schedule applies
 * from the minute it was created (cron's granularity): a due time in that minute counts, earlier ones do not.
 */
import { eq } from 'drizzle-orm';
import { type EvalSuite, EvalSuiteSchema } from '../core/evals/suite.ts';
import { latestDueIn } from '../core/util/cron.ts';
import { database } from '../db/client.ts';
import { schedules } from '../db/schema.ts';
import type { Bindings } from './env.ts';
import { launchEval, missingSurfaces } from './eval-jobs.ts';
import type { Logger } from './http/log.ts';

/** The interval of the Worker's cron trigger. */
export const SCHEDULE_TICK_MS = 5 * 60_000;

export interface ScheduleLaunch {
  scheduleId: string;
  dueTime: number;
  evalId?: string;
  created: boolean;
  error?: string;
}

export async function launchDueSchedules(
  env: Bindings,
  scheduledTime: number,
  log: Logger,
  windowMs = SCHEDULE_TICK_MS,
): Promise<ScheduleLaunch[]> {
  const enabled = await database(env.DB).select().from(schedules).where(eq(schedules.enabled, true));
  const out: ScheduleLaunch[] = [];
  for (const s of enabled) {
    const firstMinute = Math.floor(s.createdAt / 60_000) * 60_000;
    const dueTime = latestDueIn(s.cron, Math.max(scheduledTime - windowMs, firstMinute - 1), scheduledTime);
    if (dueTime === null) continue;
    try {
      const suite: EvalSuite = EvalSuiteSchema.parse(s.suite);
      const missing = await missingSurfaces(env, suite);
      if (missing.length > 0) throw new Error(`unknown surfaces ${missing.join(', ')}`);
      const launch = await launchEval(
        env,
        { ...suite, name: suite.name ?? s.name },
        { scheduleId: s.id, dueTime },
      );
      out.push({ scheduleId: s.id, dueTime, evalId: launch.id, created: launch.created });
      log.info(launch.created ? 'schedule launched' : 'schedule already launched for this due time', {
        scheduleId: s.id,
        dueTime,
        evalId: launch.id,
      });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      out.push({ scheduleId: s.id, dueTime, created: false, error });
      log.warn('schedule could not be launched', { scheduleId: s.id, dueTime, error });
    }
  }
  return out;
}
