/**
 * The single-path ReAct agent (ToolQA-D's greedy inference chain, spec §8.3): for one task, repeatedly build the
 * ToolEvo prompt (or its self-reflection variant after a failed step) from the documentation surface, the
 * UpdateTool lines and the trajectory; ask the model for one step; run it on the server surface; append the step
 * and its observation — until Finish, the step budget, or an empty generation.
 *
 * Any TextModel works; the step text is what the model wrote before its first `Observation:` (the stop string is
 * sent and also applied here, for models that ignore it). Everything else — the environment state, UpdateTool
 * lines, truncation, the response format — is the surface adapter's (stepSurface).
 *
 * The prompt (spec §5.1): by default ToolEvo's few-shot agent prompt as its baselines send it — one UpdateTool
 * example and two examples of the task's dataset drawn for every call with a stream seeded by the episode's seed
 * and the step (`fewShots: 'per-call'`), and guidelines without a hint that tools drift. `fewShots: 'fixed'` (three
 * fixed examples) and `driftHint` are tooldrift's earlier prompt, as options. `prompts` may also name the SFT
 * prompt (`toolevo/sft`, the `prompt: "sft"` option of the ReAct methods): the prompt ToolEvo's fine-tuned models
 * are evaluated with (spec §8.3 inference/), in the layout of the SFT export's records, so a model trained on
 * them is tested on the prompt it was trained on.
 *
 * Deliberate differences from ToolQA-D's inference scripts:
 * - The SFT prompt sends the steps as alternating assistant and user turns (the SFT export's layout); ToolEvo's
 *   `inference/` puts them, joined by newlines, into the one user message after the question (spec §5.1). Its
 *   system message lists the path's UpdateTool lines after the tools, as ToolEvo's `{tool_desc}` does; the SFT
 *   records' single system message has none (the UpdateTool call is in the record's turns).
 * - No word-count prompt limit is applied (the original skipped generation above 8,000/10,000 words); an empty
 *   generation ends the episode, as it makes a node terminal in MCTS. A prompt the model's server refuses as
 *   longer than its context (OpenAI's `context_length_exceeded`, vLLM's and llama.cpp's "maximum context length",
 *   typed `ModelContextLengthError`) is the same rule at the model's own limit: no generation, the episode ends as
 *   an empty generation (and an MCTS state becomes terminal with −1) instead of failing as a run error.
 * - No load limit (`max_load_db` belongs to the MCTS search, not to the greedy chain).
 */
import type { ChatMessage } from '../messages/chat.ts';
import { ModelContextLengthError } from '../models/errors.ts';
import type { GenerateRequest, GenerateResponse, TextModel, Usage } from '../models/types.ts';
import { addUsage, emptyUsage } from '../models/types.ts';
import type { TrajectoryStep } from '../prompts/react-format.ts';
import {
  renderPrompt,
  type StepPromptId,
  type StepPrompts,
  toolEvoStepPrompts,
} from '../prompts/registry.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import type { ApiPromptDocs, FewShotMode } from '../prompts/toolevo.ts';
import { PROMPT_VERSION } from '../prompts/types.ts';
import type { ApiStepOutcome } from '../sessions/episode.ts';
import { kernelTarget, type ToolTarget } from '../sessions/targets.ts';
import type { StepOutcome } from '../surfaces/adapter.ts';
import { PC_SURFACE } from '../surfaces/builtin.ts';
import type { Surface } from '../surfaces/model.ts';
import type { KernelDeps, KernelToolName } from '../world/kernel/kernel.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import { createKernelDeps } from '../world/kernel-deps.ts';
import { formatStep } from '../world/react-parse.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';

/** The stop string of ToolQA-D's generation calls. */
export const REACT_STOP = ['Observation:'];

/** ToolQA-D's greedy inference budget (`max_iter` 20). */
export const DEFAULT_MAX_STEPS = 20;

export interface ReactTask {
  question: string;
  gold: Gold;
  /** The task's dataset: the pool of the per-call few-shots (others' examples top it up when absent). */
  dataset?: string;
}

