/**
 * `/docs` (issue 13 item 9) in headless Chromium: Swagger UI loads from the Worker's own assets (no request leaves
 * the instance), renders every operation of /openapi.json with its request body and response schemas resolved
 * (no raw `$ref`), and marks admin-only routes. A screenshot is saved to test-output/e2e/docs.png.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');
const CHROMIUM = '/usr/bin/chromium';
const outputDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-output', 'e2e');

type Operation = { requestBody?: unknown; 'x-admin-only'?: boolean; security?: Record<string, unknown>[] };

let browser: Browser;
let page: Page;
const foreign: string[] = [];
const failures: string[] = [];

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(20_000);
  page.on('request', (req) => {
    if (!req.url().startsWith(baseUrl) && !req.url().startsWith('data:')) foreign.push(req.url());
  });
  page.on('pageerror', (err) => failures.push(`page error: ${err.message}`));
  page.on('response', (res) => {
    if (res.status() >= 400) failures.push(`HTTP ${res.status()} ${res.url()}`);
  });
}, 30_000);

afterAll(async () => {
  await browser?.close();
});

describe('/docs in headless Chromium', () => {
  it('renders every operation with request and response schemas, admin routes marked, from local assets', async () => {
    const doc = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
    const admin = ops.filter((o) => o.op['x-admin-only']);
    expect(admin.length).toBeGreaterThan(0);
    for (const o of admin) expect(o.op.security).toEqual([{ bearerAuth: [] }]);

    await page.goto(`${baseUrl}/docs`);
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBe(ops.length);

    // Expand every operation in turn (and collapse it again, keeping the page light): each shows its response
    // codes, and each operation with a body shows the request body with its schema.
    const blocks = page.locator('.swagger-ui .opblock');
    let withBody = 0;
    for (let i = 0; i < ops.length; i++) {
      const block = blocks.nth(i);
      await block.locator('.opblock-summary-control').click();
      await block.locator('.responses-wrapper').waitFor();
      expect(await block.locator('.responses-table .response').count()).toBeGreaterThan(0);
      if ((await block.locator('.opblock-section-request-body').count()) > 0) {
        withBody++;
        expect(await block.locator('.opblock-section-request-body .model-box').count()).toBeGreaterThan(0);
      }
      const text = await block.textContent();
      expect(text).not.toContain('$ref');
      await block.locator('.opblock-summary-control').click();
      await block.locator('.responses-wrapper').waitFor({ state: 'detached' });
    }
    expect(withBody).toBe(ops.filter((o) => o.op.requestBody).length);

    // Admin-only operations say so when opened.
    const adminBlock = page.locator(`.opblock:has([data-path="${admin[0]?.path}"])`).first();
    await adminBlock.locator('.opblock-summary-control').click();
    await expect.poll(() => adminBlock.textContent()).toContain('Admin key required');

    // One operation up close: the kernel call's request and response models name their fields.
    const kernel = page.locator('#operations-World-post_v1_kernel_call');
    await kernel.locator('.opblock-summary-control').click();
    await kernel.locator('.responses-wrapper').waitFor();
    await kernel.scrollIntoViewIfNeeded();
    const kernelText = await kernel.textContent();
    for (const field of ['tool', 'args', 'state', 'observation', 'outcome'])
      expect(kernelText).toContain(field);

    mkdirSync(outputDir, { recursive: true });
    await kernel.screenshot({ path: join(outputDir, 'docs-kernel-call.png') });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(outputDir, 'docs.png') });

    expect(foreign).toEqual([]);
    expect(failures).toEqual([]);
  }, 600_000); // ≈ 2.8 s per operation (about 110) when the machine is loaded: 360 s was at the limit
});
