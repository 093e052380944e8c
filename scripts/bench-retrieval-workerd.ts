/**
 * `npm run bench:retrieval:workerd`: top-5 lookup latency of the int8 sharded vector index over 100,000 tools
 * inside workerd (`wrangler dev`, local), query vector given — the exact int8 scan against the fast `pruned`
 * search (query-pruned prefilter + int8 rescoring, core/retrieval/vector-index.ts), its recall@5 against exact,
 * and the `binary` sign-bit prefilter for comparison; query-encoding time beside them. The vectors are real: the
 * seeded synthetic catalog through the lexical encoder (scripts/lib/catalog-vectors.ts, cached in the temp dir),
 * quantised in Node and uploaded in chunks into a tiny Worker (scripts/lib/retrieval-index-worker.ts); queries are
 * the catalog's dev queries. Each lookup is one request, timed from Node, so the figures include a local HTTP
 * round trip (measured separately with empty 404 requests and printed beside them). Workers' timers do not advance
 * during computation, so timing from outside is the only honest way.
 * Environment: BENCH_TOOLS [100000], BENCH_LOOKUPS [200], BENCH_PORT [8799; the inspector takes BENCH_PORT + 100],
 * BENCH_SEED [tool-catalog].
 * The load average is printed with the figures: on a shared machine it bounds what they mean.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Hit } from '../core/retrieval/types.ts';
import { quantize, recallAtK } from '../core/retrieval/vector-index.ts';
import { startBenchWrangler } from './lib/bench-wrangler.ts';
import { catalogVectors } from './lib/catalog-vectors.ts';

const n = Number(process.env.BENCH_TOOLS ?? 100_000);
const lookups = Number(process.env.BENCH_LOOKUPS ?? 200);
const port = Number(process.env.BENCH_PORT ?? 8799);
const seed = process.env.BENCH_SEED ?? 'tool-catalog';
const log = (text: string) => process.stderr.write(`${text}\n`);

const vectors = await catalogVectors(n, lookups, seed, log);
const dim = vectors.dimensions;
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
const bench = startBenchWrangler(
  new URL('../node_modules/.bin/wrangler', import.meta.url).pathname,
  join(dir, 'wrangler.jsonc'),
  port,
);
const wrangler = bench.process;
const base = `http://127.0.0.1:${port}`;
try {
  await bench.ready;
  const t0 = performance.now();
  await fetch(`${base}/reset?dim=${dim}&shardSize=25000`, { method: 'POST' });
  const chunk = 5_000;
  let built = { size: 0, shards: 0, bytes: 0 };
  for (let at = 0; at < vectors.tools.length; at += chunk) {
    const rows = vectors.tools.slice(at, at + chunk);
    const body = new ArrayBuffer(rows.length * (4 + dim));
    const scales = new Float32Array(body, 0, rows.length);
    const codes = new Int8Array(body, rows.length * 4);
    for (const [i, v] of rows.entries()) {
      const q = quantize(v);
      scales[i] = q.scale;
      codes.set(q.codes, i * dim);
    }
    built = (await (
      await fetch(`${base}/append?rows=${rows.length}`, { method: 'POST', body })
    ).json()) as typeof built;
  }
  const buildMs = performance.now() - t0;
  const searches = ['exact', 'pruned', 'binary'] as const;
  const times: Record<string, number[]> = { exact: [], pruned: [], binary: [], encode: [], none: [] };
  const results: Record<string, Hit[][]> = { exact: [], pruned: [], binary: [] };
  const queries = vectors.queries.slice(0, lookups);
  const timed = async (key: string, warm: boolean, run: () => Promise<unknown>) => {
    const t = performance.now();
    const out = await run();
    if (!warm) times[key]?.push(performance.now() - t);
    return out;
  };
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  for (let i = 0; i < queries.length + 10; i++) {
    const warm = i < 10; // the first ten warm the JIT
    const q = queries[i % queries.length] as Float32Array;
    for (const search of searches) {
      const hits = (await timed(search, warm, async () =>
        (
          await fetch(`${base}/query?search=${search}&k=5`, { method: 'POST', body: q.slice().buffer })
        ).json(),
      )) as Hit[];
      if (!warm) results[search]?.push(hits);
    }
    await timed('encode', warm, async () =>
      (
        await fetch(`${base}/encode`, { method: 'POST', body: `find the tool number ${i} for my invoices` })
      ).json(),
    );
    await timed('none', warm, async () => (await fetch(`${base}/none`)).text());
  }
  const loadAfter = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const q = (xs: number[] | undefined, p: number) =>
    (xs ?? []).slice().sort((a, b) => a - b)[Math.floor(p * ((xs?.length ?? 1) - 1))] ?? 0;
  const line = (key: string) =>
    `median ${q(times[key], 0.5).toFixed(2)} ms, p95 ${q(times[key], 0.95).toFixed(2)} ms`;
  const exact = results.exact ?? [];
  process.stdout.write(
    `workerd (wrangler dev) index: ${built.size} vectors × ${dim}-d int8 in ${built.shards} shards (${(built.bytes / 2 ** 20).toFixed(1)} MiB before the first pruned query), uploaded and built in ${(buildMs / 1000).toFixed(1)} s; lexical catalog vectors (seed ${JSON.stringify(seed)}), ${queries.length} dev queries\n` +
      `top-5 lookup, query vector given, load average ${load} → ${loadAfter} (1/5/15 min, before → after) on ${availableParallelism()} cores:\n` +
      `  exact  int8 scan:                             ${line('exact')}\n` +
      `  pruned (32 query dims, rescore 256/shard):    ${line('pruned')}, recall@5 vs exact ${recallAtK(results.pruned ?? [], exact).toFixed(3)}\n` +
      `  binary (sign bits, rescore 256/shard):        ${line('binary')}, recall@5 vs exact ${recallAtK(results.binary ?? [], exact).toFixed(3)}\n` +
      `  query encoding in workerd (lexical, one request): ${line('encode')}; in Node (lexical with pool IDF): median ${vectors.queryEncodeMs.toFixed(2)} ms\n` +
      `  empty request round trip: ${line('none')} (included in every figure above)\n`,
  );
} finally {
  wrangler.kill('SIGTERM');
}
