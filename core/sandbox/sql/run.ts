/**
 * SQLInterpreter[SQL] (spec §3.9): guards the query (guard.ts), runs it through an executor with a row cap and
 * a time limit, and renders the rows as ToolQA did — `col1: v1, col2: v2` per row, values via Python `str()`,
 * rows joined by `\n`, an empty result as the empty string. Every refusal or failure yields
 * `There is something wrong with the SQL command you send. Please modify it.`; `runSqlTool` never throws.
 *
 * The executor receives `SELECT * FROM (\n<guarded query>\n) LIMIT <maxRows + 1>`: the outer LIMIT caps what
 * the engine produces whatever the inner query says (the guard has ensured the inner text is one balanced,
 * comment-free SELECT, so it cannot close the parenthesis early), and the one extra row tells whether the
 * result was cut. SQLite keeps the inner ORDER BY when it flattens such a wrapper. The wrapper renames
 * duplicate result columns the SQLite way (`Date`, `Date:1`), which also keeps both in a row object.
 *
 * Deliberate differences from ToolQA-D:
 * - The query runs on an SQLite mirror through a read-only guard instead of MySQL: writes, DDL, schema
 *   introspection, other databases, table-valued and unlisted functions (including MySQL-only ones) are
 *   refused with the spec's SQL error string, which is what MySQL syntax errors produced in the original.
 * - `explainErrors` (off by default) appends ` (<reason>)` to that string: the guard's reason or the engine's
 *   message. Off, the observation is exactly the original's.
 * - At most `maxRows` rows are rendered, followed by a line saying the result was truncated. With the default
 *   1024 and the agent layer's 1024-token observation truncation (§3.0 step 5) applied afterwards, the final
 *   observation is the same as rendering every row: each row renders to at least one token, so beyond 1024
 *   rows the token cut falls inside the first 1024 rows either way.
 * - With `worldSqlPolicy(world)` (what every SQLInterpreter at the edge uses), a query whose estimated row
 *   combinations exceed the budget (4,000,000, or three scans of the largest table) is refused before it runs —
 *   e.g. any join of two large tables, even with a selective join condition (guard.ts `checkRowVisits`). The
 *   original ran such joins for minutes on MySQL.
 * - A query still running after `timeoutMs` yields the SQL error string (the original had no limit). The
 *   timer can only win against an asynchronous executor (D1), and D1 cannot cancel: the abandoned query runs
 *   on until D1's own 30-second limit. An in-process synchronous SQLite call finishes before any timer fires.
 * - Values are rendered from what the executor returns: null → `None`, strings as is, bigint as an int,
 *   blobs as Python bytes (`b'...'`), numbers as a Python int when integral and as a Python float otherwise.
 *   D1 returns SQLite INTEGER and REAL alike as JS numbers, so an integral REAL (`118.0`) prints as `118`;
 *   the original's MySQL mirror stored every cell as varchar and printed it as stored.
 * - Columns come in the row object's key order, which JS puts integer-like names (`SELECT 1`, `AS "2"`) first.
 * - A non-string SQL argument gives the error observation instead of crashing the episode (§4.10 item 10).
 */
import { pyFloatRepr } from '../../util/python-format.ts';
import { guardSql, type SqlPolicy } from './guard.ts';
import { WORLD_SQL_POLICY } from './mirror.ts';

/** The spec's observation for any SQL failure (§3.9, §3.13). */
export const SQL_ERROR_OBSERVATION =
  'There is something wrong with the SQL command you send. Please modify it.';

/** Runs one already-guarded SELECT; implemented over D1 at the edge and over node:sqlite in tests. */
export interface SqlExecutor {
  /** Resolves to the result rows in order (at most `maxRows` of them), each keyed by result column name. */
  all(sql: string, maxRows: number): Promise<Record<string, unknown>[]>;
}

export interface SqlRunLimits {
  /** Rows rendered before the result is reported as truncated. */
  maxRows: number;
  /** Time allowed to the executor. */
  timeoutMs: number;
  /** Append the refusal or engine reason to the error observation. */
  explainErrors?: boolean;
}

export const DEFAULT_SQL_RUN_LIMITS: SqlRunLimits = { maxRows: 1024, timeoutMs: 5000, explainErrors: false };

/** Longest engine message kept when `explainErrors` is on. */
const MAX_REASON_CHARS = 300;

/** Why the SQL tool answered with its error observation instead of rows. */
export type SqlRefusal = 'sql-guard' | 'sql-timeout' | 'sql-engine';

