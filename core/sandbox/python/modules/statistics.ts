/**
 * The `statistics` module, computed the way CPython 3.11 does: sums of exact fractions (each float's exact
 * binary value), results converted back with one correct rounding; `stdev`/`pstdev` use the correctly rounded
 * square root of the exact variance (`_float_sqrt_of_frac`); int data gives int means when exact.
 */

import { bind, moduleFn, noKwargs } from '../args.ts';
import { sortValues } from '../methods.ts';
import { ratioToFloat } from '../numeric.ts';
import {
  type BuiltinImpl,
  EXC,
  hashKey,
  PyList,
  PyModule,
  type PyValue,
  pyErr,
  type Runtime,
  toBig,
  typeError,
  typeName,
} from '../objects.ts';
import { binaryOp, toArray } from '../ops.ts';
import { fsum, isqrt } from './math.ts';

const statsError = (msg: string) => pyErr('StatisticsError', msg);

/** An exact rational n/d (d > 0, reduced). */
class Frac {
  constructor(
    readonly n: bigint,
    readonly d: bigint,
  ) {}
  static of(n: bigint, d: bigint): Frac {
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = gcd(n < 0n ? -n : n, d);
    return g > 1n ? new Frac(n / g, d / g) : new Frac(n, d);
  }
  add(o: Frac): Frac {
    return Frac.of(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  mul(o: Frac): Frac {
    return Frac.of(this.n * o.n, this.d * o.d);
  }
  sub(o: Frac): Frac {
    return Frac.of(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  divInt(k: bigint): Frac {
    return Frac.of(this.n, this.d * k);
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

type Exact = { kind: 'exact'; f: Frac } | { kind: 'special'; x: number };

/** `_exact_ratio`: ints, bools and floats (exact binary value); TypeError for anything else. */
function exactRatio(v: PyValue): Exact {
  if (typeof v === 'bigint' || typeof v === 'boolean') return { kind: 'exact', f: new Frac(toBig(v), 1n) };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { kind: 'special', x: v };
    let x = v;
    let d = 1n;
    while (!Number.isInteger(x)) {
      x *= 2;
      d *= 2n;
    }
    return { kind: 'exact', f: Frac.of(BigInt(x), d) };
  }
  throw typeError(`can't convert type '${typeName(v)}' to numerator/denominator`);
}

/** The result type T of `_sum`/`_ss`: int unless some value is a float. */
function resultType(data: PyValue[]): 'int' | 'float' {
  return data.some((v) => typeof v === 'number') ? 'float' : 'int';
}

function convert(f: Frac, T: 'int' | 'float'): PyValue {
  if (T === 'int' && f.d === 1n) return f.n;
  return ratioToFloat(f.n, f.d);
}

interface Sum {
  T: 'int' | 'float';
  total: Frac | number;
  n: number;
}

function exactSum(rt: Runtime, data: PyValue[]): Sum {
  let total = new Frac(0n, 1n);
  let special: number | null = null;
  for (const v of data) {
    rt.step(1);
    const e = exactRatio(v);
    if (e.kind === 'special') special = special === null ? e.x : special + e.x;
    else total = total.add(e.f);
  }
  return { T: resultType(data), total: special === null ? total : special, n: data.length };
}

/** `_ss`: the exact sum of squared deviations. */
function sumSquares(
  rt: Runtime,
  data: PyValue[],
  c: PyValue | undefined,
): { T: 'int' | 'float'; ss: Frac | number; n: number } {
  if (c !== undefined && c !== null) {
    const sq = data.map((x) => {
      const d = binaryOp('-', x, c, rt);
      return binaryOp('*', d, d, rt);
    });
    const s = exactSum(rt, sq);
    return { T: s.T, ss: s.total, n: s.n };
  }
  let sx = new Frac(0n, 1n);
  let sxx = new Frac(0n, 1n);
  let special: number | null = null;
  for (const v of data) {
    rt.step(1);
    const e = exactRatio(v);
    if (e.kind === 'special') special = special === null ? e.x : special + e.x;
    else {
      sx = sx.add(e.f);
      sxx = sxx.add(e.f.mul(e.f));
    }
  }
  const n = BigInt(data.length);
  if (special !== null) return { T: resultType(data), ss: special, n: data.length };
  if (n === 0n) return { T: resultType(data), ss: new Frac(0n, 1n), n: 0 };
  const ss = Frac.of(n * sxx.n * sx.d * sx.d - sx.n * sx.n * sxx.d, sxx.d * sx.d * sx.d * n);
  return { T: resultType(data), ss, n: data.length };
}

/** `_float_sqrt_of_frac`: sqrt(n/m) correctly rounded. */
function floatSqrtOfFrac(n: bigint, m: bigint): number {
  const bitLength = (x: bigint) => (x === 0n ? 0 : (x < 0n ? -x : x).toString(2).length);
  const q = Math.floor((bitLength(n) - bitLength(m) - 109) / 2);
  const rto = (a: bigint, b: bigint) => {
    const r = isqrt(a / b);
    return r | (r * r * b !== a ? 1n : 0n);
  };
  if (q >= 0) {
    const num = rto(n, m << BigInt(2 * q)) << BigInt(q);
    return ratioToFloat(num, 1n);
  }
  const num = rto(n << BigInt(-2 * q), m);
  return ratioToFloat(num, 1n << BigInt(-q));
}

function dataArg(
  rt: Runtime,
  name: string,
  args: PyValue[],
  kw: Parameters<BuiltinImpl>[2],
  extra: string[] = [],
): [PyValue[], (PyValue | undefined)[]] {
  const bound = bind(name, args, kw, ['data', ...extra], 1);
  return [toArray(bound[0] as PyValue, rt), bound.slice(1)];
}

export function createStatisticsModule(): PyModule {
  const attrs = new Map<string, PyValue>();
  const fn = (name: string, impl: BuiltinImpl) => attrs.set(name, moduleFn('statistics', name, impl));

  fn('mean', (rt, args, kw) => {
    const [data] = dataArg(rt, 'mean', args, kw);
    if (data.length < 1) throw statsError('mean requires at least one data point');
    const s = exactSum(rt, data);
    if (typeof s.total === 'number') return s.total / s.n;
    return convert(s.total.divInt(BigInt(s.n)), s.T);
  });
  fn('fmean', (rt, args, kw) => {
    const [data] = dataArg(rt, 'fmean', args, kw);
    if (data.length < 1) throw statsError('fmean requires at least one data point');
    return fsum(data.map((v) => toFloatArg(v))) / data.length;
  });
  fn('geometric_mean', (rt, args, kw) => {
    const [data] = dataArg(rt, 'geometric_mean', args, kw);
    const logs = data.map((v) => {
      const x = toFloatArg(v);
      if (!(x > 0))
        throw statsError('geometric mean requires a non-empty dataset containing positive numbers');
      return Math.log(x);
    });
    if (!logs.length)
      throw statsError('geometric mean requires a non-empty dataset containing positive numbers');
    return Math.exp(fsum(logs) / logs.length);
  });
  const medianImpl =
    (which: 'median' | 'median_low' | 'median_high'): BuiltinImpl =>
    (rt, args, kw) => {
      const [raw] = dataArg(rt, which, args, kw);
      const data = sortValues(rt, raw, null, false);
      const n = data.length;
      if (n === 0) throw statsError('no median for empty data');
      if (which === 'median_low')
        return n % 2 === 1 ? (data[(n - 1) / 2] as PyValue) : (data[n / 2 - 1] as PyValue);
      if (which === 'median_high') return data[Math.floor(n / 2)] as PyValue;
      if (n % 2 === 1) return data[(n - 1) / 2] as PyValue;
      const i = n / 2;
      return binaryOp('/', binaryOp('+', data[i - 1] as PyValue, data[i] as PyValue, rt), 2n, rt);
    };
  fn('median', medianImpl('median'));
  fn('median_low', medianImpl('median_low'));
  fn('median_high', medianImpl('median_high'));
  const counts = (rt: Runtime, data: PyValue[]) => {
    const m = new Map<string, { v: PyValue; c: number }>();
    for (const v of data) {
      rt.step(1);
      const k = hashKey(v);
      const e = m.get(k);
      if (e) e.c++;
      else m.set(k, { v, c: 1 });
    }
    return [...m.values()];
  };
  fn('mode', (rt, args, kw) => {
    noKwargs('mode', kw);
    const data = toArray(bind('mode', args, kw, ['data'], 1)[0] as PyValue, rt);
    const c = counts(rt, data);
    if (!c.length) throw statsError('no mode for empty data');
    let best = c[0] as { v: PyValue; c: number };
    for (const e of c) if (e.c > best.c) best = e;
    return best.v;
  });
  fn('multimode', (rt, args, kw) => {
    const data = toArray(bind('multimode', args, kw, ['data'], 1)[0] as PyValue, rt);
    const c = counts(rt, data);
    const max = Math.max(0, ...c.map((e) => e.c));
    return new PyList(c.filter((e) => e.c === max).map((e) => e.v));
  });
  const variance =
    (name: string, sample: boolean, sqrt: boolean): BuiltinImpl =>
    (rt, args, kw) => {
      const [data, [c]] = dataArg(rt, name, args, kw, [sample ? 'xbar' : 'mu']);
      const { T, ss, n } = sumSquares(rt, data, c);
      const min = sample ? 2 : 1;
      if (n < min) {
        throw statsError(`${name} requires at least ${sample ? 'two data points' : 'one data point'}`);
      }
      const div = BigInt(sample ? n - 1 : n);
      if (typeof ss === 'number') return sqrt ? Math.sqrt(ss / Number(div)) : ss / Number(div);
      const q = ss.divInt(div);
      if (sqrt) return floatSqrtOfFrac(q.n, q.d);
      return convert(q, T);
    };
  fn('variance', variance('variance', true, false));
  fn('pvariance', variance('pvariance', false, false));
  fn('stdev', variance('stdev', true, true));
  fn('pstdev', variance('pstdev', false, true));
  attrs.set('StatisticsError', EXC.get('StatisticsError') as PyValue);
  return new PyModule('statistics', attrs);
}

function toFloatArg(v: PyValue): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return Number(toBig(v));
  throw typeError(`must be real number, not ${typeName(v)}`);
}
