/**
 * Drift-aware continual learning at the cron tick (issue 15): for every enabled STE schedule whose drift
 * schedule has moved to a new stage, launch the configured STE run over the tools changed between the previous
 * stage's surface and the new one (`since`), once per (schedule, stage): the run's trigger
 * `ste-schedule:<id>:<stage>` is unique, so retried or overlapping ticks launch nothing twice.
 */
import { CreateSteRun } from '../../core/ste/run-request.ts';
import { currentStageChange, stageTrigger } from '../../core/ste/schedule.ts';
import { parseSchedule } from '../../core/surfaces/schedule.ts';
import type { Bindings } from '../env.ts';
import type { Logger } from '../log.ts';
import { launchSteRun, planSteRun } from '../ste-launch.ts';
import { enabledSteSchedules } from '../stores/ste.ts';

export interface SteStageLaunch {
  scheduleId: string;
  stage: number;
  runId?: string;
  created: boolean;
  error?: string;
}

export async function launchSteStageChanges(
  env: Bindings,
  now: number,
  log: Logger,
): Promise<SteStageLaunch[]> {
  const out: SteStageLaunch[] = [];
  for (const row of await enabledSteSchedules(env.DB)) {
    try {
      const schedule = parseSchedule(row.schedule);
      const change = currentStageChange(schedule, new Date(now));
      if (!change) continue;
      const body = CreateSteRun.parse({
        ...(row.run as Record<string, unknown>),
        surface: change.surface,
        since: change.previous,
      });
      const { run, created } = await launchSteRun(env, await planSteRun(env, body), {
        trigger: stageTrigger(row.id, change),
        ownerId: row.ownerId,
      });
      out.push({ scheduleId: row.id, stage: change.stageIndex, runId: run.id, created });
      if (created)
        log.info('STE run launched for a stage change', {
          scheduleId: row.id,
          stage: change.stageIndex,
          runId: run.id,
        });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      out.push({ scheduleId: row.id, stage: -1, created: false, error });
      log.warn('STE stage-change run could not be launched', { scheduleId: row.id, error });
    }
  }
  return out;
}
