/**
 * The adapter's step mechanics beyond the per-tool conformance: ReAct parsing and JSON decoding failures, the
 * direct {action, actionInput} forms, step and load bookkeeping, truncation, the wrapped response format,
 * lifecycle (deprecated / sunset tools) and surface validation.
 */
import { describe, expect, it } from 'vitest';
import {
  formatObservation,
  resolveCall,
  stepSurface,
  toolStatus,
  validateSurface,
} from '../../../core/surfaces/adapter.ts';
import {
  BUILTIN_SURFACES,
  PC_SURFACE,
  S_IN_SURFACE,
  S_OOD_ALT_SURFACE,
} from '../../../core/surfaces/builtin.ts';
import type { Surface, SurfaceTool } from '../../../core/surfaces/model.ts';
import { PyDict, PyFloat, PyInt } from '../../../core/util/python-format.ts';
import type { KernelDeps } from '../../../core/world/kernel/kernel.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { fixtureWorld } from '../kernel/fixtures.ts';
import { echoDeps, PATHS, reactText, step } from './surface-fixtures.ts';

const world = fixtureWorld();
const FILTERED =
  'Your action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.';
const FILTERED_GPT =
  'You action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.';
const COFFEE_LOADED =
  'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.';

describe('unparsable steps', () => {
  it('answer the surface\'s "filtered" text, cost a step and nothing else', async () => {
    for (const s of BUILTIN_SURFACES) {
      const got = await stepSurface(world, s, initialState(), 'Thought: x\nAction: LoadDB[coffee]', echoDeps);
      expect(got.observation).toBe(s.id === 's-ood-alt' ? FILTERED_GPT : FILTERED);
      expect(got.outcome).toEqual({ kind: 'rejected', reason: 'filtered' });
      expect(got.state).toEqual({ ...initialState(), steps: 1 });
      expect(got.action).toBeUndefined();
    }
  });

  it('include an empty action name or Action Input given directly', async () => {
    const blank = await stepSurface(
      world,
      PC_SURFACE,
      initialState(),
      { action: ' \n', actionInput: '{"a": 1}' },
      echoDeps,
    );
    const noInput = await stepSurface(
      world,
      PC_SURFACE,
      initialState(),
      { action: 'LoadDB', actionInput: '  ' },
      echoDeps,
    );
    expect(blank.observation).toBe(FILTERED);
    expect(noInput.observation).toBe(FILTERED);
    expect(noInput.state.loads).toBe(0);
  });
});

