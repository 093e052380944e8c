import { describe, expect, it } from 'vitest';
import { type ClassifiableRun, classifyRun, ERROR_CATEGORIES } from '../../../core/evals/taxonomy.ts';

function step(action: string | undefined, input: string, outcome: string) {
  return {
    text: action === undefined ? 'I am not sure.' : `Thought: x\nAction: ${action}\nAction Input: ${input}`,
    ...(action !== undefined ? { action } : {}),
    outcome,
  };
}

const load = step('LoadDB', '{"target_db": "flights"}', 'ok');
const finishWrong = step('Finish', '{"answer": "3"}', 'finished:wrong');

function run(steps: ClassifiableRun['steps'], ending: ClassifiableRun['ending'] = 'budget'): ClassifiableRun {
  return { correct: false, ending, steps };
}

describe('error taxonomy', () => {
  it('lists the six categories of Table 7 with their rules', () => {
    expect(ERROR_CATEGORIES.map((c) => c.id)).toEqual([
      'invalid-invocation',
      'deprecated-repeat',
      'looping',
      'incorrect-output',
      'instructions-not-followed',
      'tool-misuse',
    ]);
    for (const c of ERROR_CATEGORIES) expect(c.rule.length).toBeGreaterThan(20);
  });

  it('gives correct runs no category and unrunnable runs run-error', () => {
    expect(classifyRun({ correct: true, ending: 'finish', steps: [load] })).toBeNull();
    expect(classifyRun({ correct: false, ending: 'error', steps: [] })).toBe('run-error');
  });

  it('classifies by the documented rules, first match winning', () => {
    const retired = step('LoadDB', '{"target_db": "flights"}', 'rejected:retired');
    // A deprecated name called again after its deprecation message, even if the run later finished.
    expect(
      classifyRun(
        run([retired, step('LoadDB', '{"target_db":"coffee"}', 'rejected:retired'), finishWrong], 'finish'),
      ),
    ).toBe('deprecated-repeat');
    // Two different deprecated names once each is not a repetition.
    expect(
      classifyRun(run([retired, step('FilterDB', '{}', 'rejected:retired'), finishWrong], 'finish')),
    ).toBe('incorrect-output');
    // The same call three times (whitespace does not matter) is looping.
    const again = step('GetValue', '{"column_name": "x"}', 'error:load-first');
    const spaced = step('GetValue', '{ "column_name" :  "x" }', 'error:load-first');
    expect(classifyRun(run([again, spaced, again]))).toBe('looping');
    expect(classifyRun(run([again, again]))).toBe('tool-misuse');
    expect(classifyRun(run([load, finishWrong], 'finish'))).toBe('incorrect-output');
    // Without Finish: format breaks first, then invalid invocations, then the rest.
    const unparsable = step(undefined, '', 'rejected:filtered');
    const badInput = step('LoadDB', 'flights', 'rejected:argument-error');
    const unknown = step('LoadDatabase', '{}', 'rejected:invalid-action');
    const params = step('LoadDB', '{"db": "flights"}', 'rejected:param-error');
    expect(classifyRun(run([unparsable, unknown]))).toBe('instructions-not-followed');
    expect(classifyRun(run([badInput]))).toBe('instructions-not-followed');
    expect(classifyRun(run([load], 'empty-generation'))).toBe('instructions-not-followed');
    expect(classifyRun(run([unknown, load]))).toBe('invalid-invocation');
    expect(classifyRun(run([params]))).toBe('invalid-invocation');
    expect(classifyRun(run([load, step('FilterDB', '{"condition": "x=1"}', 'error:unknown-column')]))).toBe(
      'tool-misuse',
    );
    expect(classifyRun(run([], 'open'))).toBe('tool-misuse');
  });
});
