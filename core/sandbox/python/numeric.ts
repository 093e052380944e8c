/**
 * Exact numeric helpers with CPython semantics: correctly rounded int/int true division, floor division and
 * modulo signs, exact int/float comparison, and decimal formatting of doubles from their exact binary value with
 * round-half-even (what `'%.2f'`, `format(x, '.3e')` and `round(x, n)` do in CPython; JS `toFixed` rounds ties
 * away from zero instead).
 */

import { overflowError, valueError, zeroDivision } from './objects.ts';

const TWO53 = 2n ** 53n;

/** float(int) with CPython's OverflowError. */
export function intToFloat(n: bigint): number {
  const x = Number(n);
  if (!Number.isFinite(x)) throw overflowError('int too large to convert to float');
  return x;
}

/** n / d correctly rounded to the nearest double (ties to even), d > 0 or d < 0, d != 0. */
export function ratioToFloat(n: bigint, d: bigint): number {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const neg = n < 0n;
  if (neg) n = -n;
  if (n === 0n) return neg ? -0 : 0;
  if (n < TWO53 && d < TWO53) {
    const r = Number(n) / Number(d);
    return neg ? -r : r;
  }
  // Scale so the quotient has at least 55 significant bits, then round with a sticky bit.
  const shift = d.toString(2).length - n.toString(2).length + 55;
  let q: bigint;
  let rem: bigint;
  if (shift >= 0) {
    const nn = n << BigInt(shift);
    q = nn / d;
    rem = nn % d;
  } else {
    const dd = d << BigInt(-shift);
    q = n / dd;
    rem = n % dd;
  }
  if (rem !== 0n) q |= 1n; // sticky
  // q has 55 or 56 bits; Number(q) rounds to 53 bits with ties-to-even, and the sticky bit breaks false ties.
  // Scaling by a power of two is exact unless the result is subnormal (a last-bit difference accepted there).
  let x = Number(q);
  let k = -shift;
  while (k > 1000) {
    x *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000) {
    x *= 2 ** -1000;
    k += 1000;
  }
  x *= 2 ** k;
  if (!Number.isFinite(x)) throw overflowError('integer division result too large for a float');
  return neg ? -x : x;
}

/** int / int (Python true division). */
export function intTrueDiv(a: bigint, b: bigint): number {
  if (b === 0n) throw zeroDivision('division by zero');
  return ratioToFloat(a, b);
}

export function intFloorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDivision('integer division or modulo by zero');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function intMod(a: bigint, b: bigint, divmod = false): bigint {
  if (b === 0n) throw zeroDivision(divmod ? 'integer division or modulo by zero' : 'integer modulo by zero');
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

/** CPython float_divmod / float_floor_div / float_rem. */
export function floatDivmod(vx: number, wx: number, what: 'divmod' | 'floordiv' | 'mod'): [number, number] {
  if (wx === 0) {
    throw zeroDivision(
      what === 'divmod'
        ? 'float divmod()'
        : what === 'floordiv'
          ? 'float floor division by zero'
          : 'float modulo',
    );
  }
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = wx < 0 ? -0 : 0;
  }
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0 : 0;
  }
  return [floordiv, mod];
}

/** Exact comparison of an int and a float: negative, zero or positive like (a - b); NaN → NaN. */
export function compareIntFloat(a: bigint, b: number): number {
  if (Number.isNaN(b)) return Number.NaN;
  if (b === Number.POSITIVE_INFINITY) return -1;
  if (b === Number.NEGATIVE_INFINITY) return 1;
  const fl = Math.floor(b);
  const bi = BigInt(fl);
  if (a < bi) return -1;
  if (a > bi) return 1;
  return fl === b ? 0 : -1;
}

/** float(x) of a Python number (int/bool/float), with OverflowError for huge ints. */
export function toFloat(v: bigint | boolean | number): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return intToFloat(v);
}

// ------------------------------------------------------------------------------------------------ exact decimals

