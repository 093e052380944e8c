/**
 * Training data from finished search trees (ToolEVO §3.4, spec §8): the root→Finish paths of a tree as
 * trajectories, the seeded choice of at most 4 successful trajectories per task for SFT, chat-format SFT records,
 * and DPO preference pairs from sibling branches.
 *
 * Trajectory text is the spec §5.3 trajectory format (`trajectoryText`): every step as
 * `<Thought/Action/Action Input>\n\nObservation: <observation>`, steps joined by a blank line.
 *
 * SFT record (one JSON object per line; the `messages` column of TRL's SFTTrainer and of LLaMA-Factory's
 * sharegpt format with `"formatting": "sharegpt", "columns": {"messages": "messages"}` and OpenAI-style
 * role/content tags):
 *
 * ```json
 * {"messages": [
 *    {"role": "system", "content": "<agent prompt header: P_c tool list, guidelines, format, examples, 'Now it is your turn.'>"},
 *    {"role": "user", "content": "Question: <question>"},
 *    {"role": "assistant", "content": "<the trajectory text, Finish step included>"}],
 *  "meta": {...}}
 * ```
 *
 * The system message is the ToolEvo agent prompt head rendered over the P_c documentation only (no UpdateTool
 * lines: the trajectory itself shows the drift being discovered and the UpdateTool calls), as in ToolEVO §3.4.
 * The assistant message holds the observations too, exactly as the agent saw the path; mask them in training if
 * wanted (every observation starts a line with `Observation: `).
 *
 * DPO record (TRL's conversational preference format `prompt` / `chosen` / `rejected`):
 *
 * ```json
 * {"prompt": [{"role": "system", "content": "<same header>"},
 *             {"role": "user", "content": "Question: <question>\n\n<shared steps with observations>"}],
 *  "chosen": [{"role": "assistant", "content": "<the step toward a correct Finish>"}],
 *  "rejected": [{"role": "assistant", "content": "<the sibling step>"}],
 *  "meta": {...}}
 * ```
 *
 * The user message of a pair is what the agent prompt shows after the question at that state (the shared prefix
 * in the trajectory format); chosen and rejected are generated step texts (Thought/Action/Action Input, no
 * observation), i.e. what the model produces at that state.
 *
 * A pair is made at every node p with a child a whose subtree holds a correct Finish and a child b whose subtree
 * holds a failure but no correct Finish: one pair per (p, a, b), whatever the number of leaves below them. Over a
 * whole tree, failures are all terminal nodes with reward −1 (wrong Finish, depth, loads, no child, budget); over
 * stored trajectories (only Finish paths are stored) they are the wrong Finishes.
 */

import type { ChatMessage } from '../messages/chat.ts';
import { type TrajectoryStep, trajectoryText } from '../prompts/react-format.ts';
import { renderPrompt } from '../prompts/registry.ts';
import { PC_SURFACE } from '../surfaces/builtin.ts';
import type { Surface } from '../surfaces/model.ts';
import { Rng } from '../util/random.ts';
import { node, pathTo, ROOT, type SearchTree } from './tree.ts';

/** One step of a stored trajectory. */
export interface TrajectoryStepRecord extends TrajectoryStep {
  /** The tree node of the step. */
  node: number;
  prompt: 'toolevo/agent' | 'toolevo/reflection' | null;
  action?: string;
  /** The step's outcome kind: ok, error, rejected, finished. */
  outcome: string | null;
}

/** Who and what produced a tree (copied onto every trajectory). */
export interface TrajectoryMeta {
  treeId: string;
  explorationId: string;
  taskId: string;
  dataset: string;
  surfaceId: string;
  promptSurfaceId: string;
  model: string;
  seed: string;
}

export interface Trajectory extends TrajectoryMeta {
  /** `{treeId}:{leafNode}`: unique per tree and stable across re-extraction. */
  id: string;
  leafNode: number;
  /** +1 for a correct Finish, −1 for a wrong one. */
  reward: 1 | -1;
  answer: string | null;
  /** The spec §5.3 trajectory text of the path. */
  text: string;
  steps: TrajectoryStepRecord[];
  /** The UpdateTool lines the path added (its tool list at the leaf). */
  toolUpdates: string[];
}

export function trajectoryId(treeId: string, leafNode: number): string {
  return `${treeId}:${leafNode}`;
}

function stepRecord(tree: SearchTree, id: number): TrajectoryStepRecord {
  const n = node(tree, id);
  const step: TrajectoryStepRecord = {
    node: n.id,
    text: n.text,
    observation: n.observation,
    prompt: n.prompt,
    outcome: n.outcome?.kind ?? null,
  };
  if (n.action !== undefined) step.action = n.action;
  return step;
}

/** Every root→Finish path of the tree, in leaf creation order. */
export function extractTrajectories(tree: SearchTree, meta: TrajectoryMeta): Trajectory[] {
  const out: Trajectory[] = [];
  for (const leaf of tree.nodes) {
    if (leaf.ending !== 'finish' || leaf.reward === null) continue;
    const steps = pathTo(tree, leaf.id).map((id) => stepRecord(tree, id));
    out.push({
      ...meta,
      id: trajectoryId(meta.treeId, leaf.id),
      leafNode: leaf.id,
      reward: leaf.reward > 0 ? 1 : -1,
      answer: leaf.state.answer,
      text: trajectoryText(steps),
      steps,
      toolUpdates: [...leaf.state.newTools],
    });
  }
  return out;
}

