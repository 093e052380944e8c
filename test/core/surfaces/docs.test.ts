import { describe, expect, it } from 'vitest';
import { resolveCall } from '../../../core/surfaces/adapter.ts';
import { BUILTIN_SURFACES, PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import {
  type JsonSchema,
  mcpTools,
  renderToolList,
  surfaceOpenApi,
  toolArgumentsSchema,
} from '../../../core/surfaces/docs.ts';
import type { Surface, SurfaceTool } from '../../../core/surfaces/model.ts';

/** Spec §5.1, lines 7–9 with their trailing space. */
const PC_TOOL_LIST = `(1) RetrieveAgenda[keyword], which retrieves the agenda related to keyword.
(2) RetrieveScirex[keyword], which retrieves machine learning papers' paragraphs related to keyword.
(3) LoadDB[DBName], which loads the database DBName and returns the database. The DBName can be one of the following: flights/coffee/airbnb/yelp/agenda.
(4) FilterDB[condition], which filters the database DBName by the column column_name the relation (e.g., =, >, etc.) and the value value, and returns the filtered database.
(5) GetValue[column_name], which returns the value of the column column_name in the database DBName.
(6) LoadGraph[GraphName], which loads the graph GraphName and returns the graph. The GraphName can be one of the following: PaperNet/AuthorNet.
(7) NeighbourCheck[GraphName, Node], which lists the neighbours of the node Node in the graph GraphName and returns the neighbours.${' '}
(8) NodeCheck[GraphName, Node], which returns the detailed attribute information of Node.${' '}
(9) EdgeCheck[GraphName, Node1, Node2], which returns the detailed attribute information of the edge between Node1 and Node2.${' '}
(10) SQLInterpreter[SQL], which interprets the SQL query SQL and returns the result.
(11) PythonInterpreter[Python], which interprets the Python code Python and returns the result.
(12) Finish[answer], which returns the answer and finishes the task.
(13) UpdateTool[newtool_desc], which updates the description of the tool.`;

describe('renderToolList', () => {
  it('renders P_c exactly as the ToolQA-D prompt lists it', () => {
    expect(renderToolList(PC_SURFACE)).toBe(PC_TOOL_LIST);
    expect(PC_TOOL_LIST.split('\n').filter((l) => l.endsWith(' '))).toHaveLength(3);
  });

  it('appends the UpdateTool lines after a newline', () => {
    const added = [
      '(14) InitializeDatabase[DatabaseName], which loads a database.',
      '(15) X[y], which does z.',
    ];
    expect(renderToolList(PC_SURFACE, { newTools: added })).toBe(`${PC_TOOL_LIST}\n${added.join('\n')}`);
    expect(renderToolList(PC_SURFACE, { newTools: [] })).toBe(PC_TOOL_LIST);
  });

  it('renders the drifted surfaces in the same style with their own names and parameters', () => {
    const lines = renderToolList(S_IN_SURFACE).split('\n');
    expect(lines.map((l) => /^\((\d+)\) /.exec(l)?.[1])).toEqual(
      Array.from({ length: 13 }, (_, i) => String(i + 1)),
    );
    expect(lines[3]).toBe(
      '(4) Apply_Database_Filters[condition1, condition2, ...], which filters the loaded database by the conditions condition1, condition2, ... (each a column, a relation such as =, > or <= and a value, applied in order) and returns the filtered database.',
    );
    expect(lines[4]).toBe(
      '(5) FetchValue_ByKey[column1, column2, ..., ReturnResult], which returns the values of the columns column1, column2, ... of the loaded database; ReturnResult, when given, must be "True".',
    );
    expect(lines[8]).toBe(
      '(9) ValidateGraphEdge[Graph_Name, NodeInfos], which returns the detailed attribute information of the edge between the two nodes of NodeInfos, written as "FirstNode[<node>], SecondNode[<node>]", in the graph Graph_Name.',
    );
    expect(renderToolList(S_OOD_SURFACE).split('\n')[9]).toBe(
      '(10) ProcessSQLQuery[SQL_Query], which interprets the SQL query in SQL_Query and returns the result; SQL_Query must start with "This is the SQL code:".',
    );
  });

  it('leaves out tools past their sunset', () => {
    const s: Surface = {
      ...PC_SURFACE,
      tools: PC_SURFACE.tools.map((t) =>
        t.name === 'LoadDB' ? { ...t, lifecycle: { status: 'active', sunsetAt: '2026-05-01' } } : t,
      ),
    };
    expect(renderToolList(s)).toBe(PC_TOOL_LIST);
    const after = renderToolList(s, { now: new Date('2026-05-02') }).split('\n');
    expect(after).toHaveLength(12);
    expect(after[2]).toBe(
      '(3) FilterDB[condition], which filters the database DBName by the column column_name the relation (e.g., =, >, etc.) and the value value, and returns the filtered database.',
    );
  });
});

// ---------------------------------------------------------------------------------------------------------------
// JSON Schemas

/** Validates a value against the subset of JSON Schema the surface schemas use. */
function schemaErrors(schema: JsonSchema, value: unknown): string[] {
  const errors: string[] = [];
  if (schema.type === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['not an object'];
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, JsonSchema>);
    for (const r of (schema.required ?? []) as string[]) if (!(r in obj)) errors.push(`missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      const sub = props[k] ?? patterns.find(([p]) => new RegExp(p).test(k))?.[1];
      if (!sub) {
        if (schema.additionalProperties === false) errors.push(`unexpected ${k}`);
        continue;
      }
      errors.push(...schemaErrors(sub, v).map((e) => `${k}: ${e}`));
    }
    return errors;
  }
  if (schema.type === 'string' && typeof value !== 'string') errors.push('not a string');
  if (
    typeof schema.pattern === 'string' &&
    typeof value === 'string' &&
    !new RegExp(schema.pattern).test(value)
  ) {
    errors.push(`does not match ${schema.pattern}`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errors.push('not in enum');
  return errors;
}

const allTools = BUILTIN_SURFACES.flatMap((s) => s.tools.map((t): [string, SurfaceTool] => [s.id, t]));

describe('toolArgumentsSchema', () => {
  it.each(allTools)('%s %s: the example is valid, and so are the schemas own examples', (_id, tool) => {
    const schema = toolArgumentsSchema(tool);
    expect(schemaErrors(schema, tool.example)).toEqual([]);
    expect(schema.examples).toEqual([tool.example]);
    expect(schema.additionalProperties).toBe(false);
  });

  it('documents numbered parameters as five properties plus a pattern, flags as enums', () => {
    const value = S_IN_SURFACE.tools.find((t) => t.kernel === 'GetValue') as SurfaceTool;
    const schema = toolArgumentsSchema(value);
    const props = schema.properties as Record<string, JsonSchema>;
    expect(Object.keys(props)).toEqual([
      'column1',
      'column2',
      'column3',
      'column4',
      'column5',
      'ReturnResult',
    ]);
    expect(props.ReturnResult?.enum).toEqual(['True', 'true', true]);
    expect(schema.required).toEqual(['column1']);
    expect(Object.keys(schema.patternProperties as object)).toEqual(['^column([6-9]|[1-9][0-9]+)$']);
    expect(schemaErrors(schema, { column1: 'a', column6: 'b', column12: 'c' })).toEqual([]);
    expect(schemaErrors(schema, { column1: 'a', column0: 'b', ReturnResult: 'yes' })).toEqual([
      'unexpected column0',
      'ReturnResult: not in enum',
    ]);
    expect(schema.description).toBe(
      'FetchValue_ByKey[column1, column2, ..., ReturnResult], which returns the values of the columns column1, column2, ... of the loaded database; ReturnResult, when given, must be "True".',
    );
  });

  it('gives prefixed strings an anchored pattern and leaves ignored values and answers untyped', () => {
    const byKernel = (s: Surface, k: string) =>
      toolArgumentsSchema(s.tools.find((t) => t.kernel === k) as SurfaceTool);
    const sql = byKernel(S_IN_SURFACE, 'SQLInterpreter').properties as Record<string, JsonSchema>;
    expect(sql.SQLCommand?.pattern).toBe('^The SQL code is as follows:');
    expect(
      schemaErrors(byKernel(S_IN_SURFACE, 'SQLInterpreter'), {
        SQLCommand: ' The SQL code is as follows: x',
      }),
    ).toEqual(['SQLCommand: does not match ^The SQL code is as follows:']);
    const agenda = byKernel(S_OOD_SURFACE, 'RetrieveAgenda').properties as Record<string, JsonSchema>;
    expect(agenda.passage_num).toEqual({
      description: 'How many passages to return (required). Any value is accepted.',
      examples: [3],
    });
    const finish = byKernel(PC_SURFACE, 'Finish');
    expect((finish.properties as Record<string, JsonSchema>).answer).toEqual({
      description: 'The final answer.',
    });
    expect(schemaErrors(finish, { answer: 42 })).toEqual([]);
  });

  it('writes the structured grammar as a pattern that accepts what the adapter accepts', () => {
    const cases: [Surface, string, string[]][] = [
      [
        S_IN_SURFACE,
        'NodeInfos',
        [
          'FirstNode[Chao Zhang], SecondNode[Weihong Lin]',
          'x FirstNode  [a] ,SecondNode[b] y',
          'FirstNode[a], SecondNode [b]',
          'FirstNode[a]; SecondNode[b]',
          'FirstNode[a\nb], SecondNode[c]',
          'SecondNode[b], FirstNode[a]',
        ],
      ],
      [
        S_OOD_SURFACE,
        'CheckInfos',
        [
          'Graph[AuthorNet], Vertex1[K. John], Vertex2[Peter]',
          'Graph [g] , Vertex1 [a],Vertex2[b]',
          'Graph[g], Vertex1[a], Vertex2 [b]',
          'Graph[g], Vertex2[b], Vertex1[a]',
        ],
      ],
    ];
    for (const [s, key, values] of cases) {
      const tool = s.tools.find((t) => t.kernel === 'EdgeCheck') as SurfaceTool;
      const pattern = new RegExp(
        (toolArgumentsSchema(tool).properties as Record<string, JsonSchema>)[key]?.pattern as string,
      );
      for (const v of values) {
        const args = { ...tool.example, [key]: v };
        expect(pattern.test(v), v).toBe(resolveCall(s, tool.name, args).kind === 'call');
      }
    }
  });
});

describe('mcpTools', () => {
  it('lists the served tools with their schemas', () => {
    const tools = mcpTools(S_IN_SURFACE);
    expect(tools.map((t) => t.name)).toEqual(S_IN_SURFACE.tools.map((t) => t.name));
    expect(tools[0]).toEqual({
      name: 'Fetch_Agenda_Data',
      description:
        'Fetch_Agenda_Data[Query, return_num], which retrieves the agenda related to Query; return_num must be given.',
      inputSchema: toolArgumentsSchema(S_IN_SURFACE.tools[0] as SurfaceTool),
    });
    const sunset: Surface = {
      ...S_IN_SURFACE,
      tools: S_IN_SURFACE.tools.map((t, i) => (i === 0 ? { ...t, lifecycle: { status: 'sunset' } } : t)),
    };
    expect(mcpTools(sunset).map((t) => t.name)).not.toContain('Fetch_Agenda_Data');
  });
});

// ---------------------------------------------------------------------------------------------------------------
// OpenAPI

function refs(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refs(x, out);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refs(x, out);
    }
  }
  return out;
}

function resolveRef(doc: JsonSchema, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
}

describe.each(BUILTIN_SURFACES.map((s) => [s.id, s] as const))('surfaceOpenApi (%s)', (_id, s) => {
  const doc = surfaceOpenApi(s);
  const paths = doc.paths as Record<string, { post: JsonSchema }>;

  it('has one POST per tool and retired name, with the tool schema as request body', () => {
    expect(Object.keys(paths)).toEqual([
      ...s.tools.map((t) => `/v1/sessions/{id}/tools/${t.name}`),
      ...s.retired.map((r) => `/v1/sessions/{id}/tools/${r.name}`),
    ]);
    for (const t of s.tools) {
      const op = paths[`/v1/sessions/{id}/tools/${t.name}`]?.post as JsonSchema;
      expect(op.operationId).toBe(`call_${t.name}`);
      expect(op.deprecated).toBeUndefined();
      expect(op.requestBody).toEqual({
        required: true,
        content: { 'application/json': { schema: toolArgumentsSchema(t) } },
      });
    }
    for (const r of s.retired) {
      const op = paths[`/v1/sessions/{id}/tools/${r.name}`]?.post as JsonSchema;
      expect(op.deprecated).toBe(true);
      expect(op.description).toBe(
        `Retired: answers with a deprecation message naming ${r.successor}; the arguments are not inspected.`,
      );
    }
  });

  it('is plain JSON whose references all resolve inside the fragment', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const r of all) expect(resolveRef(doc, r), r).toBeDefined();
    expect(surfaceOpenApi(s)).toEqual(doc);
  });
});

describe('surfaceOpenApi lifecycle', () => {
  it('marks deprecated and sunset tools and documents the Deprecation/Sunset headers', () => {
    const s: Surface = {
      ...PC_SURFACE,
      tools: PC_SURFACE.tools.map((t) => {
        if (t.name === 'LoadDB') return { ...t, lifecycle: { status: 'deprecated', successor: 'LoadGraph' } };
        if (t.name === 'GetValue') return { ...t, lifecycle: { status: 'sunset', successor: 'FilterDB' } };
        return t;
      }),
    };
    const paths = surfaceOpenApi(s).paths as Record<string, { post: JsonSchema }>;
    const load = paths['/v1/sessions/{id}/tools/LoadDB']?.post as JsonSchema;
    expect(load.deprecated).toBe(true);
    expect(load.description).toMatch(/ Deprecated: use LoadGraph instead\.$/);
    const headers = ((load.responses as Record<string, JsonSchema>)['200'] as JsonSchema)
      .headers as JsonSchema;
    expect(Object.keys(headers)).toEqual(['Deprecation', 'Sunset']);
    const value = paths['/v1/sessions/{id}/tools/GetValue']?.post as JsonSchema;
    expect(value.deprecated).toBe(true);
    expect(value.description).toBe('Past its sunset: answers with a deprecation message naming FilterDB.');
  });
});
