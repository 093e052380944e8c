import { describe, expect, it } from 'vitest';
import { judgeLoss, trainJudge } from '../../../core/retrieval/cotools/judge.ts';
import { initMlp } from '../../../core/retrieval/cotools/mlp.ts';
import {
  type BatchQuery,
  batchLoss,
  encode,
  inBatch,
  initRetriever,
  type RetrieverWeights,
  retrieverArrays,
  zeroRetrieverGrads,
} from '../../../core/retrieval/cotools/retriever.ts';
import { trainRetriever } from '../../../core/retrieval/cotools/training.ts';
import { Rng } from '../../../core/util/random.ts';

const H = 5;
const D = 4;

function vec(rng: Rng, n = H): Float64Array {
  return Float64Array.from({ length: n }, () => rng.float(-1, 1));
}

/** A retriever with non-zero W_down and W_dim ≠ 1 so every term of the backward pass is exercised. */
function tinyRetriever(seed: string): RetrieverWeights {
  const rng = new Rng(seed);
  const w = initRetriever(H, D, seed);
  w.query = initMlp(rng.fork('q'), H, D, H, 0.5);
  w.tool = initMlp(rng.fork('t'), H, D, H, 0.5);
  for (let i = 0; i < H; i++) w.wDim[i] = rng.float(0.5, 1.5);
  return w;
}

function tinyBatch(seed: string): { queries: BatchQuery[]; candidates: Float64Array[] } {
  const rng = new Rng(seed);
  return {
    candidates: [vec(rng), vec(rng), vec(rng)],
    // The second query has two gold tools (the multi-positive form); the third shares the first's gold.
    queries: [
      { h: vec(rng), gold: [0] },
      { h: vec(rng), gold: [1, 2] },
      { h: vec(rng), gold: [0] },
    ],
  };
}

/** Central finite difference of `loss` with respect to every entry of every array. */
function numericGrads(arrays: Float64Array[], loss: () => number, eps = 1e-6): Float64Array[] {
  return arrays.map((a) => {
    const g = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const keep = a[i] as number;
      a[i] = keep + eps;
      const up = loss();
      a[i] = keep - eps;
      const down = loss();
      a[i] = keep;
      g[i] = (up - down) / (2 * eps);
    }
    return g;
  });
}

function expectClose(analytic: Float64Array[], numeric: Float64Array[]): void {
  let worst = 0;
  let scale = 0;
  for (const [k, a] of analytic.entries()) {
    const n = numeric[k] as Float64Array;
    for (let i = 0; i < a.length; i++) {
      worst = Math.max(worst, Math.abs((a[i] as number) - (n[i] as number)));
      scale = Math.max(scale, Math.abs(n[i] as number));
    }
  }
  expect(scale).toBeGreaterThan(1e-4); // the check is not vacuous
  expect(worst).toBeLessThan(1e-6);
}

