/**
 * Resumable training of the two Chain-of-Tools heads (retriever eq. 6–11, judge eq. 3–5), for runs that cannot
 * finish in one call (a queue job has a wall-time limit): a run is advanced a few optimiser steps at a time, and
 * between calls its whole state — weights, AdamW moments and step count, and the position in the epoch loop —
 * is packed into bytes (float64, exact) and unpacked again. The loop is the one of `runEpochs` (optim.ts): the
 * same seeded shuffle per epoch (`epoch-N` fork), batches of `batchSize`, a step every `accumulation` batches and
 * at the end of an epoch. Runs always pause on a step boundary, so a paused run holds no pending gradient and
 * a run advanced in pieces of any size ends with the same weights, bit for bit, as `trainRetriever` /
 * `trainJudge` in one call (tested).
 *
 * The finished heads are stored as float32 (`packWeights`): half the bytes; inference reads them back as
 * float64, so search and the judge compute with exactly the stored values.
 */
import { drain } from '../../util/pacer.ts';
import { Rng } from '../../util/random.ts';
import {
  initJudgeSteps,
  JUDGE_DEFAULTS,
  type JudgeTrainOptions,
  type JudgeWeights,
  judgeLossSteps,
} from './judge.ts';
import { emptyMlp, type MlpWeights, mlpArrays, zerosLike } from './mlp.ts';
import { AdamW, clipGradNormSteps, type EpochReport, type EpochSettings, zeroGrads } from './optim.ts';
import {
  batchLossSteps,
  emptyRetriever,
  inBatch,
  initRetrieverSteps,
  type RetrieverTrainOptions,
  type RetrieverWeights,
  retrieverArrays,
  type TrainingPair,
  zeroRetrieverGrads,
} from './retriever.ts';
import {
  type DevQuery,
  type DevScore,
  type EarlyStoppingSplit,
  earlyStoppingSplit,
  lrFactor,
  type ResolvedRetrieverOptions,
  resolveRetrieverOptions,
  retrieverDevScore,
} from './schedule.ts';

export type Head = 'retriever' | 'judge';

/** Where a run is in its epoch loop. */
export interface LoopPosition {
  /** 1-based epoch being run; `epochs + 1` once finished. */
  epoch: number;
  /** Batches of this epoch already run (always a multiple of `accumulation` while paused mid-epoch). */
  batch: number;
  lossSum: number;
  /** Milliseconds spent on this epoch so far (over every piece). */
  ms: number;
  reports: EpochReport[];
}

export interface RetrieverRun {
  head: 'retriever';
  hidden: number;
  options: ResolvedRetrieverOptions;
  weights: RetrieverWeights;
  grad: RetrieverWeights;
  optimiser: AdamW;
  position: LoopPosition;
  /** Training pairs the run was started for (the epoch shuffle covers exactly this many). */
  items: number;
  /** Early stopping's state (null when `patience` is 0). */
  stopping: StoppingState | null;
}

/** A dev score taken at an optimiser step. */
export interface ScoredStep extends DevScore {
  step: number;
}

export interface StoppingState {
  scores: ScoredStep[];
  /** The step of the best score so far (-1 before the first). */
  bestStep: number;
  /** Scores since the best one. */
  stale: number;
  /** Set once training has stopped (patience spent or budget done); the weights are then the best ones. */
  stopped: boolean;
  /** Copies of the weight arrays (`retrieverArrays` order) at `bestStep`. */
  best: Float64Array[] | null;
}

export interface JudgeRun {
  head: 'judge';
  hidden: number;
  options: Required<Omit<JudgeTrainOptions, 'seed'>> & { seed: string };
  weights: JudgeWeights;
  grad: JudgeWeights;
  optimiser: AdamW;
  position: LoopPosition;
  items: number;
}

export type HeadRun = RetrieverRun | JudgeRun;

const start = (): LoopPosition => ({ epoch: 1, batch: 0, lossSum: 0, ms: 0, reports: [] });