interface ReactLoopBase {
  model: TextModel;
  task: ReactTask;
  /**
   * The documentation of the next step from the steps so far, instead of `docs` (the toolPool aid: only the tools
   * retrieved so far are documented, core/retrieval/tool-pool.ts).
   */
  docsForStep?: (steps: readonly ReactEpisodeStep[]) => Promise<Surface | ApiPromptDocs>;
  maxSteps?: number;
  /** Default 0 (greedy). */
  temperature?: number;
  seed?: number;
  /**
   * Which registered prompt each step uses (decided by the method). Default: ToolEvo's choice with `reflection`
   * (the agent prompt; the self-reflection prompt after a failed step when `reflection` is true).
   */
  prompts?: StepPrompts;
  /** Use the self-reflection prompt for the step after a failed one (when `prompts` is not given). */
  reflection?: boolean;
  /**
   * `per-call` (default, ToolEvo's baselines, spec §5.1): one UpdateTool example and two of the task's dataset,
   * drawn for every call from a stream seeded by `seed` and the step; `fixed`: tooldrift's three fixed examples.
   */
  fewShots?: FewShotMode;
  /** tooldrift's drift hint in the guidelines (off: ToolEvo's prompt gives no hint of drift). */
  driftHint?: boolean;
  /** UpdateTool descriptions carried over from earlier episodes, listed from the first step on. */
  memory?: readonly string[];
  /** STE demonstrations for this question (the demonstrations aid), shown before the turn marker. */
  demonstrations?: readonly SteDemonstration[];
  /** The clock for surfaces with deprecation/sunset dates. */
  now?: Date;
  signal?: AbortSignal;
}

/**
 * A ToolQA-D task on a kernel surface over the world (the fields below), or a query on any backend's tools through
 * an exploration target (`core/sessions/targets.ts`: an imported API's operations through its session step) with
 * the API's documentation.
 */
export type ReactLoopOptions = KernelReactLoopOptions | ApiReactLoopOptions;

export type KernelReactLoopOptions = ReactLoopBase & {
  world: World;
  /** The surface the server runs. */
  surface: Surface;
  /** The surface whose documentation the prompt shows (default P_c, as in ToolQA-D). */
  docs?: Surface;
  /** Kernel dependencies; default: the Python sandbox, no SQL mirror, Finish judged against the task's gold. */
  deps?: KernelDeps;
  target?: undefined;
};

export type ApiReactLoopOptions = ReactLoopBase & {
  /** Answers the steps (`apiTarget` with the query and its gold). */
  target: ToolTarget;
  /** The documentation the prompt shows (default: the target's own tool list). */
  docs?: ApiPromptDocs;
};

export interface ReactEpisodeStep extends TrajectoryStep {
  /** Which prompt template produced the step's prompt. */
  prompt: StepPromptId;
  action?: string;
  kernel?: KernelToolName;
  /** The kernel's outcome, or an API session's on an imported API. */
  outcome: StepOutcome | ApiStepOutcome;
}

export type ReactEnding = 'finish' | 'budget' | 'empty-generation';

export interface ReactEpisode {
  steps: ReactEpisodeStep[];
  /** `Question: …` followed by the trajectory text (steps with their observations). */
  transcript: string;
  /** The Finish answer as Python str(), or null without Finish. */
  answer: string | null;
  correct: boolean;
  ending: ReactEnding;
  /** UpdateTool lines at the end of the episode. */
  newTools: string[];
  /** The target's environment at the end (an API episode's session progress, scored by `ApiToolTarget.score`). */
  env: unknown;
  usage: Usage;
  /** The model as the provider names it (the simulator says so). */
  model: string;
  promptVersion: string;
}

function failed(outcome: StepOutcome | ApiStepOutcome): boolean {
  return outcome.kind === 'rejected' || outcome.kind === 'error';
}

/** The text before the first stop string, trimmed. */
function stepText(text: string): string {
  let end = text.length;
  for (const s of REACT_STOP) {
    const at = text.indexOf(s);
    if (at >= 0 && at < end) end = at;
  }
  return pyStrip(text.slice(0, end));
}

