/**
 * Python operators over sandbox values: truthiness, equality and ordering, arithmetic, membership, iteration,
 * len and subscripting, each with CPython 3.11's result types and error messages.
 */

import { percentFormat } from './format.ts';
import {
  compareIntFloat,
  floatDivmod,
  intFloorDiv,
  intMod,
  intToFloat,
  intTrueDiv,
  toFloat,
} from './numeric.ts';
import {
  custom,
  hashKey,
  indexError,
  isInt,
  keyError,
  memoryError,
  notImplemented,
  overflowError,
  PyBuiltin,
  PyDict,
  PyDictView,
  PyException,
  PyFunction,
  PyIterator,
  PyList,
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
  zeroDivision,
} from './objects.ts';
import { PySet } from './pyset.ts';
import {
  adjustSlice,
  compareStrings,
  cpArray,
  cpLength,
  hasAstral,
  sliceArray,
  sliceString,
} from './text.ts';

export const MAX_INDEX = 9223372036854775807n;

// ------------------------------------------------------------------------------------------------ truthiness

export function truthy(v: PyValue, rt: Runtime): boolean {
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'bigint':
      return v !== 0n;
    case 'number':
      return v !== 0;
    case 'string':
      return v.length > 0;
  }
  if (v === null) return false;
  if (v instanceof PyList || v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  if (v instanceof PySet) return v.size > 0;
  if (v instanceof PyRange) return v.length > 0n;
  if (v instanceof PyDictView) return v.dict.size > 0;
  const c = custom(v);
  if (c?.pyTruthy) return c.pyTruthy(rt);
  if (c?.pyLen) return c.pyLen() > 0;
  return true;
}

// ------------------------------------------------------------------------------------------------ equality / ordering

const MAX_COMPARE_DEPTH = 300;
let compareDepth = 0;

function guardDepth<T>(f: () => T): T {
  if (++compareDepth > MAX_COMPARE_DEPTH) {
    compareDepth = 0;
    throw pyErr('RecursionError', 'maximum recursion depth exceeded in comparison');
  }
  try {
    return f();
  } finally {
    compareDepth--;
  }
}

/** `a == b` as a boolean (what containers, `in` and dict lookups use). */
export function pyEquals(a: PyValue, b: PyValue, rt: Runtime): boolean {
  if (a === b) return typeof a !== 'number' || !Number.isNaN(a);
  const r = richCompare('==', a, b, rt);
  return typeof r === 'boolean' ? r : truthy(r, rt);
}

function numEq(a: bigint | boolean | number, b: bigint | boolean | number): boolean {
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    if (typeof a === 'number') return compareIntFloat(toBig(b as bigint | boolean), a) === 0;
    return compareIntFloat(toBig(a as bigint | boolean), b as number) === 0;
  }
  return toBig(a) === toBig(b);
}

