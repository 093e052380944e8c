/**
 * ToolEVO's exact-match test (spec §6.1), used by Finish, rewards and evaluation: both sides go through Python
 * `str()`, are trimmed, compared as numbers after deleting `USD`, `$` and `,`, and otherwise compared as
 * normalised strings (lower-case, ASCII punctuation deleted, the words a/an/the/usd removed, whitespace collapsed).
 *
 * Values and their Python str():
 * - strings as they are; `PyInt`/`PyFloat`/`PyTuple`/`PyDict`/arrays/booleans/null through python-format
 *   (`true` → `True`, `null` → `None`, `["a","b"]` → `['a', 'b']`); JSON-decoded Action Inputs arrive this way;
 * - a typed number `{ type: 'int' | 'float', value }` (the JSON-storable form for gold answers): `5.0` needs
 *   `{ type: 'float', value: 5 }` or `new PyFloat(5)`;
 * - a plain JS number is an int when it is a safe integer, a float otherwise (`5` → `5`, `2.5` → `2.5`).
 *
 * Numbers that differ (`numbers` option, issue 25 item 7):
 * - `fall-through` (default, EVO's `evaluation.py`, spec §6.1 step 2): when both sides parse as numbers but
 *   differ, the test does not stop — it falls through to the string test, where deleting `-` and `.` makes
 *   `-10.0` match `10.0` and `2.5` match `25` (ToolQA's decimal-point quirk, kept because every ToolEvo number
 *   was scored with it).
 * - `strict` (tooldrift's earlier rule, an option): two differing numbers never match; two NaNs count as equal
 *   (EVO matches `nan`/`NaN` through the string test, so the verdict is the same).
 *
 * Deliberate differences from ToolEVO: none by default. `numbers: 'strict'` (KernelDeps.numbers) is tooldrift's
 * earlier rule, an option: differing numbers never match, so `-10.0` no longer matches `10.0`.
 */

import { PyDict, PyFloat, PyInt, type PyRenderable, PyTuple, pyStr } from '../util/python-format.ts';
import { parsePythonFloat, pySplit, pyStrip } from './kernel/python-text.ts';

export { parsePythonFloat } from './kernel/python-text.ts';

/** A gold answer's number with its Python type, in a JSON-storable form. */
export interface TypedNumber {
  type: 'int' | 'float';
  value: number;
}

function isTypedNumber(v: unknown): v is TypedNumber {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    Object.keys(o).length === 2 && (o.type === 'int' || o.type === 'float') && typeof o.value === 'number'
  );
}

/** Maps a JS value onto the Python value whose str() the matcher uses. */
export function toPython(v: unknown): PyRenderable {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? new PyInt(v) : new PyFloat(v);
  if (typeof v === 'bigint') return new PyInt(v);
  if (v instanceof PyInt || v instanceof PyFloat || v instanceof PyTuple || v instanceof PyDict) return v;
  if (Array.isArray(v)) return v.map(toPython);
  if (isTypedNumber(v)) return v.type === 'int' ? new PyInt(v.value) : new PyFloat(v.value);
  if (typeof v === 'object') {
    return new PyDict(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toPython(x)]));
  }
  return String(v);
}

/** Python `str(value)` under the mapping of `toPython`. */
export function pythonStr(v: unknown): string {
  return pyStr(toPython(v));
}

const ASCII_PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the|usd)(?![\p{L}\p{N}_])/gu;

/** ToolEVO's `normalize_answer`. */
export function normalizeAnswer(s: string): string {
  let noPunct = '';
  for (const ch of s.toLowerCase()) if (!ASCII_PUNCTUATION.has(ch)) noPunct += ch;
  return pySplit(noPunct.replace(ARTICLES, ' ')).join(' ');
}

function stripCurrency(s: string): string {
  return s.replaceAll('USD', '').replaceAll('$', '').replaceAll(',', '');
}

/** What the matcher does with two numbers that differ (see the module header). */
export const NUMBER_RULES = ['fall-through', 'strict'] as const;
export type NumberRule = (typeof NUMBER_RULES)[number];

export interface MatchOptions {
  /** Default `fall-through` (ToolEVO's EM, spec §6.1). */
  numbers?: NumberRule;
}

/** Whether `prediction` answers `gold` (both are converted with Python str()). */
export function answerMatches(gold: unknown, prediction: unknown, options: MatchOptions = {}): boolean {
  const g = pyStrip(pythonStr(gold));
  const p = pyStrip(pythonStr(prediction));
  const gx = parsePythonFloat(stripCurrency(g));
  const px = gx === null ? null : parsePythonFloat(stripCurrency(p));
  if (gx !== null && px !== null) {
    // Spec §6.1 step 2: equal numbers match; differing ones stop here only under the `strict` option.
    if (gx === px) return true;
    if (options.numbers === 'strict') return Number.isNaN(gx) && Number.isNaN(px);
  }
  return normalizeAnswer(g) === normalizeAnswer(p);
}
