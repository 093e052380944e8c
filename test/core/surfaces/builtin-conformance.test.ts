/**
 * Conformance of the built-in surfaces with ToolQA-D (spec §4.2–§4.8): for every surface and every tool, a
 * correct call answers exactly what the kernel answers for the same kernel call, an old name answers its exact
 * deprecation message, an unknown name the invalid-action message, and each applicable parameter error its exact
 * message — each through the ReAct text path and the {action, actionInput} path. The expected strings are
 * written out here, independently of the modules under test.
 */
import { describe, expect, it } from 'vitest';
import { BUILTIN_SURFACES, builtinSurface } from '../../../core/surfaces/builtin.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { callKernel, type KernelCall, type KernelToolName } from '../../../core/world/kernel/kernel.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { fixtureWorld } from '../kernel/fixtures.ts';
import { echoDeps, PATHS, stateAfter, step } from './surface-fixtures.ts';

const world = fixtureWorld();

const INVALID =
  'Invalid Action. Valid Actions are RetrieveAgenda[<keyword>] RetrieveScirex[<keyword>] LoadDB[<DBName>] FilterDB[<condition>] GetValue[<column_name>] LoadGraph[<GraphName>] NeighbourCheck[<GraphName>, <Node>] NodeCheck[<GraphName>, <Node>] EdgeCheck[<GraphName>, <Node1>, <Node2>] SQLInterpreter[<SQL>] PythonInterpreter[<Python>] Finish[<answer>] and UpdateTool[<newtool_desc>].';
const FILTERING = 'There is something wrong with the arguments you send for filtering. Please modify it.';
const GETTING_VALUE =
  'There is something wrong with the arguments you send for getting value. Please modify it.';
const EDGE = 'There is something wrong with the arguments you send for edge checking. Please modify it.';
const SQL_ARGS = 'There is something wrong with the arguments you send for SQL. Please modify it.';
const SQL_COMMAND = 'There is something wrong with the SQL command you send. Please modify it.';
const PYTHON_ARGS = 'There is something wrong with the arguments you send for python. Please modify it.';
const PYTHON_COMMAND = 'There is something wrong with the Python command you send. Please modify it.';
const COMMAND = 'There is something wrong with your command you send. Please modify it.';
const PARAMS = 'There is something wrong with the params you send. Please modify it.';

// ---------------------------------------------------------------------------------------------------------------
// The same kernel calls on every surface

const LOAD_COFFEE: KernelCall = { tool: 'LoadDB', args: { DBName: 'coffee' } };

interface KernelCase {
  call: KernelCall;
  /** Kernel calls that prepare the state. */
  setup: KernelCall[];
}