/** Numeric three-way compare (NaN → NaN). */
function numCmp(a: bigint | boolean | number, b: bigint | boolean | number): number {
  if (typeof a === 'number' && typeof b === 'number')
    return a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN;
  if (typeof a === 'number') return -compareIntFloat(toBig(b as bigint | boolean), a);
  if (typeof b === 'number') return compareIntFloat(toBig(a), b);
  const x = toBig(a);
  const y = toBig(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const isNum = (v: PyValue): v is bigint | boolean | number =>
  typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';

function seqEquals(a: readonly PyValue[], b: readonly PyValue[], rt: Runtime): boolean {
  if (a.length !== b.length) return false;
  return guardDepth(() => {
    for (let i = 0; i < a.length; i++) {
      rt.step(1);
      if (!pyEquals(a[i] as PyValue, b[i] as PyValue, rt)) return false;
    }
    return true;
  });
}

/** Lexicographic comparison of sequences for an ordering operator. */
function seqCompare(
  op: '<' | '>' | '<=' | '>=',
  a: readonly PyValue[],
  b: readonly PyValue[],
  rt: Runtime,
): PyValue {
  return guardDepth(() => {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      rt.step(1);
      const x = a[i] as PyValue;
      const y = b[i] as PyValue;
      if (!pyEquals(x, y, rt)) return richCompare(op, x, y, rt);
    }
    const d = a.length - b.length;
    return op === '<' ? d < 0 : op === '>' ? d > 0 : op === '<=' ? d <= 0 : d >= 0;
  });
}

function cmpResult(op: '<' | '>' | '<=' | '>=', c: number): boolean {
  if (Number.isNaN(c)) return false;
  return op === '<' ? c < 0 : op === '>' ? c > 0 : op === '<=' ? c <= 0 : c >= 0;
}

/** Rich comparison: returns a bool for builtin types; custom objects may return other values (numpy arrays). */
export function richCompare(
  op: '<' | '>' | '==' | '!=' | '<=' | '>=',
  a: PyValue,
  b: PyValue,
  rt: Runtime,
): PyValue {
  if (op === '==' || op === '!=') {
    const eq = equalsBuiltin(a, b, rt);
    if (eq !== undefined) return op === '==' ? eq : !eq;
    const ca = custom(a);
    let r = ca?.pyRichCompare?.(rt, op, b);
    if (r !== undefined) return r;
    const cb = custom(b);
    r = cb?.pyRichCompare?.(rt, op, a);
    if (r !== undefined) return r;
    return op === '==' ? a === b : a !== b;
  }
  if (isNum(a) && isNum(b)) return cmpResult(op, numCmp(a, b));
  if (typeof a === 'string' && typeof b === 'string') return cmpResult(op, compareStrings(a, b));
  if (a instanceof PyList && b instanceof PyList) return seqCompare(op, a.items, b.items, rt);
  if (a instanceof PyTuple && b instanceof PyTuple) return seqCompare(op, a.items, b.items, rt);
  if (a instanceof PySet && b instanceof PySet) {
    const sub = (x: PySet, y: PySet) => x.size <= y.size && x.items().every((v) => y.has(v));
    if (op === '<=') return sub(a, b);
    if (op === '>=') return sub(b, a);
    if (op === '<') return a.size < b.size && sub(a, b);
    return b.size < a.size && sub(b, a);
  }
  const ca = custom(a);
  let r = ca?.pyRichCompare?.(rt, op, b);
  if (r !== undefined) return r;
  const swapped = op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : '<=';
  const cb = custom(b);
  r = cb?.pyRichCompare?.(rt, swapped, a);
  if (r !== undefined) return r;
  throw typeError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/** == for builtin types; undefined when neither side is a builtin type that knows the answer. */
function equalsBuiltin(a: PyValue, b: PyValue, rt: Runtime): boolean | undefined {
  if (isNum(a) && isNum(b)) return numEq(a, b);
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (isNum(a) || isNum(b)) {
    // A number against an object: only custom objects (numpy) might answer.
    if (custom(a)?.pyRichCompare || custom(b)?.pyRichCompare) return undefined;
    return false;
  }
  if (a instanceof PyList) return b instanceof PyList ? seqEquals(a.items, b.items, rt) : customOrFalse(b);
  if (a instanceof PyTuple) return b instanceof PyTuple ? seqEquals(a.items, b.items, rt) : customOrFalse(b);
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict)) return customOrFalse(b);
    if (a.size !== b.size) return false;
    return guardDepth(() => {
      for (const [k, v] of a.entries()) {
        rt.step(1);
        const w = b.get(k);
        if (w === undefined || !pyEquals(v, w, rt)) return false;
      }
      return true;
    });
  }
  if (a instanceof PySet) {
    if (!(b instanceof PySet)) return customOrFalse(b);
    return a.size === b.size && a.items().every((v) => b.has(v));
  }
  if (a instanceof PyRange && b instanceof PyRange) {
    const la = a.length;
    if (la !== b.length) return false;
    if (la === 0n) return true;
    if (a.start !== b.start) return false;
    return la === 1n || a.step === b.step;
  }
  if (a instanceof PyDictView && b instanceof PyDictView && a.which !== 'values' && b.which !== 'values') {
    const x = a.items();
    const y = b.items();
    if (x.length !== y.length) return false;
    const s = new PySet();
    for (const v of y) s.add(v);
    return x.every((v) => s.has(v));
  }
  if (custom(a)?.pyRichCompare || custom(b)?.pyRichCompare) return undefined;
  return a === b;
}

function customOrFalse(b: PyValue): boolean | undefined {
  return custom(b)?.pyRichCompare ? undefined : false;
}

/** `a is b`. */
export function isSame(a: PyValue, b: PyValue): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b && a >= -5n && a <= 256n;
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  return a === b;
}