function retrieverOptimiser(
  w: RetrieverWeights,
  grad: RetrieverWeights,
  lr: number,
  wDimLr: number,
  wd: number,
) {
  // The parameter groups of trainRetriever, in its order.
  return new AdamW(
    [
      {
        params: [...mlpArrays(w.query), ...mlpArrays(w.tool)],
        grads: [...mlpArrays(grad.query), ...mlpArrays(grad.tool)],
        lr,
      },
      { params: [w.wDim], grads: [grad.wDim], lr: wDimLr },
    ],
    { weightDecay: wd },
  );
}

/**
 * A retriever run over `items` training pairs (after the early-stopping split, `retrieverPlan`), set up as
 * `trainRetriever` sets one up (same seed → same initial weights). Options: a preset (schedule.ts; `default`
 * unless `preset` says otherwise) and overrides.
 */
export function startRetriever(
  hidden: number,
  items: number,
  options: RetrieverTrainOptions = {},
): RetrieverRun {
  return drain(startRetrieverSteps(hidden, items, options));
}

/** `startRetriever` as a generator pausing while it draws the initial weights (≈ 1 M draws at H = 1,024). */
export function* startRetrieverSteps(
  hidden: number,
  items: number,
  options: RetrieverTrainOptions = {},
  /** false: every weight 0, for a run about to be restored from a checkpoint (no draws at all). */
  init = true,
): Generator<void, RetrieverRun> {
  const o = resolveRetrieverOptions(options, hidden, items);
  const rng = new Rng(o.seed);
  const weights = init
    ? yield* initRetrieverSteps(hidden, o.intermediate, rng.fork('init').seed)
    : emptyRetriever(hidden, o.intermediate);
  const grad = zeroRetrieverGrads(weights);
  return {
    head: 'retriever',
    hidden,
    options: o,
    weights,
    grad,
    optimiser: retrieverOptimiser(weights, grad, o.lr, o.wDimLr, o.weightDecay),
    position: start(),
    items,
    stopping: o.patience > 0 ? { scores: [], bestStep: -1, stale: 0, stopped: false, best: null } : null,
  };
}

/**
 * A retriever run over a training set (each pair's gold pool positions) and its early-stopping split
 * (schedule.ts `earlyStoppingSplit`; null when the options stop nothing or the set is too small to split, and
 * then the run does not stop early): the run trains on `split.train` (indices into the set) or on the whole set.
 * What both `trainRetriever` and the toolset service's chunked job start from.
 */
export function startRetrieverTraining(
  golds: readonly (readonly number[])[],
  pool: number | readonly number[],
  hidden: number,
  options: RetrieverTrainOptions = {},
): { run: RetrieverRun; split: EarlyStoppingSplit | null } {
  const plan = retrieverPlan(golds, pool, hidden, options);
  return {
    run: startRetriever(hidden, plan.split?.train.length ?? golds.length, plan.options),
    split: plan.split,
  };
}

/**
 * The early-stopping split a retriever run over this training set holds out (null: none, and the run does not
 * stop early) and the options the run starts with — without setting up the run (the chunked job needs the split
 * in every chunk, the weights only from the checkpoint).
 */
export function retrieverPlan(
  golds: readonly (readonly number[])[],
  pool: number | readonly number[],
  hidden: number,
  options: RetrieverTrainOptions = {},
): { split: EarlyStoppingSplit | null; options: RetrieverTrainOptions } {
  const o = resolveRetrieverOptions(options, hidden, golds.length);
  const found =
    o.patience > 0 && (o.devShare > 0 || o.devToolShare > 0)
      ? earlyStoppingSplit(golds, pool, o.devShare, o.seed, o.devToolShare)
      : null;
  const split = found && found.dev.length + found.devUnseen.length > 0 ? found : null;
  return { split, options: split ? options : { ...options, patience: 0 } };
}

/** A judge run set up exactly as `trainJudge` sets one up. */
export function startJudge(hidden: number, items: number, options: JudgeTrainOptions = {}): JudgeRun {
  return drain(startJudgeSteps(hidden, items, options));
}

