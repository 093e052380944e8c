/**
 * The kernel's two sandboxed dependencies wired together: SQLInterpreter through the SQL guard onto whatever
 * SQLite the caller has (D1 at the edge, node:sqlite in Node), and PythonInterpreter through the Python
 * sandbox. Without an executor, SQL calls fail with the tool's error observation.
 */
import { runPythonCode } from '../sandbox/python/tool.ts';
import { runSqlTool, type SqlExecutor, type SqlRunLimits } from '../sandbox/sql/run.ts';
import type { KernelDeps } from './kernel/kernel.ts';

export interface KernelDepsOptions {
  sql?: SqlExecutor;
  sqlLimits?: SqlRunLimits;
  /** The gold answer Finish is judged against. */
  gold?: unknown;
}

export function createKernelDeps(options: KernelDepsOptions = {}): KernelDeps {
  const executor = options.sql;
  return {
    gold: options.gold,
    sql: async (query) => {
      if (!executor) throw new Error('no SQL mirror is attached');
      return options.sqlLimits
        ? runSqlTool(query, executor, undefined, options.sqlLimits)
        : runSqlTool(query, executor);
    },
    // The kernel strips the output and substitutes the print hint itself (spec §3.10 step 7).
    python: (code, namespace) => runPythonCode(code, namespace as never),
  };
}
