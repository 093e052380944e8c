/**
 * Settings of one ToolEvo search tree (spec §8.1), validated with zod so that an API body or a stored tree can be
 * checked before a search runs. Defaults follow the issue (k = 5, T = 15) where it departs from ToolQA-D's run
 * scripts (k = 2, depth per dataset); everything else is the spec's value.
 *
 * Ablations: `selfReflection: false` (error states are expanded with the plain agent prompt), `toolUpdate: false`
 * (UpdateTool is answered as usual but adds nothing to the path's tool list), `cachedRollout: false` (rollout
 * states are thrown away after the rollout, so a later expansion of the same state calls the model again), and
 * `mode: 'greedy'` (one path: k = 1, temperature 0, the search ends when that path reaches a terminal state).
 */
import { z } from 'zod';

export const SearchConfigSchema = z
  .object({
    mode: z.enum(['mcts', 'greedy']).default('mcts'),
    /** Candidate actions per expansion (one model call with n = k). */
    k: z.number().int().min(1).max(64).default(5),
    cPuct: z.number().min(0).default(1.25),
    temperature: z.number().min(0).default(0.5),
    /** Max depth T: a non-Finish step at depth T is terminal (−1). */
    maxDepth: z.number().int().min(1).default(15),
    /** Simulations M (iterations of select → expand → evaluate → back-propagate). */
    simulations: z.number().int().min(1).default(12),
    /** `max_load_db`: a path whose load counter exceeds it ends with −1. */
    maxLoads: z.number().int().min(0).default(5),
    /** Per-tree budgets; when one is spent the state being expanded is terminal (−1) and the search stops. */
    maxModelCalls: z.number().int().min(1).default(2000),
    maxTokens: z.number().int().min(1).default(20_000_000),
    /** `max_new_tokens` of every generation. */
    maxNewTokens: z.number().int().min(1).default(1024),
    selfReflection: z.boolean().default(true),
    toolUpdate: z.boolean().default(true),
    cachedRollout: z.boolean().default(true),
    /** Every random choice and every model-call seed derive from it. */
    seed: z.string().default('0'),
  })
  .strict();

export type SearchConfig = z.output<typeof SearchConfigSchema>;
export type SearchConfigInput = z.input<typeof SearchConfigSchema>;

/** The validated configuration; greedy mode forces k = 1 and temperature 0. */
export function resolveSearchConfig(input: SearchConfigInput = {}): SearchConfig {
  const config = SearchConfigSchema.parse(input);
  return config.mode === 'greedy' ? { ...config, k: 1, temperature: 0 } : config;
}