describe('Action Input decoding', () => {
  it.each(PATHS)('answers `argument error: …` with the Python decoder message (%s)', async (path) => {
    const got = await step(
      world,
      S_IN_SURFACE,
      initialState(),
      path,
      'FetchScirexData',
      "{'QueryText': 'EAST'}",
    );
    expect(got.observation).toBe(
      'argument error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
    );
    expect(got.outcome).toEqual({ kind: 'rejected', reason: 'argument-error' });
    expect(got.action).toBe('FetchScirexData');
    expect(got.state).toEqual({ ...initialState(), steps: 1 });
  });

  it('counts a load when the name is a load tool of the surface, even if its input does not decode (§8.2)', async () => {
    const bad = '{"DatabaseName": "coffee",}';
    const load = await step(world, S_IN_SURFACE, initialState(), 'react', 'InitializeDatabase', bad);
    const oldLoad = await step(world, S_IN_SURFACE, initialState(), 'react', 'LoadDB', bad);
    const unknown = await step(world, S_IN_SURFACE, initialState(), 'react', 'Init_DB', bad);
    expect(load.observation).toBe(
      'argument error: Expecting property name enclosed in double quotes: line 1 column 27 (char 26)',
    );
    expect(load.state.loads).toBe(1);
    expect(oldLoad.state.loads).toBe(1);
    expect(unknown.state.loads).toBe(0);
  });

  it('accepts decoded objects: a PyDict keeps its key order, a plain record its property order', async () => {
    const dict = new PyDict([
      ['column1', 'Date'],
      ['ReturnResult', true],
      ['column3', 'Close'],
    ]);
    const state = (await step(world, PC_SURFACE, initialState(), 'direct', 'LoadDB', '{"DBName": "coffee"}'))
      .state;
    const viaDict = await stepSurface(
      world,
      S_IN_SURFACE,
      state,
      { action: 'FetchValue_ByKey', actionInput: dict },
      echoDeps,
    );
    const viaRecord = await stepSurface(
      world,
      S_IN_SURFACE,
      state,
      {
        action: 'FetchValue_ByKey',
        actionInput: { column1: 'Date', ReturnResult: 'True', column3: 'Close' },
      },
      echoDeps,
    );
    expect(viaDict.call).toEqual({ tool: 'GetValue', args: { column_name: 'Date, Close' } });
    expect(viaRecord.observation).toBe(viaDict.observation);
    const reordered = await stepSurface(
      world,
      S_IN_SURFACE,
      state,
      {
        action: 'FetchValue_ByKey',
        actionInput: { column3: 'Close', column1: 'Date', ReturnResult: 'True' },
      },
      echoDeps,
    );
    expect(reordered.observation).toBe(
      'There is something wrong with the arguments you send for getting value. Please modify it.',
    );
  });

  it('rejects a decoded value that is not an object, and trims the action name', async () => {
    const list = await stepSurface(
      world,
      PC_SURFACE,
      initialState(),
      { action: 'LoadDB', actionInput: ['coffee'] as never },
      echoDeps,
    );
    expect(list.observation).toBe('argument error: the action input must be a JSON object, not list');
    expect(list.state.loads).toBe(1);
    const trimmed = await stepSurface(
      world,
      PC_SURFACE,
      initialState(),
      { action: '\n LoadDB ', actionInput: { DBName: 'coffee' } },
      echoDeps,
    );
    expect(trimmed.observation).toBe(COFFEE_LOADED);
    expect(trimmed.action).toBe('LoadDB');
  });
});

describe('Python values in arguments', () => {
  it('compares flags with Python ==: 1 and 1.0 are True, "1" is not', () => {
    const call = (flag: unknown) =>
      resolveCall(S_IN_SURFACE, 'Verify_NeighbourNodes', {
        Graph_Name: 'AuthorNet',
        graphNode: 'Ning Li',
        ReturnResult: flag,
      });
    for (const ok of [true, 'True', 'true', new PyInt(1), new PyFloat(1), 1, new PyInt(1n)]) {
      expect(call(ok).kind, String(ok)).toBe('call');
    }
    for (const bad of ['1', 'TRUE', false, new PyInt(2), 0, null, ['True']]) {
      const r = call(bad);
      expect(r.kind === 'rejected' && r.observation, String(bad)).toBe(
        'There is something wrong with the params you send. Please modify it.',
      );
    }
  });

  it('passes renamed values unchanged (Finish compares them through Python str())', async () => {
    const r = resolveCall(PC_SURFACE, 'Finish', new PyDict([['answer', new PyFloat(12)]]));
    expect(r.kind === 'call' && r.call.args.answer).toEqual(new PyFloat(12));
    const wrong = await stepSurface(
      world,
      PC_SURFACE,
      initialState(),
      reactText('Finish', '{"answer": 12.0}'),
      {
        ...echoDeps,
        gold: { type: 'int', value: 13 },
      },
    );
    expect(wrong.outcome).toEqual({ kind: 'finished', correct: false });
    expect(wrong.state.answer).toBe('12.0');
  });
});

