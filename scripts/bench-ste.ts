/**
 * `npm run bench:ste`: STE with the simulated policy (Node, in-process; figures describe the simulator).
 *  - per explored tool of the server surface: model calls, wall time, trials solved (reflection), exemplars
 *    kept by the filter and after paraphrasing, with the spec's defaults (15 episodes × 4 trials, ≤ 4 calls);
 *  - exemplar retrieval (top-8) over 10,000 exemplars: the exemplar memory's normalised Float32Array scan with
 *    bounded top-k against the brute-force baseline (cosine similarity of every vector, full sort), measured in
 *    the same run on the same vectors, with the ratio.
 * Environment: BENCH_SURFACE (default s-ood), BENCH_EXEMPLARS (default 10000), BENCH_QUERIES (default 200).
 */
import { LexicalEmbeddingModel } from '../core/models/lexical.ts';
import { createSimModel } from '../core/sim/index.ts';
import { exploreTool, originalExemplars } from '../core/ste/engine.ts';
import { bruteForceTopK, ExemplarMemory } from '../core/ste/memory.ts';
import { builtinSurface } from '../core/surfaces/builtin.ts';
import { Rng } from '../core/util/random.ts';
import { generateWorld } from '../core/world/world.ts';

const surfaceId = process.env.BENCH_SURFACE ?? 's-ood';
const exemplarCount = Number(process.env.BENCH_EXEMPLARS ?? 10000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 200);

const surface = builtinSurface(surfaceId);
if (!surface) throw new Error(`unknown surface ${surfaceId}`);
const world = generateWorld({ seed: 'bench-ste', scale: 0.1 });
const model = createSimModel({});

console.log(
  `STE exploration on ${surfaceId} with tooldrift-sim-v1 (simulator): 15 episodes × 4 trials per tool`,
);
console.log('tool                        calls   wall ms   ms/call  solved  kept  exemplars');
let totalCalls = 0;
let totalMs = 0;
const queries: string[] = [];
for (const t of surface.tools.filter((x) => x.kernel !== 'Finish' && x.kernel !== 'UpdateTool')) {
  const start = performance.now();
  const state = await exploreTool({ model, world, surface }, { tool: t.name, seed: 'bench' });
  const ms = performance.now() - start;
  totalCalls += state.calls;
  totalMs += ms;
  queries.push(...state.exemplars.map((e) => e.query), ...state.trials.map((x) => x.query));
  console.log(
    `${t.name.padEnd(26)} ${String(state.calls).padStart(6)} ${ms.toFixed(0).padStart(9)} ${(ms / state.calls).toFixed(2).padStart(9)} ${String(state.trials.filter((x) => x.solved).length).padStart(4)}/60 ${String(originalExemplars(state).length).padStart(5)} ${String(state.exemplars.length).padStart(10)}`,
  );
}
console.log(
  `all tools: ${totalCalls} model calls, ${totalMs.toFixed(0)} ms (${(totalMs / totalCalls).toFixed(2)} ms per call)`,
);

// Retrieval over exemplarCount exemplars: explored queries with their values varied, so that they are distinct.
const rng = new Rng('bench-ste-retrieval');
const base = [...new Set(queries)];
const texts = Array.from({ length: exemplarCount }, (_, i) => `${rng.pick(base)} #${i} ${rng.int(0, 99999)}`);
const embedder = new LexicalEmbeddingModel();
const vectors = await embedder.embed(texts);
const memory = new ExemplarMemory(embedder);
await memory.add(
  texts.map((query, i) => ({
    id: `x/${i}`,
    tool: 'x',
    query,
    action: 'a',
    actionInput: '{}',
    observation: '',
    finalAnswer: '',
    episode: 0,
    trial: i,
  })),
);
const probes = await embedder.embed(Array.from({ length: queryCount }, () => rng.pick(base)));

let t0 = performance.now();
let agree = 0;
const fastResults = probes.map((q) => memory.nearest(q, 8));
const fastMs = (performance.now() - t0) / queryCount;
t0 = performance.now();
const slowResults = probes.map((q) => bruteForceTopK(vectors, q, 8));
const slowMs = (performance.now() - t0) / queryCount;
for (let i = 0; i < queryCount; i++) {
  const a = (fastResults[i] ?? []).map((s) => s.index).join();
  const b = (slowResults[i] ?? []).map((s) => s.index).join();
  if (a === b) agree++;
}
console.log(
  `\nexemplar retrieval, top-8 of ${exemplarCount} exemplars (${embedder.dimensions}-d lexical embeddings), ${queryCount} queries:`,
);
console.log(`  exemplar memory (Float32 scan, bounded top-k): ${fastMs.toFixed(3)} ms per query`);
console.log(`  brute force (cosine per vector, full sort):    ${slowMs.toFixed(3)} ms per query`);
console.log(
  `  ratio baseline / memory: ${(slowMs / fastMs).toFixed(2)}×; same top-8 in ${agree}/${queryCount} queries`,
);
