/**
 * A method over a query set of an imported API (issue 23 §4, in one process): every item answered by a method that
 * runs on APIs (`runApi`) on one server surface with one documentation and one aid configuration, each episode in a
 * fresh session of the API's mock, and the results the DRAFT paper's Table 1 reports — Correct Path Rate in both
 * definitions (the paper's ordered subsequence, the released code's set containment), success where the set has gold
 * answers, and calls per query, and the Table 7-style taxonomy of the failures computed as for ToolQA-D runs. Used by
 * `npm run eval:restbench`, tests and the edge's queue-fanned API suites (edge/jobs/api-eval-group.ts, one query at a
 * time), which store each result with the raw calls it was scored from (`apiCalls`) and rebuild the report from
 * the rows (`summarizeApiResults`, api-table.ts).
 *
 * The input is a plain object, so a caller passes a validated suite's fields through (core/evals/api-suite.ts):
 * - `method` — an id of the registry that runs on APIs (`greedy`, `greedy-memory`, `react-reflexion`, `mcts`,
 *   `mcts-oracle`); another is refused with `MethodNotOnApiError`;
 * - `options` — the method's options, the suite's member named by the method's id (`suiteMethodOptions`), validated
 *   with the method's schema (default: its defaults), e.g. `{simulations, k, maxDepth}` for the searches;
 * - `docs` — the documentation the prompt shows, resolved from the suite's `docs` choice (core/aids/api-docs.ts
 *   `resolveApiDocs`: imported / surface / docset / description file);
 * - `aids` — one of the suite's `aids` rows: `{}` or `{toolPool: {pool: 'candidates' | 'all', k, ranker}}` (the
 *   pool of an item is its `meta.candidates` or every documented tool, core/aids/api-pool.ts; needs `docs.tools`);
 * - `maxSteps` — the ReAct methods' step budget (the searches use their `maxDepth`); `seed` — seeds every item's
 *   model calls and search (`<seed>/<index>`).
 */

import { apiToolPool } from '../aids/api-pool.ts';
import type { MockWorld } from '../apis/mock/world.ts';
import type { QueryItem } from '../apis/querysets.ts';
import type { ApiSurface } from '../apis/surface/model.ts';
import type { ApiCatalog } from '../apis/types.ts';
import type { EvalStep } from '../methods/method.ts';
import type { MethodId } from '../methods/registry.ts';
import { getMethod } from '../methods/registry.ts';
import type { TextModel } from '../models/types.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';
import type { ApiRef, ApiStepDeps } from '../sessions/api.ts';
import type { ApiCallRecord } from '../sessions/api-state.ts';
import type { SessionProgress } from '../sessions/episode.ts';
import { apiTarget } from '../sessions/targets.ts';
import { hash128 } from '../util/random.ts';
import { type ApiAidsChoice, itemCandidates } from './api-suite.ts';
import { classifyRun } from './taxonomy.ts';

/** Thrown for a method without an API run (the Table 5 ablations: see `runsOnApi`). */
export class MethodNotOnApiError extends Error {
  constructor(readonly method: string) {
    super(`method ${method} does not run on imported APIs (it runs on the ToolQA-D kernel only)`);
    this.name = 'MethodNotOnApiError';
  }
}

export interface ApiQueryRunInput {
  method: MethodId;
  model: TextModel;
  api: ApiRef;
  catalog: ApiCatalog;
  world: MockWorld;
  /** How the API answers (default: the seeded mock). */
  backend?: ApiStepDeps['backend'];
  server: ApiSurface;
  docs: ApiPromptDocs;
  /** The method's options (the suite's member named by its id); default: the method's defaults. */
  options?: unknown;
  /** One aid configuration (a suite's `aids` row); default none. */
  aids?: ApiAidsChoice;
  items: readonly QueryItem[];
  maxSteps?: number;
  seed: string;
  now: Date;
  signal?: AbortSignal;
}

export interface ApiQueryResult {
  index: number;
  correctPath: { subsequence: boolean; set: boolean } | null;
  correct: boolean | null;
  /** Steps that were not Finish. */
  calls: number;
  ending: string;
  /**
   * The Table 7 label of a failed run (`taxonomy.ts`, from the trajectory alone), null for a success: the answer
   * when the item has a gold answer, else the path (the paper's subsequence definition).
   */
  failure: string | null;
  /** The Finish answer as text (null when the episode ended without one). */
  answer: string | null;
  /** The gold path in the base API's operation names (what `correctPath` compares the calls with). */
  goldPath: string[];
  /** Every call that reached an operation, as the session recorded it (base operation, exposed call, status). */
  apiCalls: ApiCallRecord[];
  /** The trajectory as the method returned it. */
  steps: EvalStep[];
}

