/**
 * Which path of a finished search gives its answer. With a task, the environment judges every Finish (its
 * observation says CORRECT/WRONG, as in ToolQA-D's search), so the answer is that of the first correct Finish
 * when the search found one; otherwise — and always for a free question — the Finish at the end of the most
 * visited path, else the first Finish of the tree, else the end of the most visited path (no Finish at all).
 * Because the reward comes from the gold answer, an MCTS answer measures what the search can find with the
 * environment's feedback (ToolEvo's data collection), not what one unguided pass would answer.
 */
import { summarizeSearch } from './mcts.ts';
import { node, type SearchTree, solutions } from './tree.ts';

/** The node whose path is the answer, or null when the tree has no node besides the root. */
export function answerLeaf(tree: SearchTree): number | null {
  const correct = solutions(tree)[0];
  if (correct !== undefined) return correct;
  const best = summarizeSearch(tree).bestPath.at(-1);
  if (best !== undefined && node(tree, best).ending === 'finish') return best;
  return tree.nodes.find((n) => n.ending === 'finish')?.id ?? best ?? null;
}
