/**
 * The dashboard's page of an evaluation over an imported API's query set (issue 23 §4) in headless Chromium against
 * the shared local instance: the Correct Path Rate table (both definitions, calls per query) per method × surface ×
 * documentation with the API's figures, the simulator's label, the chart, the taxonomy and a query run with the calls
 * it made. Screenshots: test-output/e2e/api-eval*.png. Every page error, console error, failed request and HTTP error
 * answer is collected and must stay empty.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { watchedPage } from './watched-page.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(root, 'test-output', 'e2e');
const baseUrl = inject('baseUrl');
const userKey = inject('userKey');

let browser: Browser;
let page: Page;
const problems: string[] = [];

async function api<T>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const settled = (timeout = 45_000) => page.locator('#view[aria-busy="false"]').waitFor({ timeout });

interface Row {
  method: string;
  surface: string;
  docs: string;
  correctPath: { subsequence: number | null; set: number | null };
  callsPerQuery: number | null;
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

describe('dashboard: an evaluation over an API query set', () => {
  it('shows the Correct Path Rate table, chart and taxonomy, and a query run with its calls', async () => {
    const tmdb = await api<{ id: string }>('/v1/apis', {
      document: readFileSync(join(root, 'data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json'), 'utf8'),
      seed: '21',
    });
    const set = await api<{ id: string }>(`/v1/apis/${tmdb.id}/querysets`, {
      name: 'RestBench',
      items: JSON.parse(
        readFileSync(join(root, 'data/apis/restbench-tmdb/restgpt/datasets/tmdb.json'), 'utf8'),
      ),
    });
    const drifted = await api<{ id: string }>(`/v1/apis/${tmdb.id}/surfaces`, {
      seed: '5',
      kinds: ['rename-operation', 'rename-path'],
    });
    const created = await api<{ id: string }>('/v1/evals', {
      name: 'TMDB drift',
      api: tmdb.id,
      queryset: set.id,
      methods: ['greedy', 'react-reflexion'],
      surfaces: [tmdb.id, drifted.id],
      docs: ['imported', 'surface'],
      sampleSize: 4,
      maxSteps: 6,
    });
    let ev = await api<{ status: string; table: Row[] }>(`/v1/evals/${created.id}`);
    for (let i = 0; i < 240 && ev.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 500));
      ev = await api(`/v1/evals/${created.id}`);
    }
    expect(ev.status).toBe('done');

    await page.goto(`${baseUrl}/dashboard/#/evals/${created.id}`);
    await settled();
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toContain('TMDB drift');
    expect(await page.getByTestId('simulator-note').isVisible()).toBe(true);
    const table = page.getByTestId('api-results-table');
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toEqual(
      expect.arrayContaining([
        'Method',
        'Surface',
        'Docs',
        'CP% (subsequence)',
        'CP% (set)',
        'Calls / query',
      ]),
    );
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(8);
    // Each row shows the API's figures.
    const at = (name: string) => headers.indexOf(name);
    for (let i = 0; i < 8; i++) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      const row = ev.table.find(
        (r) =>
          r.method === cells[at('Method')] &&
          r.surface === cells[at('Surface')] &&
          r.docs === cells[at('Docs')],
      );
      expect(row, cells.join(' | ')).toBeDefined();
      expect(cells[at('CP% (subsequence)')]).toBe(`${row?.correctPath.subsequence?.toFixed(1)}%`);
      expect(cells[at('CP% (set)')]).toBe(`${row?.correctPath.set?.toFixed(1)}%`);
      expect(cells[at('Calls / query')]).toBe(row?.callsPerQuery?.toFixed(2));
    }
    // The heatmap: a row per method, a cell per surface × docs, each with the row's rate.
    const chart = page.getByTestId('cpr-chart');
    const cells = chart.locator('rect.cell');
    expect(await cells.count()).toBe(8);
    for (let i = 0; i < 8; i++) {
      const value = await cells.nth(i).getAttribute('data-value');
      const method = await cells.nth(i).getAttribute('data-row');
      const subsequence = ev.table.filter((r) => r.method === method).map((r) => r.correctPath.subsequence)[
        i % 4
      ];
      expect(Number(value)).toBeCloseTo((subsequence ?? 0) / 100, 5);
    }
    const box = await chart.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(page.viewportSize()?.width ?? 1280);
    expect(await page.getByTestId('api-taxonomy-table').locator('tbody tr').count()).toBe(8);
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir, 'api-eval.png'), fullPage: true });

    // The query runs, and one of them with the calls that reached an operation.
    const runs = page.getByTestId('api-eval-results').locator('tbody tr');
    await runs.first().waitFor();
    expect(await runs.count()).toBe(32);
    await runs.first().locator('a').click();
    await settled();
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toMatch(/^Query run 0 · /);
    expect(await page.getByTestId('api-run-calls').isVisible()).toBe(true);
    await page.screenshot({ path: join(outputDir, 'api-eval-run.png'), fullPage: false });
    expect(problems).toEqual([]);
  }, 240_000);
});
