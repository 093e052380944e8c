/**
 * How the simulated policy reads its prompt: observations (rejections, deprecation messages, wrappers), tool
 * documentation and param examples (call shapes), and the prompt layout.
 */
import { describe, expect, it } from 'vitest';
import { reactStepText } from '../../../core/prompts/react-format.ts';
import { renderReflectionPrompt } from '../../../core/prompts/reflection.ts';
import { renderToolEvoPrompt } from '../../../core/prompts/toolevo.ts';
import { announcedShape, kernelOfToolLine, readHistory } from '../../../core/sim/knowledge.ts';
import { classifyObservation, parseDeprecation, unwrapObservation } from '../../../core/sim/observations.ts';
import { parseToolLine, readPrompt } from '../../../core/sim/prompt-reader.ts';
import { matchQuestion } from '../../../core/sim/questions.ts';
import { codePrefix, docEntries, inferShape, renderCall } from '../../../core/sim/shapes.ts';
import { formatObservation, resolveCall } from '../../../core/surfaces/adapter.ts';
import {
  BUILTIN_SURFACES,
  PC_SURFACE,
  S_IN_SURFACE,
  S_OOD_ALT_SURFACE,
  S_OOD_SURFACE,
} from '../../../core/surfaces/builtin.ts';
import { renderToolList } from '../../../core/surfaces/docs.ts';
import { DRIFT_KINDS, generateSurface } from '../../../core/surfaces/drift/index.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import type { KernelCall } from '../../../core/world/kernel/kernel.ts';
import {
  ACTION_FILTERED,
  ACTION_FILTERED_GPT,
  EDGE_ARGUMENTS_WRONG,
  INVALID_ACTION,
  NODE_NOT_EXIST,
  PARAM_ERROR_COMMAND,
  PARAM_ERROR_PYTHON_COMMAND,
  RETRIEVE_NO_MATCH,
} from '../../../core/world/kernel/messages.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { renderQuestion } from '../../../core/world/tasks/types.ts';

/** The P_c example call of every domain tool (what the drifted examples are translated from). */
const PC_CALLS: KernelCall[] = PC_SURFACE.tools.map((t) => ({ tool: t.kernel, args: { ...t.example } }));

const GENERATED: Surface[] = ['a', 'b', 'c', 'd', 'e'].flatMap((seed) => [
  generateSurface(PC_SURFACE, { seed, kinds: [...DRIFT_KINDS] }),
  generateSurface(PC_SURFACE, { seed, kinds: ['rename-tool', 'merge-params', 'structured-params'] }),
  generateSurface(S_OOD_SURFACE, { seed, kinds: ['rename-tool', 'rename-params', 'split-params', 'flags'] }),
]);

function expectResolvesTo(surface: Surface, name: string, args: [string, unknown][], call: KernelCall) {
  const resolved = resolveCall(surface, name, Object.fromEntries(args));
  if (resolved.kind !== 'call') {
    throw new Error(`${surface.id} ${name} ${JSON.stringify(args)}: ${resolved.observation}`);
  }
  expect(resolved.call.tool).toBe(call.tool);
  // Code after an untrimmed prefix keeps the space the policy writes after the prefix (SQL ignores it).
  const got = { ...resolved.call.args };
  if (typeof got.SQL === 'string') got.SQL = got.SQL.trimStart();
  expect(got).toEqual(call.args);
}

