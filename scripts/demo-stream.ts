/**
 * `npm run demo:stream`: living drift in one command (issue 26 §5). Two drift streams — the kernel's ToolQA-D tools
 * (from P_c) and the TMDB API (data/apis, imported from its OpenAPI description) — each advanced release by release
 * (core/streams `nextRelease`); after each release its maintenance (core/streams/maintain.ts: DRAFT re-documents
 * the changed operations from the previous release's set, STE explores the changed tools with rehearsal, the
 * retrieval pool gains the new tools and keeps the retired ones) and then the same fixed suite for every agent
 * configuration (core/streams/evaluate.ts): stale docs without aids, tool-update memory only, each aid alone, and
 * all aids with maintenance (the `combined-greedy` preset). Everything runs in this process, with the simulated
 * policy (tooldrift-sim-v1): every figure describes the simulator, not a language model.
 *
 * Prints the seed first, progress on stderr, then per stream: success per configuration per release (with a
 * sparkline), the names each release retired, maintenance spend per release (model calls, tokens, wall time), and
 * the wall time of one kernel release with maintenance + its evaluation (the issue's 5-minute target for 40 tasks
 * × 4 configurations is printed against the measured time).
 *
 * Environment: DEMO_SEED (default `living-drift`), DEMO_RELEASES (default 8), DEMO_TASKS (kernel tasks and TMDB
 * queries per release, default 40), DEMO_STREAMS (`kernel,tmdb`).
 */
import { readFileSync } from 'node:fs';
import { Progress } from '../cli/progress.ts';
import { importApi } from '../core/apis/import/index.ts';
import { MockWorld } from '../core/apis/mock/index.ts';
import { parseQuerySet } from '../core/apis/querysets.ts';
import { baseApiSurface } from '../core/apis/surface/base.ts';
import { LexicalEmbeddingModel } from '../core/models/lexical.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../core/sim/index.ts';
import {
  configurationsFor,
  type EvaluationSuite,
  evaluateRelease,
  poolDistractors,
  type StreamConfiguration,
  type TaskRecord,
} from '../core/streams/evaluate.ts';
import {
  type MaintenanceBackend,
  MaintenancePolicySchema,
  type MaintenanceState,
  maintain,
  type ReleaseMaintenance,
} from '../core/streams/maintain.ts';
import type { Release, StreamBase, StreamSpec } from '../core/streams/model.ts';
import { nextRelease } from '../core/streams/release.ts';
import { buildSeries, type StreamSeries, sparkline } from '../core/streams/series.ts';
import { PC_SURFACE } from '../core/surfaces/builtin.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import { generateTasks } from '../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../core/world/tasks/registry.ts';
import { generateWorld } from '../core/world/world.ts';

const seed = process.env.DEMO_SEED ?? 'living-drift';
const releases = Number(process.env.DEMO_RELEASES ?? 8);
const perRelease = Number(process.env.DEMO_TASKS ?? 40);
const streams = (process.env.DEMO_STREAMS ?? 'kernel,tmdb').split(',');
const now = new Date('2026-06-01T00:00:00Z');
const policy = MaintenancePolicySchema.parse({});

console.log(
  `tooldrift demo:stream — seed ${seed}; model ${SIM_MODEL_LABEL}: every figure describes the simulator`,
);
console.log(
  `${releases} releases per stream after release 0; ${perRelease} tasks per release (the same at every release); maintenance policy ${JSON.stringify(policy)}`,
);
console.log('');

interface StreamRun {
  title: string;
  series: StreamSeries;
  spend: ReleaseMaintenance[];
  /** Wall time per release: maintenance and evaluation (ms). */
  wall: { release: number; maintenanceMs: number; evaluationMs: number; runs: number }[];
  configurations: StreamConfiguration[];
  /** Tasks per release. */
  tasks: number;
  /** What maintenance could not give, once per configuration and reason. */
  notes: string[];
}

