/**
 * The Chain-of-Tools Tool Retriever (spec eq. 6–11) over frozen vectors h:
 *   E'(h) = W_down(σ(W_gate h) ⊗ W_up h)            (eq. 6–7, mlp.ts)
 *   E(h)  = L2norm(W_dim ⊗ (h + E'(h)))             (eq. 8–9)
 *   score = V_Q · V_T                              (eq. 10, dot product of unit vectors, no temperature)
 * Query and tool sides have separate MLP weights; W_dim (per-dimension scale, initialised to ones) is ONE array
 * used by both sides, so its gradient sums both sides' contributions. Training minimises the in-batch
 * contrastive cross-entropy of eq. 11: each query's candidates are the de-duplicated gold tools of its batch.
 *
 * tooldrift choices (documented in the README): W_down starts at zero, so an untrained retriever ranks exactly
 * like the `dense` cosine over the same frozen vectors and training can only move it from there; a query with
 * several gold tools uses the multi-positive form −log Σ_{g ∈ gold} p_g (one gold tool: eq. 11 exactly);
 * `scale` (default 1 = the paper's no temperature) multiplies scores inside the softmax only.
 */
import { drain } from '../../util/pacer.ts';
import { Rng, type Seed } from '../../util/random.ts';
import {
  emptyMlp,
  initMlpSteps,
  type MlpTrace,
  type MlpWeights,
  mlpArrays,
  mlpBackward,
  mlpForward,
  zerosLike,
} from './mlp.ts';
import type { RetrieverOptionsInput } from './schedule.ts';

export type { EpochReport } from './optim.ts';

export interface RetrieverWeights {
  hidden: number;
  inter: number;
  query: MlpWeights;
  tool: MlpWeights;
  /** Shared by both sides (eq. 9). */
  wDim: Float64Array;
}

export type Side = 'query' | 'tool';

export function initRetriever(hidden: number, inter: number, seed: Seed): RetrieverWeights {
  return drain(initRetrieverSteps(hidden, inter, seed));
}

/** `initRetriever` as a generator pausing every few thousand draws (the same weights). */
export function* initRetrieverSteps(
  hidden: number,
  inter: number,
  seed: Seed,
): Generator<void, RetrieverWeights> {
  const rng = new Rng(seed);
  const query = yield* initMlpSteps(rng.fork('query'), hidden, inter, hidden, 0);
  const tool = yield* initMlpSteps(rng.fork('tool'), hidden, inter, hidden, 0);
  return { hidden, inter, query, tool, wDim: new Float64Array(hidden).fill(1) };
}

/** A retriever of that shape with every weight 0 (to be overwritten, e.g. from a checkpoint). */
export function emptyRetriever(hidden: number, inter: number): RetrieverWeights {
  return {
    hidden,
    inter,
    query: emptyMlp(hidden, inter, hidden),
    tool: emptyMlp(hidden, inter, hidden),
    wDim: new Float64Array(hidden),
  };
}

/** Gradient buffers shaped like the weights; `wDim` is again one buffer for both sides. */
export function zeroRetrieverGrads(w: RetrieverWeights): RetrieverWeights {
  return { ...w, query: zerosLike(w.query), tool: zerosLike(w.tool), wDim: new Float64Array(w.hidden) };
}

export function retrieverArrays(w: RetrieverWeights): Float64Array[] {
  return [...mlpArrays(w.query), ...mlpArrays(w.tool), w.wDim];
}

interface EncodeTrace {
  mlp: MlpTrace;
  /** r = h + E'(h) */
  r: Float64Array;
  /** ‖W_dim ⊗ r‖ */
  norm: number;
  /** The unit output vector. */
  v: Float64Array;
}

function encodeTrace(w: RetrieverWeights, side: Side, h: ArrayLike<number>): EncodeTrace {
  const mlp = mlpForward(w[side], h);
  const H = w.hidden;
  const r = new Float64Array(H);
  const v = new Float64Array(H);
  let sq = 0;
  for (let i = 0; i < H; i++) {
    r[i] = (h[i] as number) + (mlp.y[i] as number);
    v[i] = (w.wDim[i] as number) * (r[i] as number);
    sq += (v[i] as number) ** 2;
  }
  const norm = Math.sqrt(sq);
  const inv = norm > 0 ? 1 / norm : 0;
  for (let i = 0; i < H; i++) v[i] = (v[i] as number) * inv;
  return { mlp, r, norm, v };
}

/** E(h) of eq. 9 for one side. */
export function encode(w: RetrieverWeights, side: Side, h: ArrayLike<number>): Float64Array {
  return encodeTrace(w, side, h).v;
}

function encodeBackward(
  w: RetrieverWeights,
  side: Side,
  t: EncodeTrace,
  dv: Float64Array,
  grad: RetrieverWeights,
): void {
  const H = w.hidden;
  if (t.norm === 0) return;
  // v = z/‖z‖ → dz = (dv − v (v·dv)) / ‖z‖; z = W_dim ⊗ r.
  let dot = 0;
  for (let i = 0; i < H; i++) dot += (t.v[i] as number) * (dv[i] as number);
  const dr = new Float64Array(H);
  for (let i = 0; i < H; i++) {
    const dz = ((dv[i] as number) - (t.v[i] as number) * dot) / t.norm;
    grad.wDim[i] = (grad.wDim[i] as number) + dz * (t.r[i] as number);
    dr[i] = dz * (w.wDim[i] as number);
  }
  // r = h + E'(h): the residual's gradient flows into the MLP (h is frozen).
  mlpBackward(w[side], t.mlp, dr, grad[side]);
}

