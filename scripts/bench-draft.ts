/**
 * `npm run bench:draft`: DRAFT with the simulated policy (Node, in-process), per tool of the P_c documentation
 * explored on a drifted surface, for each encoder of φ and Δ — USE lite (the default, `encoder: auto` in Node) and
 * the weight-free lexical encoder (tooldrift's earlier default) — with the paper's settings, next to the
 * w/o-adaptive-termination ablation (always I = 5 iterations) measured in the same run as the baseline the ratios
 * are taken against. Figures describe the simulator, not a language model.
 *
 * Per encoder it reports what the thresholds do on that encoder's scale (φ = 0.9 and τ = 0.75 were set for ada-002
 * embeddings):
 * - the diversity check: explorer attempts checked (iterations ≥ 2 of the always-I runs), how many were rejected
 *   as too similar (cosine ≥ φ to an earlier query), and the mean cosine of each accepted query to its nearest
 *   earlier one;
 * - termination: per tool the first iteration at which Δ > τ in the always-I run (— when never), Δ per iteration,
 *   and where the paper-settings run stopped, and why.
 * Environment: BENCH_SURFACE (default s-in), BENCH_SEED (default bench), BENCH_ENCODERS (default use,lexical).
 */
import { type DraftEncoder, type DraftOptionsInput, resolveDraftOptions } from '../core/draft/config.ts';
import { initialDocSet } from '../core/draft/docset.ts';
import { advanceTool, type DraftContext, type DraftToolState } from '../core/draft/loop.ts';
import { toolStatesFor } from '../core/draft/run.ts';
import { cosineSimilarity } from '../core/models/embeddings.ts';
import type { EmbeddingModel } from '../core/models/types.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../core/sim/index.ts';
import { builtinSurface, PC_SURFACE } from '../core/surfaces/builtin.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import { generateWorld } from '../core/world/world.ts';
import { draftEncoder } from './lib/draft-encoder.ts';

const surfaceId = process.env.BENCH_SURFACE ?? 's-in';
const seed = process.env.BENCH_SEED ?? 'bench';
const encoders = (process.env.BENCH_ENCODERS ?? 'use,lexical').split(',') as DraftEncoder[];
const server = builtinSurface(surfaceId);
if (!server) throw new Error(`unknown built-in surface ${surfaceId}`);

const world = generateWorld({ seed: 'bench-draft', scale: 0.1 });

interface ToolRun {
  tool: string;
  state: DraftToolState;
  ms: number;
}

async function measure(embedder: EmbeddingModel, input: DraftOptionsInput): Promise<ToolRun[]> {
  const options = resolveDraftOptions({ seed, ...input });
  const model = createSimModel({ preset: 'adaptive' });
  const ctx: DraftContext = { model, embedder, world, server: server!, deps: createKernelDeps({}) };
  const set = initialDocSet(PC_SURFACE, server!.id, model.model, true, options);
  const rows: ToolRun[] = [];
  for (const start of toolStatesFor(set)) {
    const t = performance.now();
    const state = await advanceTool(start, ctx);
    rows.push({ tool: start.key, state, ms: performance.now() - t });
  }
  return rows;
}

/** Explorer attempts that met the diversity check (iteration ≥ 2), and those rejected as too similar. */
function diversityCounts(state: DraftToolState): { checked: number; rejected: number } {
  let checked = 0;
  let rejected = 0;
  for (const d of state.diversity) {
    if (d.iteration < 2) continue;
    checked += d.attempts;
    rejected += d.rejectedSimilarities.length;
  }
  return { checked, rejected };
}

/** Each accepted query's cosine to its nearest earlier accepted query of the tool. */
async function nearestEarlier(embedder: EmbeddingModel, state: DraftToolState): Promise<number[]> {
  const queries = state.explorations.map((e) => e.query);
  if (queries.length < 2) return [];
  const v = await embedder.embed(queries);
  const out: number[] = [];
  for (let i = 1; i < v.length; i++) {
    let best = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < i; j++) best = Math.max(best, cosineSimilarity(v[i]!, v[j]!));
    out.push(best);
  }
  return out;
}