/** `startJudge` as a generator pausing while it draws the initial weights; `init: false` as for a retriever. */
export function* startJudgeSteps(
  hidden: number,
  items: number,
  options: JudgeTrainOptions = {},
  init = true,
): Generator<void, JudgeRun> {
  const o = { ...JUDGE_DEFAULTS, ...options };
  const inter = o.intermediate ?? 4 * hidden;
  const rng = new Rng(o.seed);
  const weights = init
    ? yield* initJudgeSteps(hidden, inter, rng.fork('init').seed)
    : emptyMlp(hidden, inter, 1);
  const grad = zerosLike(weights);
  return {
    head: 'judge',
    hidden,
    options: { ...o, intermediate: inter, seed: String(o.seed) },
    weights,
    grad,
    optimiser: new AdamW([{ params: mlpArrays(weights), grads: mlpArrays(grad), lr: o.lr }], {
      weightDecay: o.weightDecay,
    }),
    position: start(),
    items,
  };
}

function settingsOf(run: HeadRun): EpochSettings {
  return run.options;
}

/** The run's optimiser-step budget. */
export function stepBudget(run: HeadRun): number {
  if (run.head === 'retriever') return run.options.steps;
  return run.options.epochs * Math.ceil(batchesPerEpoch(run) / run.options.accumulation);
}

function budgetSpent(run: HeadRun): boolean {
  return run.position.epoch > run.options.epochs || run.optimiser.steps >= stepBudget(run);
}

export function runFinished(run: HeadRun): boolean {
  if (run.head === 'retriever' && run.stopping) return run.stopping.stopped;
  return budgetSpent(run);
}

/** Whether early stopping must score the current weights before the run goes on (step 0 included). */
export function evaluationDue(run: HeadRun): boolean {
  if (run.head !== 'retriever' || !run.stopping || run.stopping.stopped) return false;
  const steps = run.optimiser.steps;
  if (run.stopping.scores.at(-1)?.step === steps) return false;
  return steps % run.options.evalEvery === 0 || budgetSpent(run);
}

/**
 * Records the dev score of the current weights (`evaluationDue` must be true). A gain keeps a copy of the
 * weights; `patience` scores without one, or the spent budget, stop the run with the best weights restored.
 */
export function recordEvaluation(run: RetrieverRun, score: DevScore): void {
  const st = run.stopping;
  if (!st || !evaluationDue(run)) throw new RangeError('no evaluation is due');
  const step = run.optimiser.steps;
  st.scores.push({ step, ...score });
  const best = st.scores.find((x) => x.step === st.bestStep);
  const arrays = retrieverArrays(run.weights);
  if (!best || score.mrr > best.mrr) {
    st.bestStep = step;
    st.stale = 0;
    st.best = arrays.map((a) => a.slice());
  } else st.stale++;
  if (st.stale >= run.options.patience || budgetSpent(run)) {
    st.stopped = true;
    for (const [i, a] of arrays.entries()) a.set(st.best?.[i] as Float64Array);
    closeEpoch(run);
  }
}

/** Ends an epoch cut short (by the step budget or early stopping) with its report. */
function closeEpoch(run: HeadRun): void {
  const pos = run.position;
  if (pos.batch === 0) return;
  pos.reports.push({
    epoch: pos.epoch,
    loss: pos.lossSum / pos.batch,
    steps: run.optimiser.steps,
    ms: pos.ms,
  });
  run.position = { epoch: pos.epoch + 1, batch: 0, lossSum: 0, ms: 0, reports: pos.reports };
}

export function batchesPerEpoch(run: HeadRun): number {
  return Math.ceil(run.items / run.options.batchSize);
}

/** Optimiser steps done and in the budget (for progress reports; early stopping may end a run sooner). */
export function runProgress(run: HeadRun): { done: number; total: number } {
  return { done: run.optimiser.steps, total: stepBudget(run) };
}

/**
 * Item indices of the run's next batches: at most `maxSteps` optimiser steps' worth, never past the current
 * epoch's end, the step budget or the next early-stopping score (empty once the run is finished or while a score
 * is due). The caller resolves them (frozen vectors) and passes them to `advance`.
 */
