/**
 * Attribute access: methods of list/dict/set/tuple/int/float/range, module and class attributes, and the
 * sandbox rule that names starting with `_` are never reachable (no `__class__`, `__dict__`, `__globals__`, ...).
 */

import { bind, boundMethod, type MethodImpl, noKwargs } from './args.ts';
import {
  asIndex,
  attributeError,
  custom,
  indexError,
  isInt,
  type Kwargs,
  keyError,
  noAttribute,
  PyBuiltin,
  PyDict,
  PyDictView,
  PyException,
  PyList,
  PyModule,
  PyRange,
  PyTuple,
  PyType,
  type PyValue,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
} from './objects.ts';
import { isSame, iterate, lessThan, pyEquals, toArray } from './ops.ts';
import { PySet } from './pyset.ts';
import { STR_METHODS } from './str-methods.ts';

// ------------------------------------------------------------------------------------------------ sorting

/** Stable sort with Python semantics (keys computed once, only `<` used, reverse keeps equal items in order). */
export function sortValues(rt: Runtime, items: PyValue[], key: PyValue, reverse: boolean): PyValue[] {
  const keys = key === null ? items : items.map((x) => rt.call(key, [x]));
  const idx = items.map((_, i) => i);
  // A comparison of two values costs about a quarter of an evaluation step.
  let comparisons = 0;
  const cmp = (a: number, b: number): number => {
    if ((++comparisons & 3) === 0) rt.step(1);
    const ka = keys[a] as PyValue;
    const kb = keys[b] as PyValue;
    if (lessThan(ka, kb, rt)) return reverse ? 1 : -1;
    if (lessThan(kb, ka, rt)) return reverse ? -1 : 1;
    return 0;
  };
  if (items.length > 1) idx.sort(cmp);
  return idx.map((i) => items[i] as PyValue);
}

export function sortArgs(
  fname: string,
  args: PyValue[],
  kw: Kwargs | null,
): { key: PyValue; reverse: boolean } {
  if (args.length) throw typeError(`${fname}() takes no positional arguments`);
  let key: PyValue = null;
  let reverse = false;
  if (kw) {
    for (const [k, v] of kw) {
      if (k === 'key') key = v;
      else if (k === 'reverse') {
        if (!isInt(v)) throw typeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
        reverse = toBig(v) !== 0n;
      } else throw typeError(`'${k}' is an invalid keyword argument for ${fname}()`);
    }
  }
  return { key, reverse };
}

// ------------------------------------------------------------------------------------------------ list

function listIndexArgs(
  self: PyList,
  start: PyValue | undefined,
  stop: PyValue | undefined,
): [number, number] {
  const n = self.items.length;
  const norm = (v: PyValue | undefined, dflt: number) => {
    if (v === undefined || v === null) return dflt;
    let i = Number(asIndex(v));
    if (i < 0) i = Math.max(0, i + n);
    return Math.min(i, n);
  };
  return [norm(start, 0), norm(stop, n)];
}

