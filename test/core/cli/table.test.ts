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
  it("prints each label's share of the failures as a percentage, in the category order (Table 7's)", () => {
    expect(taxonomyTable(evalDetail())).toBe(
      [
        'method  surface  failures  invalid-invocation  deprecated-repeat  looping  incorrect-output  instructions-not-followed  tool-misuse',
        '------  -------  --------  ------------------  -----------------  -------  ----------------  -------------------------  -----------',
        'greedy  pc              6                0.0%               0.0%    33.3%             66.7%                       0.0%         0.0%',
        'greedy  s-ood           7               42.9%              42.9%     0.0%              0.0%                       0.0%        14.3%',
        '',
      ].join('\n'),
    );
  });

  it("groups the labels under Table 7's three error types when the server reports them (spec §10)", () => {
    const e = evalDetail();
    const group = (id: string) =>
      id === 'invalid-invocation' || id === 'deprecated-repeat'
        ? 'invocation'
        : id === 'looping' || id === 'incorrect-output'
          ? 'planning'
          : 'other';
    const categories = e.taxonomy.categories.map((c) => ({ ...c, group: group(c.id) }));
    const groups = [
      { id: 'invocation', label: 'Invocation error in new tools' },
      { id: 'planning', label: 'Planning error' },
      { id: 'other', label: 'Other error' },
    ];
    const rows = [
      { ...e.taxonomy.rows[0], failures: 0, counts: {} },
      ...e.taxonomy.rows,
    ] as typeof e.taxonomy.rows;
    expect(taxonomyTable({ taxonomy: { categories, groups, rows } })).toBe(
      [
        '                               Invocation error in new tools           Planning error                     Other error',
        'method  surface  failures  invalid-invocation  deprecated-repeat  looping  incorrect-output  instructions-not-followed  tool-misuse',
        '------  -------  --------  ------------------  -----------------  -------  ----------------  -------------------------  -----------',
        'greedy  pc              0                   -                  -        -                 -                          -            -',
        'greedy  pc              6                0.0%               0.0%    33.3%             66.7%                       0.0%         0.0%',
        'greedy  s-ood           7               42.9%              42.9%     0.0%              0.0%                       0.0%        14.3%',
        '',
      ].join('\n'),
    );
    // Labels of one type that are not adjacent get no group row.
    const scattered = [categories[0], categories[2], categories[1]] as typeof categories;
    expect(taxonomyTable({ taxonomy: { categories: scattered, groups, rows } }).split('\n')[0]).toMatch(
      /^method/,
    );
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
