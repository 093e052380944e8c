/**
 * The results of evaluations over an imported API's query set (issue 23 §4) in D1: one row per method × surface ×
 * documentation × aid × query (`api_eval_results`). The evaluation rows themselves are the ToolQA-D suites' (`evals`,
 * edge/stores/evaluations.ts); the `api-eval-group` job (edge/jobs/api-eval-group.ts) writes these rows.
 */
import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { apiEvalResults } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { type Page, pageFrom } from './keyset.ts';

export type ApiEvalResultRow = typeof apiEvalResults.$inferSelect;

/** A row's success as the summaries count it: the answer where the item has a gold answer, else the path. */
const success = sql<number>`coalesce(${apiEvalResults.correct}, ${apiEvalResults.pathSubsequence}, 0)`;

/** Records a query's run once (a redelivered group inserts nothing for a run it recorded before). */
export async function insertApiResult(env: Bindings, row: typeof apiEvalResults.$inferInsert): Promise<void> {
  await database(env.DB).insert(apiEvalResults).values(row).onConflictDoNothing();
}

/** The item indices already recorded for one method × surface × documentation of an evaluation. */
export async function finishedApiItems(
  env: Bindings,
  evalId: string,
  group: { method: string; surface: string; docs: string; aids: string },
): Promise<Set<number>> {
  const rows = await database(env.DB)
    .select({ item: apiEvalResults.item })
    .from(apiEvalResults)
    .where(
      and(
        eq(apiEvalResults.evalId, evalId),
        eq(apiEvalResults.method, group.method),
        eq(apiEvalResults.surface, group.surface),
        eq(apiEvalResults.docs, group.docs),
        eq(apiEvalResults.aids, group.aids),
      ),
    );
  return new Set(rows.map((r) => r.item));
}

/** The figures of every row the tables need (no trajectories), in plan order. */
export async function apiResultRows(env: Bindings, evalId: string) {
  return database(env.DB)
    .select({
      method: apiEvalResults.method,
      surface: apiEvalResults.surface,
      docs: apiEvalResults.docs,
      aids: apiEvalResults.aids,
      correct: apiEvalResults.correct,
      pathSubsequence: apiEvalResults.pathSubsequence,
      pathSet: apiEvalResults.pathSet,
      calls: apiEvalResults.calls,
      errorClass: apiEvalResults.errorClass,
      modelCalls: apiEvalResults.modelCalls,
      inputTokens: apiEvalResults.inputTokens,
      outputTokens: apiEvalResults.outputTokens,
      latencyMs: apiEvalResults.latencyMs,
    })
    .from(apiEvalResults)
    .where(eq(apiEvalResults.evalId, evalId))
    .orderBy(asc(apiEvalResults.id));
}

/** Finished and successful query runs so far, per evaluation (for the progress of evaluations not done). */
export async function apiEvalProgress(
  env: Bindings,
  ids: readonly string[],
): Promise<Map<string, { done: number; correct: number }>> {
  const out = new Map<string, { done: number; correct: number }>();
  if (ids.length === 0) return out;
  const rows = await database(env.DB)
    .select({
      id: apiEvalResults.evalId,
      done: sql<number>`count(*)`,
      correct: sql<number>`coalesce(sum(${success}), 0)`,
    })
    .from(apiEvalResults)
    .where(inArray(apiEvalResults.evalId, [...ids]))
    .groupBy(apiEvalResults.evalId);
  for (const r of rows) out.set(r.id, { done: r.done, correct: r.correct });
  return out;
}

export interface ApiResultFilter {
  method?: string;
  surface?: string;
  docs?: string;
  errorClass?: string;
  /** The row's success (the answer where the item has a gold answer, else the path). */
  correct?: boolean;
}

/** Query runs of an evaluation in plan order, after the result id `cursor`; the cursor is the last result id. */
export async function listApiResults(
  env: Bindings,
  evalId: string,
  filter: ApiResultFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<ApiEvalResultRow>> {
  const conditions: SQL[] = [eq(apiEvalResults.evalId, evalId)];
  if (filter.method) conditions.push(eq(apiEvalResults.method, filter.method));
  if (filter.surface) conditions.push(eq(apiEvalResults.surface, filter.surface));
  if (filter.docs) conditions.push(eq(apiEvalResults.docs, filter.docs));
  if (filter.errorClass) conditions.push(eq(apiEvalResults.errorClass, filter.errorClass));
  if (filter.correct !== undefined) conditions.push(sql`${success} = ${filter.correct ? 1 : 0}`);
  if (page.cursor) conditions.push(gt(apiEvalResults.id, page.cursor));
  const rows = await database(env.DB)
    .select()
    .from(apiEvalResults)
    .where(and(...conditions))
    .orderBy(asc(apiEvalResults.id))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => r.id);
  return { items, nextCursor: next };
}

export async function getApiResult(
  env: Bindings,
  evalId: string,
  resultId: string,
): Promise<ApiEvalResultRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(apiEvalResults)
    .where(and(eq(apiEvalResults.evalId, evalId), eq(apiEvalResults.id, resultId)))
    .limit(1);
  return row ?? null;
}
