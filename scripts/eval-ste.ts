/**
 * `npm run eval:ste`: the STE evaluation of issue 15 with the simulated policy (every figure describes the
 * simulator, tooldrift-sim-v1, not a language model).
 *
 * 1. Stale documentation: on the server surfaces s-in and s-ood, with the documentation of pc, greedy ReAct
 *    (temperature 0) answers the same test tasks three ways: `greedy`; `greedy-memory` (UpdateTool lines of the
 *    earlier tasks carried over, in task order); and greedy with STE demonstrations — the top-8 exemplars for
 *    each question from an STE run on the server surface (all explored tools, spec defaults, lexical
 *    embeddings).
 * 2. Continual learning: round 1 explores s-in, round 2 explores the tools changed between s-in and s-ood (all
 *    of them). After round 2 the exemplar pool is round 2's exemplars, plus — with rehearsal — 10 % of round 1's
 *    (seeded by the round id). Reported: success on the round-1 tasks (s-in server) with each pool, next to
 *    round 1's own pool and no demonstrations.
 * 3. The paper's Table 2 ablations (and long-term memory at every trial, the paper's text) as exploration options
 *    on s-ood: trials, reflections that said solved, trials the filter kept, exemplars, and greedy's success with
 *    each run's demonstrations. The paper fine-tunes on each ablation's examples; demonstrations stand in here.
 * Environment: EVAL_PER_GROUP (test tasks per dataset × difficulty, default 3), EVAL_SEED (default `ste-eval`).
 */
import { runReactEpisode } from '../core/agents/react-loop.ts';
import { LexicalEmbeddingModel } from '../core/models/lexical.ts';
import type { SteDemonstration } from '../core/prompts/ste.ts';
import { createSimModel } from '../core/sim/index.ts';
import { demonstrationsFor } from '../core/ste/demonstrations.ts';
import { exploreTool, type SteExemplar, type SteOptionsInput } from '../core/ste/engine.ts';
import { ExemplarMemory } from '../core/ste/memory.ts';
import { roundTrainingSet } from '../core/ste/rehearsal.ts';
import { steTargetTools } from '../core/ste/targets.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../core/surfaces/builtin.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { generateTasks } from '../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../core/world/tasks/registry.ts';
import type { Task } from '../core/world/tasks/types.ts';
import { generateWorld } from '../core/world/world.ts';

const perGroup = Number(process.env.EVAL_PER_GROUP ?? 3);
const seed = process.env.EVAL_SEED ?? 'ste-eval';
const world = generateWorld({ seed, scale: 0.1 });
const model = createSimModel({});
const tasks: Task[] = (
  await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: perGroup, dev: 0, train: 0 }) })
).tasks.filter((t) => t.dataset !== 'gsm8k');

interface Explored {
  exemplars: SteExemplar[];
  trials: number;
  solved: number;
  kept: number;
}

async function exploreRun(
  surface: Surface,
  tools: string[],
  round: string,
  options: Partial<SteOptionsInput> = {},
): Promise<Explored> {
  const out: Explored = { exemplars: [], trials: 0, solved: 0, kept: 0 };
  for (const tool of tools) {
    const state = await exploreTool(
      { model, world, surface },
      { ...options, tool, seed: `${seed}/${round}` },
    );
    out.exemplars.push(...state.exemplars);
    out.trials += state.trials.length;
    out.solved += state.trials.filter((t) => t.solved === true).length;
    out.kept += state.verdicts.filter((v) => v.kind === 'kept').length;
  }
  return out;
}

async function explore(surface: Surface, tools: string[], round: string): Promise<SteExemplar[]> {
  return (await exploreRun(surface, tools, round)).exemplars;
}

async function memoryOf(exemplars: readonly SteExemplar[]): Promise<ExemplarMemory> {
  const m = new ExemplarMemory(new LexicalEmbeddingModel());
  await m.add(exemplars);
  return m;
}

type Variant = 'greedy' | 'greedy-memory' | 'demos';

