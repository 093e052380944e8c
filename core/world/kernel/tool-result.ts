import type { EnvState } from './state.ts';

/** Why a kernel call produced an error observation (for metrics; the agent only sees the observation). */
export type KernelErrorReason =
  | 'load-first'
  | 'unknown-database'
  | 'bad-arguments'
  | 'filter-incorrect'
  | 'filter-failed'
  | 'unknown-column'
  | 'no-match'
  | 'unknown-graph'
  | 'unknown-node'
  | 'no-edge'
  | 'sql-error'
  | 'python-no-output'
  | 'python-failed'
  | 'update-failed';

/**
 * Why a sandboxed tool refused to run a call (its observation is the tool's usual error text, as in ToolQA-D):
 * the SQL guard refused the query or could not analyse it, the query ran out of time, the engine failed on it;
 * the Python sandbox's evaluation budget ran out, or the program was too long to parse.
 */
export type KernelRefusalReason =
  | 'sql-guard'
  | 'sql-timeout'
  | 'sql-engine'
  | 'python-timeout'
  | 'python-too-long';

/** What one tool implementation returns before the kernel's common post-processing (truncation, counters). */
export interface ToolResult {
  state: EnvState;
  observation: string;
  error: KernelErrorReason | null;
  /** Set when a sandbox refused the call (its outcome is `refused`, not `ok`). */
  refused?: KernelRefusalReason;
}

export function ok(state: EnvState, observation: string): ToolResult {
  return { state, observation, error: null };
}

export function fail(state: EnvState, observation: string, error: KernelErrorReason): ToolResult {
  return { state, observation, error };
}

export function refused(state: EnvState, observation: string, reason: KernelRefusalReason): ToolResult {
  return { state, observation, error: null, refused: reason };
}
