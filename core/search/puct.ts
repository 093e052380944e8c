/**
 * Selection by PUCT (ToolEVO eq. 2) and prior normalisation.
 *
 * Eq. 2:  a* = argmax_a  Q(s,a) + c_puct · P(s,a) · √N(s) / (1 + N(s,a))
 * with Q(s,a) = W(s,a) / N(s,a) (0 when N(s,a) = 0). As in ToolQA-D's search code, N(s) is taken as the sum of the
 * children's visit counts Σ_b N(s,b) (spec §8.2), not the parent's own counter.
 *
 * Selection walks from the root (spec §8.2): at a node that is non-terminal and has children — if all children
 * have N = 0 it stops there (their values come from cached rollouts, mcts.ts); otherwise it moves to the
 * non-terminal child with the highest score, ties broken uniformly by the iteration's seeded stream; if every
 * child is terminal the node itself becomes terminal (`exhausted`) and selection stops.
 *
 * Priors (`priors` in config.ts):
 * - `raw` (default, the original, spec §8.2): P(child) = exp(mean token log-prob) of its candidate text — the raw
 *   geometric-mean token probability, not normalised; of duplicate texts the first is kept with its own prior.
 *   Without log-probabilities every candidate gets P = 1 (the original always had them; tooldrift's choice).
 * - `normalised` (tooldrift's variant): the same probabilities added up per distinct text and normalised over the
 *   siblings so that they sum to 1; uniform without log-probabilities. With 5 confident candidates this shrinks
 *   the exploration term about 4.5× against `raw`.
 *
 * Deliberate differences from ToolQA-D:
 * - Ties are broken by the seeded stream rather than Python's global `random`.
 */
import type { Candidate } from '../models/types.ts';
import { candidateProbability } from '../models/types.ts';
import type { Rng } from '../util/random.ts';
import type { PriorMode } from './config.ts';
import { node, q, type SearchNode, type SearchTree } from './tree.ts';

export function puctScore(child: SearchNode<unknown>, parentVisits: number, cPuct: number): number {
  return q(child) + (cPuct * child.prior * Math.sqrt(parentVisits)) / (1 + child.visits);
}

/** Raw priors (the original): each distinct text once, the first occurrence's probability (1 without one). */
export function rawPriors(candidates: readonly { text: string; candidate: Candidate }[]): {
  text: string;
  prior: number;
}[] {
  const seen = new Set<string>();
  const out: { text: string; prior: number }[] = [];
  for (const c of candidates) {
    if (seen.has(c.text)) continue;
    seen.add(c.text);
    out.push({ text: c.text, prior: candidateProbability(c.candidate) ?? 1 });
  }
  return out;
}

/** The priors of a family of candidates under `mode`. */
export function candidatePriors(
  candidates: readonly { text: string; candidate: Candidate }[],
  mode: PriorMode,
): { text: string; prior: number }[] {
  return mode === 'raw' ? rawPriors(candidates) : mergedPriors(candidates);
}

/**
 * Prior weights of candidates merged by text: the probability of each candidate (1 for every candidate when the
 * provider gave no log-probabilities for any of them), added up per distinct text, then normalised.
 */
export function mergedPriors(candidates: readonly { text: string; candidate: Candidate }[]): {
  text: string;
  prior: number;
}[] {
  const probs = candidates.map((c) => candidateProbability(c.candidate));
  const uniform = probs.every((p) => p === null);
  const weights = new Map<string, number>();
  candidates.forEach((c, i) => {
    const w = uniform ? 1 : (probs[i] ?? 0);
    weights.set(c.text, (weights.get(c.text) ?? 0) + w);
  });
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  return [...weights].map(([text, w]) => ({
    text,
    prior: total > 0 ? w / total : 1 / weights.size,
  }));
}

/** The child of `parent` that eq. 2 selects, or null when every child is terminal. */
export function selectChild<S>(tree: SearchTree<S>, parent: SearchNode<S>, rng: Rng): SearchNode<S> | null {
  const children = parent.children.map((id) => node(tree, id));
  const parentVisits = children.reduce((s, c) => s + c.visits, 0);
  let best: SearchNode<S>[] = [];
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const child of children) {
    if (child.terminal) continue;
    const score = puctScore(child, parentVisits, tree.config.cPuct);
    if (score > bestScore) {
      bestScore = score;
      best = [child];
    } else if (score === bestScore) best.push(child);
  }
  if (best.length === 0) return null;
  return best.length === 1 ? (best[0] as SearchNode<S>) : rng.pick(best);
}

export type Selection =
  /** A node without children: expand it. */
  | { kind: 'leaf'; id: number }
  /** A node whose children all have N = 0 (a cached rollout's): evaluate each of them. */
  | { kind: 'cached'; id: number }
  /** A terminal node: the iteration does nothing. */
  | { kind: 'terminal'; id: number };

/**
 * Walks down from the root (see the module header). `markTerminal` is called for a node whose children are all
 * terminal, before it is reported.
 */
export function select<S>(
  tree: SearchTree<S>,
  rng: Rng,
  markTerminal: (n: SearchNode<S>) => void,
): Selection {
  let current = node(tree, 0);
  for (;;) {
    if (current.terminal) return { kind: 'terminal', id: current.id };
    if (current.children.length === 0) return { kind: 'leaf', id: current.id };
    if (current.children.every((id) => node(tree, id).visits === 0))
      return { kind: 'cached', id: current.id };
    const next = selectChild(tree, current, rng);
    if (next === null) {
      markTerminal(current);
      return { kind: 'terminal', id: current.id };
    }
    current = next;
  }
}
