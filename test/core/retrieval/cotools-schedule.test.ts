/**
 * How long a Chain-of-Tools retriever trains (core/retrieval/cotools/schedule.ts, issue 25 item 20): the `paper`
 * preset pins the spec's values; the `default` preset's step budget scales with the data; early stopping on a
 * held-out dev split stops a run that stops improving and keeps the best weights (the untrained ones when
 * training only hurts); a chunked run through bytes stops exactly where the one-call training stops.
 */
import { describe, expect, it } from 'vitest';
import {
  initRetriever,
  retrieverArrays,
  type TrainingPair,
} from '../../../core/retrieval/cotools/retriever.ts';
import {
  AUTO_STEPS,
  autoSteps,
  DEV_MAX_CANDIDATES,
  DEV_MAX_QUERIES,
  earlyStoppingSplit,
  lrFactor,
  RETRIEVER_PRESETS,
  resolveRetrieverOptions,
  retrieverDevScore,
  retrieverDevScoreSteps,
  stepsPerEpoch,
} from '../../../core/retrieval/cotools/schedule.ts';
import { RetrieverOptionsSchema } from '../../../core/retrieval/cotools/service.ts';
import {
  advanceRetriever,
  devSet,
  evaluationDue,
  nextBatches,
  packRun,
  type RetrieverRun,
  recordEvaluation,
  runFinished,
  startRetrieverTraining,
  trainRetriever,
  unpackRun,
} from '../../../core/retrieval/cotools/training.ts';
import { Rng } from '../../../core/util/random.ts';

const H = 6;

describe('retriever presets', () => {
  it('paper: the spec’s hyper-parameters (10 epochs, lr 1e-4, batch 16 × 12, W_dim lr 0.01, clip 1, D = 4H)', () => {
    expect(RETRIEVER_PRESETS.paper).toEqual({
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
    });
    // KAMEL's 1,000 questions: ten epochs of ⌈63 batches / 12⌉ = 6 steps — the ≈ 60 steps of the issue.
    const kamel = resolveRetrieverOptions({ preset: 'paper' }, 512, 1_000);
    expect(kamel).toMatchObject({ steps: 60, epochs: 10, intermediate: 2_048, patience: 0 });
    expect(lrFactor(1, 60, kamel.warmup)).toBe(1);
    expect(lrFactor(60, 60, kamel.warmup)).toBe(1);
  });

  it('default: a step budget scaled to the data, within its bounds, and epochs enough to spend it', () => {
    expect(stepsPerEpoch(1_000, 16, 1)).toBe(63);
    expect(stepsPerEpoch(1_000, 16, 12)).toBe(6);
    expect(autoSteps(1_000, 16, 1)).toBe(AUTO_STEPS.passes * 63);
    expect(autoSteps(10, 16, 1)).toBe(AUTO_STEPS.min);
    expect(autoSteps(1_000_000, 16, 1)).toBe(AUTO_STEPS.max);
    // Twice the data, twice the steps (between the bounds).
    expect(autoSteps(1_600, 16, 1)).toBe(2 * autoSteps(800, 16, 1));
    const r = resolveRetrieverOptions({}, 512, 1_000);
    expect(r).toMatchObject({
      preset: 'default',
      steps: 1_260,
      epochs: 20,
      lr: 1e-3,
      accumulation: 1,
      intermediate: 256,
      scale: 20,
      patience: RETRIEVER_PRESETS.default.patience,
      evalEvery: Math.round(1_260 / 40),
      toolText: 'sentence',
      fusion: 'char',
    });
    // Epochs asked for without steps: whole epochs; a given budget wins over epochs.
    expect(resolveRetrieverOptions({ epochs: 3 }, 512, 1_000)).toMatchObject({ steps: 189, epochs: 3 });
    expect(resolveRetrieverOptions({ epochs: 3, steps: 100 }, 512, 1_000)).toMatchObject({
      steps: 100,
      epochs: 2,
    });
  });

  it('wDimLr 0 keeps W_dim at ones while both MLPs train (the frozen-W_dim option; the service accepts it)', () => {
    const rng = new Rng('wdim');
    const tools = Array.from({ length: 8 }, () => Array.from({ length: H }, () => rng.next() - 0.5));
    const pairs: TrainingPair[] = Array.from({ length: 40 }, (_, i) => ({
      h: (tools[i % 8] as number[]).map((x) => x + 0.1 * (rng.next() - 0.5)),
      tools: [i % 8],
    }));
    const options = { steps: 20, intermediate: 4, patience: 0, seed: 'wdim' } as const;
    const frozen = trainRetriever(pairs, (i) => tools[i] as number[], H, { ...options, wDimLr: 0 }).weights;
    expect([...frozen.wDim]).toEqual(Array(H).fill(1));
    expect(frozen.query.down.some((x) => x !== 0)).toBe(true);
    const trained = trainRetriever(pairs, (i) => tools[i] as number[], H, options).weights;
    expect([...trained.wDim].some((x) => x !== 1)).toBe(true);
    expect(RetrieverOptionsSchema.parse({ wDimLr: 0 }).wDimLr).toBe(0);
    expect(RetrieverOptionsSchema.safeParse({ wDimLr: -0.1 }).success).toBe(false);
  });

  it('warms the learning rate up linearly, then decays it linearly to the budget’s end', () => {
    const f = (step: number) => lrFactor(step, 100, 0.1);
    expect([1, 5, 10].map(f)).toEqual([0.1, 0.5, 1]);
    expect(f(11)).toBeCloseTo(90 / 91, 12);
    expect(f(100)).toBeCloseTo(1 / 91, 12);
    for (let s = 11; s < 100; s++) expect(f(s + 1)).toBeLessThan(f(s));
  });
});

