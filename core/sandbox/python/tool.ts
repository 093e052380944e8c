/**
 * PythonInterpreter[Python] (spec §3.10): the EVO python tool's execution model on top of the sandbox
 * interpreter.
 *
 * Why an interpreter written here: workerd forbids `eval`/`new Function` and compiling WebAssembly at run time,
 * so Pyodide/RustPython-style engines (which need one or the other) cannot run in a Worker, and no maintained
 * package interprets Python without them. This module and its siblings implement the Python subset ToolQA-style
 * solutions use (tokenizer with INDENT/DEDENT, parser to an AST, tree-walking evaluator, the builtins and the
 * math, statistics, numpy and datetime pieces such code calls), with step, time, memory, recursion and output
 * limits, and no path from Python code to host objects.
 *
 * Steps (EVO `tools/code/python_tool.py`):
 * 1. Sanitise: strip leading whitespace/backticks and an optional `python` (any case, even when it starts an
 *    identifier: `pythonic = 1` becomes `ic = 1`, as the original regex does), then trailing whitespace/backticks.
 * 2. Parse; a top-level statement is a "print statement" if it is an expression statement calling `print(...)`
 *    or an if/while/for/def whose body (recursively, bodies only) contains one.
 * 3. Zero or one print statements: run all statements but the last (output discarded), then evaluate the last
 *    as an expression with stdout captured: result = str(value) if not None, else the captured stdout; if the
 *    last statement is not an expression it is executed and the result is the captured stdout. A last
 *    expression that raises is executed a second time (the original's `eval` then `exec` fallback).
 * 4. Two or more: segments ending at each print statement run as in 3, each prefixed by the `print(...)`
 *    argument texts of its print statement (non-greedy regex, up to the first `)`) + `:` + a space; code after
 *    the last print statement never runs.
 * 5. Each result: if it parses as a float it becomes `str(round(value, 4)) + "\n"` unless strictly shorter;
 *    then longer than 500 characters → first 250 + `...` + last 250.
 * 6. Errors: `{ExceptionClassName}: {message}` (the whole observation, whatever segments printed before).
 *    Compile-time errors (`'return' outside function`) carry `(<string>, line N)` counted in the chunk the
 *    original passed to exec(), as it re-generated each chunk with ast.unparse.
 * 7. The environment strips the result; empty → `You should print the variable you want to obtain the python
 *    result.` (`runPythonTool`; `runPythonCode` returns the output of steps 1–6).
 * The code runs with `__name__ == 'tools.code.tool'` (the original exec'd it in its tool module's globals), so
 * `if __name__ == '__main__':` blocks do not run.
 *
 * Deliberate differences from ToolQA-D:
 * - The namespace belongs to the trajectory path (a JSON snapshot in and out), not to the worker process shared
 *   by every branch and question. Variables too large for the snapshot bound (limits.maxSnapshotValues) are not
 *   carried to the next call.
 * - The 15 s wall-clock timeout is an evaluation-step budget (deterministic; workerd's clock does not advance
 *   during synchronous code), with the same `TimeoutError: 'Execution of the code snippet has timed out for
 *   exceeding 15 seconds.'` observation. Limit errors cannot be caught by Python code (no `finally` runs), and
 *   the last-expression retry does not re-run code that exhausted a limit (the original's alarm fired once, then
 *   its retry ran unbounded until an outer 30 s guard).
 * - `MemoryError` comes from the sandbox's memory budget rather than the machine; the recursion limit is 200
 *   Python calls (CPython: 1000). A program longer than limits.maxProgramChars (100,000) is not parsed:
 *   `MemoryError: the program is longer than 100000 characters`. Each exception an `except` catches and each
 *   call it unwinds costs extra evaluation steps, so error-catching loops time out like any other loop.
 * - Only math, statistics, numpy (a 1-D subset) and datetime are importable; any other import raises
 *   ModuleNotFoundError (EVO's environment had the standard library, pandas, scipy, sympy). A missing name in a
 *   `from` import reports `(unknown location)` instead of the module's file path.
 * - `open`, `exec`, `eval`, `compile`, `__import__`, `globals`, `locals`, `vars`, `dir` are not defined,
 *   `input()` raises EOFError, and attribute names starting with `_` are never reachable (`x.__class__`,
 *   `type(x).__name__` raise AttributeError). Shared objects (modules, builtin types) are read-only.
 * - Class definitions, `with`, generator functions (`yield`), async code and complex numbers raise
 *   NotImplementedError when executed; bytes literals behave as str; `\N{...}` escapes are rejected as unknown
 *   names.
 * - numpy scalars are plain Python int/float/bool (they print the same as numpy 1.26's, but `type()` says
 *   float/int); int arrays do not wrap at 64 bits; numpy warnings are not printed.
 * - `datetime.now()`/`date.today()` return a fixed instant (limits.now); timezone-aware values are unsupported;
 *   `isocalendar()` returns a plain tuple; timestamps treat naive datetimes as UTC.
 * - Sets of ints, floats and tuples iterate in CPython's order; sets containing strings use a fixed string hash,
 *   so their order is deterministic but not CPython's (which is randomised per process anyway).
 * - Function and bound-method reprs show deterministic fake addresses; float functions come from JS Math and may
 *   differ from glibc in the last bit.
 * - `SystemExit`/`KeyboardInterrupt` raised by user code become ordinary error observations (in the original
 *   they escaped the tool and would abort the worker).
 */

