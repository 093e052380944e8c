/**
 * The dashboard's toolset view (issue 14 item 8) in headless Chromium against the shared local instance: a
 * synthetic toolset is listed; its page searches with a chosen ranker and shows scored results; the training form
 * starts a Chain-of-Tools training (through the instance's real queue), the view follows it live and then draws
 * the training report — the loss-per-epoch chart and dev top-1/top-5 beside bm25 and char — with the values of
 * GET /v1/toolsets/{id}/training/{version}; cotools search and the Tool Judge answer once trained. Every page error,
 * console error, failed request and HTTP error answer is collected and must stay empty.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { watchedPage } from './watched-page.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');

let browser: Browser;
let page: Page;
const problems: string[] = [];

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const settled = (timeout = 45_000) => page.locator('#view[aria-busy="false"]').waitFor({ timeout });

interface Training {
  version: number;
  status: string;
  report: {
    retriever: { epochs: { epoch: number; loss: number }[]; options: Record<string, unknown> };
    judge: { epochs: { epoch: number; loss: number }[] } | null;
    dev: { top1: number; top5: number };
    baseline: Record<string, { top1: number; top5: number }>;
  };
}

beforeAll(async () => {
  ({ browser, page } = await watchedPage(problems));
  await page.goto(`${baseUrl}/dashboard/`);
  await page.evaluate((k) => localStorage.setItem('tooldrift.apiKey', k), userKey);
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe('dashboard toolset view in headless Chromium', () => {
  let id = '';

  it('lists a toolset and searches it with a chosen ranker', async () => {
    const created = await api<{ id: string; name: string }>('/v1/toolsets', {
      method: 'POST',
      body: JSON.stringify({
        source: 'synthetic',
        name: `e2e-train-${Date.now()}`,
        tools: 150,
        seed: 'e2e-dash',
      }),
    });
    id = created.id;
    await page.goto(`${baseUrl}/dashboard/#/toolsets`);
    await settled();
    await page.getByTestId('toolsets').getByRole('link', { name: created.name }).click();
    await settled();
    expect(await page.getByTestId('training').count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Query' }).fill('list the invoices');
    await page.getByRole('combobox', { name: 'Ranker' }).selectOption('char');
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = page.getByTestId('search-results').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(5);
    const scores = (await rows.locator('td:last-child').allTextContents()).map(Number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('trains from the form, follows the run and draws the training report chart', async () => {
    await page.getByRole('combobox', { name: 'Preset' }).selectOption('default');
    await page.getByRole('spinbutton', { name: 'Epochs', exact: true }).fill('3');
    await page.getByRole('spinbutton', { name: 'Intermediate size D' }).fill('16');
    await page.getByRole('spinbutton', { name: 'Judge epochs' }).fill('1');
    await page.getByRole('button', { name: 'Train' }).click();
    await page.waitForURL(/#\/toolsets\/[^/]+\/training\/1$/);
    await settled(120_000);
    const run = await api<Training>(`/v1/toolsets/${id}/training/1`);
    expect(run.status).toBe('succeeded');
    // The form's preset, with the epochs and D typed in (blank fields are the preset's).
    expect(run.report.retriever.options).toMatchObject({ preset: 'default', epochs: 3, intermediate: 16 });
    const points = page.getByTestId('loss-chart').locator('circle.point');
    const drawn = await points.evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('data-series'),
        Number(e.getAttribute('data-epoch')),
        Number(e.getAttribute('data-value')),
      ]),
    );
    expect(drawn).toEqual([
      ...run.report.retriever.epochs.map((e) => ['retriever loss', e.epoch, e.loss]),
      ...(run.report.judge?.epochs ?? []).map((e) => ['judge loss', e.epoch, e.loss]),
    ]);
    expect(drawn.filter((d) => d[0] === 'retriever loss')).toHaveLength(3);
    const bars = await page
      .getByTestId('dev-chart')
      .locator('rect.bar')
      .evaluateAll((els) =>
        els.map((e) => [
          e.getAttribute('data-series'),
          e.getAttribute('data-category'),
          Number(e.getAttribute('data-value')),
        ]),
      );
    const expected = [['cotools', run.report.dev], ...Object.entries(run.report.baseline)] as [
      string,
      { top1: number; top5: number },
    ][];
    for (const [label, s] of expected) {
      expect(bars).toContainEqual([label, 'top-1', s.top1 / 100]);
      expect(bars).toContainEqual([label, 'top-5', s.top5 / 100]);
    }
    expect(await page.getByTestId('training-versions').locator('tbody tr').count()).toBe(1);
  });

  it('searches with cotools and asks the Tool Judge once trained', async () => {
    await page.getByRole('searchbox', { name: 'Query' }).fill('list the invoices');
    await page.getByRole('combobox', { name: 'Ranker' }).selectOption('cotools');
    await page.getByRole('button', { name: 'Search' }).click();
    const table = page.getByTestId('search-results');
    // The first cotools search loads the version's weights and pool vectors from D1.
    await expect
      .poll(() => table.locator('caption').textContent(), { timeout: 30_000 })
      .toBe('cotools: top 5');
    await page.getByRole('textbox', { name: 'Step text' }).fill('the answer is 42');
    await page.getByRole('button', { name: 'Judge' }).click();
    await expect
      .poll(() => page.getByTestId('judge-verdict').textContent())
      .toMatch(/\(p = 0\.\d{3}, version 1\)$/);
  });

  it('raised no page error, console error or failed request', () => {
    expect(problems).toEqual([]);
  });
});
