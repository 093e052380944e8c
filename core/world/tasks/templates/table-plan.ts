/**
 * Building blocks of the reference plans that use the table tools (airbnb, yelp): the P_c calls, which values
 * a FilterDB `column=value` sub-condition can match, and how many whitespace tokens a GetValue observation
 * will have, so that samplers keep only questions whose plan reads everything it needs within the 1,024-token
 * observation limit (spec §3.0 step 5).
 */
import { pyFloatRepr, pyJsonString, pyRound } from '../../../util/python-format.ts';
import { OBSERVATION_TOKEN_LIMIT } from '../../kernel/kernel.ts';
import { parsePythonFloat, pySplit, pyStrip } from '../../kernel/python-text.ts';
import type { DatabaseName } from '../../types.ts';
import type { PlanCall } from '../types.ts';

export { OBSERVATION_TOKEN_LIMIT };

export const loadDb = (db: DatabaseName): PlanCall => ({ tool: 'LoadDB', args: { DBName: db } });
export const filterDb = (condition: string): PlanCall => ({ tool: 'FilterDB', args: { condition } });
export const getValue = (columns: string): PlanCall => ({ tool: 'GetValue', args: { column_name: columns } });
export const python = (code: string): PlanCall => ({ tool: 'PythonInterpreter', args: { Python: code } });

/**
 * Whether `column=value` matches exactly the cells equal to `value`: FilterDB splits conditions on `, `, takes
 * the first of `>=`, `<=`, `>`, `<`, `=` as the operator and trims the value (spec §3.3), so values with those
 * characters, surrounding whitespace or nothing at all cannot be looked up.
 */
export function canFilterEquals(value: string): boolean {
  return value.length > 0 && pyStrip(value) === value && !value.includes(', ') && !/[<>=]/.test(value);
}

/** Whitespace tokens of GetValue over the given columns' cells (all columns have the same number of rows). */
export function getValueTokenCount(columns: readonly (readonly [string, readonly string[]])[]): number {
  const rows = columns[0]?.[1].length ?? 0;
  // Float-converted columns render as bare numbers instead of strings; their cells have no whitespace either way.
  const fields = columns.map(([name, cells]) => {
    const body = rows === 1 ? pyJsonString(cells[0] as string) : `[${cells.map(pyJsonString).join(', ')}]`;
    return `${pyJsonString(name)}: ${body}`;
  });
  return pySplit(`{${fields.join(', ')}}`, OBSERVATION_TOKEN_LIMIT + 1).length;
}

/** Whether GetValue over these columns fits in one observation without truncation. */
export function getValueFits(columns: readonly (readonly [string, readonly string[]])[]): boolean {
  return getValueTokenCount(columns) <= OBSERVATION_TOKEN_LIMIT;
}

/** The answer printed by a PythonInterpreter step (the environment strips it). */
export function printed(observation: string): string {
  return observation.trim();
}

/**
 * Whether PythonInterpreter prints `text` unchanged: the tool replaces an output that parses as a float by
 * `str(round(value, 4))` unless the original is strictly shorter (spec §3.10 step 5), so a printed postal code
 * `00501` would come back as `501.0`.
 */
export function printsUnchanged(text: string): boolean {
  const x = parsePythonFloat(text);
  if (x === null) return true;
  return text.length < pyFloatRepr(pyRound(x, 4)).length;
}
