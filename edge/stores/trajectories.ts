/**
 * Training data of a finished search tree in D1 (core/search/trajectories.ts):
 * - its root→Finish paths (`trajectories`), written once per (tree, leaf node), and the seeded choice of at most
 *   4 successes per task for SFT, recomputed over every trajectory the exploration holds for that task each time
 *   a tree of it is recorded (the selection seed is the exploration id, so the choice is the same whichever order
 *   the task's trees finish in);
 * - its DPO preference pairs (`preference_pairs`), as finished export records, once per (tree, parent, chosen,
 *   rejected). They are computed here from the whole tree because only here is it whole: every terminal with
 *   reward −1 (wrong Finish, depth or load limit, no child, budget) is a failure, as in ToolEVO's pairs. The
 *   stored Finish paths alone would only pair a correct Finish with a wrong Finish under the same node, which is
 *   rare (an exploration of 1,000 trees gave none).
 * A redelivered queue message or a retried tree inserts nothing new in either table.
 */
import { and, asc, eq, gt, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import {
  type DpoPair,
  dpoPairSet,
  dpoRecord,
  extractTrajectories,
  type SelectionRule,
  selectForTraining,
  type Trajectory,
  type TrajectoryMeta,
} from '../../core/search/trajectories.ts';
import type { SearchTree } from '../../core/search/tree.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import { type Database, database } from '../../db/client.ts';
import { explorations, preferencePairs, tasks, trajectories } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { exportWindow, newestFirstPage, type Page } from './keyset.ts';
import { type Owner, visibleThrough, visibleToSql } from './owners.ts';

/** Trajectories and preference pairs belong to their exploration's owner. */
function ownExploration(
  fk: typeof trajectories.explorationId | typeof preferencePairs.explorationId,
  owner?: Owner,
) {
  return visibleThrough(
    fk,
    { table: explorations, id: explorations.id, ownerId: explorations.ownerId },
    owner,
  );
}

/** Successful trajectories per task kept for SFT (ToolEVO §3.4). */
export const TRAINING_PER_TASK = 4;

/** D1 binds at most 100 parameters per statement; a trajectory row binds 16. */
const ROWS_PER_INSERT = Math.floor(100 / 16);
/** A preference pair row binds 14. */
const PAIRS_PER_INSERT = Math.floor(100 / 14);

export interface RecordResult {
  /** Trajectories in the tree (root→Finish paths). */
  found: number;
  /** Rows actually inserted (0 when the tree was recorded before). */
  inserted: number;
  /** Ids selected for training for this task after the update. */
  selected: string[];
  /**
   * DPO pairs of the whole tree, and the rows actually inserted (0 when the tree was recorded before). `dropped`:
   * candidates left out because both sides made the same call (differing only in Thought); `droppedRepeating`:
   * because the chosen step repeats a call that failed on its path and the rejected one does not.
   */
  pairs: { found: number; inserted: number; dropped: number; droppedRepeating: number };
}

export function preferencePairId(
  treeId: string,
  pair: Pick<DpoPair, 'parent' | 'chosenNode' | 'rejectedNode'>,
) {
  return `${treeId}:${pair.parent}:${pair.chosenNode}:${pair.rejectedNode}`;
}

/** What a pair's stored row and its export record's `meta` both say about it (in the export's key order). */
function pairFacts(pair: DpoPair, meta: TrajectoryMeta) {
  return {
    treeId: meta.treeId,
    explorationId: meta.explorationId,
    taskId: meta.taskId,
    dataset: meta.dataset,
    surfaceId: meta.surfaceId,
    promptSurfaceId: meta.promptSurfaceId,
    model: meta.model,
    seed: meta.seed,
    parentNode: pair.parent,
    chosenNode: pair.chosenNode,
    rejectedNode: pair.rejectedNode,
  };
}

/**
 * The DPO export line of a pair (prompt over the P_c docs, ToolEVO §3.4), as stored; its `meta` also carries both
 * sides' Q and N (`chosen`, `rejected`), so a researcher can audit the preference.
 */
export function preferenceRecord(
  pair: DpoPair,
  question: string,
  meta: TrajectoryMeta,
): Record<string, unknown> {
  return {
    ...dpoRecord(pair, { question }, { docsSurface: PC_SURFACE }),
    meta: { ...pairFacts(pair, meta), ...(pair.values ?? {}) },
  };
}

function pairRow(
  pair: DpoPair,
  question: string,
  meta: TrajectoryMeta,
  now: number,
): typeof preferencePairs.$inferInsert {
  return {
    id: preferencePairId(meta.treeId, pair),
    ...pairFacts(pair, meta),
    record: preferenceRecord(pair, question, meta),
    createdAt: now,
  };
}

function row(t: Trajectory, now: number): typeof trajectories.$inferInsert {
  return {
    id: t.id,
    treeId: t.treeId,
    explorationId: t.explorationId,
    taskId: t.taskId,
    dataset: t.dataset,
    leafNode: t.leafNode,
    reward: t.reward,
    surfaceId: t.surfaceId,
    promptSurfaceId: t.promptSurfaceId,
    text: t.text,
    steps: t.steps,
    toolUpdates: t.toolUpdates,
    model: t.model,
    seed: t.seed,
    selected: false,
    createdAt: now,
  };
}

/**
 * Inserts `items` in statements of `perStatement` rows, all in one D1 batch; each statement returns the ids it
 * inserted (conflicts insert nothing), so the sum is how many rows are new.
 */
async function insertChunks<T>(
  db: Database,
  items: readonly T[],
  perStatement: number,
  insert: (chunk: T[]) => BatchItem<'sqlite'>,
): Promise<number> {
  if (items.length === 0) return 0;
  const statements: BatchItem<'sqlite'>[] = [];
  for (let i = 0; i < items.length; i += perStatement)
    statements.push(insert(items.slice(i, i + perStatement)));
  const results = (await db.batch(
    statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]],
  )) as unknown[][];
  return results.reduce((sum, r) => sum + r.length, 0);
}

