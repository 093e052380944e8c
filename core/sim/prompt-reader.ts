/**
 * Reads an agent prompt the way the simulated policy needs it, from the text alone: the question, the tool list
 * (`(n) Name[params], description` lines, including the UpdateTool lines after the documented tools), the steps
 * taken so far (generated text and observation) and whether the prompt ends with a self-reflection paragraph.
 *
 * It understands the ToolEvo prompt layout of core/prompts (the turn marker before the question, the
 * `Reflection:` paragraph) and falls back to the generic ToolQA-D layout: the last `Question:` line, then steps
 * `Thought: … Action: … Action Input: … Observation: …` separated by blank lines.
 */
import { REFLECTION_LABEL } from '../prompts/reflection.ts';
import { STE_DEMOS_HEADER } from '../prompts/ste.ts';
import { TURN_MARKER } from '../prompts/toolevo.ts';

export interface ToolLine {
  /** The number in front of the line. */
  index: number;
  name: string;
  /** The parameters between the brackets, as written (`condition1`, `condition2`, `...`). */
  params: string[];
  /** Everything after `], `. */
  description: string;
  /** The whole line after the number. */
  text: string;
}

export interface PromptStep {
  /** What the agent generated (Thought/Action/Action Input). */
  text: string;
  observation: string;
}

export interface ReadPrompt {
  question: string | null;
  /** Tool-list lines in order of appearance, first occurrence of each name only. */
  tools: ToolLine[];
  steps: PromptStep[];
  /** The prompt ends with a self-reflection paragraph. */
  reflection: boolean;
  /** In-context demonstrations (STE) before the question, in order. */
  demonstrations?: PromptDemonstration[];
}

export interface PromptDemonstration {
  query: string;
  action: string;
  actionInput: string;
}

/** The demonstrations block (`ste/demonstrations` layout) of a prompt head: query, action, action input each. */
export function readDemonstrations(head: string): PromptDemonstration[] {
  const at = head.lastIndexOf(STE_DEMOS_HEADER);
  if (at < 0) return [];
  const out: PromptDemonstration[] = [];
  for (const block of head.slice(at + STE_DEMOS_HEADER.length).split(/\n---(?:\n|$)/)) {
    const m = /^\s*User Query: (.*)\nAction: (.*)\nAction Input: ([\s\S]*?)\s*$/.exec(block);
    if (m)
      out.push({
        query: (m[1] as string).trim(),
        action: (m[2] as string).trim(),
        actionInput: m[3] as string,
      });
  }
  return out;
}

const TOOL_LINE = /^\((\d+)\) (.+)$/;
const SIGNATURE = /^([^\s[\]]+)\[([^\]]*)\],? ?([\s\S]*)$/;

/** `(n) Name[a, b], description` → its parts (null when the line has no bracket signature). */
export function parseToolLine(line: string): ToolLine | null {
  const m = TOOL_LINE.exec(line.trimEnd());
  if (!m) return null;
  const text = m[2] as string;
  const sig = SIGNATURE.exec(text);
  if (!sig) return { index: Number(m[1]), name: '', params: [], description: text, text };
  const inner = (sig[2] as string).trim();
  return {
    index: Number(m[1]),
    name: sig[1] as string,
    params: inner === '' ? [] : inner.split(/\s*,\s*/),
    description: (sig[3] as string).trim(),
    text,
  };
}

function findQuestion(text: string): { question: string | null; rest: string; head: string } {
  // The question after the turn marker of the ToolEvo prompt, else the last `Question:` line.
  const marker = text.lastIndexOf(TURN_MARKER);
  let at: number;
  if (marker >= 0) at = text.indexOf('Question:', marker);
  else {
    const last = text.lastIndexOf('\nQuestion:');
    at = last >= 0 ? last + 1 : text.startsWith('Question:') ? 0 : -1;
  }
  if (at < 0) return { question: null, rest: '', head: text };
  const lineEnd = text.indexOf('\n', at);
  const end = lineEnd < 0 ? text.length : lineEnd;
  return {
    question: text.slice(at + 'Question:'.length, end).trim(),
    rest: text.slice(end),
    head: text.slice(0, at),
  };
}

const STEP_START = /\n\n(?=Thought:|Action:)/;

/** Splits the trajectory text after the question into steps. */
function readSteps(rest: string): { steps: PromptStep[]; reflection: boolean } {
  let body = rest;
  let reflection = false;
  const r = body.lastIndexOf(`\n\n${REFLECTION_LABEL}`);
  if (r >= 0 && body.indexOf('\nObservation:', r) < 0) {
    reflection = true;
    body = body.slice(0, r);
  }
  const pieces = body.split(/(?:^|\n)Observation: ?/);
  const steps: PromptStep[] = [];
  let pending = (pieces[0] ?? '').trim();
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] as string;
    const next = STEP_START.exec(piece);
    const observation = (next ? piece.slice(0, next.index) : piece).trim();
    if (pending !== '') steps.push({ text: pending, observation });
    pending = next ? piece.slice(next.index).trim() : '';
  }
  return { steps, reflection };
}

export function readPrompt(text: string): ReadPrompt {
  const { question, rest, head } = findQuestion(text);
  const tools: ToolLine[] = [];
  const seen = new Set<string>();
  for (const line of head.split('\n')) {
    const t = parseToolLine(line);
    if (!t || t.name === '') {
      // UpdateTool lines may be free text; keep them (they are matched by content later).
      if (t) tools.push(t);
      continue;
    }
    if (seen.has(t.name)) continue;
    seen.add(t.name);
    tools.push(t);
  }
  const { steps, reflection } = readSteps(rest);
  const demonstrations = readDemonstrations(head);
  return demonstrations.length > 0
    ? { question, tools, steps, reflection, demonstrations }
    : { question, tools, steps, reflection };
}
