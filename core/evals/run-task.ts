/**
 * One task run of an evaluation: a registered method (core/methods) answers one task against a server surface,
 * and the run is recorded the same way for every method — answer, correctness, the steps of the answering path
 * with their outcomes, tool updates, usage and wall time — so aggregates and the error taxonomy (taxonomy.ts)
 * treat all methods alike. Dispatch, option lookup and the memory rule are the registry's.
 */
import type { ResolvedAids } from '../aids/index.ts';
import type { EvalOutcome } from '../methods/method.ts';
import { getMethod, suiteMethodOptions } from '../methods/registry.ts';
import type { TextModel } from '../models/types.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';
import type { EvalMethod, EvalSuite } from './suite.ts';

export type { EvalEnding, EvalOutcome, EvalStep } from '../methods/method.ts';
export { outcomeLabel } from '../methods/method.ts';

export interface EvalTaskInput {
  method: EvalMethod;
  suite: EvalSuite;
  /** `dataset` and `difficulty` pick the few-shot pool and the `toolevo-code` depth of search methods. */
  task: { id: string; question: string; gold: Gold; dataset?: string; difficulty?: 'easy' | 'hard' };
  model: TextModel;
  world: World;
  surface: Surface;
  /** The documentation surface (the suite's documentation aid or promptSurface). */
  docs: Surface;
  deps: KernelDeps;
  /** The memory carried from the earlier tasks of the group (methods that carry memory; ignored otherwise). */
  memory?: unknown;
  now?: Date;
  /** Milliseconds since some origin, for the run's wall time (default Date.now). */
  clock?: () => number;
  signal?: AbortSignal;
  /** The demonstrations aid's lookup, when the suite asks for demonstrations (resolved by the caller). */
  demonstrations?: ResolvedAids['demonstrations'];
  /** The toolPool aid's retriever, when the suite asks for a pool (resolved by the caller). */
  toolPool?: ResolvedAids['toolPool'];
}

/**
 * The model's seed for a task run: from the suite seed, method, surface and task (so reruns repeat). `mcts-oracle`
 * is seeded as `mcts`: the same search, answered by another rule, so the two rows differ only by that rule.
 */
export function taskSeed(suite: EvalSuite, method: EvalMethod, surface: string, taskId: string): number {
  const seeded = method === 'mcts-oracle' ? 'mcts' : method;
  return suite.model?.seed ?? (hash128(`eval/${suite.seed}/${seeded}/${surface}/${taskId}`)[0] as number);
}

/** The aids of a suite for one run, given the documentation surface the caller looked up. */
export function suiteAids(
  suite: EvalSuite,
  docs: Surface,
  demonstrations?: ResolvedAids['demonstrations'],
  toolPool?: ResolvedAids['toolPool'],
): ResolvedAids {
  const aids: ResolvedAids = { documentation: docs, updateMemory: suite.aids?.updateMemory?.lines ?? [] };
  if (demonstrations) aids.demonstrations = demonstrations;
  if (toolPool) aids.toolPool = toolPool;
  return aids;
}

export async function runEvalTask(input: EvalTaskInput): Promise<EvalOutcome> {
  const method = getMethod(input.method);
  const seed = taskSeed(input.suite, input.method, input.surface.id, input.task.id);
  const temperature = input.suite.model?.temperature;
  const o = await method.run({
    task: input.task,
    options: suiteMethodOptions(input.suite, method),
    model: input.model,
    world: input.world,
    surface: input.surface,
    deps: input.deps,
    aids: suiteAids(input.suite, input.docs, input.demonstrations, input.toolPool),
    ...(method.memory !== null && input.memory !== undefined ? { memory: input.memory } : {}),
    limits: { maxSteps: input.suite.maxSteps },
    ...(temperature !== undefined ? { temperature } : {}),
    seeds: { model: seed, search: `${input.suite.seed}/${seed}` },
    ...(input.now ? { now: input.now } : {}),
    ...(input.clock ? { clock: input.clock } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return {
    answer: o.answer,
    correct: o.correct,
    ending: o.ending,
    steps: o.steps,
    toolUpdates: o.toolUpdates,
    modelCalls: o.modelCalls,
    inputTokens: o.inputTokens,
    outputTokens: o.outputTokens,
    latencyMs: o.latencyMs,
  };
}
