/**
 * The sandbox's Python object model.
 *
 * Representation: None → `null`, bool → JS boolean, int → bigint (always, so `2**100` and `10**20 // 3` are exact),
 * float → JS number, str → JS string; everything else is a `PyObject` subclass. Attribute lookup only ever goes
 * through explicit per-type tables (Maps / switch statements), never through JS property access with a name that
 * came from Python code, so Python code has no path to JS prototypes, constructors or host objects.
 */

import type { FunctionInfo } from './ast.ts';

export type PyValue = null | boolean | bigint | number | string | PyObject;

/** Keyword arguments in call order. */
export type Kwargs = Map<string, PyValue>;

/** What builtins need from the running interpreter. */
export interface Runtime {
  /** Calls any Python callable. */
  call(fn: PyValue, args: PyValue[], kwargs?: Kwargs | null): PyValue;
  /** Charges `n` evaluation steps (throws TimeoutError when the budget is spent). */
  step(n?: number): void;
  /** Charges `units` of memory (elements / characters); throws MemoryError past the budget. */
  alloc(units: number): void;
  /** Writes to the current stdout. */
  write(text: string): void;
  /** Imports one of the sandbox's modules (ModuleNotFoundError otherwise). */
  importModule(name: string): PyModule;
  /** The fixed instant `datetime.now()` reports (determinism: never the real clock). */
  readonly now: { readonly epochMicros: bigint };
  /** A deterministic fake address for `<function f at 0x...>` reprs. */
  addressOf(o: object): string;
  /** Largest int (in bits) the sandbox builds before raising MemoryError. */
  readonly maxIntBits: number;
  /** Longest sequence / string the sandbox builds before raising MemoryError. */
  readonly maxSequenceLength: number;
  repr(v: PyValue): string;
  str(v: PyValue): string;
  getAttr(v: PyValue, name: string): PyValue;
  getItem(v: PyValue, key: PyValue): PyValue;
}

export type BuiltinImpl = (rt: Runtime, args: PyValue[], kwargs: Kwargs | null) => PyValue;

export abstract class PyObject {
  /** Python type name as CPython's tp_name renders it in messages (`list`, `datetime.datetime`). */
  abstract get typeName(): string;
}

// ------------------------------------------------------------------------------------------------ containers

export class PyList extends PyObject {
  constructor(public items: PyValue[]) {
    super();
  }
  get typeName(): string {
    return 'list';
  }
}

export class PyTuple extends PyObject {
  constructor(readonly items: readonly PyValue[]) {
    super();
  }
  get typeName(): string {
    return 'tuple';
  }
}

export const EMPTY_TUPLE = new PyTuple([]);

/** Insertion-ordered dict; entries are keyed by `hashKey(key)` and keep the first-inserted key object. */
export class PyDict extends PyObject {
  readonly map = new Map<string, [PyValue, PyValue]>();
  get typeName(): string {
    return 'dict';
  }
  get size(): number {
    return this.map.size;
  }
  get(key: PyValue): PyValue | undefined {
    return this.map.get(hashKey(key))?.[1];
  }
  set(key: PyValue, value: PyValue): void {
    const k = hashKey(key);
    const e = this.map.get(k);
    if (e) e[1] = value;
    else this.map.set(k, [key, value]);
  }
  has(key: PyValue): boolean {
    return this.map.has(hashKey(key));
  }
  delete(key: PyValue): boolean {
    return this.map.delete(hashKey(key));
  }
  keys(): PyValue[] {
    return [...this.map.values()].map((e) => e[0]);
  }
  values(): PyValue[] {
    return [...this.map.values()].map((e) => e[1]);
  }
  entries(): [PyValue, PyValue][] {
    return [...this.map.values()];
  }
  static from(pairs: Iterable<readonly [PyValue, PyValue]>): PyDict {
    const d = new PyDict();
    for (const [k, v] of pairs) d.set(k, v);
    return d;
  }
}

/** `dict.keys()` / `.values()` / `.items()`: live views over a dict. */
export class PyDictView extends PyObject {
  constructor(
    readonly dict: PyDict,
    readonly which: 'keys' | 'values' | 'items',
  ) {
    super();
  }
  get typeName(): string {
    return `dict_${this.which}`;
  }
  items(): PyValue[] {
    if (this.which === 'keys') return this.dict.keys();
    if (this.which === 'values') return this.dict.values();
    return this.dict.entries().map(([k, v]) => new PyTuple([k, v]));
  }
}

export class PyRange extends PyObject {
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {
    super();
  }
  get typeName(): string {
    return 'range';
  }
  get length(): bigint {
    const { start, stop, step } = this;
    if (step > 0n) return stop > start ? (stop - start + step - 1n) / step : 0n;
    return start > stop ? (start - stop - step - 1n) / -step : 0n;
  }
  at(i: bigint): bigint {
    return this.start + i * this.step;
  }
}

