/**
 * What an agent method is: one module that declares its id, a one-line summary, its options (zod, with
 * defaults), the aid slots it uses (core/aids), whether and how it carries memory from one task to the next, and
 * how it runs one task against the world and a server surface with a model — returning the one task-run shape
 * evaluations store (`EvalOutcome`, plus what `POST /v1/solve` reports). The registry (registry.ts) lists the
 * methods; evaluations, `/v1/solve`, `GET /v1/methods`, the CLI and the dashboard all derive from it.
 */
import type { z } from 'zod';
import type { ApiDocsRetriever } from '../aids/api-pool.ts';
import type { AidSlot, ResolvedAids } from '../aids/index.ts';
import type { TextModel } from '../models/types.ts';
import type { ApiPromptDocs } from '../prompts/toolevo.ts';
import type { ApiScore } from '../sessions/api-state.ts';
import type { ApiStepOutcome } from '../sessions/episode.ts';
import type { ToolTarget } from '../sessions/targets.ts';
import type { StepOutcome } from '../surfaces/adapter.ts';
import type { Surface } from '../surfaces/model.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';

export interface EvalStep {
  text: string;
  observation: string;
  action?: string;
  /** `ok`, `finished:correct|wrong`, `error:<kernel reason>` or `rejected:<surface reason>`. */
  outcome: string;
}

/**
 * How a task run ended: `finish`; `budget` (the greedy step limit, or a search whose answering path ended without a
 * Finish); `empty-generation`; `call-budget` (a search stopped by an explicit model-call cap without a Finish to
 * answer with — reported apart, not as a wrong answer); `open`.
 */
export type EvalEnding = 'finish' | 'budget' | 'empty-generation' | 'call-budget' | 'open';

/** The task-run shape an evaluation stores, the same for every method (aggregates and the taxonomy rely on it). */
export interface EvalOutcome {
  answer: string | null;
  correct: boolean;
  ending: EvalEnding;
  steps: EvalStep[];
  toolUpdates: string[];
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
}

/** A method's run: the stored shape plus what a single solve reports. */
export interface MethodOutcome extends EvalOutcome {
  /** The model as the provider named it in its last answer (the simulator says so). */
  model: string;
  /** UpdateTool lines at the end of the answering path, as the prompt lists them (`(n) …`). */
  newTools: string[];
  /** Tree facts of a search method (null for single-path methods); `ending` is the answering node's own. */
  search: { nodes: number; iterations: number; solutions: number; ending: string | null } | null;
  /** A run on an imported API: Correct Path Rate in both definitions and the answer against the gold answer. */
  api?: ApiScore;
}

export interface MethodTask {
  id?: string;
  question: string;
  /** The task's dataset and difficulty (search methods: the few-shot pool and the `toolevo-code` depth). */
  dataset?: string;
  difficulty?: 'easy' | 'hard';
  /** Finish is judged against it (a free question passes '' and reports `correct` as unknown). */
  gold: Gold;
}

export interface MethodRunInput<O, M = never> {
  task: MethodTask;
  /** The method's options, validated with its schema (defaults filled). */
  options: O;
  model: TextModel;
  world: World;
  /** The surface the server runs. */
  surface: Surface;
  deps: KernelDeps;
  /** What the agent is given (core/aids). */
  aids: ResolvedAids;
  /** The memory carried from the earlier tasks of a group (methods with `memory` only). */
  memory?: M;
  /** Step limit of a single-path method; `maxModelCalls` caps a search (default: the method's own rule). */
  limits: { maxSteps: number; maxModelCalls?: number };
  /** The model choice's temperature; undefined = the method's default. */
  temperature?: number;
  /** Seeds: `model` for model calls of a single path, `search` for a search tree's random choices. */
  seeds: { model: number; search: string };
  now?: Date;
  /** Milliseconds since some origin, for the run's wall time (default Date.now). */
  clock?: () => number;
  signal?: AbortSignal;
}

/**
 * A method's run on an imported API (issue 23 §1): one query answered on the API's tools through an exploration
 * target (`apiTarget`: the API session's step over the mock, scored with Correct Path Rate), the prompt showing
 * `docs` (the API's own documentation, a drifted version's, a DRAFT docset's or an uploaded description file).
 * Of the aids, the demonstrations and the tool pool apply (an API has no UpdateTool, so no tool-update memory);
 * the documentation is `docs`.
 */
export interface ApiMethodRunInput<O, M = never>
  extends Omit<MethodRunInput<O, M>, 'task' | 'world' | 'surface' | 'deps' | 'aids'> {
  query: { question: string };
  /**
   * The aids that apply on an API: the demonstrations, and the toolPool aid's retriever (core/aids/api-pool.ts:
   * when present its documentation — the operations retrieved so far — replaces `docs` at every step).
   */
  aids: Pick<ResolvedAids, 'updateMemory' | 'demonstrations'> & { toolPool?: ApiDocsRetriever };
  target: ToolTarget;
  docs?: ApiPromptDocs;
}

/** How a method carries memory across the tasks of a group (in task order, one surface and cell). */
export interface MethodMemory<M> {
  /** The memory before a group's first task. */
  initial(): M;
  /** The memory after a task run (also replayed from stored runs when a group is redelivered). */
  carry(memory: M, outcome: Pick<EvalOutcome, 'steps' | 'toolUpdates'>): M;
}

export interface AgentMethod<Id extends string = string, O = unknown, M = unknown> {
  id: Id;
  /** One line, shown in GET /v1/methods, the CLI's help and the dashboard. */
  summary: string;
  /** Options with defaults; an empty object schema when the method has none. */
  options: z.ZodType<O>;
  /** The aid slots the method uses; a request for another slot is a 400. */
  aids: readonly AidSlot[];
  /** Null for methods that keep nothing between tasks. */
  memory: MethodMemory<M> | null;
  /**
   * The most model calls one task run makes with these options and limits: what a quota check counts before a
   * solve or an evaluation starts (edge/metering.ts). A bound, not a forecast.
   */
  modelCalls(options: O, limits: MethodRunInput<O, M>['limits']): number;
  run(input: MethodRunInput<O, M>): Promise<MethodOutcome>;
  /** The run on an imported API; absent for methods that run on the kernel only (a suite naming an API refuses them). */
  runApi?(input: ApiMethodRunInput<O, M>): Promise<MethodOutcome>;
}

/** Declares a method, keeping its id literal (so the registry's ids are a union type). */
export function defineMethod<Id extends string, O, M = never>(
  method: AgentMethod<Id, O, M>,
): AgentMethod<Id, O, M> {
  return method;
}

/** A step's outcome as transcripts label it; an imported API's error answer is `error:<status>`. */
export function outcomeLabel(outcome: StepOutcome | ApiStepOutcome | null | undefined): string {
  if (!outcome) return 'none';
  switch (outcome.kind) {
    case 'ok':
      return 'ok';
    case 'finished':
      return outcome.correct === null ? 'finished' : outcome.correct ? 'finished:correct' : 'finished:wrong';
    case 'error':
      return 'status' in outcome ? `error:${outcome.status}` : `error:${outcome.reason}`;
    case 'refused':
      return `refused:${outcome.reason}`;
    case 'rejected':
      return `rejected:${outcome.reason}`;
  }
}

/** Strips the `(n) ` list number the ReAct loop puts in front of an UpdateTool line. */
export function memoryText(line: string): string {
  return line.replace(/^\(\d+\)\s*/, '');
}
