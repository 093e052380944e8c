/**
 * Trajectories in D1: the root→Finish paths of a finished search tree (core/search/trajectories.ts), written
 * once per (tree, leaf node) — a redelivered queue message or a retried tree inserts nothing new — and the
 * seeded choice of at most 4 successes per task for SFT, recomputed over every trajectory the exploration holds
 * for that task each time a tree of it is recorded.
 *
 * The selection seed is the exploration id, so the choice is the same whichever order the task's trees finish in.
 */
import { and, eq, inArray } from 'drizzle-orm';
import {
  extractTrajectories,
  selectForTraining,
  type Trajectory,
  type TrajectoryMeta,
} from '../core/search/trajectories.ts';
import type { SearchTree } from '../core/search/tree.ts';
import { database } from '../db/client.ts';
import { trajectories } from '../db/schema.ts';
import type { Bindings } from './env.ts';

/** Successful trajectories per task kept for SFT (ToolEVO §3.4). */
export const TRAINING_PER_TASK = 4;

/** D1 binds at most 100 parameters per statement; a trajectory row binds 16. */
const ROWS_PER_INSERT = Math.floor(100 / 16);

export interface RecordResult {
  /** Trajectories in the tree (root→Finish paths). */
  found: number;
  /** Rows actually inserted (0 when the tree was recorded before). */
  inserted: number;
  /** Ids selected for training for this task after the update. */
  selected: string[];
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
  const selected = await reselect(env, meta.explorationId, meta.taskId);
  return { found: found.length, inserted, selected };
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
