/**
 * The `math` module. Float functions use JS Math (IEEE double; a few transcendental results may differ from
 * glibc in the last bit); integer functions (factorial, gcd, comb, isqrt, floor/ceil results) are exact bigints;
 * `fsum` is CPython's exact Shewchuk summation; `log` of huge ints works like CPython's (via the bit length).
 */

import { bind, moduleFn, noKwargs } from '../args.ts';
import { intToFloat } from '../numeric.ts';
import {
  asIndex,
  type BuiltinImpl,
  isInt,
  type Kwargs,
  overflowError,
  PyModule,
  PyTuple,
  type PyValue,
  type Runtime,
  toBig,
  typeError,
  typeName,
  valueError,
  zeroDivision,
} from '../objects.ts';
import { binaryOp, iterate, toArray } from '../ops.ts';

const domain = () => valueError('math domain error');
const range = () => overflowError('math range error');

/** A real-number argument as float (TypeError for non-numbers). */
export function real(v: PyValue | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return intToFloat(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw typeError(`must be real number, not ${typeName(v ?? null)}`);
}

function checked(r: number, ...inputs: number[]): number {
  if (Number.isNaN(r) && !inputs.some(Number.isNaN)) throw domain();
  if (!Number.isFinite(r) && inputs.every(Number.isFinite)) throw range();
  return r;
}

function unary(name: string, f: (x: number) => number): BuiltinImpl {
  return (_rt, args, kw) => {
    noKwargs(name, kw);
    if (args.length !== 1)
      throw typeError(`math.${name}() takes exactly one argument (${args.length} given)`);
    const x = real(args[0]);
    return checked(f(x), x);
  };
}

function binary(name: string, f: (x: number, y: number) => number): BuiltinImpl {
  return (_rt, args, kw) => {
    noKwargs(name, kw);
    if (args.length !== 2) throw typeError(`${name} expected 2 arguments, got ${args.length}`);
    const x = real(args[0]);
    const y = real(args[1]);
    return checked(f(x, y), x, y);
  };
}

function floatToIntChecked(x: number): bigint {
  if (Number.isNaN(x)) throw valueError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw overflowError('cannot convert float infinity to integer');
  return BigInt(x);
}

function rounding(name: string, f: (x: number) => number): BuiltinImpl {
  return (_rt, args, kw) => {
    noKwargs(name, kw);
    if (args.length !== 1)
      throw typeError(`math.${name}() takes exactly one argument (${args.length} given)`);
    const v = args[0] as PyValue;
    if (isInt(v)) return toBig(v);
    return floatToIntChecked(f(real(v)));
  };
}

/** Natural log of a positive int of any size (CPython: frexp-style for ints too large for a float). */
function logInt(n: bigint): number {
  if (n <= 0n) throw domain();
  const x = Number(n);
  if (Number.isFinite(x)) return Math.log(x);
  const bits = n.toString(2).length;
  const shift = bits - 60;
  const top = Number(n >> BigInt(shift));
  return Math.log(top) + shift * Math.LN2;
}

function logOf(v: PyValue | undefined): number {
  if (typeof v === 'bigint' || typeof v === 'boolean') return logInt(toBig(v));
  const x = real(v);
  if (Number.isNaN(x)) return x;
  if (x <= 0) throw domain();
  return Math.log(x);
}

/** CPython math.fsum: exact sum of partials, correctly rounded (half-even across partials). */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  let specialSum = 0;
  let infSum = 0;
  for (let x of values) {
    const xsave = x;
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    if (!Number.isFinite(x)) {
      // A non-finite value, or an intermediate overflow.
      if (!Number.isFinite(xsave)) infSum += xsave;
      specialSum += xsave;
      partials.length = 0;
      i = 0;
    } else {
      partials.length = i;
      partials.push(x);
    }
  }
  if (specialSum !== 0) {
    if (Number.isNaN(infSum)) throw valueError('-inf + inf in fsum');
    if (!Number.isFinite(specialSum) && Number.isFinite(infSum))
      throw overflowError('intermediate overflow in fsum');
    return specialSum;
  }
  let n = partials.length;
  let hi = 0;
  if (n > 0) {
    hi = partials[--n] as number;
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n] as number;
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    if (
      n > 0 &&
      ((lo < 0 && (partials[n - 1] as number) < 0) || (lo > 0 && (partials[n - 1] as number) > 0))
    ) {
      const y = lo * 2;
      const x = hi + y;
      const yr = x - hi;
      if (y === yr) hi = x;
    }
  }
  return hi;
}

