/**
 * Imported APIs (issue 22): bring an API of your own — an OpenAPI 3.0/3.1 document (JSON or YAML), a Swagger 2.0
 * document, or a function catalog — and tooldrift serves it as a seeded, stateful mock (or its examples, or in
 * front of its real upstream), drifts it (`POST /v1/apis/{id}/surfaces`) and plays it in sessions
 * (`POST /v1/sessions {"api": …}`). Everything here belongs to the key that imported it.
 *
 * The import takes a JSON envelope `{"document": <the document, as JSON or as text>, "mode", "seed", …}`, or the
 * document itself as the body (`application/vnd.oai.openapi` for JSON or YAML text, `application/yaml`, `text/yaml`)
 * with the options in the query string. Documents may be up to MAX_IMPORT_BYTES (10 MiB).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { stringify as stringifyYaml } from 'yaml';
import { API_DRIFT_KINDS, generateApiSurface } from '../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../core/apis/surface/base.ts';
import { apiToolList } from '../../core/apis/surface/docs.ts';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { apiSurfaceOpenApi } from '../../core/apis/surface/openapi.ts';
import type { ApiCatalog, ApiOperation } from '../../core/apis/types.ts';
import { type ImportOptions, importAndStore } from '../../edge/api-import.ts';
import { apiCatalog, forgetApi } from '../../edge/apis.ts';
import type { Bindings } from '../../edge/env.ts';
import { InvalidInputError } from '../../edge/errors.ts';
import { type ApiRecord, deleteApi, findApi, listApis, readDocument } from '../../edge/stores/apis.ts';
import {
  deleteApiSurface,
  insertApiSurface,
  listApiSurfaces,
  surfaceIdTaken,
} from '../../edge/stores/surfaces.ts';
import type { AppEnv } from '../app-env.ts';
import { ownerOf } from '../http/auth.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import {
  AUTH_PROBLEMS,
  byId,
  component,
  itemsPage,
  keyed,
  problemResponses,
  requestBody,
  routeModule,
} from '../http/openapi.ts';
import { ownedOr404, ProblemError } from '../http/problem.ts';

const ApiId = z.string().min(1).max(100).openapi({ description: 'An API id returned by POST /v1/apis.' });

const Mode = z.enum(['seeded', 'examples', 'proxy']).default('seeded').openapi({
  description:
    "`seeded` (default): a deterministic, stateful world generated from the schemas and examples; `examples`: the document's examples verbatim; `proxy`: forward to `upstream` with the drift applied in front.",
});
const Seed = z.string().min(1).max(200).default('0').openapi({ description: 'Seed of the `seeded` world.' });
const WorldSize = z.coerce.number().int().min(1).max(10_000_000).default(10_000).openapi({
  description:
    'Entities per resource in the `seeded` world (derived on demand: size costs nothing up front).',
});
const Upstream = z.string().url().max(2_000).optional().openapi({
  description: 'Proxy mode: the upstream base URL; its origin must be one API_PROXY_ORIGINS allows.',
});
const Title = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .optional()
  .openapi({ description: "Overrides the document's title." });

const ImportEnvelope = requestBody('ImportApi', {
  document: z.union([z.string().min(1), z.record(z.string(), z.unknown()), z.array(z.unknown())]).openapi({
    description: 'The OpenAPI / Swagger document or function catalog, as JSON or as its text (JSON or YAML).',
  }),
  filename: z
    .string()
    .max(300)
    .optional()
    .openapi({ description: 'The file name, a hint for the format (`.yaml`).' }),
  title: Title,
  mode: Mode,
  seed: Seed,
  worldSize: WorldSize,
  upstream: Upstream,
});

const ImportQuery = z.object({
  title: Title,
  mode: Mode,
  seed: Seed,
  worldSize: WorldSize,
  upstream: Upstream,
});

/** Media types of a raw document body (JSON or YAML text; `+json` types would meet the JSON envelope's validator). */
const RAW_TYPES = [
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/x-yaml',
  'application/vnd.oai.openapi',
];

const Counts = z.object({
  operations: z.number().int(),
  writes: z.number().int(),
  parameters: z.number().int(),
  withResponseSchema: z.number().int(),
  paginated: z.number().int(),
});

const Warning = z.object({ pointer: z.string(), operation: z.string().optional(), message: z.string() });