/**
 * One generation, or `null` when the server refused the prompt as longer than the model's context: ToolQA-D's
 * prompt-length rule makes that no generation, an empty sample that ends the episode (spec §5.3), so the run is
 * classified by its steps instead of failing as a run error.
 */
async function generateWithin(
  model: TextModel,
  request: GenerateRequest,
  signal: AbortSignal | undefined,
): Promise<GenerateResponse | null> {
  try {
    return await model.generate(request, signal);
  } catch (error) {
    if (error instanceof ModelContextLengthError) return null;
    throw error;
  }
}

/** The loop's target: the given one, or the kernel surface's (Finish judged against the task's gold). */
function loopTarget(opts: ReactLoopOptions): { target: ToolTarget; docs: Surface | ApiPromptDocs } {
  if (opts.target)
    return { target: opts.target, docs: opts.docs ?? { kind: 'api', toolList: opts.target.toolList() } };
  const target = kernelTarget({
    world: opts.world,
    surface: opts.surface,
    deps: opts.deps ?? createKernelDeps({ gold: opts.task.gold }),
    ...(opts.now ? { now: opts.now } : {}),
  }) as ToolTarget;
  return { target, docs: opts.docs ?? PC_SURFACE };
}

export async function runReactEpisode(opts: ReactLoopOptions): Promise<ReactEpisode> {
  const { target, docs } = loopTarget(opts);
  const maxSteps = opts.maxSteps ?? DEFAULT_MAX_STEPS;
  const prompts = opts.prompts ?? toolEvoStepPrompts(opts.reflection === true);
  let state: unknown = target.fresh((opts.memory ?? []).map((d, i) => `(${14 + i}) ${pyStrip(d)}`));
  const steps: ReactEpisodeStep[] = [];
  let usage = emptyUsage();
  let modelName = opts.model.model;
  let ending: ReactEnding = 'budget';

  for (let i = 0; i < maxSteps; i++) {
    const last = steps.at(-1);
    const prompt = last !== undefined && failed(last.outcome) ? prompts.afterFailure : prompts.step;
    const messages: ChatMessage[] = renderPrompt(prompt, {
      question: opts.task.question,
      docs: opts.docsForStep ? await opts.docsForStep(steps) : docs,
      newTools: target.status(state).newTools,
      steps,
      now: opts.now,
      demonstrations: opts.demonstrations,
      ...((opts.fewShots ?? 'per-call') === 'per-call'
        ? { fewShots: { dataset: opts.task.dataset, seed: `react/${opts.seed ?? 0}/step/${i}` } }
        : {}),
      ...(opts.driftHint ? { driftHint: true } : {}),
    });
    const request: GenerateRequest = {
      messages,
      n: 1,
      temperature: opts.temperature ?? 0,
      stop: REACT_STOP,
    };
    if (opts.seed !== undefined) request.seed = opts.seed;
    const response = await generateWithin(opts.model, request, opts.signal);
    if (response === null) {
      ending = 'empty-generation';
      break;
    }
    usage = addUsage(usage, response.usage);
    modelName = response.model;
    const text = stepText(response.candidates[0]?.text ?? '');
    if (text === '') {
      ending = 'empty-generation';
      break;
    }
    const result = await target.step(state, text);
    state = result.env;
    const step: ReactEpisodeStep = {
      text,
      observation: result.observation,
      prompt,
      outcome: result.outcome,
    };
    if (result.action !== undefined) step.action = result.action;
    if (result.kernel !== undefined) step.kernel = result.kernel;
    steps.push(step);
    if (result.outcome.kind === 'finished') {
      ending = 'finish';
      break;
    }
  }

  const status = target.status(state);
  return {
    steps,
    transcript: [
      `Question: ${opts.task.question}`,
      ...steps.map((s) => formatStep(s.text, s.observation)),
    ].join('\n\n'),
    answer: status.answer,
    correct: status.correct === true,
    ending,
    newTools: status.newTools,
    env: state,
    usage,
    model: modelName,
    promptVersion: PROMPT_VERSION,
  };
}
