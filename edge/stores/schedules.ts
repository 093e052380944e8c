/** Evaluation schedules in D1 (a cron expression, a suite, a drop threshold); the cron handler launches them. */
import { and, eq } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { schedules } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { type Owner, visibleTo } from './owners.ts';

export type ScheduleRow = typeof schedules.$inferSelect;

/** A schedule the owner may see (any, without an owner). */
export async function getSchedule(env: Bindings, id: string, owner?: Owner): Promise<ScheduleRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, id), visibleTo(schedules.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

/** Every schedule the owner may see, oldest first. */
export async function listSchedules(env: Bindings, owner?: Owner): Promise<ScheduleRow[]> {
  return database(env.DB)
    .select()
    .from(schedules)
    .where(visibleTo(schedules.ownerId, owner))
    .orderBy(schedules.createdAt);
}

export async function enabledSchedules(env: Bindings): Promise<ScheduleRow[]> {
  return database(env.DB).select().from(schedules).where(eq(schedules.enabled, true));
}

export async function insertSchedule(env: Bindings, row: ScheduleRow): Promise<void> {
  await database(env.DB).insert(schedules).values(row);
}

export async function updateSchedule(env: Bindings, row: ScheduleRow): Promise<void> {
  await database(env.DB).update(schedules).set(row).where(eq(schedules.id, row.id));
}

export async function deleteSchedule(env: Bindings, id: string): Promise<void> {
  await database(env.DB).delete(schedules).where(eq(schedules.id, id));
}
