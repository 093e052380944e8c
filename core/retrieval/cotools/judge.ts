/**
 * The Chain-of-Tools Tool Judge (spec eq. 3–5): J(h) = sigmoid(W_down(σ(W_gate h) ⊗ W_up h)) with a single
 * output; call a tool when J(h) > 0.5. Trained with binary cross-entropy (eq. 5) on frozen vectors labelled 1
 * where a tool is needed. Defaults from the spec: 3 epochs, lr 1e-5, batch 8, gradient accumulation 16, AdamW.
 * The paper scores every generated token; here h is the frozen vector of a step's text (a question, or the
 * trajectory so far), so one example is one step.
 */
import { drain } from '../../util/pacer.ts';
import { Rng, type Seed } from '../../util/random.ts';
import {
  initMlpSteps,
  type MlpWeights,
  mlpArrays,
  mlpBackward,
  mlpForward,
  sigmoid,
  zerosLike,
} from './mlp.ts';
import { AdamW, type EpochReport, runEpochs } from './optim.ts';

export type JudgeWeights = MlpWeights;

export function initJudge(hidden: number, inter: number, seed: Seed): JudgeWeights {
  return drain(initJudgeSteps(hidden, inter, seed));
}

/** `initJudge` as a generator pausing every few thousand draws (the same weights). */
export function initJudgeSteps(hidden: number, inter: number, seed: Seed): Generator<void, JudgeWeights> {
  return initMlpSteps(new Rng(seed), hidden, inter, 1, 1 / Math.sqrt(inter));
}

/** Probability that the step needs a tool (eq. 4). */
export function judgeProbability(w: JudgeWeights, h: ArrayLike<number>): number {
  return sigmoid(mlpForward(w, h).y[0] as number);
}

export interface JudgeExample {
  h: ArrayLike<number>;
  /** 1: a tool is needed; 0: not. */
  label: 0 | 1;
}

/** Mean binary cross-entropy of a batch (eq. 5), adding its gradient to `grad` when given. */
export function judgeLoss(w: JudgeWeights, batch: readonly JudgeExample[], grad?: JudgeWeights): number {
  return drain(judgeLossSteps(w, batch, grad));
}

/** `judgeLoss` as a generator that pauses after each example's forward and backward pass (see `batchLossSteps`). */
export function* judgeLossSteps(
  w: JudgeWeights,
  batch: readonly JudgeExample[],
  grad?: JudgeWeights,
): Generator<void, number> {
  let loss = 0;
  for (const ex of batch) {
    const t = mlpForward(w, ex.h);
    const z = t.y[0] as number;
    // BCE with logits, stable: max(z, 0) − z·y + log(1 + e^{−|z|})
    loss += (Math.max(z, 0) - z * ex.label + Math.log1p(Math.exp(-Math.abs(z)))) / batch.length;
    if (grad) mlpBackward(w, t, [(sigmoid(z) - ex.label) / batch.length], grad);
    yield;
  }
  return loss;
}

export interface JudgeTrainOptions {
  epochs?: number;
  lr?: number;
  batchSize?: number;
  accumulation?: number;
  clip?: number;
  weightDecay?: number;
  intermediate?: number;
  seed?: Seed;
}

export const JUDGE_DEFAULTS = {
  epochs: 3,
  lr: 1e-5,
  batchSize: 8,
  accumulation: 16,
  clip: 1,
  weightDecay: 0.01,
  seed: 'cotools-judge',
} as const;

export function trainJudge(
  examples: readonly JudgeExample[],
  hidden: number,
  options: JudgeTrainOptions = {},
): { weights: JudgeWeights; epochs: EpochReport[] } {
  const o = { ...JUDGE_DEFAULTS, ...options };
  const rng = new Rng(o.seed);
  const w = initJudge(hidden, o.intermediate ?? 4 * hidden, rng.fork('init').seed);
  const grad = zerosLike(w);
  const grads = mlpArrays(grad);
  const optimiser = new AdamW([{ params: mlpArrays(w), grads, lr: o.lr }], { weightDecay: o.weightDecay });
  const epochs = runEpochs({
    items: examples,
    settings: o,
    rng,
    optimiser,
    grads,
    batchLoss: (batch) => judgeLoss(w, batch, grad),
  });
  return { weights: w, epochs };
}

/** The judge's verdict on one step: call a tool when the probability is above 0.5 (eq. 4). */
export interface JudgeVerdict {
  needsTool: boolean;
  probability: number;
}

export function judgeVector(w: JudgeWeights, h: ArrayLike<number>): JudgeVerdict {
  const probability = judgeProbability(w, h);
  return { needsTool: probability > 0.5, probability };
}

/**
 * Judges step texts with a trained judge: each text goes through the frozen encoder the judge was trained over
 * (the caller must pass that same encoder) and then eq. 3–5. This is the helper agents call to decide whether a
 * step should retrieve a tool.
 */
export async function judgeTexts(
  w: JudgeWeights,
  encoder: { dimensions: number; embed(texts: string[]): Promise<number[][]> },
  texts: readonly string[],
): Promise<JudgeVerdict[]> {
  if (encoder.dimensions !== w.hidden)
    throw new RangeError(
      `the judge was trained on ${w.hidden}-d vectors; this encoder gives ${encoder.dimensions}-d`,
    );
  if (texts.length === 0) return [];
  const vectors = await encoder.embed([...texts]);
  return vectors.map((h) => judgeVector(w, h));
}
