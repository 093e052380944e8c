/** Reading the generated tables directly, for computing gold answers (never used by solvers). */
import type { Table } from '../table.ts';

/** Every rendered cell of a column, in row order. */
export function cells(table: Table, column: string): string[] {
  const col = table.column(column);
  const out = new Array<string>(table.rowCount);
  for (let i = 0; i < table.rowCount; i++) out[i] = col.values[col.codes[i] as number] as string;
  return out;
}

/** A column parsed as floats (`nan` → NaN). */
export function floats(table: Table, column: string): number[] {
  return cells(table, column).map((c) => Number.parseFloat(c));
}

/** Row indices whose cells satisfy the predicate on the given columns. */
export function rowsWhere(
  table: Table,
  columns: readonly string[],
  pred: (values: string[]) => boolean,
): number[] {
  const cols = columns.map((c) => table.column(c));
  const out: number[] = [];
  const values = new Array<string>(cols.length);
  for (let i = 0; i < table.rowCount; i++) {
    for (let j = 0; j < cols.length; j++) {
      const col = cols[j] as (typeof cols)[number];
      values[j] = col.values[col.codes[i] as number] as string;
    }
    if (pred(values)) out.push(i);
  }
  return out;
}

/** Python-style mean (NaN on an empty list is the caller's business: check length first). */
export function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