/** Three-way compare used by sort/min/max: uses `<` like CPython (a < b ? -1 : b < a ? 1 : 0). */
export function lessThan(a: PyValue, b: PyValue, rt: Runtime): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b) < 0;
  return truthy(richCompare('<', a, b, rt), rt);
}

// ------------------------------------------------------------------------------------------------ arithmetic

const BIG_CHECK = 1n << 4096n;

function checkInt(n: bigint, rt: Runtime): bigint {
  if (n > BIG_CHECK || n < -BIG_CHECK) {
    const bits = (n < 0n ? -n : n).toString(16).length * 4;
    if (bits > rt.maxIntBits) throw memoryError();
    rt.alloc(Math.ceil(bits / 64));
  }
  return n;
}

function unsupported(op: string, a: PyValue, b: PyValue): never {
  throw typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

/** Repetition count for `seq * n`. */
function repeatCount(n: bigint | boolean, itemSize: number, rt: Runtime): number {
  const b = toBig(n);
  if (b > MAX_INDEX || b < -MAX_INDEX - 1n)
    throw overflowError("cannot fit 'int' into an index-sized integer");
  if (b <= 0n) return 0;
  const total = Number(b) * itemSize;
  if (total > rt.maxSequenceLength) throw memoryError();
  rt.alloc(total);
  return Number(b);
}

/** Python float ** float (CPython float_pow semantics, complex results unsupported). */
export function floatPow(iv: number, iw: number): number {
  if (iw === 0) return 1.0;
  if (Number.isNaN(iv)) return iv;
  if (Number.isNaN(iw)) return iv === 1.0 ? 1.0 : iw;
  if (!Number.isFinite(iw)) {
    const av = Math.abs(iv);
    if (av === 1.0) return 1.0;
    return av > 1.0 === iw > 0 ? Number.POSITIVE_INFINITY : 0.0;
  }
  if (!Number.isFinite(iv)) return iv ** iw;
  if (iv === 0) {
    if (iw < 0) throw zeroDivision('0.0 cannot be raised to a negative power');
    return iv ** iw;
  }
  if (iv < 0 && !Number.isInteger(iw)) throw notImplemented('complex numbers are');
  if (iv === 1.0) return 1.0;
  const r = iv ** iw;
  if (!Number.isFinite(r)) throw overflowError("(34, 'Numerical result out of range')");
  return r;
}

function intPow(a: bigint, b: bigint, rt: Runtime): PyValue {
  if (b < 0n) {
    if (a === 0n) throw zeroDivision('0.0 cannot be raised to a negative power');
    return floatPow(intToFloat(a), Number(b));
  }
  if (a === 0n || a === 1n) return b === 0n ? 1n : a;
  if (a === -1n) return b % 2n === 0n ? 1n : -1n;
  const baseBits = (a < 0n ? -a : a).toString(2).length;
  if (b > BigInt(rt.maxIntBits) || (baseBits - 1) * Number(b) > rt.maxIntBits) throw memoryError();
  rt.step(Math.ceil((baseBits * Number(b)) / 4096));
  return checkInt(a ** b, rt);
}

export function binaryOp(op: string, a: PyValue, b: PyValue, rt: Runtime): PyValue {
  // Fast paths: int∘int and float∘float.
  if (typeof a === 'bigint' && typeof b === 'bigint') return intOp(op, a, b, rt);
  if (typeof a === 'number' && typeof b === 'number') return floatOp(op, a, b);
  if (isNum(a) && isNum(b)) {
    if (typeof a === 'number' || typeof b === 'number') {
      if (op === '<<' || op === '>>' || op === '&' || op === '|' || op === '^') unsupported(op, a, b);
      return floatOp(op, toFloat(a), toFloat(b));
    }
    if (typeof a === 'boolean' && typeof b === 'boolean' && (op === '&' || op === '|' || op === '^')) {
      return op === '&' ? a && b : op === '|' ? a || b : a !== b;
    }
    return intOp(op, toBig(a), toBig(b), rt);
  }
  const ca = custom(a);
  if (ca?.pyBinop) {
    const r = ca.pyBinop(rt, op, b, false);
    if (r !== undefined) return r;
  }
  const cb = custom(b);
  if (cb?.pyBinop && cb !== ca) {
    const r = cb.pyBinop(rt, op, a, true);
    if (r !== undefined) return r;
  }
  switch (op) {
    case '+':
      if (typeof a === 'string') {
        if (typeof b !== 'string') throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
        if (a.length + b.length > rt.maxSequenceLength) throw memoryError();
        // JS concatenation shares the left operand (a rope): only the right side is new memory.
        rt.alloc(Math.ceil(b.length / 4));
        return a + b;
      }
      if (a instanceof PyList) {
        if (!(b instanceof PyList))
          throw typeError(`can only concatenate list (not "${typeName(b)}") to list`);
        const n = a.items.length + b.items.length;
        if (n > rt.maxSequenceLength) throw memoryError();
        rt.alloc(n);
        rt.step(Math.ceil(n / 64));
        return new PyList(a.items.concat(b.items));
      }
      if (a instanceof PyTuple) {
        if (!(b instanceof PyTuple))
          throw typeError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
        rt.alloc(a.items.length + b.items.length);
        return new PyTuple(a.items.concat(b.items));
      }
      break;
    case '*': {
      const [seq, n] = isInt(b) ? [a, b] : isInt(a) ? [b, a] : [null, null];
      if (seq !== null && n !== null) {
        if (typeof seq === 'string') {
          const count = repeatCount(n, Math.max(1, Math.ceil(cpLength(seq) / 4)), rt);
          if (seq.length * count > rt.maxSequenceLength) throw memoryError();
          return seq.repeat(count);
        }
        if (seq instanceof PyList || seq instanceof PyTuple) {
          const count = repeatCount(n, Math.max(1, seq.items.length), rt);
          const out: PyValue[] = [];
          for (let i = 0; i < count; i++) for (const x of seq.items) out.push(x);
          return seq instanceof PyList ? new PyList(out) : new PyTuple(out);
        }
      }
      if (typeof a === 'string' || a instanceof PyList || a instanceof PyTuple) {
        throw typeError(`can't multiply sequence by non-int of type '${typeName(b)}'`);
      }
      if (typeof b === 'string' || b instanceof PyList || b instanceof PyTuple) {
        throw typeError(`can't multiply sequence by non-int of type '${typeName(a)}'`);
      }
      break;
    }
    case '%':
      if (typeof a === 'string') return percentFormat(a, b, rt);
      break;
    case '|':
    case '&':
    case '-':
    case '^':
      if (a instanceof PySet && b instanceof PySet) {
        rt.step(a.size + b.size);
        rt.alloc(a.size + b.size);
        if (op === '|') {
          const r = a.copy();
          r.merge(b);
          return r;
        }
        if (op === '&') return a.intersection(b);
        if (op === '-') return a.difference(b);
        return a.symmetricDifference(b);
      }
      if (op === '|' && a instanceof PyDict && b instanceof PyDict) {
        const r = PyDict.from(a.entries());
        for (const [k, v] of b.entries()) r.set(k, v);
        return r;
      }
      if (a instanceof PyDictView && b instanceof PyDictView && a.which === 'keys') {
        return binaryOp(op, setOf(a.items()), setOf(b.items()), rt);
      }
      break;
  }
  return unsupported(op === '**' ? '** or pow()' : op, a, b);
}

function setOf(items: PyValue[]): PySet {
  const s = new PySet();
  s.addAll(items);
  return s;
}

function intOp(op: string, a: bigint, b: bigint, rt: Runtime): PyValue {
  switch (op) {
    case '+':
      return checkInt(a + b, rt);
    case '-':
      return checkInt(a - b, rt);
    case '*':
      return checkInt(a * b, rt);
    case '/':
      return intTrueDiv(a, b);
    case '//':
      return intFloorDiv(a, b);
    case '%':
      return intMod(a, b);
    case '**':
      return intPow(a, b, rt);
    case '<<':
      if (b < 0n) throw valueError('negative shift count');
      if (a === 0n) return 0n;
      if (b > BigInt(rt.maxIntBits)) throw memoryError();
      return checkInt(a << b, rt);
    case '>>':
      if (b < 0n) throw valueError('negative shift count');
      return a >> b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
  }
  return unsupported(op, a, b);
}

function floatOp(op: string, a: number, b: number): PyValue {
  switch (op) {
    // Float +, -, *, / overflow to inf silently in CPython; only ** raises OverflowError.
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw zeroDivision('float division by zero');
      return a / b;
    case '//':
      return floatDivmod(a, b, 'floordiv')[0];
    case '%':
      return floatDivmod(a, b, 'mod')[1];
    case '**':
      return floatPow(a, b);
  }
  return unsupported(op === '**' ? '** or pow()' : op, a, b);
}

export function unaryOp(op: '-' | '+' | '~' | 'not', v: PyValue, rt: Runtime): PyValue {
  if (op === 'not') return !truthy(v, rt);
  if (typeof v === 'bigint' || typeof v === 'boolean') {
    const n = toBig(v);
    return op === '-' ? -n : op === '+' ? n : ~n;
  }
  if (typeof v === 'number') {
    if (op === '~') throw typeError("bad operand type for unary ~: 'float'");
    return op === '-' ? -v : v;
  }
  const c = custom(v);
  const r = c?.pyUnary?.(rt, op);
  if (r !== undefined) return r;
  throw typeError(`bad operand type for unary ${op}: '${typeName(v)}'`);
}

// ------------------------------------------------------------------------------------------------ iteration

/** Iterates any iterable Python value (TypeError if not iterable). */
export function iterate(v: PyValue, rt: Runtime): Iterator<PyValue> {
  if (v instanceof PyList) return listIter(v);
  if (v instanceof PyTuple) return v.items[Symbol.iterator]();
  if (typeof v === 'string') return (hasAstral(v) ? cpArray(v) : v.split(''))[Symbol.iterator]();
  if (v instanceof PyDict) return dictIter(v, 'keys');
  if (v instanceof PySet) return setIter(v);
  if (v instanceof PyRange) return rangeIter(v);
  if (v instanceof PyIterator) return pyIterIter(v);
  if (v instanceof PyDictView) return dictIter(v.dict, v.which);
  const c = custom(v);
  if (c?.pyIter) return c.pyIter(rt);
  throw typeError(`'${typeName(v)}' object is not iterable`);
}

function* listIter(l: PyList): Iterator<PyValue> {
  for (let i = 0; i < l.items.length; i++) yield l.items[i] as PyValue;
}

function* dictIter(d: PyDict, which: 'keys' | 'values' | 'items'): Iterator<PyValue> {
  const size = d.size;
  for (const e of d.map.values()) {
    if (d.size !== size) throw pyErr('RuntimeError', 'dictionary changed size during iteration');
    yield which === 'keys' ? e[0] : which === 'values' ? e[1] : new PyTuple([e[0], e[1]]);
  }
  if (d.size !== size) throw pyErr('RuntimeError', 'dictionary changed size during iteration');
}

function* setIter(s: PySet): Iterator<PyValue> {
  const size = s.size;
  for (const v of s.items()) {
    if (s.size !== size) throw pyErr('RuntimeError', 'Set changed size during iteration');
    yield v;
  }
}

function* rangeIter(r: PyRange): Iterator<PyValue> {
  const { start, stop, step } = r;
  if (step > 0n) for (let i = start; i < stop; i += step) yield i;
  else for (let i = start; i > stop; i += step) yield i;
}

function* pyIterIter(it: PyIterator): Iterator<PyValue> {
  for (;;) {
    const v = it.next();
    if (v === undefined) return;
    yield v;
  }
}

/** Materialises an iterable into an array, charging steps and memory per element. */
export function toArray(v: PyValue, rt: Runtime): PyValue[] {
  if (v instanceof PyList || v instanceof PyTuple) {
    rt.step(Math.ceil(v.items.length / 8));
    return v.items.slice();
  }
  const out: PyValue[] = [];
  const it = iterate(v, rt);
  for (let r = it.next(); !r.done; r = it.next()) {
    rt.step(1);
    out.push(r.value);
    if ((out.length & 1023) === 0) rt.alloc(1024);
  }
  rt.alloc(out.length & 1023);
  return out;
}

/** `iter(x)`: a Python iterator object. */
export function makeIterator(v: PyValue, rt: Runtime): PyIterator {
  if (v instanceof PyIterator) return v;
  const name =
    v instanceof PyList
      ? 'list_iterator'
      : v instanceof PyTuple
        ? 'tuple_iterator'
        : typeof v === 'string'
          ? 'str_ascii_iterator'
          : v instanceof PyDict
            ? 'dict_keyiterator'
            : v instanceof PySet
              ? 'set_iterator'
              : v instanceof PyRange
                ? 'range_iterator'
                : 'iterator';
  return new PyIterator(iterate(v, rt), name);
}

// ------------------------------------------------------------------------------------------------ membership, len

export function contains(container: PyValue, item: PyValue, rt: Runtime): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') {
      throw typeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
    }
    rt.step(Math.ceil(container.length / 64));
    return container.includes(item);
  }
  if (container instanceof PyList || container instanceof PyTuple) {
    for (const x of container.items) {
      rt.step(1);
      if (isSame(x, item) || pyEquals(x, item, rt)) return true;
    }
    return false;
  }
  if (container instanceof PyDict) return container.has(item);
  if (container instanceof PySet) return container.has(item);
  if (container instanceof PyRange) {
    if (
      typeof item === 'bigint' ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isInteger(item))
    ) {
      const n = typeof item === 'number' ? BigInt(item) : toBig(item);
      const { start, stop, step } = container;
      if (step > 0n ? n < start || n >= stop : n > start || n <= stop) return false;
      return (n - start) % step === 0n;
    }
  }
  if (container instanceof PyDictView) {
    if (container.which === 'keys') return container.dict.has(item);
    if (container.which === 'items') {
      if (!(item instanceof PyTuple) || item.items.length !== 2) return false;
      const v = container.dict.map.get(hashKeySafe(item.items[0] as PyValue));
      return v !== undefined && pyEquals(v[1], item.items[1] as PyValue, rt);
    }
  }
  const c = custom(container);
  if (c?.pyContains) return c.pyContains(rt, item);
  if (
    container instanceof PyIterator ||
    container instanceof PyDictView ||
    container instanceof PyRange ||
    c?.pyIter
  ) {
    const it = iterate(container, rt);
    for (let r = it.next(); !r.done; r = it.next()) {
      rt.step(1);
      if (isSame(r.value, item) || pyEquals(r.value, item, rt)) return true;
    }
    return false;
  }
  throw typeError(`argument of type '${typeName(container)}' is not iterable`);
}

