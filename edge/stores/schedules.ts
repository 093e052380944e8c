/** Evaluation schedules in D1 (a cron expression, a suite, a drop threshold); the cron handler launches them. */
import { and, eq } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { schedules } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { newestFirstPage, type Page } from './keyset.ts';
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

/** A page of the schedules the owner may see, newest first (keyset on creation time and id). */
export async function listSchedules(
  env: Bindings,
  page: { limit: number; cursor?: string },
  owner?: Owner,
): Promise<Page<ScheduleRow>> {
  return newestFirstPage({ time: schedules.createdAt, id: schedules.id }, page, (after, order, limit) =>
    database(env.DB)
      .select()
      .from(schedules)
      .where(and(visibleTo(schedules.ownerId, owner), after))
      .orderBy(...order)
      .limit(limit),
  );
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
