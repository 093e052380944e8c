/**
 * `npm run bench:series`: what `GET /v1/streams/{id}/series` computes for a year of weekly releases (issue 26 §4:
 * ≤ 200 ms for 52 releases) — the stored rows of 52 releases × 6 configurations × 40 recorded task runs read from
 * their JSON text (as D1 returns them) and the series built from them with every verdict recomputed
 * (`buildSeries`) — against a baseline measured in the same run: the same rows averaged by their stored verdicts
 * (what recomputation replaces), and the recomputation without its memo (every run matched on its own). Each task
 * has a gold answer and four wrong answers agents give. The route adds its three D1 reads (releases, maintenance
 * rows, result rows).
 *
 * Environment: BENCH_ITERATIONS (default 50), BENCH_RELEASES (default 52), BENCH_TASKS (default 40).
 */
import { STREAM_CONFIGURATIONS, type TaskRecord } from '../core/streams/evaluate.ts';
import type { ReleaseMaintenance } from '../core/streams/maintain.ts';
import { buildSeries, recomputedCorrect } from '../core/streams/series.ts';
import { Rng } from '../core/util/random.ts';

const iterations = Number(process.env.BENCH_ITERATIONS ?? 50);
const releases = Number(process.env.BENCH_RELEASES ?? 52);
const tasks = Number(process.env.BENCH_TASKS ?? 40);
const rng = new Rng('bench-series');

// The stored rows: one JSON text per (release, configuration), as the route reads them. Each task has its gold
// answer and a few wrong answers an agent gives (the simulator repeats itself across releases and configurations).
const golds = Array.from({ length: tasks }, () => String(rng.int(0, 100_000)));
const wrong = golds.map(() => Array.from({ length: 4 }, () => String(rng.int(0, 100_000))));
const rows: string[] = [];
for (let n = 0; n < releases; n++)
  for (const c of STREAM_CONFIGURATIONS) {
    const records: TaskRecord[] = [];
    for (let t = 0; t < tasks; t++) {
      const gold = golds[t] as string;
      const answer = rng.next() < 0.5 ? gold : rng.pick(wrong[t] as string[]);
      records.push({
        release: n,
        configuration: c.id,
        task: `agenda-easy-test-${String(t).padStart(4, '0')}`,
        answer,
        gold,
        correct: answer === gold,
        modelCalls: 5,
        inputTokens: 4000,
        outputTokens: 80,
      });
    }
    rows.push(JSON.stringify(records));
  }
const maintenance: ReleaseMaintenance[] = Array.from({ length: releases }, (_, n) => ({
  release: n,
  changed: ['GetValue', 'LoadDB'],
  steps: (['draft', 'ste', 'pool'] as const).map((step) => ({
    step,
    targets: ['GetValue', 'LoadDB'],
    modelCalls: 600,
    inputTokens: 400_000,
    outputTokens: 9_000,
    wallMs: 1200,
  })),
}));
const releaseList = Array.from({ length: releases }, (_, n) => ({ n, retired: n === 0 ? [] : ['X', 'Y'] }));

function time(fn: () => unknown): number {
  fn(); // warm-up
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return (performance.now() - t0) / iterations;
}

const series = time(() =>
  buildSeries({
    releases: releaseList,
    configurations: STREAM_CONFIGURATIONS,
    records: rows.flatMap((r) => JSON.parse(r) as TaskRecord[]),
    maintenance,
  }),
);
const baseline = time(() => {
  const ok = new Map<string, number>();
  for (const r of rows.flatMap((x) => JSON.parse(x) as TaskRecord[]))
    if (r.correct)
      ok.set(`${r.configuration}/${r.release}`, (ok.get(`${r.configuration}/${r.release}`) ?? 0) + 1);
  return ok;
});

const unmemoized = time(() => {
  let ok = 0;
  for (const r of rows.flatMap((x) => JSON.parse(x) as TaskRecord[])) if (recomputedCorrect(r)) ok++;
  return ok;
});

const records = releases * STREAM_CONFIGURATIONS.length * tasks;
console.log(
  `series of ${releases} releases × ${STREAM_CONFIGURATIONS.length} configurations × ${tasks} tasks (${records} recorded runs), ${iterations} iterations`,
);
console.log(
  `  parse rows + buildSeries (verdicts recomputed): ${series.toFixed(1)} ms (target ≤ 200 ms for the route)`,
);
console.log(`  baseline, parse rows + average stored verdicts: ${baseline.toFixed(1)} ms`);
console.log(`  ratio: ${(series / baseline).toFixed(2)}×`);
console.log(
  `  every run matched on its own (no memo): ${unmemoized.toFixed(1)} ms (${(unmemoized / baseline).toFixed(2)}×)`,
);
