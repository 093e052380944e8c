/**
 * The response shapes the CLI reads, as the API serves them (functions/routes/evals.ts, schedules.ts,
 * explorations.ts; /openapi.json). Times are ISO 8601 strings. Only the members the CLI uses are listed.
 */
import type { Drop, TableCell, TableRow } from '../core/evals/aggregate.ts';
import type { Difficulty } from '../core/evals/suite.ts';

export type { Difficulty };

export interface EvalSummary {
  id: string;
  name: string | null;
  status: 'running' | 'done' | 'cancelled';
  createdAt: string;
  finishedAt: string | null;
  scheduleId: string | null;
  dueTime: string | null;
  progress: { done: number; total: number };
  successRate: number | null;
  flagged: boolean;
}

/** A cell and a row of the results table, as core/evals/aggregate.ts computes them for the API. */
export type EvalCell = TableCell;
export type EvalRow = Omit<TableRow, 'pooled' | 'pooledEasy' | 'pooledHard'> &
  Partial<Pick<TableRow, 'pooled' | 'pooledEasy' | 'pooledHard'>>;

export interface EvalDetail extends EvalSummary {
  suite: Record<string, unknown>;
  model: { provider: string; name: string; simulated: boolean };
  columns: { dataset: string; difficulty: Difficulty }[];
  table: EvalRow[];
  taxonomy: {
    categories: { id: string; label: string; rule: string; group?: string }[];
    groups?: { id: string; label: string }[];
    rows: {
      method: string;
      surface: string;
      /** Failed task runs, each in exactly one category. */
      failures: number;
      /** Task runs that could not run to an answer (infrastructure errors), outside the taxonomy. */
      runErrors?: number;
      /** Searches stopped by the suite's model-call cap without an answer, outside the taxonomy. */
      budgetExhausted?: number;
      counts: Record<string, number>;
      /** Failures per top-level type. */
      groups?: Record<string, number>;
    }[];
  };
  usage: { modelCalls: number; inputTokens: number; outputTokens: number; latencyMs: number };
  comparison: null | {
    previousEvalId: string;
    threshold: number;
    flagged: boolean;
    drops: Drop[];
  };
}

export interface EvalCreated {
  id: string;
  status: 'running';
  progress: { done: number; total: number };
  links: { self: string; results: string };
}

export interface Schedule {
  id: string;
  name: string;
  cron: string;
  suite: Record<string, unknown>;
  threshold: number;
  enabled: boolean;
  createdAt: string;
  nextDueAt: string | null;
  lastRun: EvalSummary | null;
}

export interface Exploration {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  trees: number;
  counts: { queued: number; running: number; done: number; failed: number; cancelled: number };
  solved: number;
  successRate: number | null;
  usage: { nodes: number; iterations: number; modelCalls: number; inputTokens: number; outputTokens: number };
  config: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  links: Record<string, string>;
}

/** An STE run as GET /v1/ste/runs/{id} returns it (functions/routes/ste.ts SteRunView). */
export interface SteRun {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  surface: string;
  surfaceVersion: string;
  docs: string;
  since: string | null;
  trigger: string | null;
  progress: {
    tools: number;
    toolsDone: number;
    trialsDone: number;
    trialsTotal: number;
    exemplars: number;
    modelCalls: number;
  };
  tools: {
    tool: string;
    status: SteRun['status'];
    phase: string;
    trialsDone: number;
    trialsTotal: number;
    solved: number;
    kept: number;
    dropped: number;
    exemplars: number;
    modelCalls: number;
    error: string | null;
  }[];
  /** The resolved request; `heldOutQueries` on an imported API (its evaluation queries, never exemplars). */
  config: Record<string, unknown> & { heldOutQueries?: number };
  createdAt: string;
  updatedAt: string;
  links: Record<string, string>;
}

export interface SteExemplar {
  id: string;
  run: string;
  surface: string;
  surfaceVersion: string;
  tool: string;
  query: string;
  action: string;
  actionInput: string;
  observation: string;
  finalAnswer: string;
  paraphraseOf: string | null;
  episode: number;
  trial: number;
  createdAt: string;
}

/** A page of any list the API answers: its items and the `cursor` of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