const LIST_METHODS = new Map<string, MethodImpl>([
  [
    'append',
    (rt, self, args, kw) => {
      noKwargs('list.append', kw);
      if (args.length !== 1)
        throw typeError(`list.append() takes exactly one argument (${args.length} given)`);
      rt.alloc(1);
      (self as PyList).items.push(args[0] as PyValue);
      return null;
    },
  ],
  [
    'extend',
    (rt, self, args, kw) => {
      noKwargs('list.extend', kw);
      if (args.length !== 1)
        throw typeError(`list.extend() takes exactly one argument (${args.length} given)`);
      const items = toArray(args[0] as PyValue, rt);
      rt.alloc(items.length);
      for (const x of items) (self as PyList).items.push(x);
      return null;
    },
  ],
  [
    'insert',
    (rt, self, args, kw) => {
      noKwargs('list.insert', kw);
      if (args.length !== 2) throw typeError(`insert expected 2 arguments, got ${args.length}`);
      const l = (self as PyList).items;
      let i = Number(asIndex(args[0] as PyValue));
      if (i < 0) i = Math.max(0, i + l.length);
      i = Math.min(i, l.length);
      rt.alloc(1);
      rt.step(Math.ceil(l.length / 64));
      l.splice(i, 0, args[1] as PyValue);
      return null;
    },
  ],
  [
    'pop',
    (_rt, self, args, kw) => {
      noKwargs('list.pop', kw);
      if (args.length > 1) throw typeError(`pop expected at most 1 argument, got ${args.length}`);
      const l = (self as PyList).items;
      if (!l.length) throw indexError('pop from empty list');
      let i = args.length ? Number(asIndex(args[0] as PyValue)) : l.length - 1;
      if (i < 0) i += l.length;
      if (i < 0 || i >= l.length) throw indexError('pop index out of range');
      return l.splice(i, 1)[0] as PyValue;
    },
  ],
  [
    'remove',
    (rt, self, args, kw) => {
      noKwargs('list.remove', kw);
      if (args.length !== 1)
        throw typeError(`list.remove() takes exactly one argument (${args.length} given)`);
      const l = (self as PyList).items;
      for (let i = 0; i < l.length; i++) {
        rt.step(1);
        if (
          isSame(l[i] as PyValue, args[0] as PyValue) ||
          pyEquals(l[i] as PyValue, args[0] as PyValue, rt)
        ) {
          l.splice(i, 1);
          return null;
        }
      }
      throw valueError('list.remove(x): x not in list');
    },
  ],
  [
    'index',
    (rt, self, args, kw) => {
      noKwargs('list.index', kw);
      if (args.length < 1 || args.length > 3) {
        throw typeError(`index expected at least 1 argument, got ${args.length}`);
      }
      const l = self as PyList;
      const [a, b] = listIndexArgs(l, args[1], args[2]);
      for (let i = a; i < b && i < l.items.length; i++) {
        rt.step(1);
        const x = l.items[i] as PyValue;
        if (isSame(x, args[0] as PyValue) || pyEquals(x, args[0] as PyValue, rt)) return BigInt(i);
      }
      throw valueError(`${rt.repr(args[0] as PyValue)} is not in list`);
    },
  ],
  [
    'count',
    (rt, self, args, kw) => {
      noKwargs('list.count', kw);
      if (args.length !== 1)
        throw typeError(`list.count() takes exactly one argument (${args.length} given)`);
      let n = 0n;
      for (const x of (self as PyList).items) {
        rt.step(1);
        if (isSame(x, args[0] as PyValue) || pyEquals(x, args[0] as PyValue, rt)) n++;
      }
      return n;
    },
  ],
  [
    'sort',
    (rt, self, args, kw) => {
      const { key, reverse } = sortArgs('sort', args, kw);
      const l = self as PyList;
      l.items = sortValues(rt, l.items, key, reverse);
      return null;
    },
  ],
  [
    'reverse',
    (_rt, self, args, kw) => {
      bind('list.reverse', args, kw, [], 0);
      (self as PyList).items.reverse();
      return null;
    },
  ],
  [
    'copy',
    (rt, self, args, kw) => {
      bind('list.copy', args, kw, [], 0);
      rt.alloc((self as PyList).items.length);
      return new PyList((self as PyList).items.slice());
    },
  ],
  [
    'clear',
    (_rt, self, args, kw) => {
      bind('list.clear', args, kw, [], 0);
      (self as PyList).items = [];
      return null;
    },
  ],
]);

// ------------------------------------------------------------------------------------------------ tuple

const TUPLE_METHODS = new Map<string, MethodImpl>([
  [
    'count',
    (rt, self, args, kw) => {
      noKwargs('tuple.count', kw);
      if (args.length !== 1)
        throw typeError(`tuple.count() takes exactly one argument (${args.length} given)`);
      let n = 0n;
      for (const x of (self as PyTuple).items)
        if (isSame(x, args[0] as PyValue) || pyEquals(x, args[0] as PyValue, rt)) n++;
      return n;
    },
  ],
  [
    'index',
    (rt, self, args, kw) => {
      noKwargs('tuple.index', kw);
      if (args.length < 1) throw typeError(`index expected at least 1 argument, got ${args.length}`);
      const items = (self as PyTuple).items;
      for (let i = 0; i < items.length; i++) {
        if (
          isSame(items[i] as PyValue, args[0] as PyValue) ||
          pyEquals(items[i] as PyValue, args[0] as PyValue, rt)
        ) {
          return BigInt(i);
        }
      }
      throw valueError('tuple.index(x): x not in tuple');
    },
  ],
]);

// ------------------------------------------------------------------------------------------------ dict

