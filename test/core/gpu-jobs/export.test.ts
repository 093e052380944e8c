/**
 * gpu-jobs/export.ts against a local fake of the exports API (node:http on port 0) that speaks like
 * functions/routes/exports.ts: bearer auth, JSON Lines in chunks, problem+json 401. Files are the served bytes,
 * the manifest's hashes and counts are right, the key is never printed or written, and exit codes say what
 * happened.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportUrl, type Manifest, main, publicBaseUrl } from '../../../gpu-jobs/export.ts';
import { SEED_SETTINGS } from '../../../gpu-jobs/recipes/settings.ts';
import type { Io } from '../../../gpu-jobs/validate.ts';
import { type ExportFixture, exportFixture, jsonl } from './fixtures.ts';

const KEY = 'secret-key-7c1f9e';
const ROOT = resolve(__dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'gpu-export-'));

interface Seen {
  path: string;
  query: Record<string, string>;
  auth: string | undefined;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
/** What the fake serves for sft/dpo; tests swap it. */
let bodies: { sft: string; dpo: string } = { sft: '', dpo: '' };
/** The successful trajectories the fake lists (GET /v1/trajectories), two per page. */
let listed: ExportFixture['listed'] = [];

beforeAll(async () => {
  const fixture = await exportFixture();
  const { sftLines, dpoLines } = fixture;
  listed = fixture.listed;
  bodies = { sft: jsonl(sftLines), dpo: jsonl(dpoLines) };
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      auth: req.headers.authorization,
    });
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      res.writeHead(401, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'https://tooldrift.dev/problems/unauthorized',
          title: 'Unauthorized',
          status: 401,
          detail: 'A valid bearer key is required.',
        }),
      );
      return;
    }
    if (url.pathname === '/v1/trajectories') {
      const from = Number(url.searchParams.get('cursor') ?? '0');
      const next = from + 2 < listed.length ? String(from + 2) : null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items: listed.slice(from, from + 2), nextCursor: next }));
      return;
    }
    const kind =
      url.pathname === '/v1/exports/sft.jsonl'
        ? 'sft'
        : url.pathname === '/v1/exports/dpo.jsonl'
          ? 'dpo'
          : null;
    if (!kind) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such route');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    if (bodies[kind] === 'BREAK') {
      // The server dies mid-stream: a partial line, then the connection is gone.
      res.write('{"messages": [');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    // Chunks that cut through lines and multi-byte characters, as a streamed body may.
    const bytes = Buffer.from(bodies[kind], 'utf8');
    for (let i = 0; i < bytes.length; i += 997) res.write(bytes.subarray(i, i + 997));
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

function capture(): Io & { stdout: string[]; stderr: string[]; all: () => string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (t) => stdout.push(t),
    err: (t) => stderr.push(t),
    all: () => [...stdout, ...stderr].join('\n'),
  };
}