describe('truncation', () => {
  const longDeps: KernelDeps = {
    ...echoDeps,
    python: (_code, namespace) => ({
      observation: Array.from({ length: 1500 }, (_, i) => `w${i}`).join('\n'),
      namespace,
    }),
  };

  it('cuts a kernel observation to 1024 tokens plus ` ...` on every surface', async () => {
    const inputs: Record<string, [string, string]> = {
      pc: ['PythonInterpreter', '{"Python": "x"}'],
      's-in': ['Execute_Python_Script', '{"PythonCode": "The Python code is as follows: x"}'],
    };
    for (const [id, [name, input]] of Object.entries(inputs)) {
      const s = BUILTIN_SURFACES.find((b) => b.id === id) as Surface;
      const got = await step(world, s, initialState(), 'react', name, input, longDeps);
      const tokens = got.observation.split(' ');
      expect(tokens).toHaveLength(1025);
      expect(tokens[1023]).toBe('w1023');
      expect(tokens[1024]).toBe('...');
    }
  });

  it('cuts the surface\'s own answers too, but never the "filtered" text', async () => {
    const long = Array.from({ length: 1100 }, () => 'no').join(' ');
    const noisy: Surface = { ...PC_SURFACE, messages: { invalidAction: long, filtered: `${long} filtered` } };
    const invalid = await step(world, noisy, initialState(), 'react', 'Nope', '{"a": 1}');
    expect(invalid.observation).toBe(`${Array.from({ length: 1024 }, () => 'no').join(' ')} ...`);
    const filtered = await stepSurface(world, noisy, initialState(), 'no action here', echoDeps);
    expect(filtered.observation).toBe(`${long} filtered`);
  });
});

describe('wrapped response format', () => {
  const wrapped: Surface = {
    ...PC_SURFACE,
    id: 'pc-wrapped',
    response: {
      kind: 'wrapped',
      stateKey: 'State',
      messageKey: 'Message',
      success: 'Success',
      failure: 'Failure',
    },
  };

  it('renders {"State": …, "Message": …} with json.dumps conventions', async () => {
    const ok = await step(world, wrapped, initialState(), 'react', 'LoadDB', '{"DBName": "coffee"}');
    expect(ok.observation).toBe(`{"State": "Success", "Message": "${COFFEE_LOADED}"}`);
    const kernelError = await step(world, wrapped, initialState(), 'react', 'LoadDB', '{"DBName": "tea"}');
    expect(kernelError.observation).toBe(
      '{"State": "Failure", "Message": "The database you want to query in not in the list. Please change another database for query."}',
    );
    const invalid = await step(world, wrapped, initialState(), 'direct', 'Load', '{"DBName": "coffee"}');
    expect(JSON.parse(invalid.observation)).toEqual({
      State: 'Failure',
      Message: PC_SURFACE.messages.invalidAction,
    });
    const filtered = await stepSurface(world, wrapped, initialState(), 'nothing', echoDeps);
    expect(filtered.observation).toBe(`{"State": "Failure", "Message": "${FILTERED}"}`);
  });

  it('escapes quotes, line breaks and non-ASCII; a judged Finish is a success either way', async () => {
    const deps: KernelDeps = {
      ...echoDeps,
      python: (_c, namespace) => ({ observation: 'café\n"quoted"\t✓', namespace }),
    };
    const py = await step(
      world,
      wrapped,
      initialState(),
      'react',
      'PythonInterpreter',
      '{"Python": "x"}',
      deps,
    );
    expect(py.observation).toBe('{"State": "Success", "Message": "caf\\u00e9\\n\\"quoted\\"\\t\\u2713"}');
    const finish = await step(world, wrapped, initialState(), 'react', 'Finish', '{"answer": "nope"}');
    expect(finish.observation).toBe('{"State": "Success", "Message": "Answer is INCORRECT"}');
    expect(formatObservation({ kind: 'plain' }, 'x', false)).toBe('x');
  });
});

