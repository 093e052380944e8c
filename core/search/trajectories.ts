/**
 * Training data from finished search trees (ToolEVO §3.4, spec §8): the root→Finish paths of a tree as
 * trajectories, the choice of at most 4 successful trajectories per task for SFT, chat-format SFT records, and DPO
 * preference pairs from sibling branches.
 *
 * Trajectory text is the spec §5.3 trajectory format (`trajectoryText`): every step as
 * `<Thought/Action/Action Input>\n\nObservation: <observation>`, steps joined by a blank line.
 *
 * Selection (`selectForTraining`): ToolEvo wants trajectories that hit a deprecation, reflect and recover — once.
 * The default (`clean`) ranks a task's successes by (a call repeated after it failed: no before yes, fewer steps,
 * a shuffle seeded by (seed, task id)) and keeps the first 4; `uniform` is the paper's seeded uniform choice of ≤ 4.
 * `trajectoryStats` gives what the export manifest reports per record: steps, deprecation errors met, repeats.
 *
 * SFT record (one JSON object per line, the `messages` column of TRL's SFTTrainer and of LLaMA-Factory's sharegpt
 * format with OpenAI-style role/content tags). Default `multi-turn`:
 *
 * ```json
 * {"messages": [
 *    {"role": "system", "content": "<header + P_c tool list (no guidelines, no few-shots: ToolEvo's SFT prompt)>"},
 *    {"role": "user", "content": "Question: <question>"},
 *    {"role": "assistant", "content": "<step 1: Thought/Action/Action Input>"},
 *    {"role": "user", "content": "Observation: <observation 1>"},
 *    …,
 *    {"role": "assistant", "content": "<Finish step>"}],
 *  "meta": {...}}
 * ```
 *
 * so a trainer that computes the loss on assistant turns only (TRL `assistant_only_loss`, LLaMA-Factory's default)
 * never learns environment text; the final Finish observation is left out (it is the environment's verdict).
 * `single-turn` (an option) is the earlier layout: one assistant message with the whole trajectory, observations
 * included. `systemPrompt: 'agent-head'` (an option) uses the full agent prompt head (guidelines and few-shots)
 * instead of the tool list only.
 *
 * DPO record (TRL's conversational preference format `prompt` / `chosen` / `rejected`):
 *
 * ```json
 * {"prompt": [{"role": "system", "content": "<agent prompt head>"},
 *             {"role": "user", "content": "Question: <question>\n\n<shared steps with observations>"}],
 *  "chosen": [{"role": "assistant", "content": "<the step toward a correct Finish>"}],
 *  "rejected": [{"role": "assistant", "content": "<the sibling step>"}],
 *  "meta": {...}}
 * ```
 *
 * A pair is made at every node p with a child a whose subtree holds a correct Finish and a child b whose subtree
 * holds a failure but no correct Finish, when a and b differ in action or Action Input (a pair differing only in
 * Thought wording teaches nothing about tool use; `dpoPairsFromPaths` reports how many it dropped). Over a whole
 * tree, failures are all terminal nodes with reward −1 (wrong Finish, depth, loads, no child, empty, budget); over
 * stored trajectories (only Finish paths are stored) they are the wrong Finishes.
 *
 * Deliberate differences from ToolQA-D:
 * - The default SFT selection (`clean`) is tooldrift's: ToolEvo draws ≤ 4 successes per task uniformly
 *   (`uniform`, an option), which keeps trajectories that repeat a failed call several times.
 * - Multi-turn SFT records are tooldrift's layout (ToolEvo's SFT user message holds the question and the previous
 *   steps joined by newlines, spec §5.1); the system message matches ToolEvo's SFT prompt (tool list only) in
 *   tooldrift's wording.
 * - DPO pairs are tooldrift's (the paper trains with SFT only); a pair must differ in action or Action Input.
 */

import type { ChatMessage } from '../messages/chat.ts';
import { type TrajectoryStep, trajectoryText } from '../prompts/react-format.ts';
import type { StepPromptId } from '../prompts/registry.ts';
import { renderPrompt } from '../prompts/registry.ts';
import { sftTurns } from '../prompts/training.ts';
import { PC_SURFACE } from '../surfaces/builtin.ts';
import type { Surface } from '../surfaces/model.ts';
import { Rng } from '../util/random.ts';
import { node, pathTo, ROOT, type SearchTree } from './tree.ts';

