/**
 * A `numpy` subset for the calls ToolQA-style code makes on lists: reductions (mean, median, std, var, sum, max,
 * min, argmax, argmin, percentile, cumsum, ...) and a light 1-D `ndarray` with element-wise arithmetic,
 * comparisons, masks and numpy's array printing (`[1.  2.5 3. ]`, `[  1  10 100]`, line wrap at 75 columns).
 *
 * Numerics follow numpy: float sums use numpy's pairwise summation (so results match to the last bit), `np.round`
 * is `rint(x * 10**d) / 10**d`, percentiles use the linear method with numpy's lerp. Scalar results are plain
 * Python int/float/bool, which print exactly like numpy 1.26's float64/int64/bool_ scalars. Differences: arrays
 * are 1-D only, integer arithmetic does not wrap at 64 bits, and warnings (mean of empty slice, ...) are not
 * printed.
 */

import { pyFloatRepr, pyStrRepr } from '../../../util/python-format.ts';
import { bind, moduleFn, noKwargs } from '../args.ts';
import { exactDecimal, roundToFrac } from '../numeric.ts';
import {
  asIndex,
  type BuiltinImpl,
  indexError,
  isInt,
  type Kwargs,
  notImplemented,
  PyBuiltin,
  PyList,
  PyModule,
  PyObject,
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
} from '../objects.ts';
import { binaryOp, lessThan, richCompare, sliceParts, toArray, truthy } from '../ops.ts';
import { adjustSlice } from '../text.ts';

type Dtype = 'bool' | 'int64' | 'float64' | 'str' | 'object';

// ------------------------------------------------------------------------------------------------ numerics

/** numpy's pairwise summation (umath loops: blocks of 8 accumulators up to 128 items, halving above). */
export function pairwiseSum(a: readonly number[], start = 0, n = a.length - start): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[start + i] as number;
    return res;
  }
  if (n <= 128) {
    const r = a.slice(start, start + 8) as number[];
    let i = 8;
    for (; i < n - (n % 8); i += 8)
      for (let j = 0; j < 8; j++) r[j] = (r[j] as number) + (a[start + i + j] as number);
    const [r0, r1, r2, r3, r4, r5, r6, r7] = r as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) res += a[start + i] as number;
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2);
}

/** np.add.reduce over float64 (identity 0.0, then pairwise). */
const floatSum = (a: readonly number[]) => 0 + pairwiseSum(a);

function rint(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f === 0 && x < 0 ? -0 : f;
  return f % 2 === 0 ? f : f + 1;
}

function npRound(x: number, decimals: number): number {
  if (decimals >= 0) {
    const f = 10 ** decimals;
    const y = x * f;
    return rint(y) / f;
  }
  const f = 10 ** -decimals;
  return rint(x / f) * f;
}

// ------------------------------------------------------------------------------------------------ ndarray

function inferDtype(values: readonly PyValue[]): Dtype {
  if (values.some((v) => typeof v === 'string')) return 'str';
  if (values.some((v) => v !== null && typeof v === 'object')) return 'object';
  if (values.some((v) => v === null)) return 'object';
  if (values.some((v) => typeof v === 'number')) return 'float64';
  if (values.some((v) => typeof v === 'bigint')) return 'int64';
  if (values.length && values.every((v) => typeof v === 'boolean')) return 'bool';
  return values.length ? 'int64' : 'float64';
}

function castTo(v: PyValue, dtype: Dtype, rt: Runtime): PyValue {
  switch (dtype) {
    case 'float64':
      if (typeof v === 'number') return v;
      if (isInt(v)) return Number(toBig(v));
      if (typeof v === 'string') return parseFloatStrict(v);
      throw typeError(`float() argument must be a string or a real number, not '${typeName(v)}'`);
    case 'int64':
      if (isInt(v)) return toBig(v);
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) throw valueError('cannot convert float NaN to integer');
        return BigInt(Math.trunc(v));
      }
      throw typeError(
        `int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`,
      );
    case 'bool':
      return truthy(v, rt);
    case 'str':
      return typeof v === 'string' ? v : rt.str(v);
    default:
      return v;
  }
}

function parseFloatStrict(s: string): number {
  const t = s.trim();
  const x = Number(t);
  if (t === '' || Number.isNaN(x)) {
    if (/^[+-]?nan$/i.test(t)) return Number.NaN;
    if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    throw valueError(`could not convert string to float: ${pyStrRepr(s)}`);
  }
  return x;
}