export async function recordTrajectories(
  env: Pick<Bindings, 'DB'>,
  tree: SearchTree,
  meta: TrajectoryMeta,
  now = Date.now(),
): Promise<RecordResult> {
  const db = database(env.DB);
  const found = extractTrajectories(tree, meta);
  const inserted = await insertChunks(db, found, ROWS_PER_INSERT, (chunk) =>
    db
      .insert(trajectories)
      .values(chunk.map((t) => row(t, now)))
      .onConflictDoNothing({ target: [trajectories.treeId, trajectories.leafNode] })
      .returning({ id: trajectories.id }),
  );
  const { pairs, dropped, droppedRepeating } = dpoPairSet(tree);
  const pairsInserted = await insertChunks(db, pairs, PAIRS_PER_INSERT, (chunk) =>
    db
      .insert(preferencePairs)
      .values(chunk.map((p) => pairRow(p, tree.task.question, meta, now)))
      .onConflictDoNothing({ target: preferencePairs.id })
      .returning({ id: preferencePairs.id }),
  );
  const selected = await reselect(env, meta.explorationId, meta.taskId);
  return {
    found: found.length,
    inserted,
    selected,
    pairs: { found: pairs.length, inserted: pairsInserted, dropped, droppedRepeating },
  };
}

/** Recomputes `selected` for one task of one exploration; returns the chosen ids, sorted. */
export async function reselect(
  env: Pick<Bindings, 'DB'>,
  explorationId: string,
  taskId: string,
): Promise<string[]> {
  const db = database(env.DB);
  const scope = and(eq(trajectories.explorationId, explorationId), eq(trajectories.taskId, taskId));
  const rows = await db
    .select({
      id: trajectories.id,
      taskId: trajectories.taskId,
      reward: trajectories.reward,
      steps: trajectories.steps,
      selected: trajectories.selected,
    })
    .from(trajectories)
    .where(scope);
  const chosen = selectForTraining(rows, explorationId, TRAINING_PER_TASK);
  const ids = [...chosen].sort();
  const changed = rows.some((r) => r.selected !== chosen.has(r.id));
  if (changed) {
    await db.batch([
      db.update(trajectories).set({ selected: false }).where(scope),
      db
        .update(trajectories)
        .set({ selected: true })
        .where(and(scope, inArray(trajectories.id, ids.length > 0 ? ids : ['']))),
    ]);
  }
  return ids;
}

export type TrajectoryRow = typeof trajectories.$inferSelect;

export interface TrajectoryFilter {
  exploration?: string;
  task?: string;
  dataset?: TrajectoryRow['dataset'];
  surface?: string;
  /** `true`: correct Finish (reward +1); `false`: wrong Finish. */
  success?: 'true' | 'false';
  selected?: 'true' | 'false';
}

