/**
 * Call resolution: a call on an API surface — by tool name with an argument object (ReAct, MCP, the REST tool
 * route) or as an HTTP request at the surface's paths — becomes a call of a base operation with base arguments
 * (one flat object, core/apis/types.ts), or a rejection the client can act on.
 *
 * 1. Lookup. By name: the surface's tools, then its retired names; unknown → 404 `invalid-action` listing the
 *    tools. By HTTP: every tool and retired route whose template matches the path; none → 404; none with the
 *    request's method → 405 with `allow`; else the most specific match with the method (a served tool before a
 *    retired route of equal specificity). A retired name or route → 410 `retired` with its message (naming the
 *    successor's call and route). A tool past its sunset answers the same way; a deprecated tool is served, with
 *    its `DeprecationNotice` (the HTTP layer adds the headers, `apiDeprecationHeaders`).
 * 2. Arguments. By HTTP, path parameters (percent-decoded), query parameters, headers (by name, any case),
 *    cookies and the JSON body's properties (or the whole body, for an operation whose body is not a flattened
 *    object) are read by the tool's parameter locations; text values are read as the exposed schema's type
 *    (`coerceText`). A query or body key the tool does not take is an error (pointing at the right location when
 *    the key belongs elsewhere), a missing required parameter is an error, a value the exposed schema rejects is
 *    an error; paging parameters (`ApiTool.pagination`) are checked as their style says.
 * 3. Translation onto base arguments: renamed parameters move, converted ones are converted
 *    (`ValueConversion`), a merged string is cut at its separator into its base parameters (each read as its
 *    base schema's type and checked against it), split parts are joined; the paging position is translated
 *    (`pagination.ts`). A value that cannot be translated is an error naming the exposed field.
 * All errors of a call are reported together: 400 `param-error`, each naming its field and location, and the
 * message lists the parameters the tool accepts (stale documentation shows up as errors an agent can fix).
 * Validation against the base schemas is the backend's (the mock's) job.
 */
import { type DeprecationNotice, lifecycleNotice, toolStatus } from '../../surfaces/adapter.ts';
import type { ApiCatalog, ApiOperation, JsonSchema, ParamLocation } from '../types.ts';
import { validateJson } from '../validate.ts';
import type { ApiRetired, ApiSurface, ApiTool, ExposedParam } from './model.ts';
import { type PageState, pageParams, pageToBase } from './pagination.ts';
import { compareSpecificity, matchTemplate, routeText } from './route.ts';
import type { ShapeContext } from './shape.ts';
import {
  acceptedKeys,
  isWholeBody,
  oldCallText,
  operationOf,
  servedTools,
  sunsetMessage,
  toolRoute,
} from './tools.ts';
import { coerceText, schemaTypes, toBaseValue } from './values.ts';

export type ApiCallInput =
  | { via: 'name'; name: string; args: Record<string, unknown> }
  | {
      via: 'http';
      method: string;
      path: string;
      query: Record<string, string | string[]>;
      headers: Record<string, string>;
      body: unknown;
    };

export interface ApiParamError {
  field: string;
  in?: ParamLocation;
  message: string;
}

export type ApiResolution =
  | {
      kind: 'call';
      tool: ApiTool;
      operation: string;
      /** BASE flat arguments. */
      args: Record<string, unknown>;
      context: ShapeContext;
      deprecation?: DeprecationNotice;
    }
  | {
      kind: 'rejected';
      reason: 'invalid-action' | 'retired' | 'param-error' | 'method-not-allowed';
      status: 400 | 404 | 405 | 410;
      /** The observation (ReAct, MCP) and the problem's detail (HTTP). */
      message: string;
      errors?: ApiParamError[];
      operation?: string;
      tool?: ApiTool;
      deprecation?: DeprecationNotice;
      allow?: string[];
    };

export interface ApiResolveOptions {
  /** The current time, for lifecycle dates; without it only `lifecycle.status` counts. */
  now?: Date;
}

function retiredRejection(entry: ApiRetired): ApiResolution {
  return {
    kind: 'rejected',
    reason: 'retired',
    status: 410,
    message: entry.message,
    operation: entry.operation,
    deprecation: { tool: oldCallText(entry), status: 'retired', successor: entry.successor },
  };
}

function unknownTool(surface: ApiSurface, name: string, now?: Date): ApiResolution {
  const names = [...servedTools(surface, now).map((t) => t.name), 'Finish'];
  return {
    kind: 'rejected',
    reason: 'invalid-action',
    status: 404,
    message: `${JSON.stringify(name)} is not a tool of this API. The tools are: ${names.join(', ')}.`,
  };
}

