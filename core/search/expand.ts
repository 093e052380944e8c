/**
 * Expansion of one state: k candidate steps in one model call, each distinct non-empty text executed on the
 * server surface from the state's own EnvState, with the terminal checks of spec §8.2 (in this order: Finish → ±1
 * from the world's answer matching; depth limit (`depthRule`, config.ts) → −1; load counter above `maxLoads` → −1).
 *
 * The prompt is the ToolEvo agent prompt over the documentation surface, the path's UpdateTool lines and the path's
 * steps. As in the original, reflection (ToolEVO eq. 5: a ~ π(· | s_t, reflection)) is the next Thought/Action the
 * same policy samples on an error state. With the tooldrift option `reflectionPrompt` an error state (the step was
 * rejected — unparsable, unknown tool, deprecated or retired, wrong parameters — or the tool answered with an
 * error) is expanded with the explicit reflection prompt instead.
 *
 * Table 5's ablations (spec §10):
 * - "w/o self-reflection" (`selfReflection: false`): no reflection on *invocation* errors, reflection on
 *   *deprecation* errors kept. With `reflectionPrompt` that is the reflection prompt on deprecation errors only.
 *   Under the defaults (no separate reflection prompt) it is tooldrift's reading: reflection is the policy reading
 *   the error, so the prompt shows every invocation-error step of the path with its observation replaced by
 *   INVOCATION_FAILED — the agent sees that the call failed but not the message it could reflect on; deprecation
 *   messages are shown as they are.
 * - "w/o tool update" (`toolUpdate: false`): the model neither summarises a new tool nor updates P_c — the prompt
 *   has no UpdateTool in its tool list, no UpdateTool guideline and no UpdateTool example, and the server offers
 *   no UpdateTool (a call of it is an unknown tool; searchEnv, mcts.ts).
 *
 * Empty generations (spec §5.3, §8.2): with `emptyCandidates: 'any'` (the original) one empty candidate among the
 * k, or a prompt longer than `promptWordLimit` words (never sent), makes the expanded state terminal with −1, and
 * the caller back-propagates that −1; `'all'` reacts only when every candidate is empty. A prompt the model's
 * server refuses as longer than its context (`ModelContextLengthError`) is the same rule at the model's own limit.
 *
 * Every model call is seeded from the tree's seed and the expanded state's key (its node id), so a state expanded
 * again after a restart gets the same candidates.
 *
 * The search does not know its backend: every candidate is executed by the environment's `target`
 * (core/sessions/targets.ts) — a kernel surface over the world (`kernelTarget`, ToolQA-D) or an imported API's
 * session step over its mock (`apiTarget`) — and the terminal checks read the target: Finish's reward is
 * `target.verdict` (±1: the answer matcher against gold on the kernel; on an API the answer matcher when the query
 * has a gold answer, else its gold path as an ordered subsequence of the calls), the load counter is
 * `target.status(state).loads` (an API has no LoadDB: 0). The prompt documents `docs`: a kernel surface, or an
 * API's tool list (`ApiPromptDocs`).
 *
 * Deliberate differences from ToolQA-D:
 * - The reading of "w/o self-reflection" under the defaults (above) is tooldrift's; the paper defines the ablation
 *   only by what it removes.
 * - The per-tree model-call and token budgets (off unless a suite sets them) end a path with −1 (`budget`).
 */
import { ModelContextLengthError } from '../models/errors.ts';
import type { Candidate, GenerateResponse, TextModel } from '../models/types.ts';
import type { TrajectoryStep } from '../prompts/react-format.ts';
import { renderPrompt, toolEvoStepPrompts } from '../prompts/registry.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';
import type { ApiStepOutcome } from '../sessions/episode.ts';
import type { ToolTarget } from '../sessions/targets.ts';
import type { StepOutcome } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import type { EnvState } from '../world/kernel/state.ts';
import { depthExceeded } from './config.ts';
import { candidatePriors } from './puct.ts';
import type { NodeEnding, SearchNode, SearchTree } from './tree.ts';

/** The stop string of ToolQA-D's generation calls. */
export const SEARCH_STOP = ['Observation:'];