export function nextBatches(run: HeadRun, maxSteps: number): number[][] {
  if (runFinished(run) || evaluationDue(run)) return [];
  const { batchSize, accumulation } = settingsOf(run);
  const order = new Rng(run.options.seed)
    .fork(`epoch-${run.position.epoch}`)
    .shuffle(Array.from({ length: run.items }, (_, i) => i));
  const steps = run.optimiser.steps;
  let room = Math.min(Math.max(1, maxSteps), stepBudget(run) - steps);
  if (run.head === 'retriever' && run.stopping) {
    const every = run.options.evalEvery;
    room = Math.min(room, (Math.floor(steps / every) + 1) * every - steps);
  }
  const end = Math.min(batchesPerEpoch(run), run.position.batch + room * accumulation);
  const out: number[][] = [];
  for (let b = run.position.batch; b < end; b++) out.push(order.slice(b * batchSize, (b + 1) * batchSize));
  return out;
}

/** The learning rates of the coming optimiser step: each group's base rate × the schedule's factor. */
function setLearningRate(run: HeadRun): void {
  if (run.head !== 'retriever') return;
  const f = lrFactor(run.optimiser.steps + 1, run.options.steps, run.options.warmup);
  const [mlp, wDim] = run.optimiser.groups;
  if (mlp) mlp.lr = run.options.lr * f;
  if (wDim) wDim.lr = run.options.wDimLr * f;
}

function gradArrays(run: HeadRun): Float64Array[] {
  return run.head === 'retriever' ? retrieverArrays(run.grad) : mlpArrays(run.grad);
}

/**
 * Runs the batches `nextBatches` gave (resolved to examples), stepping as `runEpochs` does. For a retriever,
 * `toolVector(i)` gives pool tool i's frozen vector.
 */
export function advanceRetriever(
  run: RetrieverRun,
  batches: readonly (readonly TrainingPair[])[],
  toolVector: (index: number) => ArrayLike<number>,
): void {
  drain(advanceRetrieverSteps(run, batches, toolVector));
}

/**
 * `advanceRetriever` as a generator that pauses after every encoder pass of every batch (a few milliseconds of
 * work each): a caller on a shared event loop drains it with `drainPaced` (core/util/pacer.ts), so requests are
 * served inside an optimiser step. Where it pauses changes nothing in the result.
 */
export function advanceRetrieverSteps(
  run: RetrieverRun,
  batches: readonly (readonly TrainingPair[])[],
  toolVector: (index: number) => ArrayLike<number>,
): Generator<void, void> {
  return advance(run, batches.length, (b) => {
    const batch = inBatch(batches[b] as TrainingPair[]);
    return batchLossSteps(
      run.weights,
      batch.queries,
      batch.candidates.map(toolVector),
      run.grad,
      run.options.scale,
    );
  });
}

export function advanceJudge(
  run: JudgeRun,
  batches: readonly (readonly { h: ArrayLike<number>; label: 0 | 1 }[])[],
): void {
  drain(advanceJudgeSteps(run, batches));
}

/** `advanceJudge` as a generator that pauses after every example (see `advanceRetrieverSteps`). */
export function advanceJudgeSteps(
  run: JudgeRun,
  batches: readonly (readonly { h: ArrayLike<number>; label: 0 | 1 }[])[],
): Generator<void, void> {
  return advance(run, batches.length, (b) =>
    judgeLossSteps(run.weights, batches[b] as { h: ArrayLike<number>; label: 0 | 1 }[], run.grad),
  );
}

