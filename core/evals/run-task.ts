/**
 * One task run of an evaluation: a method (suite.ts) answers one task against a server surface, and the run
 * is recorded the same way for every method — answer, correctness, the steps of the answering path with their
 * outcomes, tool updates, usage and wall time — so aggregates and the error taxonomy (taxonomy.ts) treat
 * greedy and MCTS runs alike.
 */
import { runReactEpisode } from '../agents/react-loop.ts';
import type { TextModel } from '../models/types.ts';
import { answerLeaf } from '../search/answer.ts';
import { depthFor, type SearchConfigInput } from '../search/config.ts';
import { createSearch, runSearch, searchEnv } from '../search/mcts.ts';
import { node, pathTo } from '../search/tree.ts';
import type { StepOutcome } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';
import { type EvalMethod, type EvalSuite, SEARCH_METHODS } from './suite.ts';

export interface EvalStep {
  text: string;
  observation: string;
  action?: string;
  /** `ok`, `finished:correct|wrong`, `error:<kernel reason>` or `rejected:<surface reason>`. */
  outcome: string;
}

/**
 * How a task run ended: `finish`; `budget` (the greedy step limit, or a search whose answering path ended without a
 * Finish); `empty-generation`; `call-budget` (a search stopped by the suite's explicit model-call cap without a
 * Finish to answer with — reported apart, not as a wrong answer); `open`.
 */
export type EvalEnding = 'finish' | 'budget' | 'empty-generation' | 'call-budget' | 'open';

export interface EvalOutcome {
  answer: string | null;
  correct: boolean;
  ending: EvalEnding;
  steps: EvalStep[];
  toolUpdates: string[];
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

export interface EvalTaskInput {
  method: EvalMethod;
  suite: EvalSuite;
  /** `dataset` and `difficulty` pick the depth of the `toolevo-code` preset (the paper's T without them). */
  task: { id: string; question: string; gold: Gold; dataset?: string; difficulty?: 'easy' | 'hard' };
  model: TextModel;
  world: World;
  surface: Surface;
  docs: Surface;
  deps: KernelDeps;
  /** greedy-memory: UpdateTool descriptions learnt on the earlier tasks of the group. */
  memory?: readonly string[];
  now?: Date;
  /** Milliseconds since some origin, for the run's wall time (default Date.now). */
  clock?: () => number;
  signal?: AbortSignal;
}

/** The search settings of each method beyond the suite's (Table 5 ablations). */
const ABLATION_CONFIG: Partial<Record<EvalMethod, SearchConfigInput>> = {
  'mcts-no-reflection': { selfReflection: false },
  'mcts-no-tool-update': { toolUpdate: false },
  'mcts-no-cached-rollout': { cachedRollout: false },
};

/** No model-call cap: the search is bounded by its simulations and depth only. */
const NO_CAP = Number.MAX_SAFE_INTEGER;

export function outcomeLabel(outcome: StepOutcome | null | undefined): string {
  if (!outcome) return 'none';
  switch (outcome.kind) {
    case 'ok':
      return 'ok';
    case 'finished':
      return outcome.correct ? 'finished:correct' : 'finished:wrong';
    case 'error':
      return `error:${outcome.reason}`;
    case 'rejected':
      return `rejected:${outcome.reason}`;
  }
}

/**
 * The model's seed for a task run: from the suite seed, method, surface and task (so reruns repeat). `mcts-oracle`
 * is seeded as `mcts`: the same search, answered by another rule, so the two rows differ only by that rule.
 */
export function taskSeed(suite: EvalSuite, method: EvalMethod, surface: string, taskId: string): number {
  const seeded = method === 'mcts-oracle' ? 'mcts' : method;
  return suite.model?.seed ?? (hash128(`eval/${suite.seed}/${seeded}/${surface}/${taskId}`)[0] as number);
}

/** Strips the `(n) ` list number the ReAct loop puts in front of an UpdateTool line. */
function memoryText(line: string): string {
  return line.replace(/^\(\d+\)\s*/, '');
}

export async function runEvalTask(input: EvalTaskInput): Promise<EvalOutcome> {
  const clock = input.clock ?? Date.now;
  const started = clock();
  const seed = taskSeed(input.suite, input.method, input.surface.id, input.task.id);
  if (SEARCH_METHODS.includes(input.method)) {
    const budget = input.suite.mcts;
    const depth =
      input.task.dataset !== undefined && input.task.difficulty !== undefined
        ? depthFor(
            budget.depthPreset,
            { dataset: input.task.dataset, difficulty: input.task.difficulty },
            budget.maxDepth,
          )
        : { maxDepth: budget.maxDepth, depthRule: 'paper' as const };
    const tree = createSearch(
      {
        id: input.task.id,
        question: input.task.question,
        gold: input.task.gold,
        ...(input.task.dataset !== undefined ? { dataset: input.task.dataset } : {}),
      },
      {
        mode: 'mcts',
        simulations: budget.simulations,
        k: budget.k,
        ...depth,
        reflectionPrompt: budget.reflectionPrompt,
        ...ABLATION_CONFIG[input.method],
        // The original has no model-call cap (only a 3,600 s wall clock per question): off unless the suite sets one.
        ...(budget.maxModelCalls !== undefined
          ? { maxModelCalls: budget.maxModelCalls }
          : { maxModelCalls: NO_CAP }),
        ...(input.suite.model?.temperature !== undefined
          ? { temperature: input.suite.model.temperature }
          : {}),
        seed: `${input.suite.seed}/${seed}`,
      },
    );
    await runSearch(
      tree,
      searchEnv(tree, {
        model: input.model,
        world: input.world,
        surface: input.surface,
        docs: input.docs,
        deps: input.deps,
        ...(input.now ? { now: input.now } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    );
    const leaf = answerLeaf(tree, input.method === 'mcts-oracle' ? 'oracle' : 'visits');
    const end = leaf === null ? null : node(tree, leaf);
    const finished = end?.ending === 'finish';
    return {
      answer: finished ? (end?.state.answer ?? null) : null,
      correct: finished && end?.reward === 1,
      ending: finished
        ? 'finish'
        : tree.stopReason === 'budget'
          ? 'call-budget'
          : end?.ending === 'empty'
            ? 'empty-generation'
            : end?.terminal
              ? 'budget'
              : 'open',
      steps: (leaf === null ? [] : pathTo(tree, leaf)).map((id) => {
        const n = node(tree, id);
        return {
          text: n.text,
          observation: n.observation,
          ...(n.action !== undefined ? { action: n.action } : {}),
          outcome: outcomeLabel(n.outcome),
        };
      }),
      toolUpdates: end ? end.state.newTools.map(memoryText) : [],
      modelCalls: tree.usage.modelCalls,
      inputTokens: tree.usage.inputTokens,
      outputTokens: tree.usage.outputTokens,
      latencyMs: Math.max(0, clock() - started),
    };
  }

  const episode = await runReactEpisode({
    model: input.model,
    world: input.world,
    task: { question: input.task.question, gold: input.task.gold },
    surface: input.surface,
    docs: input.docs,
    deps: input.deps,
    maxSteps: input.suite.maxSteps,
    temperature: input.suite.model?.temperature ?? 0,
    seed,
    ...(input.method === 'greedy-memory' && input.memory ? { memory: input.memory } : {}),
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
  };
}