/** A step's outcome on either backend (the kernel's, an API session's). */
export type AnyOutcome = StepOutcome | ApiStepOutcome;

/** What the search runs against; none of it is stored in the tree. */
export interface SearchEnv<S = EnvState> {
  model: TextModel;
  /**
   * Executes the candidates from a state: the server surface over the world with Finish judged against the task's
   * gold (`kernelTarget`), or an imported API's session step with the query's gold (`apiTarget`).
   */
  target: ToolTarget<S>;
  /** The documentation the prompt shows: a surface (P_c in the ToolQA-D setting) or an API's tool list. */
  docs: Surface | ApiPromptDocs;
  /** STE demonstrations for the task's question (the demonstrations aid), shown in every expansion prompt. */
  demonstrations?: readonly SteDemonstration[];
  /**
   * The documentation of the step after a path, instead of `docs` (the toolPool aid: the tools retrieved along
   * the path, core/retrieval/tool-pool.ts).
   */
  docsFor?: (steps: readonly TrajectoryStep[]) => Promise<Surface | ApiPromptDocs>;
  now?: Date;
  signal?: AbortSignal;
}

export type ChildDraft<S = EnvState> = Omit<SearchNode<S>, 'id' | 'parent' | 'children'>;

export type Expansion<S = EnvState> =
  | { kind: 'children'; drafts: ChildDraft<S>[] }
  /** No child could be made: the state itself becomes terminal with this ending (−1). */
  | { kind: 'fail'; ending: Extract<NodeEnding, 'no-child' | 'empty' | 'budget'> };

/** Error states (spec: invocation, parameter or deprecation errors) get the reflection prompt. */
export function isErrorState(outcome: AnyOutcome | null): boolean {
  return outcome !== null && (outcome.kind === 'rejected' || outcome.kind === 'error');
}

/** A deprecation error: the surface answered a deprecated or retired tool name with its deprecation message. */
export function isDeprecationError(outcome: AnyOutcome | null): boolean {
  return outcome?.kind === 'rejected' && outcome.reason === 'retired';
}

/** An invocation error: an error state other than a deprecation error (what "w/o self-reflection" removes). */
export function isInvocationError(outcome: AnyOutcome | null | undefined): boolean {
  return outcome !== undefined && isErrorState(outcome) && !isDeprecationError(outcome);
}

/** What the "w/o self-reflection" ablation shows instead of an invocation error's message (tooldrift's reading). */
export const INVOCATION_FAILED = 'The call failed.';

/** A step as an expansion prompt shows it, with the outcome it had (for the "w/o self-reflection" ablation). */
export type PathStep = TrajectoryStep & { outcome?: AnyOutcome | null };

/**
 * The steps an expansion prompt shows: the path's steps, or — under "w/o self-reflection" without the reflection
 * prompt — the same steps with every invocation error's observation replaced by INVOCATION_FAILED.
 */
export function promptSteps(
  config: Pick<SearchTree['config'], 'reflectionPrompt' | 'selfReflection'>,
  steps: readonly PathStep[],
): TrajectoryStep[] {
  const mask = !config.selfReflection && !config.reflectionPrompt;
  return steps.map((s) => ({
    text: s.text,
    observation: mask && isInvocationError(s.outcome) ? INVOCATION_FAILED : s.observation,
  }));
}

/**
 * Whether the explicit reflection prompt expands a state: only with `reflectionPrompt` (a tooldrift option), on
 * error states; with the ablation `selfReflection: false` only on deprecation errors (the paper's definition).
 */
export function usesReflectionPrompt(
  config: Pick<SearchTree['config'], 'reflectionPrompt' | 'selfReflection'>,
  outcome: AnyOutcome | null,
): boolean {
  if (!config.reflectionPrompt || !isErrorState(outcome)) return false;
  return config.selfReflection || isDeprecationError(outcome);
}