export function isqrt(n: bigint): bigint {
  if (n < 0n) throw valueError('isqrt() argument must be nonnegative');
  if (n < 2n) return n;
  let x = BigInt(Math.floor(Math.sqrt(Number(n))));
  if (x === 0n) x = 1n;
  // Newton iterations to the exact floor square root.
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  while (x * x > n) x -= 1n;
  while ((x + 1n) * (x + 1n) <= n) x += 1n;
  return x;
}

function gcd2(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

function intArg(v: PyValue | undefined): bigint {
  return asIndex(v ?? null);
}

function factorial(rt: Runtime, n: bigint): bigint {
  if (n < 0n) throw valueError('factorial() not defined for negative values');
  if (n > 20000n) throw overflowError('factorial() argument should not exceed 20000 in this sandbox');
  let r = 1n;
  for (let i = 2n; i <= n; i++) r *= i;
  rt.step(Number(n) / 8);
  return r;
}

function comb(n: bigint, k: bigint): bigint {
  if (n < 0n) throw valueError('n must be a non-negative integer');
  if (k < 0n) throw valueError('k must be a non-negative integer');
  if (k > n) return 0n;
  if (k > n - k) k = n - k;
  if (k > 20000n) throw overflowError('comb() arguments too large for this sandbox');
  let r = 1n;
  for (let i = 1n; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

function perm(n: bigint, k: bigint): bigint {
  if (n < 0n) throw valueError('n must be a non-negative integer');
  if (k < 0n) throw valueError('k must be a non-negative integer');
  if (k > n) return 0n;
  if (k > 20000n) throw overflowError('perm() arguments too large for this sandbox');
  let r = 1n;
  for (let i = 0n; i < k; i++) r *= n - i;
  return r;
}

function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let m = x * 2 ** -e;
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) >= 1) {
    m /= 2;
    e++;
  }
  return [m, e];
}

function mathPow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
  if (x === 0 && y < 0) throw domain();
  if (x < 0 && Number.isFinite(x) && Number.isFinite(y) && !Number.isInteger(y)) throw domain();
  if (!Number.isFinite(y) && Math.abs(x) === 1) return 1;
  const r = x ** y;
  if (!Number.isFinite(r) && Number.isFinite(x) && Number.isFinite(y)) throw range();
  return r;
}