const KERNEL_CASES: Record<KernelToolName, KernelCase> = {
  RetrieveAgenda: {
    call: { tool: 'RetrieveAgenda', args: { keyword: 'Joshua Gym Workout 2022/06/03' } },
    setup: [],
  },
  RetrieveScirex: {
    call: { tool: 'RetrieveScirex', args: { keyword: 'Mean_IoU score of the FRRN method' } },
    setup: [],
  },
  LoadDB: { call: LOAD_COFFEE, setup: [] },
  FilterDB: {
    call: { tool: 'FilterDB', args: { condition: 'Date>=2019-10-10, Date<=2020-08-03' } },
    setup: [LOAD_COFFEE],
  },
  GetValue: { call: { tool: 'GetValue', args: { column_name: 'Date, Close' } }, setup: [LOAD_COFFEE] },
  LoadGraph: { call: { tool: 'LoadGraph', args: { GraphName: 'dblp' } }, setup: [] },
  NeighbourCheck: {
    call: { tool: 'NeighbourCheck', args: { GraphName: 'AuthorNet', Node: 'Ning Li' } },
    setup: [],
  },
  NodeCheck: { call: { tool: 'NodeCheck', args: { GraphName: 'AuthorNet', Node: 'Chao Zhang' } }, setup: [] },
  EdgeCheck: {
    call: { tool: 'EdgeCheck', args: { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' } },
    setup: [],
  },
  SQLInterpreter: {
    call: { tool: 'SQLInterpreter', args: { SQL: ' SELECT Volume FROM coffee_data' } },
    setup: [],
  },
  PythonInterpreter: { call: { tool: 'PythonInterpreter', args: { Python: 'print(1 + 1)' } }, setup: [] },
  Finish: { call: { tool: 'Finish', args: { answer: '20:31' } }, setup: [] },
  UpdateTool: {
    call: {
      tool: 'UpdateTool',
      args: { newtool_desc: 'Init_DB[databaseIdentifier], which loads a database.' },
    },
    setup: [],
  },
};

/** Per surface and kernel tool: the exposed name and a correct Action Input, as an agent would write them. */
const CORRECT_CALLS: Record<string, Record<KernelToolName, [string, string]>> = {
  pc: {
    RetrieveAgenda: ['RetrieveAgenda', '{"keyword": "Joshua Gym Workout 2022/06/03"}'],
    RetrieveScirex: ['RetrieveScirex', '{"keyword": "Mean_IoU score of the FRRN method"}'],
    LoadDB: ['LoadDB', '{"DBName": "coffee"}'],
    FilterDB: ['FilterDB', '{"condition": "Date>=2019-10-10, Date<=2020-08-03"}'],
    GetValue: ['GetValue', '{"column_name": "Date, Close"}'],
    LoadGraph: ['LoadGraph', '{"GraphName": "dblp"}'],
    NeighbourCheck: ['NeighbourCheck', '{"GraphName": "AuthorNet", "Node": "Ning Li"}'],
    NodeCheck: ['NodeCheck', '{"Node": "Chao Zhang", "GraphName": "AuthorNet"}'],
    EdgeCheck: ['EdgeCheck', '{"GraphName": "AuthorNet", "Node1": "Chao Zhang", "Node2": "Weihong Lin"}'],
    SQLInterpreter: ['SQLInterpreter', '{"SQL": " SELECT Volume FROM coffee_data"}'],
    PythonInterpreter: ['PythonInterpreter', '{"Python": "print(1 + 1)"}'],
    Finish: ['Finish', '{"answer": "20:31"}'],
    UpdateTool: ['UpdateTool', '{"newtool_desc": "Init_DB[databaseIdentifier], which loads a database."}'],
  },
  's-in': {
    RetrieveAgenda: ['Fetch_Agenda_Data', '{"Query": "Joshua Gym Workout 2022/06/03", "return_num": 3}'],
    RetrieveScirex: ['FetchScirexData', '{"QueryText": "Mean_IoU score of the FRRN method"}'],
    LoadDB: ['InitializeDatabase', '{"DatabaseName": "coffee"}'],
    FilterDB: [
      'Apply_Database_Filters',
      '{"condition1": "Date>=2019-10-10", "condition2": "Date<=2020-08-03"}',
    ],
    GetValue: ['FetchValue_ByKey', '{"column1": "Date", "column2": "Close", "ReturnResult": "True"}'],
    LoadGraph: ['InitializeGraphData', '{"Graph_Name": "dblp"}'],
    NeighbourCheck: [
      'Verify_NeighbourNodes',
      '{"Graph_Name": "AuthorNet", "graphNode": "Ning Li", "ReturnResult": true}',
    ],
    NodeCheck: ['ValidateGraphNode', '{"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang"}'],
    EdgeCheck: [
      'ValidateGraphEdge',
      '{"Graph_Name": "AuthorNet", "NodeInfos": "FirstNode[Chao Zhang], SecondNode[Weihong Lin]"}',
    ],
    SQLInterpreter: [
      'ExecuteSQLQuery',
      '{"SQLCommand": "The SQL code is as follows: SELECT Volume FROM coffee_data"}',
    ],
    PythonInterpreter: [
      'Execute_Python_Script',
      '{"PythonCode": "The Python code is as follows: \\nprint(1 + 1)\\n"}',
    ],
    Finish: ['Finish', '{"answer": "20:31"}'],
    UpdateTool: ['UpdateTool', '{"newtool_desc": "Init_DB[databaseIdentifier], which loads a database."}'],
  },
  's-ood': {
    RetrieveAgenda: [
      'Call_Retrieve_On_Agenda',
      '{"searchTerm": "Joshua Gym Workout 2022/06/03", "passage_num": 3}',
    ],
    RetrieveScirex: ['CallRetrieveOnScirex', '{"queryKeyword": "Mean_IoU score of the FRRN method"}'],
    LoadDB: ['Init_DB', '{"databaseIdentifier": "coffee"}'],
    FilterDB: [
      'DoFilter_OnDatabase',
      '{"filterCriteria1": "Date>=2019-10-10", "filterCriteria2": "Date<=2020-08-03"}',
    ],
    GetValue: ['Extract_Value', '{"fieldName1": "Date", "fieldName2": "Close", "ReturnValue": "true"}'],
    LoadGraph: ['Import_Graph', '{"Graph": "dblp"}'],
    NeighbourCheck: [
      'Get_NeighbourList',
      '{"Graph": "AuthorNet", "Vertex": "Ning Li", "ReturnValue": "True"}',
    ],
    NodeCheck: ['Inspect_TheNodes', '{"Graph": "AuthorNet", "Vertex": "Chao Zhang"}'],
    EdgeCheck: [
      'Inspect_TheEdges',
      '{"CheckInfos": "Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2[Weihong Lin]"}',
    ],
    SQLInterpreter: [
      'ProcessSQLQuery',
      '{"SQL_Query": "This is the SQL code: SELECT Volume FROM coffee_data"}',
    ],
    PythonInterpreter: [
      'Process_Python_Code',
      '{"python_execute_Code": "This is the Python code: print(1 + 1)"}',
    ],
    Finish: ['Finish', '{"answer": "20:31"}'],
    UpdateTool: ['UpdateTool', '{"newtool_desc": "Init_DB[databaseIdentifier], which loads a database."}'],
  },
  's-ood-alt': {
    RetrieveAgenda: [
      'CallRetrieveOnAgenda',
      '{"searchTerm": "Joshua Gym Workout 2022/06/03", "passage_num": 3}',
    ],
    RetrieveScirex: ['Call_Retrieve_OnScirex', '{"queryKeyword": "Mean_IoU score of the FRRN method"}'],
    LoadDB: ['Init_LocalDB', '{"databaseIdentifier": "coffee"}'],
    FilterDB: [
      'DoFilter_OnDatabase',
      '{"filterCriteria1": "Date>=2019-10-10", "filterCriteria2": "Date<=2020-08-03"}',
    ],
    GetValue: [
      'ExtractValue_fromDB',
      '{"fieldName1": "Date", "fieldName2": "Close", "ReturnResult": "True"}',
    ],
    LoadGraph: ['ImportGraph', '{"Graph": "dblp"}'],
    NeighbourCheck: [
      'Get_Neighbour_List',
      '{"Graph": "AuthorNet", "Vertex": "Ning Li", "ReturnValue": "True"}',
    ],
    NodeCheck: ['Inspect_TheNodes', '{"Graph": "AuthorNet", "Vertex": "Chao Zhang"}'],
    EdgeCheck: [
      'Inspect_TheEdges',
      '{"CheckInfos": "Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2[Weihong Lin]"}',
    ],
    SQLInterpreter: [
      'ProcessSQLQuery',
      '{"SQL_Query": "This is the SQL code: SELECT Volume FROM coffee_data"}',
    ],
    PythonInterpreter: [
      'Process_Python_Code',
      '{"python_execute_Code": "This is the Python code: print(1 + 1)"}',
    ],
    Finish: ['Finish', '{"answer": "20:31"}'],
    UpdateTool: ['UpdateTool', '{"newtool_desc": "Init_DB[databaseIdentifier], which loads a database."}'],
  },
};

function surface(id: string): Surface {
  const s = builtinSurface(id);
  if (!s) throw new Error(id);
  return s;
}

const SURFACE_IDS = ['pc', 's-in', 's-ood', 's-ood-alt'];

describe.each(SURFACE_IDS)('surface %s: correct calls', (id) => {
  const s = surface(id);
  const calls = CORRECT_CALLS[id] as Record<KernelToolName, [string, string]>;

  it('serves exactly one tool per kernel tool, under the names of the spec', () => {
    expect(s.tools.map((t) => t.name).sort()).toEqual(
      Object.values(calls)
        .map(([name]) => name)
        .sort(),
    );
    expect(BUILTIN_SURFACES.map((b) => b.id)).toEqual(SURFACE_IDS);
  });

  for (const [kernel, c] of Object.entries(KERNEL_CASES)) {
    const [name, input] = calls[kernel as KernelToolName];
    it.each(PATHS)(`${name} answers what the kernel answers for ${kernel} (%s)`, async (path) => {
      const before = await stateAfter(world, c.setup);
      const expected = await callKernel(world, before, c.call, echoDeps);
      const got = await step(world, s, before, path, name, input);
      expect(got.call).toEqual(c.call);
      expect(got.observation).toBe(expected.observation);
      expect(got.state).toEqual(expected.state);
      expect(got.outcome).toEqual(expected.outcome);
      expect(got.action).toBe(name);
      expect(got.deprecation).toBeUndefined();
    });
  }

  it('runs the kernel with the prefixes removed (SQL untrimmed, Python trimmed)', async () => {
    const [sqlName, sqlInput] = calls.SQLInterpreter;
    const [pyName, pyInput] = calls.PythonInterpreter;
    const sql = await step(world, s, initialState(), 'react', sqlName, sqlInput);
    const py = await step(world, s, initialState(), 'react', pyName, pyInput);
    expect(sql.observation).toBe('sql: SELECT Volume FROM coffee_data');
    expect(py.observation).toBe('python:print(1 + 1)');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Old names (spec §4.6, with the two deliberate fixes of builtin.ts)

const PY_V1 =
  'Error: PythonInterpreter[Python] is deprecated and will be removed in future releases. Use Execute_Python_Script[PythonCode], param example: {"PythonCode": "The Python code is as follows: \nimport numpy as np\nprint(np.mean([247.0, 253.0, 230.0]))"} instead.';
const PY_V2 =
  'Error: PythonInterpreter[Python] is deprecated and will be removed in future releases. Use Process_Python_Code[python_execute_Code], param example: {"python_execute_Code": "This is the Python code: \nimport numpy as np\nprint(np.mean([247.0, 253.0, 230.0]))"} instead.';

const V2_COMMON: Record<string, string> = {
  FilterDB:
    'Error: FilterDB[condition] is deprecated and will be removed in future releases. Use DoFilter_OnDatabase[filterCriteria1], param example: {"filterCriteria1": "NAME=K. John", "filterCriteria2": "Date<=2008-02-16"} instead.',
  NodeCheck:
    'Error: NodeCheck[GraphName, Node] is deprecated and will be removed in future releases. Use Inspect_TheNodes[Graph, Vertex], param example: {"Graph": "AuthorNet", "Vertex": "K. John"} instead.',
  EdgeCheck:
    'Error: EdgeCheck[GraphName, Node1, Node2] is deprecated and will be removed in future releases. Use Inspect_TheEdges[CheckInfos], param example: {"CheckInfos": "Graph[AuthorNet], Vertex1[K. John], Vertex2[Peter]"} instead.',
  SQLInterpreter:
    'Error: SQLInterpreter[SQL] is deprecated and will be removed in future releases. Use ProcessSQLQuery[SQL_Query], param example: {"SQL_Query": "This is the SQL code: SELECT Volume FROM coffee.coffee_data WHERE Date = \'2000-01-14\'"} instead.',
  PythonInterpreter: PY_V2,
};

const DEPRECATIONS: Record<string, Record<string, string>> = {
  's-in': {
    RetrieveAgenda:
      'Error: RetrieveAgenda[keyword] is deprecated and will be removed in future releases. Use Fetch_Agenda_Data[Query, return_num], param example: {"Query": "Stephen\'s Opera performance", "return_num": 3} instead.',
    RetrieveScirex:
      'Error: RetrieveScirex[keyword] is deprecated and will be removed in future releases. Use FetchScirexData[QueryText], param example: {"QueryText": "Mean_IoU score of the FRRN method"} instead.',
    LoadDB:
      'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use InitializeDatabase[DatabaseName], param example: {"DatabaseName": "flights"} instead.',
    FilterDB:
      'Error: FilterDB[condition] is deprecated and will be removed in future releases. Use Apply_Database_Filters[condition1], param example: {"condition1": "NAME=Chao Zhang", "condition2": "Date<=2004-01-16"} instead.',
    GetValue:
      'Error: GetValue[column_name] is deprecated and will be removed in future releases. Use FetchValue_ByKey[column, ReturnResult], param example: {"column1": "price", "column2": "service fee", "ReturnResult": "True"} instead.',
    LoadGraph:
      'Error: LoadGraph[GraphName] is deprecated and will be removed in future releases. Use InitializeGraphData[Graph_Name], param example: {"Graph_Name": "dblp"} instead.',
    NeighbourCheck:
      'Error: NeighbourCheck[GraphName, Node] is deprecated and will be removed in future releases. Use Verify_NeighbourNodes[Graph_Name, graphNode, ReturnResult], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang", "ReturnResult": "True"} instead.',
    NodeCheck:
      'Error: NodeCheck[GraphName, Node] is deprecated and will be removed in future releases. Use ValidateGraphNode[Graph_Name, graphNode], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang"} instead.',
    EdgeCheck:
      'Error: EdgeCheck[GraphName, Node1, Node2] is deprecated and will be removed in future releases. Use ValidateGraphEdge[GraphName, NodeInfos], param example: {"Graph_Name": "AuthorNet", "NodeInfos": "FirstNode[Chao Zhang], SecondNode[Weihong Lin]"} instead.',
    SQLInterpreter:
      'Error: SQLInterpreter[SQL] is deprecated and will be removed in future releases. Use ExecuteSQLQuery[SQLCommand], param example: {"SQLCommand": "The SQL code is as follows: SELECT Volume FROM coffee.coffee_data WHERE Date = \'2000-01-14\'"} instead.',
    PythonInterpreter: PY_V1,
  },
  's-ood': {
    RetrieveAgenda:
      'Error: RetrieveAgenda[keyword] is deprecated and will be removed in future releases. Use Call_Retrieve_On_Agenda[searchTerm, passage_num], param example: {"searchTerm": "Amelia Breakfast Meeting 2022/01/16", "passage_num": 3} instead.',
    RetrieveScirex:
      'Error: RetrieveScirex[keyword] is deprecated and will be removed in future releases. Use CallRetrieveOnScirex[queryKeyword], param example: {"queryKeyword": "F-Measure score of the EAST method"} instead.',
    LoadDB:
      'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use Init_DB[databaseIdentifier], param example: {"databaseIdentifier": "flights"} instead.',
    GetValue:
      'Error: GetValue[column_name] is deprecated and will be removed in future releases. Use Extract_Value[fieldName, ReturnValue], param example: {"fieldName1": "price", "fieldName2": "service fee", "ReturnValue": "True"} instead.',
    LoadGraph:
      'Error: LoadGraph[GraphName] is deprecated and will be removed in future releases. Use Import_Graph[Graph], param example: {"Graph": "dblp"} instead.',
    NeighbourCheck:
      'Error: NeighbourCheck[GraphName, Node] is deprecated and will be removed in future releases. Use Get_NeighbourList[Graph, Vertex, ReturnValue], param example: {"Graph": "AuthorNet", "Vertex": "K. John", "ReturnValue": "True"} instead.',
    ...V2_COMMON,
  },
  's-ood-alt': {
    RetrieveAgenda:
      'Error: RetrieveAgenda[keyword] is deprecated and will be removed in future releases. Use CallRetrieveOnAgenda[searchTerm, passage_num], param example: {"searchTerm": "Amelia Breakfast Meeting 2022/01/16", "passage_num": 3} instead.',
    RetrieveScirex:
      'Error: RetrieveScirex[keyword] is deprecated and will be removed in future releases. Use Call_Retrieve_OnScirex[queryKeyword], param example: {"queryKeyword": "F-Measure score of the EAST method"} instead.',
    LoadDB:
      'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use Init_LocalDB[databaseIdentifier], param example: {"databaseIdentifier": "flights"} instead.',
    GetValue:
      'Error: GetValue[column_name] is deprecated and will be removed in future releases. Use ExtractValue_fromDB[fieldName, ReturnValue], param example: {"fieldName1": "price", "fieldName2": "service fee", "ReturnValue": "True"} instead.',
    LoadGraph:
      'Error: LoadGraph[GraphName] is deprecated and will be removed in future releases. Use ImportGraph[Graph], param example: {"Graph": "dblp"} instead.',
    NeighbourCheck:
      'Error: NeighbourCheck[GraphName, Node] is deprecated and will be removed in future releases. Use Get_Neighbour_List[Graph, Vertex, ReturnValue], param example: {"Graph": "AuthorNet", "Vertex": "K. John", "ReturnValue": "True"} instead.',
    ...V2_COMMON,
  },
};

describe.each(['s-in', 's-ood', 's-ood-alt'])('surface %s: old names', (id) => {
  const s = surface(id);
  const messages = DEPRECATIONS[id] as Record<string, string>;

  it('retires exactly the eleven P_c domain tools', () => {
    expect(Object.keys(messages)).toHaveLength(11);
    expect(s.retired.map((r) => r.name).sort()).toEqual(Object.keys(messages).sort());
  });

  for (const [old, message] of Object.entries(messages)) {
    const pcInput = (CORRECT_CALLS.pc as Record<string, [string, string]>)[old]?.[1] as string;
    it.each(PATHS)(
      `${old} answers its deprecation message without looking at the arguments (%s)`,
      async (path) => {
        const before = await stateAfter(world, [LOAD_COFFEE]);
        for (const input of [pcInput, '{ }', '{"anything": [1, 2]}']) {
          const got = await step(world, s, before, path, old, input);
          expect(got.observation).toBe(message);
          expect(got.outcome).toEqual({ kind: 'rejected', reason: 'retired' });
          expect(got.call).toBeUndefined();
          expect(got.deprecation?.status).toBe('retired');
          expect(got.deprecation?.tool).toBe(old);
          expect(s.tools.some((t) => t.name === got.deprecation?.successor)).toBe(true);
          // The step costs a step (and a load for LoadDB/LoadGraph, §8.2), nothing else.
          const isLoad = old === 'LoadDB' || old === 'LoadGraph';
          expect(got.state).toEqual({
            ...before,
            steps: before.steps + 1,
            loads: before.loads + (isLoad ? 1 : 0),
          });
        }
      },
    );
  }

  it('writes the Python example with a space and a real line break after the prefix', () => {
    const py = messages.PythonInterpreter as string;
    expect(py.split('\n')).toHaveLength(3);
    expect(py).toMatch(/(follows|code): \nimport numpy as np\nprint/);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Unknown names (§4.7)

describe.each(SURFACE_IDS)('surface %s: unknown names', (id) => {
  const s = surface(id);
  const own = new Set([...s.tools.map((t) => t.name), ...s.retired.map((r) => r.name)]);
  const foreign = [
    ...new Set(BUILTIN_SURFACES.flatMap((b) => b.tools.map((t) => t.name)).filter((n) => !own.has(n))),
  ];
  const made = ['LoadDB[flights]', 'Use the RetrieveAgenda tool', 'loaddb', 'finish', 'Fetch Agenda Data'];

  it('has names of the other surfaces to try', () => {
    expect(foreign.length).toBeGreaterThanOrEqual(id === 's-ood-alt' ? 17 : 7);
  });

  it.each(PATHS)('answers the invalid-action message to names it does not serve (%s)', async (path) => {
    for (const name of [...foreign, ...made]) {
      const got = await step(world, s, initialState(), path, name, '{"DBName": "coffee"}');
      expect(got.observation, name).toBe(INVALID);
      expect(got.outcome).toEqual({ kind: 'rejected', reason: 'invalid-action' });
      expect(got.state).toEqual({ ...initialState(), steps: 1 });
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Parameter errors (§4.2 for P_c, §4.8 for the drifted surfaces)

/** [exposed name, Action Input, expected observation]; `null` expects the kernel's answer (the call passes). */
type ErrorRow = [string, string, string];

describe('surface pc: any key mismatch is an invalid action (§4.2)', () => {
  const s = surface('pc');
  const rows: ErrorRow[] = [];
  for (const t of s.tools) {
    const keys = t.params.map((p) => (p.kind === 'rename' ? p.name : ''));
    const full = Object.fromEntries(keys.map((k) => [k, 'x']));
    rows.push([t.name, JSON.stringify({ ...full, extra: 'x' }), INVALID]);
    // A lone `{}` is not even parsed from ReAct text (§5.2), so the missing-key case keeps a space inside.
    const missing =
      keys.length > 1 ? JSON.stringify(Object.fromEntries(keys.slice(1).map((k) => [k, 'x']))) : '{ }';
    rows.push([t.name, missing, INVALID]);
    rows.push([
      t.name,
      JSON.stringify(Object.fromEntries(keys.map((k) => [`${k.toLowerCase()}_`, 'x']))),
      INVALID,
    ]);
  }
  it.each(PATHS)('missing, extra or misspelled keys (%s)', async (path) => {
    expect(rows).toHaveLength(39);
    for (const [name, input, expected] of rows) {
      const got = await step(world, s, initialState(), path, name, input);
      expect(got.observation, `${name} ${input}`).toBe(expected);
      expect(got.outcome).toEqual({ kind: 'rejected', reason: 'invalid-action' });
    }
  });

  it('still counts a load for LoadDB/LoadGraph with wrong keys', async () => {
    const got = await step(world, s, initialState(), 'react', 'LoadDB', '{"db": "coffee"}');
    expect(got.state).toEqual({ ...initialState(), steps: 1, loads: 1 });
  });
});

interface DriftNames {
  agenda: [string, string, string];
  scirex: [string, string];
  loadDb: [string, string];
  filter: [string, string];
  value: [string, string, string];
  loadGraph: [string, string];
  neighbours: [string, string, string, string];
  node: [string, string, string];
  sql: [string, string, string];
  python: [string, string, string];
}

const DRIFT: Record<string, DriftNames> = {
  's-in': {
    agenda: ['Fetch_Agenda_Data', 'Query', 'return_num'],
    scirex: ['FetchScirexData', 'QueryText'],
    loadDb: ['InitializeDatabase', 'DatabaseName'],
    filter: ['Apply_Database_Filters', 'condition'],
    value: ['FetchValue_ByKey', 'column', 'ReturnResult'],
    loadGraph: ['InitializeGraphData', 'Graph_Name'],
    neighbours: ['Verify_NeighbourNodes', 'Graph_Name', 'graphNode', 'ReturnResult'],
    node: ['ValidateGraphNode', 'Graph_Name', 'graphNode'],
    sql: ['ExecuteSQLQuery', 'SQLCommand', 'The SQL code is as follows:'],
    python: ['Execute_Python_Script', 'PythonCode', 'The Python code is as follows:'],
  },
  's-ood': {
    agenda: ['Call_Retrieve_On_Agenda', 'searchTerm', 'passage_num'],
    scirex: ['CallRetrieveOnScirex', 'queryKeyword'],
    loadDb: ['Init_DB', 'databaseIdentifier'],
    filter: ['DoFilter_OnDatabase', 'filterCriteria'],
    value: ['Extract_Value', 'fieldName', 'ReturnValue'],
    loadGraph: ['Import_Graph', 'Graph'],
    neighbours: ['Get_NeighbourList', 'Graph', 'Vertex', 'ReturnValue'],
    node: ['Inspect_TheNodes', 'Graph', 'Vertex'],
    sql: ['ProcessSQLQuery', 'SQL_Query', 'This is the SQL code:'],
    python: ['Process_Python_Code', 'python_execute_Code', 'This is the Python code:'],
  },
  's-ood-alt': {
    agenda: ['CallRetrieveOnAgenda', 'searchTerm', 'passage_num'],
    scirex: ['Call_Retrieve_OnScirex', 'queryKeyword'],
    loadDb: ['Init_LocalDB', 'databaseIdentifier'],
    filter: ['DoFilter_OnDatabase', 'filterCriteria'],
    value: ['ExtractValue_fromDB', 'fieldName', 'ReturnValue'],
    loadGraph: ['ImportGraph', 'Graph'],
    neighbours: ['Get_Neighbour_List', 'Graph', 'Vertex', 'ReturnValue'],
    node: ['Inspect_TheNodes', 'Graph', 'Vertex'],
    sql: ['ProcessSQLQuery', 'SQL_Query', 'This is the SQL code:'],
    python: ['Process_Python_Code', 'python_execute_Code', 'This is the Python code:'],
  },
};

const j = (o: Record<string, unknown>) => JSON.stringify(o);

function errorRows(id: string): ErrorRow[] {
  const n = DRIFT[id] as DriftNames;
  const [filter, c] = n.filter;
  const [value, f, flag] = n.value;
  const [agenda, query, count] = n.agenda;
  const [scirex, scirexKey] = n.scirex;
  const [loadDb, dbKey] = n.loadDb;
  const [loadGraph, graphKey] = n.loadGraph;
  const [neighbours, ng, nv, nf] = n.neighbours;
  const [node, gg, gv] = n.node;
  const [sql, sqlKey, sqlPrefix] = n.sql;
  const [python, pyKey, pyPrefix] = n.python;
  const rows: ErrorRow[] = [
    // Filter tool: positional numbered keys, or one lone unnumbered key.
    [filter, j({ [`${c}2`]: 'Date>=2019-10-10', [`${c}1`]: 'Date<=2020-08-03' }), FILTERING],
    [filter, j({ [`${c}1`]: 'Date>=2019-10-10', [`${c}3`]: 'Date<=2020-08-03' }), FILTERING],
    [filter, j({ [c]: 'Date>=2019-10-10', [`${c}2`]: 'Date<=2020-08-03' }), FILTERING],
    [filter, j({ condition_1: 'Date>=2019-10-10' }), FILTERING],
    [filter, j({ [`${c}1`]: 'Date>=2019-10-10', ReturnResult: 'True' }), FILTERING],
    // Value tool: positional keys; the flag is optional but takes a position; the unnumbered form needs it.
    [value, j({ [f]: 'Close' }), GETTING_VALUE],
    [value, j({ [flag]: 'True', [`${f}1`]: 'Close' }), GETTING_VALUE],
    [value, j({ [`${f}1`]: 'Close', [flag]: 'False' }), GETTING_VALUE],
    [value, j({ [`${f}1`]: 'Close', [flag]: 'TRUE' }), GETTING_VALUE],
    [value, j({ [`${f}1`]: 'Close', [flag]: 0 }), GETTING_VALUE],
    [value, j({ [`${f}1`]: 'Close', [`${f}3`]: 'Open' }), GETTING_VALUE],
    [value, j({ column_name: 'Close' }), GETTING_VALUE],
    // Generic tools: the exact key set; the neighbour flag is mandatory and checked.
    [agenda, j({ [query]: 'Joshua Gym Workout 2022/06/03' }), COMMAND],
    [agenda, j({ [query]: 'Joshua', [count]: 3, extra: 1 }), COMMAND],
    [scirex, j({ keyword: 'EAST' }), COMMAND],
    [scirex, j({ [scirexKey]: 'EAST', [count]: 3 }), COMMAND],
    [loadDb, j({ DBName: 'coffee' }), COMMAND],
    [loadDb, '{ }', COMMAND],
    [loadDb, j({ [dbKey]: 'coffee', extra: 1 }), COMMAND],
    [loadGraph, j({ GraphName: 'dblp' }), COMMAND],
    [loadGraph, j({ [graphKey]: 'dblp', GraphName: 'dblp' }), COMMAND],
    [neighbours, j({ [ng]: 'AuthorNet', [nv]: 'Ning Li' }), COMMAND],
    [neighbours, j({ [ng]: 'AuthorNet', [nv]: 'Ning Li', [nf]: 'False' }), PARAMS],
    [neighbours, j({ [ng]: 'AuthorNet', [nv]: 'Ning Li', [nf]: 'yes' }), PARAMS],
    [neighbours, j({ [nf]: false, [ng]: 'AuthorNet', [nv]: 'Ning Li' }), PARAMS],
    [neighbours, j({ [ng]: 'AuthorNet', [nv]: 'Ning Li', [nf]: 'True', extra: 1 }), COMMAND],
    [node, j({ [gg]: 'AuthorNet', [gv]: 'Chao Zhang', [nf]: 'True' }), COMMAND],
    [node, j({ GraphName: 'AuthorNet', Node: 'Chao Zhang' }), COMMAND],
    ['Finish', j({ answer: '20:31', reason: 'x' }), COMMAND],
    ['Finish', j({ final_answer: '20:31' }), COMMAND],
    ['UpdateTool', j({ desc: 'x' }), COMMAND],
    // SQL tool: the key, then the literal prefix at the very start (case-sensitive); non-string code.
    [sql, j({ SQL: `${sqlPrefix} SELECT 1` }), SQL_ARGS],
    [sql, j({ [sqlKey]: `${sqlPrefix} SELECT 1`, extra: 1 }), SQL_ARGS],
    [sql, j({ [sqlKey]: 'SELECT Volume FROM coffee_data' }), SQL_COMMAND],
    [sql, j({ [sqlKey]: ` ${sqlPrefix} SELECT 1` }), SQL_COMMAND],
    [sql, j({ [sqlKey]: `${sqlPrefix.toLowerCase()} SELECT 1` }), SQL_COMMAND],
    [sql, j({ [sqlKey]: 42 }), SQL_COMMAND],
    [sql, j({ [sqlKey]: [`${sqlPrefix} SELECT 1`] }), SQL_COMMAND],
    // Python tool: likewise.
    [python, j({ Python: `${pyPrefix} print(1)` }), PYTHON_ARGS],
    [python, '{ }', PYTHON_ARGS],
    [python, j({ [pyKey]: 'print(1)' }), PYTHON_COMMAND],
    [python, j({ [pyKey]: `\n${pyPrefix} print(1)` }), PYTHON_COMMAND],
    [python, j({ [pyKey]: null }), PYTHON_COMMAND],
    [python, j({ [pyKey]: { code: 'print(1)' } }), PYTHON_COMMAND],
  ];
  if (id === 's-in') {
    rows.push(
      ['ValidateGraphEdge', j({ Graph_Name: 'AuthorNet' }), EDGE],
      [
        'ValidateGraphEdge',
        j({ GraphName: 'AuthorNet', NodeInfos: 'FirstNode[Chao Zhang], SecondNode[Weihong Lin]' }),
        EDGE,
      ],
      [
        'ValidateGraphEdge',
        j({ Graph_Name: 'AuthorNet', NodeInfos: 'FirstNode[Chao Zhang], SecondNode [Weihong Lin]' }),
        EDGE,
      ],
      [
        'ValidateGraphEdge',
        j({ Graph_Name: 'AuthorNet', NodeInfos: 'FirstNode[Chao\nZhang], SecondNode[Weihong Lin]' }),
        EDGE,
      ],
      [
        'ValidateGraphEdge',
        j({ Graph_Name: 'AuthorNet', NodeInfos: 'Node1[Chao Zhang], Node2[Weihong Lin]' }),
        EDGE,
      ],
      [
        'ValidateGraphEdge',
        j({ Graph_Name: 'AuthorNet', NodeInfos: { FirstNode: 'Chao Zhang' } }),
        "expected string or bytes-like object, got 'dict'",
      ],
      [
        'ValidateGraphEdge',
        j({ Graph_Name: 'AuthorNet', NodeInfos: ['Chao Zhang', 'Weihong Lin'] }),
        "expected string or bytes-like object, got 'list'",
      ],
      [
        'ValidateGraphEdge',
        '{"Graph_Name": "AuthorNet", "NodeInfos": 7}',
        "expected string or bytes-like object, got 'int'",
      ],
      [
        'ValidateGraphEdge',
        '{"Graph_Name": "AuthorNet", "NodeInfos": 7.0}',
        "expected string or bytes-like object, got 'float'",
      ],
      [
        'ValidateGraphEdge',
        '{"Graph_Name": "AuthorNet", "NodeInfos": null}',
        "expected string or bytes-like object, got 'NoneType'",
      ],
      [
        'ValidateGraphEdge',
        '{"NodeInfos": true, "Graph_Name": "AuthorNet"}',
        "expected string or bytes-like object, got 'bool'",
      ],
    );
  } else {
    rows.push(
      [
        'Inspect_TheEdges',
        j({ Graph: 'AuthorNet', CheckInfos: 'Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2[Weihong Lin]' }),
        EDGE,
      ],
      [
        'Inspect_TheEdges',
        j({ CheckInfo: 'Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2[Weihong Lin]' }),
        EDGE,
      ],
      [
        'Inspect_TheEdges',
        j({ CheckInfos: 'Graph[AuthorNet], Vertex1[Chao Zhang], Vertex2 [Weihong Lin]' }),
        EDGE,
      ],
      ['Inspect_TheEdges', j({ CheckInfos: 'Vertex1[Chao Zhang], Vertex2[Weihong Lin]' }), EDGE],
      ['Inspect_TheEdges', j({ CheckInfos: 'FirstNode[Chao Zhang], SecondNode[Weihong Lin]' }), EDGE],
      [
        'Inspect_TheEdges',
        j({ CheckInfos: { Graph: 'AuthorNet' } }),
        "expected string or bytes-like object, got 'dict'",
      ],
      ['Inspect_TheEdges', '{"CheckInfos": 3}', "expected string or bytes-like object, got 'int'"],
    );
  }
  if (id === 's-ood') {
    rows.push(
      // Only ReturnValue is the value flag here, and the neighbour tool's key set names ReturnValue.
      [value, j({ [`${f}1`]: 'Close', ReturnResult: 'True' }), GETTING_VALUE],
      [value, j({ [f]: 'Close', ReturnResult: 'True' }), GETTING_VALUE],
      [neighbours, j({ [ng]: 'AuthorNet', [nv]: 'Ning Li', ReturnResult: 'True' }), COMMAND],
    );
  }
  if (id === 's-ood-alt') {
    // inference_gpt's unnumbered form asks for ReturnResult, not ReturnValue.
    rows.push([value, j({ [f]: 'Close', ReturnValue: 'True' }), GETTING_VALUE]);
  }
  return rows;
}

/** Calls that look odd but pass (the kernel answers them). [name, input, kernel args]. */
function passingRows(id: string): [string, string, KernelCall][] {
  const n = DRIFT[id] as DriftNames;
  const [filter, c] = n.filter;
  const [value, f, flag] = n.value;
  const [neighbours, ng, nv, nf] = n.neighbours;
  const edge: [string, string, KernelCall][] =
    id === 's-in'
      ? [
          [
            'ValidateGraphEdge',
            j({
              NodeInfos: 'see: FirstNode  [ Chao Zhang ] ,  SecondNode[Weihong Lin ] thanks',
              Graph_Name: 'AuthorNet',
            }),
            {
              tool: 'EdgeCheck',
              args: { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' },
            },
          ],
        ]
      : [
          [
            'Inspect_TheEdges',
            j({ CheckInfos: 'Graph [ AuthorNet ] ,Vertex1 [Chao Zhang],  Vertex2[ Weihong Lin]' }),
            {
              tool: 'EdgeCheck',
              args: { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' },
            },
          ],
        ];
  const rows: [string, string, KernelCall][] = [
    [
      filter,
      j({ [c]: 'Date>=2019-10-10, Date<=2020-08-03' }),
      { tool: 'FilterDB', args: { condition: 'Date>=2019-10-10, Date<=2020-08-03' } },
    ],
    [filter, '{ }', { tool: 'FilterDB', args: { condition: '' } }],
    [
      filter,
      `{"${c}1": 3, "${c}2": true, "${c}3": 2.50, "${c}4": null, "${c}5": {"a": [1]}}`,
      {
        tool: 'FilterDB',
        args: { condition: "3, True, 2.5, None, {'a': [1]}" },
      },
    ],
    [
      value,
      j({ [f]: 'Close', [id === 's-ood-alt' ? 'ReturnResult' : flag]: 'True' }),
      { tool: 'GetValue', args: { column_name: 'Close' } },
    ],
    [value, j({ [flag]: 'True', [`${f}2`]: 'Close' }), { tool: 'GetValue', args: { column_name: 'Close' } }],
    [value, j({ [`${f}1`]: 'Close' }), { tool: 'GetValue', args: { column_name: 'Close' } }],
    [
      value,
      j({ [`${f}1`]: 'Date', [flag]: 1, [`${f}3`]: 'Close' }),
      { tool: 'GetValue', args: { column_name: 'Date, Close' } },
    ],
    [
      value,
      '{"fieldName1": "x"}'.replace('fieldName', f).replace('x', 'Open'),
      { tool: 'GetValue', args: { column_name: 'Open' } },
    ],
    [
      neighbours,
      `{"${ng}": "AuthorNet", "${nv}": "Ning Li", "${nf}": 1.0}`,
      { tool: 'NeighbourCheck', args: { GraphName: 'AuthorNet', Node: 'Ning Li' } },
    ],
    [
      neighbours,
      j({ [nf]: 'true', [nv]: 'Ning Li', [ng]: 'AuthorNet' }),
      { tool: 'NeighbourCheck', args: { GraphName: 'AuthorNet', Node: 'Ning Li' } },
    ],
    ...edge,
  ];
  if (id === 's-ood-alt') {
    rows.push([
      value,
      j({ [`${f}1`]: 'Close', ReturnResult: 'true', ReturnValue: true }),
      { tool: 'GetValue', args: { column_name: 'Close' } },
    ]);
  }
  return rows;
}

describe.each(['s-in', 's-ood', 's-ood-alt'])('surface %s: parameter errors (§4.8)', (id) => {
  const s = surface(id);

  it.each(PATHS)('answers each parameter error with its exact message (%s)', async (path) => {
    const before = await stateAfter(world, [LOAD_COFFEE]);
    const rows = errorRows(id);
    expect(rows.length).toBeGreaterThanOrEqual(49);
    for (const [name, input, expected] of rows) {
      const got = await step(world, s, before, path, name, input);
      expect(got.observation, `${name} ${input}`).toBe(expected);
      expect(got.outcome).toEqual({ kind: 'rejected', reason: 'param-error' });
      expect(got.call).toBeUndefined();
      const isLoad = name === DRIFT[id]?.loadDb[0] || name === DRIFT[id]?.loadGraph[0];
      expect(got.state).toEqual({
        ...before,
        steps: before.steps + 1,
        loads: before.loads + (isLoad ? 1 : 0),
      });
    }
  });

  it.each(PATHS)('passes the odd-looking calls the original accepts (%s)', async (path) => {
    const before = await stateAfter(world, [LOAD_COFFEE]);
    for (const [name, input, call] of passingRows(id)) {
      const expected = await callKernel(world, before, call, echoDeps);
      const got = await step(world, s, before, path, name, input);
      expect(got.call, `${name} ${input}`).toEqual(call);
      expect(got.observation).toBe(expected.observation);
    }
  });
});
