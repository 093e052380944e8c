/**
 * `npm run bench:retrieval:public` (also run by `npm run bench:retrieval`): Chain-of-Tools on the papers' public
 * data (issue 25 items 20 and 22) — top-1 / top-5 of bm25, char, dense and cotools trained with the `default`
 * preset and with the `paper` preset (core/retrieval/cotools/schedule.ts), on three splits:
 *  - STQ seen: SimpleToolQuestions dev (1,707 queries), cotools trained on STQ train (10,483);
 *  - STQ unseen: a seeded tenth of the tools STQ train names held out with every query naming one
 *    (core/retrieval/splits.ts `holdOutTools`; the upstream unseen test split is not public), cotools trained on
 *    the rest of train;
 *  - KAMEL: a seeded fifth of KAMEL's 1,000 questions held out (`holdOutQueries`), cotools trained on the others.
 * Each cotools run uses the same code as `npx tooldrift retrieve bench --train …` (core/retrieval/bench.ts).
 * The data (converted from the Chain-of-Tools repository, no licence for redistribution) is read from
 * BENCH_RETRIEVAL_DATA [../shared/data/retrieval]; without it the script says so and exits 0.
 * Environment: BENCH_ENCODER [the CLI's default] (use | lexical), BENCH_PRESETS [default,paper],
 * BENCH_SPLITS [stq-seen,stq-unseen,kamel], BENCH_SEED (the splits' and the training's; unset: the held-out tools are
 * drawn with seed `unseen`, the KAMEL questions with `kamel`, and cotools trains with its default seed — the splits
 * and runs the README's table was measured with).
 * No simulator or model is involved: the figures describe retrieval only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ENCODER, type EncoderId, loadEncoder } from '../cli/retrieval/encoders.ts';
import { type BenchReport, type RankerId, runBench } from '../core/retrieval/bench.ts';
import { RETRIEVER_PRESET_IDS, type RetrieverPreset } from '../core/retrieval/cotools/schedule.ts';
import { parseQueriesSkippingUnknown, parseToolsJsonl } from '../core/retrieval/jsonl.ts';
import { holdOutQueries, holdOutTools } from '../core/retrieval/splits.ts';
import type { QueryExample, Tool } from '../core/retrieval/types.ts';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const root = env(
  'BENCH_RETRIEVAL_DATA',
  join(import.meta.dirname, '..', '..', 'shared', 'data', 'retrieval'),
);
const encoderId = env('BENCH_ENCODER', DEFAULT_ENCODER) as EncoderId;
const presets = env('BENCH_PRESETS', RETRIEVER_PRESET_IDS.join(','))
  .split(',')
  .filter((p): p is RetrieverPreset => (RETRIEVER_PRESET_IDS as readonly string[]).includes(p));
const splits = env('BENCH_SPLITS', 'stq-seen,stq-unseen,kamel').split(',');
const seed = process.env.BENCH_SEED;
const log = (text: string) => process.stderr.write(`${text}\n`);

if (!existsSync(join(root, 'stq', 'tools.jsonl'))) {
  process.stdout.write(
    `public retrieval data: not found at ${root} (set BENCH_RETRIEVAL_DATA); the public-data table is skipped\n`,
  );
  process.exit(0);
}

const started = performance.now();
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** Upstream query files have slips (a gold tool missing from the pool): skipped and counted, as --skip-unknown. */
const skippedLines: string[] = [];
function queries(file: string, tools: Tool[]): QueryExample[] {
  const parsed = parseQueriesSkippingUnknown(read(file), tools);
  if (parsed.skipped.length > 0) skippedLines.push(`${file}: ${parsed.skipped.length} lines skipped`);
  return parsed.queries;
}

