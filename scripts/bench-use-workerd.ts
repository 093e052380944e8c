/**
 * `npm run bench:use:workerd`: the Universal Sentence Encoder lite inside workerd (`wrangler dev`, local) —
 * cold load (first request: wasm backend, weights through the ASSETS binding, graph, first execution), ms per
 * sentence one sentence per request and 64 per request (run `USE_BATCH` at a time), and memory: the wasm
 * backend's linear memory as the Worker reports it, the isolate's JS heap through the inspector protocol (after a
 * collection), and the resident size of the workerd processes, which also hold the runtime and the asset server. Each figure is timed from Node around HTTP requests (Workers' timers do not advance during
 * computation), with the empty-request round trip measured and subtracted. Texts are the seeded synthetic
 * catalog's queries (single) and tool texts (batches), all distinct, and the Worker calls the model directly
 * (no embedding cache). Environment: BENCH_SINGLE [100], BENCH_BATCHES [8], BENCH_PORT [8805].
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticCatalog } from '../core/retrieval/catalog.ts';
import { toolText } from '../core/retrieval/text.ts';
import { startBenchWrangler } from './lib/bench-wrangler.ts';
import { copyModelAssets } from './lib/model-assets.ts';

const singles = Number(process.env.BENCH_SINGLE ?? 100);
const batches = Number(process.env.BENCH_BATCHES ?? 8);
const port = Number(process.env.BENCH_PORT ?? 8805);
const root = new URL('..', import.meta.url).pathname;

copyModelAssets();
const catalog = syntheticCatalog({ seed: 'bench-use', tools: Math.max(1000, batches * 64) });
const queries = [...new Set(catalog.dev.map((q) => q.query))].slice(0, singles + 5);
const toolTexts = catalog.tools.map(toolText).slice(0, batches * 64);

const dir = mkdtempSync(join(tmpdir(), 'tooldrift-use-'));
writeFileSync(
  join(dir, 'wrangler.jsonc'),
  JSON.stringify({
    name: 'use-encoder-bench',
    main: join(root, 'scripts', 'lib', 'use-encoder-worker.ts'),
    compatibility_date: '2026-11-01',
    compatibility_flags: ['nodejs_compat'], // as wrangler.toml: the encoder must run under the project's flags
    assets: { directory: join(root, 'public'), binding: 'ASSETS', run_worker_first: true },
  }),
);
const bench = startBenchWrangler(
  join(root, 'node_modules', '.bin', 'wrangler'),
  join(dir, 'wrangler.jsonc'),
  port,
);
const wrangler = bench.process;

/** Resident set size (MiB) of the workerd processes started under this wrangler. */
function workerdRssMiB(): number {
  const out = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,comm=']).toString();
  const rows = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([pid, ppid, rss, comm]) => ({ pid: Number(pid), ppid: Number(ppid), rss: Number(rss), comm }));
  const mine = new Set([wrangler.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows)
      if (mine.has(r.ppid) && !mine.has(r.pid)) {
        mine.add(r.pid);
        grew = true;
      }
  }
  return rows.filter((r) => mine.has(r.pid) && r.comm === 'workerd').reduce((s, r) => s + r.rss, 0) / 1024;
}

const base = `http://127.0.0.1:${port}`;
const q = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? 0;
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
const embed = (texts: string[]) =>
  fetch(`${base}/embed`, { method: 'POST', body: JSON.stringify({ texts }) }).then(async (r) => {
    if (!r.ok) throw new Error(`embed answered ${r.status}: ${await r.text()}`);
    return r.json();
  });
/** A connection to wrangler's inspector (Node's WebSocket accepts headers; the proxy checks the Origin). */
function inspector(): WebSocket {
  const Ws = WebSocket as unknown as new (
    url: string,
    init: { headers: Record<string, string> },
  ) => WebSocket;
  return new Ws(`ws://127.0.0.1:${port + 100}/ws`, {
    headers: { Origin: 'https://devtools.devprod.cloudflare.dev' },
  });
}

/**
 * The largest JS heap seen while `work` runs: `Runtime.getHeapUsage` asked again as soon as it answers. The
 * isolate answers between the load's asynchronous steps (asset reads), not inside a synchronous stretch (the
 * weights' upload into wasm memory), so this is a lower bound of the peak.
 */