/** Trajectories newest first (without their text), by keyset on (created_at, id). */
export async function listTrajectories(
  env: Bindings,
  q: TrajectoryFilter,
  page: { limit: number; cursor?: string },
  owner?: Owner,
): Promise<Page<Omit<TrajectoryRow, 'text' | 'toolUpdates'>>> {
  return newestFirstPage({ time: trajectories.createdAt, id: trajectories.id }, page, (after, order, limit) =>
    database(env.DB)
      .select({
        id: trajectories.id,
        treeId: trajectories.treeId,
        explorationId: trajectories.explorationId,
        taskId: trajectories.taskId,
        dataset: trajectories.dataset,
        leafNode: trajectories.leafNode,
        reward: trajectories.reward,
        surfaceId: trajectories.surfaceId,
        promptSurfaceId: trajectories.promptSurfaceId,
        steps: trajectories.steps,
        model: trajectories.model,
        seed: trajectories.seed,
        selected: trajectories.selected,
        createdAt: trajectories.createdAt,
      })
      .from(trajectories)
      .where(
        and(
          q.exploration ? eq(trajectories.explorationId, q.exploration) : undefined,
          q.task ? eq(trajectories.taskId, q.task) : undefined,
          q.dataset ? eq(trajectories.dataset, q.dataset) : undefined,
          q.surface ? eq(trajectories.surfaceId, q.surface) : undefined,
          q.success === undefined
            ? undefined
            : q.success === 'true'
              ? gt(trajectories.reward, 0)
              : lte(trajectories.reward, 0),
          q.selected === undefined ? undefined : eq(trajectories.selected, q.selected === 'true'),
          ownExploration(trajectories.explorationId, owner),
          after,
        ),
      )
      .orderBy(...order)
      .limit(limit),
  );
}

/** One trajectory with its task's question (null when the task is gone). */
export async function getTrajectory(
  env: Bindings,
  id: string,
  owner?: Owner,
): Promise<{ t: TrajectoryRow; question: string | null } | null> {
  const [row] = await database(env.DB)
    .select({ t: trajectories, question: tasks.question })
    .from(trajectories)
    .leftJoin(tasks, eq(tasks.id, trajectories.taskId))
    .where(and(eq(trajectories.id, id), ownExploration(trajectories.explorationId, owner)))
    .limit(1);
  return row ?? null;
}

/** What the training exports filter on. */
export interface ExportFilter {
  exploration?: string;
  surface?: string;
  dataset?: TrajectoryRow['dataset'];
  /** Only what this owner's explorations produced (everything for admins). */
  owner?: Owner;
}

function filterWhere(f: ExportFilter, table: typeof trajectories | typeof preferencePairs) {
  return and(
    f.exploration ? eq(table.explorationId, f.exploration) : undefined,
    f.surface ? eq(table.surfaceId, f.surface) : undefined,
    f.dataset ? eq(table.dataset, f.dataset) : undefined,
    ownExploration(table.explorationId, f.owner),
  );
}

/**
 * Whether an export filter's exploration id names something the owner may read: an exploration row it can see,
 * or — for trajectories and pairs recorded without an exploration row — any trajectory or DPO pair of that id
 * that is not owned through another key's exploration. Another key's exploration is unknown (a 404, as
 * everywhere ownership applies).
 */
export async function explorationKnown(
  env: Pick<Bindings, 'DB'>,
  id: string,
  owner?: Owner,
): Promise<boolean> {
  const db = database(env.DB);
  const parent = { table: explorations, id: explorations.id, ownerId: explorations.ownerId };
  const [row, trajectory, pair] = await db.batch([
    db
      .select({ id: explorations.id, visible: visibleToSql(explorations.ownerId, owner) })
      .from(explorations)
      .where(eq(explorations.id, id))
      .limit(1),
    db
      .select({ id: trajectories.id })
      .from(trajectories)
      .where(
        and(eq(trajectories.explorationId, id), visibleThrough(trajectories.explorationId, parent, owner)),
      )
      .limit(1),
    db
      .select({ id: preferencePairs.id })
      .from(preferencePairs)
      .where(
        and(
          eq(preferencePairs.explorationId, id),
          visibleThrough(preferencePairs.explorationId, parent, owner),
        ),
      )
      .limit(1),
  ]);
  if (row[0]) return Boolean(row[0].visible);
  return trajectory.length + pair.length > 0;
}

