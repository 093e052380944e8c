/**
 * Which path of a finished search gives its answer.
 *
 * - `visits` (default, no gold): the Finish node with the most visits N, ties by the higher Q = W / N, then the
 *   earlier node; without any Finish, the end of the most visited path. This is what a deployed search can do:
 *   it looks only at the tree's statistics, never at the environment's CORRECT/WRONG verdicts on its own.
 *   (The Finish's Q still comes from rewards judged against gold during the search — the MCTS of ToolEvo's data
 *   collection — so a search that was told the gold answer is not an unguided pass either; see the README.)
 * - `oracle`: the first Finish judged correct against gold when the search found one, else the `visits` rule.
 *   Every success rate measured this way is an upper bound (the `mcts-oracle` evaluation method).
 *
 * Deliberate differences from ToolQA-D:
 * - The original has no answer-selection rule: MCTS collected training data and every Finish was judged against
 *   gold (spec §8.3, "correctness = reward of the Finish node"); evaluation used the fine-tuned model greedily.
 *   Both rules here are tooldrift's, for evaluating a search directly. Because Finish rewards come from gold
 *   during the search, a Finish node's Q is its verdict and its N is at most 1 (terminal nodes are visited once),
 *   so ties by Q favour a correct Finish among equally visited ones: the `visits` rule is not gold-free either;
 *   it only stops reading the verdicts directly.
 */
import { mostVisitedPath } from './mcts.ts';
import { q, type SearchNode, type SearchTree, solutions } from './tree.ts';

export const ANSWER_RULES = ['visits', 'oracle'] as const;
export type AnswerRule = (typeof ANSWER_RULES)[number];

/** The Finish node with the most visits, ties by Q, then by creation order; null without a Finish. */
export function mostVisitedFinish<S>(tree: SearchTree<S>): number | null {
  let best: SearchNode<S> | null = null;
  for (const n of tree.nodes) {
    if (n.ending !== 'finish') continue;
    if (best === null || n.visits > best.visits || (n.visits === best.visits && q(n) > q(best))) best = n;
  }
  return best?.id ?? null;
}

/** The node whose path is the answer, or null when the tree has no node besides the root. */
export function answerLeaf<S>(tree: SearchTree<S>, rule: AnswerRule = 'visits'): number | null {
  if (rule === 'oracle') {
    const correct = solutions(tree)[0];
    if (correct !== undefined) return correct;
  }
  const finish = mostVisitedFinish(tree);
  if (finish !== null) return finish;
  return mostVisitedPath(tree).at(-1) ?? null;
}
