/**
 * TEST HELPER — a stand-in for engineer X's `importApi` (core/apis/import/) until it lands: it turns the
 * OpenAPI 3.0 documents the surface and drift tests use (RestBench's TMDB document, ToolAlpaca's ten documents)
 * into `ApiCatalog` values in the simplest way that follows the conventions of core/apis/types.ts (local `$ref`s
 * inlined with recursion cut, `nullable` → type union, `example` → `examples`, path-level and operation-level
 * parameters merged, a JSON object body flattened unless a property collides with a parameter, pagination by
 * `page` or `offset`+`limit` beside an items array). It validates nothing. At integration the tests call
 * `importApi` instead and this file goes.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  ApiCatalog,
  ApiOperation,
  ApiParam,
  ApiResponse,
  HttpMethod,
  JsonSchema,
  Pagination,
} from '../../../../core/apis/types.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

export function readData(relative: string): string {
  return readFileSync(join(ROOT, 'data/apis', relative), 'utf8');
}

type Doc = Record<string, unknown>;

function pointer(doc: Doc, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown>)?.[key];
  }
  return node;
}

/** Inlines local `$ref`s (a ref met again inside itself becomes `{}`) and rewrites OpenAPI 3.0 schema keywords. */
function deref(doc: Doc, node: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n, seen));
  if (typeof node !== 'object' || node === null) return node;
  const obj = node as Record<string, unknown>;
  if (typeof obj.$ref === 'string') {
    if (seen.includes(obj.$ref)) return {};
    return deref(doc, pointer(doc, obj.$ref), [...seen, obj.$ref]);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'nullable' || k === 'example') continue;
    out[k] = k === 'properties' || k === 'examples' ? derefMap(doc, v, seen) : deref(doc, v, seen);
  }
  if (obj.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (obj.example !== undefined && out.examples === undefined) out.examples = [obj.example];
  return out;
}

function derefMap(doc: Doc, v: unknown, seen: readonly string[]): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return deref(doc, v, seen);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deref(doc, x, seen)]));
}

function jsonContent(content: unknown): { mediaType: string; media: Record<string, unknown> } | null {
  if (typeof content !== 'object' || content === null) return null;
  const entries = Object.entries(content as Record<string, Record<string, unknown>>);
  const json = entries.find(([t]) => t.includes('json')) ?? entries[0];
  return json ? { mediaType: json[0], media: json[1] } : null;
}

function firstExample(media: Record<string, unknown>): unknown {
  if (media.example !== undefined) return media.example;
  const examples = media.examples as Record<string, { value?: unknown }> | undefined;
  if (examples) for (const e of Object.values(examples)) if (e?.value !== undefined) return e.value;
  return undefined;
}

function itemsKeyOf(schema: JsonSchema | undefined): string | null {
  if (typeof schema !== 'object' || schema === null) return null;
  if (schema.type === 'array') return '';
  const props = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [k, v] of Object.entries(props ?? {})) if (k !== '' && v?.type === 'array') return k;
  return null;
}