const ApiSummaryView = component('ApiSummary', {
  id: z.string(),
  title: z.string(),
  version: z.string(),
  format: z.enum(['openapi', 'catalog']),
  source: z.string(),
  mode: z.enum(['seeded', 'examples', 'proxy']),
  seed: z.string(),
  worldSize: z.number().int(),
  upstream: z.string().nullable(),
  counts: Counts,
  warningCount: z.number().int(),
  bytes: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const OperationSummary = z.object({
  name: z.string(),
  method: z.string().optional(),
  path: z.string().optional(),
  summary: z.string().optional(),
  params: z.array(z.object({ name: z.string(), in: z.string(), required: z.boolean() })),
  responses: z.array(z.string()),
  paginated: z.boolean(),
  deprecated: z.boolean(),
});

const ApiDetail = ApiSummaryView.extend({
  description: z.string().nullable(),
  servers: z.array(z.string()),
  operations: z.array(OperationSummary),
  warnings: z
    .array(Warning)
    .openapi({ description: 'The first 200 warnings (e.g. "response schema missing").' }),
  toolList: z
    .string()
    .openapi({ description: 'The ReAct tool list an agent is given for the API as imported.' }),
}).openapi('ApiDetail');

const DriftBody = requestBody('DriftApi', {
  seed: z.string().min(1).max(200),
  kinds: z
    .array(z.enum(API_DRIFT_KINDS as unknown as [string, ...string[]]))
    .min(1)
    .openapi({ description: `Drift kinds to apply: ${(API_DRIFT_KINDS as readonly string[]).join(', ')}.` }),
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/)
    .optional(),
  title: z.string().trim().min(1).max(200).optional(),
  window: z
    .strictObject({
      deprecatedAt: z.iso.datetime({ offset: true }),
      sunsetAt: z.iso.datetime({ offset: true }),
    })
    .optional()
    .openapi({
      description: '`deprecate-operation`: when the old operation is deprecated and when it is sunset.',
    }),
});

const ApiSurfaceSummary = component('ApiSurfaceSummary', {
  id: z.string(),
  api: z.string(),
  title: z.string(),
  description: z.string(),
  derivedFrom: z.string().nullable(),
  drift: z.object({ seed: z.string(), kinds: z.array(z.string()) }).nullable(),
  tools: z.array(z.string()),
  retired: z.array(z.string()),
  links: z.record(z.string(), z.string()),
});

function apiSummary(row: ApiRecord) {
  const { warnings: _w, warningCount, ...counts } = row.summary;
  return {
    id: row.id,
    title: row.title,
    version: row.version,
    format: row.format,
    source: row.source,
    mode: row.mode,
    seed: row.seed,
    worldSize: row.worldSize,
    upstream: row.upstream,
    counts,
    warningCount,
    bytes: row.bytes,
    sha256: row.sha256,
    createdAt: new Date(row.createdAt).toISOString(),
    links: {
      self: `/v1/apis/${row.id}`,
      openapi: `/v1/apis/${row.id}/openapi.json`,
      surfaces: `/v1/apis/${row.id}/surfaces`,
      querysets: `/v1/apis/${row.id}/querysets`,
      surface: `/v1/surfaces/${row.id}`,
    },
  };
}

function operationSummary(op: ApiOperation) {
  return {
    name: op.name,
    ...(op.method ? { method: op.method.toUpperCase() } : {}),
    ...(op.path ? { path: op.path } : {}),
    ...(op.summary ? { summary: op.summary } : {}),
    params: op.params.map((p) => ({ name: p.name, in: p.in, required: p.required })),
    responses: op.responses.map((r) => r.status),
    paginated: op.pagination !== undefined,
    deprecated: op.deprecated === true,
  };
}

export function apiSurfaceSummary(surface: ApiSurface) {
  return {
    id: surface.id,
    api: surface.api,
    title: surface.title,
    description: surface.description,
    derivedFrom: surface.derivedFrom ?? null,
    drift: surface.drift ?? null,
    tools: surface.tools.map((t) => t.name),
    retired: surface.retired.map((r) => r.name ?? `${(r.method ?? '').toUpperCase()} ${r.path ?? ''}`.trim()),
    links: {
      self: `/v1/surfaces/${surface.id}`,
      openapi: `/v1/surfaces/${surface.id}/openapi.json`,
      diff: `/v1/surfaces/${surface.id}/diff?against=${surface.api}`,
    },
  };
}

async function detail(env: Bindings, row: ApiRecord) {
  const catalog = await apiCatalog(env, row.id);
  return {
    ...apiSummary(row),
    description: catalog.description ?? null,
    servers: catalog.servers,
    operations: catalog.operations.map(operationSummary),
    warnings: row.summary.warnings,
    toolList: apiToolList(baseApiSurface(row.id, catalog, row.title)),
  };
}

/** The API's OpenAPI document: the imported one (in its 3.1 form), or for a catalog its base surface's. */
export async function apiDocument(
  env: Bindings,
  row: ApiRecord,
  catalog: ApiCatalog,
): Promise<Record<string, unknown>> {
  return (
    (await readDocument(env, row.id)) ??
    apiSurfaceOpenApi(baseApiSurface(row.id, catalog, row.title), catalog)
  );
}

const findApiOr404 = ownedOr404(findApi, 'API');

/** The request examples' API (a Swagger "Try it out" imports it as it is): one list and one lookup. */
const PETS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: 'string' } },
  },
};
const EXAMPLE_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Pet store', version: '1.0.0' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List the pets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } }],
        responses: { '200': { description: 'The pets', content: { 'application/json': { schema: PETS } } } },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        summary: 'One pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { description: 'The pet', content: { 'application/json': { schema: PETS.items } } },
          '404': { description: 'No such pet' },
        },
      },
    },
  },
};
const EXAMPLE_YAML = stringifyYaml(EXAMPLE_DOCUMENT);