/** A one-shot Python iterator over a JS iterator (list_iterator, zip, map, generator expressions...). */
export class PyIterator extends PyObject {
  private done = false;
  constructor(
    private it: Iterator<PyValue>,
    private readonly name: string,
  ) {
    super();
  }
  /** Replaces the remaining items (snapshots materialise iterators). */
  reset(items: readonly PyValue[]): void {
    this.it = items[Symbol.iterator]();
    this.done = false;
  }
  get typeName(): string {
    return this.name;
  }
  /** The next item, or undefined when exhausted. */
  next(): PyValue | undefined {
    if (this.done) return undefined;
    const r = this.it.next();
    if (r.done) {
      this.done = true;
      return undefined;
    }
    return r.value;
  }
}

// ------------------------------------------------------------------------------------------------ scopes, callables

/** A variable scope: the module (globals), a function call, or a comprehension. */
export class Scope {
  constructor(
    readonly kind: 'module' | 'function' | 'comprehension',
    readonly vars: Map<string, PyValue>,
    /** Names local to this scope (null for the module scope, where every name is global). */
    readonly locals: ReadonlySet<string> | null,
    /** Lexically enclosing scope (null for the module). */
    readonly parent: Scope | null,
    readonly fn: FunctionInfo | null,
  ) {}
}

export class PyFunction extends PyObject {
  constructor(
    readonly info: FunctionInfo,
    /** The scope the function was defined in (its closure). */
    readonly closure: Scope,
    readonly defaults: readonly PyValue[],
    readonly kwdefaults: ReadonlyMap<string, PyValue>,
  ) {
    super();
  }
  get typeName(): string {
    return 'function';
  }
  get name(): string {
    return this.info.name;
  }
}

/** A function implemented in TypeScript: builtins, module functions and bound methods. */
export class PyBuiltin extends PyObject {
  constructor(
    /** Name shown in messages (`len`, `append`). */
    readonly name: string,
    readonly impl: BuiltinImpl,
    /** How a snapshot refers to it: a module attribute, a builtin name, or a bound method. */
    readonly ref: BuiltinRef,
  ) {
    super();
  }
  get typeName(): string {
    return 'builtin_function_or_method';
  }
}

export type BuiltinRef =
  | { readonly kind: 'builtin'; readonly name: string }
  | { readonly kind: 'module'; readonly module: string; readonly path: readonly string[] }
  | { readonly kind: 'method'; readonly self: PyValue; readonly name: string }
  | { readonly kind: 'unbound'; readonly type: string; readonly name: string };

/** A type object: builtin types (`int`, `list`), module classes (`datetime.datetime`) and exception classes. */
export class PyType extends PyObject {
  constructor(
    readonly name: string,
    /** Constructor; null for types that cannot be instantiated from Python. */
    readonly construct: BuiltinImpl | null,
    readonly base: PyType | null,
    /** Class attributes (static methods such as `datetime.strptime`, `dict.fromkeys`). */
    readonly attrs: Map<string, PyValue> = new Map(),
    /** How snapshots refer to it. */
    readonly ref: BuiltinRef = { kind: 'builtin', name },
    /** Name used in `<class '...'>` when it differs (`datetime.datetime`). */
    readonly qualname: string = name,
  ) {
    super();
  }
  get typeName(): string {
    return 'type';
  }
  /** Calls the type (instantiation). */
  callType(rt: Runtime, args: PyValue[], kwargs: Kwargs | null): PyValue {
    if (!this.construct) throw typeError(`cannot create '${this.qualname}' instances`);
    return this.construct(rt, args, kwargs);
  }
  isSubclassOf(other: PyType): boolean {
    for (let t: PyType | null = this; t; t = t.base) if (t === other) return true;
    return false;
  }
}

export class PyModule extends PyObject {
  constructor(
    readonly name: string,
    readonly attrs: Map<string, PyValue>,
  ) {
    super();
  }
  get typeName(): string {
    return 'module';
  }
}

// ------------------------------------------------------------------------------------------------ exceptions

export class PyExcClass extends PyType {
  override callType(_rt: Runtime, args: PyValue[], kwargs: Kwargs | null): PyValue {
    if (kwargs?.size) throw typeError(`${this.name}() takes no keyword arguments`);
    return new PyException(this, args);
  }
}

export class PyException extends PyObject {
  constructor(
    readonly cls: PyExcClass,
    readonly args: readonly PyValue[],
  ) {
    super();
  }
  get typeName(): string {
    return this.cls.name;
  }
}

/** A Python exception travelling through the JS stack. */
export class PyError extends Error {
  constructor(readonly exc: PyException) {
    super(exc.cls.name);
  }
}

