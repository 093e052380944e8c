/**
 * Resumable training (core/retrieval/cotools/training.ts): a run advanced in pieces, packed to bytes and unpacked
 * between every piece, ends with exactly the weights and epoch losses of `trainRetriever` / `trainJudge` in one
 * call; the float32 weights blob round-trips; the judge helper answers eq. 4's > 0.5 rule.
 */
import { describe, expect, it } from 'vitest';
import { judgeProbability, judgeTexts, trainJudge } from '../../../core/retrieval/cotools/judge.ts';
import { retrieverArrays, type TrainingPair } from '../../../core/retrieval/cotools/retriever.ts';
import {
  advanceJudge,
  advanceRetriever,
  bytesSha256,
  type HeadRun,
  type JudgeRun,
  nextBatches,
  packRun,
  packRunSteps,
  packWeights,
  type RetrieverRun,
  runFinished,
  runProgress,
  startJudge,
  startRetriever,
  trainRetriever,
  unpackRun,
  unpackWeights,
} from '../../../core/retrieval/cotools/training.ts';
import { Rng } from '../../../core/util/random.ts';

const H = 6;
const rng = new Rng('resumable');
const vec = () => Float64Array.from({ length: H }, () => rng.float(-1, 1));
const tools = Array.from({ length: 9 }, vec);
const pairs: TrainingPair[] = Array.from({ length: 27 }, (_, i) => ({
  h: vec(),
  tools: i % 5 === 0 ? [i % 9, (i + 1) % 9] : [i % 9],
}));
const judged = Array.from({ length: 21 }, (_, i) => ({ h: vec(), label: (i % 3 === 0 ? 1 : 0) as 0 | 1 }));
const retrieverOptions = {
  preset: 'paper' as const,
  epochs: 3,
  lr: 0.01,
  batchSize: 4,
  accumulation: 2,
  intermediate: 5,
  scale: 5,
  seed: 'r',
};
const judgeOptions = { epochs: 2, lr: 0.01, batchSize: 4, accumulation: 3, intermediate: 4, seed: 'j' };

function drive(run: HeadRun, stepsPerPiece: number): HeadRun {
  let current = run;
  let pieces = 0;
  while (!runFinished(current)) {
    const batches = nextBatches(current, stepsPerPiece);
    if (current.head === 'retriever')
      advanceRetriever(
        current,
        batches.map((b) => b.map((i) => pairs[i] as TrainingPair)),
        (i) => tools[i] as Float64Array,
      );
    else
      advanceJudge(
        current,
        batches.map((b) => b.map((i) => judged[i] as (typeof judged)[number])),
      );
    current = unpackRun(packRun(current));
    pieces++;
  }
  expect(pieces).toBeGreaterThan(1);
  return current;
}

describe('resumable Chain-of-Tools training', () => {
  it('packs a checkpoint in steps (a job paces between them) to the same bytes as in one call', () => {
    const run = startRetriever(H, pairs.length, retrieverOptions);
    const steps = packRunSteps(run);
    let yields = 0;
    let next = steps.next();
    while (!next.done) {
      yields++;
      next = steps.next();
    }
    // At least one step per array (weights, both AdamW moments), however small.
    expect(yields).toBeGreaterThanOrEqual(3);
    expect(next.value).toEqual(packRun(run));
    expect(unpackRun(next.value).position).toEqual(run.position);
  });

  it('a retriever advanced one step at a time through bytes equals trainRetriever in one call', () => {
    const whole = trainRetriever(pairs, (i) => tools[i] as Float64Array, H, retrieverOptions);
    for (const steps of [1, 2, 100]) {
      const run = drive(startRetriever(H, pairs.length, retrieverOptions), steps) as RetrieverRun;
      expect(retrieverArrays(run.weights)).toEqual(retrieverArrays(whole.weights));
      expect(run.position.reports.map((r) => [r.epoch, r.loss, r.steps])).toEqual(
        whole.epochs.map((r) => [r.epoch, r.loss, r.steps]),
      );
      // 7 batches an epoch, a step every 2 and at the epoch's end: 4 steps × 3 epochs.
      expect(runProgress(run)).toEqual({ done: 12, total: 12 });
    }
  });

  it('a judge advanced in pieces equals trainJudge in one call', () => {
    const whole = trainJudge(judged, H, judgeOptions);
    const run = drive(startJudge(H, judged.length, judgeOptions), 1) as JudgeRun;
    expect([run.weights.gate, run.weights.up, run.weights.down]).toEqual([
      whole.weights.gate,
      whole.weights.up,
      whole.weights.down,
    ]);
    expect(run.position.reports.map((r) => r.loss)).toEqual(whole.epochs.map((r) => r.loss));
  });

  it('a different seed gives different weights', () => {
    const a = drive(startRetriever(H, pairs.length, retrieverOptions), 2) as RetrieverRun;
    const b = drive(
      startRetriever(H, pairs.length, { ...retrieverOptions, seed: 'other' }),
      2,
    ) as RetrieverRun;
    expect(retrieverArrays(a.weights)).not.toEqual(retrieverArrays(b.weights));
  });

  it('packs the finished heads as float32 and reads them back', async () => {
    const r = trainRetriever(pairs, (i) => tools[i] as Float64Array, H, retrieverOptions).weights;
    const j = trainJudge(judged, H, judgeOptions).weights;
    const bytes = packWeights({ encoder: 'lexical/x', retriever: r, judge: j });
    const back = unpackWeights(bytes);
    expect(back.encoder).toBe('lexical/x');
    expect(back.retriever.wDim).toEqual(Float64Array.from(Float32Array.from(r.wDim)));
    expect(back.judge?.down).toEqual(Float64Array.from(Float32Array.from(j.down)));
    // Byte-identical after a round trip, and the hash sees one flipped byte.
    expect(await bytesSha256(packWeights(back))).toBe(await bytesSha256(bytes));
    const flipped = bytes.slice();
    flipped[bytes.length - 1] = (flipped[bytes.length - 1] as number) ^ 1;
    expect(await bytesSha256(flipped)).not.toBe(await bytesSha256(bytes));
    expect(() => unpackWeights(bytes.subarray(0, bytes.length - 4))).toThrow(/does not match/);
    expect(unpackWeights(packWeights({ encoder: 'e', retriever: r, judge: null })).judge).toBeNull();
  });

  it('judgeTexts applies eq. 4 through the given encoder and refuses one of another size', async () => {
    const j = trainJudge(judged, H, judgeOptions).weights;
    const table: Record<string, Float64Array> = {
      a: judged[0]?.h as Float64Array,
      b: judged[1]?.h as Float64Array,
    };
    const encoder = {
      dimensions: H,
      embed: async (texts: string[]) => texts.map((t) => [...(table[t] as Float64Array)]),
    };
    const verdicts = await judgeTexts(j, encoder, ['a', 'b']);
    for (const [i, v] of verdicts.entries()) {
      const p = judgeProbability(j, judged[i]?.h as Float64Array);
      expect(v).toEqual({ probability: p, needsTool: p > 0.5 });
    }
    await expect(judgeTexts(j, { ...encoder, dimensions: H + 1 }, ['a'])).rejects.toThrow(/6-d/);
  });
});
