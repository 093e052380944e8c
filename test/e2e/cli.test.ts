/**
 * The CLI end to end, as a user runs it (`node bin/tooldrift.mjs …`, what `npx tooldrift` runs), against the
 * shared local instance (test/e2e/local-instance.ts; simulated model, small world): an evaluation over pc, s-in
 * and s-ood × the seven ToolQA-D datasets × easy/hard runs to completion and prints the results table and the
 * error taxonomy; an exploration's SFT trajectories are exported to a file.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalDetail, EvalSummary } from '../../cli/api-types.ts';
import { tooldrift } from './run-cli.ts';

// The tables' column order: the ToolEvo paper's (spec §10; issue 25 item 3), not the order of the suite's datasets.
const DATASETS = ['agenda', 'airbnb', 'coffee', 'dblp', 'flights', 'scirex', 'yelp'];
/** Table 7's labels in its column order, under its three error types. */
const CATEGORIES = [
  'invalid-invocation',
  'deprecated-repeat',
  'looping',
  'incorrect-output',
  'instructions-not-followed',
  'tool-misuse',
];
const GROUPS = ['Invocation error in new tools', 'Planning error', 'Other error'];

describe('tooldrift CLI against a local instance', () => {
  it('runs an evaluation over pc, s-in, s-ood × 7 datasets × easy/hard and prints both tables', async () => {
    const run = await tooldrift([
      'eval',
      '--name',
      'e2e cli suite',
      '--surfaces',
      'pc,s-in,s-ood',
      '--datasets',
      DATASETS.join(','),
      '--sample',
      '1',
    ]);
    expect(run.stderr).not.toContain('\x1b'); // not a terminal: plain progress lines
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const heading = lines[0] ?? '';
    expect(heading).toMatch(
      /^Evaluation (\S+) "e2e cli suite" — done, 42\/42 task runs, model sim\/\S+ \(simulated\)/,
    );
    const id = /^Evaluation (\S+)/.exec(heading)?.[1] ?? '';
    expect(run.stderr.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^eval ${id}: 42/42 task runs 100%, \\d+:\\d\\d elapsed done$`),
    );

    // Results table: every dataset over an easy/hard pair, one row per surface, percentages or '-'.
    const results = lines.indexOf('Success rate (%)');
    const [groups, difficulties, , ...rows] = lines.slice(results + 1, results + 7);
    expect(groups?.trim().split(/\s+/)).toEqual(['method', 'surface', ...DATASETS, 'average', 'pooled']);
    expect(difficulties?.trim().split(/\s+/)).toEqual([
      ...DATASETS.flatMap(() => ['easy', 'hard']),
      'easy',
      'hard',
      'all',
      'all',
    ]);
    expect(rows.map((r) => r.split(/\s+/).slice(0, 2))).toEqual([
      ['greedy', 'pc'],
      ['greedy', 's-in'],
      ['greedy', 's-ood'],
    ]);
    for (const row of rows) {
      const values = row.trim().split(/\s+/).slice(2);
      // Per cell, the three averages (the paper's plain means), then the pooled rate.
      expect(values).toHaveLength(DATASETS.length * 2 + 4);
      for (const v of values) expect(v).toMatch(/^(\d{1,3}\.\d|-)$/);
    }

    // Error taxonomy shaped like Table 7: the three error types over their labels, each label's share of the
    // failures as a percentage; the shares of a row with failures add up to 100 %.
    const taxonomy = lines.indexOf('Error taxonomy (failed task runs)');
    const types = lines[taxonomy + 1] ?? '';
    const at = GROUPS.map((g) => types.indexOf(g));
    expect(at.every((x) => x >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(lines[taxonomy + 2]?.trim().split(/\s+/)).toEqual([
      'method',
      'surface',
      'failures',
      ...CATEGORIES,
    ]);
    for (const row of lines.slice(taxonomy + 4, taxonomy + 7)) {
      const [, , failures, ...shares] = row.trim().split(/\s+/);
      expect(shares).toHaveLength(CATEGORIES.length);
      if (failures === '0') {
        expect(shares.every((x) => x === '-')).toBe(true);
        continue;
      }
      for (const x of shares) expect(x).toMatch(/^\d{1,3}\.\d%$/);
      expect(shares.reduce((a, x) => a + Number.parseFloat(x), 0)).toBeCloseTo(100, 0);
    }

    // The table agrees with the API's numbers, and the evaluation is listed.
    const show = await tooldrift(['evals', 'show', id, '--json']);
    const detail = JSON.parse(show.stdout) as EvalDetail;
    expect(detail.status).toBe('done');
    const pc = detail.table.find((r) => r.surface === 'pc');
    const printed = rows[0]?.trim().split(/\s+/).at(-2);
    expect(printed).toBe(pc?.average === null ? '-' : ((pc?.average ?? 0) * 100).toFixed(1));
    const list = await tooldrift(['evals', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { items: EvalSummary[] }).items.map((e) => e.id)).toContain(id);
  });

  it('explores a task and exports its SFT trajectories to a file', async () => {
    const explore = await tooldrift([
      'explore',
      // This scenario runs on P_c (the default server surface is s-in, where ToolEvo explores).
      '--surface',
      'pc',
      '--dataset',
      'coffee',
      '--difficulty',
      'easy',
      '--limit',
      '1',
      '--trees',
      '2',
      '--simulations',
      '4',
      '--k',
      '2',
      '--depth',
      '8',
      '--json',
    ]);
    expect(explore.code, explore.stderr).toBe(0);
    const exploration = JSON.parse(explore.stdout) as { id: string; status: string; trees: number };
    expect(exploration).toMatchObject({ status: 'succeeded', trees: 2 });

    const out = join(mkdtempSync(join(tmpdir(), 'tooldrift-e2e-cli-')), 'sft.jsonl');
    const exported = await tooldrift(['export', 'sft', '--exploration', exploration.id, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const records = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { messages: { role: string }[]; meta: { explorationId: string } });
    // Progress, then what was written: the records, their bytes and the export's pages.
    expect(exported.stderr).toMatch(
      new RegExp(`(^|\\n)Wrote ${records.length} sft records? \\(\\d+ bytes, 1 page\\) to [^\\n]+\\n$`),
    );
    expect(records.length).toBeGreaterThan(0); // the simulated policy solves coffee easy tasks
    for (const r of records) {
      expect(r.meta.explorationId).toBe(exploration.id);
      // Multi-turn: system, question, then an assistant turn per step with the observations as user turns.
      const roles = r.messages.map((m) => m.role);
      expect(roles.slice(0, 2)).toEqual(['system', 'user']);
      roles.slice(2).forEach((role, i) => {
        expect(role).toBe(i % 2 === 0 ? 'assistant' : 'user');
      });
      expect(roles.at(-1)).toBe('assistant');
    }
  });
});