/** Every byte under a folder, for "the key is nowhere". */
function allText(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('export.ts', () => {
  it('downloads both exports with the filters, validates them and writes the manifest (exit 0)', async () => {
    const out = join(dir, 'ok');
    const io = capture();
    seen.length = 0;
    const code = await main(
      [
        '--url',
        `${base}/`,
        '--key',
        KEY,
        '--out',
        out,
        '--exploration',
        'exp-1',
        '--surface',
        's-ood',
        '--dataset',
        'coffee',
      ],
      io,
    );
    expect(io.stderr).toEqual([]);
    expect(code).toBe(0);
    const filters = { exploration: 'exp-1', surface: 's-ood', dataset: 'coffee' };
    const listing = (cursor?: string) => [
      '/v1/trajectories',
      { ...filters, success: 'true', limit: '100', ...(cursor ? { cursor } : {}) },
      `Bearer ${KEY}`,
    ];
    const pages = Math.ceil(listed.length / 2);
    expect(seen.map((s) => [s.path, s.query, s.auth])).toEqual([
      ['/v1/exports/sft.jsonl', filters, `Bearer ${KEY}`],
      ...Array.from({ length: pages }, (_, i) => listing(i === 0 ? undefined : String(2 * i))),
      ['/v1/exports/dpo.jsonl', filters, `Bearer ${KEY}`],
    ]);
    expect(readFileSync(join(out, 'sft.jsonl'), 'utf8')).toBe(bodies.sft);
    expect(readFileSync(join(out, 'dpo.jsonl'), 'utf8')).toBe(bodies.dpo);
    expect(readdirSync(out).sort()).toEqual(['dpo.jsonl', 'manifest.json', 'sft.jsonl']);

    const { sftLines, dpoLines } = await exportFixture();
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.tool).toBe('tooldrift gpu-jobs/export.ts');
    expect(Number.isNaN(Date.parse(manifest.createdAt))).toBe(false);
    expect(manifest.source).toEqual({
      baseUrl: base,
      filters: { exploration: 'exp-1', surface: 's-ood', dataset: 'coffee' },
    });
    expect(manifest.files.sft).toMatchObject({
      path: 'sft.jsonl',
      url: `${base}/v1/exports/sft.jsonl?exploration=exp-1&surface=s-ood&dataset=coffee`,
      bytes: Buffer.byteLength(bodies.sft),
      sha256: sha256(bodies.sft),
      records: sftLines.length,
      validation: {
        lines: sftLines.length,
        valid: sftLines.length,
        defects: 0,
        duplicates: 0,
        // One source of truth (issue 25 item 11): the training recipe's max length, not a separate 1024.
        maxLength: SEED_SETTINGS.maxLength,
      },
    });
    expect(manifest.files.dpo).toMatchObject({
      bytes: Buffer.byteLength(bodies.dpo),
      sha256: sha256(bodies.dpo),
      records: dpoLines.length,
    });
    // Measured against the recipe's 4096, every record of the fixture fits: no truncation warning.
    expect(manifest.files.sft.validation.overLength).toBe(0);
    // Per SFT record: steps, deprecation errors met and repeats, as the served meta says.
    expect(manifest.files.sft.selection).toHaveLength(sftLines.length);
    manifest.files.sft.selection?.forEach((sel, i) => {
      const meta = JSON.parse(sftLines[i] as string).meta;
      expect(sel).toEqual({ line: i + 1, trajectoryId: meta.trajectoryId, ...meta.selection });
      expect(sel).toMatchObject({ rule: 'repeat-free', repeats: 0 });
      expect(sel.steps).toBeGreaterThan(0);
    });
    expect(manifest.files.dpo.selection).toBeUndefined();
    // What the selection left out of the listed successes, recounted here from the fixture's own lists.
    const exported = new Set(sftLines.map((l) => JSON.parse(l).meta.trajectoryId as string));
    const repeating = listed.filter((t) => !exported.has(t.id) && t.repeats > 0).length;
    expect(repeating).toBeGreaterThan(0);
    expect(manifest.files.sft.dropped).toEqual({
      rule: 'repeat-free',
      tasks: new Set(listed.map((t) => t.taskId)).size,
      successes: listed.length,
      selected: sftLines.length,
      droppedRepeating: repeating,
      droppedOverLimit: listed.length - sftLines.length - repeating,
      tasksWithoutRecord: [...new Set(listed.map((t) => t.taskId))].filter(
        (task) => !listed.some((t) => t.taskId === task && exported.has(t.id)),
      ).length,
    });
    expect(io.stdout.join('\n')).toContain(
      `sft.jsonl: selection repeat-free kept ${sftLines.length} of ${listed.length} successful trajectories`,
    );
    expect(manifest.files.dpo.dropped).toBeUndefined();
    expect(manifest.tokenEstimator).toContain('ceil(utf8Bytes/3)');
    expect(io.stdout.join('\n')).not.toContain('estimated over max length');

    expect(allText(out)).not.toContain(KEY);
    expect(io.all()).not.toContain(KEY);
  });

  it('reports a problem+json 401 clearly, exits 3, leaves no file and never prints the key', async () => {
    const out = join(dir, 'unauthorized');
    const io = capture();
    const code = await main(['--url', base, '--key', 'wrong-key-123', '--out', out], io);
    expect(code).toBe(3);
    expect(io.stderr[0]).toBe(
      `export: GET ${base}/v1/exports/sft.jsonl failed: HTTP 401 — Unauthorized: A valid bearer key is required. ` +
        '(check --key: a user key of this deployment)',
    );
    expect(io.all()).not.toContain('wrong-key-123');
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });

  it('exits 1 when the served lines have defects, with the files kept for inspection', async () => {
    const out = join(dir, 'defects');
    const saved = bodies;
    const first = saved.sft.split('\n')[0] as string;
    bodies = { sft: `${first}\n{"messages": "oops"}\n`, dpo: saved.dpo };
    try {
      const io = capture();
      expect(await main(['--url', base, '--key', KEY, '--out', out, '--max-length', '8192'], io)).toBe(1);
      expect(io.stdout.join('\n')).toContain('line 2: bad-shape: "messages" must be a list of 3 message(s)');
      expect(io.stderr.join('\n')).toContain('1 defective line(s)');
      const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest;
      expect(manifest.files.sft.validation).toMatchObject({
        lines: 2,
        valid: 1,
        defects: 1,
        overLength: 0,
        maxLength: 8192,
      });
    } finally {
      bodies = saved;
    }
  });

  it('exits 3 when the download breaks off, leaving neither the file nor its .part', async () => {
    const out = join(dir, 'broken');
    const saved = bodies;
    bodies = { sft: 'BREAK', dpo: saved.dpo };
    try {
      const io = capture();
      expect(await main(['--url', base, '--key', KEY, '--out', out], io)).toBe(3);
      expect(io.stderr[0]).toContain(`GET ${base}/v1/exports/sft.jsonl: the download broke off:`);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      bodies = saved;
    }
  });

  it('exits 3 when the server cannot be reached, 2 on usage errors', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const io = capture();
    expect(
      await main(['--url', `http://127.0.0.1:${port}`, '--key', KEY, '--out', join(dir, 'down')], io),
    ).toBe(3);
    expect(io.stderr[0]).toContain(
      `GET http://127.0.0.1:${port}/v1/exports/sft.jsonl failed: cannot reach the server`,
    );
    expect(io.all()).not.toContain(KEY);

    for (const argv of [
      ['--key', KEY, '--out', dir],
      ['--url', 'not a url', '--key', KEY, '--out', dir],
      ['--url', 'ftp://x', '--key', KEY, '--out', dir],
      ['--url', base, '--key', KEY, '--out', dir, '--max-length', '0'],
      ['--url', base, '--key', KEY, '--out', dir, '--unknown'],
    ]) {
      const u = capture();
      expect(await main(argv, u), argv.join(' ')).toBe(2);
      expect(u.stderr.at(-1)).toMatch(/^usage: /);
      expect(u.all()).not.toContain(KEY);
    }
  });

  it('keeps credentials and queries out of stored URLs', () => {
    expect(publicBaseUrl('https://user:pw@example.org/base/?token=abc#x')).toBe('https://example.org/base');
    expect(exportUrl('https://example.org/base', 'dpo', { dataset: 'yelp', exploration: '' })).toBe(
      'https://example.org/base/v1/exports/dpo.jsonl?dataset=yelp',
    );
  });

  it('as a process: exit code 3 on a refused key, nothing on stdout', async () => {
    // Async spawn: the fake server lives in this process and must keep answering.
    const child = spawn(
      join(ROOT, 'node_modules', '.bin', 'tsx'),
      [
        join(ROOT, 'gpu-jobs', 'export.ts'),
        '--url',
        base,
        '--key',
        'nope-key',
        '--out',
        join(dir, 'process'),
      ],
      { cwd: ROOT },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
    expect(code).toBe(3);
    expect(stdout).toBe('');
    expect(stderr).toContain('HTTP 401 — Unauthorized');
    expect(stderr).not.toContain('nope-key');
  }, 30_000);
});