describe('load bookkeeping (§8.2)', () => {
  it('counts the load tools of the surface whatever the outcome, and nothing else', async () => {
    const cases: [Surface, string, string, number][] = [
      [S_IN_SURFACE, 'InitializeDatabase', '{"DatabaseName": "coffee"}', 1],
      [S_IN_SURFACE, 'InitializeDatabase', '{"DatabaseName": "tea"}', 1],
      [S_IN_SURFACE, 'InitializeDatabase', '{"Database": "coffee"}', 1],
      [S_IN_SURFACE, 'InitializeGraphData', '{"Graph_Name": "dblp"}', 1],
      [S_IN_SURFACE, 'LoadGraph', '{"GraphName": "dblp"}', 1],
      [S_IN_SURFACE, 'FetchScirexData', '{"QueryText": "EAST"}', 0],
      [S_OOD_ALT_SURFACE, 'Init_LocalDB', '{"databaseIdentifier": "coffee"}', 1],
      [S_OOD_ALT_SURFACE, 'ImportGraph', '{"Graph": "dblp"}', 1],
      [S_OOD_ALT_SURFACE, 'Init_DB', '{"databaseIdentifier": "coffee"}', 0],
      [PC_SURFACE, 'InitializeDatabase', '{"DatabaseName": "coffee"}', 0],
    ];
    for (const [s, name, input, loads] of cases) {
      const got = await step(world, s, initialState(), 'react', name, input);
      expect(got.state.loads, `${s.id} ${name} ${input}`).toBe(loads);
      expect(got.state.steps).toBe(1);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Lifecycle

const openDatabase: SurfaceTool = {
  kernel: 'LoadDB',
  name: 'OpenDatabase',
  params: [{ kind: 'rename', name: 'db', kernel: 'DBName', description: 'The database.' }],
  keyMismatch: 'param-error',
  description: 'which opens the database db.',
  example: { db: 'flights' },
  lifecycle: { status: 'active' },
};

function withInitializeDatabase(lifecycle: SurfaceTool['lifecycle']): Surface {
  return {
    ...S_IN_SURFACE,
    id: 's-in-lifecycle',
    tools: [
      ...S_IN_SURFACE.tools.map((t) => (t.name === 'InitializeDatabase' ? { ...t, lifecycle } : t)),
      openDatabase,
    ],
  };
}

const SUNSET_MESSAGE =
  'Error: InitializeDatabase[DatabaseName] is deprecated and will be removed in future releases. Use OpenDatabase[db], param example: {"db": "flights"} instead.';

describe('lifecycle', () => {
  const dated = withInitializeDatabase({
    status: 'active',
    deprecatedAt: '2026-03-01',
    sunsetAt: '2026-06-01T00:00:00Z',
    successor: 'OpenDatabase',
  });

  it('serves a deprecated tool and reports it', async () => {
    const s = withInitializeDatabase({
      status: 'deprecated',
      sunsetAt: '2026-06-01',
      successor: 'OpenDatabase',
    });
    const got = await step(
      world,
      s,
      initialState(),
      'react',
      'InitializeDatabase',
      '{"DatabaseName": "coffee"}',
    );
    expect(got.observation).toBe(COFFEE_LOADED);
    expect(got.outcome).toEqual({ kind: 'ok' });
    expect(got.deprecation).toEqual({
      tool: 'InitializeDatabase',
      status: 'deprecated',
      successor: 'OpenDatabase',
      sunsetAt: '2026-06-01',
    });
    const wrongKeys = await step(world, s, initialState(), 'react', 'InitializeDatabase', '{"db": "coffee"}');
    expect(wrongKeys.observation).toBe(
      'There is something wrong with your command you send. Please modify it.',
    );
    expect(wrongKeys.deprecation?.status).toBe('deprecated');
  });

  it('follows the dates when the caller gives the time, and only then', async () => {
    const before = new Date('2026-02-28T23:59:59Z');
    const during = new Date('2026-03-01T00:00:00Z');
    const after = new Date('2026-06-01T00:00:00Z');
    const tool = dated.tools.find((t) => t.name === 'InitializeDatabase') as SurfaceTool;
    expect([
      toolStatus(tool),
      toolStatus(tool, before),
      toolStatus(tool, during),
      toolStatus(tool, after),
    ]).toEqual(['active', 'active', 'deprecated', 'sunset']);
    const served = await step(
      world,
      dated,
      initialState(),
      'react',
      'InitializeDatabase',
      '{"DatabaseName": "coffee"}',
      echoDeps,
      during,
    );
    expect(served.observation).toBe(COFFEE_LOADED);
    expect(served.deprecation).toEqual({
      tool: 'InitializeDatabase',
      status: 'deprecated',
      successor: 'OpenDatabase',
      deprecatedAt: '2026-03-01',
      sunsetAt: '2026-06-01T00:00:00Z',
    });
    const gone = await step(
      world,
      dated,
      initialState(),
      'direct',
      'InitializeDatabase',
      '{"DatabaseName": "coffee"}',
      echoDeps,
      after,
    );
    expect(gone.observation).toBe(SUNSET_MESSAGE);
    expect(gone.outcome).toEqual({ kind: 'rejected', reason: 'retired' });
    expect(gone.deprecation?.status).toBe('sunset');
    expect(gone.state).toEqual({ ...initialState(), steps: 1, loads: 1 });
  });

  it('answers a sunset tool like a retired name, or as unknown when nothing replaces it', async () => {
    const sunset = withInitializeDatabase({ status: 'sunset', successor: 'OpenDatabase' });
    const got = await step(world, sunset, initialState(), 'react', 'InitializeDatabase', '{"anything": 1}');
    expect(got.observation).toBe(SUNSET_MESSAGE);
    const orphan = withInitializeDatabase({ status: 'sunset' });
    const none = await step(
      world,
      orphan,
      initialState(),
      'react',
      'InitializeDatabase',
      '{"DatabaseName": "coffee"}',
    );
    expect(none.observation).toBe(S_IN_SURFACE.messages.invalidAction);
    expect(none.outcome).toEqual({ kind: 'rejected', reason: 'invalid-action' });
    const elsewhere = withInitializeDatabase({ status: 'sunset', successor: 'Somewhere' });
    const named = resolveCall(elsewhere, 'InitializeDatabase', {});
    expect(named.kind === 'rejected' && named.observation).toBe(
      'Error: InitializeDatabase[DatabaseName] is deprecated and will be removed in future releases. Use Somewhere instead.',
    );
  });
});

describe('validateSurface', () => {
  it('finds nothing wrong with the built-in surfaces', () => {
    for (const s of BUILTIN_SURFACES) expect(validateSurface(s), s.id).toEqual([]);
  });

  it('reports duplicate names, uncovered kernel parameters, bad examples and dangling successors', () => {
    const broken: Surface = {
      ...S_IN_SURFACE,
      tools: [
        ...S_IN_SURFACE.tools,
        { ...openDatabase, name: 'FetchScirexData' },
        { ...openDatabase, name: 'Half', kernel: 'EdgeCheck' },
        { ...openDatabase, name: 'BadExample', example: { database: 'flights' } },
        { ...openDatabase, name: 'Next', lifecycle: { status: 'deprecated', successor: 'Nowhere' } },
        {
          ...openDatabase,
          name: 'Clash',
          kernel: 'FilterDB',
          params: [
            { kind: 'numbered', prefix: 'c', kernel: 'condition', joiner: ', ', description: '' },
            { kind: 'flag', name: 'c2', accepted: [], optional: true, description: '' },
          ],
          example: { c1: 'x' },
        },
      ],
    };
    expect(validateSurface(broken)).toEqual([
      'name FetchScirexData is used twice',
      'Half: kernel arguments DBName do not match EdgeCheck[GraphName, Node1, Node2]',
      'BadExample: the example does not resolve: There is something wrong with your command you send. Please modify it.',
      'Next: successor Nowhere is not a tool of the surface',
      'Clash: flag c2 accepts nothing',
      'Clash: parameter c2 collides with the numbered keys c1, c2, …',
    ]);
  });
});