/** Whitespace-separated words of a prompt (the original's length test, `len(prompt.split())`). */
export function promptWords(messages: readonly { content: string }[]): number {
  let words = 0;
  for (const m of messages) words += m.content.split(/\s+/).filter((w) => w !== '').length;
  return words;
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

export function budgetSpent(tree: SearchTree<unknown>): boolean {
  const u = tree.usage;
  return u.modelCalls >= tree.config.maxModelCalls || u.inputTokens + u.outputTokens >= tree.config.maxTokens;
}

/** A 32-bit request seed from the tree's seed and a key. */
export function requestSeed(tree: SearchTree<unknown>, key: string): number {
  return hash128(`${tree.config.seed}/${key}`)[0];
}

/**
 * Generates and executes the children of `parent` (whose path's steps are `steps`), charging the call to the
 * tree's usage. Nothing is attached to the tree here.
 */
export async function expandState<S>(
  tree: SearchTree<S>,
  env: SearchEnv<S>,
  parent: SearchNode<S>,
  steps: readonly PathStep[],
  key: string,
): Promise<Expansion<S>> {
  if (budgetSpent(tree)) return { kind: 'fail', ending: 'budget' };
  const config = tree.config;
  // The search's prompt choice: ToolEvo's agent prompt; tooldrift's reflection prompt on error states only with
  // `reflectionPrompt` (and, with the `selfReflection: false` ablation, on deprecation errors only).
  const prompts = toolEvoStepPrompts(usesReflectionPrompt(config, parent.outcome));
  const prompt = isErrorState(parent.outcome) ? prompts.afterFailure : prompts.step;
  const messages = renderPrompt(prompt, {
    question: tree.task.question,
    docs: env.docsFor ? await env.docsFor(steps) : env.docs,
    newTools: env.target.status(parent.state).newTools,
    steps: promptSteps(config, steps),
    now: env.now,
    ...(config.toolUpdate ? {} : { toolUpdate: false }),
    ...(config.fewShots === 'per-call'
      ? { fewShots: { dataset: tree.task.dataset, seed: `${config.seed}/${key}` } }
      : {}),
    ...(config.driftHint ? { driftHint: true } : {}),
    ...(env.demonstrations ? { demonstrations: env.demonstrations } : {}),
  });
  if (config.promptWordLimit > 0 && promptWords(messages) > config.promptWordLimit)
    return { kind: 'fail', ending: 'empty' };
  // A prompt the server refuses as longer than the model's context is the same rule at the model's own limit.
  let response: GenerateResponse;
  try {
    response = await env.model.generate(
      {
        messages,
        n: config.k,
        temperature: config.temperature,
        frequencyPenalty: config.frequencyPenalty,
        stop: SEARCH_STOP,
        maxTokens: config.maxNewTokens,
        seed: requestSeed(tree, key),
        logprobs: true,
      },
      env.signal,
    );
  } catch (error) {
    if (error instanceof ModelContextLengthError) return { kind: 'fail', ending: 'empty' };
    throw error;
  }
  tree.usage = {
    modelCalls: tree.usage.modelCalls + 1,
    inputTokens: tree.usage.inputTokens + response.usage.inputTokens,
    outputTokens: tree.usage.outputTokens + response.usage.outputTokens,
  };
  tree.model = response.model;

  const texts: { text: string; candidate: Candidate }[] = [];
  let empty = response.candidates.length === 0;
  for (const candidate of response.candidates) {
    const text = cutStep(candidate.text);
    if (text !== '') texts.push({ text, candidate });
    else empty = true;
  }
  if (texts.length === 0) return { kind: 'fail', ending: 'no-child' };
  // Spec §8.2: any empty sample makes the state terminal (−1) in the original.
  if (empty && config.emptyCandidates === 'any') return { kind: 'fail', ending: 'empty' };

  const drafts: ChildDraft<S>[] = [];
  for (const { text, prior } of candidatePriors(texts, config.priors)) {
    const step = await env.target.step(parent.state, text);
    const state = step.env;
    const depth = parent.depth + 1;
    let ending: NodeEnding | null = null;
    let reward: number | null = null;
    if (step.outcome.kind === 'finished') {
      ending = 'finish';
      reward = env.target.verdict(state) === true ? 1 : -1;
    } else if (depthExceeded(depth, config.maxDepth, config.depthRule)) {
      ending = 'depth';
      reward = -1;
    } else if (env.target.status(state).loads > config.maxLoads) {
      ending = 'loads';
      reward = -1;
    }
    const draft: ChildDraft<S> = {
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