async function runStream(input: {
  title: string;
  spec: StreamSpec;
  base: StreamBase;
  backend: MaintenanceBackend;
  suite: EvaluationSuite;
}): Promise<StreamRun> {
  const model = createSimModel({ seed });
  const embedder = new LexicalEmbeddingModel();
  const configurations = configurationsFor(input.suite.kind);
  let state: MaintenanceState | null = null;
  let memory: Record<string, readonly string[]> = {};
  const spend: ReleaseMaintenance[] = [];
  const records: TaskRecord[] = [];
  const list: Release[] = [];
  const wall: StreamRun['wall'] = [];
  const notes = new Set<string>();
  const tasks = input.suite.kind === 'kernel' ? input.suite.tasks.length : input.suite.items.length;
  const progress = new Progress({
    label: input.title,
    unit: 'task runs',
    tty: process.stderr.isTTY === true,
    write: (t) => process.stderr.write(t),
    intervalMs: 10_000,
  });
  const total = (releases + 1) * configurations.length * tasks;
  let done = 0;
  for (let n = 0; n <= releases; n++) {
    const previous = list[n - 1] ?? null;
    const release: Release =
      n === 0
        ? { n: 0, surface: input.base.base, diff: null }
        : nextRelease(input.spec, input.base, (previous as Release).surface, n);
    list.push(release);
    const t0 = Date.now();
    const m = await maintain({
      seed,
      release,
      previous: previous?.surface ?? null,
      state,
      policy,
      backend: input.backend,
      model,
      embedder,
      now,
      onStep: (step, targets) => progress.update(done, total, `release ${n}: ${step} (${targets.length})`),
    });
    state = m.state;
    spend.push(m.spend);
    const t1 = Date.now();
    const e = await evaluateRelease({
      seed,
      release,
      base: input.base.base,
      state,
      suite: input.suite,
      configurations,
      memory,
      model,
      embedder,
      now,
      onTask: (c) => progress.update(++done, total, `release ${n}: ${c}`),
    });
    memory = e.memory;
    for (const note of e.notes)
      notes.add(
        `${note.configuration}: ${note.slot ? `without ${note.slot} — ` : 'not run — '}${note.reason}`,
      );
    records.push(...e.records);
    wall.push({ release: n, maintenanceMs: t1 - t0, evaluationMs: Date.now() - t1, runs: e.records.length });
  }
  progress.finish(done, total);
  const series = buildSeries({
    releases: list.map((r) => ({ n: r.n, retired: r.diff?.retired.map((x) => x.name) ?? [] })),
    configurations,
    records,
    maintenance: spend,
  });
  return { title: input.title, series, spend, wall, configurations, tasks, notes: [...notes] };
}

const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(0)}`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printRun(run: StreamRun): void {
  const { series } = run;
  console.log(`### ${run.title}`);
  console.log('');
  console.log(`Success (%) per release — ${SIM_MODEL_LABEL}, seed ${seed}`);
  console.log('');
  console.log(`| configuration | ${series.releases.map((n) => `r${n}`).join(' | ')} | trend |`);
  console.log(`|---|${series.releases.map(() => '---:').join('|')}|---|`);
  for (const c of series.configurations)
    console.log(`| ${c.label} | ${c.success.map(pct).join(' | ')} | \`${sparkline(c.success)}\` |`);
  const retired = new Map(series.retirements.map((r) => [r.release, r.names.length]));
  console.log(`| names retired | ${series.releases.map((n) => retired.get(n) ?? 0).join(' | ')} | |`);
  const byRelease = new Map(series.maintenance.map((m) => [m.release, m]));
  const cell = (n: number, f: (m: StreamSeries['maintenance'][number]) => string) => {
    const m = byRelease.get(n);
    return m ? f(m) : '—';
  };
  console.log(
    `| maintenance model calls (DRAFT + STE) | ${series.releases.map((n) => cell(n, (m) => String(m.modelCalls))).join(' | ')} | |`,
  );
  console.log(
    `| maintenance tokens (k) | ${series.releases.map((n) => cell(n, (m) => ((m.inputTokens + m.outputTokens) / 1000).toFixed(0))).join(' | ')} | |`,
  );
  console.log(
    `| maintenance wall time (s) | ${series.releases.map((n) => cell(n, (m) => (m.wallMs / 1000).toFixed(1))).join(' | ')} | |`,
  );
  console.log('');
  for (const note of run.notes) console.log(`- ${note}`);
  if (run.notes.length > 0) console.log('');
}

