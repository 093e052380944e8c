/**
 * The kernel's two sandboxed dependencies wired together: SQLInterpreter through the SQL guard onto whatever
 * SQLite the caller has (D1 at the edge, node:sqlite in Node), and PythonInterpreter through the Python
 * sandbox. Without an executor, SQL calls fail with the tool's error observation.
 */
import { type Limits, runPythonCode } from '../sandbox/python/tool.ts';
import type { SqlPolicy } from '../sandbox/sql/guard.ts';
import { type SqlExecutor, type SqlRunLimits, sqlToolAnswer } from '../sandbox/sql/run.ts';
import type { NumberRule } from './answer-match.ts';
import type { KernelDeps } from './kernel/kernel.ts';

export interface KernelDepsOptions {
  sql?: SqlExecutor;
  sqlLimits?: SqlRunLimits;
  /** The SQL guard's policy; `worldSqlPolicy(world)` bounds every query's work by the world's row counts. */
  sqlPolicy?: SqlPolicy;
  /** The gold answer Finish is judged against. */
  gold?: unknown;
  /** How Finish compares differing numbers (default ToolEVO's `fall-through`). */
  numbers?: NumberRule;
  /** The Python sandbox's limits (its own defaults otherwise), e.g. a server's per-call step bound. */
  pythonLimits?: Partial<Limits>;
  /**
   * Runs each SQL or Python call (the expensive ones): a server paces them and bounds how many one caller runs at
   * once and how many Python steps a second, refusing one beyond it with `ToolCallRefused` (kernel.ts). `steps`
   * reads what a finished call cost in Python evaluation steps (SQL calls: none given). Default: runs the call.
   */
  around?: <T>(call: () => Promise<T>, steps?: (result: T) => number) => Promise<T>;
}

export function createKernelDeps(options: KernelDepsOptions = {}): KernelDeps {
  const executor = options.sql;
  const around = options.around ?? (<T>(call: () => Promise<T>, _steps?: (result: T) => number) => call());
  return {
    gold: options.gold,
    ...(options.numbers ? { numbers: options.numbers } : {}),
    sql: (query) =>
      around(async () => {
        if (!executor) throw new Error('no SQL mirror is attached');
        return sqlToolAnswer(query, executor, options.sqlPolicy, options.sqlLimits);
      }),
    // The kernel strips the output and substitutes the print hint itself (spec §3.10 step 7).
    python: (code, namespace) =>
      around(
        async () => runPythonCode(code, namespace as never, options.pythonLimits),
        (run) => run.steps,
      ),
  };
}
