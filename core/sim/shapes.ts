/**
 * Call shapes: how the simulated policy believes a tool wants its arguments, and how it writes a P_c call (kernel
 * tool and kernel parameter names, as the task solvers yield them) in that shape.
 *
 * A shape is inferred from an example argument object, the way a model reads a `param example` (spec §4.6):
 * - numbered keys (`condition1`, `condition2`) of a tool whose one parameter is a list (FilterDB's conditions,
 *   GetValue's columns) → the P_c value split on `, `, one piece per key;
 * - a code value that starts with a short literal ending in `:` (`The SQL code is as follows: SELECT …`) → that
 *   literal, a space, then the code;
 * - a string of labelled brackets (`FirstNode[Chao Zhang], SecondNode[Weihong Lin]`) on a database, graph or
 *   column tool → the same labels filled with the call's values;
 * - flag-like literals (`"True"`, `true`, `"yes"`, numbers such as `return_num: 3`) → copied as they are;
 * - every other key or label carries one P_c parameter: first the ones whose names match after normalisation
 *   (`Graph_Name` ~ `GraphName`), then a graph parameter goes to the key or label that looks like a graph (by its
 *   name or its example value `AuthorNet`/`PaperNet`/`dblp`), then the rest in order.
 * Documentation lines (`Name[a, b], description`) are turned into such an example first (`docEntries`): the
 * signature gives the keys, the description the flags, prefixes, labelled-bracket grammars and graph keys.
 */
import { PyFloat, PyInt } from '../util/python-format.ts';
import { KERNEL_TOOL_PARAMS, type KernelCall, type KernelToolName } from '../world/kernel/kernel.ts';
import type { Entries } from './observations.ts';
import type { ToolLine } from './prompt-reader.ts';

export interface StructuredSlot {
  label: string;
  /** The P_c parameter written inside the brackets, or null to copy `text`. */
  param: string | null;
  text: string;
}

export type ShapePart =
  | { kind: 'value'; key: string; param: string }
  | { kind: 'numbered'; prefix: string; param: string }
  | { kind: 'structured'; key: string; slots: StructuredSlot[] }
  | { kind: 'prefixed'; key: string; param: string; prefix: string }
  | { kind: 'constant'; key: string; value: unknown };

export interface CallShape {
  name: string;
  kernel: KernelToolName;
  parts: ShapePart[];
}

/** Kernel parameters that hold a list the kernel splits itself. */
const LIST_PARAMS = new Set(['condition', 'column_name']);
/** Kernels whose values may come as labelled brackets (closed value sets without brackets). */
const STRUCTURED_KERNELS = new Set<KernelToolName>([
  'LoadDB',
  'LoadGraph',
  'GetValue',
  'NeighbourCheck',
  'NodeCheck',
  'EdgeCheck',
]);
const CODE_KERNELS = new Set<KernelToolName>(['PythonInterpreter', 'SQLInterpreter']);
const FLAG_LITERALS = new Set([
  'True',
  'true',
  'TRUE',
  'False',
  'false',
  'yes',
  'Yes',
  'YES',
  'no',
  'on',
  'On',
  'off',
  '1',
  '0',
  'enabled',
  'disabled',
]);
const GRAPH_VALUES = /^(AuthorNet|PaperNet|dblp)$/;
const GRAPH_HINT = /graph|network|authornet|papernet|dblp/i;

const STRUCTURED_VALUE = /^\s*[A-Za-z_][\w-]*\s*\[[^\]\n]*\](?:\s*,\s*[A-Za-z_][\w-]*\s*\[[^\]\n]*\])*\s*$/;
const STRUCTURED_ITEM = /([A-Za-z_][\w-]*)\s*\[([^\]\n]*)\]/g;

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

function isDomain(kernel: KernelToolName): boolean {
  return kernel !== 'Finish' && kernel !== 'UpdateTool';
}

function isConstant(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'boolean' ||
    typeof value === 'number' ||
    value instanceof PyInt ||
    value instanceof PyFloat ||
    (typeof value === 'string' && FLAG_LITERALS.has(value))
  );
}