/** dict.update / dict(...) semantics: a mapping, or an iterable of key/value pairs, then keyword arguments. */
export function dictUpdate(rt: Runtime, d: PyDict, arg: PyValue | undefined, kw: Kwargs | null): void {
  if (arg !== undefined) {
    if (arg instanceof PyDict) {
      for (const [k, v] of arg.entries()) d.set(k, v);
    } else {
      const it = iterate(arg, rt);
      let i = 0;
      for (let r = it.next(); !r.done; r = it.next(), i++) {
        rt.step(1);
        let pair: PyValue[];
        try {
          pair = toArray(r.value, rt);
        } catch {
          throw typeError(`cannot convert dictionary update sequence element #${i} to a sequence`);
        }
        if (pair.length !== 2) {
          throw valueError(
            `dictionary update sequence element #${i} has length ${pair.length}; 2 is required`,
          );
        }
        d.set(pair[0] as PyValue, pair[1] as PyValue);
      }
    }
  }
  if (kw) for (const [k, v] of kw) d.set(k, v);
  rt.alloc(d.size);
}

const DICT_METHODS = new Map<string, MethodImpl>([
  [
    'get',
    (_rt, self, args, kw) => {
      noKwargs('dict.get', kw);
      if (args.length < 1) throw typeError(`get expected at least 1 argument, got ${args.length}`);
      if (args.length > 2) throw typeError(`get expected at most 2 arguments, got ${args.length}`);
      const v = (self as PyDict).get(args[0] as PyValue);
      return v === undefined ? (args[1] ?? null) : v;
    },
  ],
  [
    'keys',
    (_rt, self, args, kw) => {
      bind('dict.keys', args, kw, [], 0);
      return new PyDictView(self as PyDict, 'keys');
    },
  ],
  [
    'values',
    (_rt, self, args, kw) => {
      bind('dict.values', args, kw, [], 0);
      return new PyDictView(self as PyDict, 'values');
    },
  ],
  [
    'items',
    (_rt, self, args, kw) => {
      bind('dict.items', args, kw, [], 0);
      return new PyDictView(self as PyDict, 'items');
    },
  ],
  [
    'update',
    (rt, self, args, kw) => {
      if (args.length > 1) throw typeError(`update expected at most 1 argument, got ${args.length}`);
      dictUpdate(rt, self as PyDict, args[0], kw);
      return null;
    },
  ],
  [
    'pop',
    (_rt, self, args, kw) => {
      noKwargs('dict.pop', kw);
      if (args.length < 1) throw typeError(`pop expected at least 1 argument, got ${args.length}`);
      if (args.length > 2) throw typeError(`pop expected at most 2 arguments, got ${args.length}`);
      const d = self as PyDict;
      const v = d.get(args[0] as PyValue);
      if (v === undefined) {
        if (args.length === 2) return args[1] as PyValue;
        throw keyError(args[0] as PyValue);
      }
      d.delete(args[0] as PyValue);
      return v;
    },
  ],
  [
    'popitem',
    (_rt, self, args, kw) => {
      bind('dict.popitem', args, kw, [], 0);
      const d = self as PyDict;
      const entries = d.entries();
      const last = entries[entries.length - 1];
      if (!last) throw keyError('popitem(): dictionary is empty');
      d.delete(last[0]);
      return new PyTuple([last[0], last[1]]);
    },
  ],
  [
    'setdefault',
    (rt, self, args, kw) => {
      noKwargs('dict.setdefault', kw);
      if (args.length < 1) throw typeError(`setdefault expected at least 1 argument, got ${args.length}`);
      const d = self as PyDict;
      const v = d.get(args[0] as PyValue);
      if (v !== undefined) return v;
      const dflt = args[1] ?? null;
      d.set(args[0] as PyValue, dflt);
      rt.alloc(1);
      return dflt;
    },
  ],
  [
    'copy',
    (rt, self, args, kw) => {
      bind('dict.copy', args, kw, [], 0);
      rt.alloc((self as PyDict).size);
      return PyDict.from((self as PyDict).entries());
    },
  ],
  [
    'clear',
    (_rt, self, args, kw) => {
      bind('dict.clear', args, kw, [], 0);
      (self as PyDict).map.clear();
      return null;
    },
  ],
]);

export function dictFromKeys(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('dict.fromkeys', kw);
  if (args.length < 1 || args.length > 2)
    throw typeError(`fromkeys expected at least 1 argument, got ${args.length}`);
  const d = new PyDict();
  for (const k of toArray(args[0] as PyValue, rt)) d.set(k, args[1] ?? null);
  return d;
}

// ------------------------------------------------------------------------------------------------ set

