import { describe, expect, it } from 'vitest';
import { PyDict, PyFloat, PyInt, PyTuple } from '../../../core/util/python-format.ts';
import { answerMatches, normalizeAnswer, pythonStr, toPython } from '../../../core/world/answer-match.ts';
import { pyJsonLoads } from '../../../core/world/kernel/json-decode.ts';

// Unless marked, each row's verdict equals ToolEVO's EM as run under CPython 3.11.7.
describe('answerMatches: the spec §6.1 table', () => {
  it.each([
    ['1699 ', '1,699.000 USD', true],
    ['$42450.0', '42450', true],
    ['264.8 USD', '264.8', true],
    ['0', '0.0', true],
    ['1e3', '1000', true],
    ['1_000', '1000', true],
    // The numbers differ, so EVO falls through to the string test, where "-" and "." are deleted.
    ['-10.0', '10.0', true],
    // The same fall-through: "2.5" and "25" both normalise to "25".
    ['2.5', '25', true],
    ['21:43', '2143', true],
    ['6.9%', '6.9', true],
    ['1.7%', '1.7', true],
    ['nan', 'NaN', true],
    ['NaN', 'nan', true],
    ['Yes', 'yes.', true],
    ['The Batcade Studios', 'batcade studios', true],
    ['A, B', 'A B', true],
    ['a', 'an', true],
    ['', 'the', true],
    ['usd 5', '5', true],
    ['9:00 AM-6:00 PM', '9:00 AM - 6:00 PM', false],
    ['3:00:00', '3 hours', false],
    ['ü', 'u', false],
  ])('%j vs %j → %s', (gold, prediction, want) => {
    expect(answerMatches(gold, prediction)).toBe(want);
  });
});

describe('answerMatches: differing numbers (issue 25 item 7)', () => {
  it.each([
    ['-10.0', '10.0', true, false],
    ['2.5', '25', true, false],
    ['$1.5', '15', true, false],
    ['100', '1.00', true, false],
    ['1e3', '1000', true, true],
    ['nan', 'nan', true, true],
    ['12', '13', false, false],
    ['0.5', '05', true, false],
    ['0.5', '5', false, false],
  ])('%j vs %j: fall-through %s, strict %s', (gold, prediction, fallThrough, strict) => {
    expect(answerMatches(gold, prediction)).toBe(fallThrough);
    expect(answerMatches(gold, prediction, { numbers: 'fall-through' })).toBe(fallThrough);
    expect(answerMatches(gold, prediction, { numbers: 'strict' })).toBe(strict);
  });

  it('Finish is judged by the rule the kernel deps carry', async () => {
    const { createKernelDeps } = await import('../../../core/world/kernel-deps.ts');
    const { callKernel } = await import('../../../core/world/kernel/kernel.ts');
    const { initialState } = await import('../../../core/world/kernel/state.ts');
    const { generateWorld } = await import('../../../core/world/world.ts');
    const world = generateWorld({ seed: 'em', scale: 0.01 });
    const judge = async (numbers?: 'strict') => {
      const deps = createKernelDeps({ gold: '2.5', ...(numbers ? { numbers } : {}) });
      const r = await callKernel(world, initialState(), { tool: 'Finish', args: { answer: '25' } }, deps);
      return r.observation;
    };
    expect(await judge()).toBe('Answer is CORRECT');
    expect(await judge('strict')).toBe('Answer is INCORRECT');
  });
});

describe('answerMatches: more cases', () => {
  it.each([
    ['inf', 'Infinity', true],
    ['$1,083 ', '1083', true],
    ['1 699', '1699', false],
    ['1\u00a0699', '1699', false],
    ['New\u00a0York', 'new york', true],
    ['ÑANDÚ', 'ñandú', true],
    ['éa', 'é', false],
    ['Café the', 'café', true],
    ['x', 'x’', false],
    ['usd', '', true],
    ['USD', 'usd', true],
    ['the_a', 'thea', true],
    ['Δ the δ', 'δ δ', true],
    ['-1e-05', '-0.00001', true],
    ['0x10', '16', false],
    ['Y, X', 'X, Y', false],
    ['B, A', 'A, B', true], // "a" is an article: both sides normalise to "b"
  ])('%j vs %j → %s', (gold, prediction, want) => {
    expect(answerMatches(gold, prediction)).toBe(want);
  });

  it('converts both sides with Python str()', () => {
    expect(answerMatches(17, '17')).toBe(true);
    expect(answerMatches(new PyFloat(147), '147')).toBe(true);
    expect(answerMatches(new PyFloat(147), '147 apples')).toBe(false);
    // "5.0%" is not a number; as strings "50" (from 5.0) equals "50" but "5" does not.
    expect(answerMatches({ type: 'float', value: 5 }, '5.0%')).toBe(true);
    expect(answerMatches({ type: 'int', value: 5 }, '5.0%')).toBe(false);
    expect(answerMatches(5, '5.0%')).toBe(false);
    expect(answerMatches(['a', 'b'], "['a', 'b']")).toBe(true);
    expect(answerMatches(['a', 'b'], 'a b')).toBe(true);
    expect(answerMatches(true, 'true')).toBe(true);
    expect(answerMatches(null, 'none')).toBe(true);
  });

  it('judges decoded Finish answers by their Python type', () => {
    const answer = (json: string) => {
      const r = pyJsonLoads(json);
      if (!r.ok || !(r.value instanceof PyDict)) throw new Error('bad json');
      return r.value.entries[0]?.[1];
    };
    expect(pythonStr(answer('{"answer": 12323}'))).toBe('12323');
    expect(pythonStr(answer('{"answer": 22.50}'))).toBe('22.5');
    expect(pythonStr(answer('{"answer": ["a", "b"]}'))).toBe("['a', 'b']");
    expect(pythonStr(answer('{"answer": null}'))).toBe('None');
    expect(answerMatches('12323', answer('{"answer": 12323.0}'))).toBe(true);
    expect(answerMatches('1', answer('{"answer": true}'))).toBe(false);
  });

  it('maps JS values onto Python values', () => {
    expect(pythonStr(100)).toBe('100');
    expect(pythonStr(2.5)).toBe('2.5');
    expect(pythonStr(new PyFloat(100))).toBe('100.0');
    expect(pythonStr({ type: 'float', value: 3 })).toBe('3.0');
    expect(pythonStr({ type: 'int', value: 3 })).toBe('3');
    expect(pythonStr(undefined)).toBe('None');
    expect(pythonStr(new PyTuple(['x', new PyInt(1)]))).toBe("('x', 1)");
    expect(pythonStr({ b: 1, a: 'x' })).toBe("{'b': 1, 'a': 'x'}");
    expect(toPython(2 ** 60)).toBeInstanceOf(PyFloat);
  });

  it('normalises like ToolEVO', () => {
    expect(normalizeAnswer('  The  Batcade,   Studios! ')).toBe('batcade studios');
    expect(normalizeAnswer('an apple a day')).toBe('apple day');
    expect(normalizeAnswer('A-B')).toBe('ab');
    expect(normalizeAnswer('“Quoted”')).toBe('“quoted”');
  });
});