import { pyFloatRepr } from '../../util/python-format.ts';
import type { Stmt } from './ast.ts';
import { compileCheck } from './compile-check.ts';
import { DEFAULT_LIMITS, Interpreter, type Limits, OutputBuffer } from './interpreter.ts';
import { isPyWhitespace, parsePyFloat, roundFloat, stripPyWhitespace } from './numeric.ts';
import { LimitExceeded, PyError, type PyValue } from './objects.ts';
import { parseModule } from './parser.ts';
import { resetRunIds } from './pyset.ts';
import { excStr } from './repr.ts';
import {
  EMPTY_NAMESPACE,
  type PyNamespaceSnapshot,
  restoreNamespace,
  snapshotNamespace,
} from './snapshot.ts';
import { AstTooDeep, PySyntaxError } from './syntax-error.ts';

export { DEFAULT_LIMITS, type Limits } from './interpreter.ts';
export type { PyNamespaceSnapshot } from './snapshot.ts';

export const TIMEOUT_OBSERVATION =
  "TimeoutError: 'Execution of the code snippet has timed out for exceeding 15 seconds.'";
export const PRINT_HINT = 'You should print the variable you want to obtain the python result.';

export interface PythonToolResult {
  observation: string;
  namespace: PyNamespaceSnapshot;
  /** Set when the sandbox refused the program: its evaluation budget ran out, or it was too long to parse. */
  refused?: 'python-timeout' | 'python-too-long';
  /** Evaluation steps the run took (what a server charges a caller's step rate, edge/tool-calls.ts). */
  steps: number;
}

/** Steps 1–7: the observation the agent sees, and the namespace after the run. Never throws. */
export function runPythonTool(
  code: string,
  namespace: PyNamespaceSnapshot | null | undefined,
  limits?: Partial<Limits>,
): PythonToolResult {
  const r = runPythonCode(code, namespace, limits);
  const stripped = stripPyWhitespace(r.observation);
  return { observation: stripped.length ? stripped : PRINT_HINT, namespace: r.namespace, steps: r.steps };
}

/**
 * Steps 1–6: the tool's raw output, before the environment strips it and substitutes the print hint (the shape of
 * the kernel's `PythonRun`). Never throws.
 */
export function runPythonCode(
  code: string,
  namespace: PyNamespaceSnapshot | null | undefined,
  limits?: Partial<Limits>,
): PythonToolResult {
  const lim: Limits = { ...DEFAULT_LIMITS, ...(limits ?? {}) };
  resetRunIds();
  let interp = new Interpreter(lim);
  try {
    restoreNamespace(interp, namespace);
  } catch {
    // A snapshot this module did not write: start from an empty namespace rather than fail.
    interp = new Interpreter(lim);
  }
  let output: string;
  let refused: PythonToolResult['refused'];
  try {
    const source = typeof code === 'string' ? code : String(code);
    if (source.length > lim.maxProgramChars) {
      output = `MemoryError: the program is longer than ${lim.maxProgramChars} characters`;
      refused = 'python-too-long';
    } else output = runSanitized(interp, sanitize(source));
  } catch (e) {
    output = errorText(interp, e);
    if (e instanceof LimitExceeded) refused = 'python-timeout';
  }
  let snapshot: PyNamespaceSnapshot;
  try {
    snapshot = snapshotNamespace(interp);
  } catch {
    snapshot = isSnapshotLike(namespace) ? namespace : EMPTY_NAMESPACE;
  }
  return {
    observation: output,
    namespace: snapshot,
    steps: interp.stepsTaken,
    ...(refused ? { refused } : {}),
  };
}

function isSnapshotLike(x: unknown): x is PyNamespaceSnapshot {
  return !!x && typeof x === 'object' && (x as PyNamespaceSnapshot).v === 1;
}

/** `re.sub(r"^(\s|`)*(?i:python)?\s*", "", q)` then `re.sub(r"(\s|`)*$", "", q)`. */
export function sanitize(code: string): string {
  let i = 0;
  while (i < code.length && (isPyWhitespace(code[i] as string) || code[i] === '`')) i++;
  if (code.slice(i, i + 6).toLowerCase() === 'python') {
    i += 6;
    while (i < code.length && isPyWhitespace(code[i] as string)) i++;
  }
  let j = code.length;
  while (j > i && (isPyWhitespace(code[j - 1] as string) || code[j - 1] === '`')) j--;
  return code.slice(i, j);
}

