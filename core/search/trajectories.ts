/**
 * Training data from finished search trees (ToolEVO §3.4, spec §8): the root→Finish paths of a tree as
 * trajectories, the choice of at most 4 successful trajectories per task for SFT, chat-format SFT records, and DPO
 * preference pairs from sibling branches.
 *
 * Trajectory text is the spec §5.3 trajectory format (`trajectoryText`): every step as
 * `<Thought/Action/Action Input>\n\nObservation: <observation>`, steps joined by a blank line.
 *
 * Selection (`selectForTraining`, issue 25 item 9): ToolEvo wants trajectories that hit a deprecation, reflect and
 * recover — once. Every rule starts from a shuffle of a task's successes seeded by (seed, task id):
 * - `repeat-free` (default): only successes that repeat no failed call (`trajectoryStats(...).repeats === 0`),
 *   the first 4 of the shuffle — the paper's uniform choice among them, fewer than 4 when fewer exist (what was
 *   left out is reported by `selectionReport`);
 * - `clean` (tooldrift's earlier default): every success, ranked by (repeats a failed call: no before yes, fewer
 *   steps, the shuffle), the first 4 — so it fills the slots with repeating ones when clean ones run out;
 * - `uniform` (the paper, spec §8): the first 4 of the shuffle, whatever they repeat.
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
 * Thought wording teaches nothing about tool use) and when a does not repeat a call that failed on the path to p
 * while b does not (issue 25 item 10: such a pair would prefer re-sending a call that just got a deprecation or
 * parameter error over switching — the very failure the taxonomy counts; a subtree can still reach a correct
 * Finish after the repeat). `dpoPairSetFromPaths` reports how many candidates each rule dropped. Over a whole
 * tree, failures are all terminal nodes with reward −1 (wrong Finish, depth, loads, no child, empty, budget); over
 * stored trajectories (only Finish paths are stored) they are the wrong Finishes. Pairs from a tree carry both
 * sides' Q and N (the chosen and rejected nodes' mean value and visit count) so the preference can be audited.
 *
 * Deliberate differences from ToolQA-D:
 * - The default SFT selection (`repeat-free`) leaves out successes that repeat a failed call: ToolEvo draws ≤ 4
 *   successes per task uniformly (`uniform`, an option), which keeps trajectories that teach the repetition the
 *   taxonomy counts as an error.
 * - Multi-turn SFT records are tooldrift's layout (ToolEvo's SFT user message holds the question and the previous
 *   steps joined by newlines, spec §5.1); the system message matches ToolEvo's SFT prompt (tool list only) in
 *   tooldrift's wording.
 * - DPO pairs are tooldrift's (the paper trains with SFT only); a pair must differ in action or Action Input, and
 *   its chosen step never repeats a call that failed on its path when the rejected one does not.
 */

import type { ChatMessage } from '../messages/chat.ts';
import { type TrajectoryStep, trajectoryText } from '../prompts/react-format.ts';
import type { StepPromptId } from '../prompts/registry.ts';
import { renderPrompt } from '../prompts/registry.ts';
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

export const SELECTION_RULES = ['repeat-free', 'clean', 'uniform'] as const;
export type SelectionRule = (typeof SELECTION_RULES)[number];

/** Whether a trajectory repeats a call that had failed on its path (its `repeats`, else counted from its steps). */
export function repeatsFailedCall(t: Pick<SelectableTrajectory, 'steps' | 'repeats'>): boolean {
  return (t.repeats ?? trajectoryStats((t.steps ?? []) as TrajectoryStepRecord[]).repeats) > 0;
}

/** A trajectory as selection sees it (steps are needed by the `clean` rule; without them every record ties). */
export interface SelectableTrajectory {
  id: string;
  taskId: string;
  reward: number;
  /** Stored step records (`TrajectoryStepRecord`; D1 gives them as JSON values). */
  steps?: readonly unknown[];
  /** `trajectoryStats(steps).repeats` when the steps are not at hand (a trajectory listing). */
  repeats?: number;
}

/**
 * Ids of the trajectories chosen for training: per task, at most `max` successes. Every rule starts from a shuffle
 * seeded by (seed, task id) over the successes sorted by id, so the choice does not depend on the order they
 * arrive in. `uniform` (the paper) keeps the first `max` of the shuffle; `repeat-free` (default) the first `max`
 * of those that repeat no failed call; `clean` orders them by repeats-after-error (none first), then by number of
 * steps, the shuffle breaking ties.
 */
