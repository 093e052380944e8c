/**
 * Tree-walking evaluator for ./ast.ts with Python scoping (static locals, closures, comprehension scopes,
 * `global`/`nonlocal`), exceptions and the sandbox's limits: an evaluation-step budget (the real bound on run
 * time: workerd freezes Date.now() during synchronous execution), a wall-clock deadline checked every 4096 steps
 * as a safety net in Node, a memory budget counted in allocated container elements / string characters, a
 * recursion depth and a cap on the largest int.
 */

import type { MethodImpl } from './args.ts';
import type { Comprehension, Expr, FPart, FunctionInfo, Stmt } from './ast.ts';
import { BUILTINS } from './builtins.ts';
import { asciiRepr, formatValue } from './format.ts';
import { directMethod, getAttr } from './methods.ts';
import { importModule } from './modules/registry.ts';
import {
  attributeError,
  ELLIPSIS,
  EMPTY_TUPLE,
  type Kwargs,
  LimitExceeded,
  memoryError,
  nameError,
  noAttribute,
  notImplemented,
  PyBuiltin,
  PyDict,
  PyError,
  PyExcClass,
  PyException,
  PyFunction,
  PyIterator,
  PyList,
  PyModule,
  PySlice,
  PyTuple,
  PyType,
  type PyValue,
  pyErr,
  type Runtime,
  Scope,
  typeError,
  typeName,
  valueError,
} from './objects.ts';
import {
  binaryOp,
  contains,
  delItem,
  getItem,
  isSame,
  iterate,
  richCompare,
  setItem,
  toArray,
  truthy,
  unaryOp,
} from './ops.ts';
import { PySet } from './pyset.ts';
import { Repr } from './repr.ts';

export interface Limits {
  /** Evaluation steps (expression/statement evaluations, plus per-element work in builtins). */
  maxSteps: number;
  /** Wall-clock safety net in milliseconds (Node only: workerd freezes the clock while code runs). */
  timeoutMs: number;
  /** Memory budget: allocated container elements plus string characters / 4, cumulative over the run. */
  maxMemory: number;
  /** Python call depth. */
  maxRecursion: number;
  /** Largest int, in bits. */
  maxIntBits: number;
  /** Longest list/tuple/string the sandbox builds. */
  maxSequenceLength: number;
  /** Captured stdout kept in full up to this many UTF-16 units; beyond it only the head and tail are kept. */
  maxOutputChars: number;
  /** What `datetime.now()` / `date.today()` return (ISO local time). */
  now: string;
  /** Namespace snapshot bound, in encoded values; variables past it are not carried to the next call. */
  maxSnapshotValues: number;
  /** Longest program accepted, in UTF-16 code units (checked before parsing). */
  maxProgramChars: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = {
  maxSteps: 2_000_000,
  timeoutMs: 10_000,
  maxMemory: 8_000_000,
  maxRecursion: 200,
  maxIntBits: 1_000_000,
  maxSequenceLength: 10_000_000,
  maxOutputChars: 1_000_000,
  now: '2024-01-01T00:00:00',
  maxSnapshotValues: 200_000,
  maxProgramChars: 100_000,
};

/**
 * Steps charged for each exception an `except` clause catches, and for each Python call an exception unwinds,
 * plus `EXCEPTION_STEPS_PER_DEPTH` per active Python call. A JS throw costs far more than a step, and under an
 * attached inspector (`wrangler dev`) V8 walks the whole JS stack on every throw and rethrow, so the cost grows
 * with the call depth: measured in workerd, about 50 µs for a shallow raise and 0.5 ms at the recursion limit.
 */
export const CAUGHT_EXCEPTION_STEPS = 300;
export const UNWOUND_CALL_STEPS = 100;
export const EXCEPTION_STEPS_PER_DEPTH = 20;

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
class Ret {
  constructor(readonly value: PyValue) {}
}
type Flow = typeof NORMAL | typeof BREAK | typeof CONTINUE | Ret;

/** Captured stdout: full text up to a limit, then only head and tail (all the tool's 250+250 cut needs). */
export class OutputBuffer {
  private parts: string[] = [];
  private units = 0;
  private overflow = false;
  private head = '';
  private tail = '';
  private codePoints = 0;

  constructor(private readonly limit: number) {}

  write(s: string): void {
    if (!this.overflow) {
      this.parts.push(s);
      this.units += s.length;
      if (this.units > this.limit) {
        const all = this.parts.join('');
        this.parts = [];
        this.overflow = true;
        this.codePoints = [...all].length;
        this.head = all.slice(0, 4096);
        this.tail = all.slice(-4096);
      }
      return;
    }
    this.codePoints += [...s].length;
    this.tail = (this.tail + s).slice(-4096);
  }

  /** The captured text, or (past the limit) its head, tail and total length in code points. */
  text(): string | { head: string; tail: string; length: number } {
    if (!this.overflow) return this.parts.join('');
    return { head: this.head, tail: this.tail, length: this.codePoints };
  }
}

export class Interpreter implements Runtime {
  readonly globals = new Map<string, PyValue>();
  readonly moduleScope: Scope;
  readonly now: { readonly epochMicros: bigint };
  readonly maxIntBits: number;
  readonly maxSequenceLength: number;
  private steps = 0;
  private memory = 0;
  private depth = 0;
  private readonly deadline: number;
  private readonly clock: () => number;
  /** Current stdout capture, or null when output is discarded. */
  out: OutputBuffer | null = null;
  /** Exceptions being handled (for bare `raise`). */
  private readonly handling: PyException[] = [];
  private readonly reprer: Repr;
  private readonly addresses = new WeakMap<object, string>();
  private nextAddress = 0x7f3a2c000000;

