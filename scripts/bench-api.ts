/**
 * `npm run bench:api` (issue 22): imported APIs against the kernel, measured in one run on a local `wrangler dev`.
 * - Import: the RestBench TMDB document (1.3 MB, 54 operations) through `POST /v1/apis` (parse, validate,
 *   dereference and store, in workerd), next to `importApi` alone in Node.
 * - A call through a session: `GET /movie/{movie_id}` on TMDB's seeded mock (tool route and the HTTP channel)
 *   against a kernel call (`LoadDB` on pc) through a session — same route, same run — and the bare Hono route
 *   as the framework's floor. Target: the mock call ≤ 2× the kernel call.
 * - World size costs nothing up front: the first call of a fresh session on a world of 100 entities per resource
 *   and on one of 10,000,000.
 *
 * Environment: BENCH_ITERATIONS (default 200), BENCH_PORT (default 8792).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importApi } from '../core/apis/import/index.ts';
import { measure as measureN, startBenchServer, waitSeeded } from './lib/bench-server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const key = 'dev-user-key';
const measure = (fn: (i: number) => Promise<unknown>) => measureN(fn, iterations);
const TMDB = join(root, 'data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json');

async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

/** A fresh session whenever the step budget (200) is spent, so every measured call is a real step. */
function sessions(base: string, body: Record<string, unknown>) {
  let id = '';
  let used = 200;
  return async (): Promise<string> => {
    if (used >= 190) {
      id = ((await call(base, 'POST', '/v1/sessions', { ...body, stepBudget: 200 })) as { id: string }).id;
      used = 0;
    }
    used++;
    return id;
  };
}

async function main(): Promise<void> {
  const text = readFileSync(TMDB, 'utf8');
  let t = performance.now();
  const local = await importApi({ text, filename: 'tmdb_oas.json' });
  const nodeImportMs = performance.now() - t;
  if (!local.ok) throw new Error(`TMDB does not import: ${JSON.stringify(local.problems[0])}`);

  const { base, stop } = startBenchServer(process.env.BENCH_PORT ?? '8792');
  try {
    await waitSeeded(base);
    // Import three times: the first warms the isolate (module load); the figure is the median of the others.
    const importMs: number[] = [];
    let apiId = '';
    for (let i = 0; i < 3; i++) {
      t = performance.now();
      const api = (await call(base, 'POST', '/v1/apis', {
        document: text,
        filename: 'tmdb_oas.json',
        seed: 'bench',
      })) as {
        id: string;
      };
      importMs.push(performance.now() - t);
      apiId = api.id;
    }
    const bare = await measure(async () => (await fetch(`${base}/`)).arrayBuffer());
    const kernelSession = sessions(base, {
      filter: { dataset: 'coffee', difficulty: 'easy' },
      surface: 'pc',
    });
    const kernel = await measure(async () =>
      call(base, 'POST', `/v1/sessions/${await kernelSession()}/tools/LoadDB`, { DBName: 'coffee' }),
    );
    const apiSession = sessions(base, { api: apiId });
    const mockTool = await measure(async (i) =>
      call(base, 'POST', `/v1/sessions/${await apiSession()}/tools/GET_movie-movie_id`, {
        movie_id: 1 + (i % 5000),
      }),
    );
    const mockHttp = await measure(async (i) =>
      call(base, 'GET', `/v1/sessions/${await apiSession()}/http/movie/${1 + (i % 5000)}`),
    );

    // World size: the first call of a fresh world (a new seed, so no isolate has it cached) at two sizes.
    const firstCall: Record<string, number[]> = { '100': [], '10000000': [] };
    for (let round = 0; round < 3; round++) {
      for (const size of ['100', '10000000']) {
        const api = (await call(base, 'POST', '/v1/apis', {
          document: text,
          seed: `size-${size}-${round}`,
          worldSize: Number(size),
        })) as { id: string };
        const session = (await call(base, 'POST', '/v1/sessions', { api: api.id })) as { id: string };
        t = performance.now();
        await call(base, 'GET', `/v1/sessions/${session.id}/http/movie/7`);
        (firstCall[size] as number[]).push(performance.now() - t);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const f = (x: number) => x.toFixed(2).padStart(8);
    console.log(
      `\nImport of the RestBench TMDB document (${(text.length / 1e6).toFixed(2)} MB, ${local.catalog.operations.length} operations)`,
    );
    console.log(`  importApi in Node:             ${f(nodeImportMs)} ms`);
    console.log(
      `  POST /v1/apis in workerd:      ${f(median(importMs.slice(1)))} ms (median of 2 after a warm-up import of ${importMs[0]?.toFixed(0)} ms; target ≤ 2000 ms)`,
    );
    console.log(`\n${iterations} calls each through a session; milliseconds.`);
    console.log('                                     p50       p99   p50 ÷ kernel call');
    console.log(`  bare Hono route GET /           ${f(bare.p50)}  ${f(bare.p99)}`);
    console.log(`  kernel call (LoadDB, pc)        ${f(kernel.p50)}  ${f(kernel.p99)}     1.00×`);
    console.log(
      `  mock call, tool route           ${f(mockTool.p50)}  ${f(mockTool.p99)}  ${(mockTool.p50 / kernel.p50).toFixed(2).padStart(7)}×  (target ≤ 2×)`,
    );
    console.log(
      `  mock call, HTTP channel         ${f(mockHttp.p50)}  ${f(mockHttp.p99)}  ${(mockHttp.p50 / kernel.p50).toFixed(2).padStart(7)}×`,
    );
    console.log('\nFirst call of a fresh world (median of 3), by entities per resource:');
    for (const [size, xs] of Object.entries(firstCall))
      console.log(`  ${size.padStart(10)}: ${f(median(xs))} ms`);
    console.log(
      `  ratio 10,000,000 ÷ 100: ${(median(firstCall['10000000'] as number[]) / median(firstCall['100'] as number[])).toFixed(2)}× (entities are derived on demand)`,
    );
  } finally {
    stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
