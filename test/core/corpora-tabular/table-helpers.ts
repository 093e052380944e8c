import type { Table } from '../../../core/world/table.ts';

/** A 64-bit-ish fingerprint of every cell in row order (two independent FNV-1a streams). */
export function tableHash(t: Table): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  const cols = t.columns.length;
  for (let r = 0; r < t.rowCount; r++) {
    for (let c = 0; c < cols; c++) {
      const col = t.columnAt(c);
      const s = col.values[col.codes[r] as number] as string;
      for (let i = 0; i < s.length; i++) {
        const k = s.charCodeAt(i);
        h1 = Math.imul(h1 ^ k, 16777619);
        h2 = Math.imul(h2 ^ k, 2246822519);
      }
      h1 = Math.imul(h1 ^ 0x1f, 16777619);
      h2 = Math.imul(h2 ^ 0x1f, 2246822519);
    }
  }
  return `${(h1 >>> 0).toString(16)}${(h2 >>> 0).toString(16)}:${t.rowCount}`;
}

/** All cells of a column, in row order. */
export function columnValues(t: Table, name: string): string[] {
  const col = t.column(name);
  return Array.from(col.codes, (c) => col.values[c] as string);
}

export function countBy<T>(items: Iterable<T>): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * Parses a Python dict literal whose keys are strings and whose values are strings, True, False or None
 * (the shape of yelp `attributes` and `hours`), so tests can re-render it and compare.
 */
export function parsePyDict(text: string): [string, string | boolean | null][] {
  let i = 0;
  const expect = (s: string): void => {
    if (!text.startsWith(s, i)) throw new Error(`expected ${JSON.stringify(s)} at ${i} in ${text}`);
    i += s.length;
  };
  const str = (): string => {
    const q = text[i];
    if (q !== "'" && q !== '"') throw new Error(`expected a string at ${i} in ${text}`);
    i++;
    let out = '';
    while (text[i] !== q) {
      if (i >= text.length) throw new Error(`unterminated string in ${text}`);
      if (text[i] === '\\') {
        const e = text[i + 1];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : (e as string);
        i += 2;
      } else out += text[i++];
    }
    i++;
    return out;
  };
  const entries: [string, string | boolean | null][] = [];
  expect('{');
  while (text[i] !== '}') {
    if (entries.length > 0) expect(', ');
    const k = str();
    expect(': ');
    let v: string | boolean | null;
    if (text.startsWith('True', i)) {
      v = true;
      i += 4;
    } else if (text.startsWith('False', i)) {
      v = false;
      i += 5;
    } else if (text.startsWith('None', i)) {
      v = null;
      i += 4;
    } else v = str();
    entries.push([k, v]);
  }
  expect('}');
  if (i !== text.length) throw new Error(`trailing text after dict: ${text.slice(i)}`);
  return entries;
}
