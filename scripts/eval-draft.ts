/**
 * `npm run eval:draft`: the DRAFT evaluation of issue 16 with the simulated policy — every number describes the
 * simulator (tooldrift-sim-v1), not a language model.
 *
 * For each drifted server surface (s-in, s-ood and one generated surface), the same greedy ReAct agent
 * (temperature 0, the simulator's `static` preset: a capable model not trained to adapt) answers the same tasks
 * with these documentations: the stale P_c documentation (the ToolQA-D setting), DRAFT documentation refined by
 * the same simulator exploring that surface (paper settings; φ and Δ on USE lite, the `auto` encoder in Node), the
 * paper's two ablations (w/o diversity-promoting exploration, w/o tool-adaptive termination), tooldrift's
 * `failedRewrite: retry`, and DRAFT with the lexical encoder; the surface's own documentation is the reference. It
 * prints success rates, the model calls DRAFT spent per tool, and how many explored tools ended unconfirmed
 * (`rewrite-failed` / `no-success`) and how many are left out of the agent's prompt because the server does not
 * serve their documented names.
 * Environment: EVAL_TASKS_PER_GROUP (default 3), EVAL_SEED (default eval).
 */

import { runReactEpisode } from '../core/agents/react-loop.ts';
import type { resolveDraftOptions } from '../core/draft/config.ts';
import { type DocSet, entryFlags } from '../core/draft/docset.ts';
import { docsetPromptSurface } from '../core/draft/render.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../core/sim/index.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../core/surfaces/builtin.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { draftEvalSetup, simDraftDocs } from './lib/draft-eval-setup.ts';

const perGroup = Number(process.env.EVAL_TASKS_PER_GROUP ?? 3);
const seed = process.env.EVAL_SEED ?? 'eval';
const { world, tasks, generated: GENERATED } = await draftEvalSetup(perGroup);

async function success(server: Surface, docs: Surface): Promise<number> {
  const model = createSimModel({ preset: 'static' });
  let correct = 0;
  for (const task of tasks) {
    const e = await runReactEpisode({ model, world, task, surface: server, docs, temperature: 0 });
    if (e.correct) correct++;
  }
  return correct / tasks.length;
}

function draftDocs(server: Surface, options: Parameters<typeof resolveDraftOptions>[0]): Promise<DocSet> {
  return simDraftDocs(world, server, { seed, ...options });
}

function callsPerTool(set: DocSet): string {
  const explored = set.tools.filter((t) => t.stop !== 'not-explored');
  return (explored.reduce((s, t) => s + t.modelCalls, 0) / explored.length).toFixed(1);
}

/** `unconfirmed / left out` of the explored tools (stop rewrite-failed or no-success / flagged not-served). */
function flaggedCounts(set: DocSet): string {
  const explored = set.tools.filter((t) => t.stop !== 'not-explored');
  const unconfirmed = explored.filter((t) => t.stop === 'rewrite-failed' || t.stop === 'no-success').length;
  const out = explored.filter((t) => entryFlags(t).includes('not-served')).length;
  return `${unconfirmed} / ${out}`;
}

console.log(
  `DRAFT evaluation — ${SIM_MODEL_LABEL}; greedy agent (static preset), ${tasks.length} tasks per row; seed ${seed}`,
);
console.log('');
console.log(
  '| server surface | documentation | success | DRAFT model calls per tool | explored tools unconfirmed / left out |',
);
console.log('|---|---|---:|---:|---:|');
for (const server of [S_IN_SURFACE, S_OOD_SURFACE, GENERATED]) {
  const rows: [string, number, string, string][] = [];
  rows.push(['stale P_c documentation', await success(server, PC_SURFACE), '—', '—']);
  for (const [label, options] of [
    ['DRAFT', {}],
    ['DRAFT w/o diversity', { diversity: false }],
    ['DRAFT w/o adaptive termination', { adaptiveTermination: false }],
    ['DRAFT, failedRewrite: retry (tooldrift)', { failedRewrite: 'retry' }],
    ['DRAFT, lexical encoder', { encoder: 'lexical' }],
  ] as const) {
    const set = await draftDocs(server, options);
    rows.push([
      label,
      await success(server, docsetPromptSurface(set, PC_SURFACE)),
      callsPerTool(set),
      flaggedCounts(set),
    ]);
  }
  rows.push(["the surface's own documentation (reference)", await success(server, server), '—', '—']);
  for (const [label, rate, calls, flagged] of rows) {
    console.log(`| ${server.id} | ${label} | ${(rate * 100).toFixed(1)}% | ${calls} | ${flagged} |`);
  }
}