describe('observations', () => {
  it('recognise the rejections by their exact texts', () => {
    expect(classifyObservation(INVALID_ACTION).kind).toBe('invalid-action');
    expect(classifyObservation(ACTION_FILTERED).kind).toBe('filtered');
    expect(classifyObservation(ACTION_FILTERED_GPT).kind).toBe('filtered');
    expect(
      classifyObservation(
        'argument error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
      ).kind,
    ).toBe('argument-error');
    for (const m of [PARAM_ERROR_COMMAND, PARAM_ERROR_PYTHON_COMMAND, EDGE_ARGUMENTS_WRONG]) {
      expect(classifyObservation(m).kind).toBe('param-error');
    }
    expect(classifyObservation("expected string or bytes-like object, got 'dict'").kind).toBe('param-error');
  });

  it('tell tool results from tool errors', () => {
    expect(classifyObservation('We have successfully filtered the data (3 rows).')).toEqual({
      kind: 'result',
      error: false,
    });
    for (const m of [NODE_NOT_EXIST, RETRIEVE_NO_MATCH, "NameError: name 'x' is not defined"]) {
      expect(classifyObservation(m)).toEqual({ kind: 'result', error: true });
    }
    expect(classifyObservation('Answer is CORRECT')).toEqual({ kind: 'finish', correct: true });
  });

  it('read every deprecation message of the built-in surfaces, Python example with its line break included', () => {
    for (const surface of [S_IN_SURFACE, S_OOD_SURFACE, S_OOD_ALT_SURFACE]) {
      for (const r of surface.retired) {
        const d = parseDeprecation(r.message);
        expect(d?.oldName, r.message).toBe(r.name);
        expect(d?.replacement).toBe(r.successor);
        expect(d?.example?.length).toBeGreaterThan(0);
      }
    }
    const py = parseDeprecation(
      S_OOD_SURFACE.retired.find((r) => r.kernel === 'PythonInterpreter')?.message ?? '',
    );
    expect(py?.params).toEqual(['python_execute_Code']);
    expect(py?.example).toEqual([
      [
        'python_execute_Code',
        'This is the Python code: \nimport numpy as np\nprint(np.mean([247.0, 253.0, 230.0]))',
      ],
    ]);
  });

  it('read the quirky forms: no replacement name, no example', () => {
    expect(
      parseDeprecation(
        'Error: RetrieveScirex[keyword] is deprecated and will be removed in future releases. Use [queryKeyword], param example: {"queryKeyword": "F-Measure score of the EAST method"} instead.',
      )?.replacement,
    ).toBeNull();
    const empty = parseDeprecation(
      'Error: RetrieveAgenda[keyword] is deprecated and will be removed in future releases. Use Fetch_Agenda_Data[Query, return_num], param example:  instead.',
    );
    expect(empty?.replacement).toBe('Fetch_Agenda_Data');
    expect(empty?.params).toEqual(['Query', 'return_num']);
    expect(empty?.example).toBeNull();
  });

  it('unwrap wrapped responses and leave ordinary JSON results alone', () => {
    const wrapped = formatObservation(
      { kind: 'wrapped', stateKey: 'status', messageKey: 'Output', success: 'ok', failure: 'error' },
      'We have successfully filtered the data (3 rows).',
      true,
    );
    expect(unwrapObservation(wrapped)).toBe('We have successfully filtered the data (3 rows).');
    const getValue = '{"Open": "118.5", "Close": "120.1"}';
    expect(unwrapObservation(getValue)).toBe(getValue);
  });
});

describe('call shapes', () => {
  it('follow every param example of the built-in drifted surfaces', () => {
    for (const surface of [S_IN_SURFACE, S_OOD_SURFACE, S_OOD_ALT_SURFACE]) {
      for (const r of surface.retired) {
        const d = parseDeprecation(r.message);
        if (!d) throw new Error(r.message);
        const shape = announcedShape(d, r.kernel);
        const call = PC_CALLS.find((c) => c.tool === r.kernel) as KernelCall;
        expectResolvesTo(surface, r.successor, renderCall(shape ?? inferShape('', r.kernel, []), call), call);
      }
    }
  });

  it('follow the param examples of generated surfaces', () => {
    for (const surface of GENERATED) {
      for (const r of surface.retired) {
        const d = parseDeprecation(r.message);
        if (!d) throw new Error(r.message);
        const shape = announcedShape(d, r.kernel);
        if (!shape) throw new Error(`no shape in ${r.message}`);
        const call = PC_CALLS.find((c) => c.tool === r.kernel) as KernelCall;
        expectResolvesTo(surface, shape.name, renderCall(shape, call), call);
      }
    }
  });

  it('follow the tool documentation of every surface (signature and description only)', () => {
    for (const surface of [...BUILTIN_SURFACES, ...GENERATED]) {
      for (const line of renderToolList(surface).split('\n')) {
        const tool = parseToolLine(line);
        if (!tool) throw new Error(line);
        const kernel = kernelOfToolLine(tool);
        const served = surface.tools.find((t) => t.name === tool.name);
        expect(kernel, `${surface.id}: ${line}`).toBe(served?.kernel);
        if (kernel === null || kernel === 'Finish' || kernel === 'UpdateTool') continue;
        const call = PC_CALLS.find((c) => c.tool === kernel) as KernelCall;
        expectResolvesTo(
          surface,
          tool.name,
          renderCall(inferShape(tool.name, kernel, docEntries(tool)), call),
          call,
        );
      }
    }
  });

  it('split list values over numbered keys, keep flags and fill labelled brackets', () => {
    const filter = inferShape('F', 'FilterDB', [
      ['condition1', 'NAME=Chao Zhang'],
      ['condition2', 'Date<=2004-01-16'],
    ]);
    expect(renderCall(filter, { tool: 'FilterDB', args: { condition: 'a=1, b>2, c<3' } })).toEqual([
      ['condition1', 'a=1'],
      ['condition2', 'b>2'],
      ['condition3', 'c<3'],
    ]);
    const value = inferShape('V', 'GetValue', [
      ['fieldName1', 'price'],
      ['ReturnValue', 'True'],
    ]);
    expect(renderCall(value, { tool: 'GetValue', args: { column_name: 'Open, Close' } })).toEqual([
      ['fieldName1', 'Open'],
      ['fieldName2', 'Close'],
      ['ReturnValue', 'True'],
    ]);
    // v1 EdgeCheck: the graph key matches by name, the two node labels in order.
    const edge = inferShape('E', 'EdgeCheck', [
      ['Graph_Name', 'AuthorNet'],
      ['NodeInfos', 'FirstNode[Chao Zhang], SecondNode[Weihong Lin]'],
    ]);
    expect(
      renderCall(edge, { tool: 'EdgeCheck', args: { GraphName: 'PaperNet', Node1: 'A b', Node2: 'C' } }),
    ).toEqual([
      ['Graph_Name', 'PaperNet'],
      ['NodeInfos', 'FirstNode[A b], SecondNode[C]'],
    ]);
    // The graph label is found by its example value even when it comes last.
    const merged = inferShape('N', 'NodeCheck', [['Spec', 'Vertex[K. John], Network[AuthorNet]']]);
    expect(renderCall(merged, { tool: 'NodeCheck', args: { GraphName: 'PaperNet', Node: 'X' } })).toEqual([
      ['Spec', 'Vertex[X], Network[PaperNet]'],
    ]);
  });

  it('find literal code prefixes but not code that happens to contain a colon', () => {
    expect(codePrefix('The SQL code is as follows: SELECT 1')).toBe('The SQL code is as follows:');
    expect(codePrefix('Code (Python): print(1)')).toBe('Code (Python):');
    expect(codePrefix("print('Python: ' + x)")).toBeNull();
    expect(codePrefix("d = {'a': 1}\nprint(d)")).toBeNull();
    expect(codePrefix('for x in xs:\n  print(x)')).toBeNull();
  });
});

