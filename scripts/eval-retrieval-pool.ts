/**
 * `npm run eval:retrieval-pool`: agents that must retrieve their tools (issue 14 item 7, the toolPool aid of
 * core/aids; core/retrieval/tool-pool.ts). Every figure describes the **simulated policy** (tooldrift-sim-v1, the
 * `static` preset, temperature 0), not a language model.
 *
 * The server runs s-ood. The agent's documentation is s-ood's own, but its tools are hidden in a pool of synthetic
 * catalog distractors (core/retrieval/catalog.ts) of 1,000, 10,000 and 100,000 tools in all; the prompt documents
 * only the top-k tools retrieved per step (the question first, then the question with the previous step; after a
 * deprecation error, the candidates for the retired tool) plus Finish and UpdateTool. The no-pool baseline is
 * the same agent with s-ood's full documentation. With `EVAL_SETTINGS=both`, a second setting documents the stale
 * P_c tools and hides **both versions** (pc and s-ood) in the pool, so deprecation errors lead to re-retrieval.
 *
 * Rankers: `bm25` (untrained) and `cotools` — the trained retriever of cotools.md (eq. 6–11) over weight-free
 * lexical vectors (IDF fitted on the catalog), trained in-process on the catalog's training split with the
 * benchmark's scaled-down settings (5 epochs, lr 1e-3, no accumulation, D = 256, scale 20; README
 * "Chain-of-Tools"). The Tool Judge's gate is `always` (every step retrieves; the judge is not trained here)
 * unless `EVAL_JUDGE=1`, which trains it like `npm run bench:retrieval` and adds gated rows.
 *
 * Environment: EVAL_PER_GROUP (test tasks per dataset × difficulty, default 3 → 42 tasks without gsm8k),
 * EVAL_SEED (default `pool-eval`), EVAL_SIZES (default 1000,10000,100000), EVAL_TOPK (default 1,3),
 * EVAL_WEIGHTS (a file to keep the trained cotools weights in between runs), EVAL_RANKERS (default bm25,cotools;
 * `bm25` alone skips the training),
 * EVAL_METHODS (greedy[,mcts]; default greedy), EVAL_SETTINGS (s-ood | both; default s-ood), EVAL_SEEN_TOOLS
 * (catalog tools with training queries, 2 each; default 5,000 → the benchmark's 10,000 training queries).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadEncoder } from '../cli/retrieval/encoders.ts';
import { type Aids, AidsSchema, type ResolvedAids } from '../core/aids/index.ts';
import { getMethod } from '../core/methods/registry.ts';
import { Bm25Ranker } from '../core/retrieval/bm25.ts';
import { syntheticCatalog } from '../core/retrieval/catalog.ts';
import { judgeProbability, trainJudge } from '../core/retrieval/cotools/judge.ts';
import type { MlpWeights } from '../core/retrieval/cotools/mlp.ts';
import { cotoolsRanker } from '../core/retrieval/cotools/ranker.ts';
import type { RetrieverWeights } from '../core/retrieval/cotools/retriever.ts';
import { trainRetriever } from '../core/retrieval/cotools/training.ts';
import { embedAll } from '../core/retrieval/dense.ts';
import { toolText } from '../core/retrieval/text.ts';
import {
  ALWAYS_RETRIEVE,
  buildToolPool,
  type PoolTool,
  type ToolGate,
  ToolPoolRetriever,
} from '../core/retrieval/tool-pool.ts';
import type { Ranker, Tool } from '../core/retrieval/types.ts';
import { createSimModel } from '../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../core/surfaces/builtin.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import { generateTasks } from '../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../core/world/tasks/registry.ts';
import type { Task } from '../core/world/tasks/types.ts';
import { generateWorld } from '../core/world/world.ts';

const env = (name: string, fallback: string) => process.env[name] ?? fallback;
const perGroup = Number(env('EVAL_PER_GROUP', '3'));
const seed = env('EVAL_SEED', 'pool-eval');
const sizes = env('EVAL_SIZES', '1000,10000,100000').split(',').map(Number);
const topKs = env('EVAL_TOPK', '1,3').split(',').map(Number);
const methods = env('EVAL_METHODS', 'greedy').split(',') as ('greedy' | 'mcts')[];
const settings = env('EVAL_SETTINGS', 's-ood') === 'both' ? ['s-ood', 'pc+s-ood'] : ['s-ood'];
const withJudge = env('EVAL_JUDGE', '0') === '1';
const rankerIds = env('EVAL_RANKERS', 'bm25,cotools').split(',');
const withCotools = rankerIds.includes('cotools');
const log = (text: string) => process.stderr.write(`${text}\n`);
const started = performance.now();
const secs = (t0: number) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

const world = generateWorld({ seed, scale: 0.1 });
const model = createSimModel({});
const tasks: Task[] = (
  await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: perGroup, dev: 0, train: 0 }) })
).tasks.filter((t) => t.dataset !== 'gsm8k');

// The distractors: the synthetic catalog at the largest size (smaller pools take its first tools).
const maxSize = Math.max(...sizes);
const catalog = syntheticCatalog({
  seed: 'tool-catalog',
  tools: maxSize,
  seenTools: Number(env('EVAL_SEEN_TOOLS', '5000')),
  dev: 200,
  testSeen: 1,
  testUnseen: 1,
});
const distractors: Tool[] = catalog.tools.map(({ name, description, parameters }) => ({
  name,
  description,
  ...(parameters ? { parameters } : {}),
}));
log(`catalog: ${distractors.length} tools, ${catalog.train.length} training queries (${secs(started)})`);

// cotools: lexical frozen vectors (IDF on the catalog), trained with the benchmark's scaled-down settings.
const encoder = await loadEncoder('lexical', distractors);
const t0 = performance.now();
const nameIndex = new Map(distractors.map((t, i) => [t.name, i]));
const trainVectors = await embedAll(
  encoder,
  catalog.train.map((q) => q.query),
);
const goldTools = catalog.train.map((q) => q.tools.map((n) => nameIndex.get(n) as number));
const toolVectorCache = new Map<number, ArrayLike<number>>();
const goldIds = [...new Set(goldTools.flat())];
const goldVectors = await embedAll(
  encoder,
  goldIds.map((i) => toolText(distractors[i] as Tool)),
);
for (const [j, i] of goldIds.entries()) toolVectorCache.set(i, goldVectors[j] as ArrayLike<number>);
// The earlier scaled-down setting on the paper's epoch loop (constant lr, no early stopping): the vectors of
// non-gold tools are not computed here, which the default preset's dev ranking would need.
const cotoolsOptions = {
  preset: 'paper' as const,
  epochs: 5,
  lr: 1e-3,
  accumulation: 1,
  intermediate: 256,
  scale: 20,
  seed,
};
// EVAL_WEIGHTS=path keeps the trained weights between runs (e.g. a greedy run, then an mcts run): loaded when the
// file exists, written after training otherwise.
const weightsPath = process.env.EVAL_WEIGHTS;
let weights: RetrieverWeights | null = null;
if (!withCotools) log('cotools left out (EVAL_RANKERS)');
else if (weightsPath && existsSync(weightsPath)) {
  weights = readWeights(readFileSync(weightsPath, 'utf8'));
  log(`cotools weights read from ${weightsPath}`);
} else {
  const trained = trainRetriever(
    trainVectors.map((h, i) => ({ h, tools: goldTools[i] as number[] })),
    (i) => toolVectorCache.get(i) as ArrayLike<number>,
    encoder.dimensions,
    cotoolsOptions,
  );
  weights = trained.weights;
  log(
    `cotools trained on ${trainVectors.length} catalog queries in ${secs(t0)}; loss per epoch ${trained.epochs.map((e) => e.loss.toFixed(3)).join(' ')}`,
  );
  if (weightsPath) writeFileSync(weightsPath, writeWeights(weights));
}

function writeWeights(w: RetrieverWeights): string {
  const mlp = (m: MlpWeights) => ({ ...m, gate: [...m.gate], up: [...m.up], down: [...m.down] });
  return JSON.stringify({ ...w, query: mlp(w.query), tool: mlp(w.tool), wDim: [...w.wDim] });
}

function readWeights(text: string): RetrieverWeights {
  const j = JSON.parse(text);
  const mlp = (m: MlpWeights) => ({
    ...m,
    gate: Float64Array.from(m.gate),
    up: Float64Array.from(m.up),
    down: Float64Array.from(m.down),
  });
  return { ...j, query: mlp(j.query), tool: mlp(j.tool), wDim: Float64Array.from(j.wDim) };
}

let judgeGate: ToolGate | null = null;
if (withJudge) {
  const j0 = performance.now();
  const positives = catalog.train.slice(0, 2000).map((q) => q.query);
  const negatives = catalog.noTool.slice(0, 2000);
  const vectors = await embedAll(encoder, [...positives, ...negatives]);
  const judge = trainJudge(
    vectors.map((h, i) => ({ h, label: (i < positives.length ? 1 : 0) as 0 | 1 })),
    encoder.dimensions,
    { lr: 0.001, accumulation: 1, intermediate: 256, seed },
  );
  judgeGate = {
    id: 'trained judge (lexical)',
    needsTool: async (text) => {
      const [h] = await embedAll(encoder, [text]);
      return judgeProbability(judge.weights, h as ArrayLike<number>) > 0.5;
    },
  };
  log(`Tool Judge trained on ${vectors.length} texts in ${secs(j0)}`);
}

// Pool vectors for cotools, computed once at the largest size per setting and sliced for smaller pools.
const featureCache = new Map<string, Float32Array>();
async function features(pool: readonly PoolTool[]): Promise<Float32Array[]> {
  const missing = pool.filter((t) => !featureCache.has(t.name));
  if (missing.length > 0) {
    const vs = await embedAll(encoder, missing.map(toolText));
    for (const [i, t] of missing.entries()) featureCache.set(t.name, vs[i] as Float32Array);
  }
  return pool.map((t) => featureCache.get(t.name) as Float32Array);
}

interface Row {
  setting: string;
  method: string;
  pool: string;
  ranker: string;
  topK: string;
  gate: string;
  success: number;
  steps: number;
  ms: number;
}
const rows: Row[] = [];

async function run(
  setting: string,
  method: 'greedy' | 'mcts',
  docs: Surface,
  toolPool: ToolPoolRetriever | undefined,
): Promise<{ success: number; steps: number }> {
  const m = getMethod(method);
  let correct = 0;
  let steps = 0;
  for (const task of tasks) {
    const aids: ResolvedAids = { documentation: docs, updateMemory: [] };
    if (toolPool) aids.toolPool = toolPool;
    const o = await m.run({
      task: {
        id: task.id,
        question: task.question,
        gold: task.gold,
        dataset: task.dataset,
        difficulty: task.difficulty,
      },
      options: m.options.parse(method === 'mcts' ? { simulations: 4, k: 2, maxDepth: 12 } : {}),
      model,
      world,
      surface: S_OOD_SURFACE,
      deps: createKernelDeps({ gold: task.gold }),
      aids,
      limits: { maxSteps: 20 },
      seeds: { model: 0, search: `${seed}/${setting}/${task.id}` },
    });
    if (o.correct) correct++;
    steps += o.steps.length;
  }
  return { success: correct / tasks.length, steps: steps / tasks.length };
}

// The aid's own option check (what a request would send), so the script runs what the API accepts.
const asked: Aids = AidsSchema.parse({ toolPool: { pool: 'catalog', topK: topKs[0], ranker: 'bm25' } });
if (!asked.toolPool) throw new Error('toolPool options');

for (const setting of settings) {
  const docs = setting === 's-ood' ? S_OOD_SURFACE : PC_SURFACE;
  const hidden = setting === 's-ood' ? [S_OOD_SURFACE] : [PC_SURFACE, S_OOD_SURFACE];
  for (const method of methods) {
    const b0 = performance.now();
    const base = await run(setting, method, docs, undefined);
    rows.push({
      setting,
      method,
      pool: `none (full ${docs.id} documentation)`,
      ranker: '—',
      topK: '—',
      gate: '—',
      ...base,
      ms: performance.now() - b0,
    });
    log(`${setting} ${method} baseline: ${(100 * base.success).toFixed(1)} % (${secs(b0)})`);
    for (const size of sizes) {
      const pool = buildToolPool({ surfaces: hidden, distractors, size, seed: `${seed}/${size}` });
      const r0 = performance.now();
      const rankers: [string, Ranker][] = [['bm25', new Bm25Ranker(pool)]];
      if (weights) rankers.push(['cotools', cotoolsRanker(weights, await features(pool), encoder)]);
      log(`pool ${size}: rankers built in ${secs(r0)}`);
      for (const [rankerId, ranker] of rankers)
        for (const topK of topKs) {
          const gates: ToolGate[] = [ALWAYS_RETRIEVE, ...(judgeGate && topK === topKs[0] ? [judgeGate] : [])];
          for (const gate of gates) {
            const p0 = performance.now();
            const retriever = new ToolPoolRetriever({ pool, ranker, topK, gate, base: docs });
            const r = await run(setting, method, docs, retriever);
            rows.push({
              setting,
              method,
              pool: String(pool.length),
              ranker: rankerId,
              topK: String(topK),
              gate: gate.id === 'always' ? 'always (no trained judge)' : gate.id,
              ...r,
              ms: performance.now() - p0,
            });
            log(
              `${setting} ${method} pool ${pool.length} ${rankerId} top-${topK} ${gate.id}: ${(100 * r.success).toFixed(1)} % (${secs(p0)})`,
            );
          }
        }
    }
  }
}

const load = await import('node:os').then((os) =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
);
console.log(
  `toolPool aid — **simulated policy** (tooldrift-sim-v1, static preset, temperature 0), server s-ood, ${tasks.length} test tasks (${perGroup} per dataset × difficulty, gsm8k left out), seed ${seed}; distractors from the synthetic catalog; ${weights ? `cotools over lexical vectors trained on ${catalog.train.length} catalog queries (5 epochs, lr 1e-3, D 256, scale 20)` : 'bm25 only'}\n`,
);
console.log('| setting | method | pool (tools) | ranker | top-k | gate | success | steps per task |');
console.log('|---|---|---:|---|---:|---|---:|---:|');
for (const r of rows)
  console.log(
    `| ${r.setting === 's-ood' ? 'docs s-ood' : 'docs pc, pool pc + s-ood'} | ${r.method} | ${r.pool} | ${r.ranker} | ${r.topK} | ${r.gate} | ${(100 * r.success).toFixed(1)} % | ${r.steps.toFixed(1)} |`,
  );
console.log(`\nwall time ${secs(started)}; load average ${load}`);