export class NdArray extends PyObject {
  constructor(
    public data: PyValue[],
    readonly dtype: Dtype,
  ) {
    super();
  }
  get typeName(): string {
    return 'numpy.ndarray';
  }
  pyType(): PyType {
    return NDARRAY_TYPE;
  }
  floats(): number[] {
    return this.data.map((v) =>
      typeof v === 'number'
        ? v
        : typeof v === 'boolean'
          ? v
            ? 1
            : 0
          : typeof v === 'bigint'
            ? Number(v)
            : Number.NaN,
    );
  }
  pyLen(): number {
    return this.data.length;
  }
  pyIter(): Iterator<PyValue> {
    return this.data[Symbol.iterator]();
  }
  pyTruthy(rt: Runtime): boolean {
    if (this.data.length === 1) return truthy(this.data[0] as PyValue, rt);
    if (this.data.length === 0) return false;
    throw valueError(
      'The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()',
    );
  }
  pyRepr(r: (v: PyValue) => string): string {
    return formatArray(this, r, true);
  }
  pyStr(r: (v: PyValue) => string): string {
    return formatArray(this, r, false);
  }
  pyContains(rt: Runtime, item: PyValue): boolean {
    return this.data.some((x) => truthy(richCompare('==', x, item, rt), rt));
  }
  pyGetItem(rt: Runtime, key: PyValue): PyValue {
    if (isInt(key)) {
      const n = this.data.length;
      let i = Number(toBig(key));
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw indexError(`index ${toBig(key)} is out of bounds for axis 0 with size ${n}`);
      return this.data[i] as PyValue;
    }
    if (key instanceof PySlice) {
      const { start, stop, step } = sliceParts(key);
      const s = adjustSlice(this.data.length, start, stop, step);
      const out: PyValue[] = [];
      for (let i = 0, k = s.start; i < s.count; i++, k += step) out.push(this.data[k] as PyValue);
      return new NdArray(out, this.dtype);
    }
    const idx = this.selection(rt, key);
    return new NdArray(
      idx.map((i) => this.data[i] as PyValue),
      this.dtype,
    );
  }
  /** Indices selected by a boolean mask or an integer index array/list. */
  private selection(_rt: Runtime, key: PyValue): number[] {
    const k =
      key instanceof NdArray ? key.data : key instanceof PyList || key instanceof PyTuple ? key.items : null;
    if (!k)
      throw pyErr(
        'IndexError',
        'only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices',
      );
    const n = this.data.length;
    if (k.length && k.every((v) => typeof v === 'boolean')) {
      if (k.length !== n) {
        throw indexError(
          `boolean index did not match indexed array along dimension 0; dimension is ${n} but corresponding boolean dimension is ${k.length}`,
        );
      }
      const out: number[] = [];
      k.forEach((v, i) => {
        if (v) out.push(i);
      });
      return out;
    }
    return k.map((v) => {
      let i = Number(asIndex(v, 'arrays used as indices must be of integer (or boolean) type'));
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw indexError(`index ${i} is out of bounds for axis 0 with size ${n}`);
      return i;
    });
  }
  pySetItem(rt: Runtime, key: PyValue, value: PyValue): void {
    const idx = isInt(key)
      ? [
          (() => {
            let i = Number(toBig(key));
            if (i < 0) i += this.data.length;
            if (i < 0 || i >= this.data.length) {
              throw indexError(
                `index ${toBig(key)} is out of bounds for axis 0 with size ${this.data.length}`,
              );
            }
            return i;
          })(),
        ]
      : key instanceof PySlice
        ? (() => {
            const { start, stop, step } = sliceParts(key);
            const s = adjustSlice(this.data.length, start, stop, step);
            return Array.from({ length: s.count }, (_, i) => s.start + i * step);
          })()
        : this.selection(rt, key);
    const vals = value instanceof NdArray ? value.data : value instanceof PyList ? value.items : null;
    idx.forEach((i, j) => {
      const v = vals ? vals[vals.length === 1 ? 0 : j] : value;
      if (v === undefined)
        throw valueError('shape mismatch: value array could not be broadcast to indexing result');
      this.data[i] = castTo(v, this.dtype, rt);
    });
  }
  pyBinop(rt: Runtime, op: string, other: PyValue, reflected: boolean): PyValue | undefined {
    const o = operand(other);
    if (!o) return undefined;
    const n = broadcastLength(this.data.length, o.length);
    const out: PyValue[] = [];
    for (let i = 0; i < n; i++) {
      const a = this.data[this.data.length === 1 ? 0 : i] as PyValue;
      const b = o.values[o.length === 1 ? 0 : i] as PyValue;
      out.push(reflected ? elementOp(op, b, a, rt) : elementOp(op, a, b, rt));
    }
    rt.alloc(n);
    return new NdArray(out, inferDtype(out));
  }
  pyRichCompare(rt: Runtime, op: '<' | '>' | '==' | '!=' | '<=' | '>=', other: PyValue): PyValue | undefined {
    const o = operand(other);
    if (!o)
      return op === '=='
        ? new NdArray(
            this.data.map(() => false),
            'bool',
          )
        : op === '!='
          ? new NdArray(
              this.data.map(() => true),
              'bool',
            )
          : undefined;
    const n = broadcastLength(this.data.length, o.length);
    const out: PyValue[] = [];
    for (let i = 0; i < n; i++) {
      const a = this.data[this.data.length === 1 ? 0 : i] as PyValue;
      const b = o.values[o.length === 1 ? 0 : i] as PyValue;
      out.push(elementCompare(op, a, b, rt));
    }
    return new NdArray(out, 'bool');
  }
  pyUnary(rt: Runtime, op: string): PyValue | undefined {
    if (op === '-' || op === 'abs' || op === '+') {
      return new NdArray(
        this.data.map((v) => {
          if (op === '+') return v;
          if (typeof v === 'number') return op === '-' ? -v : Math.abs(v);
          if (typeof v === 'bigint') return op === '-' ? -v : v < 0n ? -v : v;
          if (typeof v === 'boolean') {
            if (op === '-')
              throw typeError(
                'The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.',
              );
            return v;
          }
          return binaryOp('*', v, -1n, rt);
        }),
        this.dtype,
      );
    }
    if (op === '~' && (this.dtype === 'bool' || this.dtype === 'int64')) {
      return new NdArray(
        this.data.map((v) => (typeof v === 'boolean' ? !v : ~toBig(v as bigint))),
        this.dtype,
      );
    }
    return undefined;
  }
  pyGetAttr(_rt: Runtime, name: string): PyValue | undefined {
    switch (name) {
      case 'shape':
        return new PyTuple([BigInt(this.data.length)]);
      case 'size':
        return BigInt(this.data.length);
      case 'ndim':
        return 1n;
      case 'dtype':
        return new NpDtype(this.dtype, this.data);
      case 'T':
        return this;
      case 'tolist':
        return bound(this, name, () => new PyList(this.data.slice()));
      case 'copy':
      case 'flatten':
      case 'ravel':
        return bound(this, name, () => new NdArray(this.data.slice(), this.dtype));
      case 'item':
        return bound(this, name, () => {
          if (this.data.length !== 1)
            throw valueError('can only convert an array of size 1 to a Python scalar');
          return this.data[0] as PyValue;
        });
      case 'astype':
        return bound(this, name, (r, args) => {
          const dt = dtypeOf(args[0] ?? null);
          return new NdArray(
            this.data.map((v) => castTo(v, dt, r)),
            dt,
          );
        });
      case 'sort':
        return bound(this, name, (r) => {
          this.data = sortNumeric(this.data, r);
          return null;
        });
      case 'any':
        return bound(this, name, (r) => this.data.some((v) => truthy(v, r)));
      case 'all':
        return bound(this, name, (r) => this.data.every((v) => truthy(v, r)));
    }
    const f = REDUCTIONS.get(name);
    if (f) return bound(this, name, (r, args, kw) => f(r, [this, ...args], kw));
    return undefined;
  }
}

