/**
 * STE's evaluation protocol (spec `ste.md`; the authors' `evaluation.ipynb`, `eval_pred_file` and `eval_batch`,
 * with `utils.parse_response`): given a test query (and its retrieved demonstrations), the model's **first** output
 * is scored without executing any API.
 *
 * Parsing (`parse_response(…, proc_toolken=True, ground_API=True)`):
 * - `Final Answer:` with no `Action Input:` before it is *no call*;
 * - otherwise exactly one `Action Input:` and, before it, exactly one `Action:` are needed (else a parse error);
 *   trailing literal `\n` sequences are stripped from both parts;
 * - the action loses `<tool_` and surrounding `<`/`>`; a name that is not one of the benchmark's is mapped to the
 *   closest by `difflib.get_close_matches(name, names, n=1, cutoff=0.001)` (`core/util/difflib.ts`);
 * - the input is cut from the first `{` to the last `}`, every brace at its two ends is stripped and one put back
 *   on each side (so a nested object at the end loses its closing brace — the authors' parse, kept), and it must
 *   load with Python's `json.loads`.
 *
 * Figures (`eval_batch`), each rounded like Python's `round(x, 3)`:
 * - **Wellformed** = calls that parsed with JSON input ÷ all queries;
 * - **API Match** = well-formed calls naming the gold API ÷ well-formed calls;
 * - **Correct** = API match with correct arguments ÷ all queries. Arguments are compared by string match for the
 *   APIs the authors list (`string_match_apis.json`): every gold key present with `str(v).strip().lower()` equal;
 *   the other APIs are judged semantically by a judge (the authors' LLM judge: correct unless its answer contains
 *   "No."). The judge is a parameter: a model (`modelCallJudge`), or the verdicts stored in a scored file.
 *
 * One deliberate difference: when no benchmark name shares a single character with the predicted one, the authors'
 * `get_close_matches(...)[0]` raises IndexError; here the name stays as predicted and the call cannot match.
 */

import type { TextModel } from '../models/types.ts';
import { renderPrompt } from '../prompts/registry.ts';
import type { SteDemonstration } from '../prompts/ste.ts';
import { closeMatches } from '../util/difflib.ts';
import { PyDict, type PyRenderable, plainJson, pyRound, pyStr } from '../util/python-format.ts';
import { pyJsonLoads } from '../world/kernel/json-decode.ts';
import { heldOutKeys, heldOutTest } from './held-out.ts';

export type SteParse =
  | { kind: 'no-call'; finalAnswer: string }
  | { kind: 'error'; message: string }
  | { kind: 'call'; action: string; actionInput: string };

/** Python's `str.strip()` with no argument (Unicode whitespace). */
function pyStrip(s: string): string {
  return s.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, '');
}

/** The authors' `strip_end(a, "\\n")`: drops trailing two-character `\n` sequences (a backslash and an n). */
function stripLiteralNewlines(s: string): string {
  let out = s;
  while (out.endsWith('\\n')) out = out.slice(0, -2);
  return out;
}

function stripChars(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start] as string)) start++;
  while (end > start && chars.includes(s[end - 1] as string)) end--;
  return s.slice(start, end);
}

/** One model output parsed as the authors parse it (see the module header); `names` are the benchmark's APIs. */
export function parseSteOutput(output: string, names: readonly string[]): SteParse {
  let response = pyStrip(output);
  if (response.includes('Final Answer:')) {
    const parts = response.split('Final Answer:');
    response = pyStrip(parts[0] as string);
    if (!response.includes('Action Input:'))
      return { kind: 'no-call', finalAnswer: pyStrip(parts[1] as string) };
  }
  if (!response.includes('Action Input:')) return { kind: 'error', message: 'no Action Input' };
  const inputs = response.split('Action Input:');
  if (inputs.length > 2) return { kind: 'error', message: 'more than one Action Input' };
  const before = pyStrip(stripLiteralNewlines(pyStrip(inputs[0] as string)));
  let actionInput = pyStrip(stripLiteralNewlines(pyStrip(inputs[1] as string)));
  if (!before.includes('Action:')) return { kind: 'error', message: 'no Action' };
  const actions = before.split('Action:');
  if (actions.length > 2) return { kind: 'error', message: 'more than one Action' };
  let action = pyStrip(stripLiteralNewlines(pyStrip(actions[1] as string)));
  action = stripChars(action.replaceAll('<tool_', ''), '<>');
  if (!names.includes(action)) action = closeMatches(action, names, 1, 0.001)[0] ?? action;
  const left = actionInput.indexOf('{');
  if (left === -1) return { kind: 'error', message: 'the Action Input does not begin with {' };
  const right = actionInput.lastIndexOf('}');
  if (right === -1) return { kind: 'error', message: 'the Action Input does not end with }' };
  if (left >= right) return { kind: 'error', message: 'the Action Input is not a JSON object' };
  actionInput = `{${stripChars(actionInput.slice(left, right + 1), '{}')}}`;
  // `{{` / `}}` cannot remain after the strip above; the authors check them anyway.
  return { kind: 'call', action, actionInput: pyStrip(actionInput) };
}