export interface ApiQueryReport {
  results: ApiQueryResult[];
  /** Percentages over the items with a gold path (one decimal). */
  correctPath: { subsequence: number; set: number; n: number };
  /** Percentage of correct answers over the items with a gold answer; null when none has one. */
  success: number | null;
  callsPerQuery: number;
  /** Failed runs per Table 7 label. */
  taxonomy: Record<string, number>;
  model: string;
}

const pct = (x: number, n: number) => (n === 0 ? 0 : Math.round((1000 * x) / n) / 10);

export async function runApiQueries(input: ApiQueryRunInput): Promise<ApiQueryReport> {
  const method = getMethod(input.method);
  if (!method.runApi) throw new MethodNotOnApiError(input.method);
  const results: ApiQueryResult[] = [];
  let model = input.model.model;
  const options = method.options.parse(input.options ?? {});
  const pooled = input.aids?.toolPool;
  for (const item of input.items) {
    const target = apiTarget({
      api: input.api,
      server: { kind: 'surface', surface: input.server },
      deps: { catalog: input.catalog, world: input.world, backend: input.backend ?? { mode: 'seeded' } },
      now: input.now,
      query: { text: item.query, index: item.index, gold: item.gold },
    });
    // The session's last progress, for the raw calls it recorded (the method sees the target unchanged).
    let last: SessionProgress | null = null;
    const step = target.step.bind(target);
    target.step = async (env, input) => {
      const r = await step(env, input);
      last = r.env;
      return r;
    };
    const outcome = await method.runApi({
      query: { question: item.query },
      target,
      docs: input.docs,
      options,
      model: input.model,
      aids: {
        updateMemory: [],
        ...(pooled ? { toolPool: apiToolPool(input.docs, pooled, itemCandidates(item)) } : {}),
      },
      limits: { maxSteps: input.maxSteps ?? 20 },
      seeds: {
        model: hash128(`${input.seed}/${item.index}`)[0] as number,
        search: `${input.seed}/${item.index}`,
      },
      now: input.now,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    model = outcome.model;
    const correctPath = outcome.api?.correctPath ?? null;
    const correct = outcome.api?.correct ?? null;
    const success = correct ?? correctPath?.subsequence ?? false;
    results.push({
      index: item.index,
      correctPath,
      correct,
      calls: outcome.steps.filter((s) => s.action !== 'Finish').length,
      ending: outcome.ending,
      failure: classifyRun({ correct: success, ending: outcome.ending, steps: outcome.steps }),
      answer: outcome.answer,
      goldPath: item.gold.path.map((g) => g.operation),
      apiCalls: (last as SessionProgress | null)?.api?.calls ?? [],
      steps: outcome.steps,
    });
  }
  return { ...summarizeApiResults(results), results, model };
}

/**
 * The report's figures over per-item results (runApiQueries, and the edge's stored rows of a queue-fanned suite):
 * Correct Path Rate in both definitions over the items with a gold path, success over those with a gold answer,
 * calls per query, failures per Table 7 label.
 */
export function summarizeApiResults(
  results: readonly {
    correctPath: ApiQueryResult['correctPath'];
    correct: boolean | null;
    /** Steps that were not Finish. */
    calls: number;
    failure: string | null;
  }[],
): Omit<ApiQueryReport, 'results' | 'model'> {
  const scored = results.filter((r) => r.correctPath !== null);
  const judged = results.filter((r) => r.correct !== null);
  return {
    correctPath: {
      subsequence: pct(scored.filter((r) => r.correctPath?.subsequence).length, scored.length),
      set: pct(scored.filter((r) => r.correctPath?.set).length, scored.length),
      n: scored.length,
    },
    success: judged.length > 0 ? pct(judged.filter((r) => r.correct).length, judged.length) : null,
    taxonomy: results.reduce<Record<string, number>>((t, r) => {
      if (r.failure !== null) t[r.failure] = (t[r.failure] ?? 0) + 1;
      return t;
    }, {}),
    callsPerQuery:
      results.length === 0
        ? 0
        : Math.round((100 * results.reduce((s, r) => s + r.calls, 0)) / results.length) / 100,
  };
}
