/**
 * How a surface tool is written in text: its bracket signature (`FetchValue_ByKey[column1, column2, ...,
 * ReturnResult]`), its example argument object as JSON, and the deprecation message that points from one tool
 * to its successor. Shared by the prompt-style documentation and by the adapter's answer to a sunset tool.
 */
import { PyFloat, PyInt, type PyJson, pyJsonDumps } from '../util/python-format.ts';
import { deprecated } from '../world/kernel/messages.ts';
import type { ParamSpec, SurfaceTool } from './model.ts';

/** A parameter as the signature shows it; numbered parameters show their first two keys and an ellipsis. */
export function paramSignature(p: ParamSpec): string {
  return p.kind === 'numbered' ? `${p.prefix}1, ${p.prefix}2, ...` : p.name;
}

/** `condition1, condition2, ...` — the parameters between the brackets, in documentation order. */
export function toolSignature(tool: SurfaceTool): string {
  return tool.params.map(paramSignature).join(', ');
}

/** `Apply_Database_Filters[condition1, condition2, ...]`. */
export function toolCallText(tool: SurfaceTool): string {
  return `${tool.name}[${toolSignature(tool)}]`;
}

/** A JSON-like example value as Python's json.dumps writes it (integers stay integers). */
function toPyJson(v: unknown): PyJson {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? new PyInt(v) : new PyFloat(v);
  if (v instanceof PyInt || v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(toPyJson);
  if (typeof v === 'object') {
    const out: { [k: string]: PyJson } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = toPyJson(x);
    return out;
  }
  return String(v);
}

/** `{"condition1": "NAME=Chao Zhang", "condition2": "Date<=2004-01-16"}` (json.dumps separators, ASCII). */
export function exampleJson(example: Readonly<Record<string, unknown>>): string {
  return pyJsonDumps(toPyJson(example));
}

/**
 * The deprecation message of a tool that is no longer served, in the ToolQA-D form (spec §4.6):
 * `Error: {old}[{params}] is deprecated and will be removed in future releases. Use {new}[{params}], param
 * example: {json} instead.` When the successor is not a tool of the surface only its name is given.
 */
export function deprecationMessage(old: SurfaceTool, successor: SurfaceTool | string): string {
  const use =
    typeof successor === 'string'
      ? successor
      : `${toolCallText(successor)}, param example: ${exampleJson(successor.example)}`;
  return deprecated(toolCallText(old), use);
}
