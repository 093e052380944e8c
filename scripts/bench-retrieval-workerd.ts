/**
 * `npm run bench:retrieval:workerd`: top-5 lookup latency of the int8 sharded vector index over 100,000 tools
 * inside workerd (`wrangler dev`, local), query vector given. The index module is bundled with esbuild into a
 * tiny Worker (scripts/lib/retrieval-index-worker.ts); each lookup is one request, timed from Node, so the
 * figures include a local HTTP round trip (measured separately with empty 404 requests and printed beside them).
 * Workers' timers do not advance during computation, so timing from outside is the only honest way.
 * Environment: BENCH_TOOLS [100000], BENCH_DIM [512], BENCH_LOOKUPS [200], BENCH_PORT [8799].
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Rng } from '../core/util/random.ts';

const n = Number(process.env.BENCH_TOOLS ?? 100_000);
const dim = Number(process.env.BENCH_DIM ?? 512);
const lookups = Number(process.env.BENCH_LOOKUPS ?? 200);
const port = Number(process.env.BENCH_PORT ?? 8799);

const dir = mkdtempSync(join(tmpdir(), 'tooldrift-index-'));
await build({
  entryPoints: [new URL('./lib/retrieval-index-worker.ts', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  outfile: join(dir, 'worker.js'),
});
writeFileSync(
  join(dir, 'wrangler.jsonc'),
  JSON.stringify({ name: 'retrieval-index-bench', main: 'worker.js', compatibility_date: '2026-11-01' }),
);
const wrangler = spawn(
  new URL('../node_modules/.bin/wrangler', import.meta.url).pathname,
  [
    'dev',
    '--config',
    join(dir, 'wrangler.jsonc'),
    '--port',
    String(port),
    '--ip',
    '127.0.0.1',
    '--show-interactive-dev-session=false',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
);
const base = `http://127.0.0.1:${port}`;
try {
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (/Ready on/i.test(out)) resolve();
    };
    wrangler.stdout.on('data', onData);
    wrangler.stderr.on('data', onData);
    wrangler.once('exit', (code) => reject(new Error(`wrangler dev exited (${code}):\n${out}`)));
    setTimeout(() => reject(new Error(`wrangler dev did not start in 120 s:\n${out}`)), 120_000);
  });
  const t0 = performance.now();
  const built = (await (await fetch(`${base}/build?n=${n}&dim=${dim}`, { method: 'POST' })).json()) as {
    size: number;
    shards: number;
    bytes: number;
  };
  const buildMs = performance.now() - t0;
  const rng = new Rng('queries');
  const times: number[] = [];
  const overhead: number[] = [];
  for (let i = 0; i < lookups + 10; i++) {
    const q = new Float32Array(dim);
    for (let j = 0; j < dim; j++) q[j] = rng.float(-1, 1);
    const t = performance.now();
    await (await fetch(`${base}/query`, { method: 'POST', body: q.buffer })).json();
    if (i >= 10) times.push(performance.now() - t); // the first ten warm the JIT
    const o = performance.now();
    await (await fetch(`${base}/none`)).text();
    if (i >= 10) overhead.push(performance.now() - o);
  }
  const q = (xs: number[], p: number) =>
    xs.slice().sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? 0;
  process.stdout.write(
    `workerd (wrangler dev) index: ${built.size} vectors × ${dim}-d int8 in ${built.shards} shards (${(built.bytes / 2 ** 20).toFixed(1)} MiB), built in ${(buildMs / 1000).toFixed(1)} s\n` +
      `top-5 lookup, query vector given (${lookups} requests): median ${q(times, 0.5).toFixed(2)} ms, p95 ${q(times, 0.95).toFixed(2)} ms; ` +
      `empty request round trip: median ${q(overhead, 0.5).toFixed(2)} ms\n`,
  );
} finally {
  wrangler.kill('SIGTERM');
}
