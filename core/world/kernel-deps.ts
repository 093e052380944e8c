/**
 * The kernel's two sandboxed dependencies wired together: SQLInterpreter through the SQL guard onto whatever
 * SQLite the caller has (D1 at the edge, node:sqlite in Node), and PythonInterpreter through the Python
 * sandbox. Without an executor, SQL calls fail with the tool's error observation.
 */
import { runPythonCode } from '../sandbox/python/tool.ts';
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
}

export function createKernelDeps(options: KernelDepsOptions = {}): KernelDeps {
  const executor = options.sql;
  return {
    gold: options.gold,
    ...(options.numbers ? { numbers: options.numbers } : {}),
    sql: async (query) => {
      if (!executor) throw new Error('no SQL mirror is attached');
      return sqlToolAnswer(query, executor, options.sqlPolicy, options.sqlLimits);
    },
    // The kernel strips the output and substitutes the print hint itself (spec §3.10 step 7).
    python: (code, namespace) => runPythonCode(code, namespace as never),
  };
}
