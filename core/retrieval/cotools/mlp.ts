/**
 * The gated MLP both Chain-of-Tools heads are built from (spec eq. 3 and eq. 6–7):
 *   E'(h) = W_down (σ(W_gate h) ⊗ W_up h),  σ = SiLU,
 * with its hand-written backward pass. Weights are row-major Float64Arrays (row j of W_gate/W_up is hidden unit
 * j; row i of W_down is output i). Hand-written rather than tfjs because the model is three matrix–vector
 * products per side and the whole training loop must be seeded, deterministic and dependency-free in core/
 * (tfjs-core's CPU backend is itself plain JS matmuls, and its kernels run float32 only, which makes a
 * finite-difference gradient check too noisy to mean anything).
 */
import { drain } from '../../util/pacer.ts';
import type { Rng } from '../../util/random.ts';

export interface MlpWeights {
  /** Input size H (the frozen vector's size). */
  hidden: number;
  /** Intermediate size D. */
  inter: number;
  /** D × H */
  gate: Float64Array;
  /** D × H */
  up: Float64Array;
  /** out × D (out = H for the retriever, 1 for the judge) */
  down: Float64Array;
  out: number;
}

/** What the backward pass needs from a forward pass. */
export interface MlpTrace {
  h: ArrayLike<number>;
  a: Float64Array;
  b: Float64Array;
  s: Float64Array;
  m: Float64Array;
  y: Float64Array;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

export function gaussian(rng: Rng): number {
  // Box–Muller; 1 − u keeps the logarithm finite.
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Draws between two pauses of the `…Steps` initialisers (a few milliseconds). */
const DRAWS_PER_STEP = 16_384;

function* randomMatrixSteps(rng: Rng, size: number, std: number): Generator<void, Float64Array> {
  const out = new Float64Array(size);
  for (let i = 0; i < size; i++) {
    out[i] = gaussian(rng) * std;
    if (i % DRAWS_PER_STEP === DRAWS_PER_STEP - 1) yield;
  }
  return out;
}

/** W_gate and W_up ~ N(0, 1/H); W_down ~ N(0, downStd²) (0 → all zeros). */
export function initMlp(rng: Rng, hidden: number, inter: number, out: number, downStd: number): MlpWeights {
  return drain(initMlpSteps(rng, hidden, inter, out, downStd));
}

/** `initMlp` as a generator pausing every few thousand draws (the same draws in the same order). */
export function* initMlpSteps(
  rng: Rng,
  hidden: number,
  inter: number,
  out: number,
  downStd: number,
): Generator<void, MlpWeights> {
  const gate = yield* randomMatrixSteps(rng, inter * hidden, 1 / Math.sqrt(hidden));
  const up = yield* randomMatrixSteps(rng, inter * hidden, 1 / Math.sqrt(hidden));
  const down =
    downStd > 0 ? yield* randomMatrixSteps(rng, out * inter, downStd) : new Float64Array(out * inter);
  return { hidden, inter, out, gate, up, down };
}

/** An MLP of that shape with every weight 0 (to be overwritten, e.g. from a checkpoint). */
export function emptyMlp(hidden: number, inter: number, out: number): MlpWeights {
  return {
    hidden,
    inter,
    out,
    gate: new Float64Array(inter * hidden),
    up: new Float64Array(inter * hidden),
    down: new Float64Array(out * inter),
  };
}

export function zerosLike(w: MlpWeights): MlpWeights {
  return {
    ...w,
    gate: new Float64Array(w.gate.length),
    up: new Float64Array(w.up.length),
    down: new Float64Array(w.down.length),
  };
}

export function mlpForward(w: MlpWeights, h: ArrayLike<number>): MlpTrace {
  const { hidden: H, inter: D, out: O } = w;
  if (h.length !== H) throw new RangeError(`expected a ${H}-d vector, got ${h.length}`);
  const a = new Float64Array(D);
  const b = new Float64Array(D);
  const s = new Float64Array(D);
  const m = new Float64Array(D);
  for (let j = 0, row = 0; j < D; j++, row += H) {
    let ga = 0;
    let ub = 0;
    for (let i = 0; i < H; i++) {
      const x = h[i] as number;
      ga += (w.gate[row + i] as number) * x;
      ub += (w.up[row + i] as number) * x;
    }
    a[j] = ga;
    b[j] = ub;
    s[j] = ga * sigmoid(ga);
    m[j] = (s[j] as number) * ub;
  }
  const y = new Float64Array(O);
  for (let o = 0, row = 0; o < O; o++, row += D) {
    let acc = 0;
    for (let j = 0; j < D; j++) acc += (w.down[row + j] as number) * (m[j] as number);
    y[o] = acc;
  }
  return { h, a, b, s, m, y };
}

/** Adds ∂L/∂W to `grad` given ∂L/∂y (the frozen input h takes no gradient). */
export function mlpBackward(w: MlpWeights, t: MlpTrace, dy: ArrayLike<number>, grad: MlpWeights): void {
  const { hidden: H, inter: D, out: O } = w;
  const dm = new Float64Array(D);
  for (let o = 0, row = 0; o < O; o++, row += D) {
    const g = dy[o] as number;
    if (g === 0) continue;
    for (let j = 0; j < D; j++) {
      grad.down[row + j] = (grad.down[row + j] as number) + g * (t.m[j] as number);
      dm[j] = (dm[j] as number) + g * (w.down[row + j] as number);
    }
  }
  for (let j = 0, row = 0; j < D; j++, row += H) {
    const aj = t.a[j] as number;
    const sg = sigmoid(aj);
    // d silu(a)/da = σ(a) (1 + a (1 − σ(a)))
    const da = (dm[j] as number) * (t.b[j] as number) * sg * (1 + aj * (1 - sg));
    const db = (dm[j] as number) * (t.s[j] as number);
    if (da === 0 && db === 0) continue;
    for (let i = 0; i < H; i++) {
      const x = t.h[i] as number;
      grad.gate[row + i] = (grad.gate[row + i] as number) + da * x;
      grad.up[row + i] = (grad.up[row + i] as number) + db * x;
    }
  }
}

export function mlpArrays(w: MlpWeights): Float64Array[] {
  return [w.gate, w.up, w.down];
}
