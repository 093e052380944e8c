/**
 * A scheduled evaluation end to end on the local instance: a schedule created with the CLI, the cron trigger
 * fired through wrangler's `/__scheduled` three times within the due time's window (two at once, as retried and
 * overlapping ticks would), exactly one run launched, and that run — pc, s-in and s-ood × the seven
 * ToolQA-D datasets × easy/hard with the simulated policy — finishing with its tables and taxonomy.
 */
import { describe, expect, inject, it } from 'vitest';
import type { EvalDetail, EvalSummary } from '../../cli/api-types.ts';
import { tooldrift } from './run-cli.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${userKey}` } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Fires the Worker's cron trigger now (wrangler's local `/__scheduled` always uses the current time). */
async function fireCron(): Promise<void> {
  const res = await fetch(`${baseUrl}/__scheduled?cron=${encodeURIComponent('*/5 * * * *')}`);
  expect(res.status).toBe(200);
}

describe('a scheduled evaluation on the local instance', () => {
  it('launches once per due time from the cron trigger and runs to its tables and taxonomy', async () => {
    // A daily schedule due in the current minute (local cron ticks run at the current time): created early in a
    // minute, so the ticks below fall in the same day's window.
    if (new Date().getUTCSeconds() > 45)
      await new Promise((r) => setTimeout(r, (61 - new Date().getUTCSeconds()) * 1000));
    const now = new Date();
    const cron = `${now.getUTCMinutes()} ${now.getUTCHours()} * * *`;
    const due = Math.floor(now.getTime() / 60_000) * 60_000;
    const created = await tooldrift([
      'schedules',
      'create',
      '--name',
      'e2e daily',
      '--cron',
      cron,
      '--surfaces',
      'pc,s-in,s-ood',
      '--sample',
      '1',
      '--json',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const schedule = JSON.parse(created.stdout) as { id: string; nextDueAt: string };
    expect(Date.parse(schedule.nextDueAt)).toBe(due + 24 * 3600_000);

    // A retried tick, an overlapping one, a later one: the same due time, one run.
    await Promise.all([fireCron(), fireCron()]);
    await fireCron();

    let runs: EvalSummary[] = [];
    const deadline = Date.now() + 120_000;
    for (;;) {
      ({ items: runs } = await api<{ items: EvalSummary[] }>(`/v1/evals?scheduleId=${schedule.id}`));
      if (runs.length > 0 && runs.every((r) => r.status !== 'running')) break;
      if (Date.now() > deadline) throw new Error(`scheduled run not finished: ${JSON.stringify(runs)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(runs).toHaveLength(1);
    const run = runs[0] as EvalSummary;
    expect(run.status).toBe('done');
    expect(run.dueTime).toBe(new Date(due).toISOString());

    const detail = await api<EvalDetail>(`/v1/evals/${run.id}`);
    expect(detail.progress).toEqual({ done: 42, total: 42 });
    expect(detail.table.map((r) => r.surface)).toEqual(['pc', 's-in', 's-ood']);
    expect(detail.columns).toHaveLength(14);
    expect(detail.taxonomy.rows).toHaveLength(3);
    expect(detail.comparison).toBeNull();

    const shown = await tooldrift(['evals', 'show', run.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Success rate (%)');
    expect(shown.stdout).toContain('Error taxonomy');
    for (const d of ['flights', 'coffee', 'airbnb', 'yelp', 'agenda', 'scirex', 'dblp']) {
      expect(shown.stdout).toContain(d);
    }
  }, 200_000);
});