class NpDtype extends PyObject {
  constructor(
    readonly name: Dtype,
    readonly sample: readonly PyValue[],
  ) {
    super();
  }
  get typeName(): string {
    return 'numpy.dtype';
  }
  private label(): string {
    if (this.name !== 'str') return this.name === 'bool' ? 'bool' : this.name === 'object' ? 'O' : this.name;
    const w = Math.max(1, ...this.sample.map((s) => (typeof s === 'string' ? [...s].length : 1)));
    return `<U${w}`;
  }
  pyRepr(): string {
    return `dtype('${this.label()}')`;
  }
  pyStr(): string {
    return this.label();
  }
  pyRichCompare(_rt: Runtime, op: string, other: PyValue): PyValue | undefined {
    if (op !== '==' && op !== '!=') return undefined;
    const eq = typeof other === 'string' ? other === this.label() || other === this.name : other === this;
    return op === '==' ? eq : !eq;
  }
}

function bound(self: PyValue, name: string, f: BuiltinImpl): PyBuiltin {
  return new PyBuiltin(name, f, { kind: 'method', self, name });
}

function operand(v: PyValue): { values: readonly PyValue[]; length: number } | null {
  if (v instanceof NdArray) return { values: v.data, length: v.data.length };
  if (v instanceof PyList || v instanceof PyTuple) return { values: v.items, length: v.items.length };
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') {
    return { values: [v], length: 1 };
  }
  return null;
}

function broadcastLength(a: number, b: number): number {
  if (a === b || b === 1) return a;
  if (a === 1) return b;
  throw valueError(`operands could not be broadcast together with shapes (${a},) (${b},) `);
}

function num(v: PyValue): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v ? 1 : 0;
}