export function selectForTraining(
  trajectories: readonly SelectableTrajectory[],
  seed: string,
  max = 4,
  rule: SelectionRule = 'repeat-free',
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
    let shuffled = new Rng(`${seed}/select/${taskId}`).sample(ids, ids.length);
    if (rule === 'repeat-free')
      shuffled = shuffled.filter((id) => !repeatsFailedCall(ts.get(id) as SelectableTrajectory));
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

/** What a selection kept and left out of a set of trajectories (the export manifest's report). */
export interface SelectionReport {
  /** Tasks with at least one success. */
  tasks: number;
  successes: number;
  selected: number;
  /** Left out, and repeating a call that had failed on their path (the reason under `repeat-free`). */
  droppedRepeating: number;
  /** Left out beyond the per-task limit (repeat-free ones, or under `clean`/`uniform` any). */
  droppedOverLimit: number;
  /** Tasks with successes of which none was selected. */
  tasksWithoutRecord: number;
}

/** Counts what `selected` (ids) kept of the successes in `trajectories`, and why the rest was left out. */
export function selectionReport(
  trajectories: readonly SelectableTrajectory[],
  selected: ReadonlySet<string>,
): SelectionReport {
  const report: SelectionReport = {
    tasks: 0,
    successes: 0,
    selected: 0,
    droppedRepeating: 0,
    droppedOverLimit: 0,
    tasksWithoutRecord: 0,
  };
  const kept = new Map<string, number>();
  for (const t of trajectories) {
    if (t.reward !== 1) continue;
    report.successes++;
    kept.set(t.taskId, (kept.get(t.taskId) ?? 0) + (selected.has(t.id) ? 1 : 0));
    if (selected.has(t.id)) report.selected++;
    else if (repeatsFailedCall(t)) report.droppedRepeating++;
    else report.droppedOverLimit++;
  }
  report.tasks = kept.size;
  report.tasksWithoutRecord = [...kept.values()].filter((n) => n === 0).length;
  return report;
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
  trajectory: { steps: readonly TrajectoryStep[] },
  task: { question: string },
  options: RecordOptions = {},
): SftRecord {
  const docs = options.docsSurface ?? PC_SURFACE;
  const steps = trajectory.steps;
  const system =
    options.systemPrompt === 'agent-head' ? trainingPrompt(task.question, options)[0] : undefined;
  if (options.format === 'single-turn') {
    const [sft, user] = renderPrompt('toolevo/sft', { question: task.question, docs }) as ChatMessage[];
    const head = [system ?? (sft as ChatMessage), user as ChatMessage];
    return { messages: [...head, { role: 'assistant', content: trajectoryText(steps) }] };
  }
  // The SFT prompt over the steps before the last, then the last step (the Finish) as the final assistant turn:
  // exactly what the ReAct methods send with `prompt: "sft"` before that step. The Finish's observation is the
  // environment's verdict: not part of the conversation.
  const messages = renderPrompt('toolevo/sft', { question: task.question, docs, steps: steps.slice(0, -1) });
  if (system) messages[0] = system;
  const last = steps.at(-1);
  return { messages: last ? [...messages, { role: 'assistant', content: last.text }] : messages };
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

/** A trajectory with its task's question: what an SFT export line is made from. */
export interface ExportRow {
  t: ExportableTrajectory;
  question: string;
}

export interface SftExportOptions extends RecordOptions {
  /** Which successes of a task become records (`selectForTraining`; default `repeat-free`). */
  selection?: SelectionRule;
  /** At most this many records per task (default 4, ToolEvo's). */
  perTask?: number;
}

/**
 * One line of `GET /v1/exports/sft.jsonl`: the record (`sftRecord`) and its `meta` (who produced the trajectory,
 * and `selection`: the rule that chose it, steps, deprecation errors met, repeated calls).
 */
export function sftExportLine(
  t: ExportableTrajectory,
  question: string,
  options: SftExportOptions = {},
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
      selection: { rule: options.selection ?? 'repeat-free', ...trajectoryStats(steps) },
    },
  });
}

/**
 * The SFT export's lines for whole tasks: `rows` must hold every success of each (exploration, task) it touches,
 * since a rule chooses among a task's successes together. Per (exploration, task) in that order, the successes
 * `options.selection` picks (`selectForTraining`, seeded by the exploration id as the stored `selected` flags are,
 * edge/stores/trajectories.ts), in id order, each as `sftExportLine`. One code path for the exports route (a page
 * of tasks) and the micro recipe's in-process exploration (gpu-jobs/micro/explore.ts).
 */
export function sftExportLines(rows: readonly ExportRow[], options: SftExportOptions = {}): string[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...rows].sort(
    (a, b) => cmp(a.t.explorationId, b.t.explorationId) || cmp(a.t.taskId, b.t.taskId) || cmp(a.t.id, b.t.id),
  );
  const lines: string[] = [];
  for (let start = 0; start < sorted.length; ) {
    const first = (sorted[start] as ExportRow).t;
    let end = start;
    while (
      end < sorted.length &&
      sorted[end]?.t.explorationId === first.explorationId &&
      sorted[end]?.t.taskId === first.taskId
    )
      end++;
    const own = sorted.slice(start, end);
    const chosen = selectForTraining(
      own.map((r) => r.t),
      first.explorationId,
      options.perTask ?? 4,
      options.selection ?? 'repeat-free',
    );
    for (const { t, question } of own) if (chosen.has(t.id)) lines.push(sftExportLine(t, question, options));
    start = end;
  }
  return lines;
}

/** A step of a scored path: its text and observation, and whether it failed (a rejected call or a tool error). */
export interface ScoredStep extends TrajectoryStep {
  failed?: boolean;
}