/** Maps a call on the surface onto a base operation call, or onto its rejection (see the module header). */
export function resolveApiCall(
  surface: ApiSurface,
  catalog: ApiCatalog,
  input: ApiCallInput,
  opts: ApiResolveOptions = {},
): ApiResolution {
  if (input.via === 'name') {
    const name = input.name.trim();
    const tool = surface.tools.find((t) => t.name === name);
    if (tool) return resolveTool(surface, catalog, tool, { via: 'name', args: input.args }, opts);
    const retired = surface.retired.find((r) => r.name === name);
    return retired ? retiredRejection(retired) : unknownTool(surface, name, opts.now);
  }
  const method = input.method.toLowerCase();
  type Candidate = { entry: ApiTool | ApiRetired; served: boolean; match: ReturnType<typeof matchTemplate> };
  const candidates: Candidate[] = [];
  for (const tool of surface.tools) {
    if (tool.path === undefined || tool.method === undefined) continue;
    const match = matchTemplate(tool.path, input.path);
    if (match) candidates.push({ entry: tool, served: true, match });
  }
  for (const r of surface.retired) {
    if (r.path === undefined || r.method === undefined) continue;
    const match = matchTemplate(r.path, input.path);
    if (match) candidates.push({ entry: r, served: false, match });
  }
  if (candidates.length === 0) {
    return {
      kind: 'rejected',
      reason: 'invalid-action',
      status: 404,
      message: `No operation of this API answers ${routeText(method, input.path.split('?')[0] as string)}.`,
    };
  }
  const withMethod = candidates
    .filter((c) => c.entry.method === method)
    .sort((a, b) => {
      const sa = a.match?.ok ? a.match.specificity : [];
      const sb = b.match?.ok ? b.match.specificity : [];
      return compareSpecificity(sa, sb) || Number(b.served) - Number(a.served);
    });
  const best = withMethod[0];
  if (!best) {
    const allow = [...new Set(candidates.map((c) => (c.entry.method as string).toUpperCase()))].sort();
    return {
      kind: 'rejected',
      reason: 'method-not-allowed',
      status: 405,
      message: `${routeText(method, input.path.split('?')[0] as string)} is not allowed; this path answers ${allow.join(', ')}.`,
      allow,
    };
  }
  if (!best.served) return retiredRejection(best.entry as ApiRetired);
  const tool = best.entry as ApiTool;
  if (!best.match?.ok) {
    const field = best.match ? best.match.param : '';
    return paramRejection(tool, [{ field, in: 'path', message: 'is not valid percent-encoding' }], undefined);
  }
  return resolveTool(
    surface,
    catalog,
    tool,
    { via: 'http', path: best.match.params, query: input.query, headers: input.headers, body: input.body },
    opts,
  );
}

type ToolInput =
  | { via: 'name'; args: Record<string, unknown> }
  | {
      via: 'http';
      path: Record<string, string>;
      query: Record<string, string | string[]>;
      headers: Record<string, string>;
      body: unknown;
    };

function describeKey(k: { name: string; in: ParamLocation; required: boolean }, schema: JsonSchema): string {
  const types = [...schemaTypes(schema)].join('|') || 'any';
  return `${k.name} (${k.in}, ${types}${k.required ? ', required' : ''})`;
}

function paramRejection(
  tool: ApiTool,
  errors: ApiParamError[],
  deprecation: DeprecationNotice | undefined,
): ApiResolution {
  const route = toolRoute(tool);
  const schemas = new Map<string, JsonSchema>([
    ...tool.params.map((p): [string, JsonSchema] => [p.name, p.schema]),
    ...(tool.pagination ? pageParams(tool.pagination) : []).map((p): [string, JsonSchema] => [
      p.name,
      p.schema,
    ]),
  ]);
  const accepted = acceptedKeys(tool)
    .map((k) => describeKey(k, schemas.get(k.name) ?? {}))
    .join(', ');
  const message =
    `Invalid arguments for ${tool.name}${route ? ` (${route})` : ''}: ` +
    `${errors.map((e) => `${e.field === '' ? 'the request' : e.field} ${e.message}`).join('; ')}. ` +
    `It accepts: ${accepted || 'no parameters'}.`;
  const out: ApiResolution = {
    kind: 'rejected',
    reason: 'param-error',
    status: 400,
    message,
    errors,
    operation: tool.operation,
    tool,
  };
  if (deprecation) out.deprecation = deprecation;
  return out;
}

