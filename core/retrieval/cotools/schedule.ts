/**
 * How long a retriever trains (issue 25 item 20): the two named settings, the schedule in optimiser steps, the
 * learning-rate factor per step and the early-stopping split and score. The training loop itself is training.ts.
 *
 * - `paper` — the spec's hyper-parameters ("Training"): 10 epochs, lr 1e-4, batch 16 × 12 accumulation, W_dim lr
 *   0.01, clip 1.0, D = 4 × H, no temperature, a constant learning rate (the spec names no schedule), and the
 *   spec's tool text (`tool name: …, tool description: …`). Set for the paper's large training sets: on KAMEL's 1,000 questions it is ≈ 60 optimiser
 *   steps, and on SimpleToolQuestions' 10,483 the loss barely moves.
 * - `default` (tooldrift's, the CLI's and the toolset service's) — trains to convergence on the data it is
 *   given: a budget of optimiser steps scaled to the data (`autoSteps`: `AUTO_STEPS.passes` passes over it, at
 *   least `min` and at most `max` steps), a linear warm-up over the first `warmup` share of the budget then a
 *   linear decay, and early stopping: every `evalEvery` steps (auto: a fortieth of the budget, at least 10) the
 *   retriever is scored on a dev split held out of the training pairs (`earlyStoppingSplit`); after `patience`
 *   scores without a gain training stops, and the best-scoring weights (the untrained ones included: step 0 is
 *   scored too) are the result. lr 1e-3 without accumulation, D = 256 and scale 20 (a softmax temperature 1/20:
 *   with unit vectors and no temperature the gold tool can never get more than a third of the probability among
 *   16 candidates, retriever.ts), the `sentence` tool text (text.ts), and `fusion: 'char'` (fusion.ts: the trained
 *   score plus λ × the untrained character n-gram similarity, λ chosen on the same dev split, 0 included).
 */
import { drain } from '../../util/pacer.ts';
import { Rng } from '../../util/random.ts';
import type { ToolTextFormat } from '../text.ts';
import { type FusionOption, goldRank, groupedDevScore } from './fusion.ts';
import { encode, type RetrieverWeights } from './retriever.ts';

export const RETRIEVER_PRESET_IDS = ['default', 'paper'] as const;
export type RetrieverPreset = (typeof RETRIEVER_PRESET_IDS)[number];

/** Every retriever training option, resolved (see `resolveRetrieverOptions`). */
export interface RetrieverSettings {
  preset: RetrieverPreset;
  /** Passes over the training pairs (the `paper` schedule); with `steps` derived from the budget. */
  epochs: number;
  /** Optimiser steps in all: a number, `auto` (scaled to the data, `autoSteps`) or null (`epochs` whole epochs). */
  steps: number | 'auto' | null;
  lr: number;
  /** W_dim's own learning rate (spec). */
  wDimLr: number;
  batchSize: number;
  /** Batches per optimiser step. */
  accumulation: number;
  clip: number;
  weightDecay: number;
  /** D; null: 4 × H (the spec's fallback). */
  intermediate: number | null;
  /** Multiplies scores inside the training softmax (1 = the paper's no temperature). */
  scale: number;
  /** Share of the step budget with a linear learning-rate warm-up, then a linear decay to 0 (0: constant lr). */
  warmup: number;
  /** Scores without a gain before training stops (0: no early stopping). */
  patience: number;
  /** Steps between two dev scores; `auto`: a fortieth of the budget, at least 10. */
  evalEvery: number | 'auto';
  /** Share of the training pairs held out as the early-stopping dev split (at most `DEV_MAX_QUERIES`). */
  devShare: number;
  /** Share of the tools held out of training with their pairs, scored as unseen tools by early stopping. */
  devToolShare: number;
  /** How tools are written for the frozen encoder (text.ts): the frozen vectors h_t both sides start from. */
  toolText: ToolTextFormat;
  /**
   * How a trained retriever ranks (fusion.ts): `none` — V_Q · V_T alone (eq. 10, the paper); `char` — plus λ × the
   * untrained character n-gram similarity, λ chosen after training on the early-stopping dev split.
   */
  fusion: FusionOption;
}

