/**
 * The Python namespace as a small JSON value, so that each trajectory path owns its interpreter state.
 *
 * Globals are stored in definition order; every object lives once in a heap (so aliasing and cycles survive a
 * round trip: `b = a` still names the same list afterwards). Scalars are inline: None/bool as JSON, str as a JSON
 * string, int as `{"i": "digits"}`, float as `{"f": number | "nan" | "inf" | "-inf" | "-0"}`, heap references as
 * `{"r": index}`. User functions are stored by their source text plus default values and closure scopes, and are
 * re-created by parsing that source; modules, builtins and classes are stored by name; sets keep CPython's table
 * layout so their iteration order survives.
 */

import type { FunctionInfo, Stmt } from './ast.ts';
import { BUILTINS, typeByName } from './builtins.ts';
import type { Interpreter } from './interpreter.ts';
import { getAttr } from './methods.ts';
import { PyDate, PyDatetime, PyTime, PyTimedelta, restoreDatetimeValue } from './modules/datetime.ts';
import { NdArray, restoreNdArray } from './modules/numpy.ts';
import { importModule } from './modules/registry.ts';
import {
  type BuiltinRef,
  ELLIPSIS,
  EXC,
  PyBuiltin,
  PyDict,
  PyDictView,
  PyExcClass,
  PyException,
  PyFunction,
  PyIterator,
  PyList,
  PyModule,
  PyObject,
  PyRange,
  PySlice,
  PyTuple,
  PyType,
  type PyValue,
  Scope,
} from './objects.ts';
import { parseExpression, parseModule } from './parser.ts';
import { PySet } from './pyset.ts';
import { parseSnapshot } from './snapshot-schema.ts';

export type EncodedValue =
  | null
  | boolean
  | string
  | { readonly i: string }
  | { readonly f: number | 'nan' | 'inf' | '-inf' | '-0' }
  | { readonly r: number }
  | { readonly e: 'Ellipsis' };

export type HeapEntry =
  | { readonly t: 'list' | 'tuple'; readonly v: EncodedValue[] }
  | { readonly t: 'dict'; readonly v: [EncodedValue, EncodedValue][] }
  | {
      readonly t: 'set';
      readonly frozen: boolean;
      readonly mask: number;
      readonly fill: number;
      readonly finger: number;
      readonly v: [number, EncodedValue][];
      readonly dummies: number[];
    }
  | { readonly t: 'range'; readonly v: [string, string, string] }
  | { readonly t: 'slice'; readonly v: [EncodedValue, EncodedValue, EncodedValue] }
  | { readonly t: 'iter'; readonly name: string; readonly v: EncodedValue[] }
  | { readonly t: 'view'; readonly which: 'keys' | 'values' | 'items'; readonly dict: EncodedValue }
  | {
      readonly t: 'function';
      readonly src: string;
      readonly lambda: boolean;
      readonly defaults: EncodedValue[];
      readonly kwdefaults: [string, EncodedValue][];
      /** Closure scope (a heap reference), or null for the module scope. */
      readonly scope: EncodedValue;
    }
  | {
      readonly t: 'scope';
      readonly kind: 'function' | 'comprehension';
      readonly locals: string[];
      readonly globals: string[];
      readonly vars: [string, EncodedValue][];
      readonly parent: EncodedValue;
    }
  | { readonly t: 'builtin'; readonly ref: EncodedRef }
  | { readonly t: 'type'; readonly ref: EncodedRef }
  | { readonly t: 'module'; readonly name: string }
  | { readonly t: 'exception'; readonly cls: string; readonly args: EncodedValue[] }
  | { readonly t: 'date' | 'time' | 'datetime'; readonly v: number[] }
  | { readonly t: 'timedelta'; readonly v: string }
  | { readonly t: 'ndarray'; readonly dtype: string; readonly v: EncodedValue[] }
  | { readonly t: 'object' }
  /** Something the snapshot cannot carry (restored as None). */
  | { readonly t: 'lost'; readonly type: string };

export type EncodedRef =
  | { readonly kind: 'builtin'; readonly name: string }
  | { readonly kind: 'module'; readonly module: string; readonly path: readonly string[] }
  | { readonly kind: 'method'; readonly self: EncodedValue; readonly name: string }
  | { readonly kind: 'unbound'; readonly type: string; readonly name: string }
  | { readonly kind: 'type'; readonly name: string };

/** The PythonInterpreter namespace of one trajectory: JSON-serialisable, deterministic. */
export interface PyNamespaceSnapshot {
  readonly v: 1;
  readonly vars: [string, EncodedValue][];
  readonly heap: HeapEntry[];
}

export const EMPTY_NAMESPACE: PyNamespaceSnapshot = { v: 1, vars: [], heap: [] };