const importRoute = createRoute({
  method: 'post',
  path: '/v1/apis',
  tags: ['APIs'],
  summary: 'Import an API: an OpenAPI 3.0/3.1 or Swagger 2.0 document, or a function catalog',
  description:
    'JSON: `{"document": …, "mode": "seeded", "seed": "0", …}` with the document as JSON or as its text (JSON or YAML). Or the document itself as the body (`application/vnd.oai.openapi` for JSON or YAML text, `application/yaml`, `text/yaml`) with the options in the query. Function catalogs: a list of tools with JSON-Schema `parameters` (OpenAI style), STE\'s `API_descriptions.json`, ToolBench tool files. A bad document is a 400 naming the JSON pointer of its first problem; nothing is stored.',
  ...keyed('user'),
  request: {
    query: ImportQuery,
    body: {
      required: false,
      content: {
        'application/json': { schema: ImportEnvelope, example: { document: EXAMPLE_DOCUMENT, seed: '0' } },
        'application/yaml': { schema: z.string(), example: EXAMPLE_YAML },
        'application/vnd.oai.openapi': { schema: z.string(), example: EXAMPLE_YAML },
      },
    },
  },
  responses: {
    201: { description: 'The imported API', content: { 'application/json': { schema: ApiDetail } } },
    ...problemResponses(400, 413, 415, ...AUTH_PROBLEMS),
  },
});

async function importRequest(c: Context<AppEnv>) {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') {
    const body = c.req.valid('json' as never) as z.infer<typeof ImportEnvelope>;
    const { document, filename, title, mode, seed, worldSize, upstream } = body;
    const options: ImportOptions = {
      mode,
      seed,
      worldSize,
      ...(title ? { title } : {}),
      ...(upstream ? { upstream } : {}),
    };
    const text = typeof document === 'string' ? document : JSON.stringify(document);
    return { text, at: '/document', ...(filename ? { filename } : {}), options };
  }
  if (!RAW_TYPES.includes(type)) {
    throw new ProblemError('unsupported-media-type', {
      detail: `Send the import as application/json ({"document": …}) or the document itself as one of ${RAW_TYPES.join(', ')} (got ${type || 'none'}).`,
    });
  }
  const q = c.req.valid('query' as never) as z.infer<typeof ImportQuery>;
  const options: ImportOptions = {
    mode: q.mode,
    seed: q.seed,
    worldSize: q.worldSize,
    ...(q.title ? { title: q.title } : {}),
    ...(q.upstream ? { upstream: q.upstream } : {}),
  };
  return { text: await c.req.text(), at: '', contentType: type, options };
}

