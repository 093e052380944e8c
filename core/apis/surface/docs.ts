/**
 * An API surface documents itself for agents, as pure functions of the surface (the kernel surfaces' docs.ts
 * does the same for ToolQA-D tools):
 *
 * - `apiToolList`: the ReAct prompt's tool list in ToolEvo's form — numbered lines `(n) Name[params], …` with
 *   `Finish[answer]` last (spec §5.1) — where each line also gives the tool's route, the first sentence of its
 *   description and its parameters (type, location, required, first sentence of the description), and a
 *   deprecated tool says what replaces it and when it goes; optionally followed by the lines UpdateTool added.
 * - `apiArgumentsSchema`: the JSON Schema (draft 2020-12) of a tool's argument object: one property per exposed
 *   key (paging parameters included) with its exposed schema and description, the required keys, no others.
 * - `apiMcpTools`: the served tools as MCP tool descriptors (`tools/list`), Finish included.
 *
 * Sunset tools are left out of both lists (they answer 410); of two tools with one name (a schedule's
 * deprecated copy at its old route) the first is listed.
 */
import type { McpToolDescriptor } from '../../surfaces/docs.ts';
import type { JsonSchema } from '../types.ts';
import type { ApiSurface, ApiTool } from './model.ts';
import { pageParams } from './pagination.ts';
import { dayText, servedTools, toolRoute, toolSignature } from './tools.ts';
import { schemaTypes } from './values.ts';

export type { McpToolDescriptor } from '../../surfaces/docs.ts';

/** The answer tool every tool list ends with (the session layer answers it, it is no operation). */
export const FINISH_LINE = 'Finish[answer], which returns the answer and finishes the task.';

const FINISH_TOOL: McpToolDescriptor = {
  name: 'Finish',
  description: FINISH_LINE,
  inputSchema: {
    type: 'object',
    properties: { answer: { description: 'The final answer to the question (any JSON value).' } },
    required: ['answer'],
    additionalProperties: false,
  },
};