describe('the early-stopping split', () => {
  it('holds out a seeded share of the pairs (at most 500) and ranks them among the pool or a sample of it', () => {
    const golds = Array.from({ length: 300 }, (_, i) => [i % 40]);
    const a = earlyStoppingSplit(golds, 40, 0.1, 's');
    expect(a.dev).toHaveLength(30);
    expect(a.devUnseen).toEqual([]);
    expect([...a.dev, ...a.train].sort((x, y) => x - y)).toEqual(golds.map((_, i) => i));
    expect(a.candidates).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(earlyStoppingSplit(golds, 40, 0.1, 's')).toEqual(a);
    expect(earlyStoppingSplit(golds, 40, 0.1, 't').dev).not.toEqual(a.dev);
    // Too few pairs, or no share: nothing held out.
    expect(earlyStoppingSplit(golds.slice(0, 9), 40, 0.1, 's', 0.1).dev).toEqual([]);
    expect(earlyStoppingSplit(golds, 40, 0, 's').dev).toEqual([]);
    // A large set: at most DEV_MAX_QUERIES; a large pool: every dev gold tool among DEV_MAX_CANDIDATES.
    const many = Array.from({ length: 20_000 }, (_, i) => [i * 3]);
    const big = earlyStoppingSplit(many, 60_000, 0.1, 's');
    expect(big.dev).toHaveLength(DEV_MAX_QUERIES);
    expect(big.candidates).toHaveLength(DEV_MAX_CANDIDATES);
    const candidates = new Set(big.candidates);
    for (const i of big.dev) expect(candidates.has((many[i] as number[])[0] as number)).toBe(true);
  });

  it('holds out a share of the tools with every pair naming one: no training pair names a held-out tool', () => {
    const golds = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? [i % 40, (i + 1) % 40] : [i % 40]));
    const split = earlyStoppingSplit(golds, 40, 0.1, 's', 0.1);
    const heldTools = new Set(split.devUnseen.flatMap((i) => golds[i] as number[]));
    expect(heldTools.size).toBeGreaterThanOrEqual(4);
    const unseenTools = new Set(
      golds
        .flatMap((g, i) => (split.devUnseen.includes(i) ? g : []))
        .filter((t) => !split.train.some((j) => golds[j]?.includes(t))),
    );
    // Every unseen-dev pair names a tool that no training pair names.
    for (const i of split.devUnseen)
      expect((golds[i] as number[]).some((t) => unseenTools.has(t))).toBe(true);
    expect(split.dev.length).toBe(Math.round(0.1 * (300 - split.devUnseen.length)));
    const parts = [...split.train, ...split.dev, ...split.devUnseen];
    expect(new Set(parts).size).toBe(parts.length);
    expect(parts.length).toBe(300);
  });
});

