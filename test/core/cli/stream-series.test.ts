/** `tooldrift stream plan` and `tooldrift stream series` against a fake tooldrift API. */
import { afterEach, describe, expect, it } from 'vitest';
import type { SeriesView } from '../../../cli/commands/stream-series.ts';
import { type FakeApi, fakeApi, runCli, sendJson } from './harness.ts';

const env = { TOOLDRIFT_KEY: 'k' };
let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const series: SeriesView = {
  stream: 'abc',
  releases: [0, 1, 2],
  configurations: [
    { id: 'stale', label: 'stale docs, no aids', success: [0.9, 0.3, 0.25], runs: [40, 40, 40] },
    { id: 'combined', label: 'all aids + maintenance', success: [0.9, 0.8, null], runs: [40, 40, 0] },
  ],
  retirements: [{ release: 1, names: ['GetValue', 'LoadDB'] }],
  maintenance: [
    { release: 0, modelCalls: 4582, inputTokens: 1, outputTokens: 1, wallMs: 5400 },
    { release: 1, modelCalls: 1456, inputTokens: 1, outputTokens: 1, wallMs: 1900 },
  ],
};

describe('tooldrift stream series', () => {
  it('prints one row per configuration with a sparkline, retirements and maintenance spend', async () => {
    api = await fakeApi({ 'GET /v1/streams/abc/series': (_req, res) => sendJson(res, 200, series) });
    const run = await runCli(['stream', 'series', 'abc', '--url', api.url, '--to', '2'], { env });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('stale '))).toMatch(/^stale\s+90\s+30\s+25\s+█▃▃$/);
    expect(lines.find((l) => l.startsWith('combined '))).toMatch(/^combined\s+90\s+80\s+-\s+█▇·$/);
    expect(lines.find((l) => l.startsWith('retired names'))).toMatch(/0\s+2\s+0/);
    expect(lines.find((l) => l.startsWith('maint. calls'))).toMatch(/4582\s+1456\s+-/);
    expect(run.stdout).toContain('combined: all aids + maintenance');
    expect(api.requests.map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
      ['GET /v1/streams/abc/series', { to: '2' }],
    ]);
  });

  it('says when nothing was evaluated yet, and needs an id', async () => {
    const empty = { ...series, configurations: [], maintenance: [] };
    api = await fakeApi({ 'GET /v1/streams/abc/series': (_req, res) => sendJson(res, 200, empty) });
    const run = await runCli(['stream', 'series', 'abc', '--url', api.url], { env });
    expect(run.stdout).toContain('no evaluated release yet');
    const bad = await runCli(['stream', 'series', '--url', api.url], { env });
    expect(bad.code).toBe(2);
  });
});

describe('tooldrift stream plan', () => {
  it('sends the plan from the options', async () => {
    api = await fakeApi({
      'PUT /v1/streams/abc/plan': (_req, res) =>
        sendJson(res, 200, { stream: 'abc', enqueued: 'stream-maintain:abc:0' }),
    });
    const run = await runCli(
      [
        'stream',
        'plan',
        'abc',
        '--url',
        api.url,
        '--configurations',
        'stale,combined',
        '--sample-size',
        '2',
        '--ste-episodes',
        '3',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    expect(api.requests[0]?.body).toEqual({
      maintenance: { steEpisodes: 3 },
      evaluation: { configurations: ['stale', 'combined'], sampleSize: 2 },
    });
    expect(run.stdout).toContain('stream-maintain:abc:0');
    const bad = await runCli(['stream', 'plan', 'abc', '--url', api.url, '--sample-size', 'many'], { env });
    expect(bad.code).toBe(2);
  });
});
