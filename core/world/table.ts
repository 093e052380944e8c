/**
 * A world table as the kernel tools see it: rows in file order, every cell already in its Python string form
 * (pandas `astype(str)`, spec §2.0). Cells are dictionary-encoded per column (distinct strings + one Uint32 code
 * per row), which keeps 50,000-row tables small enough for a Worker isolate and makes equality filters cheap.
 *
 * `sqlType` says how the SQL mirror (SQLInterpreter) stores the column; `nan`/`None` cells become NULL there.
 */

export type SqlType = 'INTEGER' | 'REAL' | 'TEXT';

export interface ColumnSpec {
  /** Column name exactly as LoadDB reports it (may contain spaces). */
  name: string;
  sqlType: SqlType;
  /** Short human description, shown in `GET /v1/datasets`. */
  description: string;
}

export interface EncodedColumn {
  /** Distinct rendered values, in first-seen order. */
  readonly values: readonly string[];
  /** Per-row index into `values`. */
  readonly codes: Uint32Array;
}

export class Table {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  readonly rowCount: number;
  private readonly encoded: readonly EncodedColumn[];
  private readonly index: ReadonlyMap<string, number>;

  constructor(
    name: string,
    columns: readonly ColumnSpec[],
    encoded: readonly EncodedColumn[],
    rowCount: number,
  ) {
    if (columns.length !== encoded.length)
      throw new Error(`table ${name}: ${columns.length} specs, ${encoded.length} columns`);
    this.name = name;
    this.columns = columns;
    this.encoded = encoded;
    this.rowCount = rowCount;
    this.index = new Map(columns.map((c, i) => [c.name, i]));
  }

  columnNames(): string[] {
    return this.columns.map((c) => c.name);
  }

  hasColumn(name: string): boolean {
    return this.index.has(name);
  }

  columnIndex(name: string): number {
    const i = this.index.get(name);
    if (i === undefined) throw new Error(`table ${this.name} has no column ${JSON.stringify(name)}`);
    return i;
  }

  column(name: string): EncodedColumn {
    return this.encoded[this.columnIndex(name)] as EncodedColumn;
  }

  columnAt(i: number): EncodedColumn {
    return this.encoded[i] as EncodedColumn;
  }

  /** The rendered cell at (row, column name). */
  cell(row: number, name: string): string {
    const col = this.column(name);
    return col.values[col.codes[row] as number] as string;
  }

  /** One row as rendered strings, in column order. */
  row(row: number): string[] {
    return this.encoded.map((col) => col.values[col.codes[row] as number] as string);
  }
}

/** Appends rows of rendered strings and dictionary-encodes them. */
export class TableBuilder {
  private readonly dicts: Map<string, number>[];
  private readonly values: string[][];
  private codes: Uint32Array[];
  private count = 0;

  constructor(
    readonly name: string,
    readonly columns: readonly ColumnSpec[],
    capacity = 1024,
  ) {
    this.dicts = columns.map(() => new Map());
    this.values = columns.map(() => []);
    this.codes = columns.map(() => new Uint32Array(Math.max(16, capacity)));
  }

  get rowCount(): number {
    return this.count;
  }

  add(row: readonly string[]): void {
    if (row.length !== this.columns.length) {
      throw new Error(`table ${this.name}: row has ${row.length} cells, expected ${this.columns.length}`);
    }
    if (this.count === (this.codes[0] as Uint32Array).length) {
      this.codes = this.codes.map((c) => {
        const grown = new Uint32Array(c.length * 2);
        grown.set(c);
        return grown;
      });
    }
    for (let i = 0; i < row.length; i++) {
      const v = row[i] as string;
      const dict = this.dicts[i] as Map<string, number>;
      let code = dict.get(v);
      if (code === undefined) {
        code = (this.values[i] as string[]).length;
        dict.set(v, code);
        (this.values[i] as string[]).push(v);
      }
      (this.codes[i] as Uint32Array)[this.count] = code;
    }
    this.count++;
  }

  build(): Table {
    const encoded = this.columns.map((_, i) => ({
      values: this.values[i] as string[],
      codes: (this.codes[i] as Uint32Array).slice(0, this.count),
    }));
    return new Table(this.name, this.columns, encoded, this.count);
  }
}
