/**
 * Evaluations in D1 as the API reads them: the evaluation rows, their progress (finished and correct task runs)
 * and their task-run results. Launching an evaluation and writing its results is the `eval-group` job
 * (edge/jobs/eval-group.ts).
 */
import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { ResultRow } from '../../core/evals/aggregate.ts';
import { database } from '../../db/client.ts';
import { evalResults, evals } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { apiEvalProgress } from './api-evals.ts';
import { newestFirstPage, type Page, pageFrom } from './keyset.ts';
import { type Owner, visibleTo } from './owners.ts';

export type EvalRow = typeof evals.$inferSelect;
export type EvalResultRow = typeof evalResults.$inferSelect;

export interface EvalProgress {
  done: number;
  correct: number;
}

/** The first evaluation matching a condition. */
async function firstEval(env: Bindings, where: SQL | undefined): Promise<EvalRow | null> {
  const [row] = await database(env.DB).select().from(evals).where(where).limit(1);
  return row ?? null;
}

/** An evaluation the owner may see (any, without an owner). */
/** Whether any evaluation the owner may see was launched by schedule `scheduleId` (its runs outlive it). */
export async function scheduleHasRuns(env: Bindings, scheduleId: string, owner?: Owner): Promise<boolean> {
  const [row] = await database(env.DB)
    .select({ id: evals.id })
    .from(evals)
    .where(and(eq(evals.scheduleId, scheduleId), visibleTo(evals.ownerId, owner)))
    .limit(1);
  return row !== undefined;
}

export async function getEval(env: Bindings, id: string, owner?: Owner): Promise<EvalRow | null> {
  return firstEval(env, and(eq(evals.id, id), visibleTo(evals.ownerId, owner)));
}

/** Finished task runs and correct ones so far, per evaluation, in one query. */
export async function evalProgress(
  env: Bindings,
  ids: readonly string[],
): Promise<Map<string, EvalProgress>> {
  const out = new Map<string, EvalProgress>();
  if (ids.length === 0) return out;
  const rows = await database(env.DB)
    .select({
      id: evalResults.evalId,
      done: sql<number>`count(*)`,
      correct: sql<number>`coalesce(sum(case when ${evalResults.correct} then 1 else 0 end), 0)`,
    })
    .from(evalResults)
    .where(inArray(evalResults.evalId, [...ids]))
    .groupBy(evalResults.evalId);
  for (const r of rows) out.set(r.id, { done: r.done, correct: r.correct });
  // Evaluations over an imported API's query set count their query runs (edge/stores/api-evals.ts).
  for (const [id, p] of await apiEvalProgress(env, ids)) out.set(id, p);
  return out;
}

/** Evaluations newest first, with the progress of those of the page that are not done. */
export async function listEvals(
  env: Bindings,
  opts: { limit: number; scheduleId?: string; cursor?: string; owner?: Owner },
): Promise<Page<{ row: EvalRow; progress: EvalProgress | undefined }>> {
  const { items, nextCursor } = await newestFirstPage(
    { time: evals.createdAt, id: evals.id },
    { limit: opts.limit, cursor: opts.cursor },
    (after, order, limit) =>
      database(env.DB)
        .select()
        .from(evals)
        .where(
          and(
            opts.scheduleId ? eq(evals.scheduleId, opts.scheduleId) : undefined,
            visibleTo(evals.ownerId, opts.owner),
            after,
          ),
        )
        .orderBy(...order)
        .limit(limit),
  );
  const progress = await evalProgress(
    env,
    items.filter((r) => r.status !== 'done').map((r) => r.id),
  );
  return { items: items.map((row) => ({ row, progress: progress.get(row.id) })), nextCursor };
}

/** A running evaluation stops by itself (its model-spend quota ran out): cancelled, saying why. */
export async function stopEval(env: Bindings, id: string, reason: string): Promise<void> {
  await database(env.DB)
    .update(evals)
    .set({ status: 'cancelled', stoppedFor: reason, finishedAt: Date.now() })
    .where(and(eq(evals.id, id), eq(evals.status, 'running')));
}

/** A running evaluation becomes cancelled (its queued groups then skip their tasks). */
export async function cancelEval(env: Bindings, id: string): Promise<void> {
  await database(env.DB)
    .update(evals)
    .set({ status: 'cancelled', finishedAt: Date.now() })
    .where(and(eq(evals.id, id), eq(evals.status, 'running')));
}

export interface ResultFilter {
  method?: string;
  surface?: string;
  dataset?: string;
  difficulty?: EvalResultRow['difficulty'];
  correct?: boolean;
  errorClass?: string;
}

