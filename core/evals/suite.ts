/**
 * An evaluation suite: which methods run against which server surfaces, on which tasks (datasets × difficulty,
 * a split and a seeded sample size), with which model, aids and seed. One zod schema validates it for
 * `POST /v1/evals`, for stored schedules and for the CLI, so all three give the same messages.
 *
 * Methods come from the agent-method registry (core/methods): `methods` lists registered ids, and every method
 * with options has a member named by its id holding them (e.g. `mcts: { simulations, k, maxDepth }`). `aids`
 * (core/aids) says what every method of the suite is given besides the documentation of `promptSurface`; a slot
 * a listed method does not use, or one without a provider yet, is rejected.
 *
 * Search methods (core/methods/mcts.ts): `mcts` answers without gold (the most visited Finish, ties by Q);
 * `mcts-oracle` is the same search answered by the first Finish judged correct — an upper bound, labelled so
 * wherever it is shown; the Table 5 ablations `mcts-no-reflection` (w/o self-reflection as the paper defines it:
 * no reflection on invocation errors, kept on deprecation errors; core/search/expand.ts),
 * `mcts-no-tool-update` and `mcts-no-cached-rollout`. `TABLE5_METHODS` is the Table-5-shaped suite. Their
 * settings follow the paper by default (core/search/config.ts); `depthPreset: 'toolevo-code'` takes the authors'
 * per-dataset depth table, `reflectionPrompt` tooldrift's explicit reflection prompt, and `maxModelCalls` an
 * explicit per-task model-call cap (off by default).
 */
import { z } from 'zod';
import { AidsSchema, aidIssues, SurfaceIdSchema } from '../aids/index.ts';
import { getMethod, isMethodId, METHOD_IDS, type MethodId, methodOptionFields } from '../methods/registry.ts';
import { ModelChoiceSchema } from '../models/choice.ts';
import { DATASET_NAMES, type DatasetName } from '../world/types.ts';

export { MctsBudgetSchema } from '../methods/mcts.ts';

export const EVAL_METHODS = METHOD_IDS;
export type EvalMethod = MethodId;

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
 * Measured locally with that suite (docs/queue-capacity.md): no failures, one chunk in flight at a time, about 5.6 KB
 * of D1 per task run (≈ 56 MB at the cap), and about 72 minutes extrapolated for the whole split with the simulator.
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

const SurfaceId = SurfaceIdSchema;

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
    // One member per method with options (the methods' own schemas; typed loosely: read them with
    // suiteMethodOptions from core/methods/registry.ts).
    ...(methodOptionFields() as Record<never, never>),
    model: ModelChoiceSchema.optional(),
    aids: AidsSchema.optional(),
    seed: z.string().min(1).max(200).default('0'),
  })
  .superRefine((s, ctx) => {
    // Only registered ids reach getMethod (an unknown one was reported by the enum).
    const methods = s.methods.filter((id) => isMethodId(id)).map((id) => getMethod(id));
    for (const issue of aidIssues(s.aids, methods))
      ctx.addIssue({ code: 'custom', path: ['aids', ...issue.path], message: issue.message });
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

/**
 * The datasets of ToolEvo's Tables 2–5 (spec §10): ToolQA-D's seven. Every average of those tables is the plain
 * mean of these datasets' rates; GSM8K, which the paper's tables do not have, is shown when a suite asks for it but
 * stays outside the averages (aggregate.ts).
 */
export const PAPER_TABLE_DATASETS: readonly DatasetName[] = DEFAULT_EVAL_DATASETS;

/**
 * The dataset order of the results tables: the column order of every results table of the ToolEvo paper (spec §10:
 * Agenda, Airbnb, Coffee, Dblp, Flights, Scirex, Yelp — alphabetical), then GSM8K, which the paper's tables do not
 * have, after them when a suite asks for it.
 */
export const TABLE_DATASET_ORDER: readonly DatasetName[] = [
  'agenda',
  'airbnb',
  'coffee',
  'dblp',
  'flights',
  'scirex',
  'yelp',
  'gsm8k',
];

function orderedColumns(
  suite: EvalSuite,
  order: readonly DatasetName[],
): { dataset: string; difficulty: Difficulty }[] {
  const out: { dataset: string; difficulty: Difficulty }[] = [];
  for (const dataset of order) {
    if (!suite.datasets.includes(dataset)) continue;
    for (const difficulty of DIFFICULTIES)
      if (suite.difficulties.includes(difficulty)) out.push({ dataset, difficulty });
  }
  return out;
}

/**
 * The groups of an evaluation's plan: datasets in catalogue order (DATASET_NAMES), then easy before hard. Plan
 * order fixes the queue's group numbers, so it stays as it was; the tables use `tableColumns`.
 */
export function suiteColumns(suite: EvalSuite): { dataset: string; difficulty: Difficulty }[] {
  return orderedColumns(suite, DATASET_NAMES);
}

/** The columns of the results tables: datasets in TABLE_DATASET_ORDER, easy before hard within each. */
export function tableColumns(suite: EvalSuite): { dataset: string; difficulty: Difficulty }[] {
  return orderedColumns(suite, TABLE_DATASET_ORDER);
}

/**
 * The suite settings that differ between two runs of a schedule (its suite edited in between), by field name,
 * sorted; the label (`name`) does not count. A drop comparison across such runs compares only what both ran.
 */
export function suiteChanges(before: EvalSuite, after: EvalSuite): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  keys.delete('name');
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}
