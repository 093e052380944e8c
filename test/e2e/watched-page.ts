/**
 * A page of Debian's headless Chromium (never a downloaded browser) that records what a dashboard test must not
 * see: page errors, console errors, failed requests and HTTP answers ≥ 400, each as one line in `problems`.
 */
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

export async function watchedPage(problems: string[]): Promise<{ browser: Browser; page: Page }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  return { browser, page: await newWatchedPage(browser, problems) };
}

/** Another watched page of the same browser (a view checked apart from an earlier walk's page). */
export async function newWatchedPage(browser: Browser, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('requestfailed', (req) =>
    problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`),
  );
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.request().method()} ${res.url()}`);
  });
  return page;
}
