/**
 * A throwaway `wrangler dev` for the workerd benchmarks (bench:retrieval:workerd, bench:use:workerd): the given
 * config on a loopback port, no metrics, no `request.cf` fetching, and a promise that settles once it is ready.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface BenchWrangler {
  process: ChildProcessByStdio<null, Readable, Readable>;
  base: string;
  /** Resolves on "Ready on"; rejects when wrangler exits first or is not ready in 120 s. */
  ready: Promise<void>;
}

export function startBenchWrangler(wranglerBin: string, config: string, port: number): BenchWrangler {
  const child = spawn(
    wranglerBin,
    [
      'dev',
      '--config',
      config,
      '--port',
      String(port),
      '--inspector-port',
      String(port + 100),
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    },
  );
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Ready on/i.test(out)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}):\n${out}`)));
    setTimeout(() => reject(new Error(`wrangler dev did not start in 120 s:\n${out}`)), 120_000);
  });
  ready.catch(() => {}); // awaited by the caller; no unhandled rejection before it does
  return { process: child, base: `http://127.0.0.1:${port}`, ready };
}