export function toSet(rt: Runtime, v: PyValue, frozen = false): PySet {
  const s = new PySet(frozen);
  if (v instanceof PySet) {
    s.merge(v);
    return s;
  }
  if (v instanceof PyDict) {
    s.mergeDictKeys(v);
    return s;
  }
  const it = iterate(v, rt);
  for (let r = it.next(); !r.done; r = it.next()) {
    rt.step(1);
    s.add(r.value);
  }
  rt.alloc(s.size);
  return s;
}

function otherSets(rt: Runtime, args: PyValue[]): PySet[] {
  return args.map((a) => (a instanceof PySet ? a : toSet(rt, a)));
}

const SET_METHODS = new Map<string, MethodImpl>([
  [
    'add',
    (rt, self, args, kw) => {
      noKwargs('set.add', kw);
      if (args.length !== 1) throw typeError(`set.add() takes exactly one argument (${args.length} given)`);
      rt.alloc(1);
      (self as PySet).add(args[0] as PyValue);
      return null;
    },
  ],
  [
    'remove',
    (_rt, self, args, kw) => {
      noKwargs('set.remove', kw);
      if (args.length !== 1)
        throw typeError(`set.remove() takes exactly one argument (${args.length} given)`);
      if (!(self as PySet).discard(args[0] as PyValue)) throw keyError(args[0] as PyValue);
      return null;
    },
  ],
  [
    'discard',
    (_rt, self, args, kw) => {
      noKwargs('set.discard', kw);
      if (args.length !== 1)
        throw typeError(`set.discard() takes exactly one argument (${args.length} given)`);
      (self as PySet).discard(args[0] as PyValue);
      return null;
    },
  ],
  [
    'pop',
    (_rt, self, args, kw) => {
      bind('set.pop', args, kw, [], 0);
      const v = (self as PySet).pop();
      if (v === undefined) throw keyError('pop from an empty set');
      return v;
    },
  ],
  [
    'clear',
    (_rt, self, args, kw) => {
      bind('set.clear', args, kw, [], 0);
      (self as PySet).clear();
      return null;
    },
  ],
  [
    'copy',
    (_rt, self, args, kw) => {
      bind('set.copy', args, kw, [], 0);
      return (self as PySet).copy();
    },
  ],
  [
    'update',
    (rt, self, args, kw) => {
      noKwargs('set.update', kw);
      for (const a of args) {
        if (a instanceof PySet) (self as PySet).merge(a);
        else if (a instanceof PyDict) (self as PySet).mergeDictKeys(a);
        else for (const x of toArray(a, rt)) (self as PySet).add(x);
      }
      rt.alloc((self as PySet).size);
      return null;
    },
  ],
  [
    'union',
    (rt, self, args, kw) => {
      noKwargs('set.union', kw);
      const r = (self as PySet).copy();
      for (const a of args) {
        if (a instanceof PySet) r.merge(a);
        else for (const x of toArray(a, rt)) r.add(x);
      }
      return r;
    },
  ],
  [
    'intersection',
    (rt, self, args, kw) => {
      noKwargs('set.intersection', kw);
      let r = (self as PySet).copy();
      for (const a of args) r = a instanceof PySet ? r.intersection(a) : r.intersectionIter(toArray(a, rt));
      return r;
    },
  ],
  [
    'difference',
    (rt, self, args, kw) => {
      noKwargs('set.difference', kw);
      let r = (self as PySet).copy();
      for (const o of otherSets(rt, args)) r = r.difference(o);
      return r;
    },
  ],
  [
    'symmetric_difference',
    (rt, self, args, kw) => {
      noKwargs('set.symmetric_difference', kw);
      if (args.length !== 1)
        throw typeError(`set.symmetric_difference() takes exactly one argument (${args.length} given)`);
      return (self as PySet).symmetricDifference(otherSets(rt, args)[0] as PySet);
    },
  ],
  [
    'intersection_update',
    (rt, self, args, kw) => {
      noKwargs('set.intersection_update', kw);
      const s = self as PySet;
      let r = s.copy();
      for (const a of args) r = a instanceof PySet ? r.intersection(a) : r.intersectionIter(toArray(a, rt));
      s.clear();
      s.merge(r);
      return null;
    },
  ],
  [
    'difference_update',
    (rt, self, args, kw) => {
      noKwargs('set.difference_update', kw);
      for (const o of otherSets(rt, args)) for (const x of o.items()) (self as PySet).discard(x);
      return null;
    },
  ],
  [
    'symmetric_difference_update',
    (rt, self, args, kw) => {
      noKwargs('set.symmetric_difference_update', kw);
      const s = self as PySet;
      for (const x of (otherSets(rt, args)[0] as PySet).items()) {
        if (!s.discard(x)) s.add(x);
      }
      return null;
    },
  ],
  [
    'issubset',
    (rt, self, args, kw) => {
      noKwargs('set.issubset', kw);
      const o = otherSets(rt, args)[0] as PySet;
      return (self as PySet).items().every((x) => o.has(x));
    },
  ],
  [
    'issuperset',
    (rt, self, args, kw) => {
      noKwargs('set.issuperset', kw);
      const o = otherSets(rt, args)[0] as PySet;
      return o.items().every((x) => (self as PySet).has(x));
    },
  ],
  [
    'isdisjoint',
    (rt, self, args, kw) => {
      noKwargs('set.isdisjoint', kw);
      const o = otherSets(rt, args)[0] as PySet;
      return !o.items().some((x) => (self as PySet).has(x));
    },
  ],
]);

