/**
 * The search methods — a small ToolEvo search per task (core/search: MCTS with self-reflection and tool update,
 * ToolEVO §3.2–3.3, spec toolqa-d.md §8.1) — differing only in how the answer is read off the tree and in the
 * Table 5 ablation they switch on:
 * - `mcts`: the answer is chosen without gold, the most visited Finish, ties by Q (core/search/answer.ts);
 * - `mcts-oracle`: the same search, answered by the first Finish judged correct when there is one — an upper
 *   bound, labelled so wherever it is shown (evaluations seed it as `mcts`, so the two rows share their trees);
 * - `mcts-no-reflection` (w/o self-reflection as the paper defines it: the reflection prompt is removed on
 *   invocation errors and kept on deprecation errors: under the defaults the invocation errors' messages are
 *   hidden from the prompt, tooldrift's reading; with `reflectionPrompt` the reflection prompt is kept on
 *   deprecation errors only), `mcts-no-tool-update` (no UpdateTool in the prompt's tool list, guidelines and
 *   examples, nor on the server), `mcts-no-cached-rollout` (rollout states are thrown away). See
 *   core/search/expand.ts.
 *
 * Options are the search budget plus `depthPreset` (the paper's T, or the authors' per-dataset table),
 * `reflectionPrompt` (tooldrift's explicit reflection prompt, off by default) and `maxModelCalls` (an explicit
 * cap, off by default as in the original, which has only a per-question wall clock; a search stopped by it
 * without a Finish ends as `call-budget`). The temperature is the search's own (0.5) unless the model choice sets
 * one.
 *
 * On an imported API (`runApi`, issue 23 §1) the same search runs over the API's target (`apiTarget`: each node's
 * state is its path's session — the mock's overlay and the calls — and every candidate is the API session's step);
 * the prompt lists the chosen documentation (or the toolPool aid's retrieved operations). `mcts-no-tool-update`
 * does not run there (an API has no UpdateTool: the ablation would be `mcts` itself).
 *
 * Deliberate differences from ToolQA-D:
 * - On an imported API the Finish reward stands for ToolEvo's environment verdict (the answer judged against the
 *   task's gold, ±1): it is the answer matcher when the query-set item has a gold answer, else — RestBench and
 *   DRAFT's sets have gold paths only — the item's gold path as an ordered subsequence of the path's calls (Correct
 *   Path Rate, the DRAFT paper's definition). So `mcts-oracle` on an API answers with the first Finish whose path
 *   (or answer) matches the gold, and both rules read rewards computed from that gold, as on the kernel.
 */
import { z } from 'zod';
import type { AidSlot } from '../aids/index.ts';
import { type AnswerRule, answerLeaf } from '../search/answer.ts';
import {
  DEPTH_PRESETS,
  depthFor,
  ROLLOUT_RULES,
  type SearchConfigInput,
  treeModelCalls,
} from '../search/config.ts';
import { createSearch, runSearch, searchEnv, targetSearchEnv } from '../search/mcts.ts';
import { node, pathTo, type SearchTree, solutions } from '../search/tree.ts';
import type { ApiToolTarget, ToolTarget } from '../sessions/targets.ts';
import {
  type ApiMethodRunInput,
  defineMethod,
  type MethodOutcome,
  memoryText,
  outcomeLabel,
} from './method.ts';

export type MctsBudget = z.output<typeof MctsBudgetSchema>;

export const MctsBudgetSchema = z.strictObject({
  simulations: z.number().int().min(1).max(50).default(8),
  k: z.number().int().min(1).max(5).default(3),
  maxDepth: z.number().int().min(1).max(30).default(15),
  /**
   * An explicit model-call cap per task run (off by default: the original has only a per-question wall clock).
   * A search that reaches it without a Finish ends as `call-budget`, reported apart from wrong answers.
   */
  maxModelCalls: z.number().int().min(1).max(100_000).optional(),
  /** `paper`: T = maxDepth with depth > T; `toolevo-code`: the authors' per-dataset T and comparison. */
  depthPreset: z.enum(DEPTH_PRESETS).default('paper'),
  /** tooldrift's explicit reflection prompt on error states (off: ToolEvo reflects in its next Thought). */
  reflectionPrompt: z.boolean().default(false),
  /** `all`: every new child is rolled out (the authors' code); `one`: one at random (Algorithm 1). */
  rollout: z.enum(ROLLOUT_RULES).default('all'),
});

