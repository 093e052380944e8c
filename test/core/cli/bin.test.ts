/**
 * The installed entry point (package.json "bin" → bin/tooldrift.mjs) as a real process: it loads the TypeScript
 * CLI through tsx, reads TOOLDRIFT_KEY, writes to the right streams and exits with the command's code.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeApi, fakeApi, sendJson } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function runBin(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'tooldrift.mjs'), ...args], {
      cwd: root,
      // Only PATH and the given variables: no TOOLDRIFT_* of the developer's shell leaks in.
      env: { ...process.env, TOOLDRIFT_URL: undefined, TOOLDRIFT_KEY: undefined, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('bin/tooldrift.mjs', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await fakeApi({
      'GET /v1/schedules': (req, res) =>
        req.headers.authorization === 'Bearer right'
          ? sendJson(res, 200, { items: [], nextCursor: null })
          : sendJson(res, 401, {
              type: '/problems/unauthorized',
              title: 'Missing or invalid API key',
              status: 401,
              detail: 'Send Authorization: Bearer <key>.',
            }),
    });
  });
  afterAll(() => api.close());

  it('is the package bin', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ tooldrift: 'bin/tooldrift.mjs' });
  });

  it('prints help and exits 0', async () => {
    const run = await runBin(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^tooldrift — evaluate and explore agents/);
  });

  it('exits with the command code and prints problems on stderr', async () => {
    const ok = await runBin(['schedules', 'list', '--url', api.url], { TOOLDRIFT_KEY: 'right' });
    expect(ok).toEqual({ code: 0, stdout: 'No schedules yet.\n', stderr: '' });
    const denied = await runBin(['schedules', 'list', '--url', api.url], { TOOLDRIFT_KEY: 'wrong' });
    expect(denied).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Missing or invalid API key: Send Authorization: Bearer <key>.\n',
    });
  });
});
