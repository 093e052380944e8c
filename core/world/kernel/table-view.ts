/**
 * The table side of the kernel: the tables as LoadDB presents them, FilterDB's sub-condition grammar and
 * comparison semantics (spec §3.3), and the memoised views (row subsets) that a list of applied sub-conditions
 * denotes.
 *
 * A view is a pure function of (table, applied sub-conditions): a sub-condition that was applied compared either
 * numerically (numeric column and a value Python's float() accepts) or as strings, and which of the two it was
 * follows from its text alone — the combinations whose outcome would depend on earlier conversions never apply
 * (they fail or match nothing). So the state only keeps the sub-condition texts, and views are recomputed through
 * a bounded LRU cache that also serves every prefix.
 */
import { type EncodedColumn, Table } from '../table.ts';
import type { DatabaseName, World } from '../types.ts';
import { convertAgendaTime } from './agenda-time.ts';
import { parsePythonFloat, pyStrCompare, pyStrip } from './python-text.ts';
import { compilePySearch, type PySearchRegex } from './safe-regex.ts';

/** Columns FilterDB compares numerically when the value parses as a float. */
export const NUMERIC_FILTER_COLUMNS: ReadonlySet<string> = new Set([
  'Distance',
  'latitude',
  'longitude',
  'lat',
  'long',
]);
/** Agenda columns whose 12-hour values are converted to `HH:MM:SS` (cells at load, values when filtering). */
export const AGENDA_TIME_COLUMNS: ReadonlySet<string> = new Set(['start_time', 'end_time']);
/** The column whose `=` is a regular-expression containment test. */
export const CONTAINS_COLUMN = 'categories';

const loadedTables = new WeakMap<Table, Table>();

/** The table as LoadDB leaves it: for agenda, start/end times converted to `HH:MM:SS` (idempotent). */
export function loadedTable(world: World, db: DatabaseName): Table {
  const raw = world.tables[db];
  if (db !== 'agenda') return raw;
  let t = loadedTables.get(raw);
  if (!t) {
    const encoded = raw.columns.map((spec, i) => {
      const col = raw.columnAt(i);
      if (!AGENDA_TIME_COLUMNS.has(spec.name)) return col;
      return { values: col.values.map((v) => convertAgendaTime(v) ?? v), codes: col.codes };
    });
    t = new Table(raw.name, raw.columns, encoded, raw.rowCount);
    loadedTables.set(raw, t);
  }
  return t;
}

export type FilterOperator = '>=' | '<=' | '>' | '<' | '=';
const OPERATORS: readonly FilterOperator[] = ['>=', '<=', '>', '<', '='];

export interface Comparison {
  column: string;
  op: FilterOperator;
  /** The value as compared for strings (trimmed; agenda times converted). */
  value: string;
  /** Set when the column is a numeric-filter column and Python's float() accepts the value. */
  numericValue: number | null;
}

/**
 * Operator detection (first of `>=`, `<=`, `>`, `<`, `=` contained in the text), column = text before its first
 * occurrence, value = text between the first and second occurrence, both trimmed; null when there is no operator.
 */
export function parseSubCondition(text: string): Comparison | null {
  const op = OPERATORS.find((o) => text.includes(o));
  if (op === undefined) return null;
  const parts = text.split(op);
  const column = pyStrip(parts[0] as string);
  let value = pyStrip(parts[1] as string);
  let numericValue: number | null = null;
  if (NUMERIC_FILTER_COLUMNS.has(column)) numericValue = parsePythonFloat(value);
  if (AGENDA_TIME_COLUMNS.has(column)) value = convertAgendaTime(value) ?? value;
  return { column, op, value, numericValue };
}

/** How a sub-condition selects rows. `none` = a float/str mismatch under `=` (matches nothing). */
export type CompareMode = 'numeric' | 'string' | 'contains' | 'none';

interface ParsedFloats {
  values: Float64Array;
  ok: Uint8Array;
}
const floatCache = new WeakMap<EncodedColumn, ParsedFloats>();

/** Python float() of every distinct cell of a column (ok = 0 where float() would raise). */
export function columnFloats(col: EncodedColumn): ParsedFloats {
  let f = floatCache.get(col);
  if (!f) {
    const values = new Float64Array(col.values.length);
    const ok = new Uint8Array(col.values.length);
    col.values.forEach((v, i) => {
      const x = parsePythonFloat(v);
      if (x !== null) {
        values[i] = x;
        ok[i] = 1;
      }
    });
    f = { values, ok };
    floatCache.set(col, f);
  }
  return f;
}

/** Rows of a view: null stands for every row of the table, in file order. */
export type Rows = Uint32Array | null;

export function rowCount(table: Table, rows: Rows): number {
  return rows === null ? table.rowCount : rows.length;
}

export function forEachRow(table: Table, rows: Rows, f: (row: number) => void): void {
  if (rows === null) for (let r = 0; r < table.rowCount; r++) f(r);
  else for (const r of rows) f(r);
}

