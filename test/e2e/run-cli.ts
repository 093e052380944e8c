/** Runs the CLI as a user does (`node bin/tooldrift.mjs …`, what `npx tooldrift` runs) against the e2e instance. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function tooldrift(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'tooldrift.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, TOOLDRIFT_URL: inject('baseUrl'), TOOLDRIFT_KEY: inject('userKey') },
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
