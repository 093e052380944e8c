import { describe, expect, it } from 'vitest';
import { aggregate, compareTables, type ResultRow } from '../../../core/evals/aggregate.ts';
import { EvalSuiteSchema } from '../../../core/evals/suite.ts';

const suite = EvalSuiteSchema.parse({
  surfaces: ['pc', 's-ood'],
  datasets: ['coffee', 'dblp'],
  sampleSize: 2,
});
const planned = new Map([
  ['coffee\u0000easy', 2],
  ['coffee\u0000hard', 2],
  ['dblp\u0000easy', 2],
  ['dblp\u0000hard', 1],
]);

function r(
  surface: string,
  dataset: string,
  difficulty: string,
  correct: boolean,
  errorClass: string | null = null,
): ResultRow {
  return {
    method: 'greedy',
    surface,
    dataset,
    difficulty,
    correct,
    errorClass: correct ? null : errorClass,
    modelCalls: 3,
    inputTokens: 100,
    outputTokens: 10,
    latencyMs: 5,
  };
}

describe('evaluation aggregates', () => {
  it('computes Table 2–5 cells, averages over finished runs, taxonomy counts and usage by hand', () => {
    const rows = [
      r('pc', 'coffee', 'easy', true),
      r('pc', 'coffee', 'easy', true),
      r('pc', 'coffee', 'hard', false, 'incorrect-output'),
      r('pc', 'dblp', 'easy', true),
      r('s-ood', 'coffee', 'easy', false, 'deprecated-repeat'),
      r('s-ood', 'coffee', 'easy', true),
      r('s-ood', 'dblp', 'hard', false, 'run-error'),
    ];
    const agg = aggregate(suite, planned, rows);
    expect(agg.columns).toEqual([
      { dataset: 'coffee', difficulty: 'easy' },
      { dataset: 'coffee', difficulty: 'hard' },
      { dataset: 'dblp', difficulty: 'easy' },
      { dataset: 'dblp', difficulty: 'hard' },
    ]);
    const [pc, ood] = agg.table;
    expect(pc?.cells.map((c) => [c.total, c.done, c.correct, c.successRate])).toEqual([
      [2, 2, 2, 1],
      [2, 1, 0, 0],
      [2, 1, 1, 1],
      [1, 0, 0, null],
    ]);
    expect(pc?.average).toBeCloseTo(3 / 4);
    expect(pc?.averageEasy).toBe(1);
    expect(pc?.averageHard).toBe(0);
    expect(ood?.average).toBeCloseTo(1 / 3);
    expect(ood?.averageHard).toBe(0);
    expect(agg.successRate).toBeCloseTo(4 / 7);
    expect(agg.done).toBe(7);
    expect(agg.usage).toEqual({ modelCalls: 21, inputTokens: 700, outputTokens: 70, latencyMs: 35 });
    const [taxPc, taxOod] = agg.taxonomy.rows;
    expect(taxPc).toMatchObject({ failures: 1, runErrors: 0, counts: { 'incorrect-output': 1, looping: 0 } });
    expect(taxOod).toMatchObject({ failures: 1, runErrors: 1, counts: { 'deprecated-repeat': 1 } });
  });

  it('flags drops beyond the threshold, and only those', () => {
    const before = aggregate(suite, planned, [
      r('pc', 'coffee', 'easy', true),
      r('pc', 'coffee', 'easy', true),
      r('s-ood', 'coffee', 'easy', true),
      r('s-ood', 'coffee', 'easy', false),
    ]).table;
    const after = aggregate(suite, planned, [
      r('pc', 'coffee', 'easy', true),
      r('pc', 'coffee', 'easy', false),
      r('s-ood', 'coffee', 'easy', false),
      r('s-ood', 'coffee', 'easy', true),
    ]).table;
    const drops = compareTables(before, after, 0.25);
    // pc fell from 1 to 0.5 (cell and average); s-ood stayed at 0.5.
    expect(drops).toEqual([
      {
        method: 'greedy',
        surface: 'pc',
        dataset: null,
        difficulty: null,
        previous: 1,
        current: 0.5,
        delta: -0.5,
      },
      {
        method: 'greedy',
        surface: 'pc',
        dataset: 'coffee',
        difficulty: 'easy',
        previous: 1,
        current: 0.5,
        delta: -0.5,
      },
    ]);
    // A drop of exactly the threshold is not beyond it; improvements are never flagged.
    expect(compareTables(before, after, 0.5)).toEqual([]);
    expect(compareTables(after, before, 0)).toEqual([]);
  });
});