function hashKeySafe(v: PyValue): string {
  try {
    return hashKey(v);
  } catch {
    return '\0unhashable';
  }
}

export function pyLen(v: PyValue): number {
  if (typeof v === 'string') return cpLength(v);
  if (v instanceof PyList || v instanceof PyTuple) return v.items.length;
  if (v instanceof PyDict) return v.size;
  if (v instanceof PySet) return v.size;
  if (v instanceof PyDictView) return v.dict.size;
  if (v instanceof PyRange) {
    const n = v.length;
    if (n > MAX_INDEX) throw overflowError('Python int too large to convert to C ssize_t');
    return Number(n);
  }
  const c = custom(v);
  if (c?.pyLen) return c.pyLen();
  throw typeError(`object of type '${typeName(v)}' has no len()`);
}

// ------------------------------------------------------------------------------------------------ subscripts

function sliceIndex(v: PyValue): number | null {
  if (v === null) return null;
  if (typeof v === 'bigint' || typeof v === 'boolean') {
    const b = toBig(v);
    if (b > MAX_INDEX) return Number.MAX_SAFE_INTEGER;
    if (b < -MAX_INDEX) return -Number.MAX_SAFE_INTEGER;
    return Number(b);
  }
  throw typeError('slice indices must be integers or None or have an __index__ method');
}

