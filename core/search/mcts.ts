/**
 * ToolEvo's Monte Carlo tree search over a drifting tool surface (ToolEVO Algorithm 1, spec §8.2), in resumable
 * chunks. It does not know its backend: candidates are stepped by the environment's target (core/sessions/
 * targets.ts) — the kernel surface over the world (`searchEnv`) or an imported API's session (`targetSearchEnv`,
 * the tree rooted at `target.fresh()`), see expand.ts. One iteration: select by PUCT (puct.ts, eq. 2) → expand the selected leaf with k candidates
 * (expand.ts; reflection prompt on error states, eq. 5) or, at a node whose children all come from a cached
 * rollout, take those children → evaluate every new child (its reward, or a rollout to a terminal state,
 * rollout.ts) → back-propagate each child's value to the root (eq. 4).
 *
 * Which new children are evaluated (`rollout`, config.ts): every one by default, as the authors' code does;
 * Algorithm 1 itself simulates from one new child chosen uniformly at random (`rollout: 'one'`, drawn from the
 * iteration's stream), leaving its siblings at N = 0 for selection to reach later.
 *
 * Eq. 4 (back-propagation, no discount): for the evaluated child c and each ancestor s of c up to the root,
 *   N(s) ← N(s) + 1,   W(s) ← W(s) + v,   Q(s) = W(s) / N(s).
 * Nodes below c on the rollout path are not updated (they stay at N = 0, cached).
 *
 * Resumability: the tree (tree.ts) is the whole state. Iteration i draws its random choices from a stream seeded
 * by (config.seed, i) and every model call is seeded by the expanded state's id, so a tree saved after any
 * iteration and searched further gives exactly the tree of an uninterrupted search. An iteration is atomic: if it
 * throws (provider error, abort) the journal restores the tree as it was before it, so a chunk that fails or an
 * object evicted mid-iteration (reloading its last saved tree) neither loses nor duplicates nodes. Chunk limits
 * (iterations, model calls, a deadline) are checked between iterations only.
 *
 * The search ends after M simulations, when the root is exhausted (every path terminal), when the per-tree
 * model-call or token budget is spent, or — in greedy mode — when its single path is terminal.
 *
 * A leaf whose expansion yields an empty generation (spec §8.2: any empty sample, or a prompt over the word limit)
 * or no child becomes terminal with −1, and that −1 is back-propagated from it — as in the original, where the
 * empty node's −1 reward is the value the iteration back-propagates.
 *
 * Deliberate differences from ToolQA-D:
 * - By default every new child is rolled out, as the authors' code does; ToolEVO's Algorithm 1 (one random new
 *   child) is `rollout: 'one'`.
 * - A search may carry a model-call or token budget (off by default, set by evaluation suites that ask for one):
 *   running out makes the state being expanded terminal (`budget`, −1) and ends the search.
 * - Greedy mode (k = 1, temperature 0, one iteration) is a single path through the same machinery, for baselines.
 */

import type { TextModel } from '../models/types.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import { type ApiPromptDocs, withoutUpdateTool } from '../prompts/toolevo.ts';
import { kernelTarget, type ToolTarget } from '../sessions/targets.ts';
import { PC_SURFACE } from '../surfaces/builtin.ts';
import type { Surface } from '../surfaces/model.ts';
import { Rng } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import { createKernelDeps } from '../world/kernel-deps.ts';
import type { World } from '../world/types.ts';
import { resolveSearchConfig, type SearchConfigInput } from './config.ts';
import { budgetSpent, type SearchEnv } from './expand.ts';
import { Journal } from './journal.ts';
import { select } from './puct.ts';
import { evaluate, expandInTree, type IterationContext } from './rollout.ts';
import {
  createTree,
  ENDING_MARKERS,
  node,
  ROOT,
  type SearchNode,
  type SearchTask,
  type SearchTree,
  solutions,
} from './tree.ts';

export function createSearch(task: SearchTask, config?: SearchConfigInput): SearchTree;
/** A search whose root is `root` (an API target's fresh session: `target.fresh()`). */
export function createSearch<S>(task: SearchTask, config: SearchConfigInput, root: S): SearchTree<S>;
export function createSearch(
  task: SearchTask,
  config: SearchConfigInput = {},
  root?: unknown,
): SearchTree<unknown> {
  const resolved = resolveSearchConfig(config);
  return root === undefined ? createTree(task, resolved) : createTree(task, resolved, root);
}