export const registerApiRoutes = routeModule('APIs', 'user', (routes, app) => {
  app.openapi(importRoute, async (c) => {
    const req = await importRequest(c);
    if (req.text.trim() === '') {
      throw new InvalidInputError('The document is empty.', [
        { in: 'body', field: 'document', pointer: req.at, message: 'empty' },
      ]);
    }
    const row = await importAndStore(c.env, req, ownerOf(c));
    return c.json(await detail(c.env, row), 201);
  });

  routes.get(
    '/v1/apis',
    'Imported APIs, newest first; by cursor',
    itemsPage(z.object({ ...pageParams(120) }), 'A page of APIs', ApiSummaryView),
    async (c, { query, owner }) => pageAnswer(c, await listApis(c.env, { ...query, owner }), apiSummary),
  );

  const api = routes.on(z.object({ id: ApiId }), byId(findApiOr404));

  api.get(
    '/v1/apis/{id}',
    'An imported API: its operations, counts, warnings and the tool list an agent sees',
    { ok: [200, 'The API', ApiDetail] },
    async (c, { resource }) => detail(c.env, resource),
  );

  api.get(
    '/v1/apis/{id}/openapi.json',
    "The API as an OpenAPI 3.1 document (the imported document, upgraded; a catalog's generated one)",
    { ok: [200, 'OpenAPI document', z.record(z.string(), z.unknown())] },
    async (c, { resource }) => apiDocument(c.env, resource, await apiCatalog(c.env, resource.id)),
  );

  routes.get(
    '/v1/apis/{id}/operations/{name}',
    'One operation in full: parameters, body and responses with their JSON Schemas',
    {
      params: z.object({ id: ApiId, name: z.string().min(1).max(200) }),
      ok: [200, 'The operation', z.record(z.string(), z.unknown())],
      problems: [404],
    },
    async (c, { params: { id, name }, owner }) => {
      await findApiOr404(c.env, id, owner);
      const op = (await apiCatalog(c.env, id)).operations.find((o) => o.name === name);
      if (!op) throw new ProblemError('not-found', { detail: `API ${id} has no operation ${name}.` });
      return op as unknown as Record<string, unknown>;
    },
  );

  api.delete(
    '/v1/apis/{id}',
    'Delete an imported API with its query sets and drifted surfaces',
    { ok: [204, 'Deleted'] },
    async (c, { resource, owner }) => {
      await deleteApi(c.env, resource.id, owner);
      forgetApi(resource.id);
    },
  );

  api.post(
    '/v1/apis/{id}/surfaces',
    'Drift the API: a new surface generated from the API as imported by seeded drift kinds',
    {
      description:
        'The same seed and kinds always give the same surface. GET /v1/surfaces/{id}/openapi.json documents the drifted API, …/diff?against={api} lists the changes; play it with POST /v1/sessions {"api": …, "surface": …}.',
      body: DriftBody,
      example: { seed: '7', kinds: ['rename-path', 'rename-params'] },
      ok: [201, 'The drifted surface', ApiSurfaceSummary],
      problems: [409],
    },
    async (c, { resource, body, owner }) => {
      const catalog = await apiCatalog(c.env, resource.id);
      const base = baseApiSurface(resource.id, catalog, resource.title);
      const surface = generateApiSurface(base, catalog, {
        seed: body.seed,
        kinds: body.kinds,
        ...(body.id ? { id: body.id } : {}),
        ...(body.title ? { title: body.title } : {}),
        ...(body.window ? { window: body.window } : {}),
      });
      if (await surfaceIdTaken(c.env, surface.id)) {
        throw new ProblemError('conflict', { detail: `A surface with id ${surface.id} exists already.` });
      }
      await insertApiSurface(c.env, surface, owner);
      return apiSurfaceSummary(surface);
    },
  );

  api.get(
    '/v1/apis/{id}/surfaces',
    'The drifted surfaces of the API, newest first; by cursor',
    {
      query: z.object({ ...pageParams(120) }),
      ok: [
        200,
        'A page of surfaces',
        z.object({ items: z.array(ApiSurfaceSummary), nextCursor: z.string().nullable() }),
      ],
    },
    async (c, { resource, query, owner }) =>
      pageAnswer(c, await listApiSurfaces(c.env, resource.id, { ...query, owner }), (r) =>
        apiSurfaceSummary(r.surface),
      ),
  );

  routes.delete(
    '/v1/apis/{id}/surfaces/{surface}',
    'Delete a drifted surface of the API',
    {
      params: z.object({ id: ApiId, surface: z.string().min(1).max(100) }),
      ok: [204, 'Deleted'],
      problems: [404],
    },
    async (c, { params: { id, surface }, owner }) => {
      await findApiOr404(c.env, id, owner);
      if (!(await deleteApiSurface(c.env, id, surface, owner))) {
        throw new ProblemError('not-found', { detail: `API ${id} has no surface ${surface}.` });
      }
    },
  );
});
