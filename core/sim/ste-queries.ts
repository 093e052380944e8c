/**
 * The queries the simulated policy imagines in STE exploration, as a small grammar it knows the way it knows the
 * task templates: for each kernel tool, a few wordings of one kind of question (values in double quotes), the
 * plan that answers it in P_c terms, and how the answer is read from the last observation. The same wordings
 * serve three purposes, so that the policy understands what it wrote itself:
 * - imagining: pick a kind for the explored tool and fill its values (ste.ts);
 * - answering: recognise the query (any wording of any kind) and replay its plan with the policy's usual
 *   call-writing logic (policy.ts `nextStepWith`);
 * - paraphrasing: write the same kind and values with another wording;
 * - reading demonstrations: the kernel tool a demonstration's query is about (demonstrations.ts).
 * A query of no kind (written by another model) is not understood, like a question of no task template.
 */
import type { KernelToolName } from '../world/kernel/kernel.ts';
import type { Solver } from '../world/tasks/types.ts';

export interface QueryKind {
  id: string;
  /** The kernel tool the query is about (the last call of its plan). */
  kernel: KernelToolName;
  /** Value names, in order of the wordings' `{0}`, `{1}`, … */
  values: readonly string[];
  wordings: readonly string[];
  plan(values: readonly string[]): Solver;
}

/** The text after the last `: ` of an observation's first line, or the whole first line. */
function firstLine(observation: string): string {
  return (observation.split('\n')[0] ?? '').trim();
}

function columnsOf(observation: string): string {
  const m = /columns: (.*?)\.?$/.exec(firstLine(observation));
  return m ? (m[1] as string) : firstLine(observation);
}

function rowCount(observation: string): string {
  const m = /\((\d+) rows?\)/.exec(observation);
  return m ? (m[1] as string) : firstLine(observation);
}

/** The distinct values of a GetValue observation (`{"col": [..]}`), at most 5, joined by `, `. */
function distinctValues(observation: string): string {
  try {
    const parsed = JSON.parse(observation) as Record<string, unknown>;
    const first = Object.values(parsed)[0];
    if (Array.isArray(first)) return [...new Set(first.map(String))].slice(0, 5).join(', ');
  } catch {
    // not JSON: answer with the observation itself
  }
  return firstLine(observation).slice(0, 200);
}

function shortText(observation: string): string {
  return firstLine(observation).slice(0, 200);
}

