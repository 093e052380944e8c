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
import { and, eq, inArray } from 'drizzle-orm';
import {
  type DpoPair,
  dpoPairSet,
  dpoRecord,
  extractTrajectories,
  selectForTraining,
  type Trajectory,
  type TrajectoryMeta,
} from '../core/search/trajectories.ts';
import type { SearchTree } from '../core/search/tree.ts';
import { PC_SURFACE } from '../core/surfaces/builtin.ts';
import { database } from '../db/client.ts';
import { preferencePairs, trajectories } from '../db/schema.ts';
import type { Bindings } from './env.ts';

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
  /** DPO pairs of the whole tree, and the rows actually inserted (0 when the tree was recorded before). */
  /** `dropped`: candidate pairs left out because both sides made the same call (differing only in Thought). */
  pairs: { found: number; inserted: number; dropped: number };
}

export function preferencePairId(
  treeId: string,
  pair: Pick<DpoPair, 'parent' | 'chosenNode' | 'rejectedNode'>,
) {
  return `${treeId}:${pair.parent}:${pair.chosenNode}:${pair.rejectedNode}`;
}

/** The DPO export line of a pair (prompt over the P_c docs, ToolEVO §3.4), as stored. */
export function preferenceRecord(
  pair: DpoPair,
  question: string,
  meta: TrajectoryMeta,
): Record<string, unknown> {
  return {
    ...dpoRecord(pair, { question }, { docsSurface: PC_SURFACE }),
    meta: {
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
    },
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
    treeId: meta.treeId,
    explorationId: meta.explorationId,
    taskId: meta.taskId,
    dataset: meta.dataset,
    surfaceId: meta.surfaceId,
    promptSurfaceId: meta.promptSurfaceId,
    parentNode: pair.parent,
    chosenNode: pair.chosenNode,
    rejectedNode: pair.rejectedNode,
    record: preferenceRecord(pair, question, meta),
    model: meta.model,
    seed: meta.seed,
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

export async function recordTrajectories(
  env: Pick<Bindings, 'DB'>,
  tree: SearchTree,
  meta: TrajectoryMeta,
  now = Date.now(),
): Promise<RecordResult> {
  const db = database(env.DB);
  const found = extractTrajectories(tree, meta);
  let inserted = 0;
  if (found.length > 0) {
    const statements = [];
    for (let i = 0; i < found.length; i += ROWS_PER_INSERT) {
      statements.push(
        db
          .insert(trajectories)
          .values(found.slice(i, i + ROWS_PER_INSERT).map((t) => row(t, now)))
          .onConflictDoNothing({ target: [trajectories.treeId, trajectories.leafNode] })
          .returning({ id: trajectories.id }),
      );
    }
    const results = await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
    inserted = results.reduce((sum, r) => sum + r.length, 0);
  }
  const { pairs, dropped } = dpoPairSet(tree);
  let pairsInserted = 0;
  if (pairs.length > 0) {
    const statements = [];
    for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT) {
      statements.push(
        db
          .insert(preferencePairs)
          .values(pairs.slice(i, i + PAIRS_PER_INSERT).map((p) => pairRow(p, tree.task.question, meta, now)))
          .onConflictDoNothing({ target: preferencePairs.id })
          .returning({ id: preferencePairs.id }),
      );
    }
    const results = await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
    pairsInserted = results.reduce((sum, r) => sum + r.length, 0);
  }
  const selected = await reselect(env, meta.explorationId, meta.taskId);
  return {
    found: found.length,
    inserted,
    selected,
    pairs: { found: pairs.length, inserted: pairsInserted, dropped },
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