// ------------------------------------------------------------------------------------------------ encoding

/**
 * Serialises the interpreter's globals. A variable whose contents would take the snapshot past `maxValues`
 * encoded values is left out (it is undefined in the next call), which bounds the state a trajectory carries.
 */
export function snapshotNamespace(
  interp: Interpreter,
  maxValues = interp.limits.maxSnapshotValues,
): PyNamespaceSnapshot {
  const heap: HeapEntry[] = [];
  const index = new Map<object, number>();
  const queue: [object, number][] = [];
  const moduleScope = interp.moduleScope;
  let count = 0;

  const enc = (v: PyValue): EncodedValue => {
    count++;
    switch (typeof v) {
      case 'boolean':
        return v;
      case 'string':
        // Long strings weigh in proportion to their size.
        count += v.length >> 4;
        return v;
      case 'bigint':
        return { i: v.toString() };
      case 'number':
        if (Number.isNaN(v)) return { f: 'nan' };
        if (v === Number.POSITIVE_INFINITY) return { f: 'inf' };
        if (v === Number.NEGATIVE_INFINITY) return { f: '-inf' };
        if (Object.is(v, -0)) return { f: '-0' };
        return { f: v };
    }
    if (v === null) return null;
    if (v === ELLIPSIS) return { e: 'Ellipsis' };
    return ref(v);
  };
  const ref = (o: object): EncodedValue => {
    let i = index.get(o);
    if (i === undefined) {
      i = heap.length;
      index.set(o, i);
      heap.push({ t: 'object' });
      queue.push([o, i]);
    }
    return { r: i };
  };
  const encScope = (s: Scope): EncodedValue => (s === moduleScope || s.kind === 'module' ? null : ref(s));
  const encRef = (r: BuiltinRef): EncodedRef =>
    r.kind === 'method' ? { kind: 'method', self: enc(r.self), name: r.name } : r;

  const entry = (o: object): HeapEntry => {
    if (o instanceof PyList) return { t: 'list', v: o.items.map(enc) };
    if (o instanceof PyTuple) return { t: 'tuple', v: o.items.map(enc) };
    if (o instanceof PyDict) return { t: 'dict', v: o.entries().map(([k, x]) => [enc(k), enc(x)]) };
    if (o instanceof PySet) {
      const { entries, dummies } = o.layout();
      return {
        t: 'set',
        frozen: o.frozen,
        mask: o.mask,
        fill: o.fill,
        finger: o.finger,
        v: entries.map(([i, k]) => [i, enc(k)]),
        dummies,
      };
    }
    if (o instanceof PyRange) return { t: 'range', v: [String(o.start), String(o.stop), String(o.step)] };
    if (o instanceof PySlice) return { t: 'slice', v: [enc(o.start), enc(o.stop), enc(o.step)] };
    if (o instanceof PyIterator) {
      // The remaining items are materialised; producing them may run Python code (map, generator
      // expressions), which stays under the run's limits: on any failure the items produced so far are kept.
      const items: PyValue[] = [];
      try {
        for (let x = o.next(); x !== undefined; x = o.next()) items.push(x);
      } catch {
        // keep the partial list
      }
      o.reset(items);
      return { t: 'iter', name: o.typeName, v: items.map(enc) };
    }
    if (o instanceof PyDictView) return { t: 'view', which: o.which, dict: enc(o.dict) };
    if (o instanceof PyFunction) {
      return {
        t: 'function',
        src: o.info.source,
        lambda: o.info.isLambda,
        defaults: o.defaults.map(enc),
        kwdefaults: [...o.kwdefaults].map(([k, x]) => [k, enc(x)]),
        scope: encScope(o.closure),
      };
    }
    if (o instanceof Scope) {
      return {
        t: 'scope',
        kind: o.kind === 'comprehension' ? 'comprehension' : 'function',
        locals: [...(o.locals ?? [])],
        globals: [...(o.fn?.globals ?? [])],
        vars: [...o.vars].map(([k, x]) => [k, enc(x)]),
        parent: o.parent ? encScope(o.parent) : null,
      };
    }
    if (o instanceof PyExcClass) return { t: 'type', ref: encRef(o.ref) };
    if (o instanceof PyType) {
      if (o.ref.kind === 'builtin' && !BUILTINS.has(o.ref.name))
        return { t: 'type', ref: { kind: 'type', name: o.name } };
      return { t: 'type', ref: encRef(o.ref) };
    }
    if (o instanceof PyBuiltin) return { t: 'builtin', ref: encRef(o.ref) };
    if (o instanceof PyModule) return { t: 'module', name: o.name };
    if (o instanceof PyException) return { t: 'exception', cls: o.cls.name, args: o.args.map(enc) };
    if (o instanceof PyDatetime) {
      return { t: 'datetime', v: [o.year, o.month, o.day, o.hour, o.minute, o.second, o.micro] };
    }
    if (o instanceof PyDate) return { t: 'date', v: [o.year, o.month, o.day] };
    if (o instanceof PyTime) return { t: 'time', v: [o.hour, o.minute, o.second, o.micro] };
    if (o instanceof PyTimedelta) return { t: 'timedelta', v: o.total.toString() };
    if (o instanceof NdArray) return { t: 'ndarray', dtype: o.dtype, v: o.data.map(enc) };
    if (o instanceof PyObject && o.typeName === 'object') return { t: 'object' };
    return { t: 'lost', type: o instanceof PyObject ? o.typeName : 'unknown' };
  };

  const vars: [string, EncodedValue][] = [];
  for (const [name, value] of interp.globals) {
    const heapSize = heap.length;
    const countBefore = count;
    const encoded = enc(value);
    let head = 0;
    while (head < queue.length && count <= maxValues) {
      const [o, i] = queue[head++] as [object, number];
      heap[i] = entry(o);
    }
    queue.length = 0;
    if (count > maxValues) {
      // Roll back this variable's new heap entries and leave it out.
      for (const [o, i] of index) if (i >= heapSize) index.delete(o);
      heap.length = heapSize;
      count = countBefore;
      continue;
    }
    vars.push([name, encoded]);
  }
  return { v: 1, vars, heap };
}

