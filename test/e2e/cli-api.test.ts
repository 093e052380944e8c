/**
 * `tooldrift api …` end to end (issue 22 §6), as a user runs it against the shared local instance: import the
 * TMDB document from its file, list and show it, drift it, add RestBench's query set; bad input exits non-zero
 * with the server's problem on stderr.
 */
import { describe, expect, it } from 'vitest';
import { tooldrift } from './run-cli.ts';

const TMDB = 'data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json';
const QUERIES = 'data/apis/restbench-tmdb/restgpt/datasets/tmdb.json';

describe('tooldrift api', () => {
  it('imports TMDB, lists and shows it, drifts it and adds its query set', async () => {
    const imported = await tooldrift(['api', 'import', TMDB, '--title', 'TMDB', '--seed', '7']);
    expect(imported.code, imported.stderr).toBe(0);
    const id = /\((tmdb-[0-9a-f]{8})\)/.exec(imported.stdout)?.[1] as string;
    expect(id).toBeDefined();
    expect(imported.stdout).toContain('54 operations (0 writes, 22 paged)');
    expect(imported.stdout).toContain('GET_search-person');

    const list = await tooldrift(['api', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+TMDB`));

    const show = await tooldrift(['api', 'show', id, '--json']);
    expect(show.code).toBe(0);
    expect((JSON.parse(show.stdout) as { operations: unknown[] }).operations).toHaveLength(54);

    const drift = await tooldrift([
      'api',
      'drift',
      id,
      '--kinds',
      'rename-path,rename-params,version-prefix,reshape-response',
      '--seed',
      '3',
    ]);
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stdout).toMatch(new RegExp(`^Surface ${id}-drift-[0-9a-f]{8} of API ${id}`));

    const queries = await tooldrift(['api', 'queries', id, QUERIES, '--name', 'RestBench']);
    expect(queries.code, queries.stderr).toBe(0);
    expect(queries.stdout).toMatch(/Query set \S+ \(RestBench\): 100 queries, format restbench/);
  });

  it('exits non-zero with the problem on stderr for a bad document, an unknown kind or a missing file', async () => {
    const missing = await tooldrift(['api', 'import', 'no/such/file.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read no/such/file.json');
    const bad = await tooldrift(['api', 'import', 'package.json']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/cannot be imported/);
    const usage = await tooldrift(['api', 'drift', 'x']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--kinds');
  });
});