/** Whether every cell of the column in the view converts with float() (pandas `astype(float)` succeeds). */
export function viewConvertsToFloat(table: Table, rows: Rows, column: string): boolean {
  const col = table.column(column);
  const { ok } = columnFloats(col);
  let all = true;
  forEachRow(table, rows, (r) => {
    if (!ok[col.codes[r] as number]) all = false;
  });
  return all;
}

const regexCache = new Map<string, PySearchRegex>();

/** Compiles (and memoises) a `categories=` pattern; throws RegexSyntaxError. */
export function containsRegex(pattern: string): PySearchRegex {
  let re = regexCache.get(pattern);
  if (!re) {
    re = compilePySearch(pattern);
    if (regexCache.size >= 256) regexCache.delete(regexCache.keys().next().value as string);
    regexCache.set(pattern, re);
  }
  return re;
}

function holds(op: FilterOperator, cmp: number): boolean {
  switch (op) {
    case '=':
      return cmp === 0;
    case '>=':
      return cmp >= 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '<':
      return cmp < 0;
  }
}

function numericHolds(op: FilterOperator, x: number, y: number): boolean {
  switch (op) {
    case '=':
      return x === y;
    case '>=':
      return x >= y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    case '<':
      return x < y;
  }
}

/** The rows of `rows` that satisfy the comparison under the given mode (the column must exist). */
export function selectRows(table: Table, rows: Rows, c: Comparison, mode: CompareMode): Uint32Array {
  const col = table.column(c.column);
  if (mode === 'none') return new Uint32Array(0);
  // Decide per distinct cell once: 0 = unknown, 1 = keep, 2 = drop.
  const memo = new Uint8Array(col.values.length);
  let decide: (code: number) => boolean;
  if (mode === 'numeric') {
    const { values } = columnFloats(col);
    const y = c.numericValue as number;
    decide = (code) => numericHolds(c.op, values[code] as number, y);
  } else if (mode === 'contains') {
    const re = containsRegex(c.value);
    decide = (code) => re.search(col.values[code] as string);
  } else {
    decide = (code) => holds(c.op, pyStrCompare(col.values[code] as string, c.value));
  }
  const out = new Uint32Array(rowCount(table, rows));
  let n = 0;
  forEachRow(table, rows, (r) => {
    const code = col.codes[r] as number;
    let m = memo[code] as number;
    if (m === 0) {
      m = decide(code) ? 1 : 2;
      memo[code] = m;
    }
    if (m === 1) out[n++] = r;
  });
  return out.slice(0, n);
}

/** The mode an applied sub-condition had, reconstructed from its text (see the module comment). */
export function replayMode(c: Comparison): CompareMode {
  if (c.numericValue !== null) return 'numeric';
  if (c.column === CONTAINS_COLUMN && c.op === '=') return 'contains';
  return 'string';
}

// ---- memoised views -------------------------------------------------------------------------------------------

const MAX_CACHED_ROWS = 2_000_000;
const MAX_CACHED_VIEWS = 512;

const tableIds = new WeakMap<Table, number>();
let nextTableId = 1;
const viewCache = new Map<string, Uint32Array>();
let cachedRows = 0;

function viewKey(table: Table, filters: readonly string[]): string {
  let id = tableIds.get(table);
  if (id === undefined) {
    id = nextTableId++;
    tableIds.set(table, id);
  }
  return `${id}:${JSON.stringify(filters)}`;
}

function cacheGet(key: string): Uint32Array | undefined {
  const v = viewCache.get(key);
  if (v !== undefined) {
    viewCache.delete(key);
    viewCache.set(key, v);
  }
  return v;
}

/** Remembers the view of `filters`; callers use it for views they computed themselves. */
export function rememberView(table: Table, filters: readonly string[], rows: Uint32Array): void {
  const key = viewKey(table, filters);
  if (viewCache.has(key) || rows.length > MAX_CACHED_ROWS) return;
  viewCache.set(key, rows);
  cachedRows += rows.length;
  while (viewCache.size > MAX_CACHED_VIEWS || cachedRows > MAX_CACHED_ROWS) {
    const [oldest, oldRows] = viewCache.entries().next().value as [string, Uint32Array];
    viewCache.delete(oldest);
    cachedRows -= oldRows.length;
  }
}

/** The rows denoted by a list of applied sub-conditions. */
export function resolveView(table: Table, filters: readonly string[]): Rows {
  if (filters.length === 0) return null;
  const hit = cacheGet(viewKey(table, filters));
  if (hit) return hit;
  let k = filters.length - 1;
  let rows: Rows = null;
  for (; k > 0; k--) {
    const prefix = cacheGet(viewKey(table, filters.slice(0, k)));
    if (prefix) {
      rows = prefix;
      break;
    }
  }
  for (let i = k; i < filters.length; i++) {
    const c = parseSubCondition(filters[i] as string);
    if (c === null || !table.hasColumn(c.column)) {
      throw new Error(`applied sub-condition ${JSON.stringify(filters[i])} cannot be replayed`);
    }
    rows = selectRows(table, rows, c, replayMode(c));
    rememberView(table, filters.slice(0, i + 1), rows);
  }
  return rows;
}
