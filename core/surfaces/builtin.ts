/**
 * The built-in surfaces, as ToolQA-D defines them (spec §4.2–§4.6):
 * - `pc` — P_c (v0): the kernel tools under their own names; a wrong key set is an invalid action (§4.2).
 * - `s-in` — P_s_in (v1): new names, numbered and structured parameters, mandatory flags and code prefixes; the
 *   eleven P_c domain tool names answer with deprecation messages (§4.3, §4.6).
 * - `s-ood` — P_s_OOD (v2, the MCTS/inference name set, §4.4).
 * - `s-ood-alt` — the alternative P_s_OOD name set of inference_gpt ("changed on the test set", §4.5): other
 *   names for seven tools, `ReturnResult` accepted as a second value flag, the `You action is filtered` text.
 *
 * Kept as in the original because they are the drift the benchmark measures (§4.10): numbered parameters are
 * positional and a leading flag shifts the numbering (4); the value flag is optional while the neighbour flag is
 * mandatory (5); `return_num` / `passage_num` are mandatory and ignored (6); P_c reports wrong keys as invalid
 * actions (7); the v1 EdgeCheck deprecation text shows `GraphName` while the key is `Graph_Name` (8); kernel
 * messages name `LoadDB`, `FilterDB`, `GetValue` on every surface (9). The unnumbered value form needs the
 * flag: `{"column": …, "ReturnResult": …}` works, `{"column": …}` does not; on `s-ood-alt` that form needs
 * `ReturnResult` (as inference_gpt's check reads), while both flags may accompany numbered keys.
 *
 * Deliberate differences from ToolQA-D:
 * - P_s_in's RetrieveAgenda deprecation message carries a parameter example (inference_gpt's text,
 *   `{"Query": "Stephen's Opera performance", "return_num": 3}`); the MCTS/inference copy had an empty one
 *   (`param example:  instead.`, §4.10 item 1).
 * - P_s_OOD's RetrieveScirex deprecation message names the new tool (`Use CallRetrieveOnScirex[queryKeyword],
 *   …`); the MCTS/inference copy read `Use [queryKeyword], …` (§4.10 item 2).
 */

import type { KernelToolName } from '../world/kernel/kernel.ts';
import {
  ACTION_FILTERED,
  ACTION_FILTERED_GPT,
  deprecated,
  INVALID_ACTION,
} from '../world/kernel/messages.ts';
import type { ParamSpec, RetiredName, Surface, SurfaceTool } from './model.ts';

const ACTIVE = { status: 'active' } as const;

function tool(
  kernel: KernelToolName,
  name: string,
  params: ParamSpec[],
  description: string,
  example: Record<string, unknown>,
  keyMismatch: SurfaceTool['keyMismatch'] = 'param-error',
): SurfaceTool {
  return { kernel, name, params, keyMismatch, description, example, lifecycle: { ...ACTIVE } };
}

function rename(name: string, kernel: string, description: string): ParamSpec {
  return { kind: 'rename', name, kernel, description };
}

/** The truthy literals ToolQA-D accepts for `ReturnResult` / `ReturnValue`. */
const TRUTHY: (string | boolean)[] = ['True', 'true', true];

const PYTHON_EXAMPLE_CODE = 'import numpy as np\nprint(np.mean([247.0, 253.0, 230.0]))';
const SQL_EXAMPLE_CODE = "SELECT Volume FROM coffee.coffee_data WHERE Date = '2000-01-14'";

const FINISH_DESCRIPTION = 'which returns the answer and finishes the task.';
const UPDATE_TOOL_DESCRIPTION = 'which updates the description of the tool.';

// ---------------------------------------------------------------------------------------------------------------
// P_c (v0): the tool list of the ToolQA-D prompt (§5.1), trailing spaces included.