function isPrintNode(s: Stmt): boolean {
  if (s.type === 'Expr') {
    return s.value.type === 'Call' && s.value.func.type === 'Name' && s.value.func.id === 'print';
  }
  if (s.type === 'If' || s.type === 'While' || s.type === 'For') return s.body.some(isPrintNode);
  if (s.type === 'FunctionDef') return s.fn.body.some(isPrintNode);
  return false;
}

/** `extract_content`: every `print(` … `)` argument text (non-greedy, single line), joined, plus `:`. */
export function extractLabel(source: string): string {
  const matches = [...source.matchAll(/print\(([^\n]*?)\)/g)].map((m) => m[1] as string);
  return matches.length ? `${matches.join(' ')}:` : '';
}

function runSanitized(interp: Interpreter, code: string): string {
  const module = parseModule(code);
  const body = module.body;
  let printIdx: number[] = [];
  body.forEach((s, i) => {
    if (isPrintNode(s)) printIdx.push(i);
  });
  if (printIdx.length === 0) printIdx = [body.length - 1];
  if (printIdx.length === 1) return subRun(interp, body);
  let out = '';
  let start = -1;
  for (const end of printIdx) {
    const node = body[end] as Stmt;
    const source = code.slice(node.start, node.end);
    const ret = subRun(interp, body.slice(start + 1, end + 1));
    out += `${extractLabel(source)} ${ret}`;
    start = end;
  }
  return out;
}

/** `_sub_run`: all but the last statement uncaptured, then the last with eval-then-exec. */
function subRun(interp: Interpreter, stmts: readonly Stmt[]): string {
  const head = stmts.slice(0, -1);
  const last = stmts.slice(-1);
  const headErr = compileCheck(head);
  if (headErr) throw headErr;
  interp.out = null;
  interp.execModule(head);
  const buffer = new OutputBuffer(interp.limits.maxOutputChars);
  interp.out = buffer;
  try {
    const lastErr = compileCheck(last);
    const stmt = last[0];
    if (stmt && stmt.type === 'Expr' && !lastErr) {
      let value: PyValue;
      try {
        value = interp.evalModuleExpr(stmt.value);
      } catch (e) {
        if (!(e instanceof PyError) || !isException(e)) throw e;
        // eval failed: the original retries with exec (running the statement again).
        interp.execModule(last);
        return postprocess(buffer.text());
      }
      if (value !== null) return postprocess(interp.str(value));
      return postprocess(buffer.text());
    }
    if (lastErr) throw lastErr;
    interp.execModule(last);
    return postprocess(buffer.text());
  } finally {
    interp.out = null;
  }
}

/** Only `Exception` subclasses are caught by the original's `except Exception` around eval. */
function isException(e: PyError): boolean {
  return !['KeyboardInterrupt', 'SystemExit', 'GeneratorExit', 'BaseException'].includes(e.exc.cls.name);
}

/** `truncate_string`: float rounding rule, then the 250 + `...` + 250 cut (lengths in code points). */
function postprocess(text: string | { head: string; tail: string; length: number }): string {
  if (typeof text !== 'string') {
    const head = [...text.head].slice(0, 250).join('');
    const tailCps = [...text.tail];
    return `${head}...${tailCps.slice(-250).join('')}`;
  }
  let t = text;
  const f = parsePyFloat(t);
  if (f !== null) {
    const refine = `${pyFloatRepr(roundFloat(f, 4n))}\n`;
    t = [...t].length < refine.length ? t : refine;
  }
  const cps = [...t];
  if (cps.length > 500) return `${cps.slice(0, 250).join('')}...${cps.slice(-250).join('')}`;
  return t;
}

function errorText(interp: Interpreter, e: unknown): string {
  if (e instanceof LimitExceeded) return TIMEOUT_OBSERVATION;
  if (e instanceof PySyntaxError) return `${e.kind}: ${e.pyMessage}`;
  if (e instanceof AstTooDeep) return `RecursionError: ${e.message}`;
  if (e instanceof PyError) {
    try {
      return `${e.exc.cls.name}: ${excStr(e.exc, interp.str, interp.repr)}`;
    } catch {
      return `${e.exc.cls.name}: `;
    }
  }
  if (e instanceof RangeError) {
    return /call stack/i.test(e.message)
      ? 'RecursionError: maximum recursion depth exceeded'
      : 'MemoryError: ';
  }
  return `SystemError: internal error in the Python sandbox (${e instanceof Error ? e.message : String(e)})`;
}
