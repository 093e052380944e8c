/**
 * The builtins namespace: functions (print, len, sorted, ...), type objects (int, str, list, ...) and exception
 * classes. Host-reaching builtins (open, exec, eval, compile, __import__, globals, locals, vars, dir, input...)
 * are deliberately absent, so Python code gets `NameError: name 'open' is not defined`.
 */

import { bind, builtin, noKwargs } from './args.ts';
import { asciiRepr, formatValue } from './format.ts';
import { dictFromKeys, dictUpdate, sortArgs, sortValues, toSet } from './methods.ts';
import {
  floatDivmod,
  floatToInt,
  intFloorDiv,
  intMod,
  intToFloat,
  parsePyFloat,
  roundFloat,
  roundHalfEven,
  roundIntTo,
  stripPyWhitespace,
} from './numeric.ts';
import {
  asIndex,
  custom,
  ELLIPSIS,
  EMPTY_TUPLE,
  EXC,
  hashKey,
  isInt,
  isNumber,
  type Kwargs,
  MODULE_EXCEPTIONS,
  PyBuiltin,
  PyDict,
  PyDictView,
  PyError,
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
  pyErr,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
} from './objects.ts';
import { binaryOp, floatPow, iterate, lessThan, makeIterator, pyLen, toArray, truthy } from './ops.ts';
import { PySet, pyHash } from './pyset.ts';
import { cpLength } from './text.ts';

// ------------------------------------------------------------------------------------------------ type objects

const typeRegistry = new Map<string, PyType>();

function defType(
  name: string,
  construct: ((rt: Runtime, args: PyValue[], kw: Kwargs | null) => PyValue) | null,
  base: PyType | null,
): PyType {
  const t = new PyType(name, construct, base);
  typeRegistry.set(name, t);
  return t;
}

export const OBJECT_TYPE = defType('object', () => new PlainObject(), null);

class PlainObject extends PyObject {
  get typeName(): string {
    return 'object';
  }
}