const pcTools: SurfaceTool[] = [
  tool(
    'RetrieveAgenda',
    'RetrieveAgenda',
    [rename('keyword', 'keyword', 'What to look for in the agenda passages.')],
    'which retrieves the agenda related to keyword.',
    { keyword: 'Amelia Breakfast Meeting 2022/01/16' },
    'invalid-action',
  ),
  tool(
    'RetrieveScirex',
    'RetrieveScirex',
    [rename('keyword', 'keyword', "What to look for in the machine learning papers' paragraphs.")],
    "which retrieves machine learning papers' paragraphs related to keyword.",
    { keyword: 'Mean_IoU score of the FRRN method' },
    'invalid-action',
  ),
  tool(
    'LoadDB',
    'LoadDB',
    [rename('DBName', 'DBName', 'One of flights, coffee, airbnb, yelp, agenda.')],
    'which loads the database DBName and returns the database. The DBName can be one of the following: flights/coffee/airbnb/yelp/agenda.',
    { DBName: 'flights' },
    'invalid-action',
  ),
  tool(
    'FilterDB',
    'FilterDB',
    [
      rename(
        'condition',
        'condition',
        'Conditions `column<op>value` (op one of >=, <=, >, <, =) separated by ", ", applied in order.',
      ),
    ],
    'which filters the database DBName by the column column_name the relation (e.g., =, >, etc.) and the value value, and returns the filtered database.',
    { condition: 'Date>=2019-10-10, Date<=2020-08-03' },
    'invalid-action',
  ),
  tool(
    'GetValue',
    'GetValue',
    [rename('column_name', 'column_name', 'One column name, or several separated by commas.')],
    'which returns the value of the column column_name in the database DBName.',
    { column_name: 'price, service fee' },
    'invalid-action',
  ),
  tool(
    'LoadGraph',
    'LoadGraph',
    [rename('GraphName', 'GraphName', 'The graph data to load: dblp.')],
    'which loads the graph GraphName and returns the graph. The GraphName can be one of the following: PaperNet/AuthorNet.',
    { GraphName: 'dblp' },
    'invalid-action',
  ),
  tool(
    'NeighbourCheck',
    'NeighbourCheck',
    [
      rename('GraphName', 'GraphName', 'PaperNet or AuthorNet.'),
      rename('Node', 'Node', 'A paper title (PaperNet) or an author name (AuthorNet).'),
    ],
    'which lists the neighbours of the node Node in the graph GraphName and returns the neighbours. ',
    { GraphName: 'AuthorNet', Node: 'Chao Zhang' },
    'invalid-action',
  ),
  tool(
    'NodeCheck',
    'NodeCheck',
    [
      rename('GraphName', 'GraphName', 'PaperNet or AuthorNet.'),
      rename('Node', 'Node', 'A paper title (PaperNet) or an author name (AuthorNet).'),
    ],
    'which returns the detailed attribute information of Node. ',
    { GraphName: 'AuthorNet', Node: 'Chao Zhang' },
    'invalid-action',
  ),
  tool(
    'EdgeCheck',
    'EdgeCheck',
    [
      rename('GraphName', 'GraphName', 'PaperNet or AuthorNet.'),
      rename('Node1', 'Node1', 'The first node (on PaperNet, the citing paper).'),
      rename('Node2', 'Node2', 'The second node (on PaperNet, the cited paper).'),
    ],
    'which returns the detailed attribute information of the edge between Node1 and Node2. ',
    { GraphName: 'AuthorNet', Node1: 'Chao Zhang', Node2: 'Weihong Lin' },
    'invalid-action',
  ),
  tool(
    'SQLInterpreter',
    'SQLInterpreter',
    [rename('SQL', 'SQL', 'One read-only SQL statement.')],
    'which interprets the SQL query SQL and returns the result.',
    { SQL: SQL_EXAMPLE_CODE },
    'invalid-action',
  ),
  tool(
    'PythonInterpreter',
    'PythonInterpreter',
    [rename('Python', 'Python', 'Python code; print what you want to see.')],
    'which interprets the Python code Python and returns the result.',
    { Python: PYTHON_EXAMPLE_CODE },
    'invalid-action',
  ),
  tool(
    'Finish',
    'Finish',
    [rename('answer', 'answer', 'The final answer.')],
    FINISH_DESCRIPTION,
    { answer: '20:31' },
    'invalid-action',
  ),
  tool(
    'UpdateTool',
    'UpdateTool',
    [
      rename(
        'newtool_desc',
        'newtool_desc',
        'A description of a new or changed tool, added to the tool list.',
      ),
    ],
    UPDATE_TOOL_DESCRIPTION,
    {
      newtool_desc:
        'InitializeDatabase[DatabaseName], which is an updated version of LoadDB and loads the database DatabaseName.',
    },
    'invalid-action',
  ),
];