/** One step of a stored trajectory. */
export interface TrajectoryStepRecord extends TrajectoryStep {
  /** The tree node of the step. */
  node: number;
  prompt: StepPromptId | null;
  action?: string;
  /** The step's outcome kind: ok, error, rejected, finished. */
  outcome: string | null;
  /** The reason of a rejected or failed step (`retired` for a deprecation error); absent in older records. */
  reason?: string;
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
  if (n.outcome && (n.outcome.kind === 'rejected' || n.outcome.kind === 'error'))
    step.reason = n.outcome.reason;
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

/** What the export manifest reports per SFT record. */
export interface TrajectoryStats {
  steps: number;
  /** Steps answered with a deprecation message (a deprecated or retired tool name). */
  deprecationErrors: number;
  /** Calls (action and Action Input, ignoring whitespace) made again after the same call had failed. */
  repeats: number;
}

/** The call of a step as written (action and Action Input, whitespace removed), null when it is not a call. */
function callOf(step: Pick<TrajectoryStepRecord, 'text' | 'action'>): string | null {
  if (step.action === undefined) return null;
  const at = step.text.search(/Action Input\s*:/);
  const input = at < 0 ? '' : step.text.slice(at).replace(/^Action Input\s*:/, '');
  return `${step.action}\u0000${input.replace(/\s+/g, '')}`;
}

/** A deprecation error: the stored reason, or (older records without one) the deprecation message's wording. */
function isDeprecation(step: Pick<TrajectoryStepRecord, 'outcome' | 'reason' | 'observation'>): boolean {
  if (step.reason !== undefined) return step.reason === 'retired';
  return step.outcome === 'rejected' && /deprecated|retired/i.test(step.observation);
}

export function trajectoryStats(
  steps: readonly Pick<TrajectoryStepRecord, 'text' | 'action' | 'outcome' | 'reason' | 'observation'>[],
): TrajectoryStats {
  const failed = new Set<string>();
  let deprecationErrors = 0;
  let repeats = 0;
  for (const s of steps) {
    const call = callOf(s);
    if (call !== null && failed.has(call)) repeats++;
    if (isDeprecation(s)) deprecationErrors++;
    if (call !== null && (s.outcome === 'rejected' || s.outcome === 'error')) failed.add(call);
  }
  return { steps: steps.length, deprecationErrors, repeats };
}

export const SELECTION_RULES = ['clean', 'uniform'] as const;
export type SelectionRule = (typeof SELECTION_RULES)[number];

/** A trajectory as selection sees it (steps are needed by the `clean` rule; without them every record ties). */
export interface SelectableTrajectory {
  id: string;
  taskId: string;
  reward: number;
  /** Stored step records (`TrajectoryStepRecord`; D1 gives them as JSON values). */
  steps?: readonly unknown[];
}

/**
 * Ids of the trajectories chosen for training: per task, at most `max` successes. Both rules start from a shuffle
 * seeded by (seed, task id) over the successes sorted by id, so the choice does not depend on the order they
 * arrive in. `uniform` (the paper) keeps the first `max` of the shuffle; `clean` (default) first orders them by
 * repeats-after-error (none first), then by number of steps, the shuffle breaking ties.
 */
export function selectForTraining(
  trajectories: readonly SelectableTrajectory[],
  seed: string,
  max = 4,
  rule: SelectionRule = 'clean',
): Set<string> {
  const byTask = new Map<string, Map<string, SelectableTrajectory>>();
  for (const t of trajectories) {
    if (t.reward !== 1) continue;
    const ts = byTask.get(t.taskId) ?? new Map<string, SelectableTrajectory>();
    ts.set(t.id, t);
    byTask.set(t.taskId, ts);
  }
  const chosen = new Set<string>();
  for (const taskId of [...byTask.keys()].sort()) {
    const ts = byTask.get(taskId) as Map<string, SelectableTrajectory>;
    const ids = [...ts.keys()].sort();
    const shuffled = new Rng(`${seed}/select/${taskId}`).sample(ids, ids.length);
    if (rule === 'clean') {
      const key = (id: string) => {
        const stats = trajectoryStats((ts.get(id)?.steps ?? []) as TrajectoryStepRecord[]);
        return [stats.repeats > 0 ? 1 : 0, stats.steps] as const;
      };
      const keys = new Map(shuffled.map((id) => [id, key(id)]));
      // Array.prototype.sort is stable: equal keys keep the seeded shuffle's order.
      shuffled.sort((a, b) => {
        const [ra, sa] = keys.get(a) as readonly [number, number];
        const [rb, sb] = keys.get(b) as readonly [number, number];
        return ra - rb || sa - sb;
      });
    }
    for (const id of shuffled.slice(0, max)) chosen.add(id);
  }
  return chosen;
}

export type { ChatMessage } from '../messages/chat.ts';

export const SFT_FORMATS = ['multi-turn', 'single-turn'] as const;
export type SftFormat = (typeof SFT_FORMATS)[number];

export interface RecordOptions {
  /** The documentation surface of the training prompt (default P_c). */
  docsSurface?: Surface;
  /** SFT layout (default `multi-turn`: one assistant turn per step, observations as user turns). */
  format?: SftFormat;
  /** SFT system prompt: `tools` (default, ToolEvo's SFT prompt: header and tool list) or `agent-head`. */
  systemPrompt?: 'tools' | 'agent-head';
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

/** ToolEvo's SFT system prompt (spec §5.1): the header and the tool list only — no guidelines, no few-shots. */
export function sftToolsPrompt(docs: Surface = PC_SURFACE): string {
  return (renderPrompt('toolevo/sft', { question: '', docs })[0] as ChatMessage).content;
}

export interface SftRecord {
  messages: ChatMessage[];
}

export function sftRecord(
  trajectory: Pick<Trajectory, 'steps'>,
  task: { question: string },
  options: RecordOptions = {},
): SftRecord {
  const head: ChatMessage[] =
    options.systemPrompt === 'agent-head'
      ? trainingPrompt(task.question, options)
      : (renderPrompt('toolevo/sft', {
          question: task.question,
          docs: options.docsSurface ?? PC_SURFACE,
        }) as ChatMessage[]);
  if (options.format === 'single-turn')
    return { messages: [...head, { role: 'assistant', content: trajectoryText(trajectory.steps) }] };
  // The last step's observation is the environment's verdict on the Finish: not part of the conversation.
  return { messages: [...head, ...sftTurns(trajectory.steps, false)] };
}

/** A stored trajectory as the SFT export reads it (a D1 row or a freshly extracted `Trajectory`). */
export interface ExportableTrajectory
  extends Pick<
    Trajectory,
    | 'id'
    | 'treeId'
    | 'explorationId'
    | 'taskId'
    | 'dataset'
    | 'surfaceId'
    | 'promptSurfaceId'
    | 'model'
    | 'seed'
    | 'toolUpdates'
  > {
  /** +1 / −1 (a D1 row types it as a number). */
  reward: number;
  steps: readonly unknown[];
}

/**
 * One line of `GET /v1/exports/sft.jsonl`: the record (`sftRecord`) and its `meta` (who produced the trajectory,
 * and `selection`: steps, deprecation errors met, repeated calls). The exports route and the micro recipe's
 * in-process exploration (gpu-jobs/micro/explore.ts) both write it.
 */
export function sftExportLine(
  t: ExportableTrajectory,
  question: string,
  options: RecordOptions = {},
): string {
  const steps = t.steps as TrajectoryStepRecord[];
  return JSON.stringify({
    ...sftRecord({ steps }, { question }, options),
    meta: {
      trajectoryId: t.id,
      treeId: t.treeId,
      explorationId: t.explorationId,
      taskId: t.taskId,
      dataset: t.dataset,
      surfaceId: t.surfaceId,
      promptSurfaceId: t.promptSurfaceId,
      model: t.model,
      seed: t.seed,
      reward: t.reward,
      toolUpdates: t.toolUpdates,
      selection: trajectoryStats(steps),
    },
  });
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

/** Whether two step texts make the same call (Action and Action Input, whitespace ignored; Thought aside). */
export function sameCall(a: string, b: string): boolean {
  const call = (text: string) => {
    const m = /Action\s*:([\s\S]*)$/.exec(text);
    return m ? (m[1] as string).replace(/\s+/g, '') : text.replace(/\s+/g, '');
  };
  return call(a) === call(b);
}

/** Pairs, and how many candidate pairs were dropped because both sides made the same call. */
export interface DpoPairSet {
  pairs: DpoPair[];
  dropped: number;
}

/** Pairs from paths of one tree (they share the root; equal node ids are the same node). */
export function dpoPairsFromPaths(paths: readonly ScoredPath[]): DpoPair[] {
  return dpoPairSetFromPaths(paths).pairs;
}

/** See the module comment for the rule; `dropped` counts the candidates with equal action and Action Input. */
export function dpoPairSetFromPaths(paths: readonly ScoredPath[]): DpoPairSet {
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
  let dropped = 0;
  for (const parent of [...children.keys()].sort((a, b) => a - b)) {
    const siblings = [...(children.get(parent) ?? new Map<number, ChildInfo>())].sort((a, b) => a[0] - b[0]);
    for (const [a, good] of siblings) {
      if (!good.success) continue;
      for (const [b, bad] of siblings) {
        if (bad.success || !bad.failure) continue;
        if (sameCall(good.step.text, bad.step.text)) {
          dropped++;
          continue;
        }
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
  return { pairs, dropped };
}

/** Pairs over every terminal path of the tree (failures: all terminal nodes with reward −1). */
export function dpoPairs(tree: SearchTree): DpoPair[] {
  return dpoPairSet(tree).pairs;
}

/** `dpoPairs` with the number of candidates dropped for equal calls. */
export function dpoPairSet(tree: SearchTree): DpoPairSet {
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
  return dpoPairSetFromPaths(paths);
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
