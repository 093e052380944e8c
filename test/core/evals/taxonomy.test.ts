import { describe, expect, it } from 'vitest';
import {
  type ClassifiableRun,
  classifyRun,
  ERROR_CATEGORIES,
  ERROR_GROUPS,
  errorGroup,
} from '../../../core/evals/taxonomy.ts';

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
  it("lists the six labels in Table 7's column order, grouped into its three error types (spec §10)", () => {
    expect(ERROR_CATEGORIES.map((c) => c.id)).toEqual([
      'invalid-invocation',
      'deprecated-repeat',
      'looping',
      'incorrect-output',
      'instructions-not-followed',
      'tool-misuse',
    ]);
    for (const c of ERROR_CATEGORIES) expect(c.rule.length).toBeGreaterThan(20);
    expect(ERROR_GROUPS).toEqual([
      { id: 'invocation', label: 'Invocation error in new tools' },
      { id: 'planning', label: 'Planning error' },
      { id: 'other', label: 'Other error' },
    ]);
    // Table 7: tool misuse is an *other error*, beside instructions not followed.
    expect(Object.fromEntries(ERROR_CATEGORIES.map((c) => [c.id, errorGroup(c.id)]))).toEqual({
      'invalid-invocation': 'invocation',
      'deprecated-repeat': 'invocation',
      looping: 'planning',
      'incorrect-output': 'planning',
      'instructions-not-followed': 'other',
      'tool-misuse': 'other',
    });
  });

  it('gives correct runs no category and unrunnable runs run-error', () => {
    expect(classifyRun({ correct: true, ending: 'finish', steps: [load] })).toBeNull();
    expect(classifyRun({ correct: false, ending: 'error', steps: [] })).toBe('run-error');
  });

  const retired = step('LoadDB', '{"target_db": "flights"}', 'rejected:retired');
  const unknown = step('LoadDatabase', '{}', 'rejected:invalid-action');

  it('one hand-written trajectory per label', () => {
    // Repeated use of deprecated tools: the deprecated name again after its deprecation message.
    expect(
      classifyRun(
        run([retired, step('LoadDB', '{"target_db":"coffee"}', 'rejected:retired'), finishWrong], 'finish'),
      ),
    ).toBe('deprecated-repeat');
    // Tool misuse (the paper's definition): after a deprecation error, a tool that does not exist.
    expect(
      classifyRun(run([retired, step('Load_Database_V2', '{"db": "flights"}', 'rejected:invalid-action')])),
    ).toBe('tool-misuse');
    // Invocation looping: the same call three times (whitespace does not matter) …
    const again = step('GetValue', '{"column_name": "x"}', 'error:load-first');
    const spaced = step('GetValue', '{ "column_name" :  "x" }', 'error:load-first');
    expect(classifyRun(run([again, spaced, again]))).toBe('looping');
    // … or well-formed calls that ran, with no progress to a Finish until the steps ran out.
    expect(classifyRun(run([load, step('FilterDB', '{"condition": "Date>=2020-01-01"}', 'ok')]))).toBe(
      'looping',
    );
    expect(classifyRun(run([], 'open'))).toBe('looping');
    // Incorrect output.
    expect(classifyRun(run([load, finishWrong], 'finish'))).toBe('incorrect-output');
    // Two different deprecated names once each is not a repetition.
    expect(
      classifyRun(run([retired, step('FilterDB', '{}', 'rejected:retired'), finishWrong], 'finish')),
    ).toBe('incorrect-output');
    // Instructions not followed: a format break or no generation.
    const unparsable = step(undefined, '', 'rejected:filtered');
    const badInput = step('LoadDB', 'flights', 'rejected:argument-error');
    expect(classifyRun(run([unparsable, unknown]))).toBe('instructions-not-followed');
    expect(classifyRun(run([badInput]))).toBe('instructions-not-followed');
    expect(classifyRun(run([load], 'empty-generation'))).toBe('instructions-not-followed');
    // Invalid invocation: an unknown tool with no deprecation before it, wrong parameters, a tool's error.
    const params = step('LoadDB', '{"db": "flights"}', 'rejected:param-error');
    expect(classifyRun(run([unknown, load]))).toBe('invalid-invocation');
    expect(classifyRun(run([unknown, retired]))).toBe('invalid-invocation');
    expect(classifyRun(run([params]))).toBe('invalid-invocation');
    expect(classifyRun(run([load, step('FilterDB', '{"condition": "x=1"}', 'error:unknown-column')]))).toBe(
      'invalid-invocation',
    );
  });
});
