/**
 * Reading tool observations the way a careful agent would, for the reference solvers: the row count of a
 * FilterDB success message and the JSON of a GetValue result (Python's `json.dumps` may write bare `NaN`).
 */
import { PyFloat, PyInt, type PyRenderable, pyRepr } from '../../util/python-format.ts';

/** `We have successfully filtered the data (12 rows).` → 12. */
export function filteredRows(observation: string): number {
  const m = /^We have successfully filtered the data \((\d+) rows\)\.$/.exec(observation);
  if (!m) throw new Error(`not a FilterDB success: ${observation.slice(0, 200)}`);
  return Number(m[1]);
}

export type CellValue = string | number;

/** Parses a GetValue observation: column → list of cells (a one-row view gives one-element lists). */
export function getValueColumns(observation: string): Record<string, CellValue[]> {
  // Replace bare NaN/Infinity tokens (outside strings) so JSON.parse accepts Python's json.dumps output.
  const jsonText = observation.replace(
    /("(?:[^"\\]|\\.)*")|\b(NaN|-?Infinity)\b/g,
    (m, str: string | undefined) => (str !== undefined ? m : `"__py_${m}__"`),
  );
  const parsed = JSON.parse(jsonText) as Record<string, unknown>;
  const out: Record<string, CellValue[]> = {};
  for (const [k, v] of Object.entries(parsed)) {
    const cells = Array.isArray(v) ? v : [v];
    out[k] = cells.map((c) => {
      if (typeof c === 'string' && c.startsWith('__py_')) return Number(c.slice(5, -2));
      return c as CellValue;
    });
  }
  return out;
}

/** The cells of one column of a GetValue observation. */
export function getValueColumn(observation: string, column: string): CellValue[] {
  const cols = getValueColumns(observation);
  const cells = cols[column];
  if (!cells) throw new Error(`GetValue observation has no column ${column}: ${observation.slice(0, 200)}`);
  return cells;
}

/** Renders cells as a Python list literal of floats (`nan` → `float('nan')`). */
export function pyFloatList(cells: readonly CellValue[]): string {
  return `[${cells
    .map((c) => {
      const x = typeof c === 'number' ? c : Number.parseFloat(c);
      return Number.isNaN(x) ? "float('nan')" : pyRepr(new PyFloat(x));
    })
    .join(', ')}]`;
}

/** Renders cells as a Python list literal of ints. */
export function pyIntList(cells: readonly CellValue[]): string {
  return `[${cells.map((c) => pyRepr(new PyInt(typeof c === 'number' ? c : Number.parseInt(c, 10)))).join(', ')}]`;
}

/** Renders values as a Python list literal of strings. */
export function pyStrList(cells: readonly CellValue[]): string {
  return pyRepr(cells.map((c) => String(c)) as PyRenderable[]);
}
