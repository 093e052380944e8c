/**
 * Which tasks an evaluation runs, and how the runs are grouped for the queue. Each (dataset, difficulty) cell
 * draws `sampleSize` tasks of the split with a seeded sample over the task ids in sorted order, so the same
 * suite and seed on the same world always pick the same tasks, and every method and surface runs those same
 * tasks. A group — one queue job — is one method × surface × cell; its tasks run in task-id order (the order
 * `greedy-memory` carries its memory in).
 */
import { getMethod, suiteMethodOptions } from '../methods/registry.ts';
import { Rng } from '../util/random.ts';
import type { Difficulty, EvalMethod, EvalSuite } from './suite.ts';
import { suiteColumns } from './suite.ts';

export interface EvalGroup {
  method: EvalMethod;
  surface: string;
  dataset: string;
  difficulty: Difficulty;
  taskIds: string[];
}

/** A seeded sample of `n` ids (all of them when there are fewer), returned in sorted order. */
export function sampleTaskIds(ids: readonly string[], n: number, seed: string, cell: string): string[] {
  const sorted = [...ids].sort();
  if (sorted.length <= n) return sorted;
  return new Rng(`eval-sample/${seed}/${cell}`).sample(sorted, n).sort();
}

/**
 * The groups of a suite, given the candidate task ids of each cell (`candidates(dataset, difficulty)`).
 * Groups come method by method, surface by surface, in column order.
 */
export function planGroups(
  suite: EvalSuite,
  candidates: (dataset: string, difficulty: Difficulty) => readonly string[],
): EvalGroup[] {
  const cells = suiteColumns(suite).map((col) => ({
    ...col,
    taskIds: sampleTaskIds(
      candidates(col.dataset, col.difficulty),
      suite.sampleSize === 'all' ? Number.POSITIVE_INFINITY : suite.sampleSize,
      suite.seed,
      `${col.dataset}/${col.difficulty}/${suite.split}`,
    ),
  }));
  const groups: EvalGroup[] = [];
  for (const method of suite.methods)
    for (const surface of suite.surfaces)
      for (const cell of cells) if (cell.taskIds.length > 0) groups.push({ method, surface, ...cell });
  return groups;
}

export function groupKey(g: Pick<EvalGroup, 'method' | 'surface' | 'dataset' | 'difficulty'>): string {
  return `${g.method}/${g.surface}/${g.dataset}/${g.difficulty}`;
}

/**
 * The most model calls the planned task runs make: each group's runs times its method's bound for one run with the
 * suite's options and step limit (core/methods `modelCalls`). What a quota check counts before an evaluation
 * starts (edge/metering.ts).
 */
export function planModelCalls(suite: EvalSuite, groups: readonly EvalGroup[]): number {
  let calls = 0;
  for (const g of groups) {
    const method = getMethod(g.method);
    calls +=
      g.taskIds.length * method.modelCalls(suiteMethodOptions(suite, method), { maxSteps: suite.maxSteps });
  }
  return calls;
}