function firstOverTau(state: DraftToolState, tau: number): number | null {
  return state.versions.find((v) => v.delta !== null && v.delta > tau)?.iteration ?? null;
}

const mean = (xs: readonly number[]) =>
  xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (a: number, b: number) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)} %`);
const tau = resolveDraftOptions().tau;
const phi = resolveDraftOptions().phi;

console.log(
  `DRAFT per tool — model ${SIM_MODEL_LABEL}; docs pc explored on ${server.id}; seed ${seed}; φ = ${phi}, τ = ${tau}`,
);
const summary: string[] = [];
for (const encoder of encoders) {
  const embedder = await draftEncoder(encoder);
  // Warm-up: one pass of each variant first, so neither is charged for the world's indexes, the Python sandbox,
  // the encoder's first runs or JIT compilation.
  await measure(embedder, { encoder });
  await measure(embedder, { encoder, adaptiveTermination: false });
  const paper = await measure(embedder, { encoder });
  const always = await measure(embedder, { encoder, adaptiveTermination: false });

  console.log(`\nencoder ${encoder} (${embedder.model})`);
  console.log(
    'tool               | stop (paper)   | iter | calls | calls vs always-I | time vs always-I | first Δ > τ (always-I) | Δ per iteration (always-I)          | div. rejected/checked',
  );
  console.log(
    '-------------------|----------------|------|-------|-------------------|------------------|------------------------|-------------------------------------|----------------------',
  );
  let calls = 0;
  let baseCalls = 0;
  let ms = 0;
  let baseMs = 0;
  let checked = 0;
  let rejected = 0;
  const firsts: number[] = [];
  let never = 0;
  const nearest: number[] = [];
  const stops = new Map<string, number>();
  for (const [i, r] of paper.entries()) {
    const b = always[i]!;
    calls += r.state.modelCalls;
    baseCalls += b.state.modelCalls;
    ms += r.ms;
    baseMs += b.ms;
    const d = diversityCounts(b.state);
    checked += d.checked;
    rejected += d.rejected;
    nearest.push(...(await nearestEarlier(embedder, b.state)));
    const first = firstOverTau(b.state, tau);
    if (first === null) never++;
    else firsts.push(first);
    const stop = r.state.stop ?? '';
    stops.set(stop, (stops.get(stop) ?? 0) + 1);
    const deltas = b.state.versions
      .slice(1)
      .map((v) => (v.delta ?? Number.NaN).toFixed(2))
      .join(' ');
    console.log(
      `${r.tool.padEnd(18)} | ${stop.padEnd(14)} | ${String(r.state.versions.length - 1).padStart(4)} | ${String(r.state.modelCalls).padStart(5)} | ${(r.state.modelCalls / b.state.modelCalls).toFixed(2).padStart(17)} | ${(r.ms / b.ms).toFixed(2).padStart(16)} | ${String(first ?? '—').padStart(22)} | ${deltas.padEnd(35)} | ${`${d.rejected}/${d.checked}`.padStart(20)}`,
    );
  }
  const stopText = [...stops].map(([s, n]) => `${s} ${n}`).join(', ');
  console.log(
    `total: ${calls} model calls (always-I ${baseCalls}, ratio ${(calls / baseCalls).toFixed(2)}); time ratio ${(ms / baseMs).toFixed(2)}; stops: ${stopText}`,
  );
  const line = `${encoder.padEnd(7)} | diversity rejection rate ${pct(rejected, checked).padStart(7)} (${rejected}/${checked} attempts) | mean cosine to nearest earlier query ${mean(nearest).toFixed(3)} | first Δ > τ at iteration ${firsts.length > 0 ? mean(firsts).toFixed(2) : '—'} on average (${firsts.map(String).join(' ')}), never in ${never} of ${always.length} tools`;
  console.log(line);
  summary.push(line);
}
console.log(`\nSummary (φ = ${phi}, τ = ${tau}; always-I runs, ${SIM_MODEL_LABEL}):`);
for (const l of summary) console.log(l);