export function sliceParts(s: PySlice): { start: number | null; stop: number | null; step: number } {
  const step = sliceIndex(s.step) ?? 1;
  if (step === 0) throw valueError('slice step cannot be zero');
  return { start: sliceIndex(s.start), stop: sliceIndex(s.stop), step };
}

function seqIndex(key: bigint | boolean, length: number, what: string): number {
  const b = toBig(key);
  const i = b < 0n ? b + BigInt(length) : b;
  if (i < 0n || i >= BigInt(length)) throw indexError(`${what} index out of range`);
  return Number(i);
}

export function getItem(obj: PyValue, key: PyValue, rt: Runtime): PyValue {
  if (obj instanceof PyList || obj instanceof PyTuple) {
    const what = obj instanceof PyList ? 'list' : 'tuple';
    if (isInt(key)) return obj.items[seqIndex(key, obj.items.length, what)] as PyValue;
    if (key instanceof PySlice) {
      const { start, stop, step } = sliceParts(key);
      const items = sliceArray(obj.items, start, stop, step);
      rt.alloc(items.length);
      return obj instanceof PyList ? new PyList(items) : new PyTuple(items);
    }
    throw typeError(`${what} indices must be integers or slices, not ${typeName(key)}`);
  }
  if (obj instanceof PyDict) {
    const v = obj.get(key);
    if (v === undefined) throw keyError(key);
    return v;
  }
  if (typeof obj === 'string') {
    if (isInt(key)) {
      if (!hasAstral(obj)) return obj[seqIndex(key, obj.length, 'string')] as string;
      const cps = cpArray(obj);
      return cps[seqIndex(key, cps.length, 'string')] as string;
    }
    if (key instanceof PySlice) {
      const { start, stop, step } = sliceParts(key);
      return sliceString(obj, start, stop, step);
    }
    throw typeError(`string indices must be integers, not '${typeName(key)}'`);
  }
  if (obj instanceof PyRange) {
    if (isInt(key)) {
      const n = obj.length;
      let i = toBig(key);
      if (i < 0n) i += n;
      if (i < 0n || i >= n) throw indexError('range object index out of range');
      return obj.at(i);
    }
    if (key instanceof PySlice) {
      const len = pyLen(obj);
      const { start, stop, step } = sliceParts(key);
      const s = adjustSlice(len, start, stop, step);
      const first = obj.start + BigInt(s.start) * obj.step;
      const st = obj.step * BigInt(step);
      return new PyRange(first, first + BigInt(s.count) * st, st);
    }
    throw typeError(`range indices must be integers or slices, not ${typeName(key)}`);
  }
  const c = custom(obj);
  if (c?.pyGetItem) return c.pyGetItem(rt, key);
  if (obj instanceof PyType) throw typeError(`type '${obj.qualname}' is not subscriptable`);
  throw typeError(`'${typeName(obj)}' object is not subscriptable`);
}

