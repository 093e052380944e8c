/**
 * `apiSurfaceOpenApi`: the OpenAPI 3.1 document of an API surface — the *drifted* API as a client sees it
 * (served as `GET /v1/surfaces/{id}/openapi.json`; checked with `validateOpenApiDocument`).
 *
 * - One operation per served tool: `operationId` = the tool name (a second tool of the same name — a schedule's
 *   deprecated copy at its old route — gets `{name}__{method}_{n}`), summary, description, tags, the exposed
 *   path/query/header/cookie parameters (paging parameters in the query) with their exposed schemas, the exposed
 *   body properties as a JSON object body (or the whole body), and the operation's declared responses with their
 *   schemas and first example reshaped exactly as the surface reshapes answers (paging for 2xx, key case,
 *   envelope; `shape.ts`). A `400` answer (parameter errors, RFC 9457 problem+json naming the field) is added
 *   when the document declares none.
 * - A deprecated tool is `deprecated: true`, its description says what replaces it and when it goes, and its
 *   2xx answers document the `Deprecation`, `Sunset` and `Link` headers; a tool past its sunset (at `now`) and
 *   every retired route are deprecated operations whose only answer is `410` naming the successor.
 * - Routes of one shape (`/movie/{movie_id}` and `/movie/{id}`) share one path item (OpenAPI calls such
 *   templates identical), written with the first served tool's parameter names.
 * - Catalog tools (no HTTP shape) are documented as `POST /tools/{name}` with the arguments as the JSON body, the
 *   way the session's REST tool route takes them.
 * - Schemas are the catalog's JSON Schema 2020-12, OpenAPI 3.1's dialect.
 */
import { toolStatus } from '../../surfaces/adapter.ts';
import type { ApiCatalog } from '../types.ts';
import { apiArgumentsSchema, toolAbout } from './docs.ts';
import type { ApiSurface, ApiTool } from './model.ts';
import { pageParams, pageToBase } from './pagination.ts';
import { routeShape, templateParams } from './route.ts';
import { shapeResponseSchema, shapeResponseValue } from './shape.ts';
import { dayText, isWholeBody, operationOf, sunsetMessage, toolCallText } from './tools.ts';

type Json = { [key: string]: unknown };

const PROBLEM: Json = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string', description: 'What went wrong and what to send instead.' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string' }, in: { type: 'string' }, message: { type: 'string' } },
        required: ['field', 'message'],
      },
    },
  },
  required: ['title', 'status'],
};

const DEPRECATION_HEADERS: Json = {
  Deprecation: {
    description: 'RFC 9745: when the operation was deprecated (`@<unix seconds>`).',
    schema: { type: 'string' },
  },
  Sunset: {
    description: 'RFC 8594: when the operation stops being served (an HTTP-date).',
    schema: { type: 'string' },
  },
  Link: {
    description: 'RFC 8288: `rel="successor-version"` points at the replacing operation.',
    schema: { type: 'string' },
  },
};