export const PC_SURFACE: Surface = {
  id: 'pc',
  title: 'P_c (ToolQA-D v0)',
  description:
    'The original tools under their original names (ToolQA-D api_kernel_version 0). A call with a missing, extra or misspelled parameter key is answered like an unknown tool.',
  tools: pcTools,
  retired: [],
  response: { kind: 'plain' },
  messages: { invalidAction: INVALID_ACTION, filtered: ACTION_FILTERED },
};

// ---------------------------------------------------------------------------------------------------------------
// The drifted surfaces share their shapes; only names, keys and prefixes differ.

interface DriftedNames {
  retrieveAgenda: [name: string, query: string, count: string];
  retrieveScirex: [name: string, query: string];
  loadDb: [name: string, db: string];
  filterDb: [name: string, prefix: string];
  getValue: [name: string, prefix: string, flags: string[], singleKeyWith: string];
  loadGraph: [name: string, graph: string];
  neighbourCheck: [name: string, graph: string, node: string, flag: string];
  nodeCheck: [name: string, graph: string, node: string];
  edgeCheck: [name: string, params: ParamSpec[], example: Record<string, unknown>, description: string];
  sql: [name: string, key: string, prefix: string];
  python: [name: string, key: string, prefix: string];
}

function driftedTools(
  n: DriftedNames,
  examples: { agenda: string; scirex: string; author: string },
): SurfaceTool[] {
  const [agenda, query, count] = n.retrieveAgenda;
  const [scirex, scirexQuery] = n.retrieveScirex;
  const [loadDb, db] = n.loadDb;
  const [filterDb, criteria] = n.filterDb;
  const [getValue, field, flags, companion] = n.getValue;
  const [loadGraph, graphKey] = n.loadGraph;
  const [neighbours, nGraph, nNode, nFlag] = n.neighbourCheck;
  const [nodeCheck, gGraph, gNode] = n.nodeCheck;
  const [edgeCheck, edgeParams, edgeExample, edgeDescription] = n.edgeCheck;
  const [sql, sqlKey, sqlPrefix] = n.sql;
  const [python, pyKey, pyPrefix] = n.python;
  const flagText = flags.join(' or ');
  return [
    tool(
      'RetrieveAgenda',
      agenda,
      [
        rename(query, 'keyword', 'What to look for in the agenda passages.'),
        { kind: 'ignored', name: count, description: 'How many passages to return (required).', example: 3 },
      ],
      `which retrieves the agenda related to ${query}; ${count} must be given.`,
      { [query]: examples.agenda, [count]: 3 },
    ),
    tool(
      'RetrieveScirex',
      scirex,
      [rename(scirexQuery, 'keyword', "What to look for in the machine learning papers' paragraphs.")],
      `which retrieves machine learning papers' paragraphs related to ${scirexQuery}.`,
      { [scirexQuery]: examples.scirex },
    ),
    tool(
      'LoadDB',
      loadDb,
      [rename(db, 'DBName', 'One of flights, coffee, airbnb, yelp, agenda.')],
      `which loads the database ${db} and returns the database. The ${db} can be one of the following: flights/coffee/airbnb/yelp/agenda.`,
      { [db]: 'flights' },
    ),
    tool(
      'FilterDB',
      filterDb,
      [
        {
          kind: 'numbered',
          prefix: criteria,
          kernel: 'condition',
          joiner: ', ',
          singleKey: criteria,
          singleKeyWith: [],
          description: `One condition \`column<op>value\` (op one of >=, <=, >, <, =) per key; the keys are ${criteria}1, ${criteria}2, … in this order.`,
        },
      ],
      `which filters the loaded database by the conditions ${criteria}1, ${criteria}2, ... (each a column, a relation such as =, > or <= and a value, applied in order) and returns the filtered database.`,
      { [`${criteria}1`]: 'Date>=2019-10-10', [`${criteria}2`]: 'Date<=2020-08-03' },
    ),
    tool(
      'GetValue',
      getValue,
      [
        {
          kind: 'numbered',
          prefix: field,
          kernel: 'column_name',
          joiner: ', ',
          singleKey: field,
          singleKeyWith: [companion],
          description: `One column name per key; the keys are ${field}1, ${field}2, … in this order.`,
        },
        ...flags.map(
          (f): ParamSpec => ({
            kind: 'flag',
            name: f,
            accepted: TRUTHY,
            optional: true,
            description: `Optional; when given it must be "True" and come after the ${field} keys.`,
          }),
        ),
      ],
      `which returns the values of the columns ${field}1, ${field}2, ... of the loaded database; ${flagText}, when given, must be "True".`,
      { [`${field}1`]: 'price', [`${field}2`]: 'service fee', [flags[0] as string]: 'True' },
    ),
    tool(
      'LoadGraph',
      loadGraph,
      [rename(graphKey, 'GraphName', 'The graph data to load: dblp.')],
      `which loads the graph data ${graphKey} and returns the graphs. The ${graphKey} is dblp, which holds the graphs PaperNet and AuthorNet.`,
      { [graphKey]: 'dblp' },
    ),
    tool(
      'NeighbourCheck',
      neighbours,
      [
        rename(nGraph, 'GraphName', 'PaperNet or AuthorNet.'),
        rename(nNode, 'Node', 'A paper title (PaperNet) or an author name (AuthorNet).'),
        {
          kind: 'flag',
          name: nFlag,
          accepted: TRUTHY,
          optional: false,
          description: 'Required; must be "True".',
        },
      ],
      `which lists the neighbours of the node ${nNode} in the graph ${nGraph} and returns the neighbours; ${nFlag} must be "True".`,
      { [nGraph]: 'AuthorNet', [nNode]: examples.author, [nFlag]: 'True' },
    ),
    tool(
      'NodeCheck',
      nodeCheck,
      [
        rename(gGraph, 'GraphName', 'PaperNet or AuthorNet.'),
        rename(gNode, 'Node', 'A paper title (PaperNet) or an author name (AuthorNet).'),
      ],
      `which returns the detailed attribute information of the node ${gNode} in the graph ${gGraph}.`,
      { [gGraph]: 'AuthorNet', [gNode]: examples.author },
    ),
    tool('EdgeCheck', edgeCheck, edgeParams, edgeDescription, edgeExample),
    tool(
      'SQLInterpreter',
      sql,
      [
        {
          kind: 'prefixed',
          name: sqlKey,
          kernel: 'SQL',
          prefix: sqlPrefix,
          trim: false,
          description: `One read-only SQL statement, written after the literal "${sqlPrefix}".`,
        },
      ],
      `which interprets the SQL query in ${sqlKey} and returns the result; ${sqlKey} must start with "${sqlPrefix}".`,
      { [sqlKey]: `${sqlPrefix} ${SQL_EXAMPLE_CODE}` },
    ),
    tool(
      'PythonInterpreter',
      python,
      [
        {
          kind: 'prefixed',
          name: pyKey,
          kernel: 'Python',
          prefix: pyPrefix,
          trim: true,
          description: `Python code written after the literal "${pyPrefix}"; print what you want to see.`,
        },
      ],
      `which interprets the Python code in ${pyKey} and returns the result; ${pyKey} must start with "${pyPrefix}".`,
      { [pyKey]: `${pyPrefix} \n${PYTHON_EXAMPLE_CODE}` },
    ),
    tool('Finish', 'Finish', [rename('answer', 'answer', 'The final answer.')], FINISH_DESCRIPTION, {
      answer: '20:31',
    }),
    tool(
      'UpdateTool',
      'UpdateTool',
      [
        rename(
          'newtool_desc',
          'newtool_desc',
          'A description of a new or changed tool, added to the tool list.',
        ),
      ],
      UPDATE_TOOL_DESCRIPTION,
      {
        newtool_desc: `${loadDb}[${db}], which is an updated version of LoadDB and loads the database ${db}.`,
      },
    ),
  ];
}