function* advance(
  run: HeadRun,
  count: number,
  loss: (b: number) => Generator<void, number>,
): Generator<void, void> {
  const started = Date.now();
  const { accumulation, clip } = settingsOf(run);
  const grads = gradArrays(run);
  const pos = run.position;
  let pending = 0;
  // The optimiser step over every weight (≈ 1.6 M at H = 1,024) pauses between arrays too.
  const step = function* () {
    for (const g of grads) {
      for (let i = 0; i < g.length; i++) g[i] = (g[i] as number) / pending;
      yield;
    }
    yield* clipGradNormSteps(grads, clip);
    setLearningRate(run);
    yield* run.optimiser.stepSteps();
    zeroGrads(grads);
    pending = 0;
  };
  for (let b = 0; b < count; b++) {
    pos.lossSum += yield* loss(b);
    pos.batch++;
    pending++;
    if (pending === accumulation) yield* step();
  }
  const perEpoch = batchesPerEpoch(run);
  pos.ms += Date.now() - started;
  if (pos.batch < perEpoch && pending === 0 && run.optimiser.steps >= stepBudget(run)) {
    // The step budget ends inside an epoch: that epoch ends here.
    closeEpoch(run);
    return;
  }
  if (pos.batch >= perEpoch) {
    if (pending > 0) yield* step();
    pos.reports.push({
      epoch: pos.epoch,
      loss: pos.lossSum / Math.max(1, pos.batch),
      steps: run.optimiser.steps,
      ms: pos.ms,
    });
    run.position = { epoch: pos.epoch + 1, batch: 0, lossSum: 0, ms: 0, reports: pos.reports };
  } else if (pending > 0) throw new RangeError('a run may only pause on an optimiser-step boundary');
}

/** The frozen vectors of an early-stopping split's dev queries and candidates, as `retrieverDevScore` reads them. */
export function devSet(
  split: EarlyStoppingSplit,
  pairs: readonly TrainingPair[],
  toolVector: (index: number) => ArrayLike<number>,
): { queries: DevQuery[]; candidates: ArrayLike<number>[] } {
  const slot = new Map(split.candidates.map((t, i) => [t, i]));
  const query = (i: number, unseen: boolean): DevQuery => {
    const pair = pairs[i] as TrainingPair;
    return {
      h: pair.h,
      gold: pair.tools.flatMap((t) => (slot.has(t) ? [slot.get(t) as number] : [])),
      unseen,
    };
  };
  return {
    queries: [...split.dev.map((i) => query(i, false)), ...split.devUnseen.map((i) => query(i, true))],
    candidates: split.candidates.map(toolVector),
  };
}

export interface TrainHooks {
  /**
   * Tools in the pool (`toolVector` answers 0 … pool − 1): early stopping ranks among them. Default: the gold
   * tools of the pairs (the positions `toolVector` must answer anyway).
   */
  pool?: number;
  onEpoch?: (report: EpochReport, weights: RetrieverWeights) => void;
  /** Optimiser steps done and the budget. */
  onStep?: (done: number, total: number) => void;
  onScore?: (score: ScoredStep) => void;
}

export interface StoppingSummary {
  /** Pairs trained on; held out with seen tools; held out with held-out (unseen) tools; dev candidates. */
  train: number;
  dev: number;
  devUnseen: number;
  candidates: number;
  scores: ScoredStep[];
  bestStep: number;
}

export interface TrainedRetriever {
  weights: RetrieverWeights;
  epochs: EpochReport[];
  /** Optimiser steps run and the budget. */
  steps: { done: number; budget: number };
  /** Early stopping: the split, every dev score and the step whose weights were kept (null without it). */
  stopping: StoppingSummary | null;
  /** The early-stopping split itself (indices into the pairs; null without it): `fusion` chooses its λ on it. */
  split: EarlyStoppingSplit | null;
  options: ResolvedRetrieverOptions;
}

/**
 * Trains a retriever on (query, gold tools) pairs in one call; `toolVector(i)` gives pool tool i's frozen
 * vector. The loop of the resumable run (`startRetriever`, `nextBatches`, `advanceRetriever`, scores for early
 * stopping), so the same seed and data give the same weights bit for bit as the chunked service job.
 */
