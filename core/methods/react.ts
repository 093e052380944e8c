/**
 * The single-path ReAct run shared by the ReAct methods (greedy, greedy-memory, react-reflexion): one episode of
 * core/agents/react-loop.ts with the method's prompt choice, recorded as a MethodOutcome.
 */
import { z } from 'zod';
import { runReactEpisode } from '../agents/react-loop.ts';
import { type StepPrompts, toolEvoStepPrompts } from '../prompts/registry.ts';
import { defineMethod, type MethodOutcome, type MethodRunInput, memoryText, outcomeLabel } from './method.ts';

export async function runReact(
  input: MethodRunInput<unknown, unknown>,
  choice: { prompts: StepPrompts; memory?: readonly string[] },
): Promise<MethodOutcome> {
  const clock = input.clock ?? Date.now;
  const started = clock();
  // The aid's lines first, then the carried ones (which repeat the aid's lines after the first task).
  const memory = [...new Set([...input.aids.updateMemory, ...(choice.memory ?? [])])];
  const demonstrations = input.aids.demonstrations
    ? await input.aids.demonstrations(input.task.question)
    : [];
  const pool = input.aids.toolPool;
  const episode = await runReactEpisode({
    model: input.model,
    world: input.world,
    task: { question: input.task.question, gold: input.task.gold },
    surface: input.surface,
    docs: input.aids.documentation,
    ...(pool ? { docsForStep: (steps) => pool.docsFor(input.task.question, steps) } : {}),
    deps: input.deps,
    maxSteps: input.limits.maxSteps,
    temperature: input.temperature ?? 0,
    seed: input.seeds.model,
    prompts: choice.prompts,
    ...(memory.length > 0 ? { memory } : {}),
    ...(demonstrations.length > 0 ? { demonstrations } : {}),
    ...(input.now ? { now: input.now } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
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
  };
}

/** A ReAct run makes one model call per step (core/agents/react-loop.ts), so at most `maxSteps`. */
export const reactModelCalls = (_options: unknown, limits: { maxSteps: number }): number => limits.maxSteps;

/**
 * A memoryless single-path ReAct method without options that differs from its siblings only in whether the step
 * after a failed one uses the self-reflection prompt (ToolEVO eq. 5 on a single path).
 */
export function reactMethod<const Id extends string>(id: Id, summary: string, reflect: boolean) {
  return defineMethod({
    id,
    summary,
    options: z.strictObject({}),
    aids: ['documentation', 'updateMemory', 'demonstrations', 'toolPool'],
    memory: null,
    modelCalls: reactModelCalls,
    run: (input) => runReact(input, { prompts: toolEvoStepPrompts(reflect) }),
  });
}