function retired(
  kernel: KernelToolName,
  oldApi: string,
  successor: string,
  newFunction: string,
): RetiredName {
  return { name: kernel, kernel, successor, message: deprecated(oldApi, newFunction) };
}

/** The Python example of the deprecation messages: a space after the prefix, then a real line break. */
function pythonExample(key: string, prefix: string): string {
  return `{"${key}": "${prefix} \n${PYTHON_EXAMPLE_CODE}"}`;
}

// ---------------------------------------------------------------------------------------------------------------
// P_s_in (v1)

export const S_IN_SURFACE: Surface = {
  id: 's-in',
  title: 'P_s_in (ToolQA-D v1)',
  description:
    'In-distribution drift (ToolQA-D api_kernel_version 1): every domain tool renamed, numbered filter and column keys, a structured edge argument, mandatory flags and code prefixes; the old names answer with deprecation messages.',
  derivedFrom: 'pc',
  tools: driftedTools(
    {
      retrieveAgenda: ['Fetch_Agenda_Data', 'Query', 'return_num'],
      retrieveScirex: ['FetchScirexData', 'QueryText'],
      loadDb: ['InitializeDatabase', 'DatabaseName'],
      filterDb: ['Apply_Database_Filters', 'condition'],
      getValue: ['FetchValue_ByKey', 'column', ['ReturnResult'], 'ReturnResult'],
      loadGraph: ['InitializeGraphData', 'Graph_Name'],
      neighbourCheck: ['Verify_NeighbourNodes', 'Graph_Name', 'graphNode', 'ReturnResult'],
      nodeCheck: ['ValidateGraphNode', 'Graph_Name', 'graphNode'],
      edgeCheck: [
        'ValidateGraphEdge',
        [
          rename('Graph_Name', 'GraphName', 'PaperNet or AuthorNet.'),
          {
            kind: 'structured',
            name: 'NodeInfos',
            slots: [
              { label: 'FirstNode', kernel: 'Node1' },
              { label: 'SecondNode', kernel: 'Node2' },
            ],
            description:
              'The two nodes as "FirstNode[<node>], SecondNode[<node>]" (no space before the second "[").',
          },
        ],
        { Graph_Name: 'AuthorNet', NodeInfos: 'FirstNode[Chao Zhang], SecondNode[Weihong Lin]' },
        'which returns the detailed attribute information of the edge between the two nodes of NodeInfos, written as "FirstNode[<node>], SecondNode[<node>]", in the graph Graph_Name.',
      ],
      sql: ['ExecuteSQLQuery', 'SQLCommand', 'The SQL code is as follows:'],
      python: ['Execute_Python_Script', 'PythonCode', 'The Python code is as follows:'],
    },
    {
      agenda: "Stephen's Opera performance",
      scirex: 'Mean_IoU score of the FRRN method',
      author: 'Chao Zhang',
    },
  ),
  retired: [
    retired(
      'RetrieveAgenda',
      'RetrieveAgenda[keyword]',
      'Fetch_Agenda_Data',
      `Fetch_Agenda_Data[Query, return_num], param example: {"Query": "Stephen's Opera performance", "return_num": 3}`,
    ),
    retired(
      'RetrieveScirex',
      'RetrieveScirex[keyword]',
      'FetchScirexData',
      'FetchScirexData[QueryText], param example: {"QueryText": "Mean_IoU score of the FRRN method"}',
    ),
    retired(
      'LoadDB',
      'LoadDB[DBName]',
      'InitializeDatabase',
      'InitializeDatabase[DatabaseName], param example: {"DatabaseName": "flights"}',
    ),
    retired(
      'FilterDB',
      'FilterDB[condition]',
      'Apply_Database_Filters',
      'Apply_Database_Filters[condition1], param example: {"condition1": "NAME=Chao Zhang", "condition2": "Date<=2004-01-16"}',
    ),
    retired(
      'GetValue',
      'GetValue[column_name]',
      'FetchValue_ByKey',
      'FetchValue_ByKey[column, ReturnResult], param example: {"column1": "price", "column2": "service fee", "ReturnResult": "True"}',
    ),
    retired(
      'LoadGraph',
      'LoadGraph[GraphName]',
      'InitializeGraphData',
      'InitializeGraphData[Graph_Name], param example: {"Graph_Name": "dblp"}',
    ),
    retired(
      'NeighbourCheck',
      'NeighbourCheck[GraphName, Node]',
      'Verify_NeighbourNodes',
      'Verify_NeighbourNodes[Graph_Name, graphNode, ReturnResult], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang", "ReturnResult": "True"}',
    ),
    retired(
      'NodeCheck',
      'NodeCheck[GraphName, Node]',
      'ValidateGraphNode',
      'ValidateGraphNode[Graph_Name, graphNode], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang"}',
    ),
    retired(
      'EdgeCheck',
      'EdgeCheck[GraphName, Node1, Node2]',
      'ValidateGraphEdge',
      'ValidateGraphEdge[GraphName, NodeInfos], param example: {"Graph_Name": "AuthorNet", "NodeInfos": "FirstNode[Chao Zhang], SecondNode[Weihong Lin]"}',
    ),
    retired(
      'SQLInterpreter',
      'SQLInterpreter[SQL]',
      'ExecuteSQLQuery',
      `ExecuteSQLQuery[SQLCommand], param example: {"SQLCommand": "The SQL code is as follows: ${SQL_EXAMPLE_CODE}"}`,
    ),
    retired(
      'PythonInterpreter',
      'PythonInterpreter[Python]',
      'Execute_Python_Script',
      `Execute_Python_Script[PythonCode], param example: ${pythonExample('PythonCode', 'The Python code is as follows:')}`,
    ),
  ],
  response: { kind: 'plain' },
  messages: { invalidAction: INVALID_ACTION, filtered: ACTION_FILTERED },
};

