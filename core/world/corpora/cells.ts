/**
 * Cell renderers shared by the tabular corpus generators: every cell is stored as the string pandas
 * `astype(str)` would print (spec §2.0), so the generators render once, here, and the kernel never re-formats.
 */
import { pyFloatRepr } from '../../util/python-format.ts';

/** Missing numeric value (and missing text in CSV sources). */
export const NAN = 'nan';

/** Python str() of a float; `NaN` → `nan`. */
export function floatCell(x: number): string {
  return Number.isNaN(x) ? NAN : pyFloatRepr(x);
}

// Integer-valued floats are by far the most common cells (flight minutes, miles, airbnb counts); their repr
// is just the digits plus `.0`, so a cache of the usual range saves formatting 50,000 × 10 numbers.
const INT_FLOAT_MIN = -2000;
const INT_FLOAT_MAX = 6000;
let intFloatCache: string[] | undefined;

/** Python str() of a float known to hold an integer value (`2031` → `2031.0`); `NaN` → `nan`. */
export function intFloatCell(n: number): string {
  if (Number.isNaN(n)) return NAN;
  if (n >= INT_FLOAT_MIN && n <= INT_FLOAT_MAX && Number.isInteger(n)) {
    if (intFloatCache === undefined) {
      intFloatCache = [];
      for (let i = INT_FLOAT_MIN; i <= INT_FLOAT_MAX; i++) intFloatCache.push(`${i}.0`);
    }
    return intFloatCache[n - INT_FLOAT_MIN] as string;
  }
  return pyFloatRepr(n);
}

/**
 * Python str() of `value` rounded to `decimals` places (≤ 10), formatted from the scaled integer. Equal to
 * `pyFloatRepr(Math.round(value * 10 ** decimals) / 10 ** decimals)` for magnitudes from 1e-4 up to 1e5,
 * where two decimals of that many places never share a double, so the shortest round-trip string is the
 * decimal itself without trailing zeros. Cheaper than the general repr for coordinates and rates.
 */
export function fixedDecimalCell(value: number, decimals: number): string {
  if (Number.isNaN(value)) return NAN;
  const factor = 10 ** decimals;
  const scaled = Math.round(value * factor);
  const abs = Math.abs(scaled);
  if (abs === 0 || abs / factor < 1e-4 || abs / factor >= 1e5) return pyFloatRepr(scaled / factor);
  const whole = Math.floor(abs / factor);
  let frac = String(abs - whole * factor).padStart(decimals, '0');
  let end = frac.length;
  while (end > 1 && frac.charCodeAt(end - 1) === 48) end--;
  frac = frac.slice(0, end);
  return `${scaled < 0 ? '-' : ''}${whole}.${frac}`;
}

/** Python str() of a bool. */
export function boolCell(b: boolean): 'True' | 'False' {
  return b ? 'True' : 'False';
}

/** Integer with thousands separators (`1083` → `1,083`). */
export function withThousands(n: number): string {
  const s = String(Math.trunc(Math.abs(n)));
  let out = '';
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ',';
    out += s[i];
  }
  return n < 0 ? `-${out}` : out;
}

/** Zero-padded two digits. */
export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** `YYYY-MM-DD` of a UTC day number (days since 1970-01-01). */
export function isoDateOfDay(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** UTC day number (days since 1970-01-01) of a calendar date; `month` is 1-based. */
export function dayNumber(year: number, month: number, day: number): number {
  return Math.round(Date.UTC(year, month - 1, day) / 86_400_000);
}

/** ISO weekday of a UTC day number: 1 = Monday … 7 = Sunday (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}