/** Raised when the sandbox's limits stop the program; Python code cannot catch it. */
export class LimitExceeded extends Error {
  constructor(readonly kind: 'timeout') {
    super(kind);
  }
}

const EXC_TREE: readonly (readonly [string, string | null])[] = [
  ['BaseException', null],
  ['Exception', 'BaseException'],
  ['KeyboardInterrupt', 'BaseException'],
  ['SystemExit', 'BaseException'],
  ['GeneratorExit', 'BaseException'],
  ['ArithmeticError', 'Exception'],
  ['ZeroDivisionError', 'ArithmeticError'],
  ['OverflowError', 'ArithmeticError'],
  ['FloatingPointError', 'ArithmeticError'],
  ['AssertionError', 'Exception'],
  ['AttributeError', 'Exception'],
  ['EOFError', 'Exception'],
  ['ImportError', 'Exception'],
  ['ModuleNotFoundError', 'ImportError'],
  ['LookupError', 'Exception'],
  ['IndexError', 'LookupError'],
  ['KeyError', 'LookupError'],
  ['MemoryError', 'Exception'],
  ['NameError', 'Exception'],
  ['UnboundLocalError', 'NameError'],
  ['OSError', 'Exception'],
  ['TimeoutError', 'OSError'],
  ['FileNotFoundError', 'OSError'],
  ['PermissionError', 'OSError'],
  ['RuntimeError', 'Exception'],
  ['NotImplementedError', 'RuntimeError'],
  ['RecursionError', 'RuntimeError'],
  ['StopIteration', 'Exception'],
  ['SyntaxError', 'Exception'],
  ['IndentationError', 'SyntaxError'],
  ['TabError', 'IndentationError'],
  ['TypeError', 'Exception'],
  ['ValueError', 'Exception'],
  ['UnicodeError', 'ValueError'],
  ['StatisticsError', 'ValueError'],
  ['AxisError', 'ValueError'],
  ['Warning', 'Exception'],
  ['UserWarning', 'Warning'],
  ['DeprecationWarning', 'Warning'],
  ['RuntimeWarning', 'Warning'],
];

/** Exception classes that belong to a module rather than to builtins. */
export const MODULE_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['StatisticsError', 'statistics'],
  ['AxisError', 'numpy'],
]);

/** Exception classes by name (builtins plus MODULE_EXCEPTIONS). */
export const EXC: ReadonlyMap<string, PyExcClass> = (() => {
  const m = new Map<string, PyExcClass>();
  for (const [name, baseName] of EXC_TREE) {
    const base = baseName ? (m.get(baseName) as PyExcClass) : null;
    const module = MODULE_EXCEPTIONS.get(name);
    const ref: BuiltinRef = module ? { kind: 'module', module, path: [name] } : { kind: 'builtin', name };
    const qual = module ? `${module}.${name}` : name;
    m.set(name, new PyExcClass(name, null, base, new Map(), ref, qual));
  }
  return m;
})();

export function excClass(name: string): PyExcClass {
  const c = EXC.get(name);
  if (!c) throw new Error(`unknown exception class ${name}`);
  return c;
}

export function pyErr(cls: string, msg?: string | PyValue): PyError {
  return new PyError(new PyException(excClass(cls), msg === undefined ? [] : [msg]));
}

export const typeError = (msg: string): PyError => pyErr('TypeError', msg);
export const valueError = (msg: string): PyError => pyErr('ValueError', msg);
export const indexError = (msg: string): PyError => pyErr('IndexError', msg);
export const keyError = (key: PyValue): PyError => pyErr('KeyError', key);
export const zeroDivision = (msg: string): PyError => pyErr('ZeroDivisionError', msg);
export const overflowError = (msg: string): PyError => pyErr('OverflowError', msg);
export const attributeError = (msg: string): PyError => pyErr('AttributeError', msg);
export const nameError = (name: string): PyError => pyErr('NameError', `name '${name}' is not defined`);
export const memoryError = (): PyError => pyErr('MemoryError');
export const notImplemented = (what: string): PyError =>
  pyErr('NotImplementedError', `${what} not supported in this sandbox`);

export function noAttribute(v: PyValue, name: string): PyError {
  if (v instanceof PyModule) return attributeError(`module '${v.name}' has no attribute '${name}'`);
  if (v instanceof PyType) return attributeError(`type object '${v.qualname}' has no attribute '${name}'`);
  return attributeError(`'${typeName(v)}' object has no attribute '${name}'`);
}

// ------------------------------------------------------------------------------------------------ type helpers

export function typeName(v: PyValue): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
  }
  return (v as PyObject).typeName;
}

export const isInt = (v: PyValue): v is bigint | boolean => typeof v === 'bigint' || typeof v === 'boolean';
export const isNumber = (v: PyValue): v is bigint | boolean | number =>
  typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number';