export interface SearchEnvInput {
  model: TextModel;
  world: World;
  surface: Surface;
  /** Default P_c (ToolQA-D shows P_c's documentation under every server surface). */
  docs?: Surface;
  /** Default: the Python sandbox, no SQL mirror, Finish judged against the task's gold. */
  deps?: KernelDeps;
  /** STE demonstrations for the task's question. */
  demonstrations?: readonly SteDemonstration[];
  /** The documentation of a state's next step from its path, instead of `docs` (the toolPool aid). */
  docsFor?: SearchEnv['docsFor'];
  now?: Date;
  signal?: AbortSignal;
}

/** The environment of a ToolQA-D search: the kernel surface over the world as its target. */
export function searchEnv(tree: SearchTree, input: SearchEnvInput): SearchEnv {
  const target = kernelTarget({
    world: input.world,
    // Table 5's "w/o tool update": the server offers no UpdateTool either (expand.ts).
    surface: tree.config.toolUpdate ? input.surface : withoutUpdateTool(input.surface),
    deps: input.deps ?? createKernelDeps({ gold: tree.task.gold }),
    ...(input.now ? { now: input.now } : {}),
  });
  return withExtras({ model: input.model, target, docs: input.docs ?? PC_SURFACE }, input);
}

export interface ApiSearchEnvInput<S> {
  model: TextModel;
  /** The API's target with the query and its gold (`apiTarget`): it steps and judges every candidate. */
  target: ToolTarget<S>;
  /** The documentation the prompt shows (default: the target's own tool list). */
  docs?: ApiPromptDocs;
  demonstrations?: readonly SteDemonstration[];
  docsFor?: SearchEnv<S>['docsFor'];
  now?: Date;
  signal?: AbortSignal;
}

/**
 * The environment of a search over any backend's target (an imported API's: `apiTarget`). The tree must start
 * from the target's fresh environment (`createSearch(task, config, target.fresh())`). An API has no UpdateTool,
 * so Table 5's "w/o tool update" changes nothing on the server side.
 */
export function targetSearchEnv<S>(input: ApiSearchEnvInput<S>): SearchEnv<S> {
  return withExtras(
    {
      model: input.model,
      target: input.target,
      docs: input.docs ?? { kind: 'api', toolList: input.target.toolList() },
    },
    input,
  );
}

function withExtras<S>(
  env: SearchEnv<S>,
  input: Pick<SearchEnvInput, 'demonstrations' | 'now' | 'signal'> & { docsFor?: SearchEnv<S>['docsFor'] },
): SearchEnv<S> {
  if (input.demonstrations && input.demonstrations.length > 0) env.demonstrations = input.demonstrations;
  if (input.docsFor) env.docsFor = input.docsFor;
  if (input.now) env.now = input.now;
  if (input.signal) env.signal = input.signal;
  return env;
}

/** Eq. 4 from `id` up to the root. */
export function backpropagate<S>(ctx: IterationContext<S>, id: number, v: number): void {
  for (
    let n: SearchNode<S> | null = node(ctx.tree, id);
    n;
    n = n.parent === null ? null : node(ctx.tree, n.parent)
  ) {
    ctx.journal.touch(n);
    n.visits += 1;
    n.value += v;
  }
}

/** Evaluates and back-propagates the new children of `parent`: all of them, or one at random (`rollout`). */
async function evaluateChildren<S>(ctx: IterationContext<S>, parent: SearchNode<S>): Promise<void> {
  const ids = ctx.tree.config.rollout === 'one' ? [ctx.rng.pick(parent.children)] : parent.children;
  for (const id of ids) backpropagate(ctx, id, await evaluate(ctx, id));
}

async function iterate<S>(tree: SearchTree<S>, env: SearchEnv<S>, journal: Journal<S>): Promise<void> {
  const ctx: IterationContext<S> = {
    tree,
    env,
    journal,
    rng: new Rng(`${tree.config.seed}/iteration/${tree.iteration}`),
  };
  const selection = select(tree, ctx.rng, (n) => {
    journal.touch(n);
    n.terminal = true;
    n.ending = 'exhausted';
  });
  if (selection.kind === 'leaf') {
    const leaf = node(tree, selection.id);
    if (await expandInTree(ctx, leaf)) await evaluateChildren(ctx, leaf);
    else backpropagate(ctx, leaf.id, -1);
  } else if (selection.kind === 'cached') {
    await evaluateChildren(ctx, node(tree, selection.id));
  }
  tree.iteration += 1;
}