interface Split {
  tools: Tool[];
  train: QueryExample[];
  test: QueryExample[];
  note: string;
}
function loadSplit(name: string): Split {
  if (name === 'kamel') {
    const tools = parseToolsJsonl(read('kamel/tools.jsonl'));
    const held = holdOutQueries(queries('kamel/dev.jsonl', tools), 0.2, seed ?? 'kamel');
    return { tools, train: held.train, test: held.test, note: `${held.test.length} held-out questions` };
  }
  const tools = parseToolsJsonl(read('stq/tools.jsonl'));
  const train = queries('stq/train.jsonl', tools);
  const dev = queries('stq/dev.jsonl', tools);
  if (name === 'stq-seen') return { tools, train, test: dev, note: `dev, ${dev.length} queries` };
  const held = holdOutTools(train, dev, 0.1, seed ?? 'unseen');
  return {
    tools,
    train: held.train,
    test: held.unseen,
    note: `${held.tools.length} tools held out, ${held.unseen.length} queries`,
  };
}

const UNTRAINED: RankerId[] = ['bm25', 'char', 'dense'];
const rows: { split: string; ranker: string; top1: number; top5: number }[] = [];
const trainingNotes: string[] = [];
for (const name of splits) {
  const split = loadSplit(name);
  log(`${name}: ${split.tools.length} tools, ${split.train.length} training queries, ${split.note}`);
  const encoder = await loadEncoder(encoderId, split.tools);
  for (const [k, preset] of presets.entries()) {
    const report: BenchReport = await runBench({
      tools: split.tools,
      sets: { test: split.test },
      // The untrained rankers once per split (they do not depend on the preset).
      rankers: k === 0 ? [...UNTRAINED, 'cotools'] : ['cotools'],
      encoder,
      train: split.train,
      cotools: { preset, ...(seed === undefined ? {} : { seed }) },
      onStep: (s) => {
        if (s.done === s.total || s.done % 500 === 0)
          log(`  ${name} ${preset} ${s.label}: ${s.done}/${s.total}`);
      },
    });
    for (const [id, r] of Object.entries(report.rankers)) {
      const s = r.sets.test;
      if (!s) continue;
      rows.push({
        split: name,
        ranker: id === 'cotools' ? `cotools (${preset})` : id,
        top1: s.top1,
        top5: s.top5,
      });
    }
    const t = report.training;
    if (t)
      trainingNotes.push(
        `${name} cotools (${preset}): ${t.pairs} queries, ${t.steps.done} of ${t.steps.budget} optimiser steps in ${(t.ms / 1000).toFixed(0)} s${t.stopping ? `, best dev MRR at step ${t.stopping.bestStep}` : ''}${t.fusion ? `; fusion with char λ = ${t.fusion.weight} (chosen on the early-stopping dev split: ${t.fusion.scores.map((x) => `${x.weight} → MRR ${x.mrr.toFixed(3)}`).join(', ')})` : ''}`,
      );
  }
}

const rankers = [...new Set(rows.map((r) => r.ranker))];
const cell = (split: string, ranker: string) => {
  const r = rows.find((x) => x.split === split && x.ranker === ranker);
  return r ? `${r.top1.toFixed(1)} / ${r.top5.toFixed(1)}` : '-';
};
const lines = [
  `Chain-of-Tools on public data (top-1 / top-5 %), encoder ${encoderId}; no simulator involved`,
  `${'ranker'.padEnd(20)}${splits.map((s) => s.padStart(16)).join('')}`,
  ...rankers.map((r) => `${r.padEnd(20)}${splits.map((s) => cell(s, r).padStart(16)).join('')}`),
];
for (const s of splits) {
  const best = rows
    .filter((r) => r.split === s && (r.ranker === 'bm25' || r.ranker === 'char'))
    .sort((a, b) => b.top1 - a.top1)[0];
  const cot = rows.find((r) => r.split === s && r.ranker === 'cotools (default)');
  if (best && cot)
    lines.push(
      `${s}: cotools (default) ${cot.top1.toFixed(1)} vs ${best.ranker} ${best.top1.toFixed(1)} → ${cot.top1 > best.top1 ? 'beats bm25 and char' : 'does NOT beat bm25 and char'} (${(cot.top1 - best.top1).toFixed(1)} points)`,
    );
}
lines.push(...trainingNotes, ...skippedLines);
lines.push(
  `wall time ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]?.toFixed(1)}`,
);
process.stdout.write(`${lines.join('\n')}\n`);
