/**
 * The simulated policy's thoughts: short sentences about what the next call does and why, with a few equivalent
 * wordings each (chosen by Decider.style: the first when greedy, any when sampling). Thoughts never contain the
 * words `Action` or `Observation:`, which the ReAct parser and the stop string look for.
 */
import type { KernelCall, KernelToolName } from '../world/kernel/kernel.ts';
import type { Decider } from './decider.ts';

function arg(call: KernelCall, key: string): string {
  const v = call.args[key];
  return typeof v === 'string' ? v : String(v ?? '');
}

function clip(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

const CALL_THOUGHTS: Record<KernelToolName, (c: KernelCall) => string[]> = {
  LoadDB: (c) => [
    `The information I need is in the ${arg(c, 'DBName')} database, so I load it first.`,
    `First I load the ${arg(c, 'DBName')} database.`,
    `I start by loading the ${arg(c, 'DBName')} database.`,
  ],
  FilterDB: (c) => [
    `I keep only the rows that match ${clip(arg(c, 'condition'))}.`,
    `Next I filter the table with ${clip(arg(c, 'condition'))}.`,
    `Now I narrow the table down to ${clip(arg(c, 'condition'))}.`,
  ],
  GetValue: (c) => [
    `Now I read the ${arg(c, 'column_name')} values of the remaining rows.`,
    `I need the ${arg(c, 'column_name')} column of these rows.`,
    `Next I get the values of ${arg(c, 'column_name')}.`,
  ],
  LoadGraph: () => [
    'The question is about the DBLP graphs, so I load the graph data.',
    'First I load the DBLP graph data.',
    'I start by loading the graphs.',
  ],
  NeighbourCheck: (c) => [
    `I list the neighbours of ${clip(arg(c, 'Node'))} in ${arg(c, 'GraphName')}.`,
    `Next I look at the neighbours of ${clip(arg(c, 'Node'))} in ${arg(c, 'GraphName')}.`,
  ],
  NodeCheck: (c) => [
    `I look up the attributes of ${clip(arg(c, 'Node'))} in ${arg(c, 'GraphName')}.`,
    `Next I check the node ${clip(arg(c, 'Node'))} in ${arg(c, 'GraphName')}.`,
  ],
  EdgeCheck: (c) => [
    `I check the edge between ${clip(arg(c, 'Node1'), 50)} and ${clip(arg(c, 'Node2'), 50)} in ${arg(c, 'GraphName')}.`,
    `Next I look at the link between ${clip(arg(c, 'Node1'), 50)} and ${clip(arg(c, 'Node2'), 50)}.`,
  ],
  RetrieveAgenda: (c) => [
    `I search the agenda passages for ${clip(arg(c, 'keyword'))}.`,
    `The agenda passages should mention this; I look for ${clip(arg(c, 'keyword'))}.`,
  ],
  RetrieveScirex: (c) => [
    `I search the paper passages for ${clip(arg(c, 'keyword'))}.`,
    `The papers should report this; I look for ${clip(arg(c, 'keyword'))}.`,
  ],
  SQLInterpreter: () => ['I query the data with SQL.', 'An SQL query gives me this directly.'],
  PythonInterpreter: () => [
    'I compute the result with Python so that the arithmetic is exact.',
    'Python will do this calculation exactly.',
    'I let Python work this out.',
  ],
  Finish: (c) => [
    `I now know the answer: ${clip(String(c.args.answer ?? ''))}.`,
    `The answer is ${clip(String(c.args.answer ?? ''))}.`,
    `That gives the answer, ${clip(String(c.args.answer ?? ''))}.`,
  ],
  UpdateTool: () => ['I record the new tool for later.'],
};

export function callThought(call: KernelCall, d: Decider): string {
  return d.style(`thought:${call.tool}`, CALL_THOUGHTS[call.tool](call));
}

/** Why the call is written the way it is, in front of the call's own thought. */
export type WritingNote =
  | 'documented'
  | 'working'
  | 'memory'
  | 'adopt'
  | 'adopt-name'
  | 'repair'
  | 'retry'
  | 'back-to-documented'
  | 'demonstration';

export function noteThought(
  note: WritingNote,
  ctx: { name: string; old?: string },
  d: Decider,
): string | null {
  switch (note) {
    case 'documented':
    case 'working':
      return null;
    case 'memory':
      return d.style('note:memory', [
        `My tool list has an updated entry for ${ctx.name}, so I use it.`,
        `According to my updated tools, ${ctx.name} is the one to use.`,
      ]);
    case 'adopt':
      return d.style('note:adopt', [
        `${ctx.old} is deprecated and ${ctx.name} replaces it; I call ${ctx.name} with parameters shaped like its param example.`,
        `The message says to use ${ctx.name} instead of ${ctx.old}, so I switch and follow its example.`,
      ]);
    case 'adopt-name':
      return d.style('note:adopt-name', [
        `${ctx.old} is deprecated, so I use ${ctx.name} instead.`,
        `The message says to use ${ctx.name} instead of ${ctx.old}.`,
      ]);
    case 'repair':
      return d.style('note:repair', [
        `The parameters were not accepted; following the error message and the example, I correct them.`,
        `My parameters for ${ctx.name} were wrong, so I fix them to match the expected format.`,
      ]);
    case 'demonstration':
      return d.style('note:demonstration', [
        `The examples for similar queries call ${ctx.name}, so I do the same.`,
        `Following the examples I was shown, I use ${ctx.name}.`,
      ]);
    case 'retry':
      return d.style('note:retry', [
        'My last step could not be carried out, so I write it again.',
        'Let me write that step again properly.',
      ]);
    case 'back-to-documented':
      return d.style('note:back', [
        `${ctx.old} is not available here, so I go back to ${ctx.name}.`,
        `${ctx.old} was not accepted; I use ${ctx.name} from the tool list.`,
      ]);
  }
}

export function repeatThought(name: string, d: Decider): string {
  return d.style('thought:repeat', [
    `I call ${name} again.`,
    `Let me try ${name} once more.`,
    `I will send the same request to ${name}.`,
  ]);
}

export function updateToolThought(name: string, d: Decider): string {
  return d.style('thought:update-tool', [
    `${name} worked for the first time, so I add a description of it with UpdateTool for later.`,
    `Since ${name} works, I record it with UpdateTool.`,
  ]);
}

export function giveUpThought(d: Decider): string {
  return d.style('thought:give-up', [
    'I cannot work out the answer from what I have, so I give my best guess.',
    'I am not sure, but I will answer with my best guess.',
  ]);
}

export function unknownQuestionThought(d: Decider): string {
  return d.style('thought:unknown', [
    'I do not know how to answer this question with these tools.',
    'I cannot find a way to answer this with the tools I have.',
  ]);
}

/** What a tool does, for UpdateTool descriptions. */
export const TOOL_PURPOSE: Record<KernelToolName, string> = {
  RetrieveAgenda: 'retrieves the agenda passages related to a query',
  RetrieveScirex: "retrieves machine learning papers' paragraphs related to a query",
  LoadDB: 'loads a database',
  FilterDB: 'filters the loaded database by conditions',
  GetValue: 'returns the values of columns of the loaded database',
  LoadGraph: 'loads the graph data',
  NeighbourCheck: 'lists the neighbours of a node in a graph',
  NodeCheck: 'returns the attributes of a node in a graph',
  EdgeCheck: 'returns the attributes of the edge between two nodes of a graph',
  SQLInterpreter: 'runs an SQL query',
  PythonInterpreter: 'runs Python code',
  Finish: 'returns the answer',
  UpdateTool: 'updates the description of a tool',
};
