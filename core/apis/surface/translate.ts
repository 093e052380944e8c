/**
 * The inverse of the resolution: a call written against the base API, translated onto a surface.
 *
 * - `translateBaseCall`: a base operation and its base arguments → the surface's tool for that operation (the
 *   first active one, else the first deprecated one, at `now`), its exposed arguments and the HTTP request that
 *   carries them (method, filled path, query, headers, JSON body). Per parameter: a renamed one moves, a
 *   converted one is converted back (`fromBaseValue`), merged ones are joined with their separator, a split one
 *   is cut at its joiner (the last part keeps the rest), the paging position is rewritten in the exposed style.
 *   Every translation is checked by resolving it again — by name and by HTTP — to exactly the base call; one
 *   that does not come back (a value holding a merge separator, a date not written the canonical way, an offset
 *   off a page boundary, …) is `{ok: false}` with the reason.
 * - `translateGoldCall`: a gold call (RestBench's `GET /movie/{movie_id}/credits`, or a `GoldCall` naming its
 *   operation) → the tool name and route template that stand for it on the surface; scoring compares calls on
 *   the surface with the gold translated this way.
 */
import type { ApiCatalog, HttpMethod } from '../types.ts';
import type { ApiSurface, ApiTool } from './model.ts';
import { pageFromBase, pageParams } from './pagination.ts';
import { type ApiResolveOptions, resolveApiCall } from './resolve.ts';
import { fillTemplate, routeShape } from './route.ts';
import { operationOf, toolForOperation } from './tools.ts';
import { fromBaseValue, sameJson, textOf } from './values.ts';