/**
 * Tools are random vectors; a query is a noisy copy of its tool's vector. `shifted`: every query also carries one
 * shared offset, which a retriever can learn to undo. `mislabelled`: no offset (the untrained cosine is already
 * right), but the pairs early stopping trains on name random tools — training can only hurt on dev.
 */
function synthetic(seed: string, n: number, kind: 'shifted' | 'mislabelled') {
  const rng = new Rng(seed);
  const vec = () => Float64Array.from({ length: H }, () => rng.float(-1, 1));
  const tools = Array.from({ length: 12 }, vec);
  const shift = kind === 'shifted' ? vec() : new Float64Array(H);
  const dev = new Set(
    earlyStoppingSplit(
      Array.from({ length: n }, () => [0]),
      12,
      0.1,
      'sched',
    ).dev,
  );
  const pairs: TrainingPair[] = Array.from({ length: n }, (_, i) => {
    const t = i % tools.length;
    const h = Float64Array.from(
      tools[t] as Float64Array,
      (x, j) => x + 1.5 * (shift[j] as number) + rng.float(-0.2, 0.2),
    );
    return { h, tools: [kind === 'mislabelled' && !dev.has(i) ? rng.int(0, tools.length - 1) : t] };
  });
  return { tools, pairs, toolVector: (i: number) => tools[i] as Float64Array };
}

// Seen-tool dev only (12 tools: holding one out would leave little to learn from).
const small = { batchSize: 8, intermediate: 8, lr: 0.02, seed: 'sched', evalEvery: 5, devToolShare: 0 };

describe('the dev score', () => {
  it('is the mean of the seen-tool and unseen-tool groups’ MRR and top-1', () => {
    const w = initRetriever(2, 2, 'score');
    const candidates = [
      [1, 0],
      [0, 1],
      [0.7, 0.72],
    ];
    // Query along tool 0: tool 0 ranks 1st, tool 2 2nd, tool 1 3rd.
    const q = [1, 0.01];
    const seen = [{ h: q, gold: [0] }];
    const unseen = [
      { h: q, gold: [2], unseen: true },
      { h: q, gold: [1], unseen: true },
    ];
    expect(retrieverDevScore(w, seen, candidates)).toEqual({ mrr: 1, top1: 1 });
    const both = retrieverDevScore(w, [...seen, ...unseen], candidates);
    expect(both.mrr).toBeCloseTo((1 + (1 / 2 + 1 / 3) / 2) / 2, 12);
    expect(both.top1).toBe(0.5);
    // Stepwise (a server drains it through its pacer): a pause per encoder pass, the same score at the end.
    const steps = retrieverDevScoreSteps(w, [...seen, ...unseen], candidates);
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    expect(pauses).toBe(candidates.length + 3);
    expect(next.value).toEqual(both);
  });
});