export const RETRIEVER_PRESETS: Record<RetrieverPreset, RetrieverSettings> = {
  paper: {
    preset: 'paper',
    epochs: 10,
    steps: null,
    lr: 1e-4,
    wDimLr: 0.01,
    batchSize: 16,
    accumulation: 12,
    clip: 1,
    weightDecay: 0.01,
    intermediate: null,
    scale: 1,
    warmup: 0,
    patience: 0,
    evalEvery: 'auto',
    devShare: 0,
    devToolShare: 0,
    toolText: 'paper',
    fusion: 'none',
  },
  default: {
    preset: 'default',
    epochs: 10,
    steps: 'auto',
    lr: 1e-3,
    wDimLr: 0.01,
    batchSize: 16,
    accumulation: 1,
    clip: 1,
    weightDecay: 0.01,
    intermediate: 256,
    scale: 20,
    warmup: 0.05,
    patience: 6,
    evalEvery: 'auto',
    devShare: 0.1,
    devToolShare: 0.1,
    toolText: 'sentence',
    fusion: 'char',
  },
};

/** The `auto` step budget: `passes` passes over the training pairs, within [min, max] optimiser steps. */
export const AUTO_STEPS = { passes: 20, min: 300, max: 6_000 } as const;

/** The early-stopping dev split: at most this many queries … */
export const DEV_MAX_QUERIES = 500;
/** … ranked among at most this many pool tools (their gold tools and a seeded sample of the others). */
export const DEV_MAX_CANDIDATES = 2_000;

/** Optimiser steps of one pass over `items` pairs. */
export function stepsPerEpoch(items: number, batchSize: number, accumulation: number): number {
  return Math.ceil(Math.ceil(items / batchSize) / accumulation);
}

/** The `auto` budget for `items` training pairs. */
export function autoSteps(items: number, batchSize: number, accumulation: number): number {
  const perPass = stepsPerEpoch(items, batchSize, accumulation);
  return Math.min(AUTO_STEPS.max, Math.max(AUTO_STEPS.min, AUTO_STEPS.passes * perPass));
}

/** What a run needs: every option with numbers for the budget and the scoring interval. */
export interface ResolvedRetrieverOptions
  extends Omit<RetrieverSettings, 'steps' | 'evalEvery' | 'intermediate'> {
  /** The optimiser-step budget (for `steps: null`, `epochs` whole epochs). */
  steps: number;
  evalEvery: number;
  intermediate: number;
  seed: string;
}

export type RetrieverOptionsInput = Partial<RetrieverSettings> & { seed?: string | number };

/**
 * The preset (`default` unless `preset` says otherwise) overlaid with the given options, for `items` training
 * pairs over `hidden`-d frozen vectors. `epochs` given without `steps` means whole epochs (`steps: null`); with a
 * step budget, `epochs` becomes the passes that budget needs.
 */
export function resolveRetrieverOptions(
  options: RetrieverOptionsInput,
  hidden: number,
  items: number,
): ResolvedRetrieverOptions {
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  // Epochs asked for without a step budget: whole epochs.
  if (options.epochs !== undefined && options.steps === undefined) given.steps = null;
  const o = { ...RETRIEVER_PRESETS[options.preset ?? 'default'], ...given } as RetrieverSettings & {
    seed?: string | number;
  };
  const perEpoch = stepsPerEpoch(items, o.batchSize, o.accumulation);
  const steps =
    o.steps === null
      ? o.epochs * perEpoch
      : o.steps === 'auto'
        ? autoSteps(items, o.batchSize, o.accumulation)
        : o.steps;
  return {
    ...o,
    epochs: o.steps === null ? o.epochs : Math.max(1, Math.ceil(steps / Math.max(1, perEpoch))),
    steps,
    evalEvery: o.evalEvery === 'auto' ? Math.max(10, Math.round(steps / 40)) : o.evalEvery,
    intermediate: o.intermediate ?? 4 * hidden,
    seed: String(o.seed ?? 'cotools'),
  };
}

/** The learning-rate factor of optimiser step `step` (1-based) of `total`: linear warm-up, then linear decay. */
export function lrFactor(step: number, total: number, warmup: number): number {
  if (warmup <= 0) return 1;
  const warm = Math.max(1, Math.round(warmup * total));
  if (step <= warm) return step / warm;
  return Math.max(0, (total - step + 1) / Math.max(1, total - warm + 1));
}

/** The training pairs a run learns from and the dev split its early stopping scores. */
export interface EarlyStoppingSplit {
  /** Indices of the pairs trained on, in their order. */
  train: number[];
  /** Indices of held-out pairs whose tools are still trained on (seen tools, new wording). */
  dev: number[];
  /** Indices of held-out pairs naming a held-out tool, which no training pair names (unseen tools). */
  devUnseen: number[];
  /** Pool positions the dev queries are ranked among (all of a pool up to `DEV_MAX_CANDIDATES`). */
  candidates: number[];
}

