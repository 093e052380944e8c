/**
 * Simulation from a new child to a terminal state (ToolEVO Appendix A.3, spec §8.2 "Rollout"): at each state
 * without children, generate its k children (executed, not rolled out or back-propagated on their own), then move
 * to a uniformly random child, until a terminal state; the value is that state's reward.
 *
 * Cached rollout: the states the rollout creates stay in the tree with N = 0. Selection never descends into them
 * (it stops at a node whose children all have N = 0), and when such a state is later evaluated its cached
 * children are walked again — no model call is repeated for a cached state. With `cachedRollout` off, the rollout's
 * states are scratch values dropped afterwards, so expanding the same state later calls the model again.
 *
 * A state that yields no child or an empty generation becomes terminal (`no-child` / `empty`, −1) when it is in
 * the tree; a scratch state just ends the rollout with −1. Either way the rollout's value is −1, back-propagated
 * from the evaluated child (spec §8.2).
 */
import type { Rng } from '../util/random.ts';
import type { EnvState } from '../world/kernel/state.ts';
import { expandState, type PathStep, type SearchEnv } from './expand.ts';
import type { Journal } from './journal.ts';
import { node, pathTo, type SearchNode, type SearchTree } from './tree.ts';

export interface IterationContext<S = EnvState> {
  tree: SearchTree<S>;
  env: SearchEnv<S>;
  journal: Journal<S>;
  rng: Rng;
}

export function pathSteps<S>(tree: SearchTree<S>, id: number): PathStep[] {
  return pathTo(tree, id).map((i) => {
    const n = node(tree, i);
    return { text: n.text, observation: n.observation, outcome: n.outcome };
  });
}

/** Makes a tree state terminal with −1 (`no-child`, `empty` or `budget`). */
export function markFailed<S>(
  ctx: IterationContext<S>,
  n: SearchNode<S>,
  ending: 'no-child' | 'empty' | 'budget',
): void {
  ctx.journal.touch(n);
  n.expanded = true;
  n.terminal = true;
  n.reward = -1;
  n.ending = ending;
}

/** Expands a tree state and attaches its children; false when it became terminal instead. */
export async function expandInTree<S>(ctx: IterationContext<S>, n: SearchNode<S>): Promise<boolean> {
  const exp = await expandState(ctx.tree, ctx.env, n, pathSteps(ctx.tree, n.id), `node/${n.id}`);
  if (exp.kind === 'fail') {
    markFailed(ctx, n, exp.ending);
    return false;
  }
  ctx.journal.touch(n);
  n.expanded = true;
  for (const draft of exp.drafts) {
    const id = ctx.tree.nodes.length;
    ctx.tree.nodes.push({ ...draft, id, parent: n.id, children: [] });
    n.children.push(id);
  }
  return true;
}

/** The value of a tree state: its reward when it has one, else a rollout from it. */
export async function evaluate<S>(ctx: IterationContext<S>, id: number): Promise<number> {
  const start = node(ctx.tree, id);
  if (start.reward !== null) return start.reward;
  return ctx.tree.config.cachedRollout ? cachedRollout(ctx, start) : scratchRollout(ctx, start);
}

async function cachedRollout<S>(ctx: IterationContext<S>, start: SearchNode<S>): Promise<number> {
  let current = start;
  for (;;) {
    if (current.reward !== null) return current.reward;
    if (current.children.length === 0 && !(await expandInTree(ctx, current))) return -1;
    current = node(ctx.tree, ctx.rng.pick(current.children));
  }
}

async function scratchRollout<S>(ctx: IterationContext<S>, start: SearchNode<S>): Promise<number> {
  let current = start;
  // Children the tree already holds are walked as in a cached rollout.
  while (current.children.length > 0) {
    current = node(ctx.tree, ctx.rng.pick(current.children));
    if (current.reward !== null) return current.reward;
  }
  const steps = pathSteps(ctx.tree, current.id);
  let scratch: Omit<SearchNode<S>, 'id' | 'parent' | 'children'> = current;
  for (let j = 0; ; j++) {
    const key = `scratch/${ctx.tree.iteration}/${start.id}/${j}`;
    const exp = await expandState(
      ctx.tree,
      ctx.env,
      { ...scratch, id: -1, parent: null, children: [] },
      steps,
      key,
    );
    if (exp.kind === 'fail') {
      if (j === 0) markFailed(ctx, current, exp.ending);
      return -1;
    }
    scratch = ctx.rng.pick(exp.drafts);
    if (scratch.reward !== null) return scratch.reward;
    steps.push({ text: scratch.text, observation: scratch.observation, outcome: scratch.outcome });
  }
}