/** `json.loads` of an action input as a dict, or null when it does not load (or is not an object). */
function loadArgs(text: string): PyDict | null {
  const r = pyJsonLoads(text, { strict: true });
  return r.ok && r.value instanceof PyDict ? r.value : null;
}

function lookup(dict: PyDict, key: string): PyRenderable | undefined {
  // Python's dict keeps the last value of a duplicate key; PyDict already holds it.
  return dict.entries.find(([k]) => k === key)?.[1];
}

/** The authors' string match: every gold key present, values equal after `str(v).strip().lower()`. */
export function argumentsStringMatch(gold: PyDict, predicted: PyDict): boolean {
  for (const [key, value] of gold.entries) {
    const mine = lookup(predicted, key);
    if (mine === undefined) return false;
    if (pyStrip(pyStr(mine)).toLowerCase() !== pyStrip(pyStr(value)).toLowerCase()) return false;
  }
  return true;
}

/** A semantic judgement of one call against the gold call (the APIs not scored by string match). */
export type SteCallJudge = (call: {
  index: number;
  api: string;
  gold: Record<string, unknown>;
  predicted: Record<string, unknown>;
}) => Promise<boolean>;

/** One test item: the gold call and the model's first output. */
export interface SteTestItem {
  query: string;
  /** The gold API (the benchmark's name) and its arguments as JSON text. */
  action: string;
  actionInput: string;
  output: string;
}

export interface SteItemScore {
  parse: SteParse['kind'];
  /** Parsed with JSON input. */
  wellformed: boolean;
  apiMatch: boolean;
  /** Null when the call does not match the API (arguments are not compared then). */
  argsCorrect: boolean | null;
  /** How the arguments were compared. */
  by: 'string' | 'judge' | null;
}

export interface SteScores {
  total: number;
  noCall: number;
  errors: number;
  wellformedCount: number;
  apiMatchCount: number;
  correctCount: number;
  /** Percentages rounded to 3 decimals (`round(100 * x, 3)`); apiMatch is null when nothing was well-formed. */
  wellformed: number;
  apiMatch: number | null;
  correct: number;
  items: SteItemScore[];
}

function toPlain(d: PyDict): Record<string, unknown> {
  return plainJson(d) as Record<string, unknown>;
}

/**
 * Scores test items as `eval_pred_file` then `eval_batch` do. `names` are the benchmark's API names (the
 * prediction file's keys, in order); `stringMatch` the APIs whose arguments are compared by string match; `judge`
 * decides the others.
 */
export async function scoreSteItems(
  items: readonly SteTestItem[],
  opts: { names: readonly string[]; stringMatch: ReadonlySet<string>; judge: SteCallJudge },
): Promise<SteScores> {
  const scored: SteItemScore[] = [];
  let noCall = 0;
  let errors = 0;
  let apiMatch = 0;
  let correct = 0;
  for (const [index, item] of items.entries()) {
    const parsed = parseSteOutput(item.output, opts.names);
    if (parsed.kind === 'no-call') {
      noCall++;
      scored.push({ parse: 'no-call', wellformed: false, apiMatch: false, argsCorrect: null, by: null });
      continue;
    }
    const predicted = parsed.kind === 'call' ? loadArgs(parsed.actionInput) : null;
    if (parsed.kind === 'error' || predicted === null) {
      errors++;
      scored.push({ parse: 'error', wellformed: false, apiMatch: false, argsCorrect: null, by: null });
      continue;
    }
    if (parsed.action !== item.action) {
      scored.push({ parse: 'call', wellformed: true, apiMatch: false, argsCorrect: null, by: null });
      continue;
    }
    apiMatch++;
    const gold = loadArgs(item.actionInput);
    if (gold === null) throw new Error(`test item ${index}: the gold action input is not a JSON object`);
    const byString = opts.stringMatch.has(item.action);
    const ok = byString
      ? argumentsStringMatch(gold, predicted)
      : await opts.judge({ index, api: item.action, gold: toPlain(gold), predicted: toPlain(predicted) });
    if (ok) correct++;
    scored.push({
      parse: 'call',
      wellformed: true,
      apiMatch: true,
      argsCorrect: ok,
      by: byString ? 'string' : 'judge',
    });
  }
  const total = items.length;
  const wellformed = total - noCall - errors;
  const pct = (x: number, of: number) => pyRound((100 * x) / of, 3);
  return {
    total,
    noCall,
    errors,
    wellformedCount: wellformed,
    apiMatchCount: apiMatch,
    correctCount: correct,
    wellformed: total > 0 ? pct(wellformed, total) : 0,
    apiMatch: wellformed > 0 ? pct(apiMatch, wellformed) : null,
    correct: total > 0 ? pct(correct, total) : 0,
    items: scored,
  };
}

