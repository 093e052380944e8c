/**
 * The error taxonomy of failed task runs, with the labels and definitions of ToolEvo's Table 7, classified from
 * the trajectory alone by the rules below (first match wins; every failed run gets exactly one label):
 *
 * 1. `deprecated-repeat` — repeated use of deprecated tools: a deprecated or retired tool name was called again
 *    after the server had answered it with a deprecation message.
 * 2. `tool-misuse` — the paper's tool misuse: after a deprecation error, the agent called a tool that does not
 *    exist (a hallucinated replacement the server does not offer).
 * 3. `looping` — invocation looping, part 1: the same call (action and Action Input, ignoring spaces) was made
 *    three times or more.
 * 4. `incorrect-output` — the run ended with Finish, and the answer was wrong.
 * 5. `instructions-not-followed` — no Finish, and the agent broke the ReAct format at least once (a step the
 *    environment could not parse, an Action Input that was not a JSON object) or stopped generating.
 * 6. `invalid-invocation` — no Finish, and the agent called a tool the server does not offer (without a
 *    deprecation error before it), with a parameter set it does not take, or with arguments the tool rejected.
 * 7. `looping` — invocation looping, part 2: every other failure — no Finish although each call was well-formed
 *    and ran: the agent kept invoking tools without progress until its steps or budget ran out.
 *
 * The labels are grouped into the three error types of Table 7 (spec §10; `ERROR_GROUPS`): *invocation error in
 * new tools* (invalid invocation, repeated use of deprecated tools), *planning error* (invocation looping, incorrect
 * output) and *other error* (instructions not followed, tool misuse). `ERROR_CATEGORIES` lists the labels in
 * Table 7's column order, and the tables print each label's share of the failures as a percentage, as the paper
 * does.
 *
 * Runs whose task could not be run at all (the model provider failed after every retry) are not agent
 * failures; they carry the class `run-error` and are counted apart. Searches that ran out of a suite's explicit
 * model-call cap (`mcts.maxModelCalls`, off by default) carry `budget-exhausted`, also counted apart.
 *
 * Deliberate differences from ToolQA-D:
 * - The paper labels 50 failed samples per model by hand; these rules classify every failure from the trajectory
 *   alone (the rules and their order are tooldrift's).
 * - Kernel tool errors (a database not loaded, an unknown column, a bad program) count as invalid invocation.
 */
import type { EvalEnding, EvalStep } from './run-task.ts';

export const ERROR_CATEGORIES = [
  {
    id: 'invalid-invocation',
    label: 'Invalid invocation',
    group: 'invocation',
    rule: 'No Finish; called a tool the server does not offer (no deprecation error before), with parameters it does not take, or with arguments the tool rejected.',
  },
  {
    id: 'deprecated-repeat',
    label: 'Repeated use of deprecated tools',
    group: 'invocation',
    rule: 'Called a deprecated or retired tool again after its deprecation message.',
  },
  {
    id: 'looping',
    label: 'Invocation looping',
    group: 'planning',
    rule: 'Kept invoking tools without progress: the same call three times or more, or no Finish although every call was well-formed.',
  },
  {
    id: 'incorrect-output',
    label: 'Incorrect output',
    group: 'planning',
    rule: 'Ended with Finish, and the answer was wrong.',
  },
  {
    id: 'instructions-not-followed',
    label: 'Instructions not followed',
    group: 'other',
    rule: 'No Finish; broke the ReAct format (unparsable step, Action Input not a JSON object) or stopped generating.',
  },
  {
    id: 'tool-misuse',
    label: 'Tool misuse',
    group: 'other',
    rule: 'After a deprecation error, called a tool that does not exist (a hallucinated replacement).',
  },
] as const;

/** The three error types of ToolEvo's Table 7 (spec §10), which group the labels. */
export const ERROR_GROUPS = [
  { id: 'invocation', label: 'Invocation error in new tools' },
  { id: 'planning', label: 'Planning error' },
  { id: 'other', label: 'Other error' },
] as const;
export type ErrorGroup = (typeof ERROR_GROUPS)[number]['id'];

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number]['id'];
export const RUN_ERROR = 'run-error';
/** A search that ran out of the suite's explicit model-call cap before it finished: not a wrong answer. */
export const BUDGET_EXHAUSTED = 'budget-exhausted';

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

/**
 * The category of a run (null for a correct run; `run-error` when it could not be run; `budget-exhausted` when a
 * search hit the suite's model-call cap without an answer).
 */
export function classifyRun(
  run: ClassifiableRun,
): ErrorCategory | typeof RUN_ERROR | typeof BUDGET_EXHAUSTED | null {
  if (run.correct) return null;
  if (run.ending === 'error') return RUN_ERROR;
  if (run.ending === 'call-budget') return BUDGET_EXHAUSTED;
  const deprecatedCalls = new Map<string, number>();
  const calls = new Map<string, number>();
  let deprecationSeen = false;
  let hallucinatedAfterDeprecation = false;
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
    if (s.outcome === 'rejected:invalid-action' && deprecationSeen) hallucinatedAfterDeprecation = true;
    if (
      s.outcome === 'rejected:invalid-action' ||
      s.outcome === 'rejected:param-error' ||
      s.outcome.startsWith('error:')
    )
      invalid = true;
    if (s.outcome === 'rejected:retired') deprecationSeen = true;
  }
  if ([...deprecatedCalls.values()].some((n) => n >= 2)) return 'deprecated-repeat';
  if (hallucinatedAfterDeprecation) return 'tool-misuse';
  if ([...calls.values()].some((n) => n >= 3)) return 'looping';
  if (run.ending === 'finish') return 'incorrect-output';
  if (formatBroken || run.ending === 'empty-generation') return 'instructions-not-followed';
  if (invalid) return 'invalid-invocation';
  return 'looping';
}

/** The top-level type of a label. */
export function errorGroup(category: ErrorCategory): ErrorGroup {
  return (ERROR_CATEGORIES.find((c) => c.id === category) as (typeof ERROR_CATEGORIES)[number]).group;
}
