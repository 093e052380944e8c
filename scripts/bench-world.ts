/**
 * `npm run bench:world`: latency of each kernel tool, in-process (Node) and over HTTP against the local server,
 * next to a bare Hono route (`GET /`, no I/O) measured in the same run, so the HTTP figures read as a ratio to
 * the framework's own floor.
 *
 * Then throughput, the way a shared server is loaded: BENCH_CONCURRENCY clients (default 4) each sending requests
 * back to back for BENCH_SECONDS (default 16, in 8 interleaved rounds) to the bare route, to `POST /v1/kernel/call` (LoadDB) and to
 * `POST /v1/sessions/{id}/step` (an action step on pc; each client plays its own sessions, a new one when a
 * session's step budget is spent), printed as requests per second and as a share of the bare route's.
 *
 * Environment: BENCH_ITERATIONS (default 200), BENCH_URL (use a running server instead of starting one; it must
 * allow the key BENCH_KEY, default `dev-user-key`, enough requests: the started server lifts the rate limit).
 */
import { worldSqlPolicy } from '../core/sandbox/sql/mirror.ts';
import { callKernel, type KernelCall } from '../core/world/kernel/kernel.ts';
import { type EnvState, initialState } from '../core/world/kernel/state.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import type { World } from '../core/world/types.ts';
import { generateWorld } from '../core/world/world.ts';
import { measure as measureN, startBenchServer, waitSeeded } from './lib/bench-server.ts';
import { nodeSqliteMirror } from './lib/node-sqlite.ts';
import { wranglerVars } from './lib/wrangler-config.ts';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const key = process.env.BENCH_KEY ?? 'dev-user-key';
const measure = (fn: () => Promise<unknown>, n = iterations) => measureN(fn, n);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 16);

/**
 * Requests per second of each case, `concurrency` clients calling `send(client)` back to back. The cases take turns
 * in `ROUNDS` rounds of `seconds / ROUNDS` each, so a change in the machine's load during the run weighs on every
 * case alike (the ratios to the bare route are what the run reports). Each client makes a few calls first
 * (warm-up, not counted).
 */
const ROUNDS = 8;
async function throughput(cases: ((client: number) => Promise<void>)[]): Promise<number[]> {
  for (const send of cases)
    await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        for (let n = 0; n < 3; n++) await send(i);
      }),
    );
  const done = cases.map(() => 0);
  const spent = cases.map(() => 0);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [c, send] of cases.entries()) {
      const started = performance.now();
      const end = started + (seconds * 1000) / ROUNDS;
      await Promise.all(
        Array.from({ length: concurrency }, async (_, i) => {
          while (performance.now() < end) {
            await send(i);
            done[c] = (done[c] ?? 0) + 1;
          }
        }),
      );
      spent[c] = (spent[c] ?? 0) + (performance.now() - started);
    }
  }
  return done.map((n, c) => n / ((spent[c] ?? 1) / 1000));
}

