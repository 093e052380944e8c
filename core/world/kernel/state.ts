/**
 * The per-trajectory environment state of a ToolQA-D episode: a small JSON value, so that every MCTS branch can
 * own a copy (the original deep-copies its table object per node) and a state can be stored or sent anywhere.
 *
 * The filtered table itself is not stored: the view is recomputed from the loaded table and the applied
 * sub-conditions (and memoised, see table-view.ts).
 */
import type { DatabaseName } from '../types.ts';

export interface EnvState {
  /** The table loaded by the last successful LoadDB, or null. */
  db: DatabaseName | null;
  /** FilterDB sub-conditions applied since that LoadDB, in order (exactly as written, before trimming). */
  filters: string[];
  /** Columns a numeric FilterDB converted to floats (GetValue then lists them as JSON numbers). */
  numericColumns: string[];
  /** The PythonInterpreter namespace snapshot, owned by the interpreter module. */
  python: unknown;
  /** Steps taken on this path (every agent action, parsable or not). */
  steps: number;
  /** LoadDB/LoadGraph-type calls on this path (the MCTS `max_load_db` limit counts them, successful or not). */
  loads: number;
  /** UpdateTool lines added on this path, already formatted as `(14) …`, `(15) …`. */
  newTools: string[];
  finished: boolean;
  /** Python str() of the Finish answer. */
  answer: string | null;
  /** Whether the Finish answer matched the gold answer. */
  correct: boolean | null;
}

export function initialState(): EnvState {
  return {
    db: null,
    filters: [],
    numericColumns: [],
    python: null,
    steps: 0,
    loads: 0,
    newTools: [],
    finished: false,
    answer: null,
    correct: null,
  };
}

/** Records a step that never reached the kernel (unparsable output, invalid action, deprecation, parameter error). */
export function countStep(state: EnvState): EnvState {
  return { ...state, steps: state.steps + 1 };
}

/** Records a load-type call that never reached the kernel (e.g. a deprecated `LoadDB` under P_s_in). */
export function countLoad(state: EnvState): EnvState {
  return { ...state, loads: state.loads + 1 };
}
