/**
 * LoadDB, FilterDB and GetValue (spec §3.2–§3.4) over the world's tables, as pure state transitions.
 *
 * FilterDB follows the original step by step, including its quirks: `, ` splitting, lexicographic comparison of
 * numbers, partial application on a missing operator or a failing sub-condition, restore-on-zero-rows, `(1 rows)`.
 * Numeric conversion (`Distance > 500` turns the column of the current view into floats) is modelled exactly,
 * including one consequence of the original mutating its DataFrame in place: a conversion made by the first
 * sub-condition of a call survives the zero-row restore, because the restored frame is the converted object.
 *
 * Deliberate differences from ToolQA-D:
 * - `categories=<pattern>` uses a linear-time matcher for the common subset of Python regex syntax
 *   (safe-regex.ts); unsupported constructs (back-references, look-arounds, …) fail like an invalid pattern.
 */
import { PyFloat, pyFloatRepr, pyJsonDumps, pyJsonString } from '../../util/python-format.ts';
import type { Table } from '../table.ts';
import { DATABASE_NAMES, type DatabaseName, type World } from '../types.ts';
import {
  DB_NOT_IN_LIST,
  dbLoaded,
  FILTER_ARGUMENTS_WRONG,
  FILTER_LOAD_FIRST,
  filterFailed,
  filterIncorrect,
  filterSuccess,
  GETVALUE_LOAD_FIRST,
  VALUE_NOT_EXIST,
} from './messages.ts';
import { pyStrip } from './python-text.ts';
import type { EnvState } from './state.ts';
import {
  CONTAINS_COLUMN,
  type CompareMode,
  type Comparison,
  columnFloats,
  containsRegex,
  forEachRow,
  loadedTable,
  parseSubCondition,
  type Rows,
  rememberView,
  resolveView,
  rowCount,
  selectRows,
  viewConvertsToFloat,
} from './table-view.ts';
import { fail, ok, type ToolResult } from './tool-result.ts';

/** LoadDB[DBName]: lower-cased name; replaces the loaded table and discards filters. */
export function loadDb(world: World, state: EnvState, dbName: unknown): ToolResult {
  if (typeof dbName !== 'string') return fail(state, DB_NOT_IN_LIST, 'unknown-database');
  const name = dbName.toLowerCase();
  if (!(DATABASE_NAMES as readonly string[]).includes(name))
    return fail(state, DB_NOT_IN_LIST, 'unknown-database');
  const db = name as DatabaseName;
  const table = loadedTable(world, db);
  return ok({ ...state, db, filters: [], numericColumns: [] }, dbLoaded(db, table.columnNames()));
}

/**
 * How the original compares once the column's current type is known: float column vs float value numerically;
 * a float/str mismatch matches nothing under `=` and raises TypeError under an ordering; str vs str
 * lexicographically, or as a regex search for `categories=`.
 */
function liveMode(c: Comparison, columnIsFloat: boolean): CompareMode | 'type-error' {
  const valueIsFloat = c.numericValue !== null;
  if (columnIsFloat && valueIsFloat) return 'numeric';
  if (columnIsFloat || valueIsFloat) return c.op === '=' ? 'none' : 'type-error';
  if (c.column === CONTAINS_COLUMN && c.op === '=') return 'contains';
  return 'string';
}

/** FilterDB[condition]. */
export function filterDb(world: World, state: EnvState, condition: unknown): ToolResult {
  if (state.db === null) return fail(state, FILTER_LOAD_FIRST, 'load-first');
  if (typeof condition !== 'string') return fail(state, FILTER_ARGUMENTS_WRONG, 'bad-arguments');
  const table = loadedTable(world, state.db);
  const filters = [...state.filters];
  const numeric = new Set(state.numericColumns);
  // Conversions made on the frame the call started with survive a restore (they mutated that very frame).
  const numericOnStartFrame = new Set(state.numericColumns);
  let rows: Rows = resolveView(table, filters);
  let onStartFrame = true;

  const end = (observation: string, error: ToolResult['error']): ToolResult => ({
    state: { ...state, filters, numericColumns: [...numeric] },
    observation,
    error,
  });

  for (const sub of condition.split(', ')) {
    const c = parseSubCondition(sub);
    if (c === null) return end(filterIncorrect(sub), 'filter-incorrect');
    if (
      c.numericValue !== null &&
      table.hasColumn(c.column) &&
      !numeric.has(c.column) &&
      viewConvertsToFloat(table, rows, c.column)
    ) {
      numeric.add(c.column);
      if (onStartFrame) numericOnStartFrame.add(c.column);
    }
    if (!table.hasColumn(c.column)) return end(filterFailed(sub), 'filter-failed');
    const mode = liveMode(c, numeric.has(c.column));
    if (mode === 'type-error') return end(filterFailed(sub), 'filter-failed');
    if (mode === 'contains') {
      try {
        containsRegex(c.value);
      } catch {
        return end(filterFailed(sub), 'filter-failed');
      }
    }
    const selected = selectRows(table, rows, c, mode);
    if (selected.length === 0) {
      return {
        state: { ...state, numericColumns: [...numericOnStartFrame] },
        observation: filterIncorrect(sub),
        error: 'filter-incorrect',
      };
    }
    filters.push(sub);
    rememberView(table, filters, selected);
    rows = selected;
    onStartFrame = false;
  }
  return end(filterSuccess(rowCount(table, rows)), null);
}

/** JSON string literals of each distinct cell, built lazily (cells repeat a lot in dictionary-encoded columns). */
function cellRenderer(
  table: Table,
  column: string,
  asFloat: boolean,
  listItem: boolean,
): (row: number) => string {
  const col = table.column(column);
  const cache: (string | undefined)[] = new Array(col.values.length);
  const floats = asFloat ? columnFloats(col).values : null;
  return (row) => {
    const code = col.codes[row] as number;
    let s = cache[code];
    if (s === undefined) {
      if (floats === null) s = pyJsonString(col.values[code] as string);
      else {
        const x = floats[code] as number;
        // One row: str(float) inside a JSON string; several rows: `tolist()` floats as JSON numbers.
        s = listItem ? pyJsonDumps(new PyFloat(x)) : pyJsonString(pyFloatRepr(x));
      }
      cache[code] = s;
    }
    return s;
  };
}

/** GetValue[column_name]: `,`-separated names, trimmed and de-duplicated; JSON like Python's json.dumps. */
export function getValue(world: World, state: EnvState, columnName: unknown): ToolResult {
  if (state.db === null) return fail(state, GETVALUE_LOAD_FIRST, 'load-first');
  if (typeof columnName !== 'string') return fail(state, VALUE_NOT_EXIST, 'bad-arguments');
  const names: string[] = [];
  for (const part of columnName.split(',')) {
    const name = pyStrip(part);
    if (!names.includes(name)) names.push(name);
  }
  const table = loadedTable(world, state.db);
  if (!names.every((n) => table.hasColumn(n))) return fail(state, VALUE_NOT_EXIST, 'unknown-column');
  const rows = resolveView(table, state.filters);
  const numeric = new Set(state.numericColumns);
  const single = rowCount(table, rows) === 1;
  const fields = names.map((name) => {
    const render = cellRenderer(table, name, numeric.has(name), !single);
    let body: string;
    if (single) {
      body = render(rows === null ? 0 : (rows[0] as number));
    } else {
      const items: string[] = [];
      forEachRow(table, rows, (r) => {
        items.push(render(r));
      });
      body = `[${items.join(', ')}]`;
    }
    return `${pyJsonString(name)}: ${body}`;
  });
  return ok(state, `{${fields.join(', ')}}`);
}