function problemResponse(description: string): Json {
  return {
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

function gone(message: string): Json {
  return { '410': problemResponse(`Gone: ${message}`) };
}

/** The path item key for a route: the first template seen with its shape. */
class PathKeys {
  private readonly byShape = new Map<string, string>();
  key(path: string): string {
    const shape = routeShape(path);
    const known = this.byShape.get(shape);
    if (known !== undefined) return known;
    this.byShape.set(shape, path);
    return path;
  }
}

function pathParameters(key: string, tool?: ApiTool): Json[] {
  return templateParams(key).map((name, i) => {
    const own = tool ? templateParams(tool.path ?? '')[i] : undefined;
    const p = tool?.params.find((x) => x.in === 'path' && x.name === own);
    const out: Json = { name, in: 'path', required: true, schema: p?.schema ?? { type: 'string' } };
    if (p?.description) out.description = p.description;
    return out;
  });
}

function responsesOf(surface: ApiSurface, catalog: ApiCatalog, tool: ApiTool, deprecated: boolean): Json {
  const op = operationOf(catalog, tool.operation);
  const paging =
    tool.pagination && op?.pagination ? { exposed: tool.pagination, base: op.pagination } : undefined;
  const page = paging ? pageToBase(paging.exposed, paging.base, {}) : undefined;
  const out: Json = {};
  for (const r of op?.responses ?? []) {
    const response: Json = { description: r.description || `Status ${r.status}.` };
    if (r.schema !== undefined || r.example !== undefined) {
      const media: Json = {};
      if (r.schema !== undefined)
        media.schema = shapeResponseSchema(surface.response, paging, r.status, r.schema);
      if (r.example !== undefined) {
        const status = /^[0-9]{3}$/.test(r.status) ? Number(r.status) : r.status.startsWith('2') ? 200 : 400;
        media.example = shapeResponseValue(
          surface.response,
          page?.ok ? page.state : undefined,
          status,
          r.example,
        );
      }
      response.content = { [r.mediaType ?? 'application/json']: media };
    }
    if (deprecated && r.status.startsWith('2')) response.headers = DEPRECATION_HEADERS;
    out[r.status] = response;
  }
  if (!Object.keys(out).some((s) => s === '400' || s === '4XX'))
    out['400'] = problemResponse(
      'Invalid arguments: an unknown, missing or ill-typed parameter, named in `errors`.',
    );
  if (!Object.keys(out).some((s) => s.startsWith('2'))) out['200'] = { description: 'Success.' };
  return out;
}

function operationObject(
  surface: ApiSurface,
  catalog: ApiCatalog,
  tool: ApiTool,
  key: string,
  operationId: string,
  now?: Date,
): Json {
  const op = operationOf(catalog, tool.operation);
  const status = toolStatus(tool, now);
  const out: Json = { operationId };
  if (tool.summary) out.summary = tool.summary;
  if (op?.tags && op.tags.length > 0) out.tags = [...op.tags];
  if (status === 'sunset') {
    const message = sunsetMessage(surface, tool, now);
    return {
      ...out,
      deprecated: true,
      description: message,
      parameters: pathParameters(key),
      responses: gone(message),
    };
  }
  let description = tool.description;
  if (status === 'deprecated') {
    const l = tool.lifecycle;
    const successor =
      l.successor !== undefined ? surface.tools.find((t) => t.name === l.successor && t !== tool) : undefined;
    description += `\n\nDeprecated${l.sunsetAt !== undefined ? `; it will be removed on ${dayText(l.sunsetAt)}` : ''}.${successor ? ` Use ${toolCallText(successor)} instead.` : ''}`;
    out.deprecated = true;
  }
  out.description = description.trim() || toolAbout(tool);
  const parameters: Json[] = pathParameters(key, tool);
  for (const p of tool.params) {
    if (p.in === 'path' || p.in === 'body') continue;
    const param: Json = { name: p.name, in: p.in, required: p.required, schema: p.schema };
    if (p.description) param.description = p.description;
    parameters.push(param);
  }
  for (const p of tool.pagination ? pageParams(tool.pagination) : []) {
    parameters.push({
      name: p.name,
      in: 'query',
      required: false,
      schema: p.schema,
      description: p.description,
    });
  }
  if (parameters.length > 0) out.parameters = parameters;
  const whole = tool.params.find((p) => isWholeBody(p, op));
  const bodyParams = tool.params.filter((p) => p.in === 'body' && p !== whole);
  if (whole) {
    out.requestBody = {
      required: whole.required,
      content: { [op?.body?.mediaType ?? 'application/json']: { schema: whole.schema } },
    };
  } else if (bodyParams.length > 0) {
    const properties: Json = {};
    const required: string[] = [];
    for (const p of bodyParams) {
      properties[p.name] =
        p.description && typeof p.schema === 'object'
          ? { ...p.schema, description: p.description }
          : p.schema;
      if (p.required) required.push(p.name);
    }
    const schema: Json = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) schema.required = required;
    out.requestBody = { required: required.length > 0, content: { 'application/json': { schema } } };
  }
  out.responses = responsesOf(surface, catalog, tool, status === 'deprecated');
  return out;
}

/** The OpenAPI 3.1 document of the API as the surface serves it (see the module header). */
export function apiSurfaceOpenApi(
  surface: ApiSurface,
  catalog: ApiCatalog,
  opts: { now?: Date; servers?: readonly string[] } = {},
): Record<string, unknown> {
  const paths: Record<string, Json> = {};
  const keys = new PathKeys();
  const ids = new Set<string>();
  const uniqueId = (name: string, method: string) => {
    let id = name;
    for (let n = 2; ids.has(id); n++) id = `${name}__${method}_${n}`;
    ids.add(id);
    return id;
  };
  const taken = new Set<string>();
  const itemOf = (key: string): Json => {
    paths[key] ??= {};
    return paths[key] as Json;
  };
  for (const tool of surface.tools) {
    const method = tool.method ?? 'post';
    const path = tool.path ?? `/tools/${encodeURIComponent(tool.name)}`;
    const key = keys.key(path);
    if (taken.has(`${method} ${key}`)) continue;
    taken.add(`${method} ${key}`);
    const item = itemOf(key);
    if (tool.path === undefined) {
      // A catalog tool: its arguments object is the JSON body of the REST tool route.
      const op = operationObject(
        surface,
        catalog,
        { ...tool, params: [] },
        key,
        uniqueId(tool.name, method),
        opts.now,
      );
      if (toolStatus(tool, opts.now) !== 'sunset')
        op.requestBody = {
          required: true,
          content: { 'application/json': { schema: apiArgumentsSchema(tool) } },
        };
      item[method] = op;
    } else item[method] = operationObject(surface, catalog, tool, key, uniqueId(tool.name, method), opts.now);
  }
  for (const r of surface.retired) {
    if (r.method === undefined || r.path === undefined) continue;
    const key = keys.key(r.path);
    if (taken.has(`${r.method} ${key}`)) continue;
    taken.add(`${r.method} ${key}`);
    const item = itemOf(key);
    const op: Json = {
      operationId: uniqueId(`${r.name ?? r.successor}__retired`, r.method),
      deprecated: true,
      description: r.message,
      responses: gone(r.message),
    };
    const params = pathParameters(key);
    if (params.length > 0) op.parameters = params;
    item[r.method] = op;
  }
  const servers = opts.servers ?? catalog.servers;
  const doc: Record<string, unknown> = {
    openapi: '3.1.0',
    info: {
      title: surface.title,
      version: surface.drift ? `${catalog.version}+${surface.id}` : catalog.version,
      description: surface.description,
    },
  };
  if (servers.length > 0) doc.servers = servers.map((url) => ({ url }));
  doc.paths = paths;
  doc.components = { schemas: { Problem: PROBLEM } };
  return doc;
}
