/**
 * The session MCP endpoint through the official MCP TypeScript client (Client + StreamableHTTPClientTransport),
 * whose fetch is routed to the Worker under test.
 */

import { env, exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinSurface } from '../../core/surfaces/builtin.ts';
import { mcpTools } from '../../core/surfaces/docs.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { resolveSchedule, type Schedule } from '../../core/surfaces/schedule.ts';
import { translateCall } from '../../core/surfaces/translate.ts';
import { callKernel, type KernelToolName } from '../../core/world/kernel/kernel.ts';
import { initialState } from '../../core/world/kernel/state.ts';
import type { PlanCall, Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { edgeKernelDeps } from '../../edge/world-runtime.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const BASE = 'https://tooldrift.test';

const INVALID_ACTION =
  'Invalid Action. Valid Actions are RetrieveAgenda[<keyword>] RetrieveScirex[<keyword>] LoadDB[<DBName>] FilterDB[<condition>] GetValue[<column_name>] LoadGraph[<GraphName>] NeighbourCheck[<GraphName>, <Node>] NodeCheck[<GraphName>, <Node>] EdgeCheck[<GraphName>, <Node1>, <Node2>] SQLInterpreter[<SQL>] PythonInterpreter[<Python>] Finish[<answer>] and UpdateTool[<newtool_desc>].';

// §4.8 parameter-error messages.
const FILTER_ERROR = 'There is something wrong with the arguments you send for filtering. Please modify it.';
const VALUE_ERROR =
  'There is something wrong with the arguments you send for getting value. Please modify it.';
const EDGE_ERROR =
  'There is something wrong with the arguments you send for edge checking. Please modify it.';
const SQL_ARGS_ERROR = 'There is something wrong with the arguments you send for SQL. Please modify it.';
const SQL_COMMAND_ERROR = 'There is something wrong with the SQL command you send. Please modify it.';
const PY_ARGS_ERROR = 'There is something wrong with the arguments you send for python. Please modify it.';
const PY_COMMAND_ERROR = 'There is something wrong with the Python command you send. Please modify it.';
const COMMAND_ERROR = 'There is something wrong with your command you send. Please modify it.';
const FLAG_ERROR = 'There is something wrong with the params you send. Please modify it.';

const dep = (old: string, use: string) =>
  `Error: ${old} is deprecated and will be removed in future releases. Use ${use} instead.`;

const PY_EXAMPLE = 'import numpy as np\\nprint(np.mean([247.0, 253.0, 230.0]))'.replaceAll('\\n', '\n');
const SQL_EXAMPLE = "SELECT Volume FROM coffee.coffee_data WHERE Date = '2000-01-14'";

/** §4.6, with tooldrift's two documented choices (v1 RetrieveAgenda example, v2 RetrieveScirex name). */
const DEPRECATIONS: Record<'s-in' | 's-ood', Record<string, string>> = {
  's-in': {
    RetrieveAgenda: dep(
      'RetrieveAgenda[keyword]',
      `Fetch_Agenda_Data[Query, return_num], param example: {"Query": "Stephen's Opera performance", "return_num": 3}`,
    ),
    RetrieveScirex: dep(
      'RetrieveScirex[keyword]',
      'FetchScirexData[QueryText], param example: {"QueryText": "Mean_IoU score of the FRRN method"}',
    ),
    LoadDB: dep(
      'LoadDB[DBName]',
      'InitializeDatabase[DatabaseName], param example: {"DatabaseName": "flights"}',
    ),
    FilterDB: dep(
      'FilterDB[condition]',
      'Apply_Database_Filters[condition1], param example: {"condition1": "NAME=Chao Zhang", "condition2": "Date<=2004-01-16"}',
    ),
    GetValue: dep(
      'GetValue[column_name]',
      'FetchValue_ByKey[column, ReturnResult], param example: {"column1": "price", "column2": "service fee", "ReturnResult": "True"}',
    ),
    LoadGraph: dep(
      'LoadGraph[GraphName]',
      'InitializeGraphData[Graph_Name], param example: {"Graph_Name": "dblp"}',
    ),
    NeighbourCheck: dep(
      'NeighbourCheck[GraphName, Node]',
      'Verify_NeighbourNodes[Graph_Name, graphNode, ReturnResult], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang", "ReturnResult": "True"}',
    ),
    NodeCheck: dep(
      'NodeCheck[GraphName, Node]',
      'ValidateGraphNode[Graph_Name, graphNode], param example: {"Graph_Name": "AuthorNet", "graphNode": "Chao Zhang"}',
    ),
    EdgeCheck: dep(
      'EdgeCheck[GraphName, Node1, Node2]',
      'ValidateGraphEdge[GraphName, NodeInfos], param example: {"Graph_Name": "AuthorNet", "NodeInfos": "FirstNode[Chao Zhang], SecondNode[Weihong Lin]"}',
    ),
    SQLInterpreter: dep(
      'SQLInterpreter[SQL]',
      `ExecuteSQLQuery[SQLCommand], param example: {"SQLCommand": "The SQL code is as follows: ${SQL_EXAMPLE}"}`,
    ),
    PythonInterpreter: dep(
      'PythonInterpreter[Python]',
      `Execute_Python_Script[PythonCode], param example: {"PythonCode": "The Python code is as follows: \n${PY_EXAMPLE}"}`,
    ),
  },
  's-ood': {
    RetrieveAgenda: dep(
      'RetrieveAgenda[keyword]',
      'Call_Retrieve_On_Agenda[searchTerm, passage_num], param example: {"searchTerm": "Amelia Breakfast Meeting 2022/01/16", "passage_num": 3}',
    ),
    RetrieveScirex: dep(
      'RetrieveScirex[keyword]',
      'CallRetrieveOnScirex[queryKeyword], param example: {"queryKeyword": "F-Measure score of the EAST method"}',
    ),
    LoadDB: dep(
      'LoadDB[DBName]',
      'Init_DB[databaseIdentifier], param example: {"databaseIdentifier": "flights"}',
    ),
    FilterDB: dep(
      'FilterDB[condition]',
      'DoFilter_OnDatabase[filterCriteria1], param example: {"filterCriteria1": "NAME=K. John", "filterCriteria2": "Date<=2008-02-16"}',
    ),
    GetValue: dep(
      'GetValue[column_name]',
      'Extract_Value[fieldName, ReturnValue], param example: {"fieldName1": "price", "fieldName2": "service fee", "ReturnValue": "True"}',
    ),
    LoadGraph: dep('LoadGraph[GraphName]', 'Import_Graph[Graph], param example: {"Graph": "dblp"}'),
    NeighbourCheck: dep(
      'NeighbourCheck[GraphName, Node]',
      'Get_NeighbourList[Graph, Vertex, ReturnValue], param example: {"Graph": "AuthorNet", "Vertex": "K. John", "ReturnValue": "True"}',
    ),
    NodeCheck: dep(
      'NodeCheck[GraphName, Node]',
      'Inspect_TheNodes[Graph, Vertex], param example: {"Graph": "AuthorNet", "Vertex": "K. John"}',
    ),
    EdgeCheck: dep(
      'EdgeCheck[GraphName, Node1, Node2]',
      'Inspect_TheEdges[CheckInfos], param example: {"CheckInfos": "Graph[AuthorNet], Vertex1[K. John], Vertex2[Peter]"}',
    ),
    SQLInterpreter: dep(
      'SQLInterpreter[SQL]',
      `ProcessSQLQuery[SQL_Query], param example: {"SQL_Query": "This is the SQL code: ${SQL_EXAMPLE}"}`,
    ),
    PythonInterpreter: dep(
      'PythonInterpreter[Python]',
      `Process_Python_Code[python_execute_Code], param example: {"python_execute_Code": "This is the Python code: \n${PY_EXAMPLE}"}`,
    ),
  },
};

type Case = [tool: string, args: Record<string, unknown>, message: string];

/** Each §4.8 situation, in the shapes of each drifted surface. */
const PARAM_ERRORS: Record<'s-in' | 's-ood', Case[]> = {
  's-in': [
    ['Apply_Database_Filters', { condition2: 'Date>=2000-01-01' }, FILTER_ERROR],
    ['Apply_Database_Filters', { condition2: 'Close>1', condition1: 'Date>=2000-01-01' }, FILTER_ERROR],
    ['FetchValue_ByKey', { column: 'Close' }, VALUE_ERROR],
    ['FetchValue_ByKey', { column1: 'Close', ReturnResult: 'yes' }, VALUE_ERROR],
    ['FetchValue_ByKey', { ReturnResult: 'True', column1: 'Close' }, VALUE_ERROR],
    ['ValidateGraphEdge', { Graph_Name: 'AuthorNet' }, EDGE_ERROR],
    ['ValidateGraphEdge', { Graph_Name: 'AuthorNet', NodeInfos: 'FirstNode[a], SecondNode [b]' }, EDGE_ERROR],
    [
      'ValidateGraphEdge',
      { Graph_Name: 'AuthorNet', NodeInfos: { FirstNode: 'a' } },
      "expected string or bytes-like object, got 'dict'",
    ],
    ['ExecuteSQLQuery', { SQL: 'SELECT 1' }, SQL_ARGS_ERROR],
    ['ExecuteSQLQuery', { SQLCommand: 'SELECT 1' }, SQL_COMMAND_ERROR],
    ['ExecuteSQLQuery', { SQLCommand: 42 }, SQL_COMMAND_ERROR],
    ['Execute_Python_Script', { Python: 'print(1)' }, PY_ARGS_ERROR],
    ['Execute_Python_Script', { PythonCode: 'print(1)' }, PY_COMMAND_ERROR],
    ['InitializeDatabase', { DBName: 'coffee' }, COMMAND_ERROR],
    ['Fetch_Agenda_Data', { Query: 'x' }, COMMAND_ERROR],
    ['Finish', { answer: '1', extra: 1 }, COMMAND_ERROR],
    ['Verify_NeighbourNodes', { Graph_Name: 'AuthorNet', graphNode: 'x', ReturnResult: 'False' }, FLAG_ERROR],
  ],
  's-ood': [
    ['DoFilter_OnDatabase', { filterCriteria2: 'Date>=2000-01-01' }, FILTER_ERROR],
    ['DoFilter_OnDatabase', { condition1: 'Date>=2000-01-01' }, FILTER_ERROR],
    ['Extract_Value', { fieldName: 'Close' }, VALUE_ERROR],
    ['Extract_Value', { fieldName1: 'Close', ReturnValue: 'no' }, VALUE_ERROR],
    ['Extract_Value', { column1: 'Close' }, VALUE_ERROR],
    ['Inspect_TheEdges', { CheckInfo: 'Graph[AuthorNet], Vertex1[a], Vertex2[b]' }, EDGE_ERROR],
    ['Inspect_TheEdges', { CheckInfos: 'Graph[AuthorNet], Vertex1[a]' }, EDGE_ERROR],
    [
      'Inspect_TheEdges',
      { CheckInfos: ['Graph[AuthorNet]'] },
      "expected string or bytes-like object, got 'list'",
    ],
    ['ProcessSQLQuery', { SQLCommand: 'SELECT 1' }, SQL_ARGS_ERROR],
    ['ProcessSQLQuery', { SQL_Query: 'The SQL code is as follows: SELECT 1' }, SQL_COMMAND_ERROR],
    ['Process_Python_Code', { PythonCode: 'print(1)' }, PY_ARGS_ERROR],
    ['Process_Python_Code', { python_execute_Code: ' This is the Python code: print(1)' }, PY_COMMAND_ERROR],
    ['Init_DB', { DatabaseName: 'coffee' }, COMMAND_ERROR],
    ['Import_Graph', { Graph_Name: 'dblp' }, COMMAND_ERROR],
    ['UpdateTool', {}, COMMAND_ERROR],
    ['Get_NeighbourList', { Graph: 'AuthorNet', Vertex: 'x', ReturnValue: 'nope' }, FLAG_ERROR],
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/**
 * The Worker's fetch, as a client that honours the per-key rate limit would call it: a 429 is retried after its
 * `Retry-After` (this file makes more calls than the test key's burst allows).
 */
async function politeFetch(request: Request): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await exports.default.fetch(request.clone());
    if (res.status !== 429 || attempt >= 20) return res;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
  }
}

/** helpers.ts `call`, through `politeFetch`. */
function send(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  return politeFetch(new Request(`${BASE}${path}`, { ...init, headers }));
}

const json = (body: unknown, key = USER_KEY) => ({
  method: 'POST',
  key,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function createSession(body: Record<string, unknown>): Promise<string> {
  const res = await send('/v1/sessions', json({ stepBudget: 200, ...body }));
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

const moveClock = async (id: string, at: string) => {
  const res = await send(`/v1/sessions/${id}/clock`, json({ at }, ADMIN_KEY));
  expect(res.status).toBe(200);
  await res.body?.cancel();
};

interface Connection {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Resolves once the GET stream (server notifications) is open. */
  streamOpen: Promise<void>;
  /** `notifications/tools/list_changed` received so far. */
  toolsChanged: { count: number; next: () => Promise<void> };
}

/** Connects the official client to a session's MCP endpoint, through the Worker's fetch handler. */
async function connect(sessionId: string): Promise<Connection> {
  let opened!: () => void;
  const streamOpen = new Promise<void>((r) => {
    opened = r;
  });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/v1/sessions/${sessionId}/mcp`), {
    fetch: async (url, init) => {
      const res = await politeFetch(new Request(url, init));
      if (init?.method === 'GET' && res.ok) opened();
      return res;
    },
    requestInit: { headers: { authorization: `Bearer ${USER_KEY}` } },
  });
  const client = new Client({ name: 'tooldrift-test', version: '1.0.0' });
  let waiters: (() => void)[] = [];
  const toolsChanged = {
    count: 0,
    next: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no tools/list_changed notification')), 10_000);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
    toolsChanged.count += 1;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  });
  await client.connect(transport);
  return { client, transport, streamOpen, toolsChanged };
}

async function withClient<T>(sessionId: string, fn: (c: Connection) => Promise<T>): Promise<T> {
  const connection = await connect(sessionId);
  try {
    return await fn(connection);
  } finally {
    await connection.client.close();
  }
}

function text(result: CallToolResult): string {
  expect(result.content).toHaveLength(1);
  const [item] = result.content;
  if (item?.type !== 'text')
    throw new Error(`expected one text content, got ${JSON.stringify(result.content)}`);
  return item.text;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function expectToolError(client: Client, name: string, args: Record<string, unknown>, message: string) {
  const result = await callTool(client, name, args);
  expect({ name, args, text: text(result), isError: result.isError }).toEqual({
    name,
    args,
    text: message,
    isError: true,
  });
}

async function expectProtocolError(client: Client, name: string, args: Record<string, unknown>) {
  try {
    await client.callTool({ name, arguments: args });
  } catch (err) {
    if (!(err instanceof McpError)) throw err;
    return err;
  }
  throw new Error(`expected a JSON-RPC error for ${name}`);
}

function translated(surface: Surface, step: PlanCall): { tool: string; args: Record<string, unknown> } {
  const t = translateCall(surface, step);
  if (!t.ok) throw new Error(`cannot translate ${step.tool} to ${surface.id}: ${t.reason}`);
  return { tool: t.tool, args: t.args };
}

const SURFACES = ['pc', 's-in', 's-ood'] as const;

/** An AuthorNet EdgeCheck whose two names lead to the edge's own authors and translate to every surface. */
function coauthorEdge(world: World): PlanCall {
  const { authors, nameToAuthorId, coauthors } = world.dblp;
  for (const [a, neighbours] of coauthors) {
    for (const b of neighbours.keys()) {
      const [nameA, nameB] = [authors.get(a)?.name, authors.get(b)?.name];
      if (!nameA || !nameB || nameToAuthorId.get(nameA) !== a || nameToAuthorId.get(nameB) !== b) continue;
      const call: PlanCall = {
        tool: 'EdgeCheck',
        args: { GraphName: 'AuthorNet', Node1: nameA, Node2: nameB },
      };
      if (SURFACES.every((s) => translateCall(surfaceById(s), call).ok)) return call;
    }
  }
  throw new Error('the world has no usable AuthorNet edge');
}

function surfaceById(id: string): Surface {
  const surface = builtinSurface(id);
  if (!surface) throw new Error(`no surface ${id}`);
  return surface;
}

/**
 * Test tasks whose reference plans together call every kernel tool the world's tasks use, each plan translatable
 * on every surface (so that the same observations are expected everywhere).
 */
function coveringTasks(tasks: Task[]): { tasks: Task[]; covered: Set<KernelToolName> } {
  const covered = new Set<KernelToolName>();
  const chosen: Task[] = [];
  const translatable = (t: Task) =>
    SURFACES.every((s) => t.plan.every((p) => translateCall(surfaceById(s), p).ok));
  for (const task of tasks) {
    if (task.split !== 'test' || !task.plan.some((p) => !covered.has(p.tool)) || !translatable(task))
      continue;
    chosen.push(task);
    for (const p of task.plan) covered.add(p.tool);
  }
  return { tasks: chosen, covered };
}

// ---------------------------------------------------------------------------------------------------------------

describe('MCP endpoint', () => {
  let world: World;
  let tasks: Task[];
  let coffee: Task;
  beforeAll(async () => {
    ({ world, tasks } = await seedTestWorld());
    coffee = tasks.find(
      (t) => t.dataset === 'coffee' && t.difficulty === 'easy' && t.split === 'test',
    ) as Task;
  });

  describe.each(SURFACES)('on %s', (surfaceId) => {
    const surface = surfaceById(surfaceId);

    it('lists the surface tools with their JSON Schemas and announces list_changed', async () => {
      const id = await createSession({ taskId: coffee.id, surface: surfaceId });
      await withClient(id, async ({ client }) => {
        expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
        expect(client.getInstructions()).toContain(coffee.question);
        const { tools } = await client.listTools();
        expect(tools).toEqual(mcpTools(surface));
        expect(tools.map((t) => t.name)).toEqual(surface.tools.map((t) => t.name));
      });
    });

    it('plays reference plans through MCP: every tool kind answers with the exact kernel observation', async () => {
      const { tasks: plans, covered } = coveringTasks(tasks);
      // Every kernel tool but EdgeCheck (no task plan checks an edge: the next test does) and SQLInterpreter.
      expect([...covered].sort()).toEqual(
        [
          'Finish',
          'FilterDB',
          'GetValue',
          'LoadDB',
          'LoadGraph',
          'NeighbourCheck',
          'NodeCheck',
          'PythonInterpreter',
          'RetrieveAgenda',
          'RetrieveScirex',
        ].sort(),
      );
      for (const task of plans) {
        const id = await createSession({ taskId: task.id, surface: surfaceId });
        await withClient(id, async ({ client }) => {
          for (const [i, step] of task.plan.entries()) {
            const { tool, args } = translated(surface, step);
            const result = await callTool(client, tool, args);
            expect({ task: task.id, tool, text: text(result) }).toEqual({
              task: task.id,
              tool,
              text: step.observation,
            });
            const meta = result._meta?.['tooldrift/step'] as Record<string, unknown>;
            expect(meta).toMatchObject({ step: i + 1, stepsLeft: 200 - (i + 1) });
            if (step.tool === 'Finish') {
              expect(result.isError).toBe(false);
              expect(meta).toMatchObject({
                done: true,
                reward: 1,
                outcome: { kind: 'finished', correct: true },
              });
            }
          }
        });
      }
    });

    it('runs EdgeCheck, SQL and UpdateTool, and reports kernel errors as isError results', async () => {
      const id = await createSession({ taskId: coffee.id, surface: surfaceId });
      await withClient(id, async ({ client }) => {
        // No task plan checks an edge: the expected observation comes from the kernel itself.
        const edge = coauthorEdge(world);
        const loadGraph: PlanCall = { tool: 'LoadGraph', args: { GraphName: 'dblp' } };
        const loaded = await callKernel(world, initialState(), loadGraph, edgeKernelDeps(env));
        const expected = await callKernel(world, loaded.state, edge, edgeKernelDeps(env));
        expect(expected.outcome).toEqual({ kind: 'ok' });
        const graph = translated(surface, loadGraph);
        expect(text(await callTool(client, graph.tool, graph.args))).toBe(loaded.observation);
        const edgeCall = translated(surface, edge);
        const checked = await callTool(client, edgeCall.tool, edgeCall.args);
        expect(text(checked)).toBe(expected.observation);
        expect(checked.isError).toBe(false);

        const sql = translated(surface, {
          tool: 'SQLInterpreter',
          args: { SQL: 'SELECT COUNT(*) AS n FROM coffee.coffee_data' },
        });
        const counted = await callTool(client, sql.tool, sql.args);
        expect(text(counted)).toBe(`n: ${world.tables.coffee.rowCount}`);
        expect(counted.isError).toBe(false);
        const update = translated(surface, { tool: 'UpdateTool', args: { newtool_desc: 'a note' } });
        const updated = await callTool(client, update.tool, update.args);
        expect(text(updated)).toBe('The description for the new tool has been updated successfully.');
        const load = translated(surface, { tool: 'LoadDB', args: { DBName: 'nosuchdb' } });
        const failed = await callTool(client, load.tool, load.args);
        expect(text(failed)).toBe(
          'The database you want to query in not in the list. Please change another database for query.',
        );
        expect(failed.isError).toBe(true);
        expect(failed._meta?.['tooldrift/step']).toMatchObject({ outcome: { kind: 'error' } });
      });
    });

    it('answers an unknown tool with JSON-RPC error -32602 whose message is the exact invalid-action text', async () => {
      const id = await createSession({ taskId: coffee.id, surface: surfaceId });
      await withClient(id, async ({ client }) => {
        const otherVersion = surfaceId === 'pc' ? 'InitializeDatabase' : 'Init_LocalDB';
        for (const name of ['Calculate', otherVersion, 'LoadDB[coffee]']) {
          const err = await expectProtocolError(client, name, { DBName: 'coffee' });
          expect(err.code).toBe(-32602);
          expect(err.message).toBe(`MCP error -32602: ${INVALID_ACTION}`);
          expect(err.data).toMatchObject({
            observation: INVALID_ACTION,
            outcome: { kind: 'rejected', reason: 'invalid-action' },
          });
        }
        // Each still took a step, as an invalid action does.
        const load = translated(surface, { tool: 'LoadDB', args: { DBName: 'coffee' } });
        const next = await callTool(client, load.tool, load.args);
        expect(next._meta?.['tooldrift/step']).toMatchObject({ step: 4 });
      });
    });

    if (surfaceId === 'pc') {
      it('reports a wrong key set on P_c as the invalid-action text in an isError result (the tool exists)', async () => {
        const id = await createSession({ taskId: coffee.id, surface: 'pc' });
        await withClient(id, async ({ client }) => {
          await expectToolError(client, 'LoadDB', { DatabaseName: 'coffee' }, INVALID_ACTION);
          await expectToolError(client, 'FilterDB', { condition1: 'Date>=2000-01-01' }, INVALID_ACTION);
          await expectToolError(client, 'Finish', {}, INVALID_ACTION);
        });
      });
    } else {
      const drifted = surfaceId;
      it('answers every old name with its exact deprecation message', async () => {
        const id = await createSession({ taskId: coffee.id, surface: drifted });
        await withClient(id, async ({ client }) => {
          const messages = DEPRECATIONS[drifted];
          expect(Object.keys(messages)).toHaveLength(11);
          for (const [old, message] of Object.entries(messages)) {
            // Arguments are not inspected for an old name.
            await expectToolError(client, old, { anything: 1 }, message);
          }
        });
      });

      it('answers each parameter error with its exact message', async () => {
        const id = await createSession({ taskId: coffee.id, surface: drifted });
        await withClient(id, async ({ client }) => {
          for (const [tool, args, message] of PARAM_ERRORS[drifted]) {
            await expectToolError(client, tool, args, message);
          }
        });
      });
    }
  });

  it('records MCP calls like any other step: transcript, journal, budget', async () => {
    const id = await createSession({ taskId: coffee.id, stepBudget: 3 });
    await withClient(id, async ({ client }) => {
      await callTool(client, 'LoadDB', { DBName: 'coffee' });
      await expectProtocolError(client, 'NoSuchTool', {});
      const last = await callTool(client, 'GetValue', { column_name: 'Close' });
      expect(last._meta?.['tooldrift/step']).toMatchObject({ step: 3, stepsLeft: 0, done: true, reward: -1 });
      const after = await callTool(client, 'LoadDB', { DBName: 'coffee' });
      expect(after.isError).toBe(true);
      expect(text(after)).toBe('The session has ended (budget); reward -1.');
    });
    const view = (await (await send(`/v1/sessions/${id}`, { key: USER_KEY })).json()) as {
      transcript: { via: string; action: string }[];
    };
    expect(view.transcript.map((e) => [e.via, e.action])).toEqual([
      ['mcp', 'LoadDB'],
      ['mcp', 'NoSuchTool'],
      ['mcp', 'GetValue'],
    ]);
    // The session writes its journal right after answering.
    const journalled = async () =>
      (
        await env.DB.prepare('SELECT via, action, outcome FROM journal WHERE session_id = ? ORDER BY id')
          .bind(id)
          .all<{ via: string; action: string; outcome: string }>()
      ).results;
    await vi.waitFor(async () => expect(await journalled()).toHaveLength(3), { timeout: 5_000 });
    expect(await journalled()).toEqual([
      { via: 'mcp', action: 'LoadDB', outcome: 'ok' },
      { via: 'mcp', action: 'NoSuchTool', outcome: 'rejected' },
      { via: 'mcp', action: 'GetValue', outcome: 'ok' },
    ]);
  });

  it('turns injected 429s into JSON-RPC error -32029 with the fault response as data', async () => {
    const id = await createSession({
      taskId: coffee.id,
      faults: { surface: { rateLimit: { rate: 1, retryAfterSeconds: 7 } } },
    });
    await withClient(id, async ({ client }) => {
      const err = await expectProtocolError(client, 'LoadDB', { DBName: 'coffee' });
      expect(err.code).toBe(-32029);
      expect(err.data).toEqual({ status: 429, headers: { 'Retry-After': '7' }, body: 'Too Many Requests' });
    });
  });

  describe('schedules', () => {
    const schedule = (stages: Schedule['stages']): Schedule => ({ id: 'mcp-migration', stages });
    const toolsAt = (s: Schedule, at: string) => {
      const surfaces = { pc: surfaceById('pc'), 's-in': surfaceById('s-in') };
      const now = new Date(at);
      return mcpTools(resolveSchedule(s, surfaces, now).current, { now });
    };

    it('sends tools/list_changed when the admin clock moves past a change, and lists the new surface', async () => {
      const plan = schedule([
        { surface: 'pc', effectiveFrom: '2026-01-01' },
        { surface: 's-in', effectiveFrom: '2026-03-01', sunsetAt: '2026-04-01' },
      ]);
      const id = await createSession({ taskId: coffee.id, schedule: plan });
      await moveClock(id, '2026-02-01T00:00:00Z');
      await withClient(id, async ({ client, streamOpen, toolsChanged }) => {
        await streamOpen;
        expect((await client.listTools()).tools).toEqual(toolsAt(plan, '2026-02-01T00:00:00Z'));

        // A move that changes nothing announces nothing.
        await moveClock(id, '2026-02-10T00:00:00Z');
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('LoadDB');

        // The s-in stage: its names plus the pc names inside their deprecation window.
        let changed = toolsChanged.next();
        await moveClock(id, '2026-03-15T00:00:00Z');
        await changed;
        expect(toolsChanged.count).toBe(1);
        const during = (await client.listTools()).tools;
        expect(during).toEqual(toolsAt(plan, '2026-03-15T00:00:00Z'));
        expect(during.map((t) => t.name)).toEqual(expect.arrayContaining(['InitializeDatabase', 'LoadDB']));
        const old = await callTool(client, 'LoadDB', { DBName: 'coffee' });
        expect(old.isError).toBe(false);
        expect(old._meta?.['tooldrift/step']).toMatchObject({
          deprecation: { tool: 'LoadDB', status: 'deprecated', successor: 'InitializeDatabase' },
        });

        // The window closes: the old names leave the list and answer with their deprecation message.
        changed = toolsChanged.next();
        await moveClock(id, '2026-04-02T00:00:00Z');
        await changed;
        expect(toolsChanged.count).toBe(2);
        const after = (await client.listTools()).tools;
        expect(after.map((t) => t.name)).toEqual(surfaceById('s-in').tools.map((t) => t.name));
        await expectToolError(client, 'LoadDB', { DBName: 'coffee' }, DEPRECATIONS['s-in'].LoadDB as string);
      });
    });

    it('sends tools/list_changed from the alarm when the change comes in real time', async () => {
      const plan = schedule([
        { surface: 'pc', effectiveFrom: '2026-01-01' },
        { surface: 's-in', effectiveFrom: '2026-03-01' },
      ]);
      const id = await createSession({ taskId: coffee.id, schedule: plan });
      await moveClock(id, '2026-02-01T00:00:00Z');
      await withClient(id, async ({ client, streamOpen, toolsChanged }) => {
        await streamOpen;
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('LoadDB');
        // The session clock 1.5 s before the change: nothing changes now, the alarm fires 1.5 s later, and no
        // request comes in meanwhile that could announce the change instead.
        const changed = toolsChanged.next();
        const moved = Date.now();
        await moveClock(id, '2026-02-28T23:59:58.500Z');
        await changed;
        expect(Date.now() - moved).toBeGreaterThanOrEqual(1_000);
        expect(toolsChanged.count).toBe(1);
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
          surfaceById('s-in').tools.map((t) => t.name),
        );
      });
    });
  });

  describe('HTTP', () => {
    let id: string;
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const mcp = (sessionId: string, init: RequestInit & { key?: string }) =>
      send(`/v1/sessions/${sessionId}/mcp`, {
        key: USER_KEY,
        ...init,
        headers: { accept: 'application/json, text/event-stream', ...init.headers },
      });
    const post = (sessionId: string, body: string, headers: Record<string, string> = {}) =>
      mcp(sessionId, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const rpcError = async (res: Response, status: number, code: number) => {
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect({ status: res.status, body }).toMatchObject({ status, body: { jsonrpc: '2.0' } });
      expect(body.error.code).toBe(code);
      return body.error.message;
    };
    beforeAll(async () => {
      id = await createSession({ taskId: coffee.id });
    });

    it('refuses requests without a valid key, for unknown sessions and malformed ids with problems', async () => {
      await expectProblem(
        await mcp(id, { method: 'POST', key: undefined, body: JSON.stringify(initialize) }),
        401,
        'unauthorized',
      );
      await expectProblem(
        await post('00000000-0000-4000-8000-000000000000', JSON.stringify(initialize)),
        404,
        'not-found',
      );
      await expectProblem(await post('not-a-uuid', JSON.stringify(initialize)), 400, 'validation-error');
      await expectProblem(await mcp(id, { method: 'PUT', body: '{}' }), 405, 'method-not-allowed');
    });

    it('refuses bodies that are not JSON or not JSON-RPC with problems', async () => {
      await expectProblem(await post(id, '{"jsonrpc": "2.0",'), 400, 'malformed-json');
      await expectProblem(await post(id, '{"hello": "world"}'), 400, 'validation-error');
      await expectProblem(await post(id, JSON.stringify([initialize])), 400, 'validation-error');
      await expectProblem(
        await mcp(id, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } }),
        415,
        'unsupported-media-type',
      );
    });

    it('answers transport errors with JSON-RPC errors', async () => {
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(await rpcError(await post(id, list), 400, -32000)).toMatch(/Mcp-Session-Id header is required/);
      expect(
        await rpcError(await post(id, list, { 'mcp-session-id': 'no-such-mcp-session' }), 404, -32001),
      ).toBe('Session not found');
      await rpcError(await mcp(id, { method: 'GET', headers: { accept: 'text/event-stream' } }), 400, -32000);
      await rpcError(
        await mcp(id, {
          method: 'POST',
          body: JSON.stringify(initialize),
          headers: { 'content-type': 'application/json', accept: 'application/json' },
        }),
        406,
        -32000,
      );
    });

    it('opens an MCP session with a raw initialize and ends it with DELETE', async () => {
      const res = await post(id, JSON.stringify(initialize));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const mcpSession = res.headers.get('mcp-session-id') as string;
      expect(mcpSession).toMatch(/^[0-9a-f-]{36}$/);
      const events = await res.text();
      expect(events).toContain('"serverInfo":{"name":"tooldrift"');
      const headers = { 'mcp-session-id': mcpSession, 'mcp-protocol-version': '2025-06-18' };
      const ended = await mcp(id, { method: 'DELETE', headers });
      expect(ended.status).toBe(200);
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(await rpcError(await post(id, list, headers), 404, -32001)).toBe('Session not found');
    });

    it('is described in /openapi.json', async () => {
      const doc = (await (await call('/openapi.json')).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(doc.paths['/v1/sessions/{id}/mcp'] ?? {}).sort()).toEqual(['delete', 'get', 'post']);
    });
  });
});