function pagination(params: ApiParam[], responses: ApiResponse[]): Pagination | undefined {
  const ok = responses.find((r) => r.status.startsWith('2'));
  const itemsKey = itemsKeyOf(ok?.schema);
  if (itemsKey === null) return undefined;
  const props = ((ok?.schema as Record<string, unknown>)?.properties ?? {}) as Record<string, unknown>;
  const has = (n: string) => params.some((p) => p.name === n && p.in === 'query');
  if (has('page')) {
    const p: Pagination = { style: 'page', pageParam: 'page', pageSize: 20, itemsKey };
    for (const s of ['per_page', 'perPage', 'page_size', 'pageSize']) if (has(s)) p.sizeParam = s;
    if ('page' in props) p.pageKey = 'page';
    if ('total_pages' in props) p.totalPagesKey = 'total_pages';
    if ('total_results' in props) p.totalItemsKey = 'total_results';
    return p;
  }
  if (has('offset')) {
    const limit = params.find((p) => p.name === 'limit');
    const size = (limit?.schema as Record<string, unknown> | undefined)?.default;
    const p: Pagination = {
      style: 'offset',
      offsetParam: 'offset',
      pageSize: typeof size === 'number' ? size : 20,
      itemsKey,
    };
    if (limit) p.limitParam = 'limit';
    if ('total' in props) p.totalKey = 'total';
    return p;
  }
  return undefined;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function operationName(method: string, path: string, operationId: unknown, taken: Set<string>): string {
  let base =
    typeof operationId === 'string' && NAME.test(operationId)
      ? operationId
      : `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`.slice(0, 64);
  if (base.endsWith('_')) base = base.slice(0, -1);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
  taken.add(name);
  return name;
}

/** An OpenAPI 3.0 / 3.1 document (JSON text) as a catalog (see the module header). */
export function catalogFromOpenApi(text: string): ApiCatalog {
  const doc = JSON.parse(text) as Doc;
  const info = (doc.info ?? {}) as Record<string, string>;
  const taken = new Set<string>();
  const operations: ApiOperation[] = [];
  for (const [path, itemRaw] of Object.entries((doc.paths ?? {}) as Record<string, Doc>)) {
    const item = deref(doc, itemRaw) as Doc;
    const shared = (item.parameters ?? []) as Record<string, unknown>[];
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as HttpMethod[]) {
      const op = item[method] as Doc | undefined;
      if (!op) continue;
      const own = (op.parameters ?? []) as Record<string, unknown>[];
      const merged = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const params: ApiParam[] = merged.map((p) => {
        const out: ApiParam = {
          name: p.name as string,
          in: p.in as ApiParam['in'],
          required: p.in === 'path' || p.required === true,
          schema: (p.schema ?? {}) as JsonSchema,
        };
        if (typeof p.description === 'string') out.description = p.description;
        return out;
      });
      const operation: ApiOperation = {
        name: operationName(method, path, op.operationId, taken),
        method,
        path,
        description: [op.summary, op.description].filter((x) => typeof x === 'string' && x).join('\n\n'),
        params,
        argumentsSchema: {},
        responses: [],
      };
      if (typeof op.operationId === 'string') operation.operationId = op.operationId;
      if (typeof op.summary === 'string') operation.summary = op.summary;
      if (op.deprecated === true) operation.deprecated = true;
      const body = op.requestBody as Doc | undefined;
      const content = jsonContent(body?.content);
      if (body && content) {
        const schema = (content.media.schema ?? {}) as Record<string, unknown>;
        const props = schema.properties as Record<string, JsonSchema> | undefined;
        const flattened =
          schema.type === 'object' &&
          props !== undefined &&
          !Object.keys(props).some((k) => params.some((p) => p.name === k));
        operation.body = {
          required: body.required === true,
          mediaType: content.mediaType,
          schema,
          flattened,
        };
        if (flattened) {
          const required = (schema.required ?? []) as string[];
          for (const [k, s] of Object.entries(props)) {
            const param: ApiParam = { name: k, in: 'body', required: required.includes(k), schema: s };
            const d = (s as Record<string, unknown>).description;
            if (typeof d === 'string') param.description = d;
            params.push(param);
          }
        }
      }
      for (const [status, r] of Object.entries((op.responses ?? {}) as Record<string, Doc>)) {
        const response: ApiResponse = { status, description: (r.description as string) ?? '' };
        const c = jsonContent(r.content);
        if (c) {
          response.mediaType = c.mediaType;
          if (c.media.schema !== undefined) response.schema = c.media.schema as JsonSchema;
          const example = firstExample(c.media);
          if (example !== undefined) response.example = example;
        }
        operation.responses.push(response);
      }
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const p of params) {
        properties[p.name] = p.schema;
        if (p.required) required.push(p.name);
      }
      if (operation.body && !operation.body.flattened) {
        properties.body = operation.body.schema;
        if (operation.body.required) required.push('body');
      }
      operation.argumentsSchema = { type: 'object', properties, required, additionalProperties: false };
      const page = pagination(params, operation.responses);
      if (page) operation.pagination = page;
      operations.push(operation);
    }
  }
  return {
    format: 'openapi',
    source: String(doc.openapi).startsWith('3.1') ? 'openapi-3.1' : 'openapi-3.0',
    title: info.title ?? 'API',
    version: info.version ?? '1',
    servers: ((doc.servers ?? []) as { url: string }[]).map((s) => s.url),
    operations,
    warnings: [],
  };
}

/** RestBench's TMDB document. */
export function tmdbCatalog(): ApiCatalog {
  return catalogFromOpenApi(readData('restbench-tmdb/restgpt/specs/tmdb_oas.json'));
}

/** ToolAlpaca's ten simulated APIs (name and catalog), from its evaluation file. */
export function toolAlpacaCatalogs(): { name: string; catalog: ApiCatalog }[] {
  const entries = JSON.parse(readData('toolalpaca/eval_simulated.json')) as {
    Name: string;
    Documentation: string;
  }[];
  return entries.map((e) => ({ name: e.Name, catalog: catalogFromOpenApi(e.Documentation) }));
}

/** RestBench's TMDB queries with their gold paths (`GET /movie/{movie_id}/credits`). */
export function tmdbGoldPaths(): string[][] {
  const items = JSON.parse(readData('restbench-tmdb/restgpt/datasets/tmdb.json')) as { solution: string[] }[];
  return items.map((i) => i.solution.map((s) => s.trim()));
}