/** The observation for `SQLInterpreter[sql]`. */
export async function runSqlTool(
  sql: unknown,
  executor: SqlExecutor,
  policy: SqlPolicy = WORLD_SQL_POLICY,
  limits: SqlRunLimits = DEFAULT_SQL_RUN_LIMITS,
): Promise<string> {
  return (await sqlToolAnswer(sql, executor, policy, limits)).observation;
}

/**
 * `runSqlTool`'s observation with the reason the sandbox refused, when it did (the guard refused the query or
 * could not analyse it, it ran out of time, or the engine failed on it): the kernel reports those calls as
 * refused, not ok, while the agent sees the tool's one error text either way.
 */
export async function sqlToolAnswer(
  sql: unknown,
  executor: SqlExecutor,
  policy: SqlPolicy = WORLD_SQL_POLICY,
  limits: SqlRunLimits = DEFAULT_SQL_RUN_LIMITS,
): Promise<{ observation: string; refused: SqlRefusal | null }> {
  const fail = (refused: SqlRefusal, reason: string) => ({
    observation: limits.explainErrors
      ? `${SQL_ERROR_OBSERVATION} (${reason.slice(0, MAX_REASON_CHARS)})`
      : SQL_ERROR_OBSERVATION,
    refused,
  });
  let guarded: ReturnType<typeof guardSql>;
  try {
    guarded = guardSql(sql, policy);
  } catch (e) {
    return fail('sql-guard', `the query could not be analysed: ${errorText(e)}`);
  }
  if (!guarded.ok) return fail('sql-guard', guarded.reason);

  const maxRows = Math.max(1, Math.floor(limits.maxRows));
  const wrapped = `SELECT * FROM (\n${guarded.sql}\n) LIMIT ${maxRows + 1}`;
  const outcome = await runWithTimeout(() => executor.all(wrapped, maxRows + 1), limits.timeoutMs);
  if (outcome.kind === 'timeout')
    return fail('sql-timeout', `the query did not finish within ${limits.timeoutMs} ms`);
  if (outcome.kind === 'error') return fail('sql-engine', outcome.message);
  const rows = outcome.rows;
  if (!Array.isArray(rows) || !rows.every((r) => typeof r === 'object' && r !== null)) {
    return fail('sql-engine', 'the database returned a malformed result');
  }
  try {
    const lines = rows.slice(0, maxRows).map(renderRow);
    if (rows.length > maxRows) {
      lines.push(
        `[truncated: the result has more than ${maxRows} rows; only the first ${maxRows} are shown]`,
      );
    }
    return { observation: lines.join('\n'), refused: null };
  } catch (e) {
    return fail('sql-engine', `a value could not be rendered: ${errorText(e)}`);
  }
}

type Outcome =
  | { kind: 'rows'; rows: Record<string, unknown>[] }
  | { kind: 'error'; message: string }
  | { kind: 'timeout' };

async function runWithTimeout(
  run: () => Promise<Record<string, unknown>[]>,
  timeoutMs: number,
): Promise<Outcome> {
  // Calling inside then() turns a synchronous throw into a rejection; the catch() keeps a rejection that
  // arrives after the timeout from going unhandled.
  const work: Promise<Outcome> = Promise.resolve()
    .then(run)
    .then(
      (rows): Outcome => ({ kind: 'rows', rows }),
      (e: unknown): Outcome => ({ kind: 'error', message: errorText(e) }),
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return 'unknown error';
  }
}

/** `col1: v1, col2: v2` with Python `str()` values (spec §3.9). */
export function renderRow(row: Record<string, unknown>): string {
  return Object.keys(row)
    .map((k) => `${k}: ${pyStrSqlValue(row[k])}`)
    .join(', ');
}

/** Python `str()` of a value as a DB driver would hand it over. */
export function pyStrSqlValue(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') {
    return Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? String(v) : pyFloatRepr(v);
  }
  if (v instanceof Uint8Array) return pyBytesRepr(v);
  if (v instanceof ArrayBuffer) return pyBytesRepr(new Uint8Array(v));
  if (Array.isArray(v) && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    // D1 hands BLOB cells over as arrays of byte values.
    return pyBytesRepr(Uint8Array.from(v as number[]));
  }
  return String(v);
}

/** Python `repr(bytes)` (which is also `str(bytes)`). */
function pyBytesRepr(bytes: Uint8Array): string {
  const hasSingle = bytes.includes(0x27);
  const quote = hasSingle && !bytes.includes(0x22) ? 0x22 : 0x27;
  let out = '';
  for (const b of bytes) {
    if (b === quote || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x09) out += '\\t';
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b < 0x20 || b >= 0x7f) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += String.fromCharCode(b);
  }
  const q = String.fromCharCode(quote);
  return `b${q}${out}${q}`;
}