export function setItem(obj: PyValue, key: PyValue, value: PyValue, rt: Runtime): void {
  if (obj instanceof PyList) {
    if (isInt(key)) {
      const b = toBig(key);
      const n = BigInt(obj.items.length);
      const i = b < 0n ? b + n : b;
      if (i < 0n || i >= n) throw indexError('list assignment index out of range');
      obj.items[Number(i)] = value;
      return;
    }
    if (key instanceof PySlice) {
      const items = toArray(value, rt);
      const { start, stop, step } = sliceParts(key);
      const s = adjustSlice(obj.items.length, start, stop, step);
      if (step === 1) {
        obj.items.splice(s.start, Math.max(0, s.stop - s.start), ...items);
        return;
      }
      if (items.length !== s.count) {
        throw valueError(
          `attempt to assign sequence of size ${items.length} to extended slice of size ${s.count}`,
        );
      }
      for (let i = 0, k = s.start; i < s.count; i++, k += step) obj.items[k] = items[i] as PyValue;
      return;
    }
    throw typeError(`list indices must be integers or slices, not ${typeName(key)}`);
  }
  if (obj instanceof PyDict) {
    obj.set(key, value);
    rt.alloc(1);
    return;
  }
  const c = custom(obj);
  if (c?.pySetItem) {
    c.pySetItem(rt, key, value);
    return;
  }
  throw typeError(`'${typeName(obj)}' object does not support item assignment`);
}

