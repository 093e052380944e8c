/**
 * The dashboard's APIs view (issue 22 §6) in headless Chromium against the shared local instance: an API
 * imported through the form, one with a drifted version beside the API as imported (operations, changes), and a
 * call tried on the drifted surface. Screenshots: test-output/e2e/apis-*.png. Every page error, console error,
 * failed request and HTTP error answer is collected and must stay empty.
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

async function api<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const settled = (timeout = 45_000) => page.locator('#view[aria-busy="false"]').waitFor({ timeout });

beforeAll(async () => {
  mkdirSync(outputDir, { recursive: true });
  ({ browser, page } = await watchedPage(problems));
  await page.goto(`${baseUrl}/dashboard/`);
  await page.evaluate((k) => localStorage.setItem('tooldrift.apiKey', k), userKey);
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe('dashboard APIs view in headless Chromium', () => {
  it('imports an API through the form and opens it', async () => {
    await page.goto(`${baseUrl}/dashboard/#/apis`);
    await settled();
    await page
      .getByTestId('import-form')
      .locator('input[type=file]')
      .setInputFiles(join(root, 'test/fixtures/apis/library.openapi.yaml'));
    await page.getByRole('button', { name: 'Import' }).click();
    await page.waitForURL(/#\/apis\/library-[0-9a-f]{8}$/);
    await settled();
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toContain('Library');
    expect(await page.getByTestId('api-operations').locator('tbody tr').count()).toBeGreaterThan(3);
    expect(problems).toEqual([]);
  });

  it('shows a drifted TMDB beside the API as imported and tries a call on it', async () => {
    const tmdb = await api<{ id: string }>('/v1/apis', {
      document: readFileSync(join(root, 'data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json'), 'utf8'),
    });
    const drifted = await api<{ id: string }>(`/v1/apis/${tmdb.id}/surfaces`, {
      seed: '5',
      kinds: ['rename-path', 'rename-params', 'version-prefix'],
    });
    await page.goto(`${baseUrl}/dashboard/#/apis/${tmdb.id}/${drifted.id}`);
    await settled();
    const rows = page.getByTestId('api-operations').locator('tbody tr');
    expect(await rows.count()).toBe(54);
    expect(await page.getByTestId('drift-summary').textContent()).toMatch(/\d+ operations changed/);
    expect(await page.getByTestId('api-operations').textContent()).toContain('moved');
    await page.screenshot({ path: join(outputDir, 'apis-drift.png'), fullPage: false });

    const form = page.getByTestId('try-form');
    await form.getByRole('combobox', { name: 'Surface' }).selectOption(drifted.id);
    const surface = (await (
      await fetch(`${baseUrl}/v1/surfaces/${drifted.id}`, { headers: { authorization: `Bearer ${userKey}` } })
    ).json()) as { surface: { tools: { name: string; operation: string }[] } };
    const tool = surface.surface.tools.find((t) => t.operation === 'GET_movie-movie_id')?.name;
    await form.getByRole('combobox', { name: 'Tool' }).selectOption(tool as string);
    await form.getByRole('button', { name: 'Call' }).click();
    await expect
      .poll(() => page.getByTestId('try-result').textContent(), { timeout: 15_000 })
      .toMatch(/^HTTP 200/);
    await form.screenshot({ path: join(outputDir, 'apis-try.png') });
    expect(problems).toEqual([]);
  });
});