const FROZENSET_METHODS = new Set([
  'copy',
  'union',
  'intersection',
  'difference',
  'symmetric_difference',
  'issubset',
  'issuperset',
  'isdisjoint',
]);

// ------------------------------------------------------------------------------------------------ numbers

const INT_METHODS = new Map<string, MethodImpl>([
  [
    'bit_length',
    (_rt, self) => {
      const n = toBig(self as bigint | boolean);
      const a = n < 0n ? -n : n;
      return a === 0n ? 0n : BigInt(a.toString(2).length);
    },
  ],
  [
    'bit_count',
    (_rt, self) => {
      const n = toBig(self as bigint | boolean);
      return BigInt([...(n < 0n ? -n : n).toString(2)].filter((c) => c === '1').length);
    },
  ],
  ['conjugate', (_rt, self) => toBig(self as bigint | boolean)],
  ['as_integer_ratio', (_rt, self) => new PyTuple([toBig(self as bigint | boolean), 1n])],
]);

const FLOAT_METHODS = new Map<string, MethodImpl>([
  ['is_integer', (_rt, self) => Number.isInteger(self as number)],
  ['conjugate', (_rt, self) => self],
  [
    'as_integer_ratio',
    (_rt, self) => {
      let x = self as number;
      if (Number.isNaN(x)) throw valueError('cannot convert NaN to integer ratio');
      if (!Number.isFinite(x)) throw attributeError('cannot convert Infinity to integer ratio');
      let d = 1n;
      while (!Number.isInteger(x)) {
        x *= 2;
        d *= 2n;
      }
      return new PyTuple([BigInt(x), d]);
    },
  ],
]);

// ------------------------------------------------------------------------------------------------ range

const RANGE_METHODS = new Map<string, MethodImpl>([
  [
    'count',
    (rt, self, args) => {
      const r = self as PyRange;
      let n = 0n;
      const it = iterate(r, rt);
      if (isInt(args[0] ?? null)) {
        const v = toBig(args[0] as bigint);
        const { start, stop, step } = r;
        const inside = step > 0n ? v >= start && v < stop : v <= start && v > stop;
        return inside && (v - start) % step === 0n ? 1n : 0n;
      }
      for (let x = it.next(); !x.done; x = it.next()) if (pyEquals(x.value, args[0] as PyValue, rt)) n++;
      return n;
    },
  ],
  [
    'index',
    (_rt, self, args) => {
      const r = self as PyRange;
      const v = args[0] ?? null;
      if (isInt(v)) {
        const n = toBig(v);
        const { start, stop, step } = r;
        const inside = step > 0n ? n >= start && n < stop : n <= start && n > stop;
        if (inside && (n - start) % step === 0n) return (n - start) / step;
      }
      throw valueError(`${typeof v === 'bigint' ? v : typeName(v)} is not in range`);
    },
  ],
]);

// ------------------------------------------------------------------------------------------------ dispatch

const TYPE_METHOD_TABLES: ReadonlyMap<string, ReadonlyMap<string, MethodImpl>> = new Map([
  ['str', STR_METHODS],
  ['list', LIST_METHODS],
  ['dict', DICT_METHODS],
  ['set', SET_METHODS],
  ['tuple', TUPLE_METHODS],
  ['int', INT_METHODS],
  ['float', FLOAT_METHODS],
]);