function stopReason<S>(tree: SearchTree<S>): SearchTree['stopReason'] {
  if (tree.config.mode === 'greedy' && tree.iteration > 0) return 'greedy-path';
  if (node(tree, ROOT).terminal) return 'exhausted';
  if (budgetSpent(tree)) return 'budget';
  if (tree.iteration >= tree.config.simulations) return 'simulations';
  return null;
}

export interface ChunkLimits {
  /** Iterations in this chunk. */
  maxIterations?: number;
  /** Model calls in this chunk (checked between iterations, so the last iteration may pass it). */
  maxModelCalls?: number;
  /** Epoch milliseconds after which no new iteration starts. */
  deadline?: number;
  /** The clock for `deadline` (default Date.now). */
  clock?: () => number;
}

export interface ChunkResult {
  iterations: number;
  modelCalls: number;
  done: boolean;
  /** Ids of nodes created or changed in this chunk, ascending (what a store must write). */
  changed: number[];
}

/**
 * Advances the search by whole iterations until it is done or a chunk limit is reached. Mutates and returns
 * through `tree`; on an error the tree is left as after its last completed iteration and the error is rethrown.
 */
export async function runSearch<S>(
  tree: SearchTree<S>,
  env: SearchEnv<S>,
  limits: ChunkLimits = {},
): Promise<ChunkResult> {
  const clock = limits.clock ?? Date.now;
  const startCalls = tree.usage.modelCalls;
  const changed = new Set<number>();
  let iterations = 0;
  for (;;) {
    if (!tree.done) {
      const reason = stopReason(tree);
      if (reason) {
        tree.done = true;
        tree.stopReason = reason;
      }
    }
    if (tree.done) break;
    if (limits.maxIterations !== undefined && iterations >= limits.maxIterations) break;
    if (limits.maxModelCalls !== undefined && tree.usage.modelCalls - startCalls >= limits.maxModelCalls)
      break;
    if (limits.deadline !== undefined && clock() >= limits.deadline) break;
    const journal = new Journal(tree);
    try {
      await iterate(tree, env, journal);
    } catch (error) {
      journal.rollback();
      throw error;
    }
    for (const id of journal.changed()) changed.add(id);
    iterations += 1;
  }
  return {
    iterations,
    modelCalls: tree.usage.modelCalls - startCalls,
    done: tree.done,
    changed: [...changed].sort((a, b) => a - b),
  };
}

export interface SearchSummary {
  /** A Finish judged correct exists in the tree. */
  success: boolean;
  solutions: number[];
  /** From the root, the most visited child at each level (first on ties), down to a leaf. */
  bestPath: number[];
  /** The final answer at the end of the best path: the Finish answer or an ending marker, null if open. */
  bestAnswer: string | null;
  nodes: number;
  iterations: number;
  modelCalls: number;
  model: string | null;
}

/** From the root, the most visited child at each level (first on ties), down to a leaf (any backend's tree). */
export function mostVisitedPath<S>(tree: SearchTree<S>): number[] {
  const path: number[] = [];
  let current = node(tree, ROOT);
  while (current.children.length > 0) {
    let best: SearchNode<S> | null = null;
    for (const id of current.children) {
      const c = node(tree, id);
      if (best === null || c.visits > best.visits) best = c;
    }
    current = best as SearchNode<S>;
    path.push(current.id);
  }
  return path;
}

export function summarizeSearch(tree: SearchTree): SearchSummary {
  const path = mostVisitedPath(tree);
  const last = node(tree, path.at(-1) ?? ROOT);
  const bestAnswer =
    last.ending === 'finish' ? last.state.answer : last.ending ? (ENDING_MARKERS[last.ending] ?? null) : null;
  const found = solutions(tree);
  return {
    success: found.length > 0,
    solutions: found,
    bestPath: path,
    bestAnswer,
    nodes: tree.nodes.length,
    iterations: tree.iteration,
    modelCalls: tree.usage.modelCalls,
    model: tree.model,
  };
}