/** The literal in front of code (`This is the Python code:`), or null. */
export function codePrefix(value: string): string | null {
  const i = value.indexOf(':');
  if (i <= 0) return null;
  const candidate = value.slice(0, i + 1);
  if (candidate.includes('\n') || candidate.length > 80) return null;
  if (!/\b(SQL|Python|code|program|script|query)\b/i.test(candidate)) return null;
  if (/["'=[\]{}]/.test(candidate)) return null;
  if (/^\s*(print|import|from|def|for|while|if|return|select|with|class)\b/i.test(candidate)) return null;
  return candidate.trim();
}

type Unit =
  | { kind: 'key'; key: string; value: unknown }
  | { kind: 'label'; part: number; slot: number; label: string; text: string };

function unitName(u: Unit): string {
  return u.kind === 'key' ? u.key : u.label;
}

/** Whether a key or label holds a graph: by its example value (`AuthorNet`, `<PaperNet|AuthorNet>`) … */
function graphValue(u: Unit): boolean {
  const value = u.kind === 'key' ? u.value : u.text;
  return typeof value === 'string' && (GRAPH_VALUES.test(value.trim()) || GRAPH_HINT.test(value));
}

/** … or, less reliably, by its name (`Graph_Name`, `Network`). */
function graphName(u: Unit): boolean {
  return GRAPH_HINT.test(unitName(u));
}

/** The shape an example argument object shows for a tool (see the module header). */
export function inferShape(name: string, kernel: KernelToolName, entries: Entries): CallShape {
  const params = KERNEL_TOOL_PARAMS[kernel];
  const listParam = params.length === 1 && LIST_PARAMS.has(params[0] as string) ? params[0] : undefined;
  const parts: (ShapePart | { kind: 'unit'; unit: Unit })[] = [];
  const used = new Set<string>();
  let numberedPrefix: string | null = null;

  for (const [key, value] of entries) {
    if (CODE_KERNELS.has(kernel) && typeof value === 'string') {
      const prefix = codePrefix(value);
      if (prefix !== null) {
        parts.push({ kind: 'prefixed', key, param: params[0] as string, prefix });
        used.add(params[0] as string);
        continue;
      }
    }
    if (isDomain(kernel) && isConstant(value)) {
      parts.push({ kind: 'constant', key, value });
      continue;
    }
    const numbered = listParam !== undefined ? /^(.*?)(\d+)$/.exec(key) : null;
    if (numbered && listParam !== undefined) {
      const prefix = numbered[1] as string;
      if (numberedPrefix === null) {
        numberedPrefix = prefix;
        parts.push({ kind: 'numbered', prefix, param: listParam });
        used.add(listParam);
        continue;
      }
      if (prefix === numberedPrefix) continue;
    }
    if (STRUCTURED_KERNELS.has(kernel) && typeof value === 'string' && STRUCTURED_VALUE.test(value)) {
      const slots = [...value.matchAll(STRUCTURED_ITEM)].map((m) => ({
        label: m[1] as string,
        param: null as string | null,
        text: (m[2] as string).trim(),
      }));
      parts.push({ kind: 'structured', key, slots });
      continue;
    }
    parts.push({ kind: 'unit', unit: { kind: 'key', key, value } });
  }

  // The units that can carry a parameter, in order: plain keys and the labels of structured strings.
  const units: Unit[] = [];
  parts.forEach((p, i) => {
    if (p.kind === 'unit') units.push(p.unit);
    if (p.kind === 'structured') {
      p.slots.forEach((s, j) => {
        units.push({ kind: 'label', part: i, slot: j, label: s.label, text: s.text });
      });
    }
  });
  const remaining = params.filter((p) => !used.has(p));
  const assigned = new Map<Unit, string>();
  const free = (u: Unit) => !assigned.has(u);
  const take = (p: string, u: Unit | undefined) => {
    if (u) {
      assigned.set(u, p);
      used.add(p);
    }
  };
  for (const p of remaining)
    take(
      p,
      units.find((u) => free(u) && norm(unitName(u)) === norm(p)),
    );
  if (remaining.includes('GraphName') && !used.has('GraphName')) {
    take(
      'GraphName',
      units.find((u) => free(u) && graphValue(u)) ?? units.find((u) => free(u) && graphName(u)),
    );
  }
  for (const p of remaining) if (!used.has(p)) take(p, units.find(free));

  const out: ShapePart[] = [];
  parts.forEach((p) => {
    if (p.kind === 'unit') {
      const u = p.unit as Extract<Unit, { kind: 'key' }>;
      const param = assigned.get(u);
      out.push(
        param !== undefined
          ? { kind: 'value', key: u.key, param }
          : { kind: 'constant', key: u.key, value: u.value },
      );
    } else out.push(p);
  });
  for (const u of units) {
    if (u.kind !== 'label') continue;
    const part = out[u.part] as Extract<ShapePart, { kind: 'structured' }>;
    (part.slots[u.slot] as StructuredSlot).param = assigned.get(u) ?? null;
  }
  // A parameter nothing carries is written under its P_c name (the best guess left).
  for (const p of params) if (!used.has(p)) out.push({ kind: 'value', key: p, param: p });
  return { name, kernel, parts: out };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** A documentation line as an example argument object (see the module header). */
export function docEntries(line: ToolLine): Entries {
  const tokens = line.params.filter((t) => t !== '...' && t !== '…');
  const desc = line.description;
  const out: [string, unknown][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const k = escapeRegex(t);
    const numbered = /^(.*?)1$/.exec(t);
    if (numbered && tokens[i + 1] === `${numbered[1]}2`) {
      out.push([t, '<item>'], [tokens[i + 1] as string, '<item>']);
      i++;
      continue;
    }
    const flag = new RegExp(`\\b${k}\\b[^;.]*?must be (?:"([^"]*)"|(true|false))`).exec(desc);
    if (flag) {
      out.push([t, flag[1] !== undefined ? flag[1] : flag[2] === 'true']);
      continue;
    }
    if (new RegExp(`\\b${k} must be given`).test(desc)) {
      out.push([t, new PyInt(3)]);
      continue;
    }
    const prefix = new RegExp(`\\b${k} must start with (?:the literal )?"([^"]+)"`).exec(desc);
    if (prefix) {
      out.push([t, `${prefix[1]} <code>`]);
      continue;
    }
    const grammar = new RegExp(`\\b${k},? (?:is )?written as "([^"]+)"`).exec(desc);
    if (grammar) {
      out.push([t, grammar[1] as string]);
      continue;
    }
    const graph = new RegExp(`\\b(?:in the graph|graph data|the graph) ${k}\\b`).test(desc);
    out.push([t, graph ? 'AuthorNet' : `<${t}>`]);
  }
  return out;
}

/** The arguments of a P_c call written in a shape, in the shape's key order. */
export function renderCall(shape: CallShape, call: KernelCall): [string, unknown][] {
  const out: [string, unknown][] = [];
  const text = (param: string) => String(call.args[param] ?? '');
  for (const p of shape.parts) {
    switch (p.kind) {
      case 'value':
        out.push([p.key, call.args[p.param] ?? '']);
        break;
      case 'constant':
        out.push([p.key, p.value]);
        break;
      case 'numbered':
        text(p.param)
          .split(', ')
          .forEach((piece, i) => {
            out.push([`${p.prefix}${i + 1}`, piece]);
          });
        break;
      case 'prefixed':
        out.push([p.key, `${p.prefix} ${text(p.param)}`]);
        break;
      case 'structured':
        out.push([p.key, p.slots.map((s) => `${s.label}[${s.param ? text(s.param) : s.text}]`).join(', ')]);
        break;
    }
  }
  return out;
}

/** The same shape under another name (a replacement called with the old tool's parameters). */
export function renamedShape(shape: CallShape, name: string): CallShape {
  return { ...shape, name };
}

/** A signature-only shape (`Name[a, b]` without example): the listed keys carry the parameters. */
export function signatureShape(name: string, kernel: KernelToolName, params: readonly string[]): CallShape {
  const line: ToolLine = { index: 0, name, params: [...params], description: '', text: '' };
  return inferShape(name, kernel, docEntries(line));
}
