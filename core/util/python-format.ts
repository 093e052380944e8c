/**
 * Python (CPython 3.11) rendering rules that observations must imitate (spec §2.9): float repr, string repr,
 * container repr and `json.dumps` with its default settings.
 */

/** A Python value as tooldrift models it when rendering. */
export type PyRenderable =
  | null
  | boolean
  | string
  | PyFloat
  | PyInt
  | readonly PyRenderable[]
  | PyTuple
  | PyDict;

/** Marks a JS number as a Python float (so 3 renders as `3.0`). */
export class PyFloat {
  constructor(readonly value: number) {}
}
/** Marks a JS number or bigint as a Python int. */
export class PyInt {
  constructor(readonly value: number | bigint) {}
}
export class PyTuple {
  constructor(readonly items: readonly PyRenderable[]) {}
}
/** An insertion-ordered dict with string keys (all dicts tooldrift renders have string keys). */
export class PyDict {
  constructor(readonly entries: readonly (readonly [string, PyRenderable])[]) {}
}

/**
 * A decoded Python value as plain JSON data, for records that cross a structured-clone or RPC boundary (which
 * refuse class instances): ints and floats become numbers (non-finite floats and ints beyond 2^53 their Python
 * repr), tuples arrays, dicts objects. Other values are returned as they are.
 */
export function plainJson(v: unknown): unknown {
  if (v instanceof PyInt) {
    return typeof v.value === 'bigint'
      ? Number.isSafeInteger(Number(v.value))
        ? Number(v.value)
        : v.value.toString()
      : v.value;
  }
  if (v instanceof PyFloat) return Number.isFinite(v.value) ? v.value : pyFloatRepr(v.value);
  if (v instanceof PyTuple) return v.items.map(plainJson);
  if (Array.isArray(v)) return v.map(plainJson);
  if (v instanceof PyDict) return Object.fromEntries(v.entries.map(([k, x]) => [k, plainJson(x)]));
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJson(x)]));
  }
  return v;
}

/** Python `repr(float)`: shortest round-trip digits, always a `.` or exponent, exponent when e < -4 or e >= 16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  // toExponential() without argument gives the shortest round-trip digits, like Python's repr.
  const exp = x.toExponential(); // e.g. "-1.2345e+3"
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(exp);
  if (!m) throw new Error(`unexpected exponential form ${exp}`);
  const sign = m[1] as string;
  const digits = (m[2] as string) + (m[3] ?? '');
  const e = Number(m[4]);
  if (e < -4 || e >= 16) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const es = e < 0 ? `-${String(-e).padStart(2, '0')}` : `+${String(e).padStart(2, '0')}`;
    return `${sign}${mantissa}e${es}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${'0'.repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

function isPrintable(cp: number): boolean {
  // Approximation of str.isprintable(): control characters, separators other than space, and unassigned /
  // surrogate / private-use code points are not printable.
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return false;
  if (cp === 0xad) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  if (cp === 0x2028 || cp === 0x2029 || (cp >= 0x200b && cp <= 0x200f) || cp === 0xfeff) return false;
  if (cp >= 0xe000 && cp <= 0xf8ff) return false;
  return true;
}

/** Python `repr(str)`. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === quote) out += `\\${ch}`;
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (!isPrintable(cp)) {
      if (cp <= 0xff) out += `\\x${cp.toString(16).padStart(2, '0')}`;
      else if (cp <= 0xffff) out += `\\u${cp.toString(16).padStart(4, '0')}`;
      else out += `\\U${cp.toString(16).padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a value. */
export function pyRepr(v: PyRenderable): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return pyStrRepr(v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  if (v instanceof PyInt)
    return typeof v.value === 'bigint' ? v.value.toString() : String(Math.trunc(v.value));
  if (v instanceof PyTuple) {
    if (v.items.length === 1) return `(${pyRepr(v.items[0] as PyRenderable)},)`;
    return `(${v.items.map(pyRepr).join(', ')})`;
  }
  if (v instanceof PyDict)
    return `{${v.entries.map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  return `[${(v as readonly PyRenderable[]).map(pyRepr).join(', ')}]`;
}

/** Python `str()` of a value (differs from repr only for top-level strings). */
export function pyStr(v: PyRenderable): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/** A JSON string literal as Python's `json.dumps` writes it (ensure_ascii=True). */
export function pyJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i); // UTF-16 code units: astral characters come out as surrogate pairs, as in Python
    const ch = s[i] as string;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** JSON values as `json.dumps` sees them: numbers are floats unless wrapped in PyInt. */
export type PyJson =
  | null
  | boolean
  | string
  | number
  | PyInt
  | PyFloat
  | readonly PyJson[]
  | { [k: string]: PyJson };

/** Python `json.dumps(value)` with default settings: `, ` and `: ` separators, ASCII-only output. */
export function pyJsonDumps(v: PyJson): string {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'string') return pyJsonString(v);
  if (typeof v === 'number') return jsonFloat(v);
  if (v instanceof PyFloat) return jsonFloat(v.value);
  if (v instanceof PyInt)
    return typeof v.value === 'bigint' ? v.value.toString() : String(Math.trunc(v.value));
  if (Array.isArray(v)) return `[${v.map(pyJsonDumps).join(', ')}]`;
  const obj = v as { [k: string]: PyJson };
  return `{${Object.keys(obj)
    .map((k) => `${pyJsonString(k)}: ${pyJsonDumps(obj[k] as PyJson)}`)
    .join(', ')}}`;
}

function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  return pyFloatRepr(x);
}

/**
 * Python `format(x, '.{digits}f')`: rounds the exact binary value of `x` to `digits` decimals, ties to even
 * (JS `toFixed` breaks exact ties away from zero instead: `(0.25).toFixed(1)` is `0.3`, Python gives `0.2`).
 */
export function pyFormatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const negative = x < 0 || Object.is(x, -0);
  const abs = Math.abs(x);
  if (abs >= 1e21)
    return (negative ? '-' : '') + BigInt(abs).toString() + (digits > 0 ? `.${'0'.repeat(digits)}` : '');
  // toFixed(100) is the exact decimal expansion for every double of magnitude ≥ 2^-47; smaller ones cannot tie.
  const [intPart, frac] = abs.toFixed(100).split('.') as [string, string];
  const kept = intPart + frac.slice(0, digits);
  const rest = frac.slice(digits);
  const lastDigit = Number(kept[kept.length - 1]);
  const roundUp =
    rest[0] !== undefined &&
    (rest[0] > '5' || (rest[0] === '5' && (/[1-9]/.test(rest.slice(1)) || lastDigit % 2 === 1)));
  let digitsOut = kept;
  if (roundUp) digitsOut = (BigInt(kept) + 1n).toString().padStart(kept.length, '0');
  const whole = digitsOut.slice(0, digitsOut.length - digits) || '0';
  const body = digits > 0 ? `${whole}.${digitsOut.slice(digitsOut.length - digits)}` : whole;
  return (negative ? '-' : '') + body;
}

/** Python `round(x, digits)` for floats (the float nearest to the correctly rounded decimal, ties to even). */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  return Number.parseFloat(pyFormatFixed(x, digits));
}
