/**
 * An evaluation suite: which methods run against which server surfaces, on which tasks (datasets × difficulty,
 * a split and a seeded sample size), with which model and seed. One zod schema validates it for
 * `POST /v1/evals`, for stored schedules and for the CLI, so all three give the same messages.
 *
 * Methods:
 * - `greedy` — the ReAct agent (core/agents/react-loop.ts) at temperature 0; UpdateTool lines help only within
 *   the episode.
 * - `greedy-memory` — the same agent, with the tool-update memory carried over: the UpdateTool lines of a task
 *   are listed from the first step of the following tasks of its group (same surface, dataset and difficulty,
 *   in task-id order), the way a deployed agent keeps what it learnt about changed tools.
 * - `mcts` — a small ToolEvo search per task (core/search); its answer is chosen without gold: the most visited
 *   Finish, ties by Q (core/search/answer.ts).
 * - `mcts-oracle` — the same search, answered by the first Finish judged correct against gold when there is one:
 *   an upper bound, labelled so wherever it is shown.
 * - Table 5 ablations of `mcts` (ToolEVO's ablation study): `mcts-no-reflection` (w/o self-reflection as the
 *   paper defines it: no reflection on invocation errors, kept on deprecation errors — needs the reflection
 *   prompt, `mcts.reflectionPrompt`), `mcts-no-tool-update` (UpdateTool adds nothing to the tool list),
 *   `mcts-no-cached-rollout` (rollout states are thrown away). `TABLE5_METHODS` is the Table-5-shaped suite.
 *
 * MCTS settings follow the paper by default (core/search/config.ts); `mcts.depthPreset: 'toolevo-code'` takes the
 * authors' per-dataset depth table, `mcts.reflectionPrompt` tooldrift's explicit reflection prompt, and
 * `mcts.maxModelCalls` an explicit per-task model-call cap.
 */
import { z } from 'zod';
import { ModelChoiceSchema } from '../models/choice.ts';
import { DEPTH_PRESETS } from '../search/config.ts';
import { DATASET_NAMES } from '../world/types.ts';

export const EVAL_METHODS = [
  'greedy',
  'greedy-memory',
  'mcts',
  'mcts-oracle',
  'mcts-no-reflection',
  'mcts-no-tool-update',
  'mcts-no-cached-rollout',
] as const;
export type EvalMethod = (typeof EVAL_METHODS)[number];

/** The methods that run a search. */
export const SEARCH_METHODS: readonly EvalMethod[] = EVAL_METHODS.filter((m) => m.startsWith('mcts'));

/** Methods whose success rate is an upper bound (the answer is picked with the gold verdicts). */
export const UPPER_BOUND_METHODS: readonly EvalMethod[] = ['mcts-oracle'];

/** The Table 5 ablation suite: ToolEvo's search and its three ablations. */
export const TABLE5_METHODS: readonly EvalMethod[] = [
  'mcts',
  'mcts-no-reflection',
  'mcts-no-tool-update',
  'mcts-no-cached-rollout',
];

/** Ablation methods: results measured with the simulator describe the simulator, not the method. */
export const ABLATION_METHODS: readonly EvalMethod[] = TABLE5_METHODS.slice(1);