// ---------------------------------------------------------------------------------------------------------------
// P_s_OOD (v2) and its alternative name set (v2-alt)

interface OodNames {
  retrieveAgenda: string;
  retrieveScirex: string;
  loadDb: string;
  getValue: string;
  getValueFlags: string[];
  getValueSingleKeyWith: string;
  loadGraph: string;
  neighbourCheck: string;
}

function oodSurface(id: string, title: string, description: string, n: OodNames, filtered: string): Surface {
  const retiredNames = (kernel: KernelToolName, oldApi: string, successor: string, rest: string) =>
    retired(kernel, oldApi, successor, `${successor}${rest}`);
  return {
    id,
    title,
    description,
    derivedFrom: 'pc',
    tools: driftedTools(
      {
        retrieveAgenda: [n.retrieveAgenda, 'searchTerm', 'passage_num'],
        retrieveScirex: [n.retrieveScirex, 'queryKeyword'],
        loadDb: [n.loadDb, 'databaseIdentifier'],
        filterDb: ['DoFilter_OnDatabase', 'filterCriteria'],
        getValue: [n.getValue, 'fieldName', n.getValueFlags, n.getValueSingleKeyWith],
        loadGraph: [n.loadGraph, 'Graph'],
        neighbourCheck: [n.neighbourCheck, 'Graph', 'Vertex', 'ReturnValue'],
        nodeCheck: ['Inspect_TheNodes', 'Graph', 'Vertex'],
        edgeCheck: [
          'Inspect_TheEdges',
          [
            {
              kind: 'structured',
              name: 'CheckInfos',
              slots: [
                { label: 'Graph', kernel: 'GraphName' },
                { label: 'Vertex1', kernel: 'Node1' },
                { label: 'Vertex2', kernel: 'Node2' },
              ],
              description:
                'The graph and the two nodes as "Graph[<PaperNet|AuthorNet>], Vertex1[<node>], Vertex2[<node>]" (no space before the last "[").',
            },
          ],
          { CheckInfos: 'Graph[AuthorNet], Vertex1[K. John], Vertex2[Peter]' },
          'which returns the detailed attribute information of the edge described by CheckInfos, written as "Graph[<graph>], Vertex1[<node>], Vertex2[<node>]".',
        ],
        sql: ['ProcessSQLQuery', 'SQL_Query', 'This is the SQL code:'],
        python: ['Process_Python_Code', 'python_execute_Code', 'This is the Python code:'],
      },
      {
        agenda: 'Amelia Breakfast Meeting 2022/01/16',
        scirex: 'F-Measure score of the EAST method',
        author: 'K. John',
      },
    ),
    retired: [
      retiredNames(
        'RetrieveAgenda',
        'RetrieveAgenda[keyword]',
        n.retrieveAgenda,
        '[searchTerm, passage_num], param example: {"searchTerm": "Amelia Breakfast Meeting 2022/01/16", "passage_num": 3}',
      ),
      retiredNames(
        'RetrieveScirex',
        'RetrieveScirex[keyword]',
        n.retrieveScirex,
        '[queryKeyword], param example: {"queryKeyword": "F-Measure score of the EAST method"}',
      ),
      retiredNames(
        'LoadDB',
        'LoadDB[DBName]',
        n.loadDb,
        '[databaseIdentifier], param example: {"databaseIdentifier": "flights"}',
      ),
      retiredNames(
        'FilterDB',
        'FilterDB[condition]',
        'DoFilter_OnDatabase',
        '[filterCriteria1], param example: {"filterCriteria1": "NAME=K. John", "filterCriteria2": "Date<=2008-02-16"}',
      ),
      retiredNames(
        'GetValue',
        'GetValue[column_name]',
        n.getValue,
        '[fieldName, ReturnValue], param example: {"fieldName1": "price", "fieldName2": "service fee", "ReturnValue": "True"}',
      ),
      retiredNames(
        'LoadGraph',
        'LoadGraph[GraphName]',
        n.loadGraph,
        '[Graph], param example: {"Graph": "dblp"}',
      ),
      retiredNames(
        'NeighbourCheck',
        'NeighbourCheck[GraphName, Node]',
        n.neighbourCheck,
        '[Graph, Vertex, ReturnValue], param example: {"Graph": "AuthorNet", "Vertex": "K. John", "ReturnValue": "True"}',
      ),
      retiredNames(
        'NodeCheck',
        'NodeCheck[GraphName, Node]',
        'Inspect_TheNodes',
        '[Graph, Vertex], param example: {"Graph": "AuthorNet", "Vertex": "K. John"}',
      ),
      retiredNames(
        'EdgeCheck',
        'EdgeCheck[GraphName, Node1, Node2]',
        'Inspect_TheEdges',
        '[CheckInfos], param example: {"CheckInfos": "Graph[AuthorNet], Vertex1[K. John], Vertex2[Peter]"}',
      ),
      retiredNames(
        'SQLInterpreter',
        'SQLInterpreter[SQL]',
        'ProcessSQLQuery',
        `[SQL_Query], param example: {"SQL_Query": "This is the SQL code: ${SQL_EXAMPLE_CODE}"}`,
      ),
      retiredNames(
        'PythonInterpreter',
        'PythonInterpreter[Python]',
        'Process_Python_Code',
        `[python_execute_Code], param example: ${pythonExample('python_execute_Code', 'This is the Python code:')}`,
      ),
    ],
    response: { kind: 'plain' },
    messages: { invalidAction: INVALID_ACTION, filtered },
  };
}

