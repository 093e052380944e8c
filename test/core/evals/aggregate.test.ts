import { describe, expect, it } from 'vitest';
import { aggregate, compareTables, type ResultRow } from '../../../core/evals/aggregate.ts';
import {
  EvalSuiteSchema,
  suiteColumns,
  TABLE_DATASET_ORDER,
  tableColumns,
} from '../../../core/evals/suite.ts';
import { DATASET_NAMES } from '../../../core/world/types.ts';

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
    // The paper's average: mean of the cell rates (1, 0, 1) = 2/3; pooled over questions 3/4.
    expect(pc?.average).toBeCloseTo(2 / 3);
    expect(pc?.pooled).toBeCloseTo(3 / 4);
    expect(pc?.averageEasy).toBe(1);
    expect(pc?.averageHard).toBe(0);
    // s-ood cells: coffee-easy 1/2, dblp-hard 0/1 → mean 1/4; pooled 1/3.
    expect(ood?.average).toBeCloseTo(1 / 4);
    expect(ood?.pooled).toBeCloseTo(1 / 3);
    expect(ood?.averageHard).toBe(0);
    expect(agg.successRate).toBeCloseTo(4 / 7);
    expect(agg.done).toBe(7);
    expect(agg.usage).toEqual({ modelCalls: 21, inputTokens: 700, outputTokens: 70, latencyMs: 35 });
    const [taxPc, taxOod] = agg.taxonomy.rows;
    expect(taxPc).toMatchObject({ failures: 1, runErrors: 0, counts: { 'incorrect-output': 1, looping: 0 } });
    expect(taxOod).toMatchObject({
      failures: 1,
      runErrors: 1,
      counts: { 'deprecated-repeat': 1 },
      groups: { invocation: 1, planning: 0, other: 0 },
    });
  });

  it('averages the way the paper does: a plain mean of per-dataset rates, whatever their sizes', () => {
    // Hand-built: seven hard datasets, coffee-hard with 130 questions. Rates 20/130, 3/10, …: the paper's mean
    // weighs each dataset once, the pooled rate weighs coffee-hard 13 times as much as a set of 10.
    const seven = EvalSuiteSchema.parse({ difficulties: ['hard'], sampleSize: 100, surfaces: ['pc'] });
    const sizes: Record<string, [number, number]> = {
      flights: [3, 10],
      coffee: [20, 130],
      airbnb: [4, 10],
      yelp: [2, 10],
      agenda: [1, 10],
      scirex: [0, 10],
      dblp: [5, 10],
    };
    const rows: ResultRow[] = [];
    for (const [dataset, [ok, n]] of Object.entries(sizes))
      for (let i = 0; i < n; i++) rows.push(r('pc', dataset, 'hard', i < ok, 'incorrect-output'));
    const [row] = aggregate(seven, new Map(), rows).table;
    const mean = (3 / 10 + 20 / 130 + 4 / 10 + 2 / 10 + 1 / 10 + 0 + 5 / 10) / 7;
    expect(row?.averageHard).toBeCloseTo(mean, 12);
    expect(row?.average).toBeCloseTo(mean, 12);
    expect(row?.pooledHard).toBeCloseTo(35 / 190, 12);
    expect((row?.averageHard ?? 0) * 100).toBeCloseTo(23.6, 1);
  });

  it("orders the table's columns as the ToolEvo paper's tables (spec §10), easy before hard; the plan keeps catalogue order", () => {
    expect([...TABLE_DATASET_ORDER].sort()).toEqual([...DATASET_NAMES].sort());
    // The default suite: ToolQA-D's seven datasets, without GSM8K, in the paper's (alphabetical) order.
    const seven = EvalSuiteSchema.parse({ sampleSize: 1 });
    expect(tableColumns(seven).map((c) => `${c.dataset}-${c.difficulty}`)).toEqual(
      ['agenda', 'airbnb', 'coffee', 'dblp', 'flights', 'scirex', 'yelp'].flatMap((d) => [
        `${d}-easy`,
        `${d}-hard`,
      ]),
    );
    // GSM8K, when asked for, comes after the paper's seven; it has no hard set, but the column exists and stays
    // empty.
    const all = EvalSuiteSchema.parse({ sampleSize: 1, datasets: [...DATASET_NAMES].reverse() });
    expect(tableColumns(all).map((c) => `${c.dataset}-${c.difficulty}`)).toEqual(
      ['agenda', 'airbnb', 'coffee', 'dblp', 'flights', 'scirex', 'yelp', 'gsm8k'].flatMap((d) => [
        `${d}-easy`,
        `${d}-hard`,
      ]),
    );
    expect(suiteColumns(all).map((c) => c.dataset)).toEqual(DATASET_NAMES.flatMap((d) => [d, d]));
    const agg = aggregate(all, new Map(), [
      r('pc', 'agenda', 'easy', true),
      r('pc', 'flights', 'hard', false),
    ]);
    expect(agg.columns).toEqual(tableColumns(all));
    expect(agg.table[0]?.cells.map((c) => c.dataset)).toEqual(tableColumns(all).map((c) => c.dataset));
  });

  it("keeps GSM8K outside the paper's averages; the pooled rate counts its questions", () => {
    // Hand-built: GPT-3.5's Table 2 easy row (spec §10) on the seven datasets, 50 questions each, plus a GSM8K
    // cell at 100 %. The paper's easy average is 46.0 with or without GSM8K beside it.
    const suiteAll = EvalSuiteSchema.parse({
      surfaces: ['pc'],
      difficulties: ['easy'],
      datasets: [...DATASET_NAMES],
    });
    const paper: Record<string, number> = {
      agenda: 40,
      airbnb: 60,
      coffee: 64,
      dblp: 12,
      flights: 72,
      scirex: 2,
      yelp: 72,
    };
    const rows: ResultRow[] = [];
    for (const [dataset, pct] of Object.entries(paper))
      for (let i = 0; i < 50; i++) rows.push(r('pc', dataset, 'easy', i < pct / 2, 'incorrect-output'));
    for (let i = 0; i < 50; i++) rows.push(r('pc', 'gsm8k', 'easy', true));
    const [row] = aggregate(suiteAll, new Map(), rows).table;
    expect((row?.averageEasy ?? 0) * 100).toBeCloseTo(46.0, 10);
    expect((row?.average ?? 0) * 100).toBeCloseTo(46.0, 10);
    expect(row?.cells.find((c) => c.dataset === 'gsm8k')?.successRate).toBe(1);
    // Pooled over questions: (161 + 50) / 400.
    expect(row?.pooled).toBeCloseTo((161 + 50) / 400, 12);
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