describe('prompt reading', () => {
  const question = 'At what price did coffee open on 2012-11-30?';
  const steps = [
    {
      text: reactStepText('I load.', 'LoadDB', '{"DBName": "coffee"}'),
      observation: S_OOD_SURFACE.retired.find((r) => r.kernel === 'LoadDB')?.message as string,
    },
    {
      text: reactStepText('I switch.', 'Init_DB', '{"databaseIdentifier": "coffee"}'),
      observation:
        'We have successfully loaded the coffee database, including the following columns: Date, Open.\n\nSecond paragraph.',
    },
  ];

  it('finds the question, the documented tools, the UpdateTool lines and the steps', () => {
    const newTools = [
      '(14) Init_DB[databaseIdentifier], which is an updated version of LoadDB and loads a database. For example: {"databaseIdentifier": "flights"}.',
    ];
    const read = readPrompt(renderToolEvoPrompt({ question, docs: PC_SURFACE, newTools, steps }));
    expect(read.question).toBe(question);
    expect(read.tools.map((t) => t.name)).toEqual([...PC_SURFACE.tools.map((t) => t.name), 'Init_DB']);
    expect(read.steps).toEqual(steps);
    expect(read.reflection).toBe(false);
    const history = readHistory(read);
    expect(history.knowledge.memory.get('LoadDB')?.name).toBe('Init_DB');
    expect(history.steps.map((s) => [s.kernel, s.observation.kind, s.rejected])).toEqual([
      ['LoadDB', 'deprecated', true],
      ['LoadDB', 'result', false],
    ]);
  });

  it('notices the reflection paragraph and keeps it out of the last observation', () => {
    const read = readPrompt(renderReflectionPrompt({ question, docs: PC_SURFACE, steps }));
    expect(read.reflection).toBe(true);
    expect(read.steps).toEqual(steps);
  });

  it('reads a bare ToolQA-D style prompt and a doubled tool list', () => {
    const list = renderToolList(PC_SURFACE);
    const text = `Tools:\n${list}${list}\n\nQuestion: ${question}\n\n${steps[0]?.text}\n\nObservation: ${steps[0]?.observation}\n\n`;
    const read = readPrompt(text);
    expect(read.question).toBe(question);
    expect(read.tools.map((t) => t.name)).toEqual(PC_SURFACE.tools.map((t) => t.name));
    expect(read.steps).toEqual([steps[0]]);
  });
});

describe('question matching', () => {
  it('finds each template from a question written with it', () => {
    for (const t of TASK_TEMPLATES) {
      const slots = Object.fromEntries(
        [...t.question.matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1] as string, `V${i}x`]),
      );
      const match = matchQuestion(renderQuestion(t.question, slots));
      expect(match?.template.id, t.id).toBe(t.id);
      expect(match?.slots).toEqual(slots);
    }
    expect(matchQuestion('What is the capital of France?')).toBeNull();
  });
});