export function trainRetriever(
  pairs: readonly TrainingPair[],
  toolVector: (index: number) => ArrayLike<number>,
  hidden: number,
  options: RetrieverTrainOptions = {},
  hooks: TrainHooks = {},
): TrainedRetriever {
  const pool = hooks.pool ?? [...new Set(pairs.flatMap((p) => p.tools))];
  const { run, split } = startRetrieverTraining(
    pairs.map((p) => p.tools),
    pool,
    hidden,
    options,
  );
  const train = split ? split.train.map((i) => pairs[i] as TrainingPair) : pairs;
  const dev = split ? devSet(split, pairs, toolVector) : null;
  let reported = 0;
  while (!runFinished(run)) {
    if (dev && evaluationDue(run)) {
      recordEvaluation(run, retrieverDevScore(run.weights, dev.queries, dev.candidates));
      const last = run.stopping?.scores.at(-1);
      if (last) hooks.onScore?.(last);
    } else {
      const batches = nextBatches(run, 16);
      advanceRetriever(
        run,
        batches.map((b) => b.map((i) => train[i] as TrainingPair)),
        toolVector,
      );
      hooks.onStep?.(run.optimiser.steps, stepBudget(run));
    }
    for (; reported < run.position.reports.length; reported++)
      hooks.onEpoch?.(run.position.reports[reported] as EpochReport, run.weights);
  }
  for (; reported < run.position.reports.length; reported++)
    hooks.onEpoch?.(run.position.reports[reported] as EpochReport, run.weights);
  return {
    weights: run.weights,
    epochs: run.position.reports,
    steps: { done: run.optimiser.steps, budget: stepBudget(run) },
    stopping:
      split && run.stopping
        ? {
            train: split.train.length,
            dev: split.dev.length,
            devUnseen: split.devUnseen.length,
            candidates: split.candidates.length,
            scores: run.stopping.scores,
            bestStep: run.stopping.bestStep,
          }
        : null,
    split: split && run.stopping ? split : null,
    options: run.options,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Bytes: a little header (JSON) and float arrays, little-endian.

const MAGIC_STATE = 'TDC1';
const MAGIC_WEIGHTS = 'TDW1';

function packArrays(
  magic: string,
  header: unknown,
  arrays: readonly Float64Array[],
  f32: boolean,
): Uint8Array {
  return drain(packArraysSteps(magic, header, arrays, f32));
}

/** Elements copied between two yields of `packArraysSteps` (≈ 8 MB of float64: a few milliseconds). */
const PACK_STEP_ELEMENTS = 1 << 20;

/**
 * `packArrays` as work units (a yield every PACK_STEP_ELEMENTS elements), so a job can pace the packing of a
 * checkpoint of tens of MB (core/util/pacer.ts `drainPaced`); the bytes are the same.
 */
function* packArraysSteps(
  magic: string,
  header: unknown,
  arrays: readonly Float64Array[],
  f32: boolean,
): Generator<void, Uint8Array> {
  const head = new TextEncoder().encode(JSON.stringify(header));
  const headLen = Math.ceil((8 + head.length) / 8) * 8;
  const width = f32 ? 4 : 8;
  const total = arrays.reduce((n, a) => n + a.length, 0);
  const bytes = new Uint8Array(headLen + total * width);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = magic.charCodeAt(i);
  view.setUint32(4, head.length, true);
  bytes.set(head, 8);
  let at = headLen;
  for (const a of arrays) {
    for (let from = 0; from < a.length; from += PACK_STEP_ELEMENTS) {
      const part = a.subarray(from, Math.min(a.length, from + PACK_STEP_ELEMENTS));
      if (LITTLE_ENDIAN) {
        // Typed arrays use the host's byte order: on a little-endian host a bulk copy writes the same bytes as the
        // DataView loop below, in a fraction of the time (a checkpoint is tens of MB).
        if (f32) new Float32Array(bytes.buffer, at, part.length).set(part);
        else new Float64Array(bytes.buffer, at, part.length).set(part);
        at += part.length * width;
      } else {
        for (let i = 0; i < part.length; i++, at += width) {
          if (f32) view.setFloat32(at, part[i] as number, true);
          else view.setFloat64(at, part[i] as number, true);
        }
      }
      yield;
    }
  }
  return bytes;
}

/** Whether this host stores typed-array elements little-endian (the blobs' byte order): every Workers host does. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function unpackArrays<H>(magic: string, bytes: Uint8Array, lengths: (header: H) => number[], f32: boolean) {
  const tag = String.fromCharCode(...bytes.subarray(0, 4));
  if (tag !== magic) throw new RangeError(`not a ${magic} blob (found ${JSON.stringify(tag)})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + len))) as H;
  let at = Math.ceil((8 + len) / 8) * 8;
  const width = f32 ? 4 : 8;
  const sizes = lengths(header);
  if (at + sizes.reduce((n, s) => n + s, 0) * width !== bytes.byteLength)
    throw new RangeError(`blob size ${bytes.byteLength} does not match its header`);
  const arrays = sizes.map((n) => {
    const a = new Float64Array(n);
    if (LITTLE_ENDIAN) {
      // A copy of the bytes first: a typed-array view needs its offset aligned to the element size.
      const copy = bytes.slice(at, at + n * width);
      a.set(f32 ? new Float32Array(copy.buffer) : new Float64Array(copy.buffer));
      at += n * width;
      return a;
    }
    for (let i = 0; i < n; i++, at += width)
      a[i] = f32 ? view.getFloat32(at, true) : view.getFloat64(at, true);
    return a;
  });
  return { header, arrays };
}

interface StateHeader {
  head: Head;
  hidden: number;
  items: number;
  options: HeadRun['options'];
  position: LoopPosition;
  step: number;
  lengths: number[];
  /** Early stopping's state without its weight copies (they follow the moments when `best` is set). */
  stopping?: Omit<StoppingState, 'best'> & { best: boolean };
}

function weightArrays(run: HeadRun): Float64Array[] {
  return run.head === 'retriever' ? retrieverArrays(run.weights) : mlpArrays(run.weights);
}

/** The whole state of a paused run, exactly (float64). */
export function packRun(run: HeadRun): Uint8Array {
  return drain(packRunSteps(run));
}

/** `packRun` as work units (see packArraysSteps): a training chunk drains it paced. */
export function packRunSteps(run: HeadRun): Generator<void, Uint8Array> {
  const adam = run.optimiser.exportState();
  const stopping = run.head === 'retriever' ? run.stopping : null;
  const arrays = [...weightArrays(run), ...adam.m, ...adam.v, ...(stopping?.best ?? [])];
  const header: StateHeader = {
    head: run.head,
    hidden: run.hidden,
    items: run.items,
    options: run.options,
    position: run.position,
    step: adam.step,
    lengths: arrays.map((a) => a.length),
    ...(stopping ? { stopping: { ...stopping, best: stopping.best !== null } } : {}),
  };
  return packArraysSteps(MAGIC_STATE, header, arrays, false);
}

export function unpackRun(bytes: Uint8Array): HeadRun {
  const { header, arrays } = unpackArrays<StateHeader>(MAGIC_STATE, bytes, (h) => h.lengths, false);
  // A checkpoint written before presets existed trained the epoch schedule at a constant rate: `paper`'s loop.
  const retrieverOptions = { preset: 'paper', ...header.options } as RetrieverRun['options'];
  // The stored weights replace the run's own: a retriever is not drawn first (a million draws for nothing).
  const run =
    header.head === 'retriever'
      ? drain(startRetrieverSteps(header.hidden, header.items, retrieverOptions, false))
      : drain(startJudgeSteps(header.hidden, header.items, header.options as JudgeRun['options'], false));
  const own = weightArrays(run);
  const n = own.length;
  for (const [i, a] of own.entries()) a.set(arrays[i] as Float64Array);
  run.optimiser.importState({ step: header.step, m: arrays.slice(n, 2 * n), v: arrays.slice(2 * n, 3 * n) });
  run.position = header.position;
  if (run.head === 'retriever' && header.stopping)
    run.stopping = { ...header.stopping, best: header.stopping.best ? arrays.slice(3 * n, 4 * n) : null };
  return run;
}

// ---------------------------------------------------------------------------------------------------------------
// Finished weights (float32).

export interface CotoolsWeights {
  /** The frozen encoder the heads were trained over (`provider/model`), and its dimensions. */
  encoder: string;
  retriever: RetrieverWeights;
  judge: JudgeWeights | null;
}

interface WeightsHeader {
  format: 'tooldrift-cotools-v1';
  encoder: string;
  hidden: number;
  retrieverInter: number;
  judgeInter: number | null;
  lengths: number[];
}

function mlpLengths(hidden: number, inter: number, out: number): number[] {
  return [inter * hidden, inter * hidden, out * inter];
}

export function packWeights(w: CotoolsWeights): Uint8Array {
  const arrays = [...retrieverArrays(w.retriever), ...(w.judge ? mlpArrays(w.judge) : [])];
  const header: WeightsHeader = {
    format: 'tooldrift-cotools-v1',
    encoder: w.encoder,
    hidden: w.retriever.hidden,
    retrieverInter: w.retriever.inter,
    judgeInter: w.judge?.inter ?? null,
    lengths: arrays.map((a) => a.length),
  };
  return packArrays(MAGIC_WEIGHTS, header, arrays, true);
}

export function unpackWeights(bytes: Uint8Array): CotoolsWeights {
  const { header, arrays } = unpackArrays<WeightsHeader>(MAGIC_WEIGHTS, bytes, (h) => h.lengths, true);
  const H = header.hidden;
  const D = header.retrieverInter;
  const expected = [...mlpLengths(H, D, H), ...mlpLengths(H, D, H), H];
  if (header.judgeInter !== null) expected.push(...mlpLengths(H, header.judgeInter, 1));
  if (expected.join() !== header.lengths.join())
    throw new RangeError('weights blob: array sizes do not match');
  const mlp = (at: number, inter: number, out: number): MlpWeights => ({
    hidden: H,
    inter,
    out,
    gate: arrays[at] as Float64Array,
    up: arrays[at + 1] as Float64Array,
    down: arrays[at + 2] as Float64Array,
  });
  return {
    encoder: header.encoder,
    retriever: {
      hidden: H,
      inter: D,
      query: mlp(0, D, H),
      tool: mlp(3, D, H),
      wDim: arrays[6] as Float64Array,
    },
    judge: header.judgeInter === null ? null : mlp(7, header.judgeInter, 1),
  };
}

/** Lower-case hex SHA-256 of bytes (Web Crypto: Node and workerd). */
export async function bytesSha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Tool-side vectors E_T(h_t) of a trained retriever, stored so that search need not run the tool encoder over the
// pool in a request: int8 with one float32 scale per vector (max |x| / 127), 4 + H bytes per tool.

export class VectorPack {
  readonly bytes: Uint8Array;
  #count = 0;

  constructor(
    readonly dimensions: number,
    readonly capacity: number,
  ) {
    this.bytes = new Uint8Array(12 + capacity * (4 + dimensions));
    const view = new DataView(this.bytes.buffer);
    for (let i = 0; i < 4; i++) this.bytes[i] = 'TDV1'.charCodeAt(i);
    view.setUint32(4, dimensions, true);
    view.setUint32(8, capacity, true);
  }

  add(v: ArrayLike<number>): void {
    if (v.length !== this.dimensions) throw new RangeError(`expected a ${this.dimensions}-d vector`);
    if (this.#count >= this.capacity) throw new RangeError('vector pack is full');
    let m = 0;
    for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i] as number));
    const scale = m > 0 ? m / 127 : 0;
    const at = 12 + this.#count * (4 + this.dimensions);
    new DataView(this.bytes.buffer).setFloat32(at, scale, true);
    const q = new Int8Array(this.bytes.buffer, at + 4, this.dimensions);
    for (let i = 0; i < v.length; i++) q[i] = scale > 0 ? Math.round((v[i] as number) / scale) : 0;
    this.#count++;
  }
}

/** The vectors of a `VectorPack` blob, dequantised one at a time. */
export function* unpackVectors(bytes: Uint8Array): Generator<Float32Array> {
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== 'TDV1') throw new RangeError('not a TDV1 blob');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dims = view.getUint32(4, true);
  const count = view.getUint32(8, true);
  if (bytes.byteLength !== 12 + count * (4 + dims))
    throw new RangeError('vector blob size does not match its header');
  for (let n = 0; n < count; n++) {
    const at = 12 + n * (4 + dims);
    const scale = view.getFloat32(at, true);
    const q = new Int8Array(bytes.buffer, bytes.byteOffset + at + 4, dims);
    const v = new Float32Array(dims);
    for (let i = 0; i < dims; i++) v[i] = (q[i] as number) * scale;
    yield v;
  }
}
