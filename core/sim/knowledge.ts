/**
 * What the simulated policy knows about the tools at one step, from its prompt: the documented tools (their
 * kernel tool, recognised by the description's wording or by a P_c name, and their shape), its memory of changed
 * tools (UpdateTool lines), and the history of the trajectory read through that knowledge — which kernel tool
 * each step called, whether the call was rejected, and what deprecation messages announced.
 */
import { PyDict } from '../util/python-format.ts';
import { pyJsonLoads } from '../world/kernel/json-decode.ts';
import { KERNEL_TOOL_NAMES, type KernelToolName } from '../world/kernel/kernel.ts';
import { parseReact } from '../world/react-parse.ts';
import { addDemonstrations } from './demonstrations.ts';
import {
  classifyObservation,
  type Deprecation,
  type Entries,
  isRejection,
  type ObservationKind,
  readJsonObject,
  unwrapObservation,
} from './observations.ts';
import type { PromptStep, ReadPrompt, ToolLine } from './prompt-reader.ts';
import { type CallShape, docEntries, inferShape, signatureShape } from './shapes.ts';

/** Description wording → kernel tool, checked in this order (LoadDB's text mentions `agenda`, so it comes first). */
const DESCRIPTION_KERNELS: readonly (readonly [RegExp, KernelToolName])[] = [
  [/finishes the task/i, 'Finish'],
  [/updates the description of (the|a) tool/i, 'UpdateTool'],
  [/loads (the|a) database/i, 'LoadDB'],
  [/loads (the|a) graph/i, 'LoadGraph'],
  [/\bfilters\b/i, 'FilterDB'],
  [/returns the values? of the columns?|values? of (the )?columns?/i, 'GetValue'],
  [/neighbou?rs/i, 'NeighbourCheck'],
  [/\bedges?\b/i, 'EdgeCheck'],
  [/attribute information|\bnodes?\b/i, 'NodeCheck'],
  [/machine learning papers|papers' paragraphs/i, 'RetrieveScirex'],
  [/\bagenda\b/i, 'RetrieveAgenda'],
  [/\bSQL\b/, 'SQLInterpreter'],
  [/\bPython\b/, 'PythonInterpreter'],
];

function isKernelName(name: string): name is KernelToolName {
  return (KERNEL_TOOL_NAMES as readonly string[]).includes(name);
}

/** The kernel tool a documented tool stands for: its P_c name, else its description's wording. */
export function kernelOfToolLine(line: ToolLine): KernelToolName | null {
  if (isKernelName(line.name)) return line.name;
  for (const [re, kernel] of DESCRIPTION_KERNELS) if (re.test(line.description)) return kernel;
  return null;
}

const UPDATED_VERSION = /updated version of ([^\s,.;]+)/;

export interface MemoryEntry {
  name: string;
  kernel: KernelToolName;
  shape: CallShape;
  line: ToolLine;
}

export interface Knowledge {
  /** The documented tool of each kernel tool (the first one listed). */
  documented: Map<KernelToolName, CallShape>;
  /** Tool names from UpdateTool lines, latest line per kernel tool. */
  memory: Map<KernelToolName, MemoryEntry>;
  /** Every name the policy can attribute to a kernel tool (documented, remembered, announced). */
  nameToKernel: Map<string, KernelToolName>;
  /** Replacement name → what deprecation messages said about it (the latest message wins). */
  announced: Map<string, { kernel: KernelToolName; deprecation: Deprecation; shape: CallShape }>;
  /** The call shape in-context demonstrations show for a kernel tool (the first demonstration of it). */
  demonstrated: Map<KernelToolName, CallShape>;
}

function memoryExample(line: ToolLine): Entries | null {
  const open = line.text.indexOf('{');
  const close = line.text.lastIndexOf('}');
  return open >= 0 && close > open ? readJsonObject(line.text.slice(open, close + 1)) : null;
}

/** The shape a deprecation message announces for its replacement: the param example, else the signature. */
export function announcedShape(d: Deprecation, kernel: KernelToolName): CallShape | null {
  if (d.replacement === null) return null;
  if (d.example && d.example.length > 0) return inferShape(d.replacement, kernel, d.example);
  return signatureShape(d.replacement, kernel, d.params);
}

export interface HistoryStep {
  index: number;
  step: PromptStep;
  /** Parsed action name (null when the text could not be parsed). */
  action: string | null;
  actionInputText: string | null;
  /** Decoded Action Input entries (null when not decodable). */
  args: Entries | null;
  kernel: KernelToolName | null;
  observation: ObservationKind;
  /** The observation with any response wrapper removed. */
  content: string;
  rejected: boolean;
}

export interface History {
  knowledge: Knowledge;
  steps: HistoryStep[];
}

/** Builds the knowledge of the tool list, then reads the steps through it. */
export function readHistory(prompt: ReadPrompt): History {
  const documented = new Map<KernelToolName, CallShape>();
  const memory = new Map<KernelToolName, MemoryEntry>();
  const nameToKernel = new Map<string, KernelToolName>();
  const memoryLines: ToolLine[] = [];
  for (const line of prompt.tools) {
    if (line.name === '') continue;
    const kernel = kernelOfToolLine(line);
    const isMemory = UPDATED_VERSION.test(line.description) || (kernel !== null && documented.has(kernel));
    if (isMemory) {
      memoryLines.push(line);
      continue;
    }
    if (kernel === null) continue;
    documented.set(kernel, inferShape(line.name, kernel, docEntries(line)));
    nameToKernel.set(line.name, kernel);
  }
  for (const line of memoryLines) {
    const old = UPDATED_VERSION.exec(line.description)?.[1];
    const kernel = (old !== undefined ? nameToKernel.get(old) : undefined) ?? kernelOfToolLine(line);
    if (!kernel) continue;
    const example = memoryExample(line);
    const shape =
      example && example.length > 0
        ? inferShape(line.name, kernel, example)
        : signatureShape(line.name, kernel, line.params);
    memory.set(kernel, { name: line.name, kernel, shape, line });
    if (!nameToKernel.has(line.name)) nameToKernel.set(line.name, kernel);
  }

  const knowledge: Knowledge = {
    documented,
    memory,
    nameToKernel,
    announced: new Map(),
    demonstrated: new Map(),
  };
  addDemonstrations(knowledge, prompt.demonstrations ?? []);
  const steps: HistoryStep[] = prompt.steps.map((step, index) => {
    const parsed = parseReact(step.text);
    const action = parsed.ok ? parsed.action : null;
    const actionInputText = parsed.ok ? parsed.actionInput : null;
    const args = actionInputText !== null ? readStrictObject(actionInputText) : null;
    const observation = classifyObservation(step.observation);
    let kernel = action !== null ? (nameToKernel.get(action) ?? null) : null;
    if (observation.kind === 'deprecated') {
      const d = observation.deprecation;
      kernel = kernel ?? nameToKernel.get(d.oldName) ?? null;
      if (kernel && d.replacement !== null) {
        const shape = announcedShape(d, kernel);
        if (shape) knowledge.announced.set(d.replacement, { kernel, deprecation: d, shape });
        nameToKernel.set(d.replacement, kernel);
      }
    }
    return {
      index,
      step,
      action,
      actionInputText,
      args,
      kernel,
      observation,
      content: unwrapObservation(step.observation),
      rejected: isRejection(observation),
    };
  });
  return { knowledge, steps };
}

/** Decodes an Action Input the way the environment does (strict JSON objects only). */
function readStrictObject(text: string): Entries | null {
  const r = pyJsonLoads(text);
  return r.ok && r.value instanceof PyDict ? r.value.entries : null;
}
