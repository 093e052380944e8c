/**
 * The single-path ReAct run shared by the ReAct methods (greedy, greedy-memory, react-reflexion): one episode of
 * core/agents/react-loop.ts with the method's prompt choice, recorded as a MethodOutcome.
 *
 * Their options (`ReactOptionsSchema`, a suite member named by the method's id; `prompt` also in POST /v1/solve):
 * - `prompt`: `agent` (default) — ToolEvo's few-shot agent prompt, as its baselines and API models are evaluated
 *   (spec §8.3 inference_gpt/); `sft` — ToolEvo's SFT prompt (tool list only, no guidelines or examples, the
 *   steps as turns), as its fine-tuned models are evaluated (spec §8.3 inference/) and as the SFT export's records
 *   are laid out: the prompt for a model trained on those exports. With `sft` no reflection prompt is used.
 * - `fewShots`: `per-call` (default, spec §5.1) — one UpdateTool example and two of the task's dataset drawn for
 *   every call, by seed; `fixed` — tooldrift's three fixed examples without an UpdateTool example.
 * - `driftHint`: false (default; ToolEvo's prompts give no hint of drift, App. B.1); true adds tooldrift's hint
 *   to guideline 4.
 */
import { z } from 'zod';
import { type ReactLoopOptions, runReactEpisode } from '../agents/react-loop.ts';
import { SFT_STEP_PROMPTS, type StepPrompts, toolEvoStepPrompts } from '../prompts/registry.ts';
import { FEW_SHOT_MODES } from '../prompts/toolevo.ts';
import type { SessionProgress } from '../sessions/episode.ts';
import type { ApiToolTarget } from '../sessions/targets.ts';
import {
  type ApiMethodRunInput,
  defineMethod,
  type MethodOutcome,
  type MethodRunInput,
  memoryText,
  outcomeLabel,
} from './method.ts';

/** The prompts a ReAct method can evaluate a model with (see the module header). */
export const REACT_PROMPTS = ['agent', 'sft'] as const;

export const ReactOptionsSchema = z.strictObject({
  /** `agent`: ToolEvo's few-shot agent prompt; `sft`: its SFT prompt (the SFT export's layout). */
  prompt: z.enum(REACT_PROMPTS).default('agent'),
  /** `per-call`: 1 UpdateTool + 2 examples of the task's dataset drawn per call; `fixed`: three fixed examples. */
  fewShots: z.enum(FEW_SHOT_MODES).default('per-call'),
  /** tooldrift's hint that tools drift, in guideline 4 (off: the paper's prompt). */
  driftHint: z.boolean().default(false),
});
export type ReactOptions = z.output<typeof ReactOptionsSchema>;

export async function runReact(
  input: MethodRunInput<ReactOptions, unknown> | ApiMethodRunInput<ReactOptions, unknown>,
  choice: { prompts: StepPrompts; memory?: readonly string[] },
): Promise<MethodOutcome> {
  const options = input.options;
  const clock = input.clock ?? Date.now;
  const started = clock();
  const question = 'target' in input ? input.query.question : input.task.question;
  // The aid's lines first, then the carried ones (which repeat the aid's lines after the first task).
  const memory = [...new Set([...input.aids.updateMemory, ...(choice.memory ?? [])])];
  const demonstrations = input.aids.demonstrations ? await input.aids.demonstrations(question) : [];
  const common = {
    model: input.model,
    maxSteps: input.limits.maxSteps,
    temperature: input.temperature ?? 0,
    seed: input.seeds.model,
    prompts: options.prompt === 'sft' ? SFT_STEP_PROMPTS : choice.prompts,
    fewShots: options.fewShots,
    driftHint: options.driftHint,
    ...(memory.length > 0 ? { memory } : {}),
    ...(demonstrations.length > 0 ? { demonstrations } : {}),
    ...(input.now ? { now: input.now } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  };
  const pool = 'target' in input ? undefined : input.aids.toolPool;
  const apiPool = 'target' in input ? input.aids.toolPool : undefined;
  const loop: ReactLoopOptions =
    'target' in input
      ? {
          ...common,
          task: { question, gold: '' },
          target: input.target,
          ...(input.docs ? { docs: input.docs } : {}),
          ...(apiPool ? { docsForStep: (steps) => apiPool.docsFor(question, steps) } : {}),
        }
      : {
          ...common,
          task: {
            question,
            gold: input.task.gold,
            ...(input.task.dataset !== undefined ? { dataset: input.task.dataset } : {}),
          },
          world: input.world,
          surface: input.surface,
          docs: input.aids.documentation,
          ...(pool ? { docsForStep: (steps) => pool.docsFor(question, steps) } : {}),
          deps: input.deps,
        };
  const episode = await runReactEpisode(loop);
  return {
    answer: episode.answer,
    correct: episode.correct,
    ending: episode.ending,
    steps: episode.steps.map((s) => ({
      text: s.text,
      observation: s.observation,
      ...(s.action !== undefined ? { action: s.action } : {}),
      outcome: outcomeLabel(s.outcome),
    })),
    toolUpdates: episode.newTools.map(memoryText),
    modelCalls: episode.usage.calls,
    inputTokens: episode.usage.inputTokens,
    outputTokens: episode.usage.outputTokens,
    latencyMs: Math.max(0, clock() - started),
    model: episode.model,
    newTools: episode.newTools,
    search: null,
    ...('target' in input && 'score' in input.target
      ? { api: (input.target as ApiToolTarget).score(episode.env as SessionProgress) }
      : {}),
  };
}

/** A ReAct run makes one model call per step (core/agents/react-loop.ts), so at most `maxSteps`. */
export const reactModelCalls = (_options: ReactOptions, limits: { maxSteps: number }): number =>
  limits.maxSteps;

/**
 * A memoryless single-path ReAct method with the ReAct options that differs from its siblings only in whether the
 * step after a failed one uses the self-reflection prompt (ToolEVO eq. 5 on a single path).
 */
export function reactMethod<const Id extends string>(id: Id, summary: string, reflect: boolean) {
  return defineMethod({
    id,
    summary,
    options: ReactOptionsSchema,
    aids: ['documentation', 'updateMemory', 'demonstrations', 'toolPool'],
    memory: null,
    modelCalls: reactModelCalls,
    run: (input) => runReact(input, { prompts: toolEvoStepPrompts(reflect) }),
    runApi: (input) => runReact(input, { prompts: toolEvoStepPrompts(reflect) }),
  });
}
