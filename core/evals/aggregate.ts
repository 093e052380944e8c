/**
 * Aggregates of an evaluation's task runs, shaped like ToolEvo's Tables 2–5 (one row per method × surface,
 * one column per dataset × difficulty, plus averages) and its Table 7 (error taxonomy), and the comparison of
 * a scheduled run with the previous run of its schedule.
 *
 * Success rates count finished task runs only (`done`), so a running evaluation shows rates so far; runs that
 * could not be run (`run-error`) count as failures in the rates but are kept out of the taxonomy.
 *
 * Averages are computed the paper's way: every average in ToolEvo's Tables 2–5 is the plain mean of the
 * per-dataset success rates (spec §10; each dataset × difficulty cell weighs the same, whatever its number of
 * questions — coffee-hard has 130). The average over questions (pooled) is kept as a second column (`pooled*`).
 * Columns are in the paper's order (spec §10: Agenda, Airbnb, Coffee, Dblp, Flights, Scirex, Yelp;
 * TABLE_DATASET_ORDER), easy before hard within each. GSM8K is not in the paper's tables: when a suite asks for it,
 * its column comes last and stays outside `average*` (the pooled rate counts every question, GSM8K's too).
 *
 * Deliberate differences from ToolQA-D:
 * - Averages leave out cells with no finished task run (a running or partial evaluation), so a row's average is
 *   over the cells that have a rate.
 * - GSM8K, which the paper's tables do not have, can be added as a last column (outside the averages), and the
 *   `pooled*` rates over questions are tooldrift's.
 */
import type { Difficulty, EvalMethod, EvalSuite } from './suite.ts';
import { PAPER_TABLE_DATASETS, tableColumns } from './suite.ts';
import {
  BUDGET_EXHAUSTED,
  ERROR_CATEGORIES,
  ERROR_GROUPS,
  type ErrorCategory,
  type ErrorGroup,
  errorGroup,
  RUN_ERROR,
} from './taxonomy.ts';