describe('early stopping', () => {
  it('keeps training while dev improves, and ends with the best-scoring weights', () => {
    const { pairs, toolVector } = synthetic('learnable', 120, 'shifted');
    const scores: number[] = [];
    const t = trainRetriever(pairs, toolVector, H, small, { pool: 12, onScore: (s) => scores.push(s.mrr) });
    const stop = t.stopping;
    if (!stop) throw new Error('early stopping expected');
    expect(stop).toMatchObject({ train: 108, dev: 12, devUnseen: 0, candidates: 12 });
    expect(stop.scores[0]?.step).toBe(0);
    expect(stop.scores.map((s) => s.step)).toEqual(stop.scores.map((_, i) => i * 5));
    expect(scores).toEqual(stop.scores.map((s) => s.mrr));
    const best = stop.scores.find((s) => s.step === stop.bestStep);
    expect(stop.bestStep).toBeGreaterThan(0);
    expect(best?.mrr).toBe(Math.max(...scores));
    expect(best?.mrr).toBeGreaterThan(stop.scores[0]?.mrr ?? 1);
    // The weights returned are the best step's: scoring them again gives the best score.
    const split = earlyStoppingSplit(
      pairs.map((p) => p.tools),
      12,
      0.1,
      'sched',
    );
    const dev = devSet(split, pairs, toolVector);
    expect(retrieverDevScore(t.weights, dev.queries, dev.candidates).mrr).toBe(best?.mrr);
  });

  it('stops once patience is spent, before the budget, and falls back to the untrained weights when training hurts', () => {
    const { pairs, toolVector } = synthetic('noise', 120, 'mislabelled');
    const t = trainRetriever(pairs, toolVector, H, { ...small, patience: 3, steps: 400 }, { pool: 12 });
    const stop = t.stopping;
    if (!stop) throw new Error('early stopping expected');
    expect(t.steps.budget).toBe(400);
    expect(t.steps.done).toBeLessThan(400);
    // The last scores are the `patience` ones without a gain over the best.
    const best = stop.scores.find((s) => s.step === stop.bestStep)?.mrr ?? 0;
    expect(stop.scores.slice(-3).every((s) => s.mrr <= best)).toBe(true);
    expect(stop.scores.at(-1)?.step).toBe(t.steps.done);
    // Random training labels: no step beats the untrained retriever on dev, so its weights come back.
    expect(stop.bestStep).toBe(0);
    expect(retrieverArrays(t.weights)).toEqual(
      retrieverArrays(initRetriever(H, 8, new Rng('sched').fork('init').seed)),
    );
    // Without early stopping the same budget runs to its end.
    const full = trainRetriever(pairs, toolVector, H, { ...small, patience: 0, steps: 400 }, { pool: 12 });
    expect(full.steps.done).toBe(400);
    expect(full.stopping).toBeNull();
  });

  it('a chunked run through bytes scores and stops exactly as the one-call training', () => {
    const { pairs, toolVector } = synthetic('learnable', 120, 'shifted');
    const options = { ...small, steps: 60 };
    const whole = trainRetriever(pairs, toolVector, H, options, { pool: 12 });
    const started = startRetrieverTraining(
      pairs.map((p) => p.tools),
      12,
      H,
      options,
    );
    const split = started.split;
    if (!split) throw new Error('a split expected');
    const dev = devSet(split, pairs, toolVector);
    let run: RetrieverRun = started.run;
    let pieces = 0;
    while (!runFinished(run)) {
      if (evaluationDue(run))
        recordEvaluation(run, retrieverDevScore(run.weights, dev.queries, dev.candidates));
      else
        advanceRetriever(
          run,
          nextBatches(run, 3).map((b) => b.map((i) => pairs[split.train[i] as number] as TrainingPair)),
          toolVector,
        );
      run = unpackRun(packRun(run)) as RetrieverRun;
      pieces++;
    }
    expect(pieces).toBeGreaterThan(10);
    expect(retrieverArrays(run.weights)).toEqual(retrieverArrays(whole.weights));
    expect(run.stopping?.scores).toEqual(whole.stopping?.scores);
    expect(run.position.reports).toEqual(whole.epochs.map((e) => ({ ...e, ms: expect.any(Number) })));
    expect(() => recordEvaluation(run, { mrr: 1, top1: 1 })).toThrow(/no evaluation is due/);
  });
});
