/**
 * The dashboard's view modules load without a browser: each parses and links (every name it imports from
 * api.js / ui.js exists) and exports the render functions app.js routes to. The e2e dashboard test drives
 * them in Chromium; this check needs no instance.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const VIEWS = new URL('../../../public/dashboard/views/', import.meta.url);

describe('dashboard view modules', () => {
  it('the STE view parses, links and exports the routes app.js uses', async () => {
    const ste = await import(new URL('ste.js', VIEWS).href);
    expect(typeof ste.renderList).toBe('function');
    expect(typeof ste.renderRun).toBe('function');
    expect(typeof ste.renderList()).toBe('function');
    expect(typeof ste.renderRun('some-run')).toBe('function');
  });

  it('every view module parses and links', async () => {
    const files = readdirSync(fileURLToPath(VIEWS)).filter((f) => f.endsWith('.js'));
    expect(files).toContain('ste.js');
    for (const file of files) {
      const mod = await import(new URL(file, VIEWS).href);
      expect(Object.keys(mod).length, file).toBeGreaterThan(0);
    }
  });
});