export const DIFFICULTIES = ['easy', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const SPLITS = ['test', 'dev', 'train'] as const;

/**
 * The datasets a suite runs by default: ToolQA-D's seven, as in ToolEvo's tables. The arithmetic set (`gsm8k`,
 * easy only, no drifting tools beyond the Python interpreter) can be asked for by name.
 */
export const DEFAULT_EVAL_DATASETS = DATASET_NAMES.filter((d) => d !== 'gsm8k');

/**
 * Task runs of one evaluation at most (methods × surfaces × datasets × difficulties × sample size): the full
 * 1,530-question test split on three surfaces with two methods is 9,180 task runs. Each is one row of
 * `eval_results`; the queue carries one message per method × surface × dataset × difficulty group (84 for that
 * suite), so the cap bounds stored rows and a group's length (≤ 130 tasks, coffee-hard), not queue messages.
 */
export const MAX_TASK_RUNS = 10_000;

/**
 * Questions per dataset × difficulty of the full test split (ToolQA-D: 100 per cell, 130 for coffee-hard), used to
 * check `sampleSize: "all"` against MAX_TASK_RUNS before the world is read; the launch checks the real count.
 */
export function fullSplitSize(dataset: string, difficulty: Difficulty): number {
  return dataset === 'coffee' && difficulty === 'hard' ? 130 : 100;
}

function unique<T>(label: string) {
  return (xs: readonly T[], ctx: z.RefinementCtx) => {
    const seen = new Set<T>();
    for (const x of xs) {
      if (seen.has(x)) ctx.addIssue({ code: 'custom', message: `${label} ${String(x)} is listed twice` });
      seen.add(x);
    }
  };
}

const SurfaceId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'a surface id (lower-case letters, digits, ".", "_", "-")');

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
});

export const EvalSuiteSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    methods: z
      .array(z.enum(EVAL_METHODS))
      .min(1)
      .max(EVAL_METHODS.length)
      .superRefine(unique('method'))
      .default(['greedy']),
    surfaces: z
      .array(SurfaceId)
      .min(1)
      .max(20)
      .superRefine(unique('surface'))
      .default(['pc', 's-in', 's-ood']),
    promptSurface: SurfaceId.default('pc'),
    datasets: z
      .array(z.enum(DATASET_NAMES))
      .min(1)
      .superRefine(unique('dataset'))
      .default([...DEFAULT_EVAL_DATASETS]),
    difficulties: z
      .array(z.enum(DIFFICULTIES))
      .min(1)
      .superRefine(unique('difficulty'))
      .default([...DIFFICULTIES]),
    split: z.enum(SPLITS).default('test'),
    /** Tasks per dataset × difficulty, or `"all"` (the whole split: the paper's full test set). */
    sampleSize: z.union([z.number().int().min(1).max(200), z.literal('all')]).default(5),
    maxSteps: z.number().int().min(1).max(50).default(20),
    mcts: MctsBudgetSchema.default({
      simulations: 8,
      k: 3,
      maxDepth: 15,
      depthPreset: 'paper',
      reflectionPrompt: false,
    }),
    model: ModelChoiceSchema.optional(),
    seed: z.string().min(1).max(200).default('0'),
  })
  .superRefine((s, ctx) => {
    let perSurface = 0;
    for (const dataset of s.datasets)
      for (const difficulty of s.difficulties)
        if (dataset !== 'gsm8k' || difficulty === 'easy')
          perSurface += s.sampleSize === 'all' ? fullSplitSize(dataset, difficulty) : s.sampleSize;
    const runs = s.methods.length * s.surfaces.length * perSurface;
    if (runs > MAX_TASK_RUNS) {
      ctx.addIssue({
        code: 'custom',
        path: ['sampleSize'],
        message: `the suite asks for ${runs} task runs; at most ${MAX_TASK_RUNS} (lower sampleSize or fewer methods/surfaces)`,
      });
    }
  });

export type EvalSuiteInput = z.input<typeof EvalSuiteSchema>;
export type EvalSuite = z.output<typeof EvalSuiteSchema>;

/** Datasets in catalogue order, then easy before hard: the columns of the results table. */
export function suiteColumns(suite: EvalSuite): { dataset: string; difficulty: Difficulty }[] {
  const out: { dataset: string; difficulty: Difficulty }[] = [];
  for (const dataset of DATASET_NAMES) {
    if (!suite.datasets.includes(dataset)) continue;
    for (const difficulty of DIFFICULTIES)
      if (suite.difficulties.includes(difficulty)) out.push({ dataset, difficulty });
  }
  return out;
}
