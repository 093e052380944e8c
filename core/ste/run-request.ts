/**
 * An STE run request (issue 15): what `POST /v1/ste/runs` accepts and an STE schedule's `run` holds, and the
 * resolved configuration stored with the run. Pure zod, so the HTTP route (which names it `CreateSteRun` in the
 * OpenAPI document) and the cron tick's stage-change launches validate it the same way.
 */
import { z } from 'zod';
import { type ModelChoice, ModelChoiceSchema } from '../models/choice.ts';
import { STE_LONG_TERM_MEMORY, type SteLongTermMemory } from './constants.ts';

export const CreateSteRun = z.strictObject({
  surface: z
    .string()
    .min(1)
    .max(100)
    .default('pc')
    .describe(
      "The server surface to explore: a kernel surface, or an imported API's surface (the API's id, or a drifted version's) whose operations are explored against its mock.",
    ),
  docs: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Surface whose documentation the prompts show (default: the explored surface).'),
  since: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Continual learning: explore only the tools that changed between this surface and `surface`.'),
  tools: z
    .union([z.array(z.string().min(1).max(200)).min(1).max(50), z.literal('all')])
    .optional()
    .describe(
      'Explore only these tools (exposed names of `surface`), or "all" of them. Required when every tool would cost 1,000 model calls or more.',
    ),
  model: ModelChoiceSchema.default({}),
  judge: ModelChoiceSchema.optional().describe("The filter's judge (default: `model`)."),
  seed: z.string().min(1).max(200).default('0'),
  episodes: z.number().int().min(1).max(15).default(15).describe('Episodes per tool (spec: 15).'),
  trials: z
    .number()
    .int()
    .min(1)
    .max(8)
    .default(4)
    .describe('Trials per episode (spec: 4; the code default 3).'),
  maxCalls: z.number().int().min(1).max(10).default(4).describe('Calls per trial (spec: 4).'),
  paraphrase: z.boolean().default(true),
  longTermMemory: z
    .enum(STE_LONG_TERM_MEMORY)
    .default('episode')
    .describe(
      "When the long-term memory is shown: `episode` (in the query call opening each episode, the authors' code; default), `trial` (at the start of every trial, the paper's text), `off` (Table 2's ablation).",
    ),
  executionFeedback: z
    .boolean()
    .default(true)
    .describe("false: Table 2's ablation — the model is not shown what its calls returned."),
  shortTermMemory: z
    .boolean()
    .default(true)
    .describe(
      "false: Table 2's ablation — every trial its own episode, the trial count kept (episodes × trials episodes of one trial).",
    ),
  selfReflection: z
    .boolean()
    .default(true)
    .describe(
      "false: Table 2's ablation — no reflection; long-term memory lists queries without Solved marks.",
    ),
  /** Model calls per alarm of each tool (tests use small chunks). */
  chunkCalls: z.number().int().min(1).max(100).optional(),
});
export type CreateSteRunInput = z.infer<typeof CreateSteRun>;

/** What a launch stores in `ste_runs.config` (the validated request, resolved). */
export interface SteRunConfig {
  surface: string;
  docs: string;
  since: string | null;
  tools: string[];
  model: ModelChoice;
  judge: ModelChoice | null;
  seed: string;
  episodes: number;
  trials: number;
  maxCalls: number;
  paraphrase: boolean;
  /** Absent in runs stored before these options existed (their defaults then apply). */
  longTermMemory?: SteLongTermMemory;
  executionFeedback?: boolean;
  shortTermMemory?: boolean;
  selfReflection?: boolean;
  chunkCalls?: number;
  /** Keys of the held-out evaluation queries of the explored API (core/ste/held-out.ts); absent: none. */
  heldOut?: string[];
}

/** The engine options of a stored run's configuration (core/ste/engine.ts `SteOptionsInput`, without the tool). */
export function steEngineOptions(config: SteRunConfig) {
  return {
    seed: config.seed,
    episodes: config.episodes,
    trials: config.trials,
    maxCalls: config.maxCalls,
    paraphrase: config.paraphrase,
    longTermMemory: config.longTermMemory ?? 'episode',
    executionFeedback: config.executionFeedback ?? true,
    shortTermMemory: config.shortTermMemory ?? true,
    selfReflection: config.selfReflection ?? true,
    ...(config.heldOut ? { heldOut: config.heldOut } : {}),
  };
}
