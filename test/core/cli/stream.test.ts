/** `tooldrift stream create | list | status | advance` against a fake tooldrift API. */
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamDetail, StreamReleaseView } from '../../../cli/commands/stream.ts';
import { parseDuration, parseIntensity } from '../../../cli/commands/stream.ts';
import { type FakeApi, fakeApi, type Handler, runCli, sendJson } from './harness.ts';

const env = { TOOLDRIFT_KEY: 'k' };
let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});
async function start(routes: Record<string, Handler>): Promise<FakeApi> {
  api = await fakeApi(routes);
  return api;
}

const r1: StreamReleaseView = {
  n: 1,
  surface: 'stream-abc-r1',
  releasedAt: '2026-11-23T09:00:00.000Z',
  sunsetAt: '2026-12-07T09:00:00.000Z',
  dueAt: '2026-11-23T09:00:00.000Z',
  trigger: 'cron',
  diff: {
    changed: [
      { target: 'LoadDB', from: 'LoadDB', to: 'Mount_Database' },
      { target: 'FilterDB', from: 'FilterDB', to: 'subset_table' },
    ],
    added: ['Mount_Database', 'subset_table'],
    retired: [
      { name: 'LoadDB', target: 'LoadDB', successor: 'Mount_Database' },
      { name: 'FilterDB', target: 'FilterDB', successor: 'subset_table' },
    ],
    response: false,
    applied: { 'rename-tool': 2 },
  },
  deprecated: [
    { name: 'LoadDB', target: 'LoadDB', successor: 'Mount_Database', sunsetAt: '2026-12-07T09:00:00.000Z' },
  ],
  gone: [],
};

const stream: StreamDetail = {
  id: 'abc',
  name: 'weekly',
  backend: 'kernel',
  seed: '7',
  intensity: { 'rename-tool': 2 },
  cadence: { cron: '0 9 * * 1' },
  window: { releases: 2 },
  currentRelease: 1,
  inForce: 1,
  nextDueAt: '2026-11-30T09:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  releases: [
    {
      n: 0,
      surface: 'pc',
      releasedAt: '2026-11-20T10:00:00.000Z',
      sunsetAt: null,
      dueAt: null,
      trigger: 'create',
      diff: null,
      deprecated: [],
      gone: [],
    },
    r1,
  ],
};

describe('tooldrift stream', () => {
  it('creates a stream from flags', async () => {
    const fake = await start({ 'POST /v1/streams': (_req, res) => sendJson(res, 201, stream) });
    const out = await runCli(
      [
        'stream',
        'create',
        '--url',
        fake.url,
        '--name',
        'weekly',
        '--seed',
        '7',
        '--intensity',
        'rename-tool=2, rename-params=1',
        '--every',
        '1w',
        '--window-releases',
        '2',
      ],
      { env },
    );
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(fake.requests[0]?.body).toEqual({
      name: 'weekly',
      backend: 'kernel',
      seed: '7',
      intensity: { 'rename-tool': 2, 'rename-params': 1 },
      cadence: { everySeconds: 604_800 },
      window: { releases: 2 },
    });
    expect(out.stdout).toBe(
      'Created stream abc "weekly" (kernel, cron 0 9 * * 1); next release due 2026-11-30T09:00:00Z.\n',
    );
  });

  it('shows a stream’s releases, and advances it', async () => {
    const fake = await start({
      'GET /v1/streams/abc': (_req, res) => sendJson(res, 200, stream),
      'POST /v1/streams/abc/advance': (_req, res) => sendJson(res, 201, r1),
    });
    const status = await runCli(['stream', 'status', 'abc', '--url', fake.url], { env });
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Stream abc "weekly" — kernel, seed 7, rename-tool×2 per release\n');
    expect(status.stdout).toContain('cron 0 9 * * 1, window 2 releases; release 1 made, 1 in force');
    const rows = status.stdout.trim().split('\n').slice(-2);
    expect(rows[0]).toMatch(/^0\s+2026-11-20T10:00:00Z\s+create\s+-\s+-\s+-$/);
    expect(rows[1]).toMatch(/^1\s+2026-11-23T09:00:00Z\s+cron\s+2\s+LoadDB→Mount_Database\s+-$/);
    const advanced = await runCli(['stream', 'advance', 'abc', '--url', fake.url], { env });
    expect(advanced.stdout).toBe(
      'Release 1 of stream abc (stream-abc-r1) at 2026-11-23T09:00:00Z: 2 tools changed; dropped LoadDB→Mount_Database, FilterDB→subset_table, working until 2026-12-07T09:00:00Z.\n',
    );
    const json = await runCli(['stream', 'advance', 'abc', '--url', fake.url, '--json'], { env });
    expect(JSON.parse(json.stdout)).toEqual(r1);
  });

  it('prints the server’s problem for another key’s stream, and refuses bad command lines', async () => {
    const fake = await start({});
    const missing = await runCli(['stream', 'status', 'nope', '--url', fake.url], { env });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('nope');
    for (const argv of [
      ['stream', 'create', '--name', 'x', '--intensity', 'rename-tool'],
      ['stream', 'create', '--name', 'x', '--intensity', 'rename-tool=1'],
      [
        'stream',
        'create',
        '--name',
        'x',
        '--intensity',
        'rename-tool=1',
        '--cron',
        '* * * * *',
        '--every',
        '1h',
      ],
      ['stream', 'status'],
      ['stream', 'frobnicate'],
    ]) {
      const out = await runCli([...argv, '--url', fake.url], { env });
      expect(out.code, argv.join(' ')).toBe(2);
    }
    expect(fake.requests).toHaveLength(1);
    expect(parseIntensity('a=1,b-c=20')).toEqual({ a: 1, 'b-c': 20 });
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('15m')).toBe(900);
    expect(parseDuration('2d')).toBe(172_800);
    expect(() => parseDuration('1y')).toThrow(/--every/);
  });
});
