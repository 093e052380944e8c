/**
 * Expansion of one state: k candidate steps in one model call, each distinct non-empty text executed on the
 * server surface from the state's own EnvState, with the terminal checks of spec §8.2 (in this order: Finish → ±1
 * from the world's answer matching; depth T reached → −1; load counter above `maxLoads` → −1).
 *
 * The prompt is the ToolEvo agent prompt over the documentation surface, the path's UpdateTool lines and the path's
 * steps; when the state is an error state (the step was rejected — unparsable, unknown tool, deprecated or retired,
 * wrong parameters — or the tool answered with an error) and self-reflection is on, the reflection prompt (ToolEVO
 * eq. 5: a ~ π(· | s_t, reflection)) is used instead, so the search tries to repair the step rather than stop.
 *
 * Every model call is seeded from the tree's seed and the expanded state's key (its node id), so a state expanded
 * again after a restart gets the same candidates.
 *
 * Deliberate differences from ToolQA-D:
 * - A non-Finish step at depth T is terminal, so a path has at most T steps (the original checked the parent's
 *   depth against max_depth and allowed up to T + 2).
 * - With `toolUpdate` off, UpdateTool is answered as usual but its line is not added to the path's tool list
 *   (the ablation "without tool update").
 * - No prompt-length limit (the original skipped generation above 8,000 words); the per-tree model-call and token
 *   budgets take its place.
 */
import type { Candidate, TextModel } from '../models/types.ts';
import type { TrajectoryStep } from '../prompts/react-format.ts';
import { renderPrompt, toolEvoStepPrompts } from '../prompts/registry.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import { type StepOutcome, stepSurface } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import type { World } from '../world/types.ts';
import { mergedPriors } from './puct.ts';
import type { NodeEnding, SearchNode, SearchTree } from './tree.ts';

/** The stop string of ToolQA-D's generation calls. */
export const SEARCH_STOP = ['Observation:'];

/** What the search runs against; none of it is stored in the tree. */
export interface SearchEnv {
  model: TextModel;
  world: World;
  /** The surface the server runs. */
  surface: Surface;
  /** The surface whose documentation the prompt shows (P_c in the ToolQA-D setting). */
  docs: Surface;
  /** Kernel dependencies with Finish judged against the task's gold. */
  deps: KernelDeps;
  /** STE demonstrations for the task's question (the demonstrations aid), shown in every expansion prompt. */
  demonstrations?: readonly SteDemonstration[];
  now?: Date;
  signal?: AbortSignal;
}

export type ChildDraft = Omit<SearchNode, 'id' | 'parent' | 'children'>;

export type Expansion =
  | { kind: 'children'; drafts: ChildDraft[] }
  /** No child could be made: the state itself becomes terminal with this ending (−1). */
  | { kind: 'fail'; ending: Extract<NodeEnding, 'no-child' | 'budget'> };

/** Error states (spec: invocation, parameter or deprecation errors) get the reflection prompt. */
export function isErrorState(outcome: StepOutcome | null): boolean {
  return outcome !== null && (outcome.kind === 'rejected' || outcome.kind === 'error');
}

/** The text before the first stop string, trimmed. */
export function cutStep(text: string): string {
  let end = text.length;
  for (const s of SEARCH_STOP) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return pyStrip(text.slice(0, end));
}

export function budgetSpent(tree: SearchTree): boolean {
  const u = tree.usage;
  return u.modelCalls >= tree.config.maxModelCalls || u.inputTokens + u.outputTokens >= tree.config.maxTokens;
}

/** A 32-bit request seed from the tree's seed and a key. */
export function requestSeed(tree: SearchTree, key: string): number {
  return hash128(`${tree.config.seed}/${key}`)[0];
}

/**
 * Generates and executes the children of `parent` (whose path's steps are `steps`), charging the call to the
 * tree's usage. Nothing is attached to the tree here.
 */
export async function expandState(
  tree: SearchTree,
  env: SearchEnv,
  parent: SearchNode,
  steps: readonly TrajectoryStep[],
  key: string,
): Promise<Expansion> {
  if (budgetSpent(tree)) return { kind: 'fail', ending: 'budget' };
  const config = tree.config;
  // The search's prompt choice is ToolEvo's, switched by the `selfReflection` ablation (search/config.ts).
  const prompts = toolEvoStepPrompts(config.selfReflection);
  const prompt = isErrorState(parent.outcome) ? prompts.afterFailure : prompts.step;
  const messages = renderPrompt(prompt, {
    question: tree.task.question,
    docs: env.docs,
    newTools: parent.state.newTools,
    steps,
    now: env.now,
    ...(env.demonstrations ? { demonstrations: env.demonstrations } : {}),
  });
  const response = await env.model.generate(
    {
      messages,
      n: config.k,
      temperature: config.temperature,
      stop: SEARCH_STOP,
      maxTokens: config.maxNewTokens,
      seed: requestSeed(tree, key),
      logprobs: true,
    },
    env.signal,
  );
  tree.usage = {
    modelCalls: tree.usage.modelCalls + 1,
    inputTokens: tree.usage.inputTokens + response.usage.inputTokens,
    outputTokens: tree.usage.outputTokens + response.usage.outputTokens,
  };
  tree.model = response.model;

  const texts: { text: string; candidate: Candidate }[] = [];
  for (const candidate of response.candidates) {
    const text = cutStep(candidate.text);
    if (text !== '') texts.push({ text, candidate });
  }
  if (texts.length === 0) return { kind: 'fail', ending: 'no-child' };

  const drafts: ChildDraft[] = [];
  for (const { text, prior } of mergedPriors(texts)) {
    const step = await stepSurface(env.world, env.surface, parent.state, text, env.deps, { now: env.now });
    const state = config.toolUpdate ? step.state : { ...step.state, newTools: parent.state.newTools };
    const depth = parent.depth + 1;
    let ending: NodeEnding | null = null;
    let reward: number | null = null;
    if (step.outcome.kind === 'finished') {
      ending = 'finish';
      reward = step.outcome.correct ? 1 : -1;
    } else if (depth >= config.maxDepth) {
      ending = 'depth';
      reward = -1;
    } else if (state.loads > config.maxLoads) {
      ending = 'loads';
      reward = -1;
    }
    const draft: ChildDraft = {
      depth,
      text,
      observation: step.observation,
      prompt,
      outcome: step.outcome,
      state,
      prior,
      visits: 0,
      value: 0,
      expanded: false,
      terminal: ending !== null,
      reward,
      ending,
    };
    if (step.action !== undefined) draft.action = step.action;
    if (step.kernel !== undefined) draft.kernel = step.kernel;
    drafts.push(draft);
  }
  return { kind: 'children', drafts };
}
