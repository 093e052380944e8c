/**
 * The world as D1 holds it: the seeder's `meta` row (which world was seeded, its sizes) and the task counts per
 * dataset, difficulty and split, plus the database checks /health runs.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { meta, tasks } from '../../db/schema.ts';
import type { SeededWorld } from '../../db/world-seed.ts';
import type { Bindings } from '../env.ts';
import { pageFrom } from './keyset.ts';
import { type TaskFilter, taskWhere } from './tasks.ts';

/** The world row the seeder wrote, whatever world it was (null before seeding). */
export async function storedWorld(env: Bindings): Promise<SeededWorld | null> {
  const rows = await database(env.DB).select().from(meta).where(eq(meta.key, 'world')).limit(1);
  return (rows[0]?.value as SeededWorld | undefined) ?? null;
}

export interface TaskCount {
  dataset: string;
  difficulty: 'easy' | 'hard';
  split: 'train' | 'dev' | 'test';
  n: number;
}

/** Tasks per (dataset, difficulty, split). */
export async function taskCounts(env: Bindings): Promise<TaskCount[]> {
  return database(env.DB)
    .select({
      dataset: tasks.dataset,
      difficulty: tasks.difficulty,
      split: tasks.split,
      n: sql<number>`count(*)`,
    })
    .from(tasks)
    .groupBy(tasks.dataset, tasks.difficulty, tasks.split);
}

/** Task summaries (no gold) in id order after `cursor`; the next cursor is the last id of a full page. */
export async function listTaskSummaries(
  env: Bindings,
  filter: TaskFilter & { template?: string },
  page: { limit: number; cursor?: string },
) {
  const rows = await database(env.DB)
    .select({
      id: tasks.id,
      split: tasks.split,
      dataset: tasks.dataset,
      difficulty: tasks.difficulty,
      templateId: tasks.templateId,
      question: tasks.question,
    })
    .from(tasks)
    .where(and(taskWhere(filter), page.cursor ? gt(tasks.id, page.cursor) : undefined))
    .orderBy(asc(tasks.id))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => r.id);
  return { items, nextCursor: next };
}

/** `SELECT 1` on D1 (the /health round trip). */
export async function pingD1(env: Bindings): Promise<boolean> {
  const row = await env.DB.prepare('SELECT 1 AS one').first<{ one: number }>();
  return row?.one === 1;
}

/** Names of the migrations D1 has applied, in order. */
export async function appliedMigrations(env: Bindings): Promise<string[]> {
  const rows = await env.DB.prepare('SELECT name FROM d1_migrations ORDER BY id').all<{ name: string }>();
  return rows.results.map((r) => r.name);
}
