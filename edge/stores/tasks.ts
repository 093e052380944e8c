/** The seeded task table in D1 (questions and gold answers of every dataset, difficulty and split). */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { tasks } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

export type TaskRow = typeof tasks.$inferSelect;

export interface TaskFilter {
  dataset?: TaskRow['dataset'];
  difficulty?: TaskRow['difficulty'];
  split?: TaskRow['split'];
}

export async function getTask(env: Bindings, id: string): Promise<TaskRow | null> {
  const [row] = await database(env.DB).select().from(tasks).where(eq(tasks.id, id)).limit(1);
  return row ?? null;
}

/** The tasks with these ids (in no particular order; missing ids are left out). */
export async function getTasks(env: Bindings, ids: readonly string[]): Promise<TaskRow[]> {
  const out: TaskRow[] = [];
  // D1 binds at most 100 parameters per statement (measured: a 130-id `IN` list fails every attempt; a group of
  // the full split holds up to 130 tasks, coffee-hard).
  for (let i = 0; i < ids.length; i += 90) {
    out.push(
      ...(await database(env.DB)
        .select()
        .from(tasks)
        .where(inArray(tasks.id, ids.slice(i, i + 90)))),
    );
  }
  return out;
}

/** The ids of these that name no task. */
export async function missingTaskIds(env: Bindings, ids: readonly string[]): Promise<string[]> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await database(env.DB)
      .select({ id: tasks.id })
      .from(tasks)
      .where(inArray(tasks.id, ids.slice(i, i + 90)));
    for (const r of rows) found.add(r.id);
  }
  return ids.filter((id) => !found.has(id));
}

/** The SQL condition of a task filter (undefined: every task). */
export function taskWhere(filter: TaskFilter & { template?: string }) {
  return and(
    filter.dataset ? eq(tasks.dataset, filter.dataset) : undefined,
    filter.difficulty ? eq(tasks.difficulty, filter.difficulty) : undefined,
    filter.split ? eq(tasks.split, filter.split) : undefined,
    filter.template ? eq(tasks.templateId, filter.template) : undefined,
  );
}

/** Ids of the tasks matching the filter in id order (the first `limit` of them with a limit). */
export async function taskIdsMatching(env: Bindings, filter: TaskFilter, limit?: number): Promise<string[]> {
  const query = database(env.DB)
    .select({ id: tasks.id })
    .from(tasks)
    .where(taskWhere(filter))
    .orderBy(asc(tasks.id));
  const rows = limit === undefined ? await query : await query.limit(limit);
  return rows.map((r) => r.id);
}

/** Id, dataset and difficulty of the tasks of a split in the given datasets and difficulties. */
export async function taskCells(
  env: Bindings,
  split: TaskRow['split'],
  datasets: readonly TaskRow['dataset'][],
  difficulties: readonly TaskRow['difficulty'][],
) {
  return database(env.DB)
    .select({ id: tasks.id, dataset: tasks.dataset, difficulty: tasks.difficulty })
    .from(tasks)
    .where(
      and(
        eq(tasks.split, split),
        inArray(tasks.dataset, [...datasets]),
        inArray(tasks.difficulty, [...difficulties]),
      ),
    );
}
