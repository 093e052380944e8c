/**
 * The results table of a queued API evaluation (core/evals/api-table.ts), recomputed here from per-run rows written
 * out by hand: Correct Path Rate in both definitions over the runs with a gold path, success over those with a gold
 * answer, calls per query, run errors counted as failures in the rates but outside the taxonomy's labels, and one
 * row per planned group — also before any of its runs finished.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApiResultRow,
  apiAidsKey,
  apiDocsKey,
  apiEvalTable,
  apiRunSuccess,
} from '../../../core/evals/api-table.ts';
import { RUN_ERROR } from '../../../core/evals/taxonomy.ts';

const usage = { modelCalls: 2, inputTokens: 100, outputTokens: 10, latencyMs: 5 };
const run = (over: Partial<ApiResultRow>): ApiResultRow => ({
  method: 'greedy',
  surface: 'tmdb',
  docs: 'imported',
  aids: 'none',
  correct: null,
  pathSubsequence: true,
  pathSet: true,
  calls: 2,
  errorClass: null,
  ...usage,
  ...over,
});

describe('apiEvalTable', () => {
  const groups = [
    { method: 'greedy', surface: 'tmdb', docs: 'imported', aids: 'none', items: [0, 1, 2, 3] },
    { method: 'greedy', surface: 'tmdb-v2', docs: 'imported', aids: 'none', items: [0, 1, 2, 3] },
    { method: 'mcts', surface: 'tmdb', docs: 'imported', aids: 'none', items: [0, 1, 2, 3] },
  ];
  const rows: ApiResultRow[] = [
    run({ calls: 2 }),
    // In order on neither definition's terms: the set holds, the ordered subsequence does not.
    run({ pathSubsequence: false, pathSet: true, calls: 3, errorClass: 'incorrect-output' }),
    run({ pathSubsequence: false, pathSet: false, calls: 5, errorClass: 'looping' }),
    run({ pathSubsequence: false, pathSet: false, calls: 0, errorClass: RUN_ERROR, modelCalls: 0 }),
    run({
      surface: 'tmdb-v2',
      pathSubsequence: false,
      pathSet: false,
      calls: 6,
      errorClass: 'deprecated-repeat',
    }),
    run({ surface: 'tmdb-v2', calls: 4 }),
  ];
  const t = apiEvalTable(groups, rows);

  it('gives both Correct Path Rate definitions and calls per query per group', () => {
    expect(t.table[0]).toEqual({
      method: 'greedy',
      surface: 'tmdb',
      docs: 'imported',
      aids: 'none',
      total: 4,
      done: 4,
      correctPath: { subsequence: 25, set: 50, n: 4 },
      success: null,
      callsPerQuery: 2.5,
    });
    expect(t.table[1]).toMatchObject({
      done: 2,
      correctPath: { subsequence: 50, set: 50, n: 2 },
      callsPerQuery: 5,
    });
    // A group without a finished run has no rates yet, not zeros.
    expect(t.table[2]).toMatchObject({
      method: 'mcts',
      done: 0,
      correctPath: { subsequence: null, set: null, n: 0 },
      callsPerQuery: null,
    });
  });

  it('counts failures per Table 7 label, run errors apart', () => {
    expect(t.taxonomy.rows[0]).toMatchObject({ failures: 2, runErrors: 1 });
    expect(t.taxonomy.rows[0]?.counts).toMatchObject({
      'incorrect-output': 1,
      looping: 1,
      'deprecated-repeat': 0,
    });
    expect(t.taxonomy.rows[0]?.groups).toMatchObject({ planning: 2, invocation: 0 });
    expect(t.taxonomy.rows[1]?.counts['deprecated-repeat']).toBe(1);
    expect(t.successRate).toBeCloseTo(2 / 6);
    expect(t.usage.modelCalls).toBe(2 * 5);
  });

  it('scores success by the answer where the item has a gold answer, else by the path', () => {
    expect(apiRunSuccess({ correct: true, pathSubsequence: false })).toBe(true);
    expect(apiRunSuccess({ correct: false, pathSubsequence: true })).toBe(false);
    expect(apiRunSuccess({ correct: null, pathSubsequence: true })).toBe(true);
    expect(apiRunSuccess({ correct: null, pathSubsequence: null })).toBe(false);
    const answered = apiEvalTable(
      [{ method: 'greedy', surface: 'tmdb', docs: 'surface', aids: 'none', items: [0, 1] }],
      [
        run({ docs: 'surface', correct: true, pathSubsequence: null, pathSet: null }),
        run({
          docs: 'surface',
          correct: false,
          pathSubsequence: null,
          pathSet: null,
          errorClass: 'incorrect-output',
        }),
      ],
    );
    expect(answered.table[0]).toMatchObject({ success: 50, correctPath: { subsequence: null, n: 0 } });
  });

  it('keys documentation and aid rows the same way whatever the key order', () => {
    expect(apiDocsKey('imported')).toBe('imported');
    expect(apiDocsKey({ docset: 'd1' })).toBe('docset:d1');
    expect(apiDocsKey({ description: 'f1' })).toBe('description:f1');
    expect(apiAidsKey({})).toBe('none');
    expect(apiAidsKey({ toolPool: { pool: 'all', k: 5, ranker: 'bm25' } })).toBe(
      apiAidsKey({ toolPool: { ranker: 'bm25', k: 5, pool: 'all' } }),
    );
  });
});
