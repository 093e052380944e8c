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
 * needs a loaded database; ToolBench endpoints are not); `failedRewrite` — what a failed rewrite does to the
 * termination check (loop.ts): `stop` (default) ends the loop where the paper's rule ends it — the unchanged
 * documentation gives Δ = 1 > τ — but with the stop reason `rewrite-failed`, never `converged`; `retry` does
 * not count it as convergence and explores again.
 *
 * `encoder`: which sentence encoder measures φ's similarities and Δ's cosine (spec: "use the configured
 * encoder"; the paper used ada-002 embeddings, on whose scale φ = 0.9 and τ = 0.75 were set). `auto` (default):
 * the deployment's provider embedding (Workers AI, OpenAI) when one is configured, else the Universal Sentence
 * Encoder lite the project ships — a real sentence encoder; `use`: always USE lite; `lexical`: the weight-free
 * lexical encoder (tooldrift's earlier default, whose cosines lie on another scale). Core takes the embedding
 * model from its caller (`DraftContext.embedder`); the edge (edge/jobs/draft.ts `draftEmbedderFor`) and the Node
 * scripts (scripts/lib/draft-encoder.ts) resolve this option to one.
 *
 * Deliberate differences from the DRAFT paper:
 * - φ = 0.9 and τ = 0.75 are the paper's, set for OpenAI's ada-002 embeddings; tooldrift measures them with USE
 *   lite (512-d) or the deployment's provider embedding, whose cosines lie on other scales (`npm run bench:draft`
 *   prints, per encoder, the rejection rate and the iteration at which Δ > τ).
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
export const DRAFT_FAILED_REWRITE = ['stop', 'retry'] as const;
export const DRAFT_ENCODERS = ['auto', 'use', 'lexical'] as const;
export type DraftEncoder = (typeof DRAFT_ENCODERS)[number];

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
    /** tooldrift: a failed rewrite ends the loop as `rewrite-failed` (`stop`) or is explored again (`retry`). */
    failedRewrite: z.enum(DRAFT_FAILED_REWRITE).default('stop'),
    /** The encoder of φ and Δ: the provider embedding, else USE lite (`auto`); `use`; `lexical`. */
    encoder: z.enum(DRAFT_ENCODERS).default('auto'),
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

/**
 * The most `embed` requests DRAFT makes for one tool (core/draft/loop.ts): φ embeds each Explorer attempt's query
 * with the earlier ones (at most `diversityAttempts` per iteration) and Δ each rewrite's two descriptions (one per
 * iteration). Model calls only where the encoder bills (a provider embedding; USE lite and lexical run locally).
 */
export function draftToolEmbedRequests(
  o: Pick<DraftOptions, 'iterations' | 'diversityAttempts' | 'diversity'>,
): number {
  return o.iterations * ((o.diversity ? o.diversityAttempts : 0) + 1);
}