/**
 * The dev split early stopping scores, held out of training (seeded): a `toolShare` of the tools the pairs name
 * with every pair that names one (at most `DEV_MAX_QUERIES` of them scored: unseen tools), and a `devShare` of the
 * other pairs (at most `DEV_MAX_QUERIES`: seen tools). Nothing is held out when both shares are 0 or fewer than
 * 10 pairs exist; no tool is held out when fewer than 10 are named. The dev queries are ranked among the pool's
 * tools (`pool`: its size, or the positions to rank among), or among their gold tools and a seeded sample of
 * the others when there are more than `DEV_MAX_CANDIDATES`.
 */
export function earlyStoppingSplit(
  golds: readonly (readonly number[])[],
  pool: number | readonly number[],
  devShare: number,
  seed: string,
  toolShare = 0,
): EarlyStoppingSplit {
  const n = golds.length;
  const rng = new Rng(seed).fork('early-stopping');
  const all = Array.from({ length: n }, (_, i) => i);
  const named = [...new Set(golds.flat())].sort((a, b) => a - b);
  const heldTools = new Set(
    n < 10 || named.length < 10 || toolShare <= 0
      ? []
      : rng
          .fork('tools')
          .shuffle(named)
          .slice(0, Math.max(1, Math.round(toolShare * named.length))),
  );
  const touching = all.filter((i) => (golds[i] as number[]).some((t) => heldTools.has(t)));
  const touches = new Set(touching);
  const devUnseen = rng
    .fork('dev-unseen')
    .sample(touching, Math.min(DEV_MAX_QUERIES, touching.length))
    .sort((a, b) => a - b);
  const rest = all.filter((i) => !touches.has(i));
  const count =
    n < 10 || devShare <= 0 ? 0 : Math.min(DEV_MAX_QUERIES, Math.max(1, Math.round(devShare * rest.length)));
  const held = new Set(rng.fork('dev').shuffle(rest).slice(0, count));
  const dev = [...held].sort((a, b) => a - b);
  const train = rest.filter((i) => !held.has(i));
  const positions = typeof pool === 'number' ? Array.from({ length: pool }, (_, i) => i) : [...pool];
  let candidates: number[];
  if (positions.length <= DEV_MAX_CANDIDATES) candidates = positions;
  else {
    const gold = new Set([...dev, ...devUnseen].flatMap((i) => golds[i] as number[]));
    const others = rng.fork('candidates').sample(
      positions.filter((i) => !gold.has(i)),
      Math.max(0, DEV_MAX_CANDIDATES - gold.size),
    );
    candidates = [...gold, ...others];
  }
  return { train, dev, devUnseen, candidates: candidates.sort((a, b) => a - b) };
}

/** A dev query as early stopping scores it: its frozen vector and its gold tools' positions among the candidates. */
export interface DevQuery {
  h: ArrayLike<number>;
  gold: readonly number[];
  /** Whether its tools were held out of training. */
  unseen?: boolean;
}

export interface DevScore {
  /**
   * Mean reciprocal rank of the best-ranked gold tool (the early-stopping criterion); with both seen- and
   * unseen-tool queries, the mean of the two groups' MRRs.
   */
  mrr: number;
  /** Share of queries whose first candidate is gold (the mean of the groups' shares, as `mrr`). */
  top1: number;
}

/** Scores a retriever on dev queries ranked among candidate tools (frozen vectors), eq. 10. */
export function retrieverDevScore(
  w: RetrieverWeights,
  queries: readonly DevQuery[],
  candidates: readonly ArrayLike<number>[],
): DevScore {
  return drain(retrieverDevScoreSteps(w, queries, candidates));
}

/**
 * `retrieverDevScore` as a generator pausing after each encoder pass (up to DEV_MAX_CANDIDATES + 2 ×
 * DEV_MAX_QUERIES of them: seconds of CPU at H = 1,024), for a caller on a shared event loop (core/util/pacer.ts).
 */
export function* retrieverDevScoreSteps(
  w: RetrieverWeights,
  queries: readonly DevQuery[],
  candidates: readonly ArrayLike<number>[],
): Generator<void, DevScore> {
  const tools: Float64Array[] = [];
  for (const h of candidates) {
    tools.push(encode(w, 'tool', h));
    yield;
  }
  const ranked: { rank: number; unseen?: boolean | undefined }[] = [];
  for (const q of queries) {
    yield;
    const v = encode(w, 'query', q.h);
    const scores = tools.map((t) => {
      let s = 0;
      for (let i = 0; i < v.length; i++) s += (v[i] as number) * (t[i] as number);
      return s;
    });
    ranked.push({ rank: goldRank(scores, q.gold), unseen: q.unseen });
  }
  return groupedDevScore(ranked);
}
