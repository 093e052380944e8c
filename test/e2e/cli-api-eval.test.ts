/**
 * `tooldrift eval --api … --queryset …` end to end (issue 23 §4): every method that runs on imported APIs answers
 * RestBench-TMDB queries on the API as imported and on a drifted version, with stale and fresh documentation,
 * through the instance's queue; the CLI shows progress and prints the Correct Path Rate table, whose figures are the
 * API's; bad input exits non-zero with the server's problem naming the field.
 */
import { describe, expect, it } from 'vitest';
import { METHOD_IDS, runsOnApi } from '../../core/methods/registry.ts';
import { tooldrift } from './run-cli.ts';

const TMDB = 'data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json';
const QUERIES = 'data/apis/restbench-tmdb/restgpt/datasets/tmdb.json';
const ON_APIS = METHOD_IDS.filter((m) => runsOnApi(m));

interface Row {
  method: string;
  surface: string;
  docs: string;
  done: number;
  total: number;
  correctPath: { subsequence: number | null; set: number | null };
  callsPerQuery: number | null;
}

describe('tooldrift eval over an API query set', () => {
  it('runs each API method on TMDB and a drifted version, and prints the CP% table', async () => {
    const imported = await tooldrift(['api', 'import', TMDB, '--title', 'TMDB', '--seed', '11']);
    expect(imported.code, imported.stderr).toBe(0);
    const api = /\((tmdb-[0-9a-f]{8})\)/.exec(imported.stdout)?.[1] as string;
    const drift = await tooldrift([
      'api',
      'drift',
      api,
      '--kinds',
      'rename-path,rename-params',
      '--seed',
      '4',
    ]);
    expect(drift.code, drift.stderr).toBe(0);
    const surface = new RegExp(`^Surface (${api}-drift-[0-9a-f]{8})`).exec(drift.stdout)?.[1] as string;
    const queries = await tooldrift(['api', 'queries', api, QUERIES, '--name', 'RestBench', '--json']);
    expect(queries.code, queries.stderr).toBe(0);
    const queryset = (JSON.parse(queries.stdout) as { id: string }).id;

    const run = await tooldrift([
      'eval',
      '--api',
      api,
      '--queryset',
      queryset,
      '--methods',
      ON_APIS.join(','),
      '--surfaces',
      `${api},${surface}`,
      '--docs',
      'imported,surface',
      '--sample',
      '2',
      '--max-steps',
      '6',
      '--mcts-simulations',
      '2',
      '--mcts-k',
      '2',
      '--mcts-depth',
      '4',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Progress on stderr, the report on stdout.
    expect(run.stderr).toMatch(/query runs/);
    const out = run.stdout;
    expect(out).toMatch(/CP% \(subsequence\)\s+CP% \(set\)\s+calls\/query/);
    expect(out).toContain('Simulator behaviour');
    const id = /^Evaluation (\S+)/.exec(out)?.[1] as string;

    const shown = await tooldrift(['evals', 'show', id, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const detail = JSON.parse(shown.stdout) as { kind: string; status: string; table: Row[] };
    expect(detail).toMatchObject({ kind: 'api', status: 'done' });
    expect(detail.table).toHaveLength(ON_APIS.length * 2 * 2);
    for (const method of ON_APIS)
      for (const s of [api, surface])
        for (const docs of ['imported', 'surface']) {
          const row = detail.table.find((r) => r.method === method && r.surface === s && r.docs === docs);
          expect(row).toMatchObject({ done: 2, total: 2 });
          // The printed line is the API's row.
          const cells = [
            method,
            s,
            docs,
            '2/2',
            row?.correctPath.subsequence?.toFixed(1),
            row?.correctPath.set?.toFixed(1),
            row?.callsPerQuery?.toFixed(2),
          ];
          expect(out).toMatch(
            new RegExp(
              `^${cells.map((c) => String(c).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+')}\\s*$`,
              'm',
            ),
          );
        }

    // `tooldrift evals show` prints the same report.
    const again = await tooldrift(['evals', 'show', id]);
    expect(again.stdout).toContain('CP% (subsequence)');
  });

  it('exits non-zero naming the field for an unknown query set or a method that does not run on APIs', async () => {
    const imported = await tooldrift(['api', 'import', TMDB, '--title', 'TMDB', '--seed', '12']);
    const api = /\((tmdb-[0-9a-f]{8})\)/.exec(imported.stdout)?.[1] as string;
    const unknown = await tooldrift(['eval', '--api', api, '--queryset', 'no-such-set', '--sample', '1']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('body field queryset: API');
    const kernelOnly = METHOD_IDS.find((m) => !runsOnApi(m));
    if (kernelOnly) {
      const method = await tooldrift(['eval', '--api', api, '--queryset', 'q', '--methods', kernelOnly]);
      expect(method.code).toBe(2);
      expect(method.stderr).toContain(`method ${kernelOnly} does not run on imported APIs`);
    }
    const mixed = await tooldrift(['eval', '--api', api, '--queryset', 'q', '--datasets', 'coffee']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--datasets applies to ToolQA-D suites');
  });
});
