/**
 * Documentation of a changed tool: parameter descriptions and the tool description, regenerated from the kernel
 * tool's canonical wording (P_c's) and the way each kernel parameter is now sent.
 */
import type { KernelToolName } from '../../world/kernel/kernel.ts';
import { PC_SURFACE } from '../builtin.ts';
import type { ParamSpec } from '../model.ts';
import { type DomainKernel, isDomain, SPLITTABLE } from './kernel-facts.ts';

const SENTENCES: Record<DomainKernel, (ref: (kernelParam: string) => string) => string> = {
  RetrieveAgenda: (r) => `which retrieves the agenda related to ${r('keyword')}`,
  RetrieveScirex: (r) => `which retrieves machine learning papers' paragraphs related to ${r('keyword')}`,
  LoadDB: (r) =>
    `which loads the database ${r('DBName')} and returns the database. The ${r('DBName')} can be one of the following: flights/coffee/airbnb/yelp/agenda`,
  FilterDB: (r) =>
    `which filters the loaded database by the conditions ${r('condition')} (each a column, a relation such as =, > or <= and a value, applied in order) and returns the filtered database`,
  GetValue: (r) => `which returns the values of the columns ${r('column_name')} of the loaded database`,
  LoadGraph: (r) =>
    `which loads the graph data ${r('GraphName')} and returns the graphs. The ${r('GraphName')} is dblp, which holds the graphs PaperNet and AuthorNet`,
  NeighbourCheck: (r) =>
    `which lists the neighbours of the node ${r('Node')} in the graph ${r('GraphName')} and returns the neighbours`,
  NodeCheck: (r) =>
    `which returns the detailed attribute information of the node ${r('Node')} in the graph ${r('GraphName')}`,
  EdgeCheck: (r) =>
    `which returns the detailed attribute information of the edge between ${r('Node1')} and ${r('Node2')} in the graph ${r('GraphName')}`,
  SQLInterpreter: (r) => `which interprets the SQL query in ${r('SQL')} and returns the result`,
  PythonInterpreter: (r) => `which interprets the Python code in ${r('Python')} and returns the result`,
};

/** What a structured slot holds, for descriptions: [noun, placeholder]. */
function slotWording(kernel: KernelToolName, kernelParam: string): [string, string] {
  switch (kernelParam) {
    case 'GraphName':
      return kernel === 'LoadGraph' ? ['graph data', 'dblp'] : ['graph', 'PaperNet|AuthorNet'];
    case 'Node':
      return ['node', 'node'];
    case 'Node1':
      return ['first node', 'node'];
    case 'Node2':
      return ['second node', 'node'];
    case 'DBName':
      return ['database', 'database'];
    case 'column_name':
      return ['columns', 'column, column, ...'];
    default:
      return [kernelParam, 'value'];
  }
}

/** P_c's description of a kernel parameter (the canonical wording of what it holds). */
function kernelParamText(kernel: KernelToolName, kernelParam: string): string {
  const tool = PC_SURFACE.tools.find((t) => t.kernel === kernel);
  const spec = tool?.params.find((p) => p.kind === 'rename' && p.kernel === kernelParam);
  return spec?.description ?? `The ${kernelParam}.`;
}

function quoteValue(v: string | boolean): string {
  return typeof v === 'string' ? `"${v}"` : String(v);
}

function acceptedText(accepted: readonly (string | boolean)[]): string {
  const parts = accepted.map(quoteValue);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} or ${parts.at(-1)}`;
}

function structuredGrammar(kernel: KernelToolName, spec: Extract<ParamSpec, { kind: 'structured' }>): string {
  return spec.slots.map((s) => `${s.label}[<${slotWording(kernel, s.kernel)[1]}>]`).join(', ');
}

/** A parameter with its description regenerated. */
export function describeParam(kernel: KernelToolName, p: ParamSpec): ParamSpec {
  switch (p.kind) {
    case 'rename':
      return { ...p, description: kernelParamText(kernel, p.kernel) };
    case 'ignored':
      return p;
    case 'flag':
      return {
        ...p,
        description: p.optional
          ? `Optional; when given it must be ${acceptedText(p.accepted)}.`
          : `Required; must be ${acceptedText(p.accepted)}.`,
      };
    case 'numbered': {
      const item = SPLITTABLE[kernel]?.item ?? 'One value';
      return {
        ...p,
        description: `${item} per key; the keys are ${p.prefix}1, ${p.prefix}2, … in this order.`,
      };
    }
    case 'structured': {
      const nouns = p.slots.map((s) => `the ${slotWording(kernel, s.kernel)[0]}`);
      const list =
        nouns.length <= 1 ? nouns.join('') : `${nouns.slice(0, -1).join(', ')} and ${nouns.at(-1)}`;
      const text = `${list.charAt(0).toUpperCase()}${list.slice(1)} as "${structuredGrammar(kernel, p)}" (no space before the last "[").`;
      return { ...p, description: text };
    }
    case 'prefixed':
      return {
        ...p,
        description: `${kernelParamText(kernel, p.kernel)} It must start with the literal "${p.prefix}".`,
      };
  }
}

/** A tool description for the given (described) parameters; Finish and UpdateTool keep `fallback`. */
export function describeTool(kernel: KernelToolName, params: readonly ParamSpec[], fallback: string): string {
  if (!isDomain(kernel)) return fallback;
  const ref = (kernelParam: string): string => {
    for (const p of params) {
      if ((p.kind === 'rename' || p.kind === 'prefixed') && p.kernel === kernelParam) return p.name;
      if (p.kind === 'numbered' && p.kernel === kernelParam) return `${p.prefix}1, ${p.prefix}2, ...`;
      if (p.kind === 'structured') {
        const slot = p.slots.find((s) => s.kernel === kernelParam);
        if (slot) return `${slot.label} of ${p.name}`;
      }
    }
    return kernelParam;
  };
  const clauses: string[] = [];
  for (const p of params) {
    if (p.kind === 'structured') clauses.push(`${p.name} is written as "${structuredGrammar(kernel, p)}"`);
    if (p.kind === 'prefixed') clauses.push(`${p.name} must start with "${p.prefix}"`);
    if (p.kind === 'ignored') clauses.push(`${p.name} must be given`);
    if (p.kind === 'flag') {
      clauses.push(
        p.optional
          ? `${p.name}, when given, must be ${quoteValue(p.accepted[0] ?? '')}`
          : `${p.name} must be ${quoteValue(p.accepted[0] ?? '')}`,
      );
    }
  }
  const listed = params.some((p) => p.kind === 'numbered' && p.kernel === 'condition');
  const sentence =
    kernel === 'FilterDB' && !listed
      ? `which filters the loaded database by the conditions in ${ref('condition')} (each a column, a relation such as =, > or <= and a value; several separated by ", " and applied in order) and returns the filtered database`
      : SENTENCES[kernel](ref);
  return clauses.length > 0 ? `${sentence}; ${clauses.join('; ')}.` : `${sentence}.`;
}
