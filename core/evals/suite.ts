/**
 * An evaluation suite: which methods run against which server surfaces, on which tasks (datasets × difficulty,
 * a split and a seeded sample size), with which model, aids and seed. One zod schema validates it for
 * `POST /v1/evals`, for stored schedules and for the CLI, so all three give the same messages.
 *
 * Methods come from the agent-method registry (core/methods): `methods` lists registered ids, and every method
 * with options has a member named by its id holding them (e.g. `mcts: { simulations, k, maxDepth }`). `aids`
 * (core/aids) says what every method of the suite is given besides the documentation of `promptSurface`; a slot
 * a listed method does not use, or one without a provider yet, is rejected.
 */
import { z } from 'zod';
import { AidsSchema, aidIssues, SurfaceIdSchema } from '../aids/index.ts';
import { getMethod, isMethodId, METHOD_IDS, type MethodId, methodOptionFields } from '../methods/registry.ts';
import { ModelChoiceSchema } from '../models/choice.ts';
import { DATASET_NAMES } from '../world/types.ts';

export { MctsBudgetSchema } from '../methods/mcts.ts';

export const EVAL_METHODS = METHOD_IDS;
export type EvalMethod = MethodId;

export const DIFFICULTIES = ['easy', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const SPLITS = ['test', 'dev', 'train'] as const;

/**
 * The datasets a suite runs by default: ToolQA-D's seven, as in ToolEvo's tables. The arithmetic set (`gsm8k`,
 * easy only, no drifting tools beyond the Python interpreter) can be asked for by name.
 */
export const DEFAULT_EVAL_DATASETS = DATASET_NAMES.filter((d) => d !== 'gsm8k');

/** Task runs of one evaluation at most (methods × surfaces × datasets × difficulties × sample size). */
export const MAX_TASK_RUNS = 5000;

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
    sampleSize: z.number().int().min(1).max(100).default(5),
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
    const runs =
      s.methods.length * s.surfaces.length * s.datasets.length * s.difficulties.length * s.sampleSize;
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
