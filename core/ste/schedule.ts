/**
 * Drift-aware continual learning on a drift schedule (core/surfaces/schedule.ts): when a schedule has moved to
 * a new stage, an STE run explores the tools changed between the previous stage's surface and the new one. This
 * is the decision, as a pure function of the schedule and the time; the cron tick launches the run, once per
 * (schedule, stage) — the launch trigger makes it idempotent.
 */
import type { Schedule } from '../surfaces/schedule.ts';

export interface StageChange {
  /** The stage in force (≥ 1: stage 0 is where the schedule starts, not a change). */
  stageIndex: number;
  surface: string;
  previous: string;
  effectiveFrom: string;
}

/** The stage change in force at `now`, or null before the second stage takes over. */
export function currentStageChange(schedule: Schedule, now: Date): StageChange | null {
  let index = -1;
  schedule.stages.forEach((s, i) => {
    if (Date.parse(s.effectiveFrom) <= now.getTime()) index = i;
  });
  if (index < 1) return null;
  const stage = schedule.stages[index] as Schedule['stages'][number];
  return {
    stageIndex: index,
    surface: stage.surface,
    previous: (schedule.stages[index - 1] as Schedule['stages'][number]).surface,
    effectiveFrom: stage.effectiveFrom,
  };
}

/** The launch trigger of a stage change: one STE run per (schedule, stage). */
export function stageTrigger(scheduleId: string, change: StageChange): string {
  return `ste-schedule:${scheduleId}:${change.stageIndex}`;
}