/** One in-batch example: a query's frozen vector and the positions of its gold tools among the batch's candidates. */
export interface BatchQuery {
  h: ArrayLike<number>;
  gold: readonly number[];
}

/**
 * The eq. 11 loss of one batch (mean over its queries), adding its gradient to `grad` when given. `candidates` are
 * the frozen vectors of the batch's de-duplicated gold tools.
 */
export function batchLoss(
  w: RetrieverWeights,
  queries: readonly BatchQuery[],
  candidates: readonly ArrayLike<number>[],
  grad?: RetrieverWeights,
  scale = 1,
): number {
  return drain(batchLossSteps(w, queries, candidates, grad, scale));
}

/**
 * `batchLoss` as a generator that pauses after each encoder pass (forward or backward, ≈ 3·H·D multiply–adds), so a
 * caller on a shared event loop can let requests through inside one batch (core/util/pacer.ts `drainPaced`).
 */
export function* batchLossSteps(
  w: RetrieverWeights,
  queries: readonly BatchQuery[],
  candidates: readonly ArrayLike<number>[],
  grad?: RetrieverWeights,
  scale = 1,
): Generator<void, number> {
  const qt: EncodeTrace[] = [];
  for (const q of queries) {
    qt.push(encodeTrace(w, 'query', q.h));
    yield;
  }
  const tt: EncodeTrace[] = [];
  for (const h of candidates) {
    tt.push(encodeTrace(w, 'tool', h));
    yield;
  }
  const H = w.hidden;
  const C = tt.length;
  const dq = qt.map(() => new Float64Array(H));
  const dt = tt.map(() => new Float64Array(H));
  let loss = 0;
  const n = queries.length;
  for (const [qi, q] of queries.entries()) {
    const vq = (qt[qi] as EncodeTrace).v;
    const logits = new Float64Array(C);
    let max = Number.NEGATIVE_INFINITY;
    for (let c = 0; c < C; c++) {
      const vt = (tt[c] as EncodeTrace).v;
      let s = 0;
      for (let i = 0; i < H; i++) s += (vq[i] as number) * (vt[i] as number);
      logits[c] = s * scale;
      max = Math.max(max, logits[c] as number);
    }
    let z = 0;
    const p = new Float64Array(C);
    for (let c = 0; c < C; c++) {
      p[c] = Math.exp((logits[c] as number) - max);
      z += p[c] as number;
    }
    let pGold = 0;
    for (let c = 0; c < C; c++) p[c] = (p[c] as number) / z;
    const gold = new Set(q.gold);
    for (const g of gold) pGold += p[g] as number;
    loss += -Math.log(pGold) / n;
    if (!grad) continue;
    // ∂(−log Σ_g p_g)/∂logit_c = p_c − 1[c ∈ gold] p_c / Σ_g p_g
    for (let c = 0; c < C; c++) {
      const pc = p[c] as number;
      const dl = ((pc - (gold.has(c) ? pc / pGold : 0)) * scale) / n;
      if (dl === 0) continue;
      const vt = (tt[c] as EncodeTrace).v;
      const dqi = dq[qi] as Float64Array;
      const dtc = dt[c] as Float64Array;
      for (let i = 0; i < H; i++) {
        dqi[i] = (dqi[i] as number) + dl * (vt[i] as number);
        dtc[i] = (dtc[i] as number) + dl * (vq[i] as number);
      }
    }
  }
  if (grad) {
    for (const [qi, t] of qt.entries()) {
      encodeBackward(w, 'query', t, dq[qi] as Float64Array, grad);
      yield;
    }
    for (const [c, t] of tt.entries()) {
      encodeBackward(w, 'tool', t, dt[c] as Float64Array, grad);
      yield;
    }
  }
  return loss;
}

/**
 * Eq. 11's candidate set: the de-duplicated gold tools of the batch, in first-seen order (pool positions), and
 * each query's gold tools as positions in that list. Tools of the pool outside the batch are not candidates.
 */
export function inBatch(batch: readonly TrainingPair[]): { candidates: number[]; queries: BatchQuery[] } {
  const slot = new Map<number, number>();
  for (const pair of batch) for (const t of pair.tools) if (!slot.has(t)) slot.set(t, slot.size);
  return {
    candidates: [...slot.keys()],
    queries: batch.map((pair) => ({ h: pair.h, gold: pair.tools.map((t) => slot.get(t) as number) })),
  };
}

/** Training options: a preset (`default` or `paper`, schedule.ts) and any value overriding it. */
export type RetrieverTrainOptions = RetrieverOptionsInput;

export interface TrainingPair {
  /** The query's frozen vector. */
  h: ArrayLike<number>;
  /** Pool positions of its gold tools. */
  tools: readonly number[];
}