async function success(surface: Surface, variant: Variant, memory?: ExemplarMemory): Promise<number> {
  let correct = 0;
  let carried: string[] = [];
  for (const task of tasks) {
    let demonstrations: SteDemonstration[] | undefined;
    if (variant === 'demos' && memory) demonstrations = await demonstrationsFor(memory, task.question);
    const episode = await runReactEpisode({
      model,
      world,
      task,
      surface,
      docs: PC_SURFACE,
      ...(variant === 'greedy-memory' ? { memory: carried } : {}),
      ...(demonstrations ? { demonstrations } : {}),
    });
    if (variant === 'greedy-memory') {
      const lines = episode.newTools.map((l) => l.replace(/^\(\d+\)\s*/, ''));
      carried = [...new Set([...carried, ...lines])];
    }
    if (episode.correct) correct++;
  }
  return correct / tasks.length;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
console.log(
  `STE evaluation with tooldrift-sim-v1 (simulator), docs pc, ${tasks.length} test tasks (${perGroup} per dataset × difficulty), seed ${seed}\n`,
);
console.log('| server | greedy | greedy-memory | greedy + STE demonstrations | exemplars |');
console.log('|---|---|---|---|---|');
const pools: Record<string, SteExemplar[]> = {};
for (const surface of [S_IN_SURFACE, S_OOD_SURFACE]) {
  const exemplars = await explore(surface, steTargetTools(surface), surface.id);
  pools[surface.id] = exemplars;
  const memory = await memoryOf(exemplars);
  const row = [
    await success(surface, 'greedy'),
    await success(surface, 'greedy-memory'),
    await success(surface, 'demos', memory),
  ];
  console.log(`| ${surface.id} | ${row.map(pct).join(' | ')} | ${exemplars.length} |`);
}

// Continual learning: round 1 = s-in (pool above), round 2 = the tools changed between s-in and s-ood.
const round1 = { id: '1', exemplars: pools['s-in'] as SteExemplar[] };
const changed = steTargetTools(S_OOD_SURFACE, { since: S_IN_SURFACE });
const round2 = { id: '2', exemplars: await explore(S_OOD_SURFACE, changed, 'round-2') };
const without = roundTrainingSet(round2, [round1], { rehearsal: false });
const withReplay = roundTrainingSet(round2, [round1], { rehearsal: true });
console.log(
  `\nContinual learning (round 1: s-in, ${round1.exemplars.length} exemplars; round 2: s-ood, ${changed.length} changed tools, ${round2.exemplars.length} exemplars); success on the round-1 tasks (server s-in, docs pc):\n`,
);
console.log('| demonstrations from | pool size | success on round-1 tasks |');
console.log('|---|---|---|');
console.log(`| none (greedy) | 0 | ${pct(await success(S_IN_SURFACE, 'greedy'))} |`);
console.log(
  `| round 1 only (before round 2) | ${round1.exemplars.length} | ${pct(await success(S_IN_SURFACE, 'demos', await memoryOf(round1.exemplars)))} |`,
);
console.log(
  `| after round 2, no rehearsal | ${without.length} | ${pct(await success(S_IN_SURFACE, 'demos', await memoryOf(without)))} |`,
);
console.log(
  `| after round 2, rehearsal 10 % | ${withReplay.length} | ${pct(await success(S_IN_SURFACE, 'demos', await memoryOf(withReplay)))} |`,
);
console.log(
  `\nround-2 tasks after round 2 (server s-ood): no rehearsal ${pct(await success(S_OOD_SURFACE, 'demos', await memoryOf(without)))}, rehearsal ${pct(await success(S_OOD_SURFACE, 'demos', await memoryOf(withReplay)))}`,
);

// Table 2's ablations as exploration options on s-ood (plus the paper's long-term memory at every trial).
const oodTools = steTargetTools(S_OOD_SURFACE);
console.log(
  "\nTable 2 ablations as exploration options (server s-ood, every tool; success: greedy with the run's demonstrations on the s-ood tasks):\n",
);
console.log('| exploration | trials | reflection said solved | kept by the filter | exemplars | success |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [label, options] of [
  ['STE (defaults)', {}],
  ['long-term memory at every trial (paper text)', { longTermMemory: 'trial' }],
  ['− execution feedback', { executionFeedback: false }],
  ['− short-term memory (60 episodes of 1 trial)', { shortTermMemory: false }],
  ['− long-term memory', { longTermMemory: 'off' }],
  ['− self-reflection', { selfReflection: false }],
] as const) {
  const run = await exploreRun(S_OOD_SURFACE, oodTools, 's-ood', options);
  const rate = await success(S_OOD_SURFACE, 'demos', await memoryOf(run.exemplars));
  const solved = label === '− self-reflection' ? '—' : pct(run.solved / run.trials);
  console.log(
    `| ${label} | ${run.trials} | ${solved} | ${pct(run.kept / run.trials)} | ${run.exemplars.length} | ${pct(rate)} |`,
  );
}
