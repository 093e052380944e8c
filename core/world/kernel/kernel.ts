/**
 * The ToolQA-D kernel (P_c tool semantics, spec §3) as a pure function of (world, state, call): every API surface
 * maps its names and parameters onto these 13 kernel tools. `callKernel` never throws; the observation is what the
 * agent sees, already truncated to 1024 whitespace tokens (§3.0 step 5).
 *
 * SQL and Python run in interpreters that other modules provide through `KernelDeps`.
 *
 * Deliberate differences from ToolQA-D:
 * - The Python namespace belongs to the trajectory (`EnvState.python`, handed to `deps.python` and replaced by
 *   what it returns) instead of being one global namespace shared by every branch and question of a worker.
 * - Graph tools: see graph-tools.ts (EdgeCheck does not mutate; PaperNet NeighbourCheck lists titles).
 * - `categories=` regexes: see table-tools.ts.
 * - Finish without a known gold answer (`deps.gold` undefined, a free question) counts as not correct in its
 *   outcome, and its observation says that it was not judged (`Answer is recorded (there is no gold answer to
 *   judge it against)`) rather than claiming the answer was wrong.
 */
import { answerMatches, type NumberRule, pythonStr } from '../answer-match.ts';
import { createPassageIndex, type PassageIndex } from '../retrieval.ts';
import type { Passage, World } from '../types.ts';
import { edgeCheck, type GraphToolOutcome, loadGraph, neighbourCheck, nodeCheck } from './graph-tools.ts';
import {
  ANSWER_CORRECT,
  ANSWER_INCORRECT,
  ANSWER_UNJUDGED,
  DB_NOT_IN_LIST,
  EDGE_ARGUMENTS_WRONG,
  FILTER_ARGUMENTS_WRONG,
  GRAPH_NOT_IN_LIST,
  INVALID_ACTION,
  NEIGHBOUR_ARGUMENTS_WRONG,
  NODE_ARGUMENTS_WRONG,
  PYTHON_PRINT_HINT,
  pythonException,
  pythonWrapperError,
  RETRIEVE_NO_MATCH,
  SQL_ERROR,
  UPDATE_TOOL_FAILED,
  UPDATE_TOOL_SUCCESS,
  VALUE_NOT_EXIST,
} from './messages.ts';
import { pySplit, pyStrip, pyTypeName } from './python-text.ts';
import type { EnvState } from './state.ts';
import { filterDb, getValue, loadDb } from './table-tools.ts';
import {
  fail,
  type KernelErrorReason,
  type KernelRefusalReason,
  ok,
  refused,
  type ToolResult,
} from './tool-result.ts';

export const KERNEL_TOOL_NAMES = [
  'RetrieveAgenda',
  'RetrieveScirex',
  'LoadDB',
  'FilterDB',
  'GetValue',
  'LoadGraph',
  'NeighbourCheck',
  'NodeCheck',
  'EdgeCheck',
  'SQLInterpreter',
  'PythonInterpreter',
  'Finish',
  'UpdateTool',
] as const;
export type KernelToolName = (typeof KERNEL_TOOL_NAMES)[number];

/** The kernel parameter names of each tool (the exact key set P_c requires, §4.2). */
export const KERNEL_TOOL_PARAMS: Readonly<Record<KernelToolName, readonly string[]>> = {
  RetrieveAgenda: ['keyword'],
  RetrieveScirex: ['keyword'],
  LoadDB: ['DBName'],
  FilterDB: ['condition'],
  GetValue: ['column_name'],
  LoadGraph: ['GraphName'],
  NeighbourCheck: ['GraphName', 'Node'],
  NodeCheck: ['GraphName', 'Node'],
  EdgeCheck: ['GraphName', 'Node1', 'Node2'],
  SQLInterpreter: ['SQL'],
  PythonInterpreter: ['Python'],
  Finish: ['answer'],
  UpdateTool: ['newtool_desc'],
};

export interface KernelCall {
  tool: KernelToolName;
  /** Kernel parameter name → JSON-decoded value (strings, PyInt/PyFloat, PyDict, arrays, …). */
  args: Record<string, unknown>;
}

export interface PythonRun {
  /** The interpreter's output before the environment strips it (§3.10 steps 1–6). */
  observation: string;
  /** The namespace after the run. */
  namespace: unknown;
  /** Set when the sandbox refused the program (its budget ran out, or it was too long to run). */
  refused?: Extract<KernelRefusalReason, `python-${string}`>;
}

/** What the SQL sandbox answers: the observation, and why it refused when it did. */
export interface SqlAnswer {
  observation: string;
  refused: Extract<KernelRefusalReason, `sql-${string}`> | null;
}