  constructor(readonly limits: Limits) {
    this.moduleScope = new Scope('module', this.globals, null, null, null);
    this.maxIntBits = limits.maxIntBits;
    this.maxSequenceLength = limits.maxSequenceLength;
    this.clock = () => Date.now();
    this.deadline = this.clock() + limits.timeoutMs;
    this.reprer = new Repr(this);
    this.now = { epochMicros: isoToMicros(limits.now) };
  }

  // -------------------------------------------------------------------------------------------- Runtime

  /** Evaluation steps taken so far (the call's CPU, in the unit the step budget counts). */
  get stepsTaken(): number {
    return this.steps;
  }

  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) throw new LimitExceeded('timeout');
    if ((this.steps & 4095) < n && this.clock() > this.deadline) throw new LimitExceeded('timeout');
  }

  alloc(units: number): void {
    this.memory += units;
    if (this.memory > this.limits.maxMemory) throw memoryError();
  }

  write(text: string): void {
    this.step(Math.ceil(text.length / 256));
    if (this.out) this.out.write(text);
  }

  repr = (v: PyValue): string => this.reprer.repr(v);
  str = (v: PyValue): string => this.reprer.str(v);

  getAttr(v: PyValue, name: string): PyValue {
    return getAttr(this, v, name);
  }

  getItem(v: PyValue, key: PyValue): PyValue {
    return getItem(v, key, this);
  }

  importModule(name: string): PyModule {
    return importModule(name);
  }

  addressOf(o: object): string {
    let a = this.addresses.get(o);
    if (!a) {
      a = `0x${this.nextAddress.toString(16)}`;
      this.nextAddress += 0x40;
      this.addresses.set(o, a);
    }
    return a;
  }

  call(fn: PyValue, args: PyValue[], kwargs: Kwargs | null = null): PyValue {
    if (fn instanceof PyFunction) return this.callFunction(fn, args, kwargs);
    if (fn instanceof PyBuiltin) return fn.impl(this, args, kwargs);
    if (fn instanceof PyType) return fn.callType(this, args, kwargs);
    throw typeError(`'${typeName(fn)}' object is not callable`);
  }

  // -------------------------------------------------------------------------------------------- statements

  /** Runs module-level statements. */
  execModule(stmts: readonly Stmt[]): void {
    this.execBlock(stmts, this.moduleScope);
  }

  /** Evaluates an expression in the module scope. */
  evalModuleExpr(e: Expr): PyValue {
    return this.evalExpr(e, this.moduleScope);
  }

  private execBlock(stmts: readonly Stmt[], scope: Scope): Flow {
    for (const s of stmts) {
      const f = this.execStmt(s, scope);
      if (f !== NORMAL) return f;
    }
    return NORMAL;
  }

  private execStmt(s: Stmt, scope: Scope): Flow {
    this.step(1);
    switch (s.type) {
      case 'Expr':
        this.evalExpr(s.value, scope);
        return NORMAL;
      case 'Assign':
        this.execAssign(s, scope);
        return NORMAL;
      case 'AugAssign':
        this.augAssign(s.target, s.op, s.value, scope);
        return NORMAL;
      case 'AnnAssign':
        if (s.value) this.assign(s.target, this.evalExpr(s.value, scope), scope);
        return NORMAL;
      case 'If':
        if (truthy(this.evalExpr(s.test, scope), this)) return this.execBlock(s.body, scope);
        return this.execBlock(s.orelse, scope);
      case 'While':
        return this.execWhile(s, scope);
      case 'For':
        return this.execFor(s, scope);
      case 'Break':
        return BREAK;
      case 'Continue':
        return CONTINUE;
      case 'Pass':
      case 'Global':
      case 'Nonlocal':
        return NORMAL;
      case 'Return':
        return new Ret(s.value ? this.evalExpr(s.value, scope) : null);
      case 'FunctionDef':
        this.execDef(s, scope);
        return NORMAL;
      case 'Import':
        this.execImport(s, scope);
        return NORMAL;
      case 'ImportFrom':
        this.execImportFrom(s, scope);
        return NORMAL;
      case 'Try':
        return this.execTry(s, scope);
      case 'Raise':
        return this.execRaise(s.exc, s.cause, scope);
      case 'Assert':
        this.execAssert(s, scope);
        return NORMAL;
      case 'Delete':
        for (const t of s.targets) this.deleteTarget(t, scope);
        return NORMAL;
      case 'Unsupported':
        throw notImplemented(`${s.feature} are`);
    }
  }

  private execAssign(s: Extract<Stmt, { type: 'Assign' }>, scope: Scope): void {
    const v = this.evalExpr(s.value, scope);
    for (const t of s.targets) this.assign(t, v, scope);
  }

  private execWhile(s: Extract<Stmt, { type: 'While' }>, scope: Scope): Flow {
    while (truthy(this.evalExpr(s.test, scope), this)) {
      const f = this.execBlock(s.body, scope);
      if (f === BREAK) return NORMAL;
      if (f instanceof Ret) return f;
    }
    return this.execBlock(s.orelse, scope);
  }

  private execFor(s: Extract<Stmt, { type: 'For' }>, scope: Scope): Flow {
    const it = iterate(this.evalExpr(s.iter, scope), this);
    for (let r = it.next(); !r.done; r = it.next()) {
      this.assign(s.target, r.value, scope);
      const f = this.execBlock(s.body, scope);
      if (f === BREAK) return NORMAL;
      if (f instanceof Ret) return f;
    }
    return this.execBlock(s.orelse, scope);
  }

  private execDef(s: Extract<Stmt, { type: 'FunctionDef' }>, scope: Scope): void {
    let fn: PyValue = this.makeFunction(s.fn, scope);
    for (let i = s.decorators.length - 1; i >= 0; i--) {
      fn = this.call(this.evalExpr(s.decorators[i] as Expr, scope), [fn]);
    }
    this.storeName(s.fn.name, fn, scope);
  }

  private execImport(s: Extract<Stmt, { type: 'Import' }>, scope: Scope): void {
    for (const a of s.names) {
      const top = a.name.split('.')[0] as string;
      const mod = this.importModule(a.name);
      if (a.asname) this.storeName(a.asname, mod, scope);
      else this.storeName(top, a.name === top ? mod : this.importModule(top), scope);
    }
  }

  private execImportFrom(s: Extract<Stmt, { type: 'ImportFrom' }>, scope: Scope): void {
    if (s.level > 0) throw pyErr('ImportError', 'attempted relative import with no known parent package');
    const mod = this.importModule(s.module);
    if (s.names === '*') {
      for (const [k, v] of mod.attrs) if (!k.startsWith('_')) this.storeName(k, v, scope);
      return;
    }
    for (const a of s.names) {
      const v = a.name.startsWith('_') ? undefined : mod.attrs.get(a.name);
      if (v === undefined) {
        throw pyErr('ImportError', `cannot import name '${a.name}' from '${s.module}' (unknown location)`);
      }
      this.storeName(a.asname ?? a.name, v, scope);
    }
  }

  private execAssert(s: Extract<Stmt, { type: 'Assert' }>, scope: Scope): void {
    if (!truthy(this.evalExpr(s.test, scope), this)) {
      const msg = s.msg ? [this.evalExpr(s.msg, scope)] : [];
      throw new PyError(new PyException(EXC_ASSERTION(), msg));
    }
  }

  private execTry(s: Extract<Stmt, { type: 'Try' }>, scope: Scope): Flow {
    let flow: Flow = NORMAL;
    let pending: unknown = null;
    let failed = false;
    try {
      flow = this.execTryBody(s, scope);
    } catch (e) {
      if (e instanceof LimitExceeded) throw e;
      pending = e;
      failed = true;
    }
    if (s.finalbody.length) {
      const f = this.execBlock(s.finalbody, scope);
      if (f !== NORMAL) return f;
    }
    if (failed) throw pending;
    return flow;
  }

  private execTryBody(s: Extract<Stmt, { type: 'Try' }>, scope: Scope): Flow {
    let caught: PyError;
    try {
      const f = this.execBlock(s.body, scope);
      if (f !== NORMAL) return f;
    } catch (e) {
      const pe = this.asPyError(e);
      if (!pe) throw e;
      // A caught exception costs the host far more than a step (a JS throw and unwind, more at a deep call
      // stack): charge for it so a program that catches errors in a loop — RecursionError caught and retried
      // at the recursion limit (issue 13 item 3) — stays within the same time as any other program.
      this.step(CAUGHT_EXCEPTION_STEPS + EXCEPTION_STEPS_PER_DEPTH * this.depth);
      caught = pe;
      for (const h of s.handlers) {
        if (h.type && !this.matches(caught.exc, this.evalExpr(h.type, scope))) continue;
        if (h.name) this.storeName(h.name, caught.exc, scope);
        this.handling.push(caught.exc);
        try {
          return this.execBlock(h.body, scope);
        } finally {
          this.handling.pop();
          if (h.name) this.deleteName(h.name, scope, true);
        }
      }
      throw caught;
    }
    return this.execBlock(s.orelse, scope);
  }

  /** Converts JS stack overflows and allocation failures into Python errors; null for non-Python errors. */
  private asPyError(e: unknown): PyError | null {
    if (e instanceof PyError) return e;
    if (e instanceof RangeError) {
      return /call stack/i.test(e.message)
        ? pyErr('RecursionError', 'maximum recursion depth exceeded')
        : memoryError();
    }
    return null;
  }

  private matches(exc: PyException, handler: PyValue): boolean {
    if (handler instanceof PyTuple) return handler.items.some((h) => this.matches(exc, h));
    if (!(handler instanceof PyExcClass)) {
      throw typeError('catching classes that do not inherit from BaseException is not allowed');
    }
    return exc.cls.isSubclassOf(handler);
  }

  private execRaise(excExpr: Expr | null, causeExpr: Expr | null, scope: Scope): never {
    if (!excExpr) {
      const current = this.handling[this.handling.length - 1];
      if (!current) throw pyErr('RuntimeError', 'No active exception to reraise');
      throw new PyError(current);
    }
    const v = this.evalExpr(excExpr, scope);
    if (causeExpr) this.evalExpr(causeExpr, scope);
    if (v instanceof PyExcClass) throw new PyError(new PyException(v, []));
    if (v instanceof PyException) throw new PyError(v);
    throw typeError('exceptions must derive from BaseException');
  }

  // -------------------------------------------------------------------------------------------- names

  private lookup(name: string, scope: Scope): PyValue {
    if (scope.kind !== 'module') {
      const fn = scope.fn;
      if (fn?.globals.has(name)) return this.lookupGlobal(name);
      if ((scope.locals as ReadonlySet<string>).has(name)) {
        const v = scope.vars.get(name);
        if (v === undefined) {
          if (scope.kind === 'comprehension') return this.lookupOuter(name, scope.parent);
          throw pyErr(
            'UnboundLocalError',
            `cannot access local variable '${name}' where it is not associated with a value`,
          );
        }
        return v;
      }
      return this.lookupOuter(name, scope.parent);
    }
    return this.lookupGlobal(name);
  }

  private lookupOuter(name: string, start: Scope | null): PyValue {
    for (let p = start; p && p.kind !== 'module'; p = p.parent) {
      if (p.fn?.globals.has(name)) break;
      if ((p.locals as ReadonlySet<string>).has(name)) {
        const v = p.vars.get(name);
        if (v === undefined) {
          if (p.kind === 'comprehension') continue;
          throw pyErr(
            'NameError',
            `cannot access free variable '${name}' where it is not associated with a value in enclosing scope`,
          );
        }
        return v;
      }
    }
    return this.lookupGlobal(name);
  }

  private lookupGlobal(name: string): PyValue {
    const v = this.globals.get(name);
    if (v !== undefined) return v;
    const b = BUILTINS.get(name);
    if (b !== undefined) return b;
    throw nameError(name);
  }

  private storeName(name: string, value: PyValue, scope: Scope): void {
    if (scope.kind === 'module') {
      this.globals.set(name, value);
      return;
    }
    if (scope.kind === 'comprehension') {
      if ((scope.locals as ReadonlySet<string>).has(name)) scope.vars.set(name, value);
      else this.storeName(name, value, scope.parent as Scope);
      return;
    }
    const fn = scope.fn as FunctionInfo;
    if (fn.globals.has(name)) {
      this.globals.set(name, value);
      return;
    }
    if (fn.nonlocals.has(name)) {
      for (let p = scope.parent; p && p.kind !== 'module'; p = p.parent) {
        if ((p.locals as ReadonlySet<string>).has(name)) {
          p.vars.set(name, value);
          return;
        }
      }
      this.globals.set(name, value);
      return;
    }
    scope.vars.set(name, value);
  }

  private deleteName(name: string, scope: Scope, quiet = false): void {
    let target: Map<string, PyValue> = scope.vars;
    if (scope.kind === 'function' && (scope.fn as FunctionInfo).globals.has(name)) target = this.globals;
    if (!target.delete(name) && !quiet) {
      if (scope.kind === 'module' || target === this.globals) throw nameError(name);
      throw pyErr(
        'UnboundLocalError',
        `cannot access local variable '${name}' where it is not associated with a value`,
      );
    }
  }

  // -------------------------------------------------------------------------------------------- assignment

  private assign(target: Expr, value: PyValue, scope: Scope): void {
    switch (target.type) {
      case 'Name':
        this.storeName(target.id, value, scope);
        return;
      case 'Subscript': {
        const obj = this.evalExpr(target.value, scope);
        const key = this.evalIndex(target.index, scope);
        setItem(obj, key, value, this);
        return;
      }
      case 'Attribute': {
        const obj = this.evalExpr(target.value, scope);
        this.setAttr(obj, target.attr);
        return;
      }
      case 'Tuple':
      case 'List':
        this.unpack(target.elts, value, scope);
        return;
      case 'Starred':
        throw pyErr('SyntaxError', 'starred assignment target must be in a list or tuple');
      default:
        throw pyErr('SyntaxError', 'cannot assign to expression');
    }
  }

  private setAttr(obj: PyValue, name: string): never {
    if (obj instanceof PyModule) {
      throw attributeError(`module '${obj.name}' attribute '${name}' is read-only in this sandbox`);
    }
    let exists = false;
    if (!name.startsWith('_')) {
      try {
        this.getAttr(obj, name);
        exists = true;
      } catch (e) {
        if (!(e instanceof PyError)) throw e;
      }
    }
    if (exists) throw attributeError(`'${typeName(obj)}' object attribute '${name}' is read-only`);
    throw noAttribute(obj, name);
  }

  private unpack(elts: readonly Expr[], value: PyValue, scope: Scope): void {
    let items: PyValue[];
    try {
      items = toArray(value, this);
    } catch (e) {
      if (
        e instanceof PyError &&
        e.exc.cls.name === 'TypeError' &&
        /is not iterable$/.test(this.str(e.exc))
      ) {
        throw typeError(`cannot unpack non-iterable ${typeName(value)} object`);
      }
      throw e;
    }
    const star = elts.findIndex((e) => e.type === 'Starred');
    if (star < 0) {
      if (items.length > elts.length) throw valueError(`too many values to unpack (expected ${elts.length})`);
      if (items.length < elts.length) {
        throw valueError(`not enough values to unpack (expected ${elts.length}, got ${items.length})`);
      }
      elts.forEach((e, i) => {
        this.assign(e, items[i] as PyValue, scope);
      });
      return;
    }
    const after = elts.length - star - 1;
    if (items.length < elts.length - 1) {
      throw valueError(
        `not enough values to unpack (expected at least ${elts.length - 1}, got ${items.length})`,
      );
    }
    for (let i = 0; i < star; i++) this.assign(elts[i] as Expr, items[i] as PyValue, scope);
    const mid = items.slice(star, items.length - after);
    this.assign((elts[star] as Extract<Expr, { type: 'Starred' }>).value, new PyList(mid), scope);
    for (let i = 0; i < after; i++) {
      this.assign(elts[star + 1 + i] as Expr, items[items.length - after + i] as PyValue, scope);
    }
  }

  /** `cur op= v`: mutable containers update in place (list.__iadd__, set.__ior__, dict.__ior__). */
  private inplaceOp(op: string, cur: PyValue, v: PyValue): PyValue {
    if (cur instanceof PyList && op === '+') {
      const items = toArray(v, this);
      this.alloc(items.length);
      for (const x of items) cur.items.push(x);
      return cur;
    }
    if (cur instanceof PyList && op === '*') {
      const r = binaryOp('*', cur, v, this) as PyList;
      cur.items = r.items;
      return cur;
    }
    if (cur instanceof PySet && v instanceof PySet && '|&-^'.includes(op)) {
      const r = binaryOp(op, cur, v, this) as PySet;
      cur.clear();
      cur.merge(r);
      return cur;
    }
    if (cur instanceof PyDict && op === '|' && v instanceof PyDict) {
      for (const [k, x] of v.entries()) cur.set(k, x);
      return cur;
    }
    if (typeof cur === 'string' && op === '+' && typeof v === 'string') {
      // JS concatenation shares the left operand (a rope): only the appended text is new memory.
      if (cur.length + v.length > this.maxSequenceLength) throw memoryError();
      this.alloc(Math.ceil(v.length / 4));
      return cur + v;
    }
    return binaryOp(op, cur, v, this);
  }

  private augAssign(target: Expr, op: string, valueExpr: Expr, scope: Scope): void {
    switch (target.type) {
      case 'Name': {
        const cur = this.lookup(target.id, scope);
        this.storeName(target.id, this.inplaceOp(op, cur, this.evalExpr(valueExpr, scope)), scope);
        return;
      }
      case 'Subscript': {
        const obj = this.evalExpr(target.value, scope);
        const key = this.evalIndex(target.index, scope);
        const cur = getItem(obj, key, this);
        setItem(obj, key, this.inplaceOp(op, cur, this.evalExpr(valueExpr, scope)), this);
        return;
      }
      case 'Attribute': {
        const obj = this.evalExpr(target.value, scope);
        this.getAttr(obj, target.attr);
        this.setAttr(obj, target.attr);
        return;
      }
      default:
        throw pyErr('SyntaxError', 'illegal expression for augmented assignment');
    }
  }

  private deleteTarget(t: Expr, scope: Scope): void {
    switch (t.type) {
      case 'Name':
        this.deleteName(t.id, scope);
        return;
      case 'Subscript':
        delItem(this.evalExpr(t.value, scope), this.evalIndex(t.index, scope), this);
        return;
      case 'Attribute': {
        const obj = this.evalExpr(t.value, scope);
        throw noAttribute(obj, t.attr);
      }
      case 'Tuple':
      case 'List':
        for (const e of t.elts) this.deleteTarget(e, scope);
        return;
      default:
        throw pyErr('SyntaxError', 'cannot delete expression');
    }
  }

  // -------------------------------------------------------------------------------------------- functions

  private makeFunction(info: FunctionInfo, scope: Scope): PyFunction {
    const defaults: PyValue[] = [];
    for (const p of info.params.args) if (p.default) defaults.push(this.evalExpr(p.default, scope));
    const kwdefaults = new Map<string, PyValue>();
    for (const p of info.params.kwonly)
      if (p.default) kwdefaults.set(p.name, this.evalExpr(p.default, scope));
    return new PyFunction(info, scope, defaults, kwdefaults);
  }

  callFunction(fn: PyFunction, args: PyValue[], kwargs: Kwargs | null): PyValue {
    const info = fn.info;
    if (this.depth >= this.limits.maxRecursion)
      throw pyErr('RecursionError', 'maximum recursion depth exceeded');
    if (info.isGenerator) throw notImplemented('generator functions (yield) are');
    const vars = this.bindArgs(fn, args, kwargs);
    const scope = new Scope('function', vars, info.locals, fn.closure, info);
    this.depth++;
    try {
      if (info.isLambda) {
        const body = info.body[0] as Extract<Stmt, { type: 'Return' }>;
        return this.evalExpr(body.value as Expr, scope);
      }
      const f = this.execBlock(info.body, scope);
      return f instanceof Ret ? f.value : null;
    } catch (e) {
      if (e instanceof RangeError) throw this.asPyError(e);
      if (e instanceof PyError) this.step(UNWOUND_CALL_STEPS + EXCEPTION_STEPS_PER_DEPTH * this.depth);
      throw e;
    } finally {
      this.depth--;
    }
  }

  private bindArgs(fn: PyFunction, args: PyValue[], kwargs: Kwargs | null): Map<string, PyValue> {
    const info = fn.info;
    const p = info.params;
    const name = info.name;
    const vars = new Map<string, PyValue>();
    const nPos = p.args.length;
    for (let i = 0; i < Math.min(args.length, nPos); i++)
      vars.set((p.args[i] as { name: string }).name, args[i] as PyValue);
    if (args.length > nPos) {
      if (p.vararg) vars.set(p.vararg, new PyTuple(args.slice(nPos)));
      else {
        const min = nPos - fn.defaults.length;
        const takes =
          min === nPos
            ? `${nPos} positional argument${nPos === 1 ? '' : 's'}`
            : `from ${min} to ${nPos} positional arguments`;
        throw typeError(
          `${name}() takes ${takes} but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`,
        );
      }
    } else if (p.vararg) vars.set(p.vararg, EMPTY_TUPLE);
    let extra: PyDict | null = null;
    if (p.kwarg) extra = new PyDict();
    if (kwargs) {
      for (const [k, v] of kwargs) {
        const pos = p.args.findIndex((a) => a.name === k);
        if (pos >= 0) {
          if (vars.has(k)) throw typeError(`${name}() got multiple values for argument '${k}'`);
          vars.set(k, v);
        } else if (p.kwonly.some((a) => a.name === k)) {
          vars.set(k, v);
        } else if (extra) {
          extra.set(k, v);
        } else {
          throw typeError(`${name}() got an unexpected keyword argument '${k}'`);
        }
      }
    }
    const firstDefault = nPos - fn.defaults.length;
    const missing: string[] = [];
    for (let i = 0; i < nPos; i++) {
      const a = (p.args[i] as { name: string }).name;
      if (!vars.has(a)) {
        if (i >= firstDefault) vars.set(a, fn.defaults[i - firstDefault] as PyValue);
        else missing.push(a);
      }
    }
    if (missing.length) {
      throw typeError(
        `${name}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${nameList(missing)}`,
      );
    }
    const missingKw: string[] = [];
    for (const a of p.kwonly) {
      if (!vars.has(a.name)) {
        const d = fn.kwdefaults.get(a.name);
        if (d !== undefined) vars.set(a.name, d);
        else missingKw.push(a.name);
      }
    }
    if (missingKw.length) {
      throw typeError(
        `${name}() missing ${missingKw.length} required keyword-only argument${missingKw.length === 1 ? '' : 's'}: ${nameList(missingKw)}`,
      );
    }
    if (extra && p.kwarg) vars.set(p.kwarg, extra);
    return vars;
  }

  // -------------------------------------------------------------------------------------------- expressions

  /** Evaluates an expression. Kept small (bulky cases live in helpers) so deep nesting uses little JS stack. */
  evalExpr(e: Expr, scope: Scope): PyValue {
    this.step(1);
    switch (e.type) {
      case 'Const':
        return e.value;
      case 'Name':
        return this.lookup(e.id, scope);
      case 'BinOp':
        return binaryOp(e.op, this.evalExpr(e.left, scope), this.evalExpr(e.right, scope), this);
      case 'UnaryOp':
        return unaryOp(e.op, this.evalExpr(e.operand, scope), this);
      case 'BoolOp':
        return this.evalBoolOp(e, scope);
      case 'Compare':
        return this.evalCompare(e, scope);
      case 'Call':
        return this.evalCall(e, scope);
      case 'Attribute':
        return this.getAttr(this.evalExpr(e.value, scope), e.attr);
      case 'Subscript':
        return getItem(this.evalExpr(e.value, scope), this.evalIndex(e.index, scope), this);
      case 'Slice':
        return this.evalIndex(e, scope);
      case 'Tuple':
        return this.evalTuple(e.elts, scope);
      case 'List':
        return new PyList(this.evalElements(e.elts, scope));
      case 'Set':
        return this.evalSet(e.elts, scope);
      case 'Dict':
        return this.evalDict(e, scope);
      case 'IfExp':
        return truthy(this.evalExpr(e.test, scope), this)
          ? this.evalExpr(e.body, scope)
          : this.evalExpr(e.orelse, scope);
      case 'Lambda':
        return this.makeFunction(e.fn, scope);
      case 'FString':
        return this.evalFString(e.parts, scope);
      case 'ListComp':
      case 'SetComp':
      case 'DictComp':
        return this.evalComprehension(e, scope);
      case 'GeneratorExp':
        return this.generatorExpression(e.elt, e.generators, e.scope.locals, scope);
      case 'NamedExpr':
        return this.evalNamedExpr(e, scope);
      case 'Starred':
        throw pyErr('SyntaxError', "can't use starred expression here");
      case 'Ellipsis':
        return ELLIPSIS;
      case 'Yield':
        throw notImplemented('generator functions (yield) are');
      case 'UnsupportedExpr':
        throw notImplemented(`${e.feature} are`);
    }
  }

  private evalBoolOp(e: Extract<Expr, { type: 'BoolOp' }>, scope: Scope): PyValue {
    let v: PyValue = null;
    for (const x of e.values) {
      v = this.evalExpr(x, scope);
      const t = truthy(v, this);
      if (e.op === 'and' ? !t : t) return v;
    }
    return v;
  }

  private evalCompare(e: Extract<Expr, { type: 'Compare' }>, scope: Scope): PyValue {
    let left = this.evalExpr(e.left, scope);
    let result: PyValue = true;
    for (let i = 0; i < e.ops.length; i++) {
      const right = this.evalExpr(e.comparators[i] as Expr, scope);
      result = this.compare(e.ops[i] as string, left, right);
      if (i < e.ops.length - 1 && !truthy(result, this)) return result;
      left = right;
    }
    return result;
  }

  private evalTuple(elts: readonly Expr[], scope: Scope): PyValue {
    const items = this.evalElements(elts, scope);
    return items.length ? new PyTuple(items) : EMPTY_TUPLE;
  }

  private evalSet(elts: readonly Expr[], scope: Scope): PyValue {
    const s = new PySet();
    for (const x of this.evalElements(elts, scope)) s.add(x);
    return s;
  }

  private evalDict(e: Extract<Expr, { type: 'Dict' }>, scope: Scope): PyValue {
    const d = new PyDict();
    for (let i = 0; i < e.keys.length; i++) {
      const k = e.keys[i];
      const v = this.evalExpr(e.values[i] as Expr, scope);
      if (k === null || k === undefined) {
        if (!(v instanceof PyDict)) throw typeError(`'${typeName(v)}' object is not a mapping`);
        for (const [kk, vv] of v.entries()) d.set(kk, vv);
      } else {
        d.set(this.evalExpr(k, scope), v);
      }
    }
    this.alloc(d.size);
    return d;
  }

  private evalComprehension(
    e: Extract<Expr, { type: 'DictComp' }> | Extract<Expr, { type: 'ListComp' | 'SetComp' | 'GeneratorExp' }>,
    scope: Scope,
  ): PyValue {
    if (e.type === 'ListComp') {
      const out: PyValue[] = [];
      this.runComprehension(e.generators, e.scope.locals, scope, (cs) => {
        out.push(this.evalExpr(e.elt, cs));
        if ((out.length & 255) === 0) this.alloc(256);
      });
      return new PyList(out);
    }
    if (e.type === 'SetComp') {
      const s = new PySet();
      this.runComprehension(e.generators, e.scope.locals, scope, (cs) => s.add(this.evalExpr(e.elt, cs)));
      this.alloc(s.size);
      return s;
    }
    if (e.type !== 'DictComp') return this.generatorExpression(e.elt, e.generators, e.scope.locals, scope);
    const d = new PyDict();
    this.runComprehension(e.generators, e.scope.locals, scope, (cs) => {
      const k = this.evalExpr(e.key, cs);
      d.set(k, this.evalExpr(e.value, cs));
    });
    this.alloc(d.size);
    return d;
  }

  private evalNamedExpr(e: Extract<Expr, { type: 'NamedExpr' }>, scope: Scope): PyValue {
    const v = this.evalExpr(e.value, scope);
    let s = scope;
    while (s.kind === 'comprehension') s = s.parent as Scope;
    this.storeName(e.target, v, s);
    return v;
  }

  private compare(op: string, a: PyValue, b: PyValue): PyValue {
    switch (op) {
      case 'in':
        return contains(b, a, this);
      case 'not in':
        return !contains(b, a, this);
      case 'is':
        return isSame(a, b);
      case 'is not':
        return !isSame(a, b);
      default:
        return richCompare(op as '<', a, b, this);
    }
  }

  private evalIndex(e: Expr, scope: Scope): PyValue {
    if (e.type === 'Slice') {
      return new PySlice(
        e.lower ? this.evalExpr(e.lower, scope) : null,
        e.upper ? this.evalExpr(e.upper, scope) : null,
        e.step ? this.evalExpr(e.step, scope) : null,
      );
    }
    if (e.type === 'Tuple' && e.elts.some((x) => x.type === 'Slice')) {
      return new PyTuple(e.elts.map((x) => this.evalIndex(x, scope)));
    }
    return this.evalExpr(e, scope);
  }

  private evalElements(elts: readonly Expr[], scope: Scope): PyValue[] {
    const out: PyValue[] = [];
    for (const x of elts) {
      if (x.type === 'Starred') {
        for (const v of toArray(this.evalExpr(x.value, scope), this)) out.push(v);
      } else out.push(this.evalExpr(x, scope));
    }
    this.alloc(out.length);
    return out;
  }

  private evalCall(e: Extract<Expr, { type: 'Call' }>, scope: Scope): PyValue {
    // Fast path for `obj.method(...)` on builtin types: no bound-method object is created.
    let self: PyValue = null;
    let method: MethodImpl | undefined;
    let fn: PyValue = null;
    if (e.func.type === 'Attribute') {
      this.step(1);
      self = this.evalExpr(e.func.value, scope);
      method = directMethod(self, e.func.attr);
      if (!method) fn = this.getAttr(self, e.func.attr);
    } else {
      fn = this.evalExpr(e.func, scope);
    }
    const args: PyValue[] = [];
    for (const a of e.args) {
      if (a.type === 'Starred') {
        for (const v of toArray(this.evalExpr(a.value, scope), this)) args.push(v);
      } else args.push(this.evalExpr(a, scope));
    }
    let kwargs: Kwargs | null = null;
    if (e.keywords.length) {
      kwargs = new Map();
      for (const k of e.keywords) {
        const v = this.evalExpr(k.value, scope);
        if (k.name !== null) {
          if (kwargs.has(k.name))
            throw typeError(
              `${calleeName(fn, e, method)} got multiple values for keyword argument '${k.name}'`,
            );
          kwargs.set(k.name, v);
        } else {
          if (!(v instanceof PyDict)) {
            throw typeError(
              `${calleeName(fn, e, method)} argument after ** must be a mapping, not ${typeName(v)}`,
            );
          }
          for (const [kk, vv] of v.entries()) {
            if (typeof kk !== 'string') throw typeError('keywords must be strings');
            if (kwargs.has(kk))
              throw typeError(
                `${calleeName(fn, e, method)} got multiple values for keyword argument '${kk}'`,
              );
            kwargs.set(kk, vv);
          }
        }
      }
    }
    if (method) return method(this, self, args, kwargs);
    return this.call(fn, args, kwargs);
  }

  private evalFString(parts: readonly FPart[], scope: Scope): string {
    let out = '';
    for (const p of parts) {
      if (typeof p === 'string') {
        out += p;
        continue;
      }
      let v = this.evalExpr(p.expr, scope);
      if (p.conversion === 's') v = this.str(v);
      else if (p.conversion === 'r') v = this.repr(v);
      else if (p.conversion === 'a') v = asciiRepr(this.repr(v));
      const spec = p.spec ? this.evalFString(p.spec, scope) : '';
      out += formatValue(v, spec, this);
    }
    this.alloc(Math.ceil(out.length / 4));
    return out;
  }

  private runComprehension(
    gens: readonly Comprehension[],
    locals: ReadonlySet<string>,
    scope: Scope,
    emit: (cs: Scope) => void,
  ): void {
    const first = iterate(this.evalExpr((gens[0] as Comprehension).iter, scope), this);
    const cs = new Scope('comprehension', new Map(), locals, scope, null);
    const loop = (i: number, it: Iterator<PyValue>): void => {
      const g = gens[i] as Comprehension;
      for (let r = it.next(); !r.done; r = it.next()) {
        this.step(1);
        this.assign(g.target, r.value, cs);
        let ok = true;
        for (const cond of g.ifs) {
          if (!truthy(this.evalExpr(cond, cs), this)) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        if (i + 1 < gens.length) {
          loop(i + 1, iterate(this.evalExpr((gens[i + 1] as Comprehension).iter, cs), this));
        } else emit(cs);
      }
    };
    loop(0, first);
  }

  private generatorExpression(
    elt: Expr,
    gens: readonly Comprehension[],
    locals: ReadonlySet<string>,
    scope: Scope,
  ): PyIterator {
    const first = iterate(this.evalExpr((gens[0] as Comprehension).iter, scope), this);
    const cs = new Scope('comprehension', new Map(), locals, scope, null);
    const self = this;
    function* loop(i: number, it: Iterator<PyValue>): Generator<PyValue> {
      const g = gens[i] as Comprehension;
      for (let r = it.next(); !r.done; r = it.next()) {
        self.step(1);
        self.assign(g.target, r.value, cs);
        let ok = true;
        for (const cond of g.ifs) {
          if (!truthy(self.evalExpr(cond, cs), self)) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        if (i + 1 < gens.length) {
          yield* loop(i + 1, iterate(self.evalExpr((gens[i + 1] as Comprehension).iter, cs), self));
        } else yield self.evalExpr(elt, cs);
      }
    }
    return new PyIterator(loop(0, first), 'generator');
  }
}

function nameList(names: string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0] as string;
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

function calleeName(fn: PyValue, e: Extract<Expr, { type: 'Call' }>, method: MethodImpl | undefined): string {
  if (method && e.func.type === 'Attribute') return `${e.func.attr}()`;
  return callName(fn);
}

function callName(fn: PyValue): string {
  if (fn instanceof PyFunction) return `${fn.name}()`;
  if (fn instanceof PyBuiltin) return `${fn.name}()`;
  if (fn instanceof PyType) return `${fn.name}()`;
  return `${typeName(fn)} object`;
}

function EXC_ASSERTION(): PyExcClass {
  return BUILTINS.get('AssertionError') as PyExcClass;
}

/** Parses the fixed "now" (ISO local date-time) into microseconds since 0001-01-01 (proleptic Gregorian). */
function isoToMicros(iso: string): bigint {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/.exec(iso);
  if (!m) return 0n;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(
    Number,
  ) as number[];
  const us = Number((m[7] ?? '0').padEnd(6, '0'));
  const days = daysBefore(y as number, mo as number, d as number);
  return (
    (BigInt(days) * 86400n + BigInt((h as number) * 3600 + (mi as number) * 60 + (s as number))) * 1000000n +
    BigInt(us)
  );
}

function daysBefore(y: number, m: number, d: number): number {
  const yy = y - 1;
  let days = yy * 365 + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400);
  const cum = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
  days += cum[m - 1] as number;
  if (m > 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0)) days += 1;
  return days + d - 1;
}