function parseIntString(s: string, base: number): bigint | null {
  let t = stripPyWhitespace(s);
  let neg = false;
  if (t[0] === '+' || t[0] === '-') {
    neg = t[0] === '-';
    t = t.slice(1);
  }
  const lower = t.toLowerCase();
  if (base === 0) {
    if (lower.startsWith('0x')) base = 16;
    else if (lower.startsWith('0o')) base = 8;
    else if (lower.startsWith('0b')) base = 2;
    else {
      base = 10;
      if (/^0+_?[0-9_]*$/.test(t) && /[1-9]/.test(t)) return null;
    }
  }
  if (
    (base === 16 && lower.startsWith('0x')) ||
    (base === 8 && lower.startsWith('0o')) ||
    (base === 2 && lower.startsWith('0b'))
  ) {
    t = t.slice(2);
    if (t.startsWith('_')) t = t.slice(1);
  }
  if (!t || t.startsWith('_') || t.endsWith('_') || t.includes('__')) return null;
  const digits = t.replace(/_/g, '');
  const valid = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, base);
  let n = 0n;
  const b = BigInt(base);
  if (base === 10) {
    if (!/^[0-9]+$/.test(digits)) return null;
    if (digits.length > 4300) {
      throw valueError(
        `Exceeds the limit (4300 digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
      );
    }
    n = BigInt(digits);
  } else {
    for (const ch of digits.toLowerCase()) {
      const d = valid.indexOf(ch);
      if (d < 0) return null;
      n = n * b + BigInt(d);
    }
  }
  return neg ? -n : n;
}

export const INT_TYPE = defType(
  'int',
  (_rt, args, kw) => {
    const [x, base] = bind('int', args, kw, ['x', 'base'], 0, { positionalOnly: 1 });
    if (x === undefined) {
      if (base !== undefined) throw typeError('int() missing string argument');
      return 0n;
    }
    if (base !== undefined) {
      if (typeof x !== 'string') throw typeError("int() can't convert non-string with explicit base");
      const b = Number(asIndex(base));
      if (b !== 0 && (b < 2 || b > 36)) throw valueError('int() base must be >= 2 and <= 36, or 0');
      const r = parseIntString(x, b);
      if (r === null) throw valueError(`invalid literal for int() with base ${b}: ${reprStr(x)}`);
      return r;
    }
    if (typeof x === 'bigint') return x;
    if (typeof x === 'boolean') return x ? 1n : 0n;
    if (typeof x === 'number') return floatToInt(x);
    if (typeof x === 'string') {
      const r = parseIntString(x, 10);
      if (r === null) throw valueError(`invalid literal for int() with base 10: ${reprStr(x)}`);
      return r;
    }
    throw typeError(
      `int() argument must be a string, a bytes-like object or a real number, not '${typeName(x)}'`,
    );
  },
  OBJECT_TYPE,
);

function reprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return out + quote;
}

export const BOOL_TYPE = defType(
  'bool',
  (rt, args, kw) => {
    noKwargs('bool', kw);
    if (args.length > 1) throw typeError(`bool expected at most 1 argument, got ${args.length}`);
    return args.length ? truthy(args[0] as PyValue, rt) : false;
  },
  INT_TYPE,
);

export const FLOAT_TYPE = defType(
  'float',
  (_rt, args, kw) => {
    noKwargs('float', kw);
    if (args.length > 1) throw typeError(`float expected at most 1 argument, got ${args.length}`);
    if (!args.length) return 0;
    const x = args[0] as PyValue;
    if (typeof x === 'number') return x;
    if (typeof x === 'bigint') return intToFloat(x);
    if (typeof x === 'boolean') return x ? 1 : 0;
    if (typeof x === 'string') {
      const r = parsePyFloat(x);
      if (r === null) throw valueError(`could not convert string to float: ${reprStr(x)}`);
      return r;
    }
    throw typeError(`float() argument must be a string or a real number, not '${typeName(x)}'`);
  },
  OBJECT_TYPE,
);

export const STR_TYPE = defType(
  'str',
  (rt, args, kw) => {
    const [x] = bind('str', args, kw, ['object', 'encoding', 'errors'], 0);
    if (args.length > 1) throw pyErr('NotImplementedError', 'bytes decoding not supported in this sandbox');
    return x === undefined ? '' : rt.str(x);
  },
  OBJECT_TYPE,
);

export const LIST_TYPE = defType(
  'list',
  (rt, args, kw) => {
    noKwargs('list', kw);
    if (args.length > 1) throw typeError(`list expected at most 1 argument, got ${args.length}`);
    if (!args.length) return new PyList([]);
    const items = toArray(args[0] as PyValue, rt);
    rt.alloc(items.length);
    return new PyList(items);
  },
  OBJECT_TYPE,
);

export const TUPLE_TYPE = defType(
  'tuple',
  (rt, args, kw) => {
    noKwargs('tuple', kw);
    if (args.length > 1) throw typeError(`tuple expected at most 1 argument, got ${args.length}`);
    if (!args.length) return EMPTY_TUPLE;
    const x = args[0] as PyValue;
    if (x instanceof PyTuple) return x;
    const items = toArray(x, rt);
    rt.alloc(items.length);
    return new PyTuple(items);
  },
  OBJECT_TYPE,
);

export const DICT_TYPE = defType(
  'dict',
  (rt, args, kw) => {
    if (args.length > 1) throw typeError(`dict expected at most 1 argument, got ${args.length}`);
    const d = new PyDict();
    dictUpdate(rt, d, args[0], kw);
    return d;
  },
  OBJECT_TYPE,
);
DICT_TYPE.attrs.set(
  'fromkeys',
  new PyBuiltin('fromkeys', dictFromKeys, { kind: 'unbound', type: 'dict', name: 'fromkeys' }),
);

export const SET_TYPE = defType(
  'set',
  (rt, args, kw) => {
    noKwargs('set', kw);
    if (args.length > 1) throw typeError(`set expected at most 1 argument, got ${args.length}`);
    return args.length ? toSet(rt, args[0] as PyValue) : new PySet();
  },
  OBJECT_TYPE,
);

export const FROZENSET_TYPE = defType(
  'frozenset',
  (rt, args, kw) => {
    noKwargs('frozenset', kw);
    if (args.length > 1) throw typeError(`frozenset expected at most 1 argument, got ${args.length}`);
    return args.length ? toSet(rt, args[0] as PyValue, true) : new PySet(true);
  },
  OBJECT_TYPE,
);

function rangeArg(v: PyValue | undefined): bigint {
  return asIndex(v ?? null);
}

export const RANGE_TYPE = defType(
  'range',
  (_rt, args, kw) => {
    noKwargs('range', kw);
    if (args.length === 0) throw typeError('range expected at least 1 argument, got 0');
    if (args.length > 3) throw typeError(`range expected at most 3 arguments, got ${args.length}`);
    if (args.length === 1) return new PyRange(0n, rangeArg(args[0]), 1n);
    const step = args.length === 3 ? rangeArg(args[2]) : 1n;
    if (step === 0n) throw valueError('range() arg 3 must not be zero');
    return new PyRange(rangeArg(args[0]), rangeArg(args[1]), step);
  },
  OBJECT_TYPE,
);

export const SLICE_TYPE = defType(
  'slice',
  (_rt, args, kw) => {
    noKwargs('slice', kw);
    if (args.length === 0) throw typeError('slice expected at least 1 argument, got 0');
    if (args.length === 1) return new PySlice(null, args[0] as PyValue, null);
    return new PySlice(args[0] as PyValue, args[1] as PyValue, args[2] ?? null);
  },
  OBJECT_TYPE,
);

export const TYPE_TYPE = defType(
  'type',
  (_rt, args, kw) => {
    noKwargs('type', kw);
    if (args.length === 1) return typeOf(args[0] as PyValue);
    if (args.length === 3) throw pyErr('NotImplementedError', 'class creation not supported in this sandbox');
    throw typeError('type() takes 1 or 3 arguments');
  },
  OBJECT_TYPE,
);

const ENUMERATE_TYPE = defType(
  'enumerate',
  (rt, args, kw) => {
    const [it, start] = bind('enumerate', args, kw, ['iterable', 'start'], 1);
    let i = start === undefined ? 0n : asIndex(start);
    const src = iterate(it as PyValue, rt);
    function* gen(): Iterator<PyValue> {
      for (let r = src.next(); !r.done; r = src.next()) {
        rt.step(1);
        yield new PyTuple([i, r.value]);
        i += 1n;
      }
    }
    return new PyIterator(gen(), 'enumerate');
  },
  OBJECT_TYPE,
);

const ZIP_TYPE = defType(
  'zip',
  (rt, args, kw) => {
    let strict = false;
    if (kw) {
      for (const [k, v] of kw) {
        if (k !== 'strict') throw typeError(`zip() got an unexpected keyword argument '${k}'`);
        strict = truthy(v, rt);
      }
    }
    const its = args.map((a) => iterate(a, rt));
    function* gen(): Iterator<PyValue> {
      if (!its.length) return;
      for (;;) {
        const row: PyValue[] = [];
        for (let k = 0; k < its.length; k++) {
          const r = (its[k] as Iterator<PyValue>).next();
          if (r.done) {
            if (strict && (k > 0 || its.slice(1).some((x) => !x.next().done))) {
              throw valueError(
                k > 0
                  ? `zip() argument ${k + 1} is shorter than argument${k > 1 ? 's 1-' : ' '}${k}`
                  : 'zip() argument 2 is longer than argument 1',
              );
            }
            return;
          }
          row.push(r.value);
        }
        rt.step(1);
        yield new PyTuple(row);
      }
    }
    return new PyIterator(gen(), 'zip');
  },
  OBJECT_TYPE,
);

const MAP_TYPE = defType(
  'map',
  (rt, args, kw) => {
    noKwargs('map', kw);
    if (args.length < 2) throw typeError('map() must have at least two arguments.');
    const fn = args[0] as PyValue;
    const its = args.slice(1).map((a) => iterate(a, rt));
    function* gen(): Iterator<PyValue> {
      for (;;) {
        const row: PyValue[] = [];
        for (const it of its) {
          const r = it.next();
          if (r.done) return;
          row.push(r.value);
        }
        rt.step(1);
        yield rt.call(fn, row);
      }
    }
    return new PyIterator(gen(), 'map');
  },
  OBJECT_TYPE,
);

const FILTER_TYPE = defType(
  'filter',
  (rt, args, kw) => {
    noKwargs('filter', kw);
    if (args.length !== 2) throw typeError(`filter expected 2 arguments, got ${args.length}`);
    const fn = args[0] as PyValue;
    const src = iterate(args[1] as PyValue, rt);
    function* gen(): Iterator<PyValue> {
      for (let r = src.next(); !r.done; r = src.next()) {
        rt.step(1);
        if (truthy(fn === null ? r.value : rt.call(fn, [r.value]), rt)) yield r.value;
      }
    }
    return new PyIterator(gen(), 'filter');
  },
  OBJECT_TYPE,
);

const REVERSED_TYPE = defType(
  'reversed',
  (rt, args, kw) => {
    noKwargs('reversed', kw);
    if (args.length !== 1) throw typeError(`reversed expected 1 argument, got ${args.length}`);
    const x = args[0] as PyValue;
    if (x instanceof PyList) {
      const l = x;
      function* gen(): Iterator<PyValue> {
        for (let i = l.items.length - 1; i >= 0; i--) {
          if (i < l.items.length) yield l.items[i] as PyValue;
        }
      }
      return new PyIterator(gen(), 'list_reverseiterator');
    }
    if (
      x instanceof PyTuple ||
      typeof x === 'string' ||
      x instanceof PyRange ||
      x instanceof PyDict ||
      x instanceof PyDictView
    ) {
      const items = toArray(x, rt).reverse();
      const name =
        x instanceof PyRange
          ? 'range_iterator'
          : x instanceof PyDict
            ? 'dict_reversekeyiterator'
            : 'reversed';
      return new PyIterator(items[Symbol.iterator](), name);
    }
    const c = custom(x);
    if (c?.pyIter && c.pyLen) return new PyIterator(toArray(x, rt).reverse()[Symbol.iterator](), 'reversed');
    throw typeError(`'${typeName(x)}' object is not reversible`);
  },
  OBJECT_TYPE,
);

const NONE_TYPE = defType('NoneType', null, OBJECT_TYPE);
const FUNCTION_TYPE = defType('function', null, OBJECT_TYPE);
const BUILTIN_FN_TYPE = defType('builtin_function_or_method', null, OBJECT_TYPE);
const MODULE_TYPE = defType('module', null, OBJECT_TYPE);

export function typeOf(v: PyValue): PyType {
  switch (typeof v) {
    case 'boolean':
      return BOOL_TYPE;
    case 'bigint':
      return INT_TYPE;
    case 'number':
      return FLOAT_TYPE;
    case 'string':
      return STR_TYPE;
  }
  if (v === null) return NONE_TYPE;
  if (v instanceof PyException) return v.cls;
  if (v instanceof PyList) return LIST_TYPE;
  if (v instanceof PyTuple) return TUPLE_TYPE;
  if (v instanceof PyDict) return DICT_TYPE;
  if (v instanceof PySet) return v.frozen ? FROZENSET_TYPE : SET_TYPE;
  if (v instanceof PyRange) return RANGE_TYPE;
  if (v instanceof PyType) return TYPE_TYPE;
  if (v instanceof PyFunction) return FUNCTION_TYPE;
  if (v instanceof PyBuiltin) return BUILTIN_FN_TYPE;
  if (v instanceof PyModule) return MODULE_TYPE;
  if (v instanceof PySlice) return SLICE_TYPE;
  const own = (v as { pyType?: () => PyType }).pyType;
  if (typeof own === 'function') return own.call(v);
  const name = v.typeName;
  let t = typeRegistry.get(name);
  if (!t) {
    t = new PyType(name, null, OBJECT_TYPE);
    typeRegistry.set(name, t);
  }
  return t;
}

function classInfo(v: PyValue, fname: string): PyType[] {
  if (v instanceof PyType) return [v];
  if (v instanceof PyTuple) return v.items.flatMap((x) => classInfo(x, fname));
  throw typeError(`${fname}() arg 2 must be a type, a tuple of types, or a union`);
}

export function isInstance(v: PyValue, t: PyType): boolean {
  if (t === OBJECT_TYPE) return true;
  return typeOf(v).isSubclassOf(t);
}

// ------------------------------------------------------------------------------------------------ functions

function minmax(name: 'min' | 'max', rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  let key: PyValue = null;
  let dflt: PyValue | undefined;
  if (kw) {
    for (const [k, v] of kw) {
      if (k === 'key') key = v;
      else if (k === 'default') dflt = v;
      else throw typeError(`'${k}' is an invalid keyword argument for ${name}()`);
    }
  }
  let items: Iterator<PyValue>;
  if (args.length === 0) throw typeError(`${name} expected at least 1 argument, got 0`);
  if (args.length === 1) items = iterate(args[0] as PyValue, rt);
  else {
    if (dflt !== undefined) {
      throw typeError(`Cannot specify a default for ${name}() with multiple positional arguments`);
    }
    items = args[Symbol.iterator]();
  }
  let best: PyValue | undefined;
  let bestKey: PyValue = null;
  for (let r = items.next(); !r.done; r = items.next()) {
    rt.step(1);
    const k = key === null ? r.value : rt.call(key, [r.value]);
    if (best === undefined) {
      best = r.value;
      bestKey = k;
    } else if (name === 'max' ? lessThan(bestKey, k, rt) : lessThan(k, bestKey, rt)) {
      best = r.value;
      bestKey = k;
    }
  }
  if (best === undefined) {
    if (dflt !== undefined) return dflt;
    throw valueError(`${name}() arg is an empty sequence`);
  }
  return best;
}

function print(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  let sep = ' ';
  let end = '\n';
  if (kw) {
    for (const [k, v] of kw) {
      if (k === 'sep' || k === 'end') {
        if (v !== null && typeof v !== 'string')
          throw typeError(`${k} must be None or a string, not ${typeName(v)}`);
        if (k === 'sep') sep = v ?? ' ';
        else end = v ?? '\n';
      } else if (k === 'file') {
        if (v !== null) throw pyErr('NotImplementedError', 'print(file=...) not supported in this sandbox');
      } else if (k !== 'flush') {
        throw typeError(`'${k}' is an invalid keyword argument for print()`);
      }
    }
  }
  let out = '';
  for (let i = 0; i < args.length; i++) {
    if (i) out += sep;
    out += rt.str(args[i] as PyValue);
  }
  rt.write(out + end);
  return null;
}

function round(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  const [x, nd] = bind('round', args, kw, ['number', 'ndigits'], 1);
  const v = x as PyValue;
  if (typeof v === 'number') {
    if (nd === undefined || nd === null) return roundHalfEven(v);
    return roundFloat(v, asIndex(nd));
  }
  if (isInt(v)) {
    const n = toBig(v);
    if (nd === undefined || nd === null) return n;
    const k = asIndex(nd);
    return k >= 0n ? n : roundIntTo(n, -k);
  }
  const c = custom(v) as { pyRound?: (rt: Runtime, nd: PyValue | undefined) => PyValue } | null;
  if (c?.pyRound) return c.pyRound(rt, nd);
  throw typeError(`type ${typeName(v)} doesn't define __round__ method`);
}

function sum(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  const [it, start] = bind('sum', args, kw, ['iterable', 'start'], 1, { positionalOnly: 1 });
  let acc: PyValue = start ?? 0n;
  if (typeof acc === 'string') throw typeError("sum() can't sum strings [use ''.join(seq) instead]");
  const src = iterate(it as PyValue, rt);
  for (let r = src.next(); !r.done; r = src.next()) {
    rt.step(1);
    const v = r.value;
    if (typeof acc === 'number' && typeof v === 'number') acc += v;
    else if (typeof acc === 'bigint' && typeof v === 'bigint') acc += v;
    else acc = binaryOp('+', acc, v, rt);
  }
  return acc;
}

function abs(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('abs', kw);
  if (args.length !== 1) throw typeError(`abs() takes exactly one argument (${args.length} given)`);
  const v = args[0] as PyValue;
  if (typeof v === 'number') return Math.abs(v);
  if (isInt(v)) {
    const n = toBig(v);
    return n < 0n ? -n : n;
  }
  const r = custom(v)?.pyUnary?.(rt, 'abs');
  if (r !== undefined) return r;
  throw typeError(`bad operand type for abs(): '${typeName(v)}'`);
}

function divmod(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('divmod', kw);
  if (args.length !== 2) throw typeError(`divmod expected 2 arguments, got ${args.length}`);
  const [a, b] = args as [PyValue, PyValue];
  if (isInt(a) && isInt(b)) {
    const x = toBig(a);
    const y = toBig(b);
    if (y === 0n) throw pyErr('ZeroDivisionError', 'integer division or modulo by zero');
    return new PyTuple([intFloorDiv(x, y), intMod(x, y, true)]);
  }
  if (isNumber(a) && isNumber(b)) {
    const x = typeof a === 'number' ? a : intToFloat(toBig(a));
    const y = typeof b === 'number' ? b : intToFloat(toBig(b));
    const [q, r] = floatDivmod(x, y, 'divmod');
    return new PyTuple([q, r]);
  }
  const r = custom(a)?.pyBinop?.(rt, 'divmod', b, false);
  if (r !== undefined) return r;
  throw typeError(`unsupported operand type(s) for divmod(): '${typeName(a)}' and '${typeName(b)}'`);
}

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = ((base % mod) + mod) % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

function modInverse(a: bigint, m: bigint): bigint {
  let [oldR, r] = [((a % m) + m) % m, m];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1n) throw valueError('base is not invertible for the given modulus');
  return ((oldS % m) + m) % m;
}

function pow(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  const [base, exp, mod] = bind('pow', args, kw, ['base', 'exp', 'mod'], 2);
  if (mod !== undefined && mod !== null) {
    if (!isInt(base as PyValue) || !isInt(exp as PyValue) || !isInt(mod)) {
      throw typeError('pow() 3rd argument not allowed unless all arguments are integers');
    }
    let m = toBig(mod);
    if (m === 0n) throw valueError('pow() 3rd argument cannot be 0');
    const neg = m < 0n;
    if (neg) m = -m;
    let e = toBig(exp as bigint);
    let b = toBig(base as bigint);
    if (e < 0n) {
      b = modInverse(b, m);
      e = -e;
    }
    let r = m === 1n ? 0n : modPow(b, e, m);
    if (neg && r !== 0n) r -= m;
    return r;
  }
  if (typeof base === 'number' && typeof exp === 'number') return floatPow(base, exp);
  return binaryOp('**', base as PyValue, exp as PyValue, rt);
}

function sorted(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  if (args.length !== 1) throw typeError(`sorted expected 1 argument, got ${args.length}`);
  const { key, reverse } = sortArgs('sort', [], kw);
  const items = toArray(args[0] as PyValue, rt);
  rt.alloc(items.length);
  return new PyList(sortValues(rt, items, key, reverse));
}

function anyAll(which: 'any' | 'all') {
  return (rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue => {
    noKwargs(which, kw);
    if (args.length !== 1) throw typeError(`${which}() takes exactly one argument (${args.length} given)`);
    const it = iterate(args[0] as PyValue, rt);
    for (let r = it.next(); !r.done; r = it.next()) {
      rt.step(1);
      const t = truthy(r.value, rt);
      if (which === 'any' && t) return true;
      if (which === 'all' && !t) return false;
    }
    return which === 'all';
  };
}

function oneArg(name: string, f: (rt: Runtime, v: PyValue) => PyValue) {
  return (rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue => {
    noKwargs(name, kw);
    if (args.length !== 1) throw typeError(`${name}() takes exactly one argument (${args.length} given)`);
    return f(rt, args[0] as PyValue);
  };
}

function radix(prefix: string, base: number) {
  return (_rt: Runtime, v: PyValue): PyValue => {
    const n = asIndex(v);
    return (n < 0n ? '-' : '') + prefix + (n < 0n ? -n : n).toString(base);
  };
}

function next(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('next', kw);
  if (args.length < 1 || args.length > 2)
    throw typeError(`next expected at least 1 argument, got ${args.length}`);
  const it = args[0] as PyValue;
  if (!(it instanceof PyIterator)) throw typeError(`'${typeName(it)}' object is not an iterator`);
  rt.step(1);
  const v = it.next();
  if (v === undefined) {
    if (args.length === 2) return args[1] as PyValue;
    throw pyErr('StopIteration');
  }
  return v;
}

function getattrBuiltin(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('getattr', kw);
  if (args.length < 2 || args.length > 3)
    throw typeError(`getattr expected at least 2 arguments, got ${args.length}`);
  const name = args[1] as PyValue;
  if (typeof name !== 'string') throw typeError(`attribute name must be string, not '${typeName(name)}'`);
  try {
    return rt.getAttr(args[0] as PyValue, name);
  } catch (e) {
    if (args.length === 3 && e instanceof PyError && e.exc.cls.name === 'AttributeError') {
      return args[2] as PyValue;
    }
    throw e;
  }
}

function hasattrBuiltin(rt: Runtime, args: PyValue[], kw: Kwargs | null): PyValue {
  noKwargs('hasattr', kw);
  if (args.length !== 2) throw typeError(`hasattr expected 2 arguments, got ${args.length}`);
  const name = args[1] as PyValue;
  if (typeof name !== 'string') throw typeError(`attribute name must be string, not '${typeName(name)}'`);
  try {
    rt.getAttr(args[0] as PyValue, name);
    return true;
  } catch (e) {
    if (e instanceof PyError && e.exc.cls.name === 'AttributeError') return false;
    throw e;
  }
}

function builtinFunctions(): [string, (rt: Runtime, args: PyValue[], kw: Kwargs | null) => PyValue][] {
  return [
    ['print', print],
    ['len', oneArg('len', (_rt, v) => BigInt(pyLen(v)))],
    ['abs', abs],
    ['round', round],
    ['min', (rt, a, k) => minmax('min', rt, a, k)],
    ['max', (rt, a, k) => minmax('max', rt, a, k)],
    ['sum', sum],
    ['sorted', sorted],
    ['any', anyAll('any')],
    ['all', anyAll('all')],
    [
      'isinstance',
      (_rt, args, kw) => {
        noKwargs('isinstance', kw);
        if (args.length !== 2) throw typeError(`isinstance expected 2 arguments, got ${args.length}`);
        return classInfo(args[1] as PyValue, 'isinstance').some((t) => isInstance(args[0] as PyValue, t));
      },
    ],
    [
      'issubclass',
      (_rt, args, kw) => {
        noKwargs('issubclass', kw);
        if (args.length !== 2) throw typeError(`issubclass expected 2 arguments, got ${args.length}`);
        const c = args[0] as PyValue;
        if (!(c instanceof PyType)) throw typeError('issubclass() arg 1 must be a class');
        return classInfo(args[1] as PyValue, 'issubclass').some(
          (t) => t === OBJECT_TYPE || c.isSubclassOf(t),
        );
      },
    ],
    ['divmod', divmod],
    ['pow', pow],
    [
      'chr',
      oneArg('chr', (_rt, v) => {
        const n = asIndex(v);
        if (n < 0n || n > 0x10ffffn) throw valueError('chr() arg not in range(0x110000)');
        return String.fromCodePoint(Number(n));
      }),
    ],
    [
      'ord',
      oneArg('ord', (_rt, v) => {
        if (typeof v !== 'string')
          throw typeError(`ord() expected string of length 1, but ${typeName(v)} found`);
        const n = cpLength(v);
        if (n !== 1) throw typeError(`ord() expected a character, but string of length ${n} found`);
        return BigInt(v.codePointAt(0) as number);
      }),
    ],
    ['hex', oneArg('hex', radix('0x', 16))],
    ['oct', oneArg('oct', radix('0o', 8))],
    ['bin', oneArg('bin', radix('0b', 2))],
    ['repr', oneArg('repr', (rt, v) => rt.repr(v))],
    ['ascii', oneArg('ascii', (rt, v) => asciiRepr(rt.repr(v)))],
    [
      'format',
      (rt, args, kw) => {
        const [v, spec] = bind('format', args, kw, ['value', 'format_spec'], 1);
        if (spec !== undefined && typeof spec !== 'string') {
          throw typeError(`format() argument 2 must be str, not ${typeName(spec)}`);
        }
        return formatValue(v as PyValue, (spec as string | undefined) ?? '', rt);
      },
    ],
    [
      'iter',
      (rt, args, kw) => {
        noKwargs('iter', kw);
        if (args.length !== 1) throw typeError(`iter expected 1 argument, got ${args.length}`);
        return makeIterator(args[0] as PyValue, rt);
      },
    ],
    ['next', next],
    [
      'callable',
      oneArg(
        'callable',
        (_rt, v) => v instanceof PyFunction || v instanceof PyBuiltin || v instanceof PyType,
      ),
    ],
    [
      'hash',
      oneArg('hash', (_rt, v) => {
        hashKey(v);
        return BigInt.asIntN(64, pyHash(v));
      }),
    ],
    ['getattr', getattrBuiltin],
    ['hasattr', hasattrBuiltin],
    [
      'input',
      () => {
        throw pyErr('EOFError', 'EOF when reading a line');
      },
    ],
  ];
}

/** The builtins namespace shared (read-only) by every interpreter. */
export const BUILTINS: ReadonlyMap<string, PyValue> = (() => {
  const m = new Map<string, PyValue>();
  for (const [name, impl] of builtinFunctions()) m.set(name, builtin(name, impl));
  for (const t of [
    INT_TYPE,
    FLOAT_TYPE,
    STR_TYPE,
    BOOL_TYPE,
    LIST_TYPE,
    TUPLE_TYPE,
    DICT_TYPE,
    SET_TYPE,
    FROZENSET_TYPE,
    RANGE_TYPE,
    SLICE_TYPE,
    TYPE_TYPE,
    OBJECT_TYPE,
    ENUMERATE_TYPE,
    ZIP_TYPE,
    MAP_TYPE,
    FILTER_TYPE,
    REVERSED_TYPE,
  ]) {
    m.set(t.name, t);
  }
  for (const [name, cls] of EXC) if (!MODULE_EXCEPTIONS.has(name)) m.set(name, cls);
  m.set('Ellipsis', ELLIPSIS);
  // The original ran code in the globals of its `tools.code.tool` module, so `if __name__ == '__main__':` blocks
  // do not run.
  m.set('__name__', 'tools.code.tool');
  return m;
})();

export function isExceptionClass(v: PyValue): v is PyExcClass {
  return v instanceof PyExcClass;
}

/** A type object by its name (for snapshots): builtin types and the synthetic ones (`function`, `NoneType`). */
export function typeByName(name: string): PyType | undefined {
  return typeRegistry.get(name);
}