describe('Tool Retriever (spec eq. 6–11)', () => {
  it('backpropagates the in-batch contrastive loss exactly (finite differences, every weight)', () => {
    const w = tinyRetriever('grad');
    const { queries, candidates } = tinyBatch('grad-batch');
    for (const scale of [1, 7]) {
      const grad = zeroRetrieverGrads(w);
      batchLoss(w, queries, candidates, grad, scale);
      const numeric = numericGrads(retrieverArrays(w), () =>
        batchLoss(w, queries, candidates, undefined, scale),
      );
      expectClose(retrieverArrays(grad), numeric);
    }
  });

  it('shares one W_dim between the sides, initialised to ones, with gradient from both', () => {
    const fresh = initRetriever(8, 4, 's');
    expect([...fresh.wDim]).toEqual(new Array(8).fill(1));
    expect(fresh.query.gate).not.toBe(fresh.tool.gate); // separate MLP weights
    const w = tinyRetriever('shared');
    const { queries, candidates } = tinyBatch('shared-batch');
    const grad = zeroRetrieverGrads(w);
    batchLoss(w, queries, candidates, grad);
    // Give each side its own copy of W_dim to measure each side's share of the derivative.
    const split = (side: 'query' | 'tool') => {
      const copy = Float64Array.from(w.wDim);
      const loss = () => {
        const original = w.wDim;
        // Encode one side with the copy, the other with the original, by swapping before each encode.
        const qVecs = queries.map((q) => {
          w.wDim = side === 'query' ? copy : original;
          return encode(w, 'query', q.h);
        });
        const tVecs = candidates.map((h) => {
          w.wDim = side === 'tool' ? copy : original;
          return encode(w, 'tool', h);
        });
        w.wDim = original;
        let total = 0;
        for (const [qi, q] of queries.entries()) {
          const s = tVecs.map((t) =>
            t.reduce((acc, x, i) => acc + x * ((qVecs[qi] as Float64Array)[i] as number), 0),
          );
          const max = Math.max(...s);
          const z = s.reduce((acc, x) => acc + Math.exp(x - max), 0);
          const pg = q.gold.reduce((acc, g) => acc + Math.exp((s[g] as number) - max), 0) / z;
          total -= Math.log(pg) / queries.length;
        }
        return total;
      };
      return numericGrads([copy], loss)[0] as Float64Array;
    };
    const fromQuery = split('query');
    const fromTool = split('tool');
    for (let i = 0; i < H; i++) {
      expect(Math.abs(fromQuery[i] as number)).toBeGreaterThan(1e-6);
      expect(Math.abs(fromTool[i] as number)).toBeGreaterThan(1e-6);
      expect(grad.wDim[i]).toBeCloseTo((fromQuery[i] as number) + (fromTool[i] as number), 6);
    }
  });

  it('takes as candidates only the de-duplicated gold tools of the batch', () => {
    const rng = new Rng('batch');
    const { candidates, queries } = inBatch([
      { h: vec(rng), tools: [40] },
      { h: vec(rng), tools: [7, 40] },
      { h: vec(rng), tools: [99] },
      { h: vec(rng), tools: [7] },
    ]);
    expect(candidates).toEqual([40, 7, 99]);
    expect(queries.map((q) => q.gold)).toEqual([[0], [1, 0], [2], [1]]);
  });

  it('scores a query against in-batch negatives: eq. 11 is −log softmax of the gold dot product', () => {
    const w = tinyRetriever('ce');
    const { queries, candidates } = tinyBatch('ce-batch');
    const one = [queries[0] as BatchQuery];
    const vq = encode(w, 'query', (one[0] as BatchQuery).h);
    const scores = candidates.map((h) =>
      encode(w, 'tool', h).reduce((a, x, i) => a + x * (vq[i] as number), 0),
    );
    const expected = -Math.log(Math.exp(scores[0] as number) / scores.reduce((a, s) => a + Math.exp(s), 0));
    expect(batchLoss(w, one, candidates)).toBeCloseTo(expected, 12);
    // Unit vectors: scores are cosines, no temperature.
    expect(Math.hypot(...vq)).toBeCloseTo(1, 12);
  });

  it('starts as the frozen cosine (W_down = 0) and trains deterministically by seed', () => {
    const rng = new Rng('train-data');
    const tools = Array.from({ length: 12 }, () => vec(rng, 6));
    // Queries are noisy copies of their tool's vector, shifted by a fixed offset the retriever has to learn.
    const shift = vec(rng, 6);
    const pairs = Array.from({ length: 48 }, (_, i) => {
      const t = i % tools.length;
      const h = Float64Array.from(
        tools[t] as Float64Array,
        (x, j) => x + 0.8 * (shift[j] as number) + rng.float(-0.1, 0.1),
      );
      return { h, tools: [t] };
    });
    const untrained = initRetriever(6, 8, 'x');
    const h = tools[0] as Float64Array;
    const unit = Float64Array.from(h, (x) => x / Math.hypot(...h));
    expect([...encode(untrained, 'tool', h)].map((x) => x.toFixed(12))).toEqual(
      [...unit].map((x) => x.toFixed(12)),
    );
    const options = {
      preset: 'paper' as const,
      epochs: 4,
      lr: 0.01,
      accumulation: 1,
      batchSize: 8,
      intermediate: 8,
      seed: 7,
    };
    const a = trainRetriever(pairs, (i) => tools[i] as Float64Array, 6, options);
    const b = trainRetriever(pairs, (i) => tools[i] as Float64Array, 6, options);
    const c = trainRetriever(pairs, (i) => tools[i] as Float64Array, 6, { ...options, seed: 8 });
    expect(retrieverArrays(a.weights)).toEqual(retrieverArrays(b.weights));
    expect(a.epochs.map((e) => e.loss)).toEqual(b.epochs.map((e) => e.loss));
    expect(retrieverArrays(c.weights)).not.toEqual(retrieverArrays(a.weights));
    // Learning happens: the last epoch's loss is below the first's.
    expect((a.epochs.at(-1)?.loss ?? 0) < (a.epochs[0]?.loss ?? 0)).toBe(true);
  });
});

describe('Tool Judge (spec eq. 3–5)', () => {
  it('backpropagates binary cross-entropy exactly', () => {
    const rng = new Rng('judge');
    const w = initMlp(rng, H, D, 1, 0.5);
    const batch = [
      { h: vec(rng), label: 1 as const },
      { h: vec(rng), label: 0 as const },
      { h: vec(rng), label: 1 as const },
    ];
    const grad = initMlp(rng, H, D, 1, 0);
    grad.gate.fill(0);
    grad.up.fill(0);
    judgeLoss(w, batch, grad);
    const numeric = numericGrads([w.gate, w.up, w.down], () => judgeLoss(w, batch));
    expectClose([grad.gate, grad.up, grad.down], numeric);
  });

  it('learns to separate steps that need a tool, deterministically', () => {
    const rng = new Rng('judge-data');
    const examples = Array.from({ length: 64 }, (_, i) => {
      const label = (i % 2) as 0 | 1;
      const h = vec(rng, 6);
      h[0] = label ? 1 + rng.next() : -1 - rng.next();
      return { h, label };
    });
    const options = { epochs: 20, lr: 0.01, accumulation: 1, intermediate: 8, seed: 3 };
    const a = trainJudge(examples, 6, options);
    const b = trainJudge(examples, 6, options);
    expect([...a.weights.down]).toEqual([...b.weights.down]);
    expect(judgeLoss(a.weights, examples)).toBeLessThan(0.2);
  });
});
