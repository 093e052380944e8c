/**
 * Training as a service (issue 14 items 3–4): the options a `POST /v1/toolsets/{id}/train` accepts, and the data a
 * run trains on — shared by the route (validation), the queue job (edge/jobs/train-toolset.ts) and tests.
 *
 * Defaults. The retriever trains with the `default` preset of schedule.ts — the CLI's and the benchmark's too: a
 * step budget scaled to the training lines, warm-up and decay, early stopping on a held-out tenth of them, D =
 * 256 — and `preset: "paper"` asks for the spec's values (10 epochs, lr 1e-4, accumulation 12, D = 4 × H, no
 * temperature, the spec's tool text); any value can be overridden. With a 1,024-d frozen vector the paper's D =
 * 4,096 needs ≈ 25 M float64 weights per side, beyond a Worker's 128 MB once AdamW's moments are added: the route
 * refuses more than `MAX_RETRIEVER_PARAMS` weights at the `intermediate` field. The judge uses the spec's values
 * (3 epochs, lr 1e-5, batch 8, accumulation 16) with D = 256 for the same reason.
 */
import { z } from 'zod';
import { Rng } from '../../util/random.ts';
import { TOOL_TEXT_FORMATS } from '../text.ts';
import type { QueryExample, Tool } from '../types.ts';
import { FUSION_OPTIONS } from './fusion.ts';
import { RETRIEVER_PRESET_IDS } from './schedule.ts';

/** Most trainable retriever weights (both sides, float64 weights + gradient + two AdamW moments ≈ 32 B each). */
export const MAX_RETRIEVER_PARAMS = 1_600_000;

export const RetrieverOptionsSchema = z
  .strictObject({
    preset: z.enum(RETRIEVER_PRESET_IDS).default('default'),
    epochs: z.number().int().min(1).max(50).optional(),
    steps: z
      .union([z.number().int().min(1).max(100_000), z.literal('auto'), z.null()])
      .optional()
      .describe('Optimiser steps in all: a number, "auto" (scaled to the data) or null (whole epochs).'),
    lr: z.number().positive().max(1).optional(),
    wDimLr: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('W_dim’s learning rate (the spec’s 0.01); 0 keeps W_dim at ones.'),
    batchSize: z.number().int().min(2).max(256).optional(),
    accumulation: z.number().int().min(1).max(64).optional(),
    clip: z.number().positive().max(100).optional(),
    weightDecay: z.number().min(0).max(1).optional(),
    intermediate: z.number().int().min(4).max(4096).optional(),
    scale: z.number().positive().max(100).optional(),
    warmup: z.number().min(0).max(0.5).optional(),
    patience: z.number().int().min(0).max(100).optional().describe('0: no early stopping.'),
    evalEvery: z.number().int().min(1).max(10_000).optional(),
    devShare: z.number().min(0).max(0.5).optional(),
    devToolShare: z.number().min(0).max(0.5).optional(),
    toolText: z.enum(TOOL_TEXT_FORMATS).optional(),
    fusion: z
      .enum(FUSION_OPTIONS)
      .optional()
      .describe(
        'How the trained retriever ranks: `none` (V_Q · V_T, the paper) or `char` (plus λ × the untrained character n-gram similarity, λ chosen on the early-stopping dev split; the `default` preset’s).',
      ),
  })
  .describe(
    'Retriever hyper-parameters (eq. 6–11): a preset (`default`: trains to convergence with early stopping; `paper`: the spec’s values) and overrides. `epochs` without `steps` trains whole epochs.',
  );

export const JudgeOptionsSchema = z
  .strictObject({
    epochs: z.number().int().min(1).max(50).default(3),
    lr: z.number().positive().max(1).default(1e-5),
    batchSize: z.number().int().min(1).max(256).default(8),
    accumulation: z.number().int().min(1).max(64).default(16),
    clip: z.number().positive().max(100).default(1),
    weightDecay: z.number().min(0).max(1).default(0.01),
    intermediate: z.number().int().min(4).max(1024).default(256),
  })
  .describe('Tool Judge hyper-parameters (eq. 3–5); defaults: the spec’s, with D = 256.');

export const TrainOptionsSchema = z.strictObject({
  seed: z.string().min(1).max(100).default('cotools'),
  retriever: RetrieverOptionsSchema.prefault({}),
  /** `false`: train the retriever only. */
  judge: z.union([JudgeOptionsSchema, z.literal(false)]).prefault({}),
});
export type TrainOptions = z.infer<typeof TrainOptionsSchema>;

/** Trainable weights of a retriever over `hidden`-d frozen vectors (two gated MLPs and W_dim). */
export function retrieverParams(hidden: number, intermediate: number): number {
  return 2 * 3 * hidden * intermediate + hidden;
}

export interface PreparedData {
  /** Training pairs: query text and the pool positions of its gold tools. */
  pairs: { query: string; gold: number[] }[];
  /** Tool Judge examples (label 1: the step needs a tool), and the held-out ones it is scored on. */
  judge: { text: string; label: 0 | 1 }[];
  judgeHeldOut: { text: string; label: 0 | 1 }[];
  /** Dev queries with gold positions (for the report's dev top-1/top-5). */
  dev: { query: string; gold: number[] }[];
}

/**
 * What a run trains on. `train` lines with gold tools are retriever pairs and judge positives; lines with no tool
 * (and `noTool` texts) are judge negatives. A seeded tenth of the judge examples (at most 1,000) is held out for
 * the judge's accuracy.
 */
export function prepareTrainingData(
  tools: readonly Tool[],
  train: readonly QueryExample[],
  dev: readonly QueryExample[],
  noTool: readonly string[],
  seed: string,
): PreparedData {
  const position = new Map<string, number>();
  for (const [i, t] of tools.entries()) if (!position.has(t.name)) position.set(t.name, i);
  const gold = (q: QueryExample) => [...new Set(q.tools.map((n) => position.get(n) as number))];
  const pairs = train.filter((q) => q.tools.length > 0).map((q) => ({ query: q.query, gold: gold(q) }));
  const examples = [
    ...train.map((q) => ({ text: q.query, label: (q.tools.length > 0 ? 1 : 0) as 0 | 1 })),
    ...noTool.map((text) => ({ text, label: 0 as const })),
  ];
  const shuffled = new Rng(seed).fork('judge-held-out').shuffle(examples);
  const held = Math.min(1_000, Math.floor(shuffled.length / 10));
  return {
    pairs,
    judge: shuffled.slice(held),
    judgeHeldOut: shuffled.slice(0, held),
    dev: dev.filter((q) => q.tools.length > 0).map((q) => ({ query: q.query, gold: gold(q) })),
  };
}

/** Why the judge cannot be trained on these examples (null when it can). */
export function judgeDataProblem(examples: readonly { label: 0 | 1 }[]): string | null {
  const positives = examples.filter((e) => e.label === 1).length;
  if (positives === 0) return 'no training line names a tool';
  if (positives === examples.length)
    return 'no negative examples: add training lines with "tools": [] (texts that need no tool)';
  return null;
}