/** A path as node ids from the root's child to the leaf, with the leaf's reward. */
export interface ScoredPath {
  nodes: readonly number[];
  steps: readonly ScoredStep[];
  reward: number;
}

/** A side of a pair as the search saw it: Q = W / N (null before any visit) and N. */
export interface NodeValue {
  q: number | null;
  n: number;
}

export interface DpoPair {
  /** The node where the branches part (ROOT for the first step). */
  parent: number;
  chosenNode: number;
  rejectedNode: number;
  prefix: TrajectoryStep[];
  chosen: string;
  rejected: string;
  /** Q and N of both sides, for pairs made from a tree. */
  values?: { chosen: NodeValue; rejected: NodeValue };
}

/** The call a step text makes: Action and Action Input with whitespace removed (the Thought set aside). */
function stepCall(text: string): string {
  const m = /Action\s*:([\s\S]*)$/.exec(text);
  return m ? (m[1] as string).replace(/\s+/g, '') : text.replace(/\s+/g, '');
}

/** Whether two step texts make the same call (Action and Action Input, whitespace ignored; Thought aside). */
export function sameCall(a: string, b: string): boolean {
  return stepCall(a) === stepCall(b);
}

/** Whether `step` makes a call that failed earlier on `prefix` (the path before it). */
export function repeatsFailedStep(prefix: readonly ScoredStep[], step: string): boolean {
  const call = stepCall(step);
  return prefix.some((s) => s.failed === true && stepCall(s.text) === call);
}

/** Pairs, and how many candidate pairs each rule dropped. */
export interface DpoPairSet {
  pairs: DpoPair[];
  /** Candidates whose sides make the same call (they differ only in Thought). */
  dropped: number;
  /** Candidates whose chosen step repeats a call that failed on the path and whose rejected step does not. */
  droppedRepeating: number;
}

/** Pairs from paths of one tree (they share the root; equal node ids are the same node). */
export function dpoPairsFromPaths(paths: readonly ScoredPath[]): DpoPair[] {
  return dpoPairSetFromPaths(paths).pairs;
}

/**
 * See the module comment for the rule; `dropped` and `droppedRepeating` count the candidates each rule left out.
 * `value` gives a node's Q and N (pairs from a tree carry them).
 */
export function dpoPairSetFromPaths(
  paths: readonly ScoredPath[],
  value?: (node: number) => NodeValue,
): DpoPairSet {
  interface ChildInfo {
    success: boolean;
    failure: boolean;
    step: TrajectoryStep;
  }
  // parent id → child id → what its subtree holds; prefix steps per parent.
  const children = new Map<number, Map<number, ChildInfo>>();
  const prefixes = new Map<number, ScoredStep[]>();
  for (const path of paths) {
    let parent = ROOT;
    path.nodes.forEach((id, depth) => {
      if (!prefixes.has(parent)) prefixes.set(parent, path.steps.slice(0, depth) as ScoredStep[]);
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
  let droppedRepeating = 0;
  for (const parent of [...children.keys()].sort((a, b) => a - b)) {
    const siblings = [...(children.get(parent) ?? new Map<number, ChildInfo>())].sort((a, b) => a[0] - b[0]);
    const prefix = prefixes.get(parent) ?? [];
    for (const [a, good] of siblings) {
      if (!good.success) continue;
      for (const [b, bad] of siblings) {
        if (bad.success || !bad.failure) continue;
        if (sameCall(good.step.text, bad.step.text)) {
          dropped++;
          continue;
        }
        if (repeatsFailedStep(prefix, good.step.text) && !repeatsFailedStep(prefix, bad.step.text)) {
          droppedRepeating++;
          continue;
        }
        const pair: DpoPair = {
          parent,
          chosenNode: a,
          rejectedNode: b,
          prefix: prefix.map((s) => ({ text: s.text, observation: s.observation })),
          chosen: good.step.text,
          rejected: bad.step.text,
        };
        if (value) pair.values = { chosen: value(a), rejected: value(b) };
        pairs.push(pair);
      }
    }
  }
  return { pairs, dropped, droppedRepeating };
}

/** Pairs over every terminal path of the tree (failures: all terminal nodes with reward −1). */
export function dpoPairs(tree: SearchTree): DpoPair[] {
  return dpoPairSet(tree).pairs;
}

/** `dpoPairs` with the number of candidates each rule dropped; every pair carries both sides' Q and N. */
export function dpoPairSet(tree: SearchTree): DpoPairSet {
  const paths: ScoredPath[] = [];
  for (const leaf of tree.nodes) {
    if (!leaf.terminal || leaf.reward === null || leaf.id === ROOT) continue;
    const nodes = pathTo(tree, leaf.id);
    paths.push({
      nodes,
      steps: nodes.map((id) => {
        const n = node(tree, id);
        const failed = n.outcome?.kind === 'rejected' || n.outcome?.kind === 'error';
        return { text: n.text, observation: n.observation, failed };
      }),
      reward: leaf.reward,
    });
  }
  return dpoPairSetFromPaths(paths, (id) => {
    const n = node(tree, id);
    return { q: n.visits > 0 ? n.value / n.visits : null, n: n.visits };
  });
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