function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the exposed arguments of an HTTP request by the tool's parameter locations (module header, step 2). */
function readHttpArgs(
  tool: ApiTool,
  op: ApiOperation | undefined,
  input: Extract<ToolInput, { via: 'http' }>,
  errors: ApiParamError[],
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const headers = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const cookies = parseCookies(headers.cookie);
  const whole = tool.params.find((p) => isWholeBody(p, op));
  const bodyParams = tool.params.filter((p) => p.in === 'body' && p !== whole);
  const where = new Map(acceptedKeys(tool).map((k) => [k.name, k.in]));
  const paging = tool.pagination ? pageParams(tool.pagination) : [];

  for (const p of tool.params) {
    let raw: string | string[] | undefined;
    if (p.in === 'path') raw = input.path[p.name];
    else if (p.in === 'query') raw = input.query[p.name];
    else if (p.in === 'header') raw = headers[p.name.toLowerCase()];
    else if (p.in === 'cookie') raw = cookies[p.name];
    if (raw !== undefined) args[p.name] = coerceText(p.schema, raw);
  }
  for (const p of paging) {
    const raw = input.query[p.name];
    if (raw !== undefined) args[p.name] = coerceText(p.schema, raw);
  }
  for (const key of Object.keys(input.query)) {
    const loc = where.get(key);
    if (loc === 'query') continue;
    errors.push({
      field: key,
      in: 'query',
      message:
        loc === undefined
          ? 'is not a parameter of this operation'
          : `belongs in the ${loc === 'body' ? 'JSON body' : loc}, not in the query string`,
    });
  }
  const body = input.body;
  const noBody =
    body === undefined || body === null || body === '' || (isRecord(body) && Object.keys(body).length === 0);
  if (whole) {
    if (!noBody || body !== undefined) args[whole.name] = body;
  } else if (bodyParams.length === 0) {
    if (!noBody)
      errors.push({
        field: 'body',
        in: 'body',
        message: 'is not expected: this operation takes no request body',
      });
  } else if (!noBody && !isRecord(body)) {
    errors.push({ field: 'body', in: 'body', message: 'must be a JSON object' });
  } else if (isRecord(body)) {
    for (const [key, value] of Object.entries(body)) {
      const loc = where.get(key);
      if (loc === 'body') args[key] = value;
      else
        errors.push({
          field: key,
          in: 'body',
          message:
            loc === undefined
              ? "is not a property of this operation's body"
              : `belongs in the ${loc === 'query' ? 'query string' : loc}, not in the JSON body`,
        });
    }
  }
  return args;
}

function validationMessage(schema: JsonSchema, value: unknown): string | null {
  const result = validateJson(schema, value);
  if (result.valid) return null;
  const first = result.errors[0];
  if (!first) return 'does not fit its schema';
  const at = first.pointer === '' ? '' : ` (at ${first.pointer})`;
  return `${first.message.replace(/^Value\b/, 'value').replace(/\.$/, '')}${at}`;
}

