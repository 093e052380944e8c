/**
 * Small pieces of CPython 3.11 string semantics that the kernel tools, the ReAct parser and the answer matcher
 * depend on: what counts as whitespace (`str.isspace`, `\s`), `str.strip()`, `str.split()`, `float(str)`,
 * code-point string ordering, and `type(x).__name__` for the values a JSON-decoded argument can hold.
 */
import { PyDict, PyFloat, PyInt, PyTuple } from '../../util/python-format.ts';

/** Code points for which Python's `str.isspace()` (and the Unicode `\s` of `re`) is true. */
export function isPyWhitespace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  if (cp < 0x85) return false;
  return (
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** A regex character class source equivalent to Python's `\s` (JS `\s` differs: it has U+FEFF, lacks U+001C–1F, U+0085). */
export const PY_WS_CLASS =
  '[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';

/** Python `s.strip()` (no argument). All Python whitespace is in the BMP, so code units suffice. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPyWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Python `s.split()` (no argument): runs of whitespace separate, empty strings never produced. */
export function pySplit(s: string, limit = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  let i = 0;
  const n = s.length;
  while (i < n && out.length < limit) {
    while (i < n && isPyWhitespace(s.charCodeAt(i))) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isPyWhitespace(s.charCodeAt(i))) i++;
    out.push(s.slice(start, i));
  }
  return out;
}

const ND = /\p{Nd}/u;

/** Decimal value of a Unicode `Nd` digit: Unicode assigns them in contiguous runs 0..9. */
function unicodeDigitValue(cp: number): number {
  let start = cp;
  while (start > 0 && ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

/**
 * Python `float(s)` for a str: surrounding whitespace, a sign, `inf`/`infinity`/`nan` in any case, decimal
 * digits (any Unicode `Nd` digit) with single `_` between digits, optional fraction and exponent.
 * Returns null where Python raises ValueError (empty, hex, `%`, stray `_`, …).
 */
export function parsePythonFloat(s: string): number | null {
  const t = pyStrip(s);
  if (t.length === 0) return null;
  let ascii = '';
  for (const ch of t) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) ascii += ch;
    else if (ND.test(ch)) ascii += String(unicodeDigitValue(cp));
    else return null;
  }
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(ascii);
  if (special) {
    if ((special[2] as string).toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  const digits = '[0-9](?:_?[0-9])*';
  const re = new RegExp(`^[+-]?(?:${digits}(?:\\.(?:${digits})?)?|\\.${digits})(?:[eE][+-]?${digits})?$`);
  if (!re.test(ascii)) return null;
  return Number(ascii.replaceAll('_', ''));
}

/** Python's `<`/`>` on str: code-point order (JS compares UTF-16 code units, which differs above U+FFFF). */
export function pyStrCompare(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    // A surrogate stands for a code point ≥ U+10000, above every other BMP unit.
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** `type(x).__name__` for a JSON-decoded (or plain JS) argument value. */
export function pyTypeName(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof PyInt) return 'int';
  if (v instanceof PyFloat) return 'float';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PyDict) return 'dict';
  if (Array.isArray(v)) return 'list';
  return 'dict';
}

/** Whether Python could use the value as a dict key (lists and dicts raise TypeError: unhashable type). */
export function isPyHashable(v: unknown): boolean {
  const t = pyTypeName(v);
  return t !== 'list' && t !== 'dict';
}
