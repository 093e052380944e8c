/**
 * The error taxonomy of failed task runs, after the categories of ToolEvo's Table 7, classified from the
 * trajectory alone by the rules below (first match wins; every failed run gets exactly one category):
 *
 * 1. `deprecated-repeat` — repeated use of deprecated tools: a deprecated or retired tool name was called again
 *    after the server had answered it with a deprecation message.
 * 2. `looping` — invocation looping: the same call (action and Action Input, ignoring spaces) was made three
 *    times or more.
 * 3. `incorrect-output` — the run ended with Finish, and the answer was wrong.
 * 4. `instructions-not-followed` — no Finish, and the agent broke the ReAct format at least once (a step the
 *    environment could not parse, an Action Input that was not a JSON object) or stopped generating.
 * 5. `invalid-invocation` — no Finish, and the agent called a tool the server does not offer or with a
 *    parameter set it does not take at least once.
 * 6. `tool-misuse` — every other failure: no Finish although each call was well-formed and reached a tool
 *    (tool errors — a database not loaded, an unknown column, a bad SQL or Python program — or a plan that
 *    ran out of steps).
 *
 * Runs whose task could not be run at all (the model provider failed after every retry) are not agent
 * failures; they carry the class `run-error` and are counted apart.
 */
import type { EvalEnding, EvalStep } from './run-task.ts';

export const ERROR_CATEGORIES = [
  {
    id: 'invalid-invocation',
    label: 'Invalid invocation',
    rule: 'No Finish; called a tool the server does not offer, or with parameters it does not take.',
  },
  {
    id: 'deprecated-repeat',
    label: 'Repeated use of deprecated tools',
    rule: 'Called a deprecated or retired tool again after its deprecation message.',
  },
  {
    id: 'looping',
    label: 'Invocation looping',
    rule: 'Made the same call (action and Action Input) three times or more.',
  },
  {
    id: 'incorrect-output',
    label: 'Incorrect output',
    rule: 'Ended with Finish, and the answer was wrong.',
  },
  {
    id: 'instructions-not-followed',
    label: 'Instructions not followed',
    rule: 'No Finish; broke the ReAct format (unparsable step, Action Input not a JSON object) or stopped generating.',
  },
  {
    id: 'tool-misuse',
    label: 'Tool misuse',
    rule: 'No Finish although every call was well-formed (tool errors, or a plan that ran out of steps).',
  },
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number]['id'];
export const RUN_ERROR = 'run-error';

export interface ClassifiableRun {
  correct: boolean;
  ending: EvalEnding | 'error';
  steps: readonly Pick<EvalStep, 'text' | 'action' | 'outcome'>[];
}

/** The call of a step as written: action and Action Input with whitespace removed (null if not a call). */
function callKey(step: Pick<EvalStep, 'text' | 'action'>): string | null {
  if (step.action === undefined) return null;
  const at = step.text.search(/Action Input\s*:/);
  const input = at < 0 ? '' : step.text.slice(at).replace(/^Action Input\s*:/, '');
  return `${step.action}\u0000${input.replace(/\s+/g, '')}`;
}

/** The category of a run (null for a correct run; `run-error` when it could not be run). */
export function classifyRun(run: ClassifiableRun): ErrorCategory | typeof RUN_ERROR | null {
  if (run.correct) return null;
  if (run.ending === 'error') return RUN_ERROR;
  const deprecatedCalls = new Map<string, number>();
  const calls = new Map<string, number>();
  let formatBroken = false;
  let invalid = false;
  for (const s of run.steps) {
    if (s.outcome === 'rejected:retired' && s.action !== undefined) {
      const n = (deprecatedCalls.get(s.action) ?? 0) + 1;
      deprecatedCalls.set(s.action, n);
    }
    const key = callKey(s);
    if (key !== null) calls.set(key, (calls.get(key) ?? 0) + 1);
    if (s.outcome === 'rejected:filtered' || s.outcome === 'rejected:argument-error') formatBroken = true;
    if (s.outcome === 'rejected:invalid-action' || s.outcome === 'rejected:param-error') invalid = true;
  }
  if ([...deprecatedCalls.values()].some((n) => n >= 2)) return 'deprecated-repeat';
  if ([...calls.values()].some((n) => n >= 3)) return 'looping';
  if (run.ending === 'finish') return 'incorrect-output';
  if (formatBroken || run.ending === 'empty-generation') return 'instructions-not-followed';
  if (invalid) return 'invalid-invocation';
  return 'tool-misuse';
}
