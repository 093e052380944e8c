/**
 * DRAFT's settings (spec draft.md, "Loop (per tool, Algorithm 1)"), validated with zod so an API body or a stored
 * run can be checked before it starts. Defaults are the paper's and the authors' code's values:
 * I = 5 iterations, temperature 0.2, top_p 1, 2,000 new tokens, diversity threshold φ = 0.9 with at most 3
 * attempts (the third accepted regardless), termination threshold τ = 0.75, responses truncated to 2,048
 * characters.
 *
 * The paper's two ablations are options: `diversity: false` (w/o diversity-promoting exploration: every query is
 * accepted) and `adaptiveTermination: false` (w/o tool-adaptive termination: always I iterations).
 *
 * tooldrift additions (named, documented in core/draft/README.md): `setupCalls` — how many preparatory calls of
 * other documented tools an exploration may make before the explored call (ToolQA tools are stateful: a filter
 * needs a loaded database; ToolBench endpoints are not).
 */
import { z } from 'zod';

export const DRAFT_ITERATIONS = 5;
export const DRAFT_TEMPERATURE = 0.2;
export const DRAFT_TOP_P = 1;
export const DRAFT_MAX_TOKENS = 2000;
export const DRAFT_PHI = 0.9;
export const DRAFT_DIVERSITY_ATTEMPTS = 3;
export const DRAFT_TAU = 0.75;
export const DRAFT_RESPONSE_CHARS = 2048;

export const DraftOptionsSchema = z
  .object({
    /** I: iterations per tool at most. */
    iterations: z.number().int().min(1).max(20).default(DRAFT_ITERATIONS),
    temperature: z.number().min(0).max(2).default(DRAFT_TEMPERATURE),
    topP: z.number().gt(0).max(1).default(DRAFT_TOP_P),
    maxTokens: z.number().int().min(16).max(16_000).default(DRAFT_MAX_TOKENS),
    /** φ: a query is diverse when its cosine similarity to every earlier query of the tool is below φ. */
    phi: z.number().min(0).max(1).default(DRAFT_PHI),
    /** Explorer attempts per iteration; the last is accepted regardless. */
    diversityAttempts: z.number().int().min(1).max(10).default(DRAFT_DIVERSITY_ATTEMPTS),
    /** τ: stop when Δ > τ. */
    tau: z.number().min(0).max(1).default(DRAFT_TAU),
    /** Characters of the tool's response attached to the exploration. */
    responseChars: z.number().int().min(64).max(20_000).default(DRAFT_RESPONSE_CHARS),
    /** Ablation switch: false = w/o diversity-promoting exploration. */
    diversity: z.boolean().default(true),
    /** Ablation switch: false = w/o tool-adaptive termination. */
    adaptiveTermination: z.boolean().default(true),
    /** tooldrift: preparatory calls an exploration may make first (0 = the paper's single call). */
    setupCalls: z.number().int().min(0).max(5).default(3),
    /** Every model-call seed derives from it. */
    seed: z.string().min(1).max(200).default('draft'),
  })
  .strict();

export type DraftOptions = z.output<typeof DraftOptionsSchema>;
export type DraftOptionsInput = z.input<typeof DraftOptionsSchema>;

export function resolveDraftOptions(input: DraftOptionsInput = {}): DraftOptions {
  return DraftOptionsSchema.parse(input);
}

/**
 * The most model calls DRAFT makes for one tool (core/draft/loop.ts): per iteration at most `diversityAttempts`
 * Explorer calls, one Analyzer and one Rewriter call; plus the run's tool-level rewrite of its category (at most
 * one per tool). What a quota check counts before a run starts (edge/metering.ts).
 */
export function draftToolModelCalls(o: Pick<DraftOptions, 'iterations' | 'diversityAttempts'>): number {
  return o.iterations * (o.diversityAttempts + 2) + 1;
}