/** No model-call cap: the search is bounded by its simulations and depth only. */
const NO_CAP = Number.MAX_SAFE_INTEGER;

function searchMethod<Id extends string>(
  id: Id,
  summary: string,
  answerRule: AnswerRule,
  ablation: SearchConfigInput = {},
  aids: readonly AidSlot[] = ['documentation', 'demonstrations', 'toolPool'],
) {
  return defineMethod({
    id,
    summary,
    options: MctsBudgetSchema,
    aids,
    memory: null,
    // A tree's bound (core/search/config.ts `treeModelCalls`: an expansion and the rollouts of its evaluated
    // children per simulation) at the deepest T the depth rule allows (the code's table's largest is 20); an
    // explicit cap bounds it further.
    modelCalls: (budget, limits) =>
      treeModelCalls({
        mode: 'mcts',
        simulations: budget.simulations,
        k: budget.k,
        rollout: budget.rollout,
        maxDepth: budget.depthPreset === 'toolevo-code' ? 20 : budget.maxDepth,
        maxModelCalls: budget.maxModelCalls ?? limits.maxModelCalls ?? NO_CAP,
      }),
    async run(input) {
      const clock = input.clock ?? Date.now;
      const started = clock();
      const { dataset, difficulty } = input.task;
      const tree = createSearch(
        {
          ...(input.task.id !== undefined ? { id: input.task.id } : {}),
          question: input.task.question,
          gold: input.task.gold,
          ...(dataset !== undefined ? { dataset } : {}),
        },
        searchConfig(
          input,
          dataset !== undefined && difficulty !== undefined ? { dataset, difficulty } : null,
          ablation,
        ),
      );
      const demonstrations = input.aids.demonstrations
        ? await input.aids.demonstrations(input.task.question)
        : [];
      const pool = input.aids.toolPool;
      const env = searchEnv(tree, {
        model: input.model,
        world: input.world,
        surface: input.surface,
        docs: input.aids.documentation,
        ...(pool ? { docsFor: (steps) => pool.docsFor(input.task.question, steps) } : {}),
        deps: input.deps,
        demonstrations,
        ...(input.now ? { now: input.now } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      });
      await runSearch(tree, env);
      return searchOutcome(tree, env.target, answerRule, clock() - started, input.model.model);
    },
    // Table 5's "w/o tool update" removes UpdateTool, which an imported API never has: on an API it would be
    // `mcts` itself, so it runs on the kernel only (a suite naming an API refuses it).
    ...(ablation.toolUpdate === false ? {} : { runApi: apiRun(answerRule, ablation) }),
  });
}

/**
 * One query of an imported API (issue 23 §1): the same search stepping the API's session through its target
 * (`apiTarget`), each node's state that path's session (the mock's overlay and the calls); Finish's reward is
 * the target's verdict against the item's gold (the answer matcher when the query has a gold answer, else the
 * gold path as an ordered subsequence of the path's calls — see the module header). The outcome's `api` is the
 * answering path's score: Correct Path Rate in both definitions from its raw calls, and the answer's verdict.
 */
function apiRun(answerRule: AnswerRule, ablation: SearchConfigInput) {
  return async (input: ApiMethodRunInput<MctsBudget>): Promise<MethodOutcome> => {
    const clock = input.clock ?? Date.now;
    const started = clock();
    const target = input.target as ApiToolTarget;
    const question = input.query.question;
    const tree = createSearch({ question, gold: '' }, searchConfig(input, null, ablation), target.fresh());
    const demonstrations = input.aids.demonstrations ? await input.aids.demonstrations(question) : [];
    const pool = input.aids.toolPool;
    await runSearch(
      tree,
      targetSearchEnv({
        model: input.model,
        target,
        ...(input.docs ? { docs: input.docs } : {}),
        ...(pool ? { docsFor: (steps) => pool.docsFor(question, steps) } : {}),
        demonstrations,
        ...(input.now ? { now: input.now } : {}),
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    );
    const outcome = searchOutcome(tree, target, answerRule, clock() - started, input.model.model);
    const leaf = answerLeaf(tree, answerRule);
    return { ...outcome, api: target.score(leaf === null ? target.fresh() : node(tree, leaf).state) };
  };
}

/** The search's settings from a method's budget options (the depth preset needs the task's dataset and level). */
function searchConfig(
  input: {
    options: MctsBudget;
    limits: { maxModelCalls?: number };
    temperature?: number;
    seeds: { search: string };
  },
  task: { dataset: string; difficulty: 'easy' | 'hard' } | null,
  ablation: SearchConfigInput = {},
): SearchConfigInput {
  const budget = input.options;
  const depth = task
    ? depthFor(budget.depthPreset, task, budget.maxDepth)
    : { maxDepth: budget.maxDepth, depthRule: 'paper' as const };
  return {
    mode: 'mcts',
    simulations: budget.simulations,
    k: budget.k,
    ...depth,
    reflectionPrompt: budget.reflectionPrompt,
    rollout: budget.rollout,
    ...ablation,
    maxModelCalls: budget.maxModelCalls ?? input.limits.maxModelCalls ?? NO_CAP,
    ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
    seed: input.seeds.search,
  };
}

/** A finished search as a method's outcome: the answering path (`answerRule`) read through the target's status. */
function searchOutcome<S>(
  tree: SearchTree<S>,
  target: ToolTarget<S>,
  answerRule: AnswerRule,
  latencyMs: number,
  model: string,
): MethodOutcome {
  const leaf = answerLeaf(tree, answerRule);
  const end = leaf === null ? null : node(tree, leaf);
  const finished = end?.ending === 'finish';
  const status = end ? target.status(end.state) : null;
  return {
    answer: finished ? (status?.answer ?? null) : null,
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
    steps: (leaf === null ? [] : pathTo(tree, leaf)).map((nid) => {
      const n = node(tree, nid);
      return {
        text: n.text,
        observation: n.observation,
        ...(n.action !== undefined ? { action: n.action } : {}),
        outcome: outcomeLabel(n.outcome),
      };
    }),
    toolUpdates: status ? status.newTools.map(memoryText) : [],
    modelCalls: tree.usage.modelCalls,
    inputTokens: tree.usage.inputTokens,
    outputTokens: tree.usage.outputTokens,
    latencyMs: Math.max(0, latencyMs),
    model: tree.model ?? model,
    newTools: status ? [...status.newTools] : [],
    search: {
      nodes: tree.nodes.length,
      iterations: tree.iteration,
      solutions: solutions(tree).length,
      ending: end?.ending ?? null,
    },
  };
}

/** The Table 5 ablations keep the paper's setting: no Chain-of-Tools pool (the toolPool aid is mcts's). */
const TABLE5_AIDS: readonly AidSlot[] = ['documentation', 'demonstrations'];

export const mcts = searchMethod(
  'mcts',
  'A small ToolEvo Monte Carlo tree search per task; answers the most visited Finish (no gold).',
  'visits',
);

export const mctsOracle = searchMethod(
  'mcts-oracle',
  'UPPER BOUND: the mcts search answered by the first Finish judged correct against gold.',
  'oracle',
);

export const mctsNoReflection = searchMethod(
  'mcts-no-reflection',
  'Table 5 ablation of mcts: w/o self-reflection (no reflection on invocation errors, kept on deprecation errors).',
  'visits',
  { selfReflection: false },
  TABLE5_AIDS,
);

export const mctsNoToolUpdate = searchMethod(
  'mcts-no-tool-update',
  'Table 5 ablation of mcts: w/o tool update (no UpdateTool in the prompt, its guideline and example, nor on the server).',
  'visits',
  { toolUpdate: false },
  TABLE5_AIDS,
);

export const mctsNoCachedRollout = searchMethod(
  'mcts-no-cached-rollout',
  'Table 5 ablation of mcts: w/o cached rollout (rollout states are thrown away).',
  'visits',
  { cachedRollout: false },
  TABLE5_AIDS,
);