// ------------------------------------------------------------------------------------------------ decoding

/**
 * Loads a snapshot into a fresh interpreter's globals. The snapshot comes from the client: anything that is not
 * a snapshot the writer could have produced within the interpreter's limits (snapshot-schema.ts) is ignored
 * as a whole, and entries that no longer parse are skipped: the worst case is an emptier namespace.
 */
export function restoreNamespace(interp: Interpreter, input: unknown): void {
  const snapshot = parseSnapshot(input, {
    maxValues: interp.limits.maxSnapshotValues,
    maxIntBits: interp.limits.maxIntBits,
  });
  if (!snapshot) return;
  const { heap } = snapshot;
  const objs: (PyValue | Scope | undefined)[] = new Array(heap.length);
  const parseCache = new Map<string, FunctionInfo | null>();

  const dec = (e: EncodedValue | undefined): PyValue => {
    if (e === null || e === undefined) return null;
    if (typeof e === 'boolean' || typeof e === 'string') return e;
    if (typeof e !== 'object') return null;
    if ('i' in e) return BigInt(e.i);
    if ('f' in e) {
      const f = e.f;
      if (f === 'nan') return Number.NaN;
      if (f === 'inf') return Number.POSITIVE_INFINITY;
      if (f === '-inf') return Number.NEGATIVE_INFINITY;
      if (f === '-0') return -0;
      return Number(f);
    }
    if ('e' in e) return ELLIPSIS;
    if ('r' in e) {
      const o = objs[e.r];
      return o instanceof Scope || o === undefined ? null : o;
    }
    return null;
  };
  const scopeOf = (e: EncodedValue): Scope => {
    if (e && typeof e === 'object' && 'r' in e) {
      const s = objs[e.r];
      if (s instanceof Scope) return s;
    }
    return interp.moduleScope;
  };
  const functionInfo = (src: string, lambda: boolean): FunctionInfo | null => {
    const key = `${lambda ? 'L' : 'D'}${src}`;
    if (parseCache.has(key)) return parseCache.get(key) ?? null;
    let info: FunctionInfo | null = null;
    try {
      if (lambda) {
        const e = parseExpression(src);
        if (e.type === 'Lambda') info = e.fn;
      } else {
        const m = parseModule(src);
        const s = m.body[0] as Stmt | undefined;
        if (s?.type === 'FunctionDef') info = s.fn;
      }
    } catch {
      info = null;
    }
    parseCache.set(key, info);
    return info;
  };
  const lookupRef = (r: EncodedRef): PyValue => {
    switch (r.kind) {
      case 'builtin':
        return BUILTINS.get(r.name) ?? EXC.get(r.name) ?? null;
      case 'type':
        return typeByName(r.name) ?? null;
      case 'module': {
        let v: PyValue = importModule(r.module);
        for (const p of r.path) v = getAttr(interp, v, p);
        return v;
      }
      case 'unbound':
        return getAttr(interp, typeByName(r.type) ?? null, r.name);
      case 'method':
        return getAttr(interp, dec(r.self), r.name);
    }
  };
  const attempt = <T>(f: () => T, fallback: T): T => {
    try {
      return f();
    } catch {
      return fallback;
    }
  };

  // 1. Scopes (parents first: they come later in the heap), then shells for everything except bound methods.
  for (let i = heap.length - 1; i >= 0; i--) {
    const h = heap[i] as HeapEntry;
    if (h?.t !== 'scope' || !Array.isArray(h.locals) || !Array.isArray(h.globals)) continue;
    const locals = new Set(h.locals);
    const parent = h.parent === null ? interp.moduleScope : scopeOf(h.parent);
    const fnInfo: FunctionInfo = {
      name: '',
      params: { args: [], vararg: null, kwonly: [], kwarg: null },
      body: [],
      isLambda: false,
      locals,
      globals: new Set(h.globals),
      nonlocals: new Set(),
      isGenerator: false,
      source: '',
    };
    objs[i] = new Scope(h.kind, new Map(), locals, parent, h.kind === 'function' ? fnInfo : null);
  }
  heap.forEach((h, i) => {
    objs[i] = attempt((): PyValue | Scope | undefined => {
      switch (h?.t) {
        case 'scope':
          return objs[i];
        case 'list':
          return new PyList([]);
        case 'tuple':
          return new PyTuple([]);
        case 'dict':
          return new PyDict();
        case 'set':
          return new PySet(h.frozen);
        case 'range':
          return new PyRange(BigInt(h.v[0]), BigInt(h.v[1]), BigInt(h.v[2]));
        case 'slice':
          return undefined;
        case 'iter':
          return new PyIterator([][Symbol.iterator](), h.name);
        case 'view':
          return null;
        case 'function': {
          const info = functionInfo(h.src, h.lambda);
          if (!info) return null;
          return new PyFunction(info, scopeOf(h.scope), [], new Map());
        }
        case 'builtin':
          return h.ref.kind === 'method' ? undefined : lookupRef(h.ref);
        case 'type':
          return lookupRef(h.ref);
        case 'module':
          return importModule(h.name);
        case 'exception': {
          const cls = EXC.get(h.cls);
          return cls ? new PyException(cls, []) : null;
        }
        case 'date':
        case 'time':
        case 'datetime':
          return restoreDatetimeValue(h.t, h.v);
        case 'timedelta':
          return restoreDatetimeValue('timedelta', h.v);
        case 'ndarray':
          return restoreNdArray(h.dtype, []);
        case 'object':
          return (BUILTINS.get('object') as PyType).callType(interp, [], null);
        default:
          return null;
      }
    }, null);
  });
  // 2. Objects made from other shells: bound methods (need `self`), dict views, slices.
  heap.forEach((h, i) => {
    if (h.t === 'builtin' && h.ref.kind === 'method') objs[i] = attempt(() => lookupRef(h.ref), null);
    else if (h.t === 'view') {
      const d = dec(h.dict);
      objs[i] = d instanceof PyDict ? new PyDictView(d, h.which) : null;
    } else if (h.t === 'slice') objs[i] = new PySlice(dec(h.v[0]), dec(h.v[1]), dec(h.v[2]));
  });
  // 3. Contents that need no hashing.
  heap.forEach((h, i) => {
    const o = objs[i];
    attempt(() => {
      if (h.t === 'list' && o instanceof PyList) o.items = h.v.map(dec);
      else if (h.t === 'tuple' && o instanceof PyTuple) (o.items as PyValue[]).push(...h.v.map(dec));
      else if (h.t === 'iter' && o instanceof PyIterator) o.reset(h.v.map(dec));
      else if (h.t === 'function' && o instanceof PyFunction) {
        (o.defaults as PyValue[]).push(...h.defaults.map(dec));
        for (const [k, x] of h.kwdefaults) (o.kwdefaults as Map<string, PyValue>).set(k, dec(x));
      } else if (h.t === 'scope' && o instanceof Scope) {
        for (const [k, x] of h.vars) o.vars.set(k, dec(x));
      } else if (h.t === 'exception' && o instanceof PyException) {
        (o.args as PyValue[]).push(...h.args.map(dec));
      } else if (h.t === 'ndarray' && o instanceof NdArray) {
        o.data = h.v.map(dec);
      }
    }, undefined);
  });
  // 4. Hashed containers, children before parents (children come later in the heap).
  for (let i = heap.length - 1; i >= 0; i--) {
    const h = heap[i] as HeapEntry;
    const o = objs[i];
    attempt(() => {
      if (h.t === 'dict' && o instanceof PyDict) for (const [k, x] of h.v) o.set(dec(k), dec(x));
      else if (h.t === 'set' && o instanceof PySet) {
        o.restoreLayout(
          h.mask,
          h.fill,
          h.finger,
          h.v.map(([slot, k]) => [slot, dec(k)] as const),
          h.dummies,
        );
      }
    }, undefined);
  }
  for (const [name, e] of snapshot.vars) {
    if (typeof name !== 'string') continue;
    const v = attempt(() => dec(e), null);
    interp.globals.set(name, v);
  }
}
