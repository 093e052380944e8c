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

/** Cached columns and row groupings of one table, shared by the templates that compute gold from it. */
export class TableIndex<C extends string = string> {
  private readonly columns = new Map<C, string[]>();
  private readonly groups = new Map<string, Map<string, number[]>>();

  constructor(readonly table: Table) {}

  get rowCount(): number {
    return this.table.rowCount;
  }

  col(name: C): string[] {
    let c = this.columns.get(name);
    if (!c) {
      c = cells(this.table, name);
      this.columns.set(name, c);
    }
    return c;
  }

  cell(name: C, row: number): string {
    return this.col(name)[row] as string;
  }

  num(name: C, row: number): number {
    return Number.parseFloat(this.cell(name, row));
  }

  /** Rows by the values of `by` (key = the values joined with NUL), each list in row order. */
  groupBy(by: readonly C[]): Map<string, number[]> {
    const name = by.join('\u0000');
    let g = this.groups.get(name);
    if (!g) {
      g = new Map();
      const cols = by.map((c) => this.col(c));
      for (let i = 0; i < this.rowCount; i++) {
        const key = cols.map((c) => c[i]).join('\u0000');
        const rows = g.get(key);
        if (rows) rows.push(i);
        else g.set(key, [i]);
      }
      this.groups.set(name, g);
    }
    return g;
  }

  /** Rows with the given values of `by`, in row order. */
  rows(by: readonly C[], values: readonly string[]): number[] {
    return this.groupBy(by).get(values.join('\u0000')) ?? [];
  }
}