async function heapPeakDuring<T>(
  work: () => Promise<T>,
): Promise<{ result: T; usedSize: number; backing: number; samples: number }> {
  const ws = inspector();
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', () => reject(new Error('inspector connection failed')));
  });
  let done = false;
  let usedSize = 0;
  let backing = 0;
  let samples = 0;
  let id = 100;
  ws.addEventListener('message', (m) => {
    const msg = JSON.parse(String(m.data)) as {
      id?: number;
      result?: { usedSize?: number; backingStorageSize?: number };
    };
    if (msg.id === undefined || msg.id < 100 || msg.result?.usedSize === undefined) return;
    usedSize = Math.max(usedSize, msg.result.usedSize);
    backing = Math.max(backing, msg.result.backingStorageSize ?? 0);
    samples++;
    if (!done) ws.send(JSON.stringify({ id: ++id, method: 'Runtime.getHeapUsage' }));
  });
  ws.send(JSON.stringify({ id: ++id, method: 'Runtime.getHeapUsage' }));
  try {
    const result = await work();
    return { result, usedSize, backing, samples };
  } finally {
    done = true;
    ws.close();
  }
}

/** The isolate's JS heap (V8 `Runtime.getHeapUsage` after `HeapProfiler.collectGarbage`), through wrangler's inspector. */
async function jsHeap(): Promise<{ usedSize: number; totalSize: number; backingStorageSize: number }> {
  const ws = inspector();
  try {
    return await new Promise((resolve, reject) => {
      ws.addEventListener('open', () => {
        ws.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
        ws.send(JSON.stringify({ id: 2, method: 'Runtime.getHeapUsage' }));
      });
      ws.addEventListener('message', (m) => {
        const msg = JSON.parse(String(m.data)) as {
          id?: number;
          result?: { usedSize: number; totalSize: number; backingStorageSize: number };
        };
        if (msg.id === 2 && msg.result) resolve(msg.result);
      });
      ws.addEventListener('error', () => reject(new Error('inspector connection failed')));
      setTimeout(() => reject(new Error('inspector did not answer in 20 s')), 20_000);
    });
  } finally {
    ws.close();
  }
}
const stats = () => fetch(`${base}/stats`).then((r) => r.json() as Promise<Record<string, number>>);
const empty = () => fetch(`${base}/none`).then((r) => r.text());

try {
  await bench.ready;
  await empty();
  const rssBefore = workerdRssMiB();
  const cold = await heapPeakDuring(() => timed(() => embed([queries[0] ?? 'warm up'])));
  const coldMs = cold.result;
  const rssLoaded = workerdRssMiB();
  const loaded = await stats();
  const heapLoaded = await jsHeap();
  for (const text of queries.slice(1, 5)) await embed([text]); // JIT warm-up
  const single: number[] = [];
  const overhead: number[] = [];
  for (const text of queries.slice(5)) {
    single.push(await timed(() => embed([text])));
    overhead.push(await timed(empty));
  }
  const batched: number[] = [];
  for (let b = 0; b < batches; b++)
    batched.push(await timed(() => embed(toolTexts.slice(b * 64, b * 64 + 64))));
  const after = await stats();
  const heapAfter = await jsHeap();
  const rssAfter = workerdRssMiB();
  const rtt = q(overhead, 0.5);
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  const bundle = readFileSync(
    join(root, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist', 'tfjs-backend-wasm-simd.wasm'),
  ).byteLength;
  process.stdout.write(
    `USE lite in workerd (wrangler dev, local; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})\n` +
      `cold first request (backend + weights from ASSETS + graph + first run): ${(coldMs / 1000).toFixed(2)} s\n` +
      `one sentence per request (${single.length}): median ${(q(single, 0.5) - rtt).toFixed(1)} ms, p90 ${(q(single, 0.9) - rtt).toFixed(1)} ms (empty round trip ${rtt.toFixed(1)} ms subtracted)\n` +
      `64 tool texts per request, ${after.batch} per graph run (${batches} requests): median ${((q(batched, 0.5) - rtt) / 64).toFixed(1)} ms per sentence\n` +
      `memory during load (largest of ${cold.samples} samples between the load's steps): JS heap ${mib(cold.usedSize)} MiB used, array buffer backing stores ${mib(cold.backing)} MiB\n` +
      `memory after load: wasm ${mib(loaded.wasmBytes ?? 0)} MiB + JS heap ${mib(heapLoaded.usedSize)} MiB used (${mib(heapLoaded.totalSize)} MiB allocated), backing stores ${mib(heapLoaded.backingStorageSize)} MiB; ` +
      `after the runs: wasm ${mib(after.wasmBytes ?? 0)} MiB + JS heap ${mib(heapAfter.usedSize)} MiB used (${mib(heapAfter.totalSize)} MiB allocated), backing stores ${mib(heapAfter.backingStorageSize)} MiB; ` +
      `${after.tensors} tensors, ${mib(after.tensorBytes ?? 0)} MiB of tensor data (the weights)\n` +
      `workerd processes' RSS ${rssBefore.toFixed(0)} MiB idle → ${rssLoaded.toFixed(0)} MiB loaded → ${rssAfter.toFixed(0)} MiB after the runs\n` +
      `wasm module (separate from the JS bundle): ${mib(bundle)} MiB\n`,
  );
} finally {
  wrangler.kill('SIGTERM');
}
