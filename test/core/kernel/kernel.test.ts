import { describe, expect, it } from 'vitest';
import { PyDict, PyFloat, PyInt } from '../../../core/util/python-format.ts';
import {
  callKernel,
  KERNEL_TOOL_NAMES,
  KERNEL_TOOL_PARAMS,
  type KernelDeps,
  type KernelToolName,
  truncateObservation,
} from '../../../core/world/kernel/kernel.ts';
import {
  ANSWER_CORRECT,
  ANSWER_INCORRECT,
  ANSWER_UNJUDGED,
  INVALID_ACTION,
  PYTHON_PRINT_HINT,
  RETRIEVE_NO_MATCH,
  SQL_ERROR,
  UPDATE_TOOL_FAILED,
  UPDATE_TOOL_SUCCESS,
} from '../../../core/world/kernel/messages.ts';
import { countLoad, countStep, initialState } from '../../../core/world/kernel/state.ts';
import { fixtureWorld, lastObservation, noInterpreters, run } from './fixtures.ts';

const world = fixtureWorld();

describe('RetrieveAgenda / RetrieveScirex', () => {
  it('returns the three best passages joined by newlines, stripped', async () => {
    const obs = await lastObservation(world, [
      ['RetrieveAgenda', { keyword: 'Joshua Gym Workout 2022/06/03' }],
    ]);
    const lines = obs.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'On June 3rd 2022, Joshua goes to the gym for a workout at LA Fitness from 6 PM to 7:30 PM.',
    );
    expect(lines).toContain(
      'Joshua attends a fitness class on May 11th, 2022 at the YMCA. He loves the gym.',
    );
  });

  it('strips surrounding whitespace of the joined text', async () => {
    const obs = await lastObservation(world, [
      ['RetrieveAgenda', { keyword: 'William sales pitch presentation Hilton Chicago 2022/07/05' }],
    ]);
    expect(obs.startsWith('William gives a sales pitch presentation')).toBe(true);
  });

  it('always returns 3 passages, even for an unrelated keyword', async () => {
    const obs = await lastObservation(world, [['RetrieveScirex', { keyword: 'zzz qqq' }]]);
    expect(obs.split('\n')).toEqual([
      'section : Abstract We propose EAST , an efficient scene text detector .',
      'section : Results EAST achieves an F - measure 80.72 % on ICDAR 2015 .',
      'section : Experiments FRRN obtains Mean IoU 71.8 on Cityscapes .',
    ]);
  });

  it('ranks scirex passages by the keyword', async () => {
    const obs = await lastObservation(world, [
      ['RetrieveScirex', { keyword: 'Mean_IoU score of the FRRN method' }],
    ]);
    expect(obs.split('\n')[0]).toBe('section : Experiments FRRN obtains Mean IoU 71.8 on Cityscapes .');
  });

  it('answers a non-string keyword with the no-information message', async () => {
    const [r] = await run(world, [['RetrieveAgenda', { keyword: new PyInt(3) }]]);
    expect(r?.observation).toBe(
      'There is no information that can be matched in the database. Please try another query.',
    );
    expect(r?.outcome).toEqual({ kind: 'error', reason: 'no-match' });
    expect(await lastObservation(world, [['RetrieveScirex', { keyword: ['EAST'] }]])).toBe(RETRIEVE_NO_MATCH);
  });
});

describe('SQLInterpreter', () => {
  const deps = (result: string | Error): KernelDeps => ({
    ...noInterpreters,
    sql: (sql) =>
      result instanceof Error ? Promise.reject(result) : Promise.resolve(`${result}${sql.length}`),
  });

  it('returns the interpreter output unchanged (an empty result gives an empty observation)', async () => {
    expect(await lastObservation(world, [['SQLInterpreter', { SQL: 'SELECT 1' }]], deps('Volume: '))).toBe(
      'Volume: 8',
    );
    const [r] = await run(world, [['SQLInterpreter', { SQL: 'SELECT 1' }]], {
      ...noInterpreters,
      sql: () => Promise.resolve(''),
    });
    expect(r?.observation).toBe('');
    expect(r?.outcome).toEqual({ kind: 'ok' });
  });

  it('maps any failure and non-string SQL to the SQL error', async () => {
    expect(
      await lastObservation(world, [['SQLInterpreter', { SQL: 'SELEC' }]], deps(new Error('syntax'))),
    ).toBe('There is something wrong with the SQL command you send. Please modify it.');
    expect(await lastObservation(world, [['SQLInterpreter', { SQL: new PyInt(1) }]], deps('x'))).toBe(
      SQL_ERROR,
    );
  });
});