/** One exploration's task: the unit a selection rule chooses in (core/search/trajectories.ts). */
export interface TaskGroup {
  explorationId: string;
  taskId: string;
}

/** The successful trajectories of `groups` (at most 40: two bound parameters each), with their question. */
export async function successesOf(env: Bindings, f: ExportFilter, groups: readonly TaskGroup[]) {
  if (groups.length === 0) return [];
  return database(env.DB)
    .select({ t: trajectories, question: tasks.question })
    .from(trajectories)
    .innerJoin(tasks, eq(tasks.id, trajectories.taskId))
    .where(
      and(
        successWhere(f),
        or(
          ...groups.map((g) =>
            and(eq(trajectories.explorationId, g.explorationId), eq(trajectories.taskId, g.taskId)),
          ),
        ),
      ),
    )
    .orderBy(asc(trajectories.id));
}

/** A task group with the number of SFT records a selection rule makes of it. */
export interface SizedTaskGroup extends TaskGroup {
  records: number;
}

/**
 * The records a rule makes of a task group, in SQL: `repeat-free` (the default) keeps the stored choice (the
 * `selected` flags, `reselect`, computed with that rule and the same seed); `clean` and `uniform` keep any success,
 * so up to TRAINING_PER_TASK of them.
 */
function recordsOfGroup(rule: SelectionRule) {
  return rule === 'repeat-free'
    ? sql<number>`sum(case when ${trajectories.selected} then 1 else 0 end)`
    : sql<number>`min(count(*), ${TRAINING_PER_TASK})`;
}

function successWhere(f: ExportFilter) {
  return and(filterWhere(f, trajectories), eq(trajectories.reward, 1));
}

/**
 * The SFT export's size in records under `rule`, and the task groups from `from` on (inclusive, in (exploration,
 * task) order) that make at least one record, with their record counts: at most `limit` groups. The exports route
 * cuts its page of records out of these (a group makes at most 4, so `limit` + 1 groups cover a page of `limit`).
 */
export async function sftExportWindow(
  env: Bindings,
  f: ExportFilter,
  rule: SelectionRule,
  from: TaskGroup | null,
  limit: number,
): Promise<{ total: number; groups: SizedTaskGroup[] }> {
  const db = database(env.DB);
  const records = recordsOfGroup(rule);
  const perGroup = db
    .select({ records: records.as('records') })
    .from(trajectories)
    .where(successWhere(f))
    .groupBy(trajectories.explorationId, trajectories.taskId)
    .as('per_group');
  const [counted, groups] = await db.batch([
    db.select({ n: sql<number>`coalesce(sum(${perGroup.records}), 0)` }).from(perGroup),
    db
      .select({ explorationId: trajectories.explorationId, taskId: trajectories.taskId, records })
      .from(trajectories)
      .where(
        and(
          successWhere(f),
          from
            ? or(
                gt(trajectories.explorationId, from.explorationId),
                and(
                  eq(trajectories.explorationId, from.explorationId),
                  gte(trajectories.taskId, from.taskId),
                ),
              )
            : undefined,
        ),
      )
      .groupBy(trajectories.explorationId, trajectories.taskId)
      .having(sql`${records} > 0`)
      .orderBy(asc(trajectories.explorationId), asc(trajectories.taskId))
      .limit(limit),
  ]);
  return {
    total: Number(counted[0]?.n ?? 0),
    groups: groups.map((g) => ({ ...g, records: Number(g.records) })),
  };
}

/** The DPO export's size and the window of its page after `after` (`exportWindow`). */
export function preferencePairWindow(env: Bindings, f: ExportFilter, after: string, limit: number) {
  return exportWindow(
    database(env.DB),
    preferencePairs,
    preferencePairs.id,
    filterWhere(f, preferencePairs),
    after,
    limit,
  );
}

/** Stored DPO pairs (their export records) in id order after `after`. */
export async function preferencePairsAfter(
  env: Bindings,
  f: ExportFilter,
  after: string,
  limit: number,
  upTo?: string,
) {
  return database(env.DB)
    .select({ id: preferencePairs.id, record: preferencePairs.record })
    .from(preferencePairs)
    .where(
      and(
        filterWhere(f, preferencePairs),
        gt(preferencePairs.id, after),
        upTo === undefined ? undefined : lte(preferencePairs.id, upTo),
      ),
    )
    .orderBy(asc(preferencePairs.id))
    .limit(limit);
}