export interface KernelDeps {
  /**
   * Runs SQL on the world's SQL mirror; resolves to the formatted rows (or to the sandbox's answer with its
   * refusal), rejects when no mirror is attached.
   */
  sql(sql: string): Promise<string | SqlAnswer>;
  /** Runs Python code in the given namespace. */
  python(code: string, namespace: unknown): Promise<PythonRun> | PythonRun;
  /** The question's gold answer (see answer-match.ts for the accepted forms). */
  gold?: unknown;
  /** How Finish compares differing numbers (default ToolEVO's `fall-through`, answer-match.ts). */
  numbers?: NumberRule;
}

/**
 * What a kernel call did: `ok`, `error` (the tool answered with one of its error observations), `refused` (a
 * sandbox — the SQL guard, the Python budget — would not run it; the observation is still the tool's own error
 * text), `finished` (Finish was judged).
 */
export type KernelOutcome =
  | { kind: 'ok' }
  | { kind: 'error'; reason: KernelErrorReason }
  | { kind: 'refused'; reason: KernelRefusalReason }
  | { kind: 'finished'; correct: boolean };

export interface KernelResult {
  state: EnvState;
  observation: string;
  outcome: KernelOutcome;
}

/** What each tool's outermost `except` in the original answers for an unexpected failure. */
const WRAPPER_ERRORS: Readonly<Record<KernelToolName, string>> = {
  RetrieveAgenda: RETRIEVE_NO_MATCH,
  RetrieveScirex: RETRIEVE_NO_MATCH,
  LoadDB: DB_NOT_IN_LIST,
  FilterDB: FILTER_ARGUMENTS_WRONG,
  GetValue: VALUE_NOT_EXIST,
  LoadGraph: GRAPH_NOT_IN_LIST,
  NeighbourCheck: NEIGHBOUR_ARGUMENTS_WRONG,
  NodeCheck: NODE_ARGUMENTS_WRONG,
  EdgeCheck: EDGE_ARGUMENTS_WRONG,
  SQLInterpreter: SQL_ERROR,
  PythonInterpreter: pythonWrapperError('internal error'),
  Finish: ANSWER_INCORRECT,
  UpdateTool: UPDATE_TOOL_FAILED,
};

export const OBSERVATION_TOKEN_LIMIT = 1024;

/**
 * §3.0 step 5: more than 1024 whitespace-separated tokens → the first 1024 joined by single spaces + ` ...`.
 */
export function truncateObservation(observation: string, limit = OBSERVATION_TOKEN_LIMIT): string {
  const tokens = pySplit(observation, limit + 1);
  if (tokens.length <= limit) return observation;
  return `${tokens.slice(0, limit).join(' ')} ...`;
}

const indexes = new WeakMap<readonly Passage[], PassageIndex>();

function passageIndex(passages: readonly Passage[]): PassageIndex {
  let index = indexes.get(passages);
  if (!index) {
    index = createPassageIndex(passages);
    indexes.set(passages, index);
  }
  return index;
}

/** RetrieveAgenda / RetrieveScirex: top-3 passages joined by newlines, stripped. */
function retrieve(state: EnvState, passages: readonly Passage[], keyword: unknown): ToolResult {
  if (typeof keyword !== 'string') return fail(state, RETRIEVE_NO_MATCH, 'no-match');
  const text = passageIndex(passages)
    .search(keyword, 3)
    .map((p) => p.text)
    .join('\n');
  return ok(state, pyStrip(text));
}

function graphResult(state: EnvState, r: GraphToolOutcome): ToolResult {
  if (r.ok) return ok(state, r.observation);
  return fail(state, r.observation, r.unknown ? 'unknown-node' : 'bad-arguments');
}

/**
 * Thrown by a dependency that will not run a call now — the caller already has as many expensive calls (Python, SQL)
 * running as it may. It is the call's refusal, not the tool's failure: the kernel lets it through instead of turning
 * it into an observation, and nothing of the step happened (the caller retries after `retryAfterSeconds`).
 */
export class ToolCallRefused extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'ToolCallRefused';
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function sqlInterpreter(state: EnvState, sql: unknown, deps: KernelDeps): Promise<ToolResult> {
  if (typeof sql !== 'string') return fail(state, SQL_ERROR, 'sql-error');
  try {
    const answer = await deps.sql(sql);
    if (typeof answer === 'string') return ok(state, answer);
    return answer.refused === null
      ? ok(state, answer.observation)
      : refused(state, answer.observation, answer.refused);
  } catch (e) {
    if (e instanceof ToolCallRefused) throw e;
    return fail(state, SQL_ERROR, 'sql-error');
  }
}