/** |x| = digits × 10**exp exactly (digits without leading zeros; "0" for zero). x must be finite. */
export function exactDecimal(x: number): { digits: string; exp: number } {
  x = Math.abs(x);
  if (x === 0) return { digits: '0', exp: 0 };
  let e = 0;
  let m = x;
  // Normalise to an integer mantissa m * 2**e.
  if (Number.isInteger(m)) {
    return { digits: BigInt(m).toString(), exp: 0 };
  }
  while (!Number.isInteger(m)) {
    m *= 2;
    e--;
  }
  // m * 2**e = m * 5**-e / 10**-e
  const digits = (BigInt(m) * 5n ** BigInt(-e)).toString();
  return { digits, exp: e };
}

/**
 * Rounds digits×10**exp (non-negative) half-to-even so that it has `frac` digits after the decimal point
 * (frac may be negative). Returns the integer N with value ≈ N × 10**-frac.
 */
export function roundToFrac(digits: string, exp: number, frac: number): bigint {
  // value = digits × 10**exp; we want round(value × 10**frac).
  const shift = exp + frac;
  if (shift >= 0) return BigInt(digits) * 10n ** BigInt(shift);
  const cut = -shift;
  if (cut > digits.length) {
    // Everything is below the rounding position; value < 0.5 × 10**-frac unless digits reach it.
    return 0n;
  }
  const keep = digits.slice(0, digits.length - cut);
  const rest = digits.slice(digits.length - cut);
  let n = keep === '' ? 0n : BigInt(keep);
  const first = rest.charCodeAt(0) - 48;
  if (first > 5 || (first === 5 && /[1-9]/.test(rest.slice(1)))) n += 1n;
  else if (first === 5 && n % 2n === 1n) n += 1n;
  return n;
}

/** `'%.{prec}f' % x` for finite x (no sign handling of specials). */
export function formatFixed(x: number, prec: number): string {
  const neg = x < 0 || Object.is(x, -0);
  const { digits, exp } = exactDecimal(x);
  const n = roundToFrac(digits, exp, prec).toString();
  let s: string;
  if (prec > 0) {
    const padded = n.padStart(prec + 1, '0');
    s = `${padded.slice(0, padded.length - prec)}.${padded.slice(padded.length - prec)}`;
  } else s = n;
  return neg ? `-${s}` : s;
}

/** Significant-digit rounding: returns [digitString of length sig, decimal exponent of first digit]. */
export function roundSignificant(x: number, sig: number): { digits: string; point: number } {
  const { digits, exp } = exactDecimal(x);
  if (digits === '0') return { digits: '0'.repeat(sig), point: 0 };
  // value = 0.d1d2... × 10**(digits.length + exp); first digit's exponent:
  let point = digits.length + exp - 1;
  const frac = sig - 1 - point;
  let n = roundToFrac(digits, exp, frac).toString();
  if (n.length > sig) {
    // Rounding carried into a new digit (9.99 → 10.0).
    point += 1;
    n = n.slice(0, sig);
  }
  return { digits: n.padEnd(sig, '0'), point };
}

/** `'%.{prec}e' % x` for finite x. */
export function formatExp(x: number, prec: number, upper = false): string {
  const neg = x < 0 || Object.is(x, -0);
  const { digits, point } = roundSignificant(x, prec + 1);
  const mant = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : (digits[0] as string);
  const e = Math.abs(point).toString().padStart(2, '0');
  const s = `${mant}${upper ? 'E' : 'e'}${point < 0 ? '-' : '+'}${e}`;
  return neg ? `-${s}` : s;
}

/**
 * `'%.{prec}g'` (and the no-type float format when `noTypeRules`): fixed notation when -4 <= exponent < prec,
 * trailing zeros removed unless `alt`.
 */
