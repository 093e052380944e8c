/**
 * `npm run bench:draft`: DRAFT with the simulated policy (Node, in-process), per tool of the P_c documentation
 * explored on a drifted surface: iterations, model calls, tool calls, wall time and the stop reason — with the
 * paper's settings, next to the w/o-adaptive-termination ablation (always I iterations) measured in the same run
 * as the baseline the ratios are taken against. Figures describe the simulator, not a language model.
 * Environment: BENCH_SURFACE (default s-in), BENCH_SEED (default bench).
 */
import type { DraftOptionsInput } from '../core/draft/config.ts';
import { resolveDraftOptions } from '../core/draft/config.ts';
import { initialDocSet } from '../core/draft/docset.ts';
import { advanceTool, type DraftContext } from '../core/draft/loop.ts';
import { toolStatesFor } from '../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../core/models/lexical.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../core/sim/index.ts';
import { builtinSurface, PC_SURFACE } from '../core/surfaces/builtin.ts';
import { createKernelDeps } from '../core/world/kernel-deps.ts';
import { generateWorld } from '../core/world/world.ts';

const surfaceId = process.env.BENCH_SURFACE ?? 's-in';
const seed = process.env.BENCH_SEED ?? 'bench';
const server = builtinSurface(surfaceId);
if (!server) throw new Error(`unknown built-in surface ${surfaceId}`);

const world = generateWorld({ seed: 'bench-draft', scale: 0.1 });

interface ToolRow {
  tool: string;
  iterations: number;
  modelCalls: number;
  toolCalls: number;
  ms: number;
  stop: string;
}

async function measure(input: DraftOptionsInput): Promise<ToolRow[]> {
  const options = resolveDraftOptions({ seed, ...input });
  const model = createSimModel({ preset: 'adaptive' });
  const ctx: DraftContext = {
    model,
    embedder: new LexicalEmbeddingModel(),
    world,
    server: server!,
    deps: createKernelDeps({}),
  };
  const set = initialDocSet(PC_SURFACE, server!.id, model.model, true, options);
  const rows: ToolRow[] = [];
  for (const start of toolStatesFor(set)) {
    const t = performance.now();
    const done = await advanceTool(start, ctx);
    rows.push({
      tool: start.key,
      iterations: done.versions.length - 1,
      modelCalls: done.modelCalls,
      toolCalls: done.toolCalls,
      ms: performance.now() - t,
      stop: done.stop ?? '',
    });
  }
  return rows;
}

// Warm-up: one full pass of each variant first, so neither is charged for building the world's indexes, the
// Python sandbox or JIT compilation.
await measure({});
await measure({ adaptiveTermination: false });
const paper = await measure({});
const baseline = await measure({ adaptiveTermination: false });

console.log(`DRAFT per tool — model ${SIM_MODEL_LABEL}; docs pc explored on ${server.id}; seed ${seed}`);
console.log(
  'tool               | iter | model calls | tool calls | wall ms | stop           | calls vs always-I | time vs always-I',
);
console.log(
  '-------------------|------|-------------|------------|---------|----------------|-------------------|-----------------',
);
let calls = 0;
let baseCalls = 0;
let ms = 0;
let baseMs = 0;
for (const [i, r] of paper.entries()) {
  const b = baseline[i]!;
  calls += r.modelCalls;
  baseCalls += b.modelCalls;
  ms += r.ms;
  baseMs += b.ms;
  console.log(
    `${r.tool.padEnd(18)} | ${String(r.iterations).padStart(4)} | ${String(r.modelCalls).padStart(11)} | ${String(r.toolCalls).padStart(10)} | ${r.ms.toFixed(1).padStart(7)} | ${r.stop.padEnd(14)} | ${(r.modelCalls / b.modelCalls).toFixed(2).padStart(17)} | ${(r.ms / b.ms).toFixed(2).padStart(16)}`,
  );
}
console.log(
  `total              |      | ${String(calls).padStart(11)} |            | ${ms.toFixed(1).padStart(7)} |                | ${(calls / baseCalls).toFixed(2).padStart(17)} | ${(ms / baseMs).toFixed(2).padStart(16)}`,
);
console.log(
  `mean model calls per tool: ${(calls / paper.length).toFixed(2)} (always I = 5: ${(baseCalls / baseline.length).toFixed(2)})`,
);