export function delItem(obj: PyValue, key: PyValue, _rt: Runtime): void {
  if (obj instanceof PyList) {
    if (isInt(key)) {
      const b = toBig(key);
      const n = BigInt(obj.items.length);
      const i = b < 0n ? b + n : b;
      if (i < 0n || i >= n) throw indexError('list assignment index out of range');
      obj.items.splice(Number(i), 1);
      return;
    }
    if (key instanceof PySlice) {
      const { start, stop, step } = sliceParts(key);
      const s = adjustSlice(obj.items.length, start, stop, step);
      if (step === 1) {
        obj.items.splice(s.start, Math.max(0, s.stop - s.start));
        return;
      }
      const drop = new Set<number>();
      for (let i = 0, k = s.start; i < s.count; i++, k += step) drop.add(k);
      obj.items = obj.items.filter((_, i) => !drop.has(i));
      return;
    }
    throw typeError(`list indices must be integers or slices, not ${typeName(key)}`);
  }
  if (obj instanceof PyDict) {
    if (!obj.delete(key)) throw keyError(key);
    return;
  }
  throw typeError(`'${typeName(obj)}' object doesn't support item deletion`);
}

// ------------------------------------------------------------------------------------------------ callables

export function isCallable(v: PyValue): boolean {
  return v instanceof PyFunction || v instanceof PyBuiltin || v instanceof PyType;
}

export function isException(v: PyValue): v is PyException {
  return v instanceof PyException;
}