export const S_OOD_SURFACE: Surface = oodSurface(
  's-ood',
  'P_s_OOD (ToolQA-D v2)',
  'Out-of-distribution drift (ToolQA-D api_kernel_version 2, the MCTS/inference name set): other names, keys, flags and prefixes than P_s_in, and the edge check takes one structured string for the graph and both nodes.',
  {
    retrieveAgenda: 'Call_Retrieve_On_Agenda',
    retrieveScirex: 'CallRetrieveOnScirex',
    loadDb: 'Init_DB',
    getValue: 'Extract_Value',
    getValueFlags: ['ReturnValue'],
    getValueSingleKeyWith: 'ReturnValue',
    loadGraph: 'Import_Graph',
    neighbourCheck: 'Get_NeighbourList',
  },
  ACTION_FILTERED,
);

export const S_OOD_ALT_SURFACE: Surface = oodSurface(
  's-ood-alt',
  'P_s_OOD, alternative names (ToolQA-D v2-alt)',
  'The P_s_OOD name set that ToolQA-D used with API models on the test set: seven tools renamed again, and the value tool also accepts ReturnResult.',
  {
    retrieveAgenda: 'CallRetrieveOnAgenda',
    retrieveScirex: 'Call_Retrieve_OnScirex',
    loadDb: 'Init_LocalDB',
    getValue: 'ExtractValue_fromDB',
    getValueFlags: ['ReturnValue', 'ReturnResult'],
    getValueSingleKeyWith: 'ReturnResult',
    loadGraph: 'ImportGraph',
    neighbourCheck: 'Get_Neighbour_List',
  },
  ACTION_FILTERED_GPT,
);

export const BUILTIN_SURFACES: readonly Surface[] = [
  PC_SURFACE,
  S_IN_SURFACE,
  S_OOD_SURFACE,
  S_OOD_ALT_SURFACE,
];

export function builtinSurface(id: string): Surface | undefined {
  return BUILTIN_SURFACES.find((s) => s.id === id);
}
