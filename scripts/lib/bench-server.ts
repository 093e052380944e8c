/**
 * What the HTTP benchmarks (bench:world, bench:api) share: a local `npm start` on a port of their own with the
 * rate limit lifted, ready once its world is seeded, and one way of timing a call (warm-up, then p50 / p99).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Stats {
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Times `fn` `n` times after up to five warm-up calls. */
export async function measure(fn: (i: number) => Promise<unknown>, n: number): Promise<Stats> {
  for (let i = 0; i < Math.min(5, n); i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/** Polls until the server's world is seeded (`GET /v1/datasets`). */
export async function waitSeeded(base: string, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${base}/v1/datasets`);
      if (res.ok && ((await res.json()) as { world: { seeded: boolean } }).world.seeded) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${base} not ready after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Starts `npm start` on `port` without a rate limit; `stop` ends its whole process group. */
export function startBenchServer(port: string): { base: string; stop: () => void } {
  const server = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [
      join(root, 'scripts', 'start.ts'),
      '--var',
      'RATE_LIMIT_PER_MINUTE:10000000',
      '--var',
      'RATE_LIMIT_BURST:10000000',
      '--var',
      'LOG_LEVEL:warn',
    ],
    {
      cwd: root,
      env: { ...process.env, PORT: port },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    },
  );
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    },
  };
}
