/**
 * Parsing of one generated ReAct step (spec §5.2) and the trajectory text of a step (§5.3).
 *
 * The original applies three DOTALL regex searches (`Thought:\s*(.+?)\s*Action`, `Action:\s*(.+?)\s*Action Input`,
 * `Action Input:\s*(\{.+\})\s*`). They are evaluated here by direct scanning with the same results, in linear
 * time:
 * - Action: the text after the first `Action:` and its whitespace, up to the next `Action Input` that starts at
 *   least one character later, trimmed. (When `Action Input` follows the whitespace directly, the regex
 *   backtracks to a one-whitespace-character group, which trims to the empty action.)
 * - Action Input: for the first `Action Input:` followed by optional whitespace and `{`, the text from that `{` to
 *   the last `}` of the whole output, which must lie at least two characters further (`{}` does not match).
 * - Thought: like Action, ending at the next `Action`; optional and informational.
 * Whitespace is Python's `\s`.
 */
import { ACTION_FILTERED } from './kernel/messages.ts';
import { isPyWhitespace, pyStrip } from './kernel/python-text.ts';

export interface ReactStep {
  ok: true;
  thought: string | null;
  /** Trimmed action name as written (may be anything; the API surface decides whether it is valid). */
  action: string;
  /** The raw JSON text of the Action Input (decode it with decodeActionInput). */
  actionInput: string;
}

export type ReactParse = ReactStep | { ok: false; observation: string };

function skipWs(s: string, i: number): number {
  while (i < s.length && isPyWhitespace(s.charCodeAt(i))) i++;
  return i;
}

/** `Label:\s*(.+?)\s*Terminator` with DOTALL, group trimmed; null when the regex finds no match. */
function labelledSpan(text: string, label: string, terminator: string): string | null {
  const at = text.indexOf(label);
  if (at < 0) return null;
  const start = skipWs(text, at + label.length);
  if (start >= text.length) return null;
  // The group needs at least one character, so the terminator is searched from start + 1; when the only
  // terminator sits right at `start`, the regex gives back one whitespace character instead (if there is one).
  const end = text.indexOf(terminator, start + 1);
  if (end < 0) {
    const backtracked = start > at + label.length && text.startsWith(terminator, start);
    return backtracked ? '' : null;
  }
  return pyStrip(text.slice(start, end));
}

function actionInputSpan(text: string): string | null {
  const label = 'Action Input:';
  const lastBrace = text.lastIndexOf('}');
  for (let at = text.indexOf(label); at >= 0; at = text.indexOf(label, at + 1)) {
    const brace = skipWs(text, at + label.length);
    if (text[brace] === '{' && lastBrace >= brace + 2) return text.slice(brace, lastBrace + 1);
  }
  return null;
}

/** Parses one generated step; a missing or empty Action / Action Input gives the "action is filtered" observation. */
export function parseReact(text: string, filteredObservation: string = ACTION_FILTERED): ReactParse {
  const action = labelledSpan(text, 'Action:', 'Action Input');
  const actionInput = actionInputSpan(text);
  if (!action || !actionInput) return { ok: false, observation: filteredObservation };
  return { ok: true, thought: labelledSpan(text, 'Thought:', 'Action'), action, actionInput };
}

/** The text of a step in the trajectory: generated text + blank line + `Observation: ` + observation. */
export function formatStep(text: string, observation: string): string {
  return `${pyStrip(text)}\n\nObservation: ${pyStrip(observation)}`;
}
