/**
 * `npm run eval:draft-retrieval`: retrieval with raw vs DRAFT documentation (issue 16; the shape of the DRAFT
 * paper's Table 3, ../shared/spec/draft.md "Reported figures"). The documentation was refined by the simulated
 * policy (tooldrift-sim-v1): every figure describes simulator-refined documentation, not a language model's.
 *
 * For each drifted server surface (s-ood and one generated surface), DRAFT (paper settings — φ and Δ on USE lite,
 * DRAFT's default encoder in Node —, the simulator's `static` preset, seeded — the setup of `npm run eval:draft`)
 * refines the stale P_c documentation. The
 * surface's explored tools are then put in a pool of seeded synthetic-catalog distractors (1,000 and 10,000),
 * documented once with the raw P_c lines and once with DRAFT's lines (core/draft/retrieval.ts), and the task
 * questions are ranked by bm25, dense (the lexical encoder, or USE with EVAL_ENCODER=use) and hybrid. Gold: every tool the task's reference
 * plan calls (binary relevance, Finish excluded).
 * Environment: EVAL_ENCODER (lexical | use; default lexical), EVAL_TASKS_PER_GROUP (default 10: 150 questions), EVAL_SEED (default eval), EVAL_POOLS (default 1000,10000).
 */

import { ENCODER_IDS, type EncoderId, loadEncoder } from '../cli/retrieval/encoders.ts';
import { docRetrievalPools } from '../core/draft/retrieval.ts';
import { type RankerId, runBench } from '../core/retrieval/bench.ts';
import { syntheticCatalog } from '../core/retrieval/catalog.ts';
import type { Tool } from '../core/retrieval/types.ts';
import { SIM_MODEL_LABEL } from '../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../core/surfaces/builtin.ts';
import { draftEvalSetup, simDraftDocs } from './lib/draft-eval-setup.ts';

const perGroup = Number(process.env.EVAL_TASKS_PER_GROUP ?? 10);
const seed = process.env.EVAL_SEED ?? 'eval';
const poolSizes = (process.env.EVAL_POOLS ?? '1000,10000').split(',').map(Number);
const { world, tasks, generated: GENERATED } = await draftEvalSetup(perGroup);
const RANKERS: RankerId[] = ['bm25', 'dense', 'hybrid'];
const largest = Math.max(...poolSizes);
const catalog = syntheticCatalog({
  seed: `draft-retrieval-${seed}`,
  tools: largest,
  seenTools: 0,
  trainPerTool: 0,
  dev: 0,
  testSeen: 0,
  testUnseen: 0,
}).tools.map(({ name, description, parameters }): Tool => ({ name, description, parameters }));
const encoderId = (process.env.EVAL_ENCODER ?? 'lexical') as EncoderId;
if (!ENCODER_IDS.includes(encoderId))
  throw new RangeError(`EVAL_ENCODER must be one of ${ENCODER_IDS.join(', ')}`);
// The retrieval encoder (lexical IDF fitted on the distractors, shared by both pools; cached, so the distractors
// are embedded once). DRAFT itself measures diversity and Δ with the plain lexical encoder, as eval:draft does.
const encoder = await loadEncoder(encoderId, catalog);

const pct = (x: number) => x.toFixed(1);
console.log(
  `Retrieval with raw vs DRAFT documentation — simulator-refined: DRAFT ran with ${SIM_MODEL_LABEL};`,
);
console.log(
  `encoder ${encoder.provider}/${encoder.model}; ${tasks.length} task questions; gold: all tools of the reference plan; seed ${seed}`,
);
console.log('');
console.log('| server surface | pool | ranker | NDCG@1 raw | NDCG@1 DRAFT | NDCG@10 raw | NDCG@10 DRAFT |');
console.log('|---|---:|---|---:|---:|---:|---:|');
for (const server of [S_OOD_SURFACE, GENERATED]) {
  const docset = await simDraftDocs(world, server, { seed });
  const documented = docRetrievalPools(docset, PC_SURFACE, tasks, []).documented.length;
  for (const size of poolSizes) {
    const built = docRetrievalPools(docset, PC_SURFACE, tasks, catalog.slice(0, size - documented));
    const [raw, draft] = await Promise.all(
      [built.raw, built.draft].map((tools) =>
        runBench({ tools, sets: { tasks: built.queries }, rankers: RANKERS, encoder }),
      ),
    );
    for (const r of RANKERS) {
      const a = raw?.rankers[r]?.sets.tasks;
      const b = draft?.rankers[r]?.sets.tasks;
      if (!a || !b) throw new Error(`no scores for ${r}`);
      console.log(
        `| ${server.id} | ${raw?.pool} | ${r} | ${pct(a.ndcg1)} | ${pct(b.ndcg1)} | ${pct(a.ndcg10)} | ${pct(b.ndcg10)} |`,
      );
    }
  }
}
