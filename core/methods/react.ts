/**
 * The single-path ReAct run shared by the ReAct methods (greedy, greedy-memory, react-reflexion): one episode of
 * core/agents/react-loop.ts with the method's prompt choice, recorded as a MethodOutcome.
 */
import { runReactEpisode } from '../agents/react-loop.ts';
import type { StepPrompts } from '../prompts/registry.ts';
import { type MethodOutcome, type MethodRunInput, memoryText, outcomeLabel } from './method.ts';

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
  const episode = await runReactEpisode({
    model: input.model,
    world: input.world,
    task: { question: input.task.question, gold: input.task.gold },
    surface: input.surface,
    docs: input.aids.documentation,
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
