/**
 * The search tree as one serialisable value (spec §8.2): nodes in a flat array indexed by id, each with its parent
 * id, its children's ids and its own copy of the environment state (a JSON value: the kernel's EnvState, or an
 * imported API session's progress — `S`, whatever the search's target steps, core/sessions/targets.ts), so that
 * branches never share mutable state and a tree can be stored (a Durable Object's storage), reloaded and searched
 * further.
 *
 * A node is one agent step: the generated text (Thought / Action / Action Input) and the observation, the prior P,
 * the visit count N, the total value W (Q = W / N), the depth, and the terminal flag with its reward and ending.
 * The root is the task with an empty text, prior 1 and depth 0.
 *
 * Nothing here depends on the clock or on process state: the tree holds the iteration counter and the usage
 * counters, and all randomness is derived from `config.seed` and the iteration number (mcts.ts), so a tree
 * reloaded between iterations continues exactly as an uninterrupted search would.
 */
import type { StepPromptId } from '../prompts/registry.ts';
import type { ApiStepOutcome } from '../sessions/episode.ts';
import type { StepOutcome } from '../surfaces/adapter.ts';
import type { KernelToolName } from '../world/kernel/kernel.ts';
import { type EnvState, initialState } from '../world/kernel/state.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { SearchConfig } from './config.ts';

export const TREE_FORMAT = 'tooldrift-search-tree/1';

/** Why a node is terminal. */
export type NodeEnding =
  /** Finish (reward from the answer matcher). */
  | 'finish'
  /** `Fail to solve the problem within limited steps.` */
  | 'depth'
  /** `Fail to load too many times.` */
  | 'loads'
  /** `Fail to generate parsable text for next step.` (no non-empty candidate). */
  | 'no-child'
  /** An empty generation: one of the k samples was empty, or the prompt was over the word limit (spec §8.2). */
  | 'empty'
  /** The tree's model-call or token budget ran out before this state could be expanded. */
  | 'budget'
  /** Every child is terminal (no reward of its own; selection cannot go further). */
  | 'exhausted';

/** The internal final-answer markers of spec §5.3 for the non-Finish endings. */
export const ENDING_MARKERS: Readonly<Partial<Record<NodeEnding, string>>> = {
  depth: 'Fail to solve the problem within limited steps.',
  loads: 'Fail to load too many times.',
  'no-child': 'Fail to generate parsable text for next step.',
  empty: 'Fail to generate text for next step (empty generation).',
  budget: 'Fail to finish within the search budget.',
};

export interface SearchNode<S = EnvState> {
  id: number;
  parent: number | null;
  children: number[];
  depth: number;
  /** The generated step text, trimmed and cut at the stop string (empty for the root). */
  text: string;
  /** The environment's answer to the step (empty for the root). */
  observation: string;
  /** The prompt that generated this step. */
  prompt: StepPromptId | null;
  action?: string;
  kernel?: KernelToolName;
  /** The step's outcome (null for the root): the kernel's, or an API session's on an imported API. */
  outcome: StepOutcome | ApiStepOutcome | null;
  /** The environment after this step, on this path only. */
  state: S;
  prior: number;
  /** N. */
  visits: number;
  /** W; Q = W / N. */
  value: number;
  /** Children have been generated for this state (possibly none survived). */
  expanded: boolean;
  terminal: boolean;
  /** ±1 for terminal nodes with an ending other than `exhausted`. */
  reward: number | null;
  ending: NodeEnding | null;
}

export interface SearchTask {
  id?: string;
  question: string;
  gold: Gold;
  /** The task's dataset: the few-shot pool of the prompt (ToolEvo draws dataset-specific examples). */
  dataset?: string;
}

export interface SearchUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
}

export type SearchStopReason = 'simulations' | 'exhausted' | 'budget' | 'greedy-path';

export interface SearchTree<S = EnvState> {
  format: typeof TREE_FORMAT;
  task: SearchTask;
  config: SearchConfig;
  nodes: SearchNode<S>[];
  /** Completed iterations. */
  iteration: number;
  usage: SearchUsage;
  /** The model as the provider named it in its last answer (the simulator says so). */
  model: string | null;
  done: boolean;
  stopReason: SearchStopReason | null;
}

export const ROOT = 0;

/**
 * A fresh, unexpanded tree state with no step: the root, or a node a caller fills in (`over`); its environment is
 * `state` (default: the kernel's initial state).
 */
export function blankNode(id: number, parent: number | null, depth: number): SearchNode;
export function blankNode<S>(id: number, parent: number | null, depth: number, state: S): SearchNode<S>;
export function blankNode(
  id: number,
  parent: number | null,
  depth: number,
  state: unknown = initialState(),
): SearchNode<unknown> {
  return {
    id,
    parent,
    children: [],
    depth,
    text: '',
    observation: '',
    prompt: null,
    outcome: null,
    state,
    prior: 1,
    visits: 0,
    value: 0,
    expanded: false,
    terminal: false,
    reward: null,
    ending: null,
  };
}

/** A tree of one root; `root` is the environment the search starts from (default: the kernel's initial state). */
export function createTree(task: SearchTask, config: SearchConfig): SearchTree;
export function createTree<S>(task: SearchTask, config: SearchConfig, root: S): SearchTree<S>;
export function createTree(task: SearchTask, config: SearchConfig, state?: unknown): SearchTree<unknown> {
  const root = state === undefined ? blankNode(ROOT, null, 0) : blankNode(ROOT, null, 0, state);
  return {
    format: TREE_FORMAT,
    task,
    config,
    nodes: [root],
    iteration: 0,
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0 },
    model: null,
    done: false,
    stopReason: null,
  };
}

export function node<S>(tree: SearchTree<S>, id: number): SearchNode<S> {
  const n = tree.nodes[id];
  if (!n) throw new RangeError(`no node ${id} in the search tree`);
  return n;
}

/** Ids from the root's first child down to `id` (the path's steps; empty for the root). */
export function pathTo<S>(tree: SearchTree<S>, id: number): number[] {
  const path: number[] = [];
  for (let n = node(tree, id); n.parent !== null; n = node(tree, n.parent)) path.push(n.id);
  return path.reverse();
}

/** Q(s, a) = W / N, 0 before the first visit. */
export function q(n: SearchNode<unknown>): number {
  return n.visits === 0 ? 0 : n.value / n.visits;
}

/** Terminal nodes whose Finish was judged correct, in creation order. */
export function solutions(tree: SearchTree<unknown>): number[] {
  return tree.nodes.filter((n) => n.ending === 'finish' && n.reward === 1).map((n) => n.id);
}

/** The tree as JSON text (EnvState, outcomes and the Python namespace snapshots are JSON values). */
export function serializeTree(tree: SearchTree): string {
  return JSON.stringify(tree);
}

export function parseTree(text: string): SearchTree {
  const tree = JSON.parse(text) as SearchTree;
  if (tree?.format !== TREE_FORMAT) throw new TypeError(`not a ${TREE_FORMAT} value`);
  tree.nodes.forEach((n, i) => {
    if (n.id !== i) throw new TypeError(`node ${i} carries id ${n.id}`);
  });
  return tree;
}
