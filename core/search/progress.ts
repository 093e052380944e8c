/**
 * Progress decisions of a search and of an exploration, independent of where they are stored (the tree's
 * Durable Object and the D1 rows are edge/ and durable-objects/):
 * - a tree's best terminal reward so far and whether it is solved: ToolEvo's reward is +1 for a correct Finish
 *   and −1 for every other terminal (spec §8.2, core/search/rollout.ts), so a tree is solved once a Finish node
 *   holds reward +1;
 * - an exploration is complete once none of its trees is queued or running (succeeded, failed and cancelled
 *   trees all count as settled).
 */
import type { SearchNode } from './tree.ts';

export interface RewardProgress {
  /** The best terminal reward found so far, null before any terminal node. */
  bestReward: number | null;
  /** A Finish with reward +1 exists. */
  solved: boolean;
}

export function rewardProgress(nodes: readonly Pick<SearchNode, 'reward' | 'ending'>[]): RewardProgress {
  let bestReward: number | null = null;
  let solved = false;
  for (const n of nodes) {
    if (n.reward !== null && (bestReward === null || n.reward > bestReward)) bestReward = n.reward;
    if (n.ending === 'finish' && n.reward === 1) solved = true;
  }
  return { bestReward, solved };
}

export type TreeRunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** True once no tree of the exploration is left to run (given how many trees are in each status). */
export function explorationComplete(counts: Partial<Record<TreeRunStatus, number>>): boolean {
  return (counts.queued ?? 0) + (counts.running ?? 0) === 0;
}