async function pythonInterpreter(state: EnvState, code: unknown, deps: KernelDeps): Promise<ToolResult> {
  if (typeof code !== 'string') {
    // The interpreter's input sanitiser runs re.sub on the value.
    const message = `expected string or bytes-like object, got '${pyTypeName(code)}'`;
    return fail(state, pythonException('TypeError', message), 'python-failed');
  }
  let run: PythonRun;
  try {
    run = await deps.python(code, state.python);
  } catch (e) {
    if (e instanceof ToolCallRefused) throw e;
    return fail(state, pythonWrapperError(errorText(e)), 'python-failed');
  }
  const next = { ...state, python: run.namespace };
  if (run.refused) return refused(next, pyStrip(run.observation), run.refused);
  const output = pyStrip(run.observation);
  if (output.length === 0) return fail(next, PYTHON_PRINT_HINT, 'python-no-output');
  return ok(next, output);
}

function finish(state: EnvState, answer: unknown, deps: KernelDeps): ToolResult {
  const judged = deps.gold !== undefined;
  const correct = judged && answerMatches(deps.gold, answer, deps.numbers ? { numbers: deps.numbers } : {});
  return ok(
    { ...state, finished: true, answer: pythonStr(answer), correct },
    !judged ? ANSWER_UNJUDGED : correct ? ANSWER_CORRECT : ANSWER_INCORRECT,
  );
}

function updateTool(state: EnvState, desc: unknown): ToolResult {
  if (typeof desc !== 'string') return fail(state, UPDATE_TOOL_FAILED, 'update-failed');
  const line = `(${14 + state.newTools.length}) ${pyStrip(desc)}`;
  return ok({ ...state, newTools: [...state.newTools, line] }, UPDATE_TOOL_SUCCESS);
}

async function dispatch(
  world: World,
  state: EnvState,
  call: KernelCall,
  deps: KernelDeps,
): Promise<ToolResult> {
  const a = call.args;
  switch (call.tool) {
    case 'RetrieveAgenda':
      return retrieve(state, world.agendaPassages, a.keyword);
    case 'RetrieveScirex':
      return retrieve(state, world.scirex.passages, a.keyword);
    case 'LoadDB':
      return loadDb(world, state, a.DBName);
    case 'FilterDB':
      return filterDb(world, state, a.condition);
    case 'GetValue':
      return getValue(world, state, a.column_name);
    case 'LoadGraph':
      return graphResult(state, loadGraph(a.GraphName));
    case 'NeighbourCheck':
      return graphResult(state, neighbourCheck(world.dblp, a.GraphName, a.Node));
    case 'NodeCheck':
      return graphResult(state, nodeCheck(world.dblp, a.GraphName, a.Node));
    case 'EdgeCheck':
      return graphResult(state, edgeCheck(world.dblp, a.GraphName, a.Node1, a.Node2));
    case 'SQLInterpreter':
      return sqlInterpreter(state, a.SQL, deps);
    case 'PythonInterpreter':
      return pythonInterpreter(state, a.Python, deps);
    case 'UpdateTool':
      return updateTool(state, a.newtool_desc);
    case 'Finish':
      return finish(state, a.answer, deps);
  }
}

/** Runs one kernel tool call: the new state, the (truncated) observation and what happened. */
export async function callKernel(
  world: World,
  state: EnvState,
  call: KernelCall,
  deps: KernelDeps,
): Promise<KernelResult> {
  const counted: EnvState = {
    ...state,
    steps: state.steps + 1,
    loads: state.loads + (call.tool === 'LoadDB' || call.tool === 'LoadGraph' ? 1 : 0),
  };
  let result: KernelResult;
  if (!(KERNEL_TOOL_NAMES as readonly string[]).includes(call.tool)) {
    result = {
      state: counted,
      observation: INVALID_ACTION,
      outcome: { kind: 'error', reason: 'bad-arguments' },
    };
  } else {
    try {
      const r = await dispatch(world, counted, call, deps);
      let outcome: KernelOutcome;
      if (call.tool === 'Finish') outcome = { kind: 'finished', correct: r.state.correct === true };
      else if (r.refused) outcome = { kind: 'refused', reason: r.refused };
      else outcome = r.error === null ? { kind: 'ok' } : { kind: 'error', reason: r.error };
      result = { state: r.state, observation: r.observation, outcome };
    } catch (e) {
      if (e instanceof ToolCallRefused) throw e;
      // Only reachable through a bug or a malformed world: answer like the original's per-tool `except`.
      result = {
        state: counted,
        observation: WRAPPER_ERRORS[call.tool],
        outcome: { kind: 'error', reason: 'bad-arguments' },
      };
    }
  }
  return { ...result, observation: truncateObservation(result.observation) };
}