/** int/bool as bigint. */
export function toBig(v: bigint | boolean): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : v;
}

/** `operator.index()`: an int-like value as bigint, TypeError otherwise. */
export function asIndex(v: PyValue, what?: string): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  throw typeError(what ?? `'${typeName(v)}' object cannot be interpreted as an integer`);
}

/** An index-sized integer as a JS number (OverflowError beyond ±2**63, as CPython). */
export function asSmallIndex(v: PyValue, what?: string): number {
  const b = asIndex(v, what);
  if (b > 9223372036854775807n || b < -9223372036854775808n) {
    throw overflowError("cannot fit 'int' into an index-sized integer");
  }
  return Number(b);
}

let identityCounter = 0;
const identities = new WeakMap<object, number>();

/** A stable per-object identity number (for hashing functions, types, modules by identity). */
export function identityOf(o: object): number {
  let id = identities.get(o);
  if (id === undefined) {
    id = ++identityCounter;
    identities.set(o, id);
  }
  return id;
}

/** Objects that may define their own hashing (datetime values, frozensets). */
export interface HashableObject {
  pyHashKey(): string;
}

function hasHashKey(o: PyObject): o is PyObject & HashableObject {
  return typeof (o as Partial<HashableObject>).pyHashKey === 'function';
}

/** A string that is equal for equal (==) hashable values; TypeError for unhashable ones. */
export function hashKey(v: PyValue): string {
  switch (typeof v) {
    case 'string':
      return `s${v}`;
    case 'bigint':
      return `i${v}`;
    case 'boolean':
      return v ? 'i1' : 'i0';
    case 'number':
      if (Number.isInteger(v)) return `i${BigInt(v)}`;
      if (Number.isNaN(v)) return 'fnan';
      return `f${v}`;
  }
  if (v === null) return 'N';
  if (v instanceof PyTuple) return `t${JSON.stringify(v.items.map(hashKey))}`;
  if (v instanceof PyList || v instanceof PyDict || v instanceof PyDictView) {
    throw typeError(`unhashable type: '${v.typeName}'`);
  }
  if (v instanceof PyRange) return `r${v.start},${v.stop},${v.step}`;
  if (hasHashKey(v)) return v.pyHashKey();
  if (isUnhashable(v)) throw typeError(`unhashable type: '${v.typeName}'`);
  // Shared singletons hash by name so that hashes do not depend on process history.
  if (v instanceof PyType) return `T${v.qualname}`;
  if (v instanceof PyModule) return `M${v.name}`;
  if (v instanceof PyBuiltin && v.ref.kind !== 'method') return `B${JSON.stringify(v.ref)}`;
  return `o${identityOf(v)}`;
}

/** Mutable containers defined in other modules register here (set, ndarray). */
const unhashableKinds = new Set<string>(['list', 'dict', 'set', 'numpy.ndarray']);
function isUnhashable(v: PyObject): boolean {
  return unhashableKinds.has(v.typeName);
}

/** A slice object (from `a[i:j:k]` or `slice()`). */
export class PySlice extends PyObject {
  constructor(
    readonly start: PyValue,
    readonly stop: PyValue,
    readonly step: PyValue,
  ) {
    super();
  }
  get typeName(): string {
    return 'slice';
  }
}

class PyEllipsisType extends PyObject {
  get typeName(): string {
    return 'ellipsis';
  }
  pyRepr(): string {
    return 'Ellipsis';
  }
  pyHashKey(): string {
    return 'Ellipsis';
  }
}

export const ELLIPSIS: PyObject = new PyEllipsisType();

/** Hooks that objects defined outside the core (datetime values, numpy arrays) implement. */
export interface CustomObject {
  pyBinop?(rt: Runtime, op: string, other: PyValue, reflected: boolean): PyValue | undefined;
  /** Rich comparison; undefined = NotImplemented. */
  pyRichCompare?(rt: Runtime, op: '<' | '>' | '==' | '!=' | '<=' | '>=', other: PyValue): PyValue | undefined;
  pyUnary?(rt: Runtime, op: '-' | '+' | '~' | 'abs'): PyValue | undefined;
  pyTruthy?(rt: Runtime): boolean;
  pyLen?(): number;
  pyIter?(rt: Runtime): Iterator<PyValue>;
  pyGetItem?(rt: Runtime, key: PyValue): PyValue;
  pySetItem?(rt: Runtime, key: PyValue, value: PyValue): void;
  pyContains?(rt: Runtime, item: PyValue): boolean;
  pyGetAttr?(rt: Runtime, name: string): PyValue | undefined;
  /** format(value, spec) when spec is non-empty. */
  pyFormat?(rt: Runtime, spec: string): string;
}

export function custom(v: PyValue): (PyObject & CustomObject) | null {
  return v instanceof PyObject ? (v as PyObject & CustomObject) : null;
}
