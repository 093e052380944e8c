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

/** What one tool implementation returns before the kernel's common post-processing (truncation, counters). */
export interface ToolResult {
  state: EnvState;
  observation: string;
  error: KernelErrorReason | null;
}

export function ok(state: EnvState, observation: string): ToolResult {
  return { state, observation, error: null };
}

export function fail(state: EnvState, observation: string, error: KernelErrorReason): ToolResult {
  return { state, observation, error };
}
