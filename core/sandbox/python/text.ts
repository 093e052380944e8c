/**
 * Python strings are sequences of code points; JS strings are UTF-16. These helpers give `len`, indexing and
 * slicing code-point semantics, with a fast path for strings without surrogate pairs (almost all of them).
 */

const SURROGATE = /[\uD800-\uDFFF]/;

export function hasAstral(s: string): boolean {
  return SURROGATE.test(s);
}

export function cpLength(s: string): number {
  if (!hasAstral(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function cpArray(s: string): string[] {
  return Array.from(s);
}

/** Code-point comparison (JS `<` compares UTF-16 units, which orders astral characters wrongly). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  if (!hasAstral(a) && !hasAstral(b)) return a < b ? -1 : 1;
  const x = Array.from(a);
  const y = Array.from(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = (x[i] as string).codePointAt(0) as number;
    const d = (y[i] as string).codePointAt(0) as number;
    if (c !== d) return c < d ? -1 : 1;
  }
  return x.length - y.length;
}

/** Resolves slice bounds like PySlice_AdjustIndices. */
export function adjustSlice(
  length: number,
  start: number | null,
  stop: number | null,
  step: number,
): { start: number; stop: number; step: number; count: number } {
  let lo: number;
  let hi: number;
  if (step > 0) {
    lo = start === null ? 0 : start < 0 ? Math.max(0, start + length) : Math.min(start, length);
    hi = stop === null ? length : stop < 0 ? Math.max(0, stop + length) : Math.min(stop, length);
    const count = hi > lo ? Math.floor((hi - lo - 1) / step) + 1 : 0;
    return { start: lo, stop: hi, step, count };
  }
  lo = start === null ? length - 1 : start < 0 ? Math.max(-1, start + length) : Math.min(start, length - 1);
  hi = stop === null ? -1 : stop < 0 ? Math.max(-1, stop + length) : Math.min(stop, length - 1);
  const count = lo > hi ? Math.floor((lo - hi - 1) / -step) + 1 : 0;
  return { start: lo, stop: hi, step, count };
}

export function sliceArray<T>(
  items: readonly T[],
  start: number | null,
  stop: number | null,
  step: number,
): T[] {
  const s = adjustSlice(items.length, start, stop, step);
  if (step === 1) return items.slice(s.start, Math.max(s.start, s.stop));
  const out: T[] = [];
  for (let i = 0, k = s.start; i < s.count; i++, k += step) out.push(items[k] as T);
  return out;
}

export function sliceString(str: string, start: number | null, stop: number | null, step: number): string {
  if (!hasAstral(str)) {
    const s = adjustSlice(str.length, start, stop, step);
    if (step === 1) return str.slice(s.start, Math.max(s.start, s.stop));
    let out = '';
    for (let i = 0, k = s.start; i < s.count; i++, k += step) out += str[k];
    return out;
  }
  return sliceArray(Array.from(str), start, stop, step).join('');
}