export function createMathModule(): PyModule {
  const attrs = new Map<string, PyValue>();
  const fn = (name: string, impl: BuiltinImpl) => attrs.set(name, moduleFn('math', name, impl));
  fn(
    'sqrt',
    unary('sqrt', (x) => (x < 0 ? Number.NaN : Math.sqrt(x))),
  );
  fn('exp', unary('exp', Math.exp));
  fn('expm1', unary('expm1', Math.expm1));
  fn(
    'log1p',
    unary('log1p', (x) => (x <= -1 ? Number.NaN : Math.log1p(x))),
  );
  fn('fabs', unary('fabs', Math.abs));
  fn('sin', unary('sin', Math.sin));
  fn('cos', unary('cos', Math.cos));
  fn('tan', unary('tan', Math.tan));
  fn('asin', unary('asin', Math.asin));
  fn('acos', unary('acos', Math.acos));
  fn('atan', unary('atan', Math.atan));
  fn('sinh', unary('sinh', Math.sinh));
  fn('cosh', unary('cosh', Math.cosh));
  fn('tanh', unary('tanh', Math.tanh));
  fn('asinh', unary('asinh', Math.asinh));
  fn('acosh', unary('acosh', Math.acosh));
  fn(
    'atanh',
    unary('atanh', (x) => (Math.abs(x) >= 1 ? Number.NaN : Math.atanh(x))),
  );
  fn(
    'radians',
    unary('radians', (x) => x * (Math.PI / 180)),
  );
  fn(
    'degrees',
    unary('degrees', (x) => x * (180 / Math.PI)),
  );
  fn('atan2', binary('atan2', Math.atan2));
  fn('pow', binary('pow', mathPow));
  fn(
    'copysign',
    binary('copysign', (x, y) => (Object.is(y, -0) || y < 0 ? -Math.abs(x) : Math.abs(x))),
  );
  fn(
    'fmod',
    binary('fmod', (x, y) => {
      if (y === 0 || !Number.isFinite(x)) {
        if (Number.isNaN(x) || Number.isNaN(y)) return Number.NaN;
        throw domain();
      }
      return x % y;
    }),
  );
  fn('floor', rounding('floor', Math.floor));
  fn('ceil', rounding('ceil', Math.ceil));
  fn('trunc', rounding('trunc', Math.trunc));
  attrs.set(
    'isnan',
    moduleFn('math', 'isnan', (_rt, args) => Number.isNaN(real(args[0]))),
  );
  attrs.set(
    'isinf',
    moduleFn('math', 'isinf', (_rt, args) => {
      const x = real(args[0]);
      return !Number.isFinite(x) && !Number.isNaN(x);
    }),
  );
  attrs.set(
    'isfinite',
    moduleFn('math', 'isfinite', (_rt, args) => Number.isFinite(real(args[0]))),
  );
  fn('log', (_rt, args, kw) => {
    noKwargs('log', kw);
    if (args.length < 1 || args.length > 2)
      throw typeError(`log expected 1 or 2 arguments, got ${args.length}`);
    const num = logOf(args[0]);
    if (args.length === 1) return num;
    const den = logOf(args[1]);
    if (den === 0) throw zeroDivision('float division by zero');
    return num / den;
  });
  fn('log10', (_rt, args, kw) => {
    noKwargs('log10', kw);
    const v = args[0];
    if (typeof v === 'bigint' && v > 0n && !Number.isFinite(Number(v))) return logInt(v) / Math.LN10;
    const x = real(v);
    if (x <= 0) throw domain();
    return Math.log10(x);
  });
  fn('log2', (_rt, args, kw) => {
    noKwargs('log2', kw);
    const v = args[0];
    if (typeof v === 'bigint' && v > 0n && !Number.isFinite(Number(v))) return logInt(v) / Math.LN2;
    const x = real(v);
    if (x <= 0) throw domain();
    return Math.log2(x);
  });
  fn('fsum', (rt, args, kw) => {
    noKwargs('fsum', kw);
    if (args.length !== 1) throw typeError(`math.fsum() takes exactly one argument (${args.length} given)`);
    return fsum(toArray(args[0] as PyValue, rt).map((v) => real(v)));
  });
  fn('prod', (rt, args, kw) => {
    const [it, start] = bind('prod', args, kw, ['iterable', 'start'], 1, { positionalOnly: 1 });
    let acc: PyValue = start ?? 1n;
    const src = iterate(it as PyValue, rt);
    for (let r = src.next(); !r.done; r = src.next()) {
      rt.step(1);
      acc = binaryOp('*', acc, r.value, rt);
    }
    return acc;
  });
  fn('factorial', (rt, args, kw) => {
    noKwargs('factorial', kw);
    if (args.length !== 1)
      throw typeError(`math.factorial() takes exactly one argument (${args.length} given)`);
    return factorial(rt, intArg(args[0]));
  });
  fn('gcd', (_rt, args, kw) => {
    noKwargs('gcd', kw);
    return args.reduce<bigint>((g, a) => gcd2(g, intArg(a)), 0n);
  });
  fn('lcm', (_rt, args, kw) => {
    noKwargs('lcm', kw);
    return args.reduce<bigint>((l, a) => {
      const b = intArg(a);
      if (l === 0n || b === 0n) return 0n;
      const r = (l * b) / gcd2(l, b);
      return r < 0n ? -r : r;
    }, 1n);
  });
  fn('isqrt', (_rt, args, kw) => {
    noKwargs('isqrt', kw);
    return isqrt(intArg(args[0]));
  });
  fn('comb', (_rt, args, kw) => {
    noKwargs('comb', kw);
    if (args.length !== 2) throw typeError(`comb expected 2 arguments, got ${args.length}`);
    return comb(intArg(args[0]), intArg(args[1]));
  });
  fn('perm', (_rt, args, kw) => {
    noKwargs('perm', kw);
    if (args.length < 1 || args.length > 2)
      throw typeError(`perm expected at most 2 arguments, got ${args.length}`);
    const n = intArg(args[0]);
    return perm(n, args.length > 1 && args[1] !== null ? intArg(args[1]) : n);
  });
  fn('isclose', (_rt, args, kw: Kwargs | null) => {
    const [a0, b0, rel0, abs0] = bind('isclose', args, kw, ['a', 'b', 'rel_tol', 'abs_tol'], 2);
    const a = real(a0);
    const b = real(b0);
    const rel = rel0 === undefined ? 1e-9 : real(rel0);
    const abs = abs0 === undefined ? 0 : real(abs0);
    if (rel < 0 || abs < 0) throw valueError('tolerances must be non-negative');
    if (a === b) return true;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
    const diff = Math.abs(b - a);
    return diff <= Math.abs(rel * b) || diff <= Math.abs(rel * a) || diff <= abs;
  });
  fn('hypot', (_rt, args, kw) => {
    noKwargs('hypot', kw);
    return Math.hypot(...args.map((a) => real(a)));
  });
  fn('dist', (rt, args, kw) => {
    noKwargs('dist', kw);
    if (args.length !== 2) throw typeError(`dist expected 2 arguments, got ${args.length}`);
    const p = toArray(args[0] as PyValue, rt).map((v) => real(v));
    const q = toArray(args[1] as PyValue, rt).map((v) => real(v));
    if (p.length !== q.length) throw valueError('both points must have the same number of dimensions');
    return Math.hypot(...p.map((x, i) => x - (q[i] as number)));
  });
  fn('modf', (_rt, args, kw) => {
    noKwargs('modf', kw);
    const x = real(args[0]);
    if (!Number.isFinite(x)) return new PyTuple([Number.isNaN(x) ? x : Math.sign(x) * 0, x]);
    const i = Math.trunc(x);
    return new PyTuple([x - i, i]);
  });
  fn('frexp', (_rt, args, kw) => {
    noKwargs('frexp', kw);
    const [m, e] = frexp(real(args[0]));
    return new PyTuple([m, BigInt(e)]);
  });
  fn('ldexp', (_rt, args, kw) => {
    noKwargs('ldexp', kw);
    const x = real(args[0]);
    const e = Number(intArg(args[1]));
    let r = x;
    let k = e;
    while (k > 1000) {
      r *= 2 ** 1000;
      k -= 1000;
    }
    while (k < -1000) {
      r *= 2 ** -1000;
      k += 1000;
    }
    return checked(r * 2 ** k, x);
  });
  attrs.set('pi', Math.PI);
  attrs.set('e', Math.E);
  attrs.set('tau', 2 * Math.PI);
  attrs.set('inf', Number.POSITIVE_INFINITY);
  attrs.set('nan', Number.NaN);
  return new PyModule('math', attrs);
}
