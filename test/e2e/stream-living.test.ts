/**
 * Living drift end to end on the local instance (issue 26 §2, §4): a kernel stream given a plan with the CLI
 * (`tooldrift stream plan`), advanced to release 8, each release maintained and evaluated through the queue; then
 * `tooldrift stream series` prints the table with a sparkline per configuration, and the dashboard's stream view
 * draws the chart — one line per configuration, a marker per release that retired names, maintenance spend
 * beneath. Screenshot: test-output/e2e/stream-series.png. Page errors, console errors and failed requests must stay
 * empty.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tooldrift } from './run-cli.ts';
import { watchedPage } from './watched-page.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'test-output', 'e2e');
const baseUrl = inject('baseUrl');
const userKey = inject('userKey');
const RELEASES = 8;
const CONFIGURATIONS = ['stale', 'memory', 'draft', 'combined'];

let browser: Browser;
let page: Page;
const problems: string[] = [];

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${userKey}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Series {
  releases: number[];
  configurations: { id: string; runs: number[] }[];
  retirements: unknown[];
  maintenance: unknown[];
}

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true });
  ({ browser, page } = await watchedPage(problems));
  await page.goto(`${baseUrl}/dashboard/`);
  await page.evaluate((k) => localStorage.setItem('tooldrift.apiKey', k), userKey);
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe('living drift on the local instance', () => {
  it('maintains and evaluates every release, prints the series and charts it', async () => {
    const s = await call<{ id: string }>('POST', '/v1/streams', {
      name: 'living e2e',
      backend: 'kernel',
      seed: '26',
      intensity: { 'rename-tool': 1 },
      cadence: { everySeconds: 3600 },
      window: { releases: 0 },
    });
    const plan = await tooldrift([
      'stream',
      'plan',
      s.id,
      '--configurations',
      CONFIGURATIONS.join(','),
      '--sample-size',
      '1',
      '--ste-episodes',
      '1',
      '--ste-trials',
      '1',
    ]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    for (let n = 1; n <= RELEASES; n++) await call('POST', `/v1/streams/${s.id}/advance`, {});

    const deadline = Date.now() + 480_000;
    let series: Series;
    for (;;) {
      series = await call<Series>('GET', `/v1/streams/${s.id}/series`);
      const complete =
        series.maintenance.length === RELEASES + 1 &&
        series.configurations.every((c) => c.runs.length === RELEASES + 1 && c.runs.every((r) => r > 0));
      if (complete) break;
      if (Date.now() > deadline) throw new Error(`the stream did not finish: ${JSON.stringify(series)}`);
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(series.configurations.map((c) => c.id)).toEqual(CONFIGURATIONS);

    const printed = await tooldrift(['stream', 'series', s.id]);
    expect(printed.code).toBe(0);
    const lines = printed.stdout.split('\n');
    for (const id of CONFIGURATIONS)
      expect(lines.find((l) => l.startsWith(`${id} `))).toMatch(new RegExp(`[▁▂▃▄▅▆▇█]{${RELEASES + 1}}$`));
    expect(lines.find((l) => l.startsWith('maint. calls'))).toBeDefined();

    await page.goto(`${baseUrl}/dashboard/#/streams/${s.id}`);
    await page.locator('#view[aria-busy="false"]').waitFor({ timeout: 45_000 });
    const chart = page.getByTestId('stream-series');
    expect(await chart.locator('path.line').count()).toBe(CONFIGURATIONS.length);
    expect(await chart.locator('g.retirement').count()).toBe(series.retirements.length);
    expect(await chart.locator('rect.bar').count()).toBe(RELEASES + 1);
    expect(await chart.locator('.legend span').count()).toBe(CONFIGURATIONS.length + 2);
    await chart.screenshot({ path: join(outputDir, 'stream-series.png') });
    expect(problems).toEqual([]);
  }, 600_000);
});