/** Task runs of an evaluation in plan order, after the result id `cursor`; the cursor is the last result id. */
export async function listResults(
  env: Bindings,
  evalId: string,
  filter: ResultFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<EvalResultRow>> {
  const conditions: SQL[] = [eq(evalResults.evalId, evalId)];
  if (filter.method) conditions.push(eq(evalResults.method, filter.method));
  if (filter.surface) conditions.push(eq(evalResults.surface, filter.surface));
  if (filter.dataset) conditions.push(eq(evalResults.dataset, filter.dataset));
  if (filter.difficulty) conditions.push(eq(evalResults.difficulty, filter.difficulty));
  if (filter.correct !== undefined) conditions.push(eq(evalResults.correct, filter.correct));
  if (filter.errorClass) conditions.push(eq(evalResults.errorClass, filter.errorClass));
  if (page.cursor) conditions.push(gt(evalResults.id, page.cursor));
  const rows = await database(env.DB)
    .select()
    .from(evalResults)
    .where(and(...conditions))
    .orderBy(asc(evalResults.id))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => r.id);
  return { items, nextCursor: next };
}

export async function getResult(
  env: Bindings,
  evalId: string,
  resultId: string,
): Promise<EvalResultRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(evalResults)
    .where(and(eq(evalResults.evalId, evalId), eq(evalResults.id, resultId)))
    .limit(1);
  return row ?? null;
}

/** Records an evaluation; false when one with its id, or for its (schedule, due time), exists already. */
export async function insertEval(env: Bindings, row: typeof evals.$inferInsert): Promise<boolean> {
  const inserted = await database(env.DB)
    .insert(evals)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: evals.id });
  return inserted.length > 0;
}

/** The evaluation a schedule launched for a due time. */
export async function evalForDueTime(
  env: Bindings,
  scheduleId: string,
  dueTime: number,
): Promise<EvalRow | null> {
  return firstEval(env, and(eq(evals.scheduleId, scheduleId), eq(evals.dueTime, dueTime)));
}

export async function evalStatus(env: Bindings, id: string): Promise<EvalRow['status'] | null> {
  const [row] = await database(env.DB).select({ status: evals.status }).from(evals).where(eq(evals.id, id));
  return row?.status ?? null;
}

/** The task runs already recorded for one method × surface of an evaluation, with their trajectories. */
export async function finishedRuns(env: Bindings, evalId: string, method: string, surface: string) {
  return database(env.DB)
    .select({ taskId: evalResults.taskId, trajectory: evalResults.trajectory })
    .from(evalResults)
    .where(
      and(eq(evalResults.evalId, evalId), eq(evalResults.method, method), eq(evalResults.surface, surface)),
    );
}

/** Records a task run once (a redelivered group inserts nothing for a run it recorded before). */
export async function insertResult(env: Bindings, row: typeof evalResults.$inferInsert): Promise<void> {
  await database(env.DB).insert(evalResults).values(row).onConflictDoNothing();
}

/** The result rows aggregates need (no trajectories). */
export async function resultRows(env: Bindings, evalId: string): Promise<ResultRow[]> {
  return database(env.DB)
    .select({
      method: evalResults.method,
      surface: evalResults.surface,
      dataset: evalResults.dataset,
      difficulty: evalResults.difficulty,
      correct: evalResults.correct,
      errorClass: evalResults.errorClass,
      modelCalls: evalResults.modelCalls,
      inputTokens: evalResults.inputTokens,
      outputTokens: evalResults.outputTokens,
      latencyMs: evalResults.latencyMs,
    })
    .from(evalResults)
    .where(eq(evalResults.evalId, evalId))
    .orderBy(asc(evalResults.id));
}

/** The latest finished run of a schedule due before `dueTime`. */
export async function previousDoneEval(
  env: Bindings,
  scheduleId: string,
  dueTime: number,
): Promise<EvalRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(evals)
    .where(and(eq(evals.scheduleId, scheduleId), eq(evals.status, 'done'), lt(evals.dueTime, dueTime)))
    .orderBy(desc(evals.dueTime))
    .limit(1);
  return row ?? null;
}

/** A running evaluation becomes done with its overall success rate and comparison. */
export async function markEvalDone(
  env: Bindings,
  id: string,
  outcome: { successRate: number | null; flagged: boolean; comparison: unknown },
): Promise<void> {
  await database(env.DB)
    .update(evals)
    .set({ status: 'done', ...outcome, finishedAt: Date.now() })
    .where(and(eq(evals.id, id), eq(evals.status, 'running')));
}
