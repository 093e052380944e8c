/**
 * Settings of one ToolEvo search tree (spec §8.1), validated with zod so that an API body or a stored tree can be
 * checked before a search runs. Defaults follow the issue (k = 5, T = 15) where it departs from ToolQA-D's run
 * scripts (k = 2, depth per dataset); everything else is the spec's value.
 *
 * Faithful defaults (issue 17) with tooldrift's variants as named options:
 * - `depthRule: 'paper'` — ToolEVO Algorithm 1 stops when depth > T, so a non-Finish step at depth T + 1 is
 *   terminal. `'code'` is the authors' code: the parent's depth is compared (`parent.depth > max_depth`), so a
 *   step at depth T + 2 is the first terminal one. `'tooldrift'` is the older rule `depth >= T`. The code's
 *   per-dataset T table is the preset `TOOLEVO_CODE_DEPTH` (`depthFor`, used with `depthPreset: 'toolevo-code'`
 *   by suites and explorations).
 * - `priors: 'raw'` — P = exp(mean token log-prob) of each candidate, the first of duplicate texts kept (spec §8.2).
 *   `'normalised'` is tooldrift's variant (normalised over siblings, duplicates' weights added).
 * - `emptyCandidates: 'any'` — one empty candidate among the k makes the expanded state terminal with −1, and a
 *   prompt over `promptWordLimit` words counts as an empty generation (spec §5.3, §8.2). `'all'` reacts only when
 *   every candidate is empty (tooldrift's earlier rule).
 * - `frequencyPenalty: 1.2` — the authors' batched generator (spec §8.1); providers that accept it get it.
 * - `fewShots: 'per-call'` — as in the original, every generation call shows one UpdateTool example and two
 *   examples of the task's dataset, drawn with a stream seeded by the tree's seed and the expanded state
 *   (spec §5.1); `'fixed'` shows tooldrift's three fixed examples.
 * - `rollout: 'all'` — the authors' code (spec §8.2) rolls out and back-propagates every new child of an expansion;
 *   ToolEVO Algorithm 1 simulates from one randomly chosen new child (`'one'`, the paper's variant: the other new
 *   children stay at N = 0 until selection reaches them). mcts.ts applies the choice to cached children too.
 * - `driftHint: false` — ToolEvo's prompts give no hint that tools drift (App. B.1): guideline 4 is the UpdateTool
 *   rule alone. `true` is tooldrift's earlier guideline (tools change; use the tool a deprecation names).
 * - `reflectionPrompt: false` — the original has no separate reflection prompt: reflection is the next
 *   Thought/Action sampled by the same policy on the error state (eq. 5). `true` uses tooldrift's explicit
 *   "Reflection:" prompt on error states.
 *
 * Deliberate differences from ToolQA-D:
 * - k = 5 candidates per expansion by default (the run scripts use 2); T = 15 for every dataset by default (the
 *   paper's value; the code's per-dataset table is the `toolevo-code` depth preset).
 * - Without log-probabilities (providers that give none) raw priors are 1 for every candidate.
 * - The options listed above (`depthRule: 'tooldrift'`, `priors: 'normalised'`, `emptyCandidates: 'all'`,
 *   `promptWordLimit: 0`, `reflectionPrompt: true`, `fewShots: 'fixed'`, `driftHint: true`; all together
 *   `TOOLDRIFT_SEARCH_VARIANT`) are tooldrift's variants, off by default.
 * - `selfReflection: false` (the ablation "w/o self-reflection": no reflection on invocation errors, kept on
 *   deprecation errors) under the defaults, where reflection is the policy's next Thought on the error, hides the
 *   invocation errors' messages from the prompt (expand.ts) — tooldrift's reading of the ablation.
 * - Per-tree model-call and token budgets (`maxModelCalls`, `maxTokens`) stand in for the original's 3,600 s
 *   per-question wall-clock limit.
 *
 * Ablations (Table 5, spec §10; expand.ts says how): `selfReflection: false` (no reflection on invocation errors:
 * their messages are hidden from the prompt, or with `reflectionPrompt` the reflection prompt is used on
 * deprecation errors only), `toolUpdate: false` (no UpdateTool in the prompt's tool list, guidelines and examples,
 * nor on the server), `cachedRollout: false` (rollout states are thrown away after the rollout, so a later
 * expansion of the same state calls the model again), and `mode: 'greedy'` (one path: k = 1, temperature 0, the
 * search ends when that path reaches a terminal state).
 */
import { z } from 'zod';

export const DEPTH_RULES = ['paper', 'code', 'tooldrift'] as const;
export type DepthRule = (typeof DEPTH_RULES)[number];
export const PRIOR_MODES = ['raw', 'normalised'] as const;
export type PriorMode = (typeof PRIOR_MODES)[number];
export const EMPTY_CANDIDATE_RULES = ['any', 'all'] as const;
export const DEPTH_PRESETS = ['paper', 'toolevo-code'] as const;
export const ROLLOUT_RULES = ['all', 'one'] as const;
export type DepthPreset = (typeof DEPTH_PRESETS)[number];