/** One element-wise arithmetic operation with numpy semantics (no ZeroDivisionError: inf/nan or 0). */
function elementOp(op: string, a: PyValue, b: PyValue, rt: Runtime): PyValue {
  const numeric = (x: PyValue) => typeof x === 'number' || typeof x === 'bigint' || typeof x === 'boolean';
  if (!numeric(a) || !numeric(b)) {
    if (typeof a === 'string' && typeof b === 'string' && op === '+') return a + b;
    throw pyErr('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  }
  if (typeof a === 'boolean' && typeof b === 'boolean' && (op === '&' || op === '|' || op === '^')) {
    return op === '&' ? a && b : op === '|' ? a || b : a !== b;
  }
  const bothInt = typeof a !== 'number' && typeof b !== 'number';
  if (bothInt && op !== '/') {
    const x = toBig(a as bigint | boolean);
    const y = toBig(b as bigint | boolean);
    switch (op) {
      case '+':
        return x + y;
      case '-':
        return x - y;
      case '*':
        return x * y;
      case '//':
        return y === 0n ? 0n : binaryOp('//', x, y, rt);
      case '%':
        return y === 0n ? 0n : binaryOp('%', x, y, rt);
      case '**':
        if (y < 0n) throw valueError('Integers to negative integer powers are not allowed.');
        return binaryOp('**', x, y, rt);
      default:
        return binaryOp(op, x, y, rt);
    }
  }
  const x = num(a);
  const y = num(b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    case '//':
      return y === 0 ? (x === 0 || Number.isNaN(x) ? Number.NaN : x / y) : Math.floor(x / y);
    case '%': {
      if (y === 0) return Number.NaN;
      const r = x % y;
      return r !== 0 && r < 0 !== y < 0 ? r + y : r;
    }
    case '**':
      return x ** y;
    default:
      throw pyErr('TypeError', `unsupported operand type(s) for ${op}: 'float' and 'float'`);
  }
}

function elementCompare(
  op: '<' | '>' | '==' | '!=' | '<=' | '>=',
  a: PyValue,
  b: PyValue,
  rt: Runtime,
): boolean {
  return truthy(richCompare(op, a, b, rt), rt);
}

function sortNumeric(values: readonly PyValue[], rt: Runtime): PyValue[] {
  // numpy sorts NaN to the end.
  const nan = values.filter((v) => typeof v === 'number' && Number.isNaN(v));
  const rest = values.filter((v) => !(typeof v === 'number' && Number.isNaN(v)));
  const sorted = rest.slice().sort((x, y) => (lessThan(x, y, rt) ? -1 : lessThan(y, x, rt) ? 1 : 0));
  return [...sorted, ...nan];
}

function dtypeOf(v: PyValue): Dtype {
  if (v === null) return 'float64';
  if (v instanceof PyType) {
    if (v.name === 'int' || v.name === 'int64' || v.name === 'int32') return 'int64';
    if (v.name === 'float' || v.name === 'float64' || v.name === 'float32') return 'float64';
    if (v.name === 'bool' || v.name === 'bool_') return 'bool';
    if (v.name === 'str' || v.name === 'str_') return 'str';
    return 'object';
  }
  if (typeof v === 'string') {
    if (/^(int|int64|int32|i8|i4)$/.test(v)) return 'int64';
    if (/^(float|float64|float32|f8|f4|double)$/.test(v)) return 'float64';
    if (v === 'bool') return 'bool';
    if (v === 'str' || v.startsWith('<U') || v === 'U') return 'str';
    if (v === 'object' || v === 'O') return 'object';
  }
  throw typeError(`data type '${typeof v === 'string' ? v : typeName(v)}' not understood`);
}

/** `np.asarray(x)`: an NdArray from an array, list, tuple, range or scalar. */
export function asArray(rt: Runtime, v: PyValue, dtype: PyValue = null): NdArray {
  if (v instanceof NdArray && dtype === null) return v;
  let items: PyValue[];
  if (v instanceof NdArray) items = v.data.slice();
  else if (
    typeof v === 'string' ||
    typeof v === 'number' ||
    typeof v === 'bigint' ||
    typeof v === 'boolean' ||
    v === null
  )
    items = [v];
  else items = toArray(v, rt);
  if (items.some((x) => x instanceof PyList || x instanceof PyTuple || x instanceof NdArray)) {
    throw notImplemented('multi-dimensional numpy arrays are');
  }
  rt.alloc(items.length);
  const dt = dtype === null ? inferDtype(items) : dtypeOf(dtype);
  return new NdArray(
    items.map((x) => castTo(x, dt, rt)),
    dt,
  );
}

// ------------------------------------------------------------------------------------------------ printing

/** numpy's dragon4_positional(x, precision=8, unique=True, trim='.'): shortest digits, at most 8 decimals. */
function positional(x: number, precision: number): string {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let s = pyFloatRepr(a);
  if (s.includes('e')) s = expandExp(s);
  const [ip, fp = ''] = s.split('.') as [string, string?];
  let intPart = ip;
  let frac = fp === '0' ? '' : fp;
  if (frac.length > precision) {
    const { digits, exp } = exactDecimal(a);
    const n = roundToFrac(digits, exp, precision)
      .toString()
      .padStart(precision + 1, '0');
    intPart = n.slice(0, n.length - precision);
    frac = n.slice(n.length - precision).replace(/0+$/, '');
  }
  return `${neg ? '-' : ''}${intPart}.${frac}`;
}

function expandExp(s: string): string {
  const [m, e] = s.split('e') as [string, string];
  const exp = Number(e);
  const [ip, fp = ''] = m.split('.') as [string, string?];
  const digits = ip + fp;
  const point = ip.length + exp;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** numpy's dragon4_scientific(x, precision, unique, trim): mantissa digits and exponent. */
function scientific(x: number, precision: number | null): { int: string; frac: string; exp: string } {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let mant: string;
  let e: number;
  if (a === 0) {
    mant = '0';
    e = 0;
  } else {
    const r = a.toExponential();
    const [m, ex] = r.split('e') as [string, string];
    mant = m.replace('.', '');
    e = Number(ex);
    if (precision !== null && mant.length - 1 > precision) {
      const rounded = a.toExponential(precision);
      const [m2, ex2] = rounded.split('e') as [string, string];
      mant = m2.replace('.', '');
      e = Number(ex2);
    }
  }
  const frac = mant.slice(1);
  const expStr = `${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return { int: `${neg ? '-' : ''}${mant[0]}`, frac, exp: expStr };
}

function floatFormatter(values: readonly number[]): (x: number) => string {
  const finite = values.filter(Number.isFinite);
  const nonZero = finite.filter((v) => v !== 0).map(Math.abs);
  let expFormat = false;
  if (nonZero.length) {
    const max = Math.max(...nonZero);
    const min = Math.min(...nonZero);
    if (max >= 1e8 || min < 0.0001 || max / min > 1000) expFormat = true;
  }
  let padLeft = 0;
  let padRight = 0;
  let fmt: (x: number) => string;
  if (!finite.length) {
    fmt = () => '';
  } else if (expFormat) {
    const parts = finite.map((v) => scientific(v, 8));
    const precision = Math.max(...parts.map((p) => p.frac.length));
    const expSize = Math.max(...parts.map((p) => p.exp.length)) - 1;
    padLeft = Math.max(...parts.map((p) => p.int.length));
    padRight = expSize + 2 + precision;
    fmt = (x) => {
      const p = scientific(x, precision);
      const frac = p.frac.padEnd(precision, '0');
      const sign = p.exp[0] as string;
      const digits = p.exp.slice(1).padStart(expSize, '0');
      return `${p.int.padStart(padLeft)}.${frac}e${sign}${digits}`;
    };
  } else {
    const strs = finite.map((v) => positional(v, 8));
    const split = strs.map((s) => s.split('.') as [string, string]);
    padLeft = Math.max(...split.map((p) => p[0].length));
    padRight = Math.max(...split.map((p) => p[1].length));
    fmt = (x) => {
      const [ip, fp] = positional(x, 8).split('.') as [string, string];
      return `${ip.padStart(padLeft)}.${fp.padEnd(padRight)}`;
    };
  }
  if (finite.length !== values.length) {
    const neginf = values.some((v) => v === Number.NEGATIVE_INFINITY);
    const offset = padRight + 1;
    padLeft = Math.max(padLeft, 3 - offset, 3 + (neginf ? 1 : 0) - offset);
  }
  return (x: number) => {
    if (!Number.isFinite(x)) {
      const ret = Number.isNaN(x) ? 'nan' : x < 0 ? '-inf' : 'inf';
      return ret.padStart(padLeft + padRight + 1);
    }
    return fmt(x);
  };
}

function elementFormatter(
  arr: NdArray,
  shown: readonly PyValue[],
  r: (v: PyValue) => string,
  _repr: boolean,
): (v: PyValue) => string {
  switch (arr.dtype) {
    case 'float64':
      return floatFormatter(shown.map(num)) as (v: PyValue) => string;
    case 'int64': {
      const w = Math.max(0, ...shown.map((v) => String(v).length));
      return (v) => String(v).padStart(w);
    }
    case 'bool':
      return (v) => (v ? 'True' : 'False').padStart(5);
    case 'str':
      return (v) => pyStrRepr(v as string);
    default:
      return (v) => r(v);
  }
}

function formatArray(arr: NdArray, r: (v: PyValue) => string, repr: boolean): string {
  const n = arr.data.length;
  const summarize = n > 1000;
  const shown = summarize ? [...arr.data.slice(0, 3), ...arr.data.slice(-3)] : arr.data;
  const f = elementFormatter(arr, shown, r, repr);
  const words = shown.map((v) =>
    f(
      typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string'
        ? v
        : v,
    ),
  );
  const sep = repr ? ', ' : ' ';
  const prefix = repr ? 'array(' : '';
  const lineWidth = 75 - (repr ? 1 : 0);
  const hanging = ' '.repeat(prefix.length + 1);
  const elemWidth = lineWidth - Math.max(sep.trimEnd().length, 1);
  let s = '';
  let line = hanging;
  const extend = (word: string) => {
    let wrap = line.length + word.length > elemWidth;
    if (line.length <= hanging.length) wrap = false;
    if (wrap) {
      s += `${line.trimEnd()}\n`;
      line = hanging;
    }
    line += word;
  };
  if (n === 0) {
    s = hanging;
  } else {
    words.forEach((w, i) => {
      if (summarize && i === 3) {
        extend('...');
        line += sep;
      }
      extend(w);
      if (i < words.length - 1) line += sep;
    });
    s += line;
  }
  let body = `[${s.slice(hanging.length)}]`;
  if (!repr) return body;
  body = `array(${body}`;
  if (arr.dtype === 'str') {
    const w = Math.max(1, ...arr.data.map((v) => [...(v as string)].length));
    return `${body}, dtype='<U${w}')`;
  }
  if (n === 0) return `${body}, dtype=${arr.dtype === 'float64' ? 'float64' : arr.dtype})`;
  if (arr.dtype === 'object') return `${body}, dtype=object)`;
  return `${body})`;
}

// ------------------------------------------------------------------------------------------------ reductions

function floatsOf(rt: Runtime, v: PyValue): { arr: NdArray; xs: number[] } {
  const arr = asArray(rt, v);
  if (arr.dtype === 'str' || arr.dtype === 'object') {
    throw pyErr('TypeError', `cannot perform reduce with flexible type`);
  }
  rt.step(arr.data.length);
  return { arr, xs: arr.floats() };
}

function ddofArg(kw: Kwargs | null): number {
  const d = kw?.get('ddof');
  return d === undefined ? 0 : Number(asIndex(d));
}

function checkAxis(kw: Kwargs | null, fname: string): void {
  if (kw) {
    for (const k of kw.keys()) {
      if (k !== 'ddof' && k !== 'axis' && k !== 'dtype' && k !== 'keepdims')
        throw typeError(`${fname}() got an unexpected keyword argument '${k}'`);
    }
    const axis = kw.get('axis');
    if (
      axis !== undefined &&
      axis !== null &&
      toBig(axis as bigint) !== 0n &&
      toBig(axis as bigint) !== -1n
    ) {
      throw pyErr('AxisError', `axis ${axis} is out of bounds for array of dimension 1`);
    }
  }
}

function mean(rt: Runtime, v: PyValue): number {
  const { xs } = floatsOf(rt, v);
  return floatSum(xs) / xs.length;
}

function variance(rt: Runtime, v: PyValue, ddof: number): number {
  const { xs } = floatsOf(rt, v);
  const m = floatSum(xs) / xs.length;
  const sq = xs.map((x) => (x - m) * (x - m));
  return floatSum(sq) / Math.max(xs.length - ddof, 0);
}

function extreme(rt: Runtime, v: PyValue, which: 'max' | 'min'): PyValue {
  const arr = asArray(rt, v);
  if (!arr.data.length) {
    throw valueError(
      `zero-size array to reduction operation ${which === 'max' ? 'maximum' : 'minimum'} which has no identity`,
    );
  }
  let best = arr.data[0] as PyValue;
  for (const x of arr.data) {
    rt.step(1);
    if (typeof x === 'number' && Number.isNaN(x)) return x;
    if (typeof best === 'number' && Number.isNaN(best)) return best;
    if (which === 'max' ? lessThan(best, x, rt) : lessThan(x, best, rt)) best = x;
  }
  return best;
}

function argExtreme(rt: Runtime, v: PyValue, which: 'max' | 'min'): bigint {
  const arr = asArray(rt, v);
  if (!arr.data.length) throw valueError(`attempt to get arg${which} of an empty sequence`);
  let bi = 0;
  for (let i = 0; i < arr.data.length; i++) {
    const x = arr.data[i] as PyValue;
    if (typeof x === 'number' && Number.isNaN(x)) return BigInt(i);
    if (which === 'max' ? lessThan(arr.data[bi] as PyValue, x, rt) : lessThan(x, arr.data[bi] as PyValue, rt))
      bi = i;
  }
  return BigInt(bi);
}

function percentileOf(sortedXs: number[], q: number): number {
  const n = sortedXs.length;
  if (q < 0 || q > 1) throw valueError('Percentiles must be in the range [0, 100]');
  const virtual = n * q + (1 + q * (1 - 1 - 1)) - 1;
  const prev = Math.max(0, Math.min(n - 1, Math.floor(virtual)));
  const next = Math.max(0, Math.min(n - 1, prev + 1));
  const gamma = virtual - Math.floor(virtual);
  const a = sortedXs[prev] as number;
  const b = sortedXs[next] as number;
  const diff = b - a;
  return gamma >= 0.5 ? b - diff * (1 - gamma) : a + diff * gamma;
}

function sumValues(rt: Runtime, v: PyValue): PyValue {
  const arr = asArray(rt, v);
  rt.step(arr.data.length);
  if (arr.dtype === 'float64') return floatSum(arr.floats());
  if (arr.dtype === 'int64' || arr.dtype === 'bool') {
    let s = 0n;
    for (const x of arr.data) s += toBig(x as bigint | boolean);
    return s;
  }
  let acc: PyValue = 0n;
  for (const x of arr.data) acc = binaryOp('+', acc, x, rt);
  return acc;
}

function roundValue(rt: Runtime, v: PyValue, decimals: number): PyValue {
  if (typeof v === 'number') return npRound(v, decimals);
  if (isInt(v)) {
    const n = toBig(v);
    if (decimals >= 0) return n;
    const f = 10n ** BigInt(-decimals);
    return BigInt(npRound(Number(n) / Number(f), 0)) * f;
  }
  const arr = asArray(rt, v);
  return new NdArray(
    arr.data.map((x) => roundValue(rt, x, decimals)),
    arr.dtype,
  );
}

function mapFloat(rt: Runtime, v: PyValue, f: (x: number) => number): PyValue {
  if (typeof v === 'number' || isInt(v)) return f(num(v));
  const arr = asArray(rt, v);
  return new NdArray(arr.floats().map(f), 'float64');
}

const REDUCTIONS = new Map<string, BuiltinImpl>([
  [
    'mean',
    (rt, args, kw) => {
      checkAxis(kw, 'mean');
      return mean(rt, args[0] as PyValue);
    },
  ],
  [
    'sum',
    (rt, args, kw) => {
      checkAxis(kw, 'sum');
      return sumValues(rt, args[0] as PyValue);
    },
  ],
  [
    'std',
    (rt, args, kw) => {
      checkAxis(kw, 'std');
      return Math.sqrt(variance(rt, args[0] as PyValue, ddofArg(kw)));
    },
  ],
  [
    'var',
    (rt, args, kw) => {
      checkAxis(kw, 'var');
      return variance(rt, args[0] as PyValue, ddofArg(kw));
    },
  ],
  ['max', (rt, args) => extreme(rt, args[0] as PyValue, 'max')],
  ['min', (rt, args) => extreme(rt, args[0] as PyValue, 'min')],
  ['argmax', (rt, args) => argExtreme(rt, args[0] as PyValue, 'max')],
  ['argmin', (rt, args) => argExtreme(rt, args[0] as PyValue, 'min')],
  [
    'round',
    (rt, args, kw) => {
      const [v, d] = bind('round', args, kw, ['a', 'decimals'], 1);
      return roundValue(rt, v as PyValue, d === undefined ? 0 : Number(asIndex(d)));
    },
  ],
  [
    'cumsum',
    (rt, args) => {
      const arr = asArray(rt, args[0] as PyValue);
      const out: PyValue[] = [];
      let acc: PyValue = arr.dtype === 'float64' ? 0 : 0n;
      for (const x of arr.data) {
        acc = arr.dtype === 'float64' ? (acc as number) + num(x) : binaryOp('+', acc, x, rt);
        out.push(acc);
      }
      return new NdArray(out, arr.dtype === 'bool' ? 'int64' : arr.dtype);
    },
  ],
  [
    'prod',
    (rt, args) => {
      const arr = asArray(rt, args[0] as PyValue);
      let acc: PyValue = arr.dtype === 'float64' ? 1 : 1n;
      for (const x of arr.data)
        acc = arr.dtype === 'float64' ? (acc as number) * num(x) : binaryOp('*', acc, x, rt);
      return acc;
    },
  ],
]);

// ------------------------------------------------------------------------------------------------ module

export const NDARRAY_TYPE = new PyType(
  'ndarray',
  null,
  null,
  new Map(),
  { kind: 'module', module: 'numpy', path: ['ndarray'] },
  'numpy.ndarray',
);

function scalarType(name: string, conv: (rt: Runtime, v: PyValue) => PyValue): PyType {
  return new PyType(
    name,
    (rt, args, kw) => {
      noKwargs(name, kw);
      return conv(rt, args[0] ?? 0n);
    },
    null,
    new Map(),
    { kind: 'module', module: 'numpy', path: [name] },
    `numpy.${name}`,
  );
}

export function createNumpyModule(): PyModule {
  const attrs = new Map<string, PyValue>();
  const fn = (name: string, impl: BuiltinImpl) => attrs.set(name, moduleFn('numpy', name, impl));
  for (const [name, impl] of REDUCTIONS) fn(name, impl);
  attrs.set('amax', attrs.get('max') as PyValue);
  attrs.set('amin', attrs.get('min') as PyValue);
  attrs.set('around', attrs.get('round') as PyValue);
  fn('array', (rt, args, kw) => {
    const [v, dtype] = bind('array', args, kw, ['object', 'dtype'], 1);
    return asArray(rt, v as PyValue, dtype ?? null);
  });
  attrs.set('asarray', attrs.get('array') as PyValue);
  fn('median', (rt, args, kw) => {
    checkAxis(kw, 'median');
    const { xs } = floatsOf(rt, args[0] as PyValue);
    if (!xs.length) return Number.NaN;
    if (xs.some(Number.isNaN)) return Number.NaN;
    const s = xs.slice().sort((a, b) => a - b);
    const n = s.length;
    if (n % 2 === 1) return s[(n - 1) / 2] as number;
    return floatSum([s[n / 2 - 1] as number, s[n / 2] as number]) / 2;
  });
  const quantile =
    (scale: number): BuiltinImpl =>
    (rt, args, kw) => {
      const [v, q] = bind('percentile', args, kw, ['a', 'q', 'axis', 'out', 'overwrite_input', 'method'], 2);
      const { xs } = floatsOf(rt, v as PyValue);
      const s = xs.slice().sort((a, b) => a - b);
      if (!s.length) throw indexError('index -1 is out of bounds for axis 0 with size 0');
      const one = (qq: PyValue) => {
        const qv = num(qq) / scale;
        if (Number.isNaN(qv) || qv < 0 || qv > 1) {
          throw valueError(
            scale === 100
              ? 'Percentiles must be in the range [0, 100]'
              : 'Quantiles must be in the range [0, 1]',
          );
        }
        return percentileOf(s, qv);
      };
      if (q instanceof PyList || q instanceof PyTuple || q instanceof NdArray) {
        const qs = q instanceof NdArray ? q.data : q.items;
        return new NdArray(qs.map(one), 'float64');
      }
      return one(q as PyValue);
    };
  fn('percentile', quantile(100));
  fn('quantile', quantile(1));
  fn('average', (rt, args, kw) => {
    const [v, , w] = bind('average', args, kw, ['a', 'axis', 'weights'], 1);
    if (w === undefined || w === null) return mean(rt, v as PyValue);
    const xs = floatsOf(rt, v as PyValue).xs;
    const ws = floatsOf(rt, w).xs;
    if (xs.length !== ws.length)
      throw typeError('Axis must be specified when shapes of a and weights differ.');
    const sw = floatSum(ws);
    if (sw === 0) throw pyErr('ZeroDivisionError', "Weights sum to zero, can't be normalized");
    return floatSum(xs.map((x, i) => x * (ws[i] as number))) / sw;
  });
  fn('nanmean', (rt, args) => {
    const xs = floatsOf(rt, args[0] as PyValue).xs.filter((x) => !Number.isNaN(x));
    return floatSum(xs) / xs.length;
  });
  fn('nansum', (rt, args) => floatSum(floatsOf(rt, args[0] as PyValue).xs.filter((x) => !Number.isNaN(x))));
  fn('nanmax', (rt, args) =>
    Math.max(...floatsOf(rt, args[0] as PyValue).xs.filter((x) => !Number.isNaN(x))),
  );
  fn('nanmin', (rt, args) =>
    Math.min(...floatsOf(rt, args[0] as PyValue).xs.filter((x) => !Number.isNaN(x))),
  );
  fn('sqrt', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.sqrt));
  fn('exp', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.exp));
  fn('log', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.log));
  fn('log10', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.log10));
  fn('log2', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.log2));
  fn('floor', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.floor));
  fn('ceil', (rt, args) => mapFloat(rt, args[0] as PyValue, Math.ceil));
  fn('isnan', (rt, args) => {
    const v = args[0] as PyValue;
    if (typeof v === 'number' || isInt(v)) return Number.isNaN(num(v));
    const arr = asArray(rt, v);
    return new NdArray(arr.floats().map(Number.isNaN), 'bool');
  });
  fn('abs', (rt, args) => {
    const v = args[0] as PyValue;
    if (typeof v === 'number') return Math.abs(v);
    if (isInt(v)) {
      const n = toBig(v);
      return n < 0n ? -n : n;
    }
    return asArray(rt, v).pyUnary(rt, 'abs') as PyValue;
  });
  attrs.set('absolute', attrs.get('abs') as PyValue);
  fn('sort', (rt, args) => {
    const arr = asArray(rt, args[0] as PyValue);
    return new NdArray(sortNumeric(arr.data, rt), arr.dtype);
  });
  fn('argsort', (rt, args) => {
    const arr = asArray(rt, args[0] as PyValue);
    const idx = arr.data.map((_, i) => i);
    idx.sort((a, b) =>
      lessThan(arr.data[a] as PyValue, arr.data[b] as PyValue, rt)
        ? -1
        : lessThan(arr.data[b] as PyValue, arr.data[a] as PyValue, rt)
          ? 1
          : 0,
    );
    return new NdArray(
      idx.map((i) => BigInt(i)),
      'int64',
    );
  });
  fn('unique', (rt, args) => {
    const arr = asArray(rt, args[0] as PyValue);
    const sorted = sortNumeric(arr.data, rt);
    const out: PyValue[] = [];
    for (const x of sorted) {
      const last = out[out.length - 1];
      if (last === undefined || !truthy(richCompare('==', last, x, rt), rt)) out.push(x);
    }
    return new NdArray(out, arr.dtype);
  });
  fn('diff', (rt, args) => {
    const arr = asArray(rt, args[0] as PyValue);
    const out: PyValue[] = [];
    for (let i = 1; i < arr.data.length; i++)
      out.push(elementOp('-', arr.data[i] as PyValue, arr.data[i - 1] as PyValue, rt));
    return new NdArray(out, arr.dtype === 'bool' ? 'bool' : arr.dtype);
  });
  fn('arange', (rt, args, kw) => {
    noKwargs('arange', kw);
    let [start, stop, step] = [args[0] ?? 0n, args[1], args[2] ?? 1n] as PyValue[];
    if (stop === undefined) {
      stop = start;
      start = 0n;
    }
    const allInt = [start, stop, step].every((v) => isInt(v ?? null));
    const a = num(start as PyValue);
    const b = num(stop as PyValue);
    const s = num(step as PyValue);
    if (s === 0) throw pyErr('ZeroDivisionError', 'division by zero');
    const n = Math.max(0, Math.ceil((b - a) / s));
    rt.alloc(n);
    if (n > rt.maxSequenceLength) throw pyErr('MemoryError');
    const out: PyValue[] = [];
    for (let i = 0; i < n; i++)
      out.push(allInt ? toBig(start as bigint) + BigInt(i) * toBig(step as bigint) : a + i * s);
    return new NdArray(out, allInt ? 'int64' : 'float64');
  });
  fn('linspace', (rt, args, kw) => {
    const [start, stop, numArg, endpoint] = bind(
      'linspace',
      args,
      kw,
      ['start', 'stop', 'num', 'endpoint'],
      2,
    );
    const n = numArg === undefined ? 50 : Number(asIndex(numArg));
    const ep = endpoint === undefined ? true : truthy(endpoint, rt);
    const a = num(start as PyValue);
    const b = num(stop as PyValue);
    const div = ep ? n - 1 : n;
    const step = (b - a) / div;
    const out: PyValue[] = [];
    for (let i = 0; i < n; i++) out.push(div > 0 ? i * step + a : a);
    if (ep && n > 1) out[n - 1] = b;
    return new NdArray(out, 'float64');
  });
  const filled =
    (value: number): BuiltinImpl =>
    (rt, args) => {
      const n = Number(asIndex(args[0] ?? null));
      if (n < 0) throw valueError('negative dimensions are not allowed');
      rt.alloc(n);
      if (n > rt.maxSequenceLength) throw pyErr('MemoryError');
      return new NdArray(new Array<PyValue>(n).fill(value), 'float64');
    };
  fn('zeros', filled(0));
  fn('ones', filled(1));
  fn('where', (rt, args) => {
    const cond = asArray(rt, args[0] as PyValue);
    if (args.length === 1) {
      const idx: PyValue[] = [];
      cond.data.forEach((v, i) => {
        if (truthy(v, rt)) idx.push(BigInt(i));
      });
      return new PyTuple([new NdArray(idx, 'int64')]);
    }
    const x = operand(args[1] as PyValue);
    const y = operand(args[2] as PyValue);
    if (!x || !y) throw typeError('where() arguments must be arrays or scalars');
    const out = cond.data.map(
      (c, i) =>
        (truthy(c, rt) ? x.values[x.length === 1 ? 0 : i] : y.values[y.length === 1 ? 0 : i]) as PyValue,
    );
    return new NdArray(out, inferDtype(out));
  });
  fn('count_nonzero', (rt, args) =>
    BigInt(asArray(rt, args[0] as PyValue).data.filter((v) => truthy(v, rt)).length),
  );
  fn('clip', (rt, args) => {
    const lo = args[1] ?? null;
    const hi = args[2] ?? null;
    const clipOne = (v: PyValue): PyValue => {
      let r = v;
      if (lo !== null && lessThan(r, lo, rt)) r = lo;
      if (hi !== null && lessThan(hi, r, rt)) r = hi;
      return r;
    };
    const v = args[0] as PyValue;
    if (typeof v === 'number' || isInt(v)) return clipOne(v);
    const arr = asArray(rt, v);
    return new NdArray(arr.data.map(clipOne), arr.dtype);
  });
  fn('concatenate', (rt, args) => {
    const parts = toArray(args[0] as PyValue, rt).map((p) => asArray(rt, p));
    const out = parts.flatMap((p) => p.data);
    return new NdArray(out, inferDtype(out));
  });
  fn('dot', (rt, args) => {
    const a = asArray(rt, args[0] as PyValue);
    const b = asArray(rt, args[1] as PyValue);
    if (a.data.length !== b.data.length)
      throw valueError(`shapes (${a.data.length},) and (${b.data.length},) not aligned`);
    let acc: PyValue = 0n;
    a.data.forEach((x, i) => {
      acc = binaryOp('+', acc, elementOp('*', x, b.data[i] as PyValue, rt), rt);
    });
    return acc;
  });
  attrs.set('nan', Number.NaN);
  attrs.set('inf', Number.POSITIVE_INFINITY);
  attrs.set('pi', Math.PI);
  attrs.set('e', Math.E);
  attrs.set('ndarray', NDARRAY_TYPE);
  const toFloat = (_rt: Runtime, v: PyValue) => {
    if (typeof v === 'string') return parseFloatStrict(v);
    return num(v);
  };
  const toInt = (rt: Runtime, v: PyValue) => castTo(v, 'int64', rt);
  for (const n of ['float64', 'float32', 'float_', 'double']) attrs.set(n, scalarType(n, toFloat));
  for (const n of ['int64', 'int32', 'int_', 'intc']) attrs.set(n, scalarType(n, toInt));
  attrs.set(
    'bool_',
    scalarType('bool_', (rt, v) => truthy(v, rt)),
  );
  attrs.set(
    'str_',
    scalarType('str_', (rt, v) => rt.str(v)),
  );
  return new PyModule('numpy', attrs);
}

/** For snapshots. */
export function restoreNdArray(dtype: string, data: PyValue[]): NdArray {
  return new NdArray(data, dtype as Dtype);
}