export function formatGeneral(
  x: number,
  prec: number,
  alt: boolean,
  upper: boolean,
  noTypeRules = false,
): string {
  if (prec === 0) prec = 1;
  const neg = x < 0 || Object.is(x, -0);
  if (x === 0) {
    const body = alt ? `0.${'0'.repeat(prec - 1)}` : noTypeRules ? '0.0' : '0';
    return neg ? `-${body}` : body;
  }
  const { digits, point } = roundSignificant(x, prec);
  let out: string;
  if (point >= -4 && point < prec) {
    // fixed
    let s: string;
    if (point >= 0) {
      const intPart = digits.slice(0, point + 1).padEnd(point + 1, '0');
      const fracPart = digits.slice(point + 1);
      s = fracPart ? `${intPart}.${fracPart}` : intPart;
    } else {
      s = `0.${'0'.repeat(-point - 1)}${digits}`;
    }
    if (!alt && s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '');
    if (alt && !s.includes('.')) s += '.';
    if (noTypeRules && !s.includes('.')) s += '.0';
    out = s;
  } else {
    let mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : (digits[0] as string);
    if (!alt && mant.includes('.')) mant = mant.replace(/0+$/, '').replace(/\.$/, '');
    if (alt && !mant.includes('.')) mant += '.';
    const e = Math.abs(point).toString().padStart(2, '0');
    out = `${mant}${upper ? 'E' : 'e'}${point < 0 ? '-' : '+'}${e}`;
  }
  return neg ? `-${out}` : out;
}

/** Python `round(x, ndigits)` for a float: correctly rounded half-even on the exact binary value. */
export function roundFloat(x: number, ndigits: bigint): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (ndigits > 323n) return x;
  if (ndigits < -308n) return x < 0 ? -0 : 0;
  const nd = Number(ndigits);
  const { digits, exp } = exactDecimal(x);
  const n = roundToFrac(digits, exp, nd);
  const s = nd >= 0 ? `${n}e-${nd}` : `${n}e${-nd}`;
  const r = Number(s);
  if (!Number.isFinite(r)) throw overflowError('rounded value too large to represent');
  return x < 0 ? -r : r;
}

/** Python `round(x)` for a float: nearest integer, ties to even. */
export function roundHalfEven(x: number): bigint {
  if (Number.isNaN(x)) throw valueError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw overflowError('cannot convert float infinity to integer');
  const f = Math.floor(x);
  const diff = x - f;
  let r = f;
  if (diff > 0.5) r = f + 1;
  else if (diff === 0.5) r = f % 2 === 0 ? f : f + 1;
  return BigInt(r);
}

/** int(x) for a float (truncation). */
export function floatToInt(x: number): bigint {
  if (Number.isNaN(x)) throw valueError('cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw overflowError('cannot convert float infinity to integer');
  return BigInt(Math.trunc(x));
}

/** Rounds half-even on the integer n to a multiple of 10**k (k > 0): round(1250, -2) == 1200. */
export function roundIntTo(n: bigint, k: bigint): bigint {
  if (k <= 0n) return n;
  const p = 10n ** k;
  const neg = n < 0n;
  const a = neg ? -n : n;
  let q = a / p;
  const r = a % p;
  const twice = r * 2n;
  if (twice > p || (twice === p && q % 2n === 1n)) q += 1n;
  const res = q * p;
  return neg ? -res : res;
}

/** Python float() parsing of a string (whitespace, underscores between digits, inf/nan spellings). */
export function parsePyFloat(s: string): number | null {
  const t = stripPyWhitespace(s);
  const m = /^([+-]?)(inf|infinity|nan)$/i.exec(t);
  if (m) {
    const lower = (m[2] as string).toLowerCase();
    if (lower === 'nan') return Number.NaN;
    return m[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/.test(t))
    return null;
  return Number(t.replace(/_/g, ''));
}

/** Characters str.split()/strip() treat as whitespace (str.isspace). */
export const PY_WHITESPACE =
  ' \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
const WS_SET = new Set(PY_WHITESPACE);

export function isPyWhitespace(ch: string): boolean {
  return WS_SET.has(ch);
}

export function stripPyWhitespace(s: string, left = true, right = true): string {
  let a = 0;
  let b = s.length;
  if (left) while (a < b && WS_SET.has(s[a] as string)) a++;
  if (right) while (b > a && WS_SET.has(s[b - 1] as string)) b--;
  return s.slice(a, b);
}
