/**
 * How one ReAct step is written (spec §5.2–§5.3), shared by the prompt templates (few-shot examples, trajectory)
 * and by anything that writes steps the way a model would (the simulated policy):
 *
 * ```text
 * Thought: <free text>
 *
 * Action: <tool name>
 *
 * Action Input: <JSON object>
 * ```
 *
 * and, in a trajectory, followed by a blank line and `Observation: <observation>`; steps are joined by a blank line.
 *
 * Action Inputs are written as JSON with `", "` / `": "` separators (as Python's json.dumps and the ToolQA-D
 * few-shots do) and characters outside ASCII left as they are (as a model writes them; the decoder accepts both).
 * Numbers written as JS numbers become JSON numbers; PyInt/PyFloat keep their Python type (`3` vs `3.0`).
 */
import { PyDict, PyFloat, PyInt, pyFloatRepr } from '../util/python-format.ts';
import { formatStep } from '../world/react-parse.ts';

/** A JSON value as a model writes it in an Action Input. */
export function writeJsonValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof PyInt) return String(v.value);
  if (v instanceof PyFloat) return Number.isFinite(v.value) ? pyFloatRepr(v.value) : 'null';
  if (v instanceof PyDict) return writeJsonEntries(v.entries);
  if (Array.isArray(v)) return `[${v.map(writeJsonValue).join(', ')}]`;
  if (typeof v === 'object') return writeJsonEntries(Object.entries(v as Record<string, unknown>));
  return JSON.stringify(String(v));
}

/** An object from ordered entries: `{"a": 1, "b": "x"}`. */
export function writeJsonEntries(entries: readonly (readonly [string, unknown])[]): string {
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${writeJsonValue(v)}`).join(', ')}}`;
}

/** An Action Input object (key order kept). */
export function writeActionInput(args: Readonly<Record<string, unknown>> | PyDict): string {
  return args instanceof PyDict ? writeJsonEntries(args.entries) : writeJsonEntries(Object.entries(args));
}

/** The generated text of one step (what a model writes before `Observation:`). */
export function reactStepText(thought: string, action: string, actionInput: string): string {
  return `Thought: ${thought}\n\nAction: ${action}\n\nAction Input: ${actionInput}`;
}

/** One step of a trajectory: what was generated and what the environment answered. */
export interface TrajectoryStep {
  /** The generated text (Thought/Action/Action Input), as the model wrote it. */
  text: string;
  observation: string;
}

/** The trajectory text: every step as `text + "\n\nObservation: " + observation`, joined by blank lines (§5.3). */
export function trajectoryText(steps: readonly TrajectoryStep[]): string {
  return steps.map((s) => formatStep(s.text, s.observation)).join('\n\n');
}