/** The authors' judge verdict parse: correct unless the answer contains "No.". */
export function judgeVerdict(reply: string): boolean {
  return !reply.includes('No.');
}

/**
 * A judge model in the authors' protocol (temperature 0, 256 tokens, `ste/call-judge`); the simulated policy may
 * stand in offline (its verdicts are then the simulator's, and say so through the model's name).
 */
export function modelCallJudge(model: TextModel, signal?: AbortSignal): SteCallJudge {
  return async (call) => {
    const messages = renderPrompt('ste/call-judge', {
      api: call.api,
      gold: JSON.stringify(call.gold),
      predicted: JSON.stringify(call.predicted),
    });
    const r = await model.generate(
      { messages, temperature: 0, maxTokens: 256, stop: ['Observation:'] },
      signal,
    );
    return judgeVerdict(r.candidates[0]?.text ?? '');
  };
}

/** One query of STE's test set as the test-time prompt needs it (`tool_test.json`). */
export interface SteTestQuery extends Omit<SteTestItem, 'output'> {
  apiNames: readonly string[];
  apiDescriptions: string;
}

/**
 * STE's protocol run by a model: for each test query the `ste/test` prompt (with the demonstrations `demos` gives
 * it, the 8 nearest exemplars in the paper), the model's **first** output only (stop at "Observation:"; temperature
 * 0), then `scoreSteItems`. The 15-per-API test queries are evaluation data only: nothing here explores or stores
 * them, and a demonstration whose query is a test query is dropped before the prompt.
 */
export async function runSteTest(
  model: TextModel,
  queries: readonly SteTestQuery[],
  opts: {
    names: readonly string[];
    stringMatch: ReadonlySet<string>;
    judge: SteCallJudge;
    demos?: (query: string) => Promise<readonly SteDemonstration[]>;
    /** Keys of further held-out queries (held-out.ts: the whole test set when only part of it is asked). */
    heldOut?: readonly string[];
    signal?: AbortSignal;
  },
): Promise<SteScores & { model: string }> {
  const items: SteTestItem[] = [];
  let name = model.model;
  // A demonstration whose query is one of the test queries is never shown (held-out.ts): whatever the source of
  // the demonstrations, the test set stays evaluation data only.
  const isTest = heldOutTest([...heldOutKeys(queries.map((q) => q.query)), ...(opts.heldOut ?? [])]);
  for (const q of queries) {
    const demonstrations = opts.demos ? (await opts.demos(q.query)).filter((d) => !isTest(d.query)) : [];
    const messages = renderPrompt('ste/test', {
      apiDescriptions: q.apiDescriptions,
      apiNames: q.apiNames,
      query: q.query,
      ...(demonstrations.length > 0 ? { demonstrations } : {}),
    });
    const r = await model.generate(
      { messages, temperature: 0, maxTokens: 360, stop: ['Observation:'] },
      opts.signal,
    );
    name = r.model;
    items.push({
      query: q.query,
      action: q.action,
      actionInput: q.actionInput,
      output: r.candidates[0]?.text ?? '',
    });
  }
  return { ...(await scoreSteItems(items, opts)), model: name };
}

/** STE's `tool_test.json` (`{api: [{query, action, action_input, API_name_list, api_descriptions}]}`) as test queries, in file order. */
export function steTestQueries(file: Record<string, readonly Record<string, unknown>[]>): {
  names: string[];
  queries: SteTestQuery[];
} {
  const names = Object.keys(file);
  const queries = names.flatMap((api) =>
    (file[api] ?? []).map((r, i) => {
      const { query, action, action_input, API_name_list, api_descriptions } = r;
      if (typeof query !== 'string' || typeof action !== 'string' || typeof action_input !== 'string')
        throw new TypeError(`/${api}/${i}: query, action and action_input must be strings`);
      return {
        query,
        action,
        actionInput: action_input,
        apiNames: Array.isArray(API_name_list) ? (API_name_list as string[]) : [action],
        apiDescriptions: typeof api_descriptions === 'string' ? api_descriptions : '',
      };
    }),
  );
  return { names, queries };
}
