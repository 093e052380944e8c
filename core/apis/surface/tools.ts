/**
 * Small facts about the tools of an API surface that every other module asks for: which tool serves an
 * operation at a given time, which operation a tool stands for, the keys a tool accepts, how a tool and a
 * retired entry are written in text (`fetchFilmCredits[filmId, language] (POST /v2/film/{filmId}/credits)`),
 * and the messages an agent reads when a tool is deprecated or gone — messages it can act on: they name the
 * successor's call, its parameters and its route.
 */
import { toolStatus } from '../../surfaces/adapter.ts';
import type { ApiCatalog, ApiOperation, ParamLocation } from '../types.ts';
import type { ApiRetired, ApiSurface, ApiTool, ExposedParam } from './model.ts';
import { pageParams } from './pagination.ts';
import { routeText } from './route.ts';

/** Tool names, parameter keys and operation names a client can send: letters, digits, `_`, `.`, `-`. */
export const API_EXPOSED_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

const operationIndex = new WeakMap<ApiCatalog, Map<string, ApiOperation>>();

/** The catalog's operation of that name. */
export function operationOf(catalog: ApiCatalog, name: string): ApiOperation | undefined {
  let index = operationIndex.get(catalog);
  if (!index) {
    index = new Map(catalog.operations.map((o) => [o.name, o]));
    operationIndex.set(catalog, index);
  }
  return index.get(name);
}

/** The tool that serves an operation on the surface at `now`: the first active one, else the first deprecated. */
export function toolForOperation(surface: ApiSurface, operation: string, now?: Date): ApiTool | undefined {
  const candidates = surface.tools.filter((t) => t.operation === operation);
  return (
    candidates.find((t) => toolStatus(t, now) === 'active') ??
    candidates.find((t) => toolStatus(t, now) === 'deprecated')
  );
}

/** The tools a client can use at `now` (sunset ones are gone), one per name (the first). */
export function servedTools(surface: ApiSurface, now?: Date): ApiTool[] {
  const seen = new Set<string>();
  return surface.tools.filter((t) => {
    if (toolStatus(t, now) === 'sunset' || seen.has(t.name)) return false;
    seen.add(t.name);
    return true;
  });
}

/** Whether the parameter carries the whole request body (a base body that is not a flattened object). */
export function isWholeBody(p: ExposedParam, op: ApiOperation | undefined): boolean {
  return (
    p.kind === 'param' && p.in === 'body' && p.base === 'body' && op?.body !== undefined && !op.body.flattened
  );
}

/** Every key a tool accepts, with its location: its parameters, then its paging parameters (query). */
export function acceptedKeys(tool: ApiTool): { name: string; in: ParamLocation; required: boolean }[] {
  return [
    ...tool.params.map((p) => ({ name: p.name, in: p.in, required: p.required })),
    ...(tool.pagination ? pageParams(tool.pagination) : []).map((p) => ({
      name: p.name,
      in: 'query' as const,
      required: false,
    })),
  ];
}

/** `fetchFilmCredits[filmId, language]` (paging parameters included). */
export function toolSignature(tool: ApiTool): string {
  return `${tool.name}[${acceptedKeys(tool)
    .map((k) => k.name)
    .join(', ')}]`;
}

/** `GET /movie/{movie_id}`, or undefined for a catalog tool. */
export function toolRoute(tool: { method?: string; path?: string }): string | undefined {
  return tool.method !== undefined && tool.path !== undefined ? routeText(tool.method, tool.path) : undefined;
}

/** `fetchFilmCredits[filmId, language] (POST /v2/film/{filmId}/credits)`. */
export function toolCallText(tool: ApiTool): string {
  const route = toolRoute(tool);
  return route ? `${toolSignature(tool)} (${route})` : toolSignature(tool);
}

/** An old tool or retired entry by name and route: `getPerson (GET /person/{person_id})`. */
export function oldCallText(old: { name?: string; method?: string; path?: string }): string {
  const route = toolRoute(old);
  if (old.name !== undefined && route) return `${old.name} (${route})`;
  return old.name ?? route ?? '(unnamed)';
}

/** `2026-03-01` for a midnight UTC instant, else the ISO timestamp. */
export function dayText(at: string | Date): string {
  const iso = new Date(at).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}

/**
 * What a retired name or route answers: `getPerson (GET /person/{person_id}) is deprecated and was removed on
 * 2026-03-01. Use fetchPerson[personId, language] (GET /v2/people/{personId}) instead.`
 */
export function retiredMessage(
  old: { name?: string; method?: string; path?: string },
  successor: ApiTool | string | undefined,
  removedOn?: string | Date,
): string {
  const gone = removedOn !== undefined ? `was removed on ${dayText(removedOn)}` : 'is no longer served';
  const use =
    successor === undefined
      ? ''
      : ` Use ${typeof successor === 'string' ? successor : toolCallText(successor)} instead.`;
  return `${oldCallText(old)} is deprecated and ${gone}.${use}`;
}

/** The message of a tool past its sunset (its lifecycle names the successor and the date). */
export function sunsetMessage(surface: ApiSurface, tool: ApiTool, now?: Date): string {
  const name = tool.lifecycle.successor;
  const successor =
    name === undefined
      ? undefined
      : (surface.tools.find((t) => t.name === name && t !== tool && toolStatus(t, now) !== 'sunset') ?? name);
  return retiredMessage(tool, successor, tool.lifecycle.sunsetAt);
}

/**
 * The notice that goes with an answer of a deprecated tool (for ReAct and MCP, where there are no headers):
 * `getPerson (GET /person/{person_id}) is deprecated and will be removed on 2026-03-01. Use … instead.`
 */
export function deprecationWarning(surface: ApiSurface, tool: ApiTool, now?: Date): string {
  const name = tool.lifecycle.successor;
  const successor =
    name === undefined
      ? undefined
      : surface.tools.find((t) => t.name === name && t !== tool && toolStatus(t, now) !== 'sunset');
  const when =
    tool.lifecycle.sunsetAt !== undefined
      ? ` and will be removed on ${dayText(tool.lifecycle.sunsetAt)}`
      : '';
  const use = successor
    ? ` Use ${toolCallText(successor)} instead.`
    : name !== undefined
      ? ` Use ${name} instead.`
      : '';
  return `${oldCallText(tool)} is deprecated${when}.${use}`;
}

/** The retired entry of a name the surface no longer serves, if it has one. */
export function retiredByName(surface: ApiSurface, name: string): ApiRetired | undefined {
  return surface.retired.find((r) => r.name === name);
}