function selfTypeMatches(type: string, v: PyValue): boolean {
  switch (type) {
    case 'str':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'bigint' || typeof v === 'boolean';
    case 'float':
      return typeof v === 'number';
    case 'list':
      return v instanceof PyList;
    case 'dict':
      return v instanceof PyDict;
    case 'set':
      return v instanceof PySet;
    case 'tuple':
      return v instanceof PyTuple;
  }
  return false;
}

/** The method implementation for `v.name(...)` on builtin types, without creating a bound method object. */
export function directMethod(v: PyValue, name: string): MethodImpl | undefined {
  if (name.startsWith('_')) return undefined;
  switch (typeof v) {
    case 'string':
      return STR_METHODS.get(name);
    case 'object':
      if (v instanceof PyList) return LIST_METHODS.get(name);
      if (v instanceof PyDict) return DICT_METHODS.get(name);
      if (v instanceof PySet)
        return v.frozen && !FROZENSET_METHODS.has(name) ? undefined : SET_METHODS.get(name);
      if (v instanceof PyTuple) return TUPLE_METHODS.get(name);
      return undefined;
    default:
      return undefined;
  }
}

/** `getattr(v, name)`, raising AttributeError like CPython. */
export function getAttr(rt: Runtime, v: PyValue, name: string): PyValue {
  if (name.startsWith('_')) throw noAttribute(v, name);
  let table: ReadonlyMap<string, MethodImpl> | undefined;
  switch (typeof v) {
    case 'string':
      table = STR_METHODS;
      break;
    case 'bigint':
    case 'boolean':
      if (name === 'real' || name === 'numerator') return toBig(v);
      if (name === 'imag') return 0n;
      if (name === 'denominator') return 1n;
      table = INT_METHODS;
      break;
    case 'number':
      if (name === 'real') return v;
      if (name === 'imag') return 0;
      table = FLOAT_METHODS;
      break;
    default:
      if (v instanceof PyList) table = LIST_METHODS;
      else if (v instanceof PyDict) table = DICT_METHODS;
      else if (v instanceof PySet) {
        if (v.frozen && !FROZENSET_METHODS.has(name)) throw noAttribute(v, name);
        table = SET_METHODS;
      } else if (v instanceof PyTuple) table = TUPLE_METHODS;
      else if (v instanceof PyRange) {
        if (name === 'start') return v.start;
        if (name === 'stop') return v.stop;
        if (name === 'step') return v.step;
        table = RANGE_METHODS;
      } else if (v instanceof PyModule) {
        const a = v.attrs.get(name);
        if (a === undefined) throw noAttribute(v, name);
        return a;
      } else if (v instanceof PyType) {
        return typeAttr(v, name);
      } else if (v instanceof PyException) {
        if (name === 'args') return new PyTuple(v.args);
      } else if (v instanceof PyDictView) {
        if (name === 'mapping') return v.dict;
      } else {
        const c = custom(v);
        const r = c?.pyGetAttr?.(rt, name);
        if (r !== undefined) return r;
      }
  }
  const impl = table?.get(name);
  if (impl && !name.startsWith('_')) return boundMethod(v, name, impl);
  throw noAttribute(v, name);
}

/** Class attributes: static methods (`dict.fromkeys`, `datetime.strptime`) and unbound methods (`str.lower`). */
function typeAttr(t: PyType, name: string): PyValue {
  const a = t.attrs.get(name);
  if (a !== undefined) return a;
  const table = TYPE_METHOD_TABLES.get(t.name);
  const impl = table?.get(name);
  if (impl) return unboundMethod(t.name, name, impl);
  throw noAttribute(t, name);
}

export function unboundMethod(type: string, name: string, impl: MethodImpl): PyBuiltin {
  return new PyBuiltin(
    name,
    (rt, args, kwargs) => {
      if (!args.length) throw typeError(`unbound method ${type}.${name}() needs an argument`);
      const self = args[0] as PyValue;
      if (!selfTypeMatches(type, self)) {
        throw typeError(
          `descriptor '${name}' for '${type}' objects doesn't apply to a '${typeName(self)}' object`,
        );
      }
      return impl(rt, self, args.slice(1), kwargs);
    },
    { kind: 'unbound', type, name },
  );
}

/** Looks up a method implementation for snapshots (bound/unbound methods are stored by type and name). */
export function methodImpl(type: string, name: string): MethodImpl | undefined {
  if (type === 'range') return RANGE_METHODS.get(name);
  if (type === 'frozenset') return FROZENSET_METHODS.has(name) ? SET_METHODS.get(name) : undefined;
  return TYPE_METHOD_TABLES.get(type)?.get(name);
}