const results: StreamRun[] = [];

if (streams.includes('kernel')) {
  const world = generateWorld({ seed, scale: 0.1 });
  const all = (
    await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 3, dev: 0, train: 0 }) })
  ).tasks.filter((t) => t.dataset !== 'gsm8k');
  // The fixed suite: round-robin over the dataset × difficulty groups, so every dataset is in it.
  const groups = new Map<string, typeof all>();
  for (const t of all)
    groups.set(`${t.dataset}/${t.difficulty}`, [...(groups.get(`${t.dataset}/${t.difficulty}`) ?? []), t]);
  const tasks: typeof all = [];
  for (let i = 0; tasks.length < perRelease && i < 3; i++)
    for (const g of groups.values())
      if (g[i] && tasks.length < perRelease) tasks.push(g[i] as (typeof all)[number]);
  const deps = createKernelDeps({});
  const distractors = poolDistractors(seed);
  results.push(
    await runStream({
      title: 'Kernel tools (ToolQA-D, from P_c)',
      spec: { id: 'demo-kernel', seed, intensity: { 'rename-tool': 2, 'rename-params': 1 } },
      base: { kind: 'kernel', base: PC_SURFACE },
      backend: { kind: 'kernel', world, deps, docs: PC_SURFACE },
      suite: { kind: 'kernel', world, deps, tasks, distractors, maxSteps: 20 },
    }),
  );
}

if (streams.includes('tmdb')) {
  const dir = new URL('../data/apis/restbench-tmdb/restgpt/', import.meta.url);
  const imported = await importApi({
    text: readFileSync(new URL('specs/tmdb_oas.json', dir), 'utf8'),
    filename: 'tmdb_oas.json',
  });
  if (!imported.ok) throw new Error('TMDB does not import');
  const catalog = imported.catalog;
  const parsed = parseQuerySet(JSON.parse(readFileSync(new URL('datasets/tmdb.json', dir), 'utf8')), catalog);
  if (!parsed.ok) throw new Error('the RestBench-TMDB query set does not parse');
  const base = baseApiSurface('tmdb', catalog, 'TMDB');
  const api = { id: 'tmdb', title: 'TMDB', mode: 'seeded' as const, seed, worldSize: 10_000, upstream: null };
  const world = new MockWorld('tmdb', catalog, seed);
  results.push(
    await runStream({
      title: 'TMDB API (RestBench-TMDB queries, Correct Path Rate)',
      spec: { id: 'demo-tmdb', seed, intensity: { 'rename-operation': 2, 'rename-params': 1 } },
      base: { kind: 'api', base, catalog },
      backend: { kind: 'api', api, catalog, world, docs: base },
      suite: { kind: 'api', api, catalog, world, items: parsed.set.items.slice(0, perRelease), maxSteps: 8 },
    }),
  );
}

for (const run of results) printRun(run);

for (const run of results) {
  const first = run.wall.find((w) => w.release === 1);
  if (!first) continue;
  const ran = first.runs / run.tasks;
  const fourConfigs = (first.evaluationMs * 4) / Math.max(1, ran);
  console.log(
    `${run.title}: release 1 — maintenance ${secs(first.maintenanceMs)}, evaluation of ${ran} configurations × ${run.tasks} tasks ${secs(first.evaluationMs)} (4 configurations ≈ ${secs(fourConfigs)}; target ≤ 300 s for maintenance + 40 tasks × 4 configurations: ${first.maintenanceMs + fourConfigs <= 300_000 ? 'met' : 'missed'}); whole stream ${secs(run.wall.reduce((s, w) => s + w.maintenanceMs + w.evaluationMs, 0))}`,
  );
}