export interface HttpCall {
  method: HttpMethod;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

export type BaseCallTranslation =
  | { ok: true; tool: string; args: Record<string, unknown>; http?: HttpCall }
  | { ok: false; reason: string };

/** `"Sofia Coppola"` cut into `count` parts at `joiner` (the last part keeps the rest). */
function splitInto(value: string, joiner: string, count: number): string[] {
  const pieces = value.split(joiner);
  return [...pieces.slice(0, count - 1), pieces.slice(count - 1).join(joiner)];
}

function exposedArgs(
  tool: ApiTool,
  catalog: ApiCatalog,
  baseArgs: Readonly<Record<string, unknown>>,
): { ok: true; args: Record<string, unknown> } | { ok: false; reason: string } {
  const op = operationOf(catalog, tool.operation);
  if (!op) return { ok: false, reason: `operation ${tool.operation} is not in the catalog` };
  const args: Record<string, unknown> = {};
  const carried = new Set<string>();
  const has = (k: string) => Object.hasOwn(baseArgs, k) && baseArgs[k] !== undefined;
  for (const p of tool.params) {
    switch (p.kind) {
      case 'param': {
        carried.add(p.base);
        if (!has(p.base)) break;
        if (!p.convert) {
          args[p.name] = baseArgs[p.base];
          break;
        }
        const converted = fromBaseValue(p.convert, baseArgs[p.base]);
        if (!converted.ok) return { ok: false, reason: `${p.base} ${converted.message} (${p.convert.kind})` };
        args[p.name] = converted.value;
        break;
      }
      case 'merged': {
        for (const b of p.bases) carried.add(b);
        if (!p.bases.some(has)) break;
        const texts = p.bases.map((b) => (has(b) ? textOf(baseArgs[b]) : ''));
        const bad = texts.findIndex((t) => t.includes(p.separator));
        if (bad >= 0)
          return {
            ok: false,
            reason: `${p.bases[bad]} holds the separator ${JSON.stringify(p.separator)} of ${p.name}`,
          };
        args[p.name] = texts.join(p.separator);
        break;
      }
      case 'part': {
        carried.add(p.base);
        if (!has(p.base)) break;
        const value = baseArgs[p.base];
        if (typeof value !== 'string') return { ok: false, reason: `${p.base} is not a string to split` };
        const piece = splitInto(value, p.joiner, p.count)[p.index] ?? '';
        if (piece !== '' || p.required) args[p.name] = piece;
        break;
      }
    }
  }
  if (tool.pagination && op.pagination) {
    const paged = pageFromBase(tool.pagination, op.pagination, baseArgs);
    if (!paged.ok) return { ok: false, reason: paged.reason };
    Object.assign(args, paged.args);
    for (const p of [op.pagination].flatMap((x) =>
      x.style === 'page'
        ? [x.pageParam, x.sizeParam]
        : x.style === 'offset'
          ? [x.offsetParam, x.limitParam]
          : [x.cursorParam, x.sizeParam],
    ))
      if (p !== undefined) carried.add(p);
  }
  const stray = Object.keys(baseArgs).find((k) => !carried.has(k) && baseArgs[k] !== undefined);
  if (stray !== undefined)
    return { ok: false, reason: `base argument ${stray} has no counterpart on ${tool.name}` };
  return { ok: true, args };
}

/** The HTTP request that carries exposed arguments to a tool with a route. */
function httpCall(tool: ApiTool, catalog: ApiCatalog, args: Readonly<Record<string, unknown>>): HttpCall {
  const op = operationOf(catalog, tool.operation);
  const pathValues: Record<string, string> = {};
  const query: Record<string, string> = {};
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  let body: Record<string, unknown> | undefined;
  let whole: { value: unknown } | undefined;
  for (const p of tool.params) {
    if (!Object.hasOwn(args, p.name)) continue;
    const v = args[p.name];
    if (p.in === 'path') pathValues[p.name] = textOf(v);
    else if (p.in === 'query') query[p.name] = textOf(v);
    else if (p.in === 'header') headers[p.name] = textOf(v);
    else if (p.in === 'cookie') cookies.push(`${p.name}=${textOf(v)}`);
    else if (p.kind === 'param' && p.base === 'body' && op?.body && !op.body.flattened) whole = { value: v };
    else body = { ...(body ?? {}), [p.name]: v };
  }
  for (const p of tool.pagination ? pageParams(tool.pagination) : []) {
    if (Object.hasOwn(args, p.name)) query[p.name] = textOf(args[p.name]);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const call: HttpCall = {
    method: tool.method as HttpMethod,
    path: fillTemplate(tool.path as string, pathValues),
    query,
    headers,
  };
  if (whole) call.body = whole.value;
  else if (body) call.body = body;
  return call;
}

/** A base call written as the equivalent call on the surface (see the module header). */
export function translateBaseCall(
  surface: ApiSurface,
  catalog: ApiCatalog,
  operation: string,
  baseArgs: Record<string, unknown>,
  opts: ApiResolveOptions = {},
): BaseCallTranslation {
  const tool = toolForOperation(surface, operation, opts.now);
  if (!tool) return { ok: false, reason: `${surface.id} serves no tool for ${operation}` };
  const exposed = exposedArgs(tool, catalog, baseArgs);
  if (!exposed.ok) return { ok: false, reason: `${tool.name}: ${exposed.reason}` };
  const same = (r: ReturnType<typeof resolveApiCall>) =>
    r.kind === 'call' && r.operation === operation && sameJson(r.args, baseArgs);
  const byName = resolveApiCall(surface, catalog, { via: 'name', name: tool.name, args: exposed.args }, opts);
  if (!same(byName)) {
    const why = byName.kind === 'rejected' ? `: ${byName.message}` : '';
    return {
      ok: false,
      reason: `${tool.name}: the translation does not resolve to the same base call${why}`,
    };
  }
  if (tool.method === undefined || tool.path === undefined)
    return { ok: true, tool: tool.name, args: exposed.args };
  const http = httpCall(tool, catalog, exposed.args);
  const byHttp = resolveApiCall(surface, catalog, { via: 'http', ...http, body: http.body }, opts);
  if (!same(byHttp)) {
    const why = byHttp.kind === 'rejected' ? `: ${byHttp.message}` : '';
    return {
      ok: false,
      reason: `${tool.name}: the HTTP request does not resolve to the same base call${why}`,
    };
  }
  return { ok: true, tool: tool.name, args: exposed.args, http };
}

/** A gold call: an operation name (a `GoldCall`), or RestBench's `GET /movie/{movie_id}/credits`. */
export type GoldCallRef = { operation: string; method?: HttpMethod; path?: string } | string;

/**
 * The tool and route template that stand for a gold call on the surface at `now`, or null when the surface does
 * not serve its operation (or, for a route string, the catalog has no operation at that route).
 */
export function translateGoldCall(
  surface: ApiSurface,
  call: GoldCallRef,
  opts: { catalog?: ApiCatalog; now?: Date } = {},
): { name: string; method?: HttpMethod; path?: string } | null {
  let operation: string | undefined;
  if (typeof call === 'string') {
    const m = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(call);
    if (!m || !opts.catalog) return null;
    const method = (m[1] as string).toLowerCase();
    const shape = routeShape(m[2] as string);
    const exact = opts.catalog.operations.find((o) => o.method === method && o.path === m[2]);
    operation = (
      exact ??
      opts.catalog.operations.find(
        (o) => o.method === method && o.path !== undefined && routeShape(o.path) === shape,
      )
    )?.name;
  } else operation = call.operation;
  if (operation === undefined) return null;
  const tool = toolForOperation(surface, operation, opts.now);
  if (!tool) return null;
  const out: { name: string; method?: HttpMethod; path?: string } = { name: tool.name };
  if (tool.method !== undefined) out.method = tool.method;
  if (tool.path !== undefined) out.path = tool.path;
  return out;
}