export const QUERY_KINDS: readonly QueryKind[] = [
  {
    id: 'db-columns',
    kernel: 'LoadDB',
    values: ['db'],
    wordings: [
      'Which columns does the "{0}" database have?',
      'List the columns of the "{0}" database.',
      'What fields are stored in the "{0}" database?',
    ],
    *plan([db]) {
      const o = yield { tool: 'LoadDB', args: { DBName: db } };
      return columnsOf(o);
    },
  },
  {
    id: 'db-count',
    kernel: 'FilterDB',
    values: ['db', 'condition'],
    wordings: [
      'How many rows of the "{0}" database satisfy "{1}"?',
      'Count the rows of the "{0}" database where "{1}".',
      'In the "{0}" database, how many records match "{1}"?',
    ],
    *plan([db, condition]) {
      yield { tool: 'LoadDB', args: { DBName: db } };
      const o = yield { tool: 'FilterDB', args: { condition } };
      return rowCount(o);
    },
  },
  {
    id: 'db-values-where',
    kernel: 'GetValue',
    values: ['db', 'condition', 'column'],
    wordings: [
      'In the "{0}" database, what are the "{2}" values of the rows where "{1}"?',
      'Which "{2}" values do the rows of the "{0}" database with "{1}" have?',
      'Show the "{2}" of the "{0}" database rows that satisfy "{1}".',
    ],
    *plan([db, condition, column]) {
      yield { tool: 'LoadDB', args: { DBName: db } };
      yield { tool: 'FilterDB', args: { condition } };
      const o = yield { tool: 'GetValue', args: { column_name: column } };
      return distinctValues(o);
    },
  },
  {
    id: 'db-values',
    kernel: 'GetValue',
    values: ['db', 'column'],
    wordings: [
      'What values does the column "{1}" of the "{0}" database take?',
      'Which "{1}" values appear in the "{0}" database?',
      'Show some "{1}" values from the "{0}" database.',
    ],
    *plan([db, column]) {
      yield { tool: 'LoadDB', args: { DBName: db } };
      const o = yield { tool: 'GetValue', args: { column_name: column } };
      return distinctValues(o);
    },
  },
  {
    id: 'graph-load',
    kernel: 'LoadGraph',
    values: ['data'],
    wordings: [
      'Which graphs does the graph data "{0}" hold?',
      'Load the graph data "{0}": what graphs are in it?',
      'What graphs are part of the graph data "{0}"?',
    ],
    *plan([graph]) {
      const o = yield { tool: 'LoadGraph', args: { GraphName: graph } };
      return shortText(o);
    },
  },
  {
    id: 'graph-neighbours',
    kernel: 'NeighbourCheck',
    values: ['data', 'graph', 'node'],
    wordings: [
      'Who are the neighbours of "{2}" in the graph "{1}" of "{0}"?',
      'List the neighbours of the node "{2}" in the graph "{1}" of "{0}".',
      'Which nodes are next to "{2}" in the graph "{1}" of "{0}"?',
    ],
    *plan([data, graph, node]) {
      yield { tool: 'LoadGraph', args: { GraphName: data } };
      const o = yield { tool: 'NeighbourCheck', args: { GraphName: graph, Node: node } };
      return shortText(o);
    },
  },
  {
    id: 'graph-node',
    kernel: 'NodeCheck',
    values: ['data', 'graph', 'node'],
    wordings: [
      'What are the attributes of the node "{2}" in the graph "{1}" of "{0}"?',
      'Describe the node "{2}" of the graph "{1}" in "{0}".',
      'What does the graph "{1}" of "{0}" record about the node "{2}"?',
    ],
    *plan([data, graph, node]) {
      yield { tool: 'LoadGraph', args: { GraphName: data } };
      const o = yield { tool: 'NodeCheck', args: { GraphName: graph, Node: node } };
      return shortText(o);
    },
  },
  {
    id: 'graph-edge',
    kernel: 'EdgeCheck',
    values: ['data', 'graph', 'node1', 'node2'],
    wordings: [
      'What is the edge between "{2}" and "{3}" in the graph "{1}" of "{0}"?',
      'Describe the edge from "{2}" to "{3}" in the graph "{1}" of "{0}".',
      'How are "{2}" and "{3}" connected by an edge in the graph "{1}" of "{0}"?',
    ],
    *plan([data, graph, node1, node2]) {
      yield { tool: 'LoadGraph', args: { GraphName: data } };
      const o = yield { tool: 'EdgeCheck', args: { GraphName: graph, Node1: node1, Node2: node2 } };
      return shortText(o);
    },
  },
  {
    id: 'agenda',
    kernel: 'RetrieveAgenda',
    values: ['keyword'],
    wordings: [
      'What does the agenda say about "{0}"?',
      'Find agenda entries about "{0}".',
      'Which events in the agenda mention "{0}"?',
    ],
    *plan([keyword]) {
      const o = yield { tool: 'RetrieveAgenda', args: { keyword } };
      return shortText(o);
    },
  },
  {
    id: 'papers',
    kernel: 'RetrieveScirex',
    values: ['keyword'],
    wordings: [
      'What do the machine learning papers say about "{0}"?',
      'Find paper paragraphs about "{0}".',
      'Which machine learning results mention "{0}"?',
    ],
    *plan([keyword]) {
      const o = yield { tool: 'RetrieveScirex', args: { keyword } };
      return shortText(o);
    },
  },
  {
    id: 'sql-count',
    kernel: 'SQLInterpreter',
    values: ['db'],
    wordings: [
      'Using SQL, how many rows does the table "{0}" have?',
      'Count the rows of the table "{0}" with an SQL query.',
      'With SQL, what is the number of rows in the table "{0}"?',
    ],
    *plan([db]) {
      const o = yield { tool: 'SQLInterpreter', args: { SQL: `SELECT COUNT(*) FROM ${db}` } };
      return shortText(o);
    },
  },
  {
    id: 'python-product',
    kernel: 'PythonInterpreter',
    values: ['a', 'b'],
    wordings: [
      'Using Python, what is "{0}" times "{1}"?',
      'Compute the product of "{0}" and "{1}" with Python.',
      'Run Python to multiply "{0}" by "{1}".',
    ],
    *plan([a, b]) {
      const o = yield { tool: 'PythonInterpreter', args: { Python: `print(${a} * ${b})` } };
      return shortText(o);
    },
  },
];

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

interface CompiledWording {
  kind: QueryKind;
  wording: number;
  regex: RegExp;
  order: number[];
}

let compiled: CompiledWording[] | null = null;

function compiledWordings(): CompiledWording[] {
  compiled ??= QUERY_KINDS.flatMap((kind) =>
    kind.wordings.map((w, wording) => {
      const order = [...w.matchAll(/\{(\d)\}/g)].map((m) => Number(m[1]));
      const parts = w.split(/\{\d\}/);
      return {
        kind,
        wording,
        regex: new RegExp(`^${parts.map(escapeRegex).join('([^"]*)')}$`),
        order,
      };
    }),
  );
  return compiled;
}

export interface RecognisedQuery {
  kind: QueryKind;
  wording: number;
  values: string[];
}

/** The kind, wording and values of a query the policy can write; null for any other text. */
export function recogniseQuery(query: string): RecognisedQuery | null {
  const q = query.trim();
  for (const c of compiledWordings()) {
    const m = c.regex.exec(q);
    if (!m) continue;
    const values: string[] = new Array(c.kind.values.length).fill('');
    c.order.forEach((slot, i) => {
      values[slot] = m[i + 1] as string;
    });
    return { kind: c.kind, wording: c.wording, values };
  }
  return null;
}

/** A query of a kind in one of its wordings. */
export function writeQuery(kind: QueryKind, wording: number, values: readonly string[]): string {
  const w = kind.wordings[wording % kind.wordings.length] as string;
  return w.replace(/\{(\d)\}/g, (_, i: string) => values[Number(i)] ?? '');
}
