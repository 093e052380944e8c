/**
 * Training as a service (issue 14 items 3–4): the options a `POST /v1/toolsets/{id}/train` accepts, and the data a
 * run trains on — shared by the route (validation), the queue job (edge/jobs/train-toolset.ts) and tests.
 *
 * Defaults. The retriever uses the README's scaled-down setting (5 epochs, lr 1e-3, no gradient accumulation,
 * D = 256, scale 20; W_dim lr 0.01, clip 1.0, batch 16 as in the spec) — a tooldrift option, not the paper's
 * (spec "Training": 10 epochs, lr 1e-4, accumulation 12, D = 4 × H): with a 1,024-d frozen vector the paper's
 * D = 4,096 needs ≈ 25 M float64 weights per side, beyond a Worker's 128 MB once AdamW's moments are added. Every
 * paper value can be asked for, within `MAX_RETRIEVER_PARAMS`. The judge uses the spec's values (3 epochs, lr 1e-5,
 * batch 8, accumulation 16) with D = 256 for the same reason.
 */
import { z } from 'zod';
import { Rng } from '../../util/random.ts';
import type { QueryExample, Tool } from '../types.ts';

/** Most trainable retriever weights (both sides, float64 weights + gradient + two AdamW moments ≈ 32 B each). */
export const MAX_RETRIEVER_PARAMS = 1_600_000;

export const RetrieverOptionsSchema = z
  .strictObject({
    epochs: z.number().int().min(1).max(50).default(5),
    lr: z.number().positive().max(1).default(1e-3),
    wDimLr: z.number().positive().max(1).default(0.01),
    batchSize: z.number().int().min(2).max(256).default(16),
    accumulation: z.number().int().min(1).max(64).default(1),
    clip: z.number().positive().max(100).default(1),
    weightDecay: z.number().min(0).max(1).default(0.01),
    intermediate: z.number().int().min(4).max(4096).default(256),
    scale: z.number().positive().max(100).default(20),
  })
  .describe('Retriever hyper-parameters (eq. 6–11); defaults: the README’s scaled-down setting.');

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