/** The first sentence of a text (markdown tables and line breaks dropped), at most `max` characters. */
export function firstSentence(text: string | undefined, max = 200): string {
  const flat = (text ?? '')
    .split('\n')
    .filter((l) => !/^\s*[|#]/.test(l))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(flat);
  const sentence = m ? (m[1] as string) : flat;
  return sentence.length > max ? `${sentence.slice(0, max - 1).trimEnd()}…` : sentence;
}

interface KeyDoc {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
  description?: string;
}

function keyDocs(tool: ApiTool): KeyDoc[] {
  return [
    ...tool.params.map((p) => ({
      name: p.name,
      in: p.in,
      required: p.required,
      schema: p.schema,
      description: p.description,
    })),
    ...(tool.pagination ? pageParams(tool.pagination) : []).map((p) => ({
      name: p.name,
      in: 'query',
      required: false,
      schema: p.schema,
      description: p.description,
    })),
  ];
}

function typeText(schema: JsonSchema): string {
  const types = [...schemaTypes(schema)];
  const base = types.length > 0 ? types.join(' or ') : 'any';
  const s = typeof schema === 'object' && schema !== null ? schema : {};
  if (Array.isArray(s.enum))
    return `${base}, one of ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join('/')}`;
  if (typeof s.format === 'string') return `${base}, ${s.format}`;
  return base;
}

function paramsText(tool: ApiTool): string {
  const docs = keyDocs(tool);
  if (docs.length === 0) return 'No parameters.';
  return `Parameters: ${docs
    .map((k) => {
      const about = firstSentence(k.description, 120);
      return `${k.name} (${typeText(k.schema)}, ${k.in}${k.required ? ', required' : ''})${about ? ` — ${about}` : ''}`;
    })
    .join('; ')}.`;
}

function lifecycleText(surface: ApiSurface, tool: ApiTool, now?: Date): string {
  const l = tool.lifecycle;
  const deprecated =
    l.status === 'deprecated' ||
    (l.deprecatedAt !== undefined && now !== undefined && Date.parse(l.deprecatedAt) <= now.getTime());
  if (!deprecated) return '';
  const successor =
    l.successor !== undefined ? surface.tools.find((t) => t.name === l.successor && t !== tool) : undefined;
  const use = successor
    ? ` Use ${toolSignature(successor)}${toolRoute(successor) ? ` (${toolRoute(successor)})` : ''} instead.`
    : l.successor
      ? ` Use ${l.successor} instead.`
      : '';
  const when = l.sunsetAt !== undefined ? ` It will be removed on ${dayText(l.sunsetAt)}.` : '';
  return ` Deprecated.${when}${use}`;
}

/**
 * What a tool does in one sentence: the description's first sentence (after the summary, which the catalog's
 * description may begin with), else the summary.
 */
export function toolAbout(tool: ApiTool): string {
  const summary = tool.summary?.trim() ?? '';
  let text = tool.description.trim();
  if (summary !== '' && text.startsWith(summary)) text = text.slice(summary.length);
  return firstSentence(text) || firstSentence(summary);
}

function toolText(surface: ApiSurface, tool: ApiTool, now?: Date, about?: string): string {
  const route = toolRoute(tool);
  about ||= toolAbout(tool) || 'No description.';
  return `${route ? `${route}: ` : ''}${about} ${paramsText(tool)}${lifecycleText(surface, tool, now)}`;
}

/** One documented tool of an API's ReAct tool list: its exposed name, the base operation, its line unnumbered. */
export interface ApiDocTool {
  name: string;
  operation: string;
  /** `name[params], GET /route: about … Parameters: …` (what follows `(n) ` in the list). */
  line: string;
}

export interface ApiToolListOptions {
  now?: Date;
  /**
   * Descriptions by base operation that replace a tool's own sentence, whole (an uploaded description file such
   * as DRAFT's `TMDB_DRAFT.json`, or a DRAFT docset's refined descriptions).
   */
  descriptions?: Readonly<Record<string, string>>;
}

/** The served tools' documentation lines, in the surface's order (see the module header). */
export function apiToolLines(surface: ApiSurface, opts: ApiToolListOptions = {}): ApiDocTool[] {
  return servedTools(surface, opts.now).map((t) => ({
    name: t.name,
    operation: t.operation,
    line: `${toolSignature(t)}, ${toolText(surface, t, opts.now, opts.descriptions?.[t.operation]?.trim())}`,
  }));
}

/** Documented tools as the numbered ReAct list, `Finish[answer]` last, then UpdateTool's lines (`newTools`). */
export function numberedApiToolList(
  tools: readonly Pick<ApiDocTool, 'line'>[],
  newTools: readonly string[] = [],
): string {
  const lines = tools.map((t, i) => `(${i + 1}) ${t.line}`);
  lines.push(`(${tools.length + 1}) ${FINISH_LINE}`);
  return newTools.length > 0 ? `${lines.join('\n')}\n${newTools.join('\n')}` : lines.join('\n');
}

/** The ReAct tool list (see the module header); `newTools` are UpdateTool's lines, appended after a newline. */
export function apiToolList(
  surface: ApiSurface,
  opts: ApiToolListOptions & { newTools?: readonly string[] } = {},
): string {
  return numberedApiToolList(apiToolLines(surface, opts), opts.newTools);
}

/** The JSON Schema of a tool's argument object (see the module header). */
export function apiArgumentsSchema(tool: ApiTool): { [key: string]: unknown } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const k of keyDocs(tool)) {
    const base = typeof k.schema === 'object' && k.schema !== null ? k.schema : {};
    properties[k.name] = k.description !== undefined ? { ...base, description: k.description } : base;
    if (k.required) required.push(k.name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The served tools and Finish as MCP tool descriptors (`tools/list`). */
export function apiMcpTools(surface: ApiSurface, opts: { now?: Date } = {}): McpToolDescriptor[] {
  return [
    ...servedTools(surface, opts.now).map((t) => ({
      name: t.name,
      description: toolText(surface, t, opts.now),
      inputSchema: apiArgumentsSchema(t),
    })),
    FINISH_TOOL,
  ];
}