/**
 * The authors' per-dataset `max_depth` (spec §8.1, MCTS run scripts): easy — agenda 8, scirex 6, every other
 * set 15; hard — scirex 6, every other set 20. Datasets the table does not name (gsm8k) get the paper's 15.
 */
export function toolevoCodeDepth(dataset: string, difficulty: 'easy' | 'hard'): number {
  if (dataset === 'scirex') return 6;
  if (difficulty === 'hard') return 20;
  return dataset === 'agenda' ? 8 : 15;
}

/** Depth settings of a preset: the paper's T = 15 with `depth > T`, or the code's table with its comparison. */
export function depthFor(
  preset: DepthPreset,
  task: { dataset: string; difficulty: 'easy' | 'hard' },
  maxDepth = 15,
): { maxDepth: number; depthRule: DepthRule } {
  return preset === 'toolevo-code'
    ? { maxDepth: toolevoCodeDepth(task.dataset, task.difficulty), depthRule: 'code' }
    : { maxDepth, depthRule: 'paper' };
}

/** Whether a non-Finish step at `depth` ends its path (the step's parent is at `depth − 1`). */
export function depthExceeded(depth: number, maxDepth: number, rule: DepthRule): boolean {
  if (rule === 'tooldrift') return depth >= maxDepth;
  if (rule === 'code') return depth - 1 > maxDepth;
  return depth > maxDepth;
}

export const SearchConfigSchema = z
  .object({
    mode: z.enum(['mcts', 'greedy']).default('mcts'),
    /** Candidate actions per expansion (one model call with n = k). */
    k: z.number().int().min(1).max(64).default(5),
    cPuct: z.number().min(0).default(1.25),
    temperature: z.number().min(0).default(0.5),
    /** Max depth T (see `depthRule` for the comparison). */
    maxDepth: z.number().int().min(1).default(15),
    depthRule: z.enum(DEPTH_RULES).default('paper'),
    priors: z.enum(PRIOR_MODES).default('raw'),
    emptyCandidates: z.enum(EMPTY_CANDIDATE_RULES).default('any'),
    /** A prompt longer than this many whitespace-separated words is not sent (an empty generation); 0 = no limit. */
    promptWordLimit: z.number().int().min(0).default(8000),
    frequencyPenalty: z.number().min(-2).max(2).default(1.2),
    reflectionPrompt: z.boolean().default(false),
    /** `per-call`: ToolEvo's few-shots drawn for every generation (1 UpdateTool + 2 of the dataset); `fixed`. */
    fewShots: z.enum(['per-call', 'fixed']).default('per-call'),
    /** tooldrift's hint that tools drift in guideline 4 (off: ToolEvo's prompt gives none, App. B.1). */
    driftHint: z.boolean().default(false),
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
    /** `all` (the authors' code): every new child is rolled out; `one` (Algorithm 1): one chosen at random. */
    rollout: z.enum(ROLLOUT_RULES).default('all'),
    /** Every random choice and every model-call seed derive from it. */
    seed: z.string().default('0'),
  })
  .strict();

export type SearchConfigInput = z.input<typeof SearchConfigSchema>;

/**
 * tooldrift's earlier search settings as one named option set (every item a documented variant): depth >= T,
 * normalised priors, an expansion fails only when every sample is empty, no prompt-length limit, no frequency
 * penalty, the explicit reflection prompt on error states, the three fixed few-shots.
 */
export const TOOLDRIFT_SEARCH_VARIANT = {
  depthRule: 'tooldrift',
  priors: 'normalised',
  emptyCandidates: 'all',
  promptWordLimit: 0,
  frequencyPenalty: 0,
  reflectionPrompt: true,
  fewShots: 'fixed',
  driftHint: true,
} as const satisfies Partial<SearchConfigInput>;

export type SearchConfig = z.output<typeof SearchConfigSchema>;

/** The validated configuration; greedy mode forces k = 1 and temperature 0. */
export function resolveSearchConfig(input: SearchConfigInput = {}): SearchConfig {
  const config = SearchConfigSchema.parse(input);
  return config.mode === 'greedy' ? { ...config, k: 1, temperature: 0 } : config;
}

/**
 * The most model calls one tree makes: per simulation one expansion (the k candidates come in one request) and a
 * rollout from each new child it evaluates — every one of the k under `rollout: 'all'`, one under `'one'`
 * (mcts.ts) — each at most one call per level down to the deepest node the depth rule allows (T + 2); a greedy tree
 * one path; never more than its `maxModelCalls`. What a quota check counts before a search starts (explorations,
 * and the search methods' `modelCalls` in solve and evaluations).
 */
export function treeModelCalls(
  config: Pick<SearchConfig, 'mode' | 'simulations' | 'k' | 'rollout' | 'maxDepth' | 'maxModelCalls'>,
): number {
  const path = config.maxDepth + 2;
  if (config.mode === 'greedy') return Math.min(path, config.maxModelCalls);
  const rollouts = config.rollout === 'one' ? 1 : config.k;
  return Math.min(config.simulations * (1 + rollouts * path), config.maxModelCalls);
}
