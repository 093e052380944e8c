/** `tooldrift methods`: reads GET /v1/methods and prints the methods and aid slots the server lists. */
import { afterEach, describe, expect, it } from 'vitest';
import { presetListing } from '../../../core/methods/presets.ts';
import { aidListing, methodListing } from '../../../core/methods/registry.ts';
import { type FakeApi, fakeApi, runCli, sendJson } from './harness.ts';

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('tooldrift methods', () => {
  it('prints every method the server lists, with memory, aids and option defaults, and the aid slots', async () => {
    const catalog = { items: methodListing(), aids: aidListing(), presets: presetListing() };
    api = await fakeApi({ 'GET /v1/methods': (_req, res) => sendJson(res, 200, catalog) });
    const run = await runCli(['methods', '--url', api.url], { env: { TOOLDRIFT_KEY: 'k' } });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    for (const m of catalog.items) {
      const row = lines.find((l) => l.startsWith(`${m.id} `));
      expect(row, m.id).toBeDefined();
      expect(row).toContain(m.summary);
      expect(row).toContain(m.aids.join(','));
    }
    expect(lines.find((l) => l.startsWith('mcts '))).toContain('simulations=8 k=3 maxDepth=15');
    expect(lines.find((l) => l.startsWith('greedy-memory '))).toMatch(/^greedy-memory\s+yes\s/);
    expect(lines.find((l) => l.startsWith('demonstrations '))).toMatch(/^demonstrations\s+yes\s/);
    expect(lines.find((l) => l.startsWith('toolPool '))).toMatch(/^toolPool\s+yes\s/);
    expect(lines.find((l) => l.startsWith('updateMemory '))).toMatch(/^updateMemory\s+yes\s/);
    expect(lines.find((l) => l.startsWith('combined-greedy '))).toMatch(
      /^combined-greedy\s+greedy-memory\s+documentation,updateMemory,demonstrations,toolPool\s/,
    );
    expect(api.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/methods']);

    const json = await runCli(['methods', '--url', api.url, '--json'], { env: { TOOLDRIFT_KEY: 'k' } });
    expect(JSON.parse(json.stdout)).toEqual(catalog);
  });

  it('prints its usage for stray arguments', async () => {
    const run = await runCli(['methods', 'extra']);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('tooldrift methods');
  });
});
