/**
 * Explorations and their trees in D1: the exploration row (status, resolved config, tree count) and one row per
 * search tree (status, counters, outcome), written by POST /v1/explorations, the `explore-tree` job and each
 * tree's Durable Object. The nodes themselves live in the tree's object.
 */
import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { TreeRunStatus } from '../../core/search/progress.ts';
import { database } from '../../db/client.ts';
import { explorations, trees } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { newestFirstPage, type Page, pageFrom } from './keyset.ts';
import { type Owner, visibleTo } from './owners.ts';

export type ExplorationRow = typeof explorations.$inferSelect;
export type TreeRow = typeof trees.$inferSelect;
type NewTreeRow = typeof trees.$inferInsert;

const OPEN = ['queued', 'running'] as const;

/** An exploration the owner may see (any, without an owner). */
export async function getExploration(
  env: Bindings,
  id: string,
  owner?: Owner,
): Promise<ExplorationRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(explorations)
    .where(and(eq(explorations.id, id), visibleTo(explorations.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

export async function getTree(env: Bindings, id: string): Promise<TreeRow | null> {
  const [row] = await database(env.DB).select().from(trees).where(eq(trees.id, id)).limit(1);
  return row ?? null;
}

/** Records a queued exploration and its queued trees. */
export async function insertExploration(
  env: Bindings,
  exploration: { id: string; ownerId: string | null; config: unknown; treesTotal: number; createdAt: number },
  treeRows: NewTreeRow[],
): Promise<void> {
  const db = database(env.DB);
  const { createdAt } = exploration;
  await db.insert(explorations).values({ ...exploration, status: 'queued', updatedAt: createdAt });
  // drizzle binds 12 parameters per row (defaults included): 8 rows stay under D1's 100 per statement.
  for (let i = 0; i < treeRows.length; i += 8) await db.insert(trees).values(treeRows.slice(i, i + 8));
}

export interface TreeStats {
  status: TreeRunStatus;
  n: number;
  solved: number;
  nodes: number;
  iterations: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Tree counts, solved trees and summed usage of an exploration, one row per tree status. */
export async function treeStats(env: Bindings, explorationId: string): Promise<TreeStats[]> {
  return database(env.DB)
    .select({
      status: trees.status,
      n: sql<number>`count(*)`,
      solved: sql<number>`coalesce(sum(case when ${trees.solved} then 1 else 0 end), 0)`,
      nodes: sql<number>`coalesce(sum(${trees.nodes}), 0)`,
      iterations: sql<number>`coalesce(sum(${trees.iterations}), 0)`,
      modelCalls: sql<number>`coalesce(sum(${trees.modelCalls}), 0)`,
      inputTokens: sql<number>`coalesce(sum(${trees.inputTokens}), 0)`,
      outputTokens: sql<number>`coalesce(sum(${trees.outputTokens}), 0)`,
    })
    .from(trees)
    .where(eq(trees.explorationId, explorationId))
    .groupBy(trees.status);
}

/** How many trees of the exploration are in each status. */
export async function treeStatusCounts(
  env: Bindings,
  explorationId: string,
): Promise<Partial<Record<TreeRunStatus, number>>> {
  const rows = await database(env.DB)
    .select({ status: trees.status, n: sql<number>`count(*)` })
    .from(trees)
    .where(eq(trees.explorationId, explorationId))
    .groupBy(trees.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The exploration moves to `status` unless it has settled already (only a queued or running one changes). */
export async function settleExploration(
  env: Bindings,
  id: string,
  status: 'running' | 'succeeded' | 'cancelled',
  /** Why a cancelled exploration stopped by itself (`quota-exhausted`). */
  stoppedFor?: string,
): Promise<void> {
  const from = status === 'running' ? (['queued'] as const) : OPEN;
  await database(env.DB)
    .update(explorations)
    .set({ status, ...(stoppedFor ? { stoppedFor } : {}), updatedAt: Date.now() })
    .where(and(eq(explorations.id, id), inArray(explorations.status, from)));
}

/** A queued tree whose object has started is running. */
export async function markTreeStarted(env: Bindings, treeId: string): Promise<void> {
  await database(env.DB)
    .update(trees)
    .set({ status: 'running', updatedAt: Date.now() })
    .where(and(eq(trees.id, treeId), eq(trees.status, 'queued')));
}

export interface TreeCounters {
  nodes: number;
  iterations: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

/** Live counters of a running tree (the exploration's aggregate progress reads them). */
export async function updateTreeCounters(
  env: Bindings,
  treeId: string,
  counters: TreeCounters,
): Promise<void> {
  await database(env.DB)
    .update(trees)
    .set({ status: 'running', ...counters, updatedAt: Date.now() })
    .where(and(eq(trees.id, treeId), inArray(trees.status, OPEN)));
}

/** The final row of a tree (idempotent: a retried report writes the same values). */
export async function recordTreeOutcome(
  env: Bindings,
  treeId: string,
  outcome: TreeCounters & { status: TreeRunStatus; solved: boolean; summary: unknown },
): Promise<void> {
  await database(env.DB)
    .update(trees)
    .set({ ...outcome, updatedAt: Date.now() })
    .where(eq(trees.id, treeId));
}

/** The open (queued or running) trees of an exploration. */
export async function openTrees(env: Bindings, explorationId: string) {
  return database(env.DB)
    .select({ id: trees.id, status: trees.status })
    .from(trees)
    .where(and(eq(trees.explorationId, explorationId), inArray(trees.status, OPEN)));
}

/** Every open tree of the exploration becomes cancelled. */
export async function cancelOpenTrees(env: Bindings, explorationId: string): Promise<void> {
  await database(env.DB)
    .update(trees)
    .set({ status: 'cancelled', updatedAt: Date.now() })
    .where(and(eq(trees.explorationId, explorationId), inArray(trees.status, OPEN)));
}

/** A tree with its exploration's stored config, or null (also when the owner may not see the exploration). */
export async function treeWithConfig(
  env: Bindings,
  treeId: string,
  owner?: Owner,
): Promise<{ config: unknown } | null> {
  const [row] = await database(env.DB)
    .select({ id: trees.id, config: explorations.config })
    .from(trees)
    .innerJoin(explorations, eq(explorations.id, trees.explorationId))
    .where(and(eq(trees.id, treeId), visibleTo(explorations.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

export interface ExplorationListItem {
  row: ExplorationRow;
  /** Trees that succeeded or failed, and trees solved. */
  finished: number;
  solved: number;
}

/** Explorations newest first, with the tree counts of the page in one grouped query. */
export async function listExplorations(
  env: Bindings,
  q: { status?: ExplorationRow['status']; limit: number; cursor?: string; owner?: Owner },
): Promise<Page<ExplorationListItem>> {
  const db = database(env.DB);
  const { items: page, nextCursor } = await newestFirstPage(
    { time: explorations.createdAt, id: explorations.id },
    q,
    (after, order, limit) =>
      db
        .select()
        .from(explorations)
        .where(
          and(
            q.status ? eq(explorations.status, q.status) : undefined,
            visibleTo(explorations.ownerId, q.owner),
            after,
          ),
        )
        .orderBy(...order)
        .limit(limit),
  );
  const counts = new Map<string, { finished: number; solved: number }>();
  if (page.length > 0) {
    const groups = await db
      .select({
        id: trees.explorationId,
        finished: sql<number>`coalesce(sum(case when ${trees.status} in ('succeeded','failed') then 1 else 0 end), 0)`,
        solved: sql<number>`coalesce(sum(case when ${trees.solved} then 1 else 0 end), 0)`,
      })
      .from(trees)
      .where(
        inArray(
          trees.explorationId,
          page.map((r) => r.id),
        ),
      )
      .groupBy(trees.explorationId);
    for (const g of groups) counts.set(g.id, { finished: g.finished, solved: g.solved });
  }
  return {
    items: page.map((row) => ({
      row,
      finished: counts.get(row.id)?.finished ?? 0,
      solved: counts.get(row.id)?.solved ?? 0,
    })),
    nextCursor,
  };
}

/** The trees of an exploration in (task, tree index) order. */
/**
 * A page of an exploration's trees by task id then tree index; the cursor is the last tree's `{treeIndex}_{taskId}`
 * (the shared keyset format).
 */
export async function listTrees(
  env: Bindings,
  explorationId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<TreeRow>> {
  const m = page.cursor === undefined ? null : /^(\d+)_(.*)$/s.exec(page.cursor);
  const after = m
    ? or(
        gt(trees.taskId, m[2] as string),
        and(eq(trees.taskId, m[2] as string), gt(trees.treeIndex, Number(m[1]))),
      )
    : undefined;
  const rows = await database(env.DB)
    .select()
    .from(trees)
    .where(and(eq(trees.explorationId, explorationId), after))
    .orderBy(asc(trees.taskId), asc(trees.treeIndex))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (t) => `${t.treeIndex}_${t.taskId}`);
  return { items, nextCursor: next };
}

/**
 * Running trees whose row has not changed since `before` (no chunk reported: the object's alarm may be lost), each
 * claimed for one wake-up — its row is touched in the same conditional update, so a tree is woken once per stall
 * period however many sweeps overlap.
 */
export async function claimStalledTrees(env: Bindings, before: number, limit: number): Promise<string[]> {
  const d = database(env.DB);
  const stalled = await d
    .select({ id: trees.id, updatedAt: trees.updatedAt })
    .from(trees)
    .where(and(eq(trees.status, 'running'), lt(trees.updatedAt, before)))
    .limit(limit);
  const claimed: string[] = [];
  for (const t of stalled) {
    const won = await d
      .update(trees)
      .set({ updatedAt: Date.now() })
      .where(and(eq(trees.id, t.id), eq(trees.updatedAt, t.updatedAt), eq(trees.status, 'running')))
      .returning({ id: trees.id });
    if (won.length > 0) claimed.push(t.id);
  }
  return claimed;
}
