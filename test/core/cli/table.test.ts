/** The terminal tables: exact output for a given evaluation (contract shape of GET /v1/evals/{id}). */
import { describe, expect, it } from 'vitest';
import { evalReport, percentCell, renderTable, resultsTable, taxonomyTable } from '../../../cli/table.ts';
import { evalDetail } from './fixtures.ts';

describe('resultsTable', () => {
  it('puts each dataset over its easy/hard columns, then the averages; `-` where nothing finished', () => {
    expect(resultsTable(evalDetail())).toBe(
      [
        'method  surface    flights      coffee        average',
        '                  easy  hard  easy  hard  easy  hard   all',
        '------  -------  -----  ----  ----  ----  ----  ----  ----',
        'greedy  pc       100.0  75.0  50.0  25.0  75.0  50.0  62.5',
        'greedy  s-ood     25.0   0.0     -     -  25.0   0.0  12.5',
        '',
      ].join('\n'),
    );
  });

  it('follows the columns of the evaluation (one difficulty, a long dataset name)', () => {
    const e = evalDetail();
    const columns = [
      { dataset: 'scirex', difficulty: 'hard' as const },
      { dataset: 'dblp', difficulty: 'hard' as const },
    ];
    const table = [
      {
        method: 'greedy-memory' as const,
        surface: 's-in',
        cells: columns.map((c) => ({ ...c, total: 3, done: 3, correct: 1, successRate: 1 / 3 })),
        average: 1 / 3,
        averageEasy: null,
        averageHard: 1 / 3,
      },
    ];
    expect(resultsTable({ ...e, columns, table })).toBe(
      [
        'method         surface  scirex  dblp      average',
        '                          hard  hard  easy  hard   all',
        '-------------  -------  ------  ----  ----  ----  ----',
        'greedy-memory  s-in       33.3  33.3     -  33.3  33.3',
        '',
      ].join('\n'),
    );
  });
});

describe('taxonomyTable', () => {
  it('counts each failure class per method × surface, in the category order, with its share of the failures', () => {
    expect(taxonomyTable(evalDetail())).toBe(
      [
        'method  surface  failures  invalid-invocation  deprecated-repeat    looping  incorrect-output  instructions-not-followed  tool-misuse',
        '------  -------  --------  ------------------  -----------------  ---------  ----------------  -------------------------  -----------',
        'greedy  pc              6                   0                  0  2 (33.3%)         4 (66.7%)                          0            0',
        'greedy  s-ood           7           3 (42.9%)          3 (42.9%)          0                 0                          0    1 (14.3%)',
        '',
      ].join('\n'),
    );
  });

  it('adds the top-level types when the server reports them', () => {
    const e = evalDetail();
    const groups = [
      { id: 'tool-use', label: 'Tool-use errors' },
      { id: 'reasoning', label: 'Reasoning errors' },
    ];
    const rows = e.taxonomy.rows.map((r, i) => ({
      ...r,
      groups: { 'tool-use': i * 7, reasoning: 6 - i * 6 },
    }));
    const lines = taxonomyTable({ taxonomy: { ...e.taxonomy, groups, rows } }).split('\n');
    expect(lines[0]?.endsWith('tool-misuse    tool-use   reasoning')).toBe(true);
    expect(lines[2]?.endsWith('0           0  6 (100.0%)')).toBe(true);
    expect(lines[3]?.endsWith('1 (14.3%)  7 (100.0%)           0')).toBe(true);
  });
});

describe('taxonomyTable with run errors', () => {
  it('adds a run errors column only when some task runs ended in an infrastructure error', () => {
    const e = evalDetail();
    const rows = e.taxonomy.rows.map((r, i) => ({ ...r, runErrors: i }));
    const lines = taxonomyTable({ taxonomy: { ...e.taxonomy, rows } }).split('\n');
    expect(lines[0]?.endsWith('tool-misuse  run errors')).toBe(true);
    expect(lines.slice(2, 4).map((l) => l.split(/\s+/).at(-1))).toEqual(['0', '1']);
  });
});

describe('evalReport', () => {
  it('heads the tables with the evaluation, its model and time, and ends with usage', () => {
    const report = evalReport(evalDetail());
    expect(report.split('\n').slice(0, 3)).toEqual([
      'Evaluation ev_1 "nightly" — done, 32/32 task runs, model sim/tooldrift-sim-v1 (simulated), 2026-11-20T03:02:05Z',
      '',
      'Success rate (%)',
    ]);
    expect(report).toContain(`\nError taxonomy (failed task runs)\n${taxonomyTable(evalDetail())}`);
    expect(
      report.endsWith('\nUsage: 120 model calls, 50000 input + 4000 output tokens, 2.5 s model time\n'),
    ).toBe(true);
    expect(report).not.toContain('Still running');
  });

  it('lists regression drops against the previous run and marks running evaluations', () => {
    const report = evalReport(
      evalDetail({
        status: 'running',
        finishedAt: null,
        comparison: {
          previousEvalId: 'ev_0',
          threshold: 0.1,
          flagged: true,
          drops: [
            {
              method: 'greedy',
              surface: 'pc',
              dataset: 'flights',
              difficulty: 'hard',
              previous: 1,
              current: 0.75,
              delta: -0.25,
            },
            {
              method: 'greedy',
              surface: 's-ood',
              dataset: null,
              difficulty: null,
              previous: 0.5,
              current: 0.125,
              delta: -0.375,
            },
          ],
        },
      }),
    );
    expect(report).toContain('\nStill running: rates are over the task runs finished so far.\n');
    expect(report).toContain(
      '\nCompared with ev_0 (threshold 10.0 points): FLAGGED, 2 drops\n' +
        '  greedy pc flights/hard: 100.0 → 75.0 (-25.0)\n' +
        '  greedy s-ood average: 50.0 → 12.5 (-37.5)\n',
    );
  });
});

describe('renderTable', () => {
  it('widens the last spanned column when a group header is longer than its columns', () => {
    expect(
      renderTable({
        header: [
          [{ text: 'x' }, { text: 'a long group', span: 2 }],
          [{ text: '' }, { text: 'p' }, { text: 'q' }],
        ],
        align: ['left', 'right', 'right'],
        rows: [['r', '1', '2']],
      }),
    ).toBe(['x  a long group', '   p          q', '-  -  ---------', 'r  1          2', ''].join('\n'));
  });

  it('formats rates as percentages with one decimal', () => {
    expect([percentCell(null), percentCell(0), percentCell(1), percentCell(0.12345)]).toEqual([
      '-',
      '0.0',
      '100.0',
      '12.3',
    ]);
  });
});
