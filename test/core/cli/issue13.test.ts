/** Issue 13 item 11: what a new user hit in the CLI. */
import { describe, expect, it } from 'vitest';
import { flagForField, problemLines } from '../../../cli/problem.ts';
import { resultsTable } from '../../../cli/table.ts';
import { evalDetail } from './fixtures.ts';
import { runCli } from './harness.ts';

describe('CLI rough edges (issue 13 item 11)', () => {
  it('names flags instead of API fields, whether the API said json. or body.', () => {
    expect(flagForField('sampleSize')).toBe('--sample');
    expect(flagForField('suite.sampleSize')).toBe('--sample');
    expect(flagForField('datasets.1')).toBe('--datasets');
    expect(flagForField('mcts.maxDepth')).toBe('--mcts-depth');
    expect(flagForField('model.provider')).toBe('--model-provider');
    expect(flagForField('somethingElse')).toBeUndefined();
    const lines = problemLines({
      title: 'Request validation failed',
      detail: 'Invalid json.sampleSize: Too small',
      errors: [
        { in: 'json', field: 'sampleSize', message: 'Too small' },
        { in: 'body', field: 'model.provider', message: 'not configured' },
        { in: 'body', field: 'whatever', message: 'odd' },
        { in: 'query', field: 'limit', message: 'bad' },
      ],
    });
    expect(lines).toEqual([
      'Request validation failed: Invalid --sample: Too small',
      '  - --sample: Too small',
      '  - --model-provider: not configured',
      '  - body field whatever: odd',
      '  - query.limit: bad',
    ]);
    expect(lines.join('\n')).not.toMatch(/json\.|body\./);
  });

  it('lists --name once in `schedules create --help`, and documents gsm8k', async () => {
    const help = await runCli(['schedules', 'create', '--help'], { env: {} });
    expect(help.stdout.match(/^ +--name NAME/gm)).toHaveLength(1);
    expect(help.stdout).toContain('gsm8k');
    const evalHelp = await runCli(['eval', '--help'], { env: {} });
    expect(evalHelp.stdout.match(/^ +--name NAME/gm)).toHaveLength(1);
    expect(evalHelp.stdout).toContain('gsm8k');
  });

  it('prints no column for a dataset × difficulty without tasks (gsm8k has no hard questions)', () => {
    const e = evalDetail();
    const columns = [
      { dataset: 'gsm8k', difficulty: 'easy' as const },
      { dataset: 'gsm8k', difficulty: 'hard' as const },
    ];
    const table = [
      {
        method: 'greedy' as const,
        surface: 'pc',
        cells: [
          { ...columns[0], total: 2, done: 2, correct: 1, successRate: 0.5 },
          { ...columns[1], total: 0, done: 0, correct: 0, successRate: null },
        ] as never,
        average: 0.5,
        averageEasy: 0.5,
        averageHard: null,
      },
    ];
    const out = resultsTable({ ...e, columns, table });
    expect(out.split('\n')[0]).toMatch(/^method\s+surface\s+gsm8k\s+average$/);
    expect(out.split('\n')[1]).toMatch(/^\s+easy\s+easy\s+hard\s+all$/);
  });
});
