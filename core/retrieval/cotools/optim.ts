/**
 * AdamW (Loshchilov & Hutter: decoupled weight decay) with per-group learning rates, and global-norm gradient
 * clipping — the optimiser setup of the spec's Training section (clip 1.0; W_dim at its own learning rate).
 * β = (0.9, 0.999), ε = 1e-8 and weight decay 0.01 are PyTorch's `torch.optim.AdamW` defaults.
 */
import { drain } from '../../util/pacer.ts';
import type { Rng } from '../../util/random.ts';

export interface ParamGroup {
  params: Float64Array[];
  grads: Float64Array[];
  lr: number;
}

export interface AdamWOptions {
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
}

export class AdamW {
  readonly #m: Float64Array[][];
  readonly #v: Float64Array[][];
  #step = 0;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;

  constructor(
    readonly groups: ParamGroup[],
    options: AdamWOptions = {},
  ) {
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.eps = options.eps ?? 1e-8;
    this.weightDecay = options.weightDecay ?? 0.01;
    this.#m = groups.map((g) => g.params.map((p) => new Float64Array(p.length)));
    this.#v = groups.map((g) => g.params.map((p) => new Float64Array(p.length)));
  }

  get steps(): number {
    return this.#step;
  }

  /** The moment estimates and step count (views, not copies): with the weights, all a resumed run needs. */
  exportState(): { step: number; m: Float64Array[]; v: Float64Array[] } {
    return { step: this.#step, m: this.#m.flat(), v: this.#v.flat() };
  }

  /** Restores what `exportState` gave (same groups and shapes); training then continues bit for bit. */
  importState(state: { step: number; m: readonly Float64Array[]; v: readonly Float64Array[] }): void {
    const m = this.#m.flat();
    const v = this.#v.flat();
    if (state.m.length !== m.length || state.v.length !== v.length)
      throw new RangeError('optimiser state does not match the parameter groups');
    for (const [i, a] of m.entries()) a.set(state.m[i] as Float64Array);
    for (const [i, a] of v.entries()) a.set(state.v[i] as Float64Array);
    this.#step = state.step;
  }

  /** One update from the gradients currently held in the groups (it does not zero them). */
  step(): void {
    drain(this.stepSteps());
  }

  /** `step` as a generator pausing after each parameter array (up to a few hundred thousand updates each). */
  *stepSteps(): Generator<void, void> {
    this.#step++;
    const { beta1, beta2, eps, weightDecay } = this;
    const c1 = 1 - beta1 ** this.#step;
    const c2 = 1 - beta2 ** this.#step;
    for (const [gi, group] of this.groups.entries()) {
      for (const [pi, p] of group.params.entries()) {
        const g = group.grads[pi] as Float64Array;
        const m = this.#m[gi]?.[pi] as Float64Array;
        const v = this.#v[gi]?.[pi] as Float64Array;
        for (let i = 0; i < p.length; i++) {
          const gr = g[i] as number;
          const mi = beta1 * (m[i] as number) + (1 - beta1) * gr;
          const vi = beta2 * (v[i] as number) + (1 - beta2) * gr * gr;
          m[i] = mi;
          v[i] = vi;
          const decayed = (p[i] as number) * (1 - group.lr * weightDecay);
          p[i] = decayed - (group.lr * (mi / c1)) / (Math.sqrt(vi / c2) + eps);
        }
        yield;
      }
    }
  }
}

/** Scales all gradients so their global L2 norm is at most `maxNorm`; returns the norm before clipping. */
export function clipGradNorm(grads: readonly Float64Array[], maxNorm: number): number {
  return drain(clipGradNormSteps(grads, maxNorm));
}

/** `clipGradNorm` as a generator pausing after each array it reads or scales. */
export function* clipGradNormSteps(grads: readonly Float64Array[], maxNorm: number): Generator<void, number> {
  let sq = 0;
  for (const g of grads) {
    for (const x of g) sq += x * x;
    yield;
  }
  const norm = Math.sqrt(sq);
  if (norm > maxNorm && norm > 0) {
    const scale = maxNorm / (norm + 1e-6);
    for (const g of grads) {
      for (let i = 0; i < g.length; i++) g[i] = (g[i] as number) * scale;
      yield;
    }
  }
  return norm;
}

export function zeroGrads(grads: readonly Float64Array[]): void {
  for (const g of grads) g.fill(0);
}

export interface EpochReport {
  epoch: number;
  /** Mean batch loss over the epoch. */
  loss: number;
  /** Optimiser steps so far. */
  steps: number;
  ms: number;
}

export interface EpochSettings {
  epochs: number;
  batchSize: number;
  /** Batches per optimiser step (gradient accumulation). */
  accumulation: number;
  /** Global gradient-norm limit. */
  clip: number;
}

export interface EpochLoop<T> {
  items: readonly T[];
  settings: EpochSettings;
  /** Forked per epoch (`epoch-N`) for the shuffle. */
  rng: Rng;
  optimiser: AdamW;
  /** Every gradient buffer the optimiser reads. */
  grads: readonly Float64Array[];
  /** Loss of one batch, adding its (batch-mean) gradient to `grads`. */
  batchLoss: (batch: T[]) => number;
  onBatch?: ((done: number, total: number) => void) | undefined;
  onEpoch?: ((report: EpochReport) => void) | undefined;
}

/**
 * The training loop both heads share: a seeded shuffle per epoch, batches of `batchSize`, an optimiser step after
 * every `accumulation` batches (and at the end of an epoch) on the gradients averaged over those batches and
 * clipped to `clip` — so the same seed and data give the same weights bit for bit.
 */
export function runEpochs<T>(loop: EpochLoop<T>): EpochReport[] {
  const { items, grads, optimiser } = loop;
  const { batchSize, accumulation, clip, epochs } = loop.settings;
  const reports: EpochReport[] = [];
  const batchesPerEpoch = Math.ceil(items.length / batchSize);
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const started = Date.now();
    const order = loop.rng.fork(`epoch-${epoch}`).shuffle(items.map((_, i) => i));
    let lossSum = 0;
    let batches = 0;
    let pending = 0;
    const step = () => {
      for (const g of grads) for (let i = 0; i < g.length; i++) g[i] = (g[i] as number) / pending;
      clipGradNorm(grads, clip);
      optimiser.step();
      zeroGrads(grads);
      pending = 0;
    };
    for (let at = 0; at < order.length; at += batchSize) {
      lossSum += loop.batchLoss(order.slice(at, at + batchSize).map((i) => items[i] as T));
      batches++;
      pending++;
      if (pending === accumulation) step();
      loop.onBatch?.(batches + (epoch - 1) * batchesPerEpoch, batchesPerEpoch * epochs);
    }
    if (pending > 0) step();
    const report = {
      epoch,
      loss: lossSum / Math.max(1, batches),
      steps: optimiser.steps,
      ms: Date.now() - started,
    };
    reports.push(report);
    loop.onEpoch?.(report);
  }
  return reports;
}