/** A client's session steps: an action step on pc each time, a new session when the budget is spent. */
function sessionStepper(base: string, taskId: string) {
  const budget = 200;
  const sessions = new Map<number, { id: string; left: number }>();
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  return async (client: number): Promise<void> => {
    let s = sessions.get(client);
    if (!s || s.left === 0) {
      const res = await fetch(`${base}/v1/sessions`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ taskId, surface: 'pc', stepBudget: budget }),
      });
      if (res.status !== 201) throw new Error(`POST /v1/sessions: HTTP ${res.status} ${await res.text()}`);
      s = { id: ((await res.json()) as { id: string }).id, left: budget - 1 };
      sessions.set(client, s);
    }
    s.left--;
    const res = await fetch(`${base}/v1/sessions/${s.id}/step`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ action: 'LoadDB', action_input: { DBName: 'coffee' } }),
    });
    if (res.status !== 200) throw new Error(`session step: HTTP ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
}

interface Case {
  name: string;
  state: EnvState;
  call: KernelCall;
}

/** One representative successful call per tool, each from the state a real plan would be in. */
async function cases(world: World): Promise<Case[]> {
  const deps = createKernelDeps();
  const s0 = initialState();
  const flights = world.tables.flights;
  const date = flights.cell(0, 'FlightDate');
  const origin = flights.cell(0, 'Origin');
  const loaded = (await callKernel(world, s0, { tool: 'LoadDB', args: { DBName: 'flights' } }, deps)).state;
  const filter = `FlightDate=${date}, Origin=${origin}`;
  const filtered = (await callKernel(world, loaded, { tool: 'FilterDB', args: { condition: filter } }, deps))
    .state;
  const event = world.agendaEvents[0];
  const result = world.scirex.results[0];
  const paper = world.dblp.papers.values().next().value;
  const [authorId, edges] = world.dblp.coauthors.entries().next().value ?? [];
  const author = authorId ? world.dblp.authors.get(authorId)?.name : undefined;
  const coauthor = edges ? world.dblp.authors.get(edges.keys().next().value as string)?.name : undefined;
  if (!event || !result || !paper || !author || !coauthor)
    throw new Error('world is missing benchmark entities');
  return [
    { name: 'LoadDB', state: s0, call: { tool: 'LoadDB', args: { DBName: 'flights' } } },
    { name: 'FilterDB', state: loaded, call: { tool: 'FilterDB', args: { condition: filter } } },
    {
      name: 'GetValue',
      state: filtered,
      call: { tool: 'GetValue', args: { column_name: 'DepTime, ArrTime' } },
    },
    { name: 'LoadGraph', state: s0, call: { tool: 'LoadGraph', args: { GraphName: 'dblp' } } },
    {
      name: 'NeighbourCheck',
      state: s0,
      call: { tool: 'NeighbourCheck', args: { GraphName: 'AuthorNet', Node: author } },
    },
    {
      name: 'NodeCheck',
      state: s0,
      call: { tool: 'NodeCheck', args: { GraphName: 'PaperNet', Node: paper.title } },
    },
    {
      name: 'EdgeCheck',
      state: s0,
      call: { tool: 'EdgeCheck', args: { GraphName: 'AuthorNet', Node1: author, Node2: coauthor } },
    },
    {
      name: 'RetrieveAgenda',
      state: s0,
      call: { tool: 'RetrieveAgenda', args: { keyword: `${event.person} ${event.event} ${event.date}` } },
    },
    {
      name: 'RetrieveScirex',
      state: s0,
      call: {
        tool: 'RetrieveScirex',
        args: { keyword: `${result.metric} score of ${result.method} on ${result.material}` },
      },
    },
    {
      name: 'SQLInterpreter',
      state: s0,
      call: {
        tool: 'SQLInterpreter',
        args: {
          SQL: `SELECT Airline, COUNT(*) AS n FROM flights_data WHERE Origin = '${origin}' GROUP BY Airline ORDER BY n DESC LIMIT 5`,
        },
      },
    },
    {
      name: 'PythonInterpreter',
      state: s0,
      call: {
        tool: 'PythonInterpreter',
        args: { Python: 'xs = [12.5, 3.0, 7.25, 9.0]\nprint(round(sum(xs) / len(xs), 2))' },
      },
    },
    {
      name: 'UpdateTool',
      state: s0,
      call: { tool: 'UpdateTool', args: { newtool_desc: 'FetchValue[column], like GetValue.' } },
    },
    { name: 'Finish', state: filtered, call: { tool: 'Finish', args: { answer: '21:43' } } },
  ];
}

async function main(): Promise<void> {
  const vars = wranglerVars();
  const config = { seed: vars.WORLD_SEED ?? 'tooldrift', scale: Number(vars.WORLD_SCALE ?? 1) };
  let t = performance.now();
  const world = generateWorld(config);
  const genMs = performance.now() - t;
  t = performance.now();
  const mirror = nodeSqliteMirror(world);
  const mirrorMs = performance.now() - t;
  console.log(
    `world ${config.seed} × ${config.scale}: generated in ${genMs.toFixed(0)} ms; SQL mirror (node:sqlite) in ${mirrorMs.toFixed(0)} ms`,
  );

  const all = await cases(world);
  const deps = createKernelDeps({ sql: mirror.executor, sqlPolicy: worldSqlPolicy(world), gold: '21:43' });
  const inProcess = new Map<string, { p50: number; p99: number }>();
  for (const c of all) inProcess.set(c.name, await measure(() => callKernel(world, c.state, c.call, deps)));
  const noop = await measure(async () => undefined);

  let server: { stop: () => void } | undefined;
  let base = process.env.BENCH_URL;
  if (!base) {
    const started = startBenchServer(process.env.BENCH_PORT ?? '8791');
    server = started;
    base = started.base;
  }
  try {
    await waitSeeded(base);
    const taskRes = await fetch(`${base}/v1/tasks?limit=1`);
    const taskId = ((await taskRes.json()) as { items: { id: string }[] }).items[0]?.id;
    const bare = await measure(async () => (await fetch(`${base}/`)).arrayBuffer());
    const http = new Map<string, { p50: number; p99: number }>();
    for (const c of all) {
      const body = JSON.stringify({
        tool: c.call.tool,
        args: c.call.args,
        state: c.state,
        ...(c.call.tool === 'Finish' ? { taskId } : {}),
      });
      // The first call of a fresh isolate generates the world; measure() warms up before sampling.
      http.set(
        c.name,
        await measure(async () => {
          const res = await fetch(`${base}/v1/kernel/call`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body,
          });
          if (res.status !== 200) throw new Error(`${c.name}: HTTP ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
        }),
      );
    }
    const f = (x: number) => x.toFixed(3).padStart(8);
    console.log(
      `\n${iterations} calls each; milliseconds. Baselines: no-op await p50 ${noop.p50.toFixed(4)} ms; bare Hono route GET / over HTTP p50 ${bare.p50.toFixed(3)} ms, p99 ${bare.p99.toFixed(3)} ms.\n`,
    );
    console.log('tool               in-process p50      p99 |   HTTP p50      p99 | HTTP p50 ÷ bare route');
    for (const c of all) {
      const a = inProcess.get(c.name) as { p50: number; p99: number };
      const b = http.get(c.name) as { p50: number; p99: number };
      console.log(
        `${c.name.padEnd(18)} ${f(a.p50)}   ${f(a.p99)} | ${f(b.p50)} ${f(b.p99)} | ${(b.p50 / bare.p50).toFixed(2).padStart(6)}×`,
      );
    }

    const kernelBody = JSON.stringify({ tool: 'LoadDB', args: { DBName: 'coffee' } });
    const [bareRate = 0, kernelRate = 0, stepRate = 0] = await throughput([
      async () => {
        const res = await fetch(`${base}/`);
        if (res.status !== 200) throw new Error(`GET /: HTTP ${res.status}`);
        await res.arrayBuffer();
      },
      async () => {
        const res = await fetch(`${base}/v1/kernel/call`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: kernelBody,
        });
        if (res.status !== 200) throw new Error(`kernel call: HTTP ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      },
      sessionStepper(base, taskId as string),
    ]);
    const share = (r: number) => `${((100 * r) / bareRate).toFixed(0).padStart(4)} %`;
    console.log(
      `\nThroughput: ${concurrency} clients back to back for ${seconds} s each, in ${ROUNDS} interleaved rounds (requests per second; share of the bare route in this run).`,
    );
    console.log(`bare route GET /                 ${bareRate.toFixed(0).padStart(6)} /s  ${share(bareRate)}`);
    console.log(
      `kernel call (LoadDB)             ${kernelRate.toFixed(0).padStart(6)} /s  ${share(kernelRate)}`,
    );
    console.log(`session step (action, LoadDB)    ${stepRate.toFixed(0).padStart(6)} /s  ${share(stepRate)}`);
  } finally {
    server?.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