export interface ResultRow {
  method: string;
  surface: string;
  dataset: string;
  difficulty: string;
  correct: boolean;
  errorClass: string | null;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

export interface TableCell {
  dataset: string;
  difficulty: Difficulty;
  /** Task runs planned for this cell. */
  total: number;
  done: number;
  correct: number;
  successRate: number | null;
}

export interface TableRow {
  method: EvalMethod;
  surface: string;
  cells: TableCell[];
  /**
   * Mean of the cells' success rates over the paper's seven datasets (the paper's average; GSM8K and cells without
   * a finished run are left out).
   */
  average: number | null;
  averageEasy: number | null;
  averageHard: number | null;
  /** Correct / done over all questions of the row (tooldrift's earlier average). */
  pooled: number | null;
  pooledEasy: number | null;
  pooledHard: number | null;
}

export interface TaxonomyRow {
  method: EvalMethod;
  surface: string;
  failures: number;
  runErrors: number;
  /** Searches stopped by the suite's model-call cap without an answer (not counted as wrong answers). */
  budgetExhausted: number;
  counts: Record<ErrorCategory, number>;
  /** Failures per top-level type (ERROR_GROUPS). */
  groups: Record<ErrorGroup, number>;
}

export interface EvalAggregates {
  columns: { dataset: string; difficulty: Difficulty }[];
  table: TableRow[];
  taxonomy: { categories: typeof ERROR_CATEGORIES; groups: typeof ERROR_GROUPS; rows: TaxonomyRow[] };
  usage: { modelCalls: number; inputTokens: number; outputTokens: number; latencyMs: number };
  /** Correct / done over the whole evaluation, null before the first run finishes. */
  successRate: number | null;
  done: number;
}

function rate(correct: number, done: number): number | null {
  return done === 0 ? null : correct / done;
}

/** The paper's average: the plain mean of per-dataset rates (null when no cell has a finished run). */
export function meanRate(rates: readonly number[]): number | null {
  return rates.length === 0 ? null : rates.reduce((a, b) => a + b, 0) / rates.length;
}

function cellKey(method: string, surface: string, dataset: string, difficulty: string): string {
  return `${method}\u0000${surface}\u0000${dataset}\u0000${difficulty}`;
}

/**
 * @param planned task runs planned per (dataset, difficulty) for each method × surface (fewer than the sample
 *   size when the split has fewer tasks).
 */
export function aggregate(
  suite: EvalSuite,
  planned: ReadonlyMap<string, number>,
  rows: readonly ResultRow[],
): EvalAggregates {
  const columns = tableColumns(suite);
  const counts = new Map<string, { done: number; correct: number }>();
  const usage = { modelCalls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 };
  const taxonomy = new Map<string, TaxonomyRow>();
  for (const method of suite.methods)
    for (const surface of suite.surfaces) {
      taxonomy.set(`${method}\u0000${surface}`, {
        method,
        surface,
        failures: 0,
        runErrors: 0,
        budgetExhausted: 0,
        counts: Object.fromEntries(ERROR_CATEGORIES.map((c) => [c.id, 0])) as Record<ErrorCategory, number>,
        groups: Object.fromEntries(ERROR_GROUPS.map((g) => [g.id, 0])) as Record<ErrorGroup, number>,
      });
    }
  let done = 0;
  let correct = 0;
  for (const r of rows) {
    const key = cellKey(r.method, r.surface, r.dataset, r.difficulty);
    const c = counts.get(key) ?? { done: 0, correct: 0 };
    c.done++;
    done++;
    if (r.correct) {
      c.correct++;
      correct++;
    }
    counts.set(key, c);
    usage.modelCalls += r.modelCalls;
    usage.inputTokens += r.inputTokens;
    usage.outputTokens += r.outputTokens;
    usage.latencyMs += r.latencyMs;
    const t = taxonomy.get(`${r.method}\u0000${r.surface}`);
    if (t && !r.correct) {
      if (r.errorClass === RUN_ERROR) t.runErrors++;
      else if (r.errorClass === BUDGET_EXHAUSTED) t.budgetExhausted++;
      else if (r.errorClass && r.errorClass in t.counts) {
        t.failures++;
        t.counts[r.errorClass as ErrorCategory]++;
        t.groups[errorGroup(r.errorClass as ErrorCategory)]++;
      }
    }
  }
  const table: TableRow[] = [];
  for (const method of suite.methods)
    for (const surface of suite.surfaces) {
      const sums = { all: [0, 0], easy: [0, 0], hard: [0, 0] } as Record<string, [number, number]>;
      const rates: Record<string, number[]> = { all: [], easy: [], hard: [] };
      const cells = columns.map((col): TableCell => {
        const c = counts.get(cellKey(method, surface, col.dataset, col.difficulty)) ?? {
          done: 0,
          correct: 0,
        };
        const inAverage = PAPER_TABLE_DATASETS.includes(col.dataset as never);
        for (const k of ['all', col.difficulty]) {
          const s = sums[k] as [number, number];
          s[0] += c.correct;
          s[1] += c.done;
          if (c.done > 0 && inAverage) rates[k]?.push(c.correct / c.done);
        }
        return {
          ...col,
          total: planned.get(`${col.dataset}\u0000${col.difficulty}`) ?? 0,
          done: c.done,
          correct: c.correct,
          successRate: rate(c.correct, c.done),
        };
      });
      const pooled = (k: string) => {
        const [c, d] = sums[k] as [number, number];
        return rate(c, d);
      };
      table.push({
        method,
        surface,
        cells,
        average: meanRate(rates.all ?? []),
        averageEasy: meanRate(rates.easy ?? []),
        averageHard: meanRate(rates.hard ?? []),
        pooled: pooled('all'),
        pooledEasy: pooled('easy'),
        pooledHard: pooled('hard'),
      });
    }
  return {
    columns,
    table,
    taxonomy: { categories: ERROR_CATEGORIES, groups: ERROR_GROUPS, rows: [...taxonomy.values()] },
    usage,
    successRate: rate(correct, done),
    done,
  };
}

export interface Drop {
  method: string;
  surface: string;
  /** null for a row average. */
  dataset: string | null;
  difficulty: string | null;
  previous: number;
  current: number;
  delta: number;
}

/**
 * Drops of more than `threshold` (absolute success rate) from `previous` to `current`: each method × surface
 * average, and each cell both runs have results for. Rows or cells only one run has are not compared.
 */
export function compareTables(
  previous: readonly TableRow[],
  current: readonly TableRow[],
  threshold: number,
): Drop[] {
  const drops: Drop[] = [];
  // A small epsilon keeps a drop of exactly the threshold (in binary floating point) from being flagged.
  const beyond = (p: number, c: number) => p - c > threshold + 1e-9;
  for (const row of current) {
    const before = previous.find((r) => r.method === row.method && r.surface === row.surface);
    if (!before) continue;
    if (before.average !== null && row.average !== null && beyond(before.average, row.average)) {
      drops.push({
        method: row.method,
        surface: row.surface,
        dataset: null,
        difficulty: null,
        previous: before.average,
        current: row.average,
        delta: row.average - before.average,
      });
    }
    for (const cell of row.cells) {
      const old = before.cells.find((c) => c.dataset === cell.dataset && c.difficulty === cell.difficulty);
      if (!old || old.successRate === null || cell.successRate === null) continue;
      if (beyond(old.successRate, cell.successRate)) {
        drops.push({
          method: row.method,
          surface: row.surface,
          dataset: cell.dataset,
          difficulty: cell.difficulty,
          previous: old.successRate,
          current: cell.successRate,
          delta: cell.successRate - old.successRate,
        });
      }
    }
  }
  return drops;
}