/**
 * Ids of the trajectories chosen for training: per task, at most `max` successes, drawn by a shuffle seeded by
 * (seed, task id) over the successes sorted by id, so the choice does not depend on the order they arrive in.
 */
export function selectForTraining(
  trajectories: readonly { id: string; taskId: string; reward: number }[],
  seed: string,
  max = 4,
): Set<string> {
  const byTask = new Map<string, string[]>();
  for (const t of trajectories) {
    if (t.reward !== 1) continue;
    const ids = byTask.get(t.taskId) ?? [];
    ids.push(t.id);
    byTask.set(t.taskId, ids);
  }
  const chosen = new Set<string>();
  for (const taskId of [...byTask.keys()].sort()) {
    const ids = [...new Set(byTask.get(taskId))].sort();
    for (const id of new Rng(`${seed}/select/${taskId}`).sample(ids, max)) chosen.add(id);
  }
  return chosen;
}

export type { ChatMessage } from '../messages/chat.ts';

export interface RecordOptions {
  /** The documentation surface of the training prompt (default P_c). */
  docsSurface?: Surface;
}

/** The training prompt's messages (the registered `toolevo/training` template, core/prompts/training.ts). */
function trainingPrompt(
  question: string,
  options: RecordOptions,
  prefix: readonly TrajectoryStep[] = [],
): [ChatMessage, ChatMessage] {
  const [system, user] = renderPrompt('toolevo/training', {
    question,
    docs: options.docsSurface ?? PC_SURFACE,
    prefix,
  });
  return [system as ChatMessage, user as ChatMessage];
}

/** The system message: the agent prompt's instructions over the docs surface, up to and including the turn marker. */
export function trainingSystemPrompt(docs: Surface = PC_SURFACE): string {
  return trainingPrompt('', { docsSurface: docs })[0].content;
}

export interface SftRecord {
  messages: [ChatMessage, ChatMessage, ChatMessage];
}

export function sftRecord(
  trajectory: Pick<Trajectory, 'steps'>,
  task: { question: string },
  options: RecordOptions = {},
): SftRecord {
  return {
    messages: [
      ...trainingPrompt(task.question, options),
      { role: 'assistant', content: trajectoryText(trajectory.steps) },
    ],
  };
}

/** A path as node ids from the root's child to the leaf, with the leaf's reward. */
export interface ScoredPath {
  nodes: readonly number[];
  steps: readonly TrajectoryStep[];
  reward: number;
}

export interface DpoPair {
  /** The node where the branches part (ROOT for the first step). */
  parent: number;
  chosenNode: number;
  rejectedNode: number;
  prefix: TrajectoryStep[];
  chosen: string;
  rejected: string;
}

/**
 * Pairs from paths of one tree (they share the root; equal node ids are the same node). See the module comment
 * for the rule.
 */
export function dpoPairsFromPaths(paths: readonly ScoredPath[]): DpoPair[] {
  interface ChildInfo {
    success: boolean;
    failure: boolean;
    step: TrajectoryStep;
  }
  // parent id → child id → what its subtree holds; prefix steps per parent.
  const children = new Map<number, Map<number, ChildInfo>>();
  const prefixes = new Map<number, TrajectoryStep[]>();
  for (const path of paths) {
    let parent = ROOT;
    path.nodes.forEach((id, depth) => {
      if (!prefixes.has(parent)) prefixes.set(parent, path.steps.slice(0, depth) as TrajectoryStep[]);
      const siblings = children.get(parent) ?? new Map<number, ChildInfo>();
      children.set(parent, siblings);
      const step = path.steps[depth] as TrajectoryStep;
      const info = siblings.get(id) ?? { success: false, failure: false, step };
      if (path.reward > 0) info.success = true;
      else info.failure = true;
      siblings.set(id, info);
      parent = id;
    });
  }
  const pairs: DpoPair[] = [];
  for (const parent of [...children.keys()].sort((a, b) => a - b)) {
    const siblings = [...(children.get(parent) ?? new Map<number, ChildInfo>())].sort((a, b) => a[0] - b[0]);
    for (const [a, good] of siblings) {
      if (!good.success) continue;
      for (const [b, bad] of siblings) {
        if (bad.success || !bad.failure) continue;
        pairs.push({
          parent,
          chosenNode: a,
          rejectedNode: b,
          prefix: prefixes.get(parent) ?? [],
          chosen: good.step.text,
          rejected: bad.step.text,
        });
      }
    }
  }
  return pairs;
}

/** Pairs over every terminal path of the tree (failures: all terminal nodes with reward −1). */
export function dpoPairs(tree: SearchTree): DpoPair[] {
  const paths: ScoredPath[] = [];
  for (const leaf of tree.nodes) {
    if (!leaf.terminal || leaf.reward === null || leaf.id === ROOT) continue;
    const nodes = pathTo(tree, leaf.id);
    paths.push({
      nodes,
      steps: nodes.map((id) => ({ text: node(tree, id).text, observation: node(tree, id).observation })),
      reward: leaf.reward,
    });
  }
  return dpoPairsFromPaths(paths);
}

export interface DpoRecord {
  prompt: [ChatMessage, ChatMessage];
  chosen: [ChatMessage];
  rejected: [ChatMessage];
}

export function dpoRecord(pair: DpoPair, task: { question: string }, options: RecordOptions = {}): DpoRecord {
  return {
    prompt: trainingPrompt(task.question, options, pair.prefix),
    chosen: [{ role: 'assistant', content: pair.chosen }],
    rejected: [{ role: 'assistant', content: pair.rejected }],
  };
}