describe('PythonInterpreter', () => {
  // A fake interpreter: the namespace is a list of executed snippets; `print(x)` prints x with padding.
  const fake: KernelDeps = {
    ...noInterpreters,
    python: (code, namespace) => {
      const history = Array.isArray(namespace) ? namespace : [];
      const m = /^print\((.*)\)$/.exec(code);
      return { observation: m ? `  ${m[1]}\n` : '', namespace: [...history, code] };
    },
  };

  it('strips the output and threads the namespace through the state', async () => {
    const rs = await run(
      world,
      [
        ['PythonInterpreter', { Python: 'x = 5' }],
        ['PythonInterpreter', { Python: 'print(x)' }],
      ],
      fake,
    );
    expect(rs[0]?.observation).toBe(PYTHON_PRINT_HINT);
    expect(rs[0]?.observation).toBe('You should print the variable you want to obtain the python result.');
    expect(rs[0]?.outcome).toEqual({ kind: 'error', reason: 'python-no-output' });
    expect(rs[1]?.observation).toBe('x');
    expect(rs[1]?.state.python).toEqual(['x = 5', 'print(x)']);
  });

  it('reports non-string code like the original sanitiser (re.sub on a non-string)', async () => {
    expect(await lastObservation(world, [['PythonInterpreter', { Python: new PyInt(5) }]], fake)).toBe(
      "TypeError: expected string or bytes-like object, got 'int'",
    );
    expect(await lastObservation(world, [['PythonInterpreter', { Python: new PyDict([]) }]], fake)).toBe(
      "TypeError: expected string or bytes-like object, got 'dict'",
    );
  });

  it('wraps an interpreter crash', async () => {
    const broken: KernelDeps = {
      ...noInterpreters,
      python: () => Promise.reject(new Error('worker died')),
    };
    expect(await lastObservation(world, [['PythonInterpreter', { Python: 'print(1)' }]], broken)).toBe(
      'An error occurred: worker died',
    );
  });
});

describe('Finish', () => {
  it('judges the answer against the gold with the EM rules and ends the episode', async () => {
    const deps: KernelDeps = { ...noInterpreters, gold: '1699 ' };
    const [r] = await run(world, [['Finish', { answer: '1,699.000 USD' }]], deps);
    expect(r?.observation).toBe('Answer is CORRECT');
    expect(r?.outcome).toEqual({ kind: 'finished', correct: true });
    expect(r?.state).toMatchObject({ finished: true, answer: '1,699.000 USD', correct: true });
  });

  it('stores the answer as Python str() and judges typed gold numbers', async () => {
    const deps: KernelDeps = { ...noInterpreters, gold: { type: 'float', value: 5 } };
    const [r] = await run(world, [['Finish', { answer: new PyFloat(5) }]], deps);
    expect(r?.state.answer).toBe('5.0');
    expect(r?.observation).toBe(ANSWER_CORRECT);
    const [wrong] = await run(world, [['Finish', { answer: new PyInt(6) }]], deps);
    expect(wrong?.observation).toBe('Answer is INCORRECT');
    expect(wrong?.outcome).toEqual({ kind: 'finished', correct: false });
    // ToolEVO's EM (the default) lets differing numbers fall through to the string test, where '5.0' and '50'
    // normalise alike; the strict rule keeps them apart (answer-match.test.ts pins both rules).
    const [quirk] = await run(world, [['Finish', { answer: new PyInt(50) }]], deps);
    expect(quirk?.observation).toBe(ANSWER_CORRECT);
    const [strict] = await run(world, [['Finish', { answer: new PyInt(50) }]], {
      ...deps,
      numbers: 'strict',
    });
    expect(strict?.observation).toBe('Answer is INCORRECT');
  });

  it('is not judged when no gold answer is known: not correct, and its observation does not say incorrect', async () => {
    const [r] = await run(world, [['Finish', { answer: 'x' }]]);
    expect(r?.observation).toBe(ANSWER_UNJUDGED);
    expect(r?.observation).not.toBe(ANSWER_INCORRECT);
    expect(r?.outcome).toEqual({ kind: 'finished', correct: false });
    expect(r?.state.finished).toBe(true);
  });
});

