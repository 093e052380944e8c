/**
 * The results table of an evaluation over an imported API's query set (issue 23 §4), from its stored per-query rows:
 * one row per method × surface × documentation with DRAFT Table 1's figures — Correct Path Rate in both definitions
 * (the paper's ordered subsequence, the released code's set containment), success where the items have gold
 * answers, calls per query (`summarizeApiResults`, as `runApiQueries` reports them) — and the Table 7-style taxonomy
 * counted as for ToolQA-D runs (`aggregate.ts`: runs that could not be carried out, `run-error`, count as failures in
 * the rates and apart from the taxonomy's labels).
 */
import type { EvalAggregates, TaxonomyRow } from './aggregate.ts';
import { summarizeApiResults } from './api-queries.ts';
import type { ApiAidsChoice, ApiDocsChoice } from './api-suite.ts';
import {
  BUDGET_EXHAUSTED,
  ERROR_CATEGORIES,
  ERROR_GROUPS,
  type ErrorCategory,
  type ErrorGroup,
  errorGroup,
  RUN_ERROR,
} from './taxonomy.ts';

/** What a group of the plan is: one method on one surface with one documentation and aid, over the chosen items. */
export interface ApiEvalGroup {
  method: string;
  surface: string;
  /** `imported`, `surface`, `docset:<id>` or `description:<id>` (`apiDocsKey`). */
  docs: string;
  /** `none` or the aid row as JSON (`apiAidsKey`). */
  aids: string;
  /** Query-set item indices, in order. */
  items: number[];
}

/** A stored query run as the table reads it. */
export interface ApiResultRow {
  method: string;
  surface: string;
  docs: string;
  aids: string;
  /** Null: the item has no gold answer. */
  correct: boolean | null;
  /** Null: the item has no gold path. */
  pathSubsequence: boolean | null;
  pathSet: boolean | null;
  calls: number;
  errorClass: string | null;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

export interface ApiTableRow {
  method: string;
  surface: string;
  docs: string;
  aids: string;
  total: number;
  done: number;
  /** Percent over the finished runs whose item has a gold path (one decimal); null before any. */
  correctPath: { subsequence: number | null; set: number | null; n: number };
  /** Percent of correct answers over finished runs whose item has a gold answer; null when none has one. */
  success: number | null;
  callsPerQuery: number | null;
}

/** A ToolQA-D taxonomy row (aggregate.ts) of one method × surface × documentation × aid group. */
export type ApiTaxonomyRow = Omit<TaxonomyRow, 'method'> & {
  method: string;
  docs: string;
  aids: string;
};

export interface ApiEvalTable {
  table: ApiTableRow[];
  taxonomy: { categories: typeof ERROR_CATEGORIES; groups: typeof ERROR_GROUPS; rows: ApiTaxonomyRow[] };
  usage: EvalAggregates['usage'];
  /** Successful runs over finished ones (the answer where the item has a gold answer, else the path); null before any. */
  successRate: number | null;
  done: number;
}

/** A documentation choice as one string (result rows and group keys). */
export function apiDocsKey(docs: ApiDocsChoice): string {
  if (typeof docs === 'string') return docs;
  return 'docset' in docs ? `docset:${docs.docset}` : `description:${docs.description}`;
}

/** An aid row as one string: `none`, or its JSON with its keys sorted (result rows and group keys). */
export function apiAidsKey(aids: ApiAidsChoice): string {
  if (Object.keys(aids).length === 0) return 'none';
  const sorted = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
        )
      : v;
  return JSON.stringify(sorted(aids));
}

/** A run's success as the summaries count it: its answer where the item has a gold answer, else its path. */
export function apiRunSuccess(r: Pick<ApiResultRow, 'correct' | 'pathSubsequence'>): boolean {
  return r.correct ?? r.pathSubsequence ?? false;
}

const key = (r: Pick<ApiResultRow, 'method' | 'surface' | 'docs' | 'aids'>) =>
  `${r.method}\u0000${r.surface}\u0000${r.docs}\u0000${r.aids}`;

export function apiEvalTable(groups: readonly ApiEvalGroup[], rows: readonly ApiResultRow[]): ApiEvalTable {
  const byGroup = new Map<string, ApiResultRow[]>();
  for (const g of groups) byGroup.set(key(g), []);
  const usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 };
  let successes = 0;
  for (const r of rows) {
    byGroup.get(key(r))?.push(r);
    usage.modelCalls += r.modelCalls;
    usage.inputTokens += r.inputTokens;
    usage.outputTokens += r.outputTokens;
    usage.latencyMs += r.latencyMs;
    if (apiRunSuccess(r)) successes++;
  }
  const table: ApiTableRow[] = [];
  const taxonomy: ApiTaxonomyRow[] = [];
  for (const g of groups) {
    const done = byGroup.get(key(g)) ?? [];
    const s = summarizeApiResults(
      done.map((r) => ({
        correctPath:
          r.pathSubsequence === null ? null : { subsequence: r.pathSubsequence, set: r.pathSet === true },
        correct: r.correct,
        calls: r.calls,
        failure: r.errorClass,
      })),
    );
    table.push({
      method: g.method,
      surface: g.surface,
      docs: g.docs,
      aids: g.aids,
      total: g.items.length,
      done: done.length,
      correctPath: {
        subsequence: s.correctPath.n === 0 ? null : s.correctPath.subsequence,
        set: s.correctPath.n === 0 ? null : s.correctPath.set,
        n: s.correctPath.n,
      },
      success: s.success,
      callsPerQuery: done.length === 0 ? null : s.callsPerQuery,
    });
    const t: ApiTaxonomyRow = {
      method: g.method,
      surface: g.surface,
      docs: g.docs,
      aids: g.aids,
      failures: 0,
      runErrors: 0,
      budgetExhausted: 0,
      counts: Object.fromEntries(ERROR_CATEGORIES.map((c) => [c.id, 0])) as Record<ErrorCategory, number>,
      groups: Object.fromEntries(ERROR_GROUPS.map((x) => [x.id, 0])) as Record<ErrorGroup, number>,
    };
    for (const r of done) {
      if (apiRunSuccess(r)) continue;
      if (r.errorClass === RUN_ERROR) t.runErrors++;
      else if (r.errorClass === BUDGET_EXHAUSTED) t.budgetExhausted++;
      else if (r.errorClass && r.errorClass in t.counts) {
        t.failures++;
        t.counts[r.errorClass as ErrorCategory]++;
        t.groups[errorGroup(r.errorClass as ErrorCategory)]++;
      }
    }
    taxonomy.push(t);
  }
  return {
    table,
    taxonomy: { categories: ERROR_CATEGORIES, groups: ERROR_GROUPS, rows: taxonomy },
    usage,
    successRate: rows.length === 0 ? null : successes / rows.length,
    done: rows.length,
  };
}