/** Steps 2–3 of the module header for one tool. */
function resolveTool(
  surface: ApiSurface,
  catalog: ApiCatalog,
  tool: ApiTool,
  input: ToolInput,
  opts: ApiResolveOptions,
): ApiResolution {
  const status = toolStatus(tool, opts.now);
  if (status === 'sunset') {
    return {
      kind: 'rejected',
      reason: 'retired',
      status: 410,
      message: sunsetMessage(surface, tool, opts.now),
      operation: tool.operation,
      tool,
      deprecation: lifecycleNotice(tool, 'sunset'),
    };
  }
  const deprecation = status === 'deprecated' ? lifecycleNotice(tool, 'deprecated') : undefined;
  const op = operationOf(catalog, tool.operation);
  const errors: ApiParamError[] = [];
  const args = input.via === 'name' ? { ...input.args } : readHttpArgs(tool, op, input, errors);

  // Unknown keys, missing and ill-typed values.
  const paging = tool.pagination ? pageParams(tool.pagination) : [];
  const known = new Map<string, { in: ParamLocation; required: boolean; schema: JsonSchema }>([
    ...tool.params.map((p): [string, { in: ParamLocation; required: boolean; schema: JsonSchema }] => [
      p.name,
      p,
    ]),
    ...paging.map((p): [string, { in: ParamLocation; required: boolean; schema: JsonSchema }] => [
      p.name,
      { in: 'query', required: false, schema: p.schema },
    ]),
  ]);
  if (input.via === 'name') {
    for (const key of Object.keys(args)) {
      if (!known.has(key)) errors.push({ field: key, message: 'is not a parameter of this tool' });
    }
  }
  for (const [name, spec] of known) {
    if (!Object.hasOwn(args, name) || args[name] === undefined) {
      if (spec.required) errors.push({ field: name, in: spec.in, message: 'is required' });
      continue;
    }
    const problem = validationMessage(spec.schema, args[name]);
    if (problem) errors.push({ field: name, in: spec.in, message: problem });
  }
  if (errors.length > 0) return paramRejection(tool, errors, deprecation);
  if (!op) {
    return paramRejection(
      tool,
      [{ field: '', message: `has no operation ${tool.operation} behind it` }],
      deprecation,
    );
  }

  // Translation onto base arguments.
  const base: Record<string, unknown> = {};
  const parts = new Map<string, string[]>();
  for (const p of tool.params) toBase(p, args, op, base, parts, errors);
  joinParts(tool, parts, base);
  let page: PageState | undefined;
  if (tool.pagination && op.pagination) {
    const mapped = pageToBase(tool.pagination, op.pagination, args);
    if (mapped.ok) {
      Object.assign(base, mapped.baseArgs);
      page = mapped.state;
    } else errors.push({ field: mapped.field, in: 'query', message: mapped.message });
  }
  for (const bp of op.params) {
    if (bp.required && !Object.hasOwn(base, bp.name) && !errors.length) {
      const carriers = tool.params.filter((p) =>
        p.kind === 'merged' ? p.bases.includes(bp.name) : p.base === bp.name,
      );
      errors.push({
        field: carriers.map((c) => c.name).join(' + ') || bp.name,
        ...(carriers[0] ? { in: carriers[0].in } : {}),
        message: `must carry a value for ${bp.name}`,
      });
    }
  }
  if (errors.length > 0) return paramRejection(tool, errors, deprecation);
  const context: ShapeContext = { tool: tool.name, operation: op.name };
  if (page) context.page = page;
  const call: ApiResolution = { kind: 'call', tool, operation: op.name, args: base, context };
  if (deprecation) call.deprecation = deprecation;
  return call;
}

function baseSchemaOf(op: ApiOperation, name: string): JsonSchema {
  if (name === 'body' && op.body && !op.body.flattened) return op.body.schema;
  return op.params.find((p) => p.name === name)?.schema ?? {};
}

/** One exposed parameter onto base arguments (module header, step 3); errors name the exposed field. */
function toBase(
  p: ExposedParam,
  args: Readonly<Record<string, unknown>>,
  op: ApiOperation,
  out: Record<string, unknown>,
  parts: Map<string, string[]>,
  errors: ApiParamError[],
): void {
  if (!Object.hasOwn(args, p.name) || args[p.name] === undefined) return;
  const value = args[p.name];
  switch (p.kind) {
    case 'param': {
      if (!p.convert) {
        out[p.base] = value;
        return;
      }
      const converted = toBaseValue(p.convert, value, baseSchemaOf(op, p.base));
      if (converted.ok) out[p.base] = converted.value;
      else errors.push({ field: p.name, in: p.in, message: converted.message });
      return;
    }
    case 'merged': {
      const parts = String(value).split(p.separator);
      if (parts.length !== p.bases.length) {
        errors.push({
          field: p.name,
          in: p.in,
          message: `must hold ${p.bases.length} parts joined by ${JSON.stringify(p.separator)} (${p.bases.join(p.separator)}), got ${parts.length}`,
        });
        return;
      }
      p.bases.forEach((b, i) => {
        const text = parts[i] as string;
        if (text === '') return;
        const schema = baseSchemaOf(op, b);
        const v = coerceText(schema, text);
        const problem = validationMessage(schema, v);
        if (problem) errors.push({ field: p.name, in: p.in, message: `part ${i + 1} (${b}): ${problem}` });
        else out[b] = v;
      });
      return;
    }
    case 'part': {
      const pieces = parts.get(p.base) ?? [];
      pieces[p.index] = String(value);
      parts.set(p.base, pieces);
      return;
    }
  }
}

/** The base values of split parameters: the non-empty parts joined in index order. */
function joinParts(tool: ApiTool, parts: ReadonlyMap<string, string[]>, out: Record<string, unknown>): void {
  for (const [base, pieces] of parts) {
    const joiner = tool.params.find((p) => p.kind === 'part' && p.base === base) as Extract<
      ExposedParam,
      { kind: 'part' }
    >;
    const joined = pieces.filter((x) => x !== undefined && x !== '').join(joiner.joiner);
    if (joined !== '') out[base] = joined;
  }
}