describe('UpdateTool', () => {
  it('appends trimmed descriptions numbered from (14) on this path', async () => {
    const rs = await run(world, [
      ['UpdateTool', { newtool_desc: '  Apply_Database_Filters[condition1], which filters.\n' }],
      ['UpdateTool', { newtool_desc: 'FetchValue_ByKey[column, ReturnResult], which gets values.' }],
    ]);
    expect(rs[0]?.observation).toBe('The description for the new tool has been updated successfully.');
    expect(rs[1]?.observation).toBe(UPDATE_TOOL_SUCCESS);
    expect(rs[1]?.state.newTools).toEqual([
      '(14) Apply_Database_Filters[condition1], which filters.',
      '(15) FetchValue_ByKey[column, ReturnResult], which gets values.',
    ]);
  });

  it('fails for non-string descriptions', async () => {
    const [r] = await run(world, [['UpdateTool', { newtool_desc: new PyDict([['a', 'b']]) }]]);
    expect(r?.observation).toBe(
      'Tool update failed. There is something wrong with the arguments you send for UpdateTool. Please modify it.',
    );
    expect(r?.observation).toBe(UPDATE_TOOL_FAILED);
    expect(r?.state.newTools).toEqual([]);
  });
});

describe('common processing', () => {
  it('truncates to 1024 whitespace tokens joined by single spaces plus " ..."', () => {
    const words = Array.from({ length: 1100 }, (_, i) => `w${i}`);
    const text = words.join('\n\t ');
    expect(truncateObservation(text)).toBe(`${words.slice(0, 1024).join(' ')} ...`);
    const exact = words.slice(0, 1024).join('\n');
    expect(truncateObservation(exact)).toBe(exact);
    expect(truncateObservation('a\u00a0b c', 2)).toBe('a b ...');
  });

  it('applies truncation to retrieval output', async () => {
    const long = Array.from({ length: 700 }, (_, i) => `token${i}`).join(' ');
    const w = fixtureWorld({
      agendaPassages: [
        { id: 'a', text: long },
        { id: 'b', text: long },
        { id: 'c', text: long },
      ],
    });
    const obs = await lastObservation(w, [['RetrieveAgenda', { keyword: 'token1' }]]);
    expect(obs.split(' ')).toHaveLength(1025);
    expect(obs.endsWith(' token323 ...')).toBe(true);
  });

  it('answers an unknown kernel tool name with the invalid-action message', async () => {
    const r = await callKernel(
      world,
      initialState(),
      { tool: 'Calculate' as KernelToolName, args: {} },
      noInterpreters,
    );
    expect(r.observation).toBe(INVALID_ACTION);
  });

  it('falls back to the tool wrapper message when the world is broken', async () => {
    const broken = fixtureWorld();
    (broken.tables as Record<string, unknown>).coffee = undefined;
    expect(await lastObservation(broken, [['LoadDB', { DBName: 'coffee' }]])).toBe(
      'The database you want to query in not in the list. Please change another database for query.',
    );
  });

  it('lists the 13 kernel tools with their P_c parameters', () => {
    expect(KERNEL_TOOL_NAMES).toHaveLength(13);
    expect(KERNEL_TOOL_PARAMS.EdgeCheck).toEqual(['GraphName', 'Node1', 'Node2']);
  });

  it('counts steps and loads; helpers count steps that never reach the kernel', () => {
    const s = countLoad(countStep(initialState()));
    expect(s).toMatchObject({ steps: 1, loads: 1 });
  });

  it('is deterministic: the same calls give the same observations and states', async () => {
    const calls: [KernelToolName, Record<string, unknown>][] = [
      ['LoadDB', { DBName: 'flights' }],
      ['FilterDB', { condition: 'Distance>300, Origin=ATL' }],
      ['GetValue', { column_name: 'Dest, Distance' }],
      ['RetrieveAgenda', { keyword: 'Mia breakfast' }],
      ['NeighbourCheck', { GraphName: 'AuthorNet', Node: 'Ning Li' }],
    ];
    const a = await run(fixtureWorld(), calls);
    const b = await run(fixtureWorld(), calls);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });
});
