/**
 * OpenAPI 3.1 (dereferenced) → the catalog's operations (`ApiOperation`, conventions in `core/apis/types.ts`).
 *
 * Per operation, in document order (paths, then the methods of each path item):
 * - name: the operationId made a usable, unique tool name (`names.ts`), else one built from method and path;
 * - params: path-item parameters overridden by the operation's own (same name and location), header parameters
 *   `Accept`, `Content-Type` and `Authorization` ignored as the specification says; a `{name}` of the path
 *   template that no parameter declares is added as a required string (warned);
 * - body: the JSON request body (else the first media type); an object body is flattened into the arguments
 *   unless a property name collides with a parameter, then it travels whole under `body`;
 * - responses: every declared response with its (JSON) schema and first example; pagination detected;
 * - warnings: response schema missing, no 2xx response, recursive schema cut, renamed operations, ignored fields.
 *   (Examples are not checked against their schemas here: on TMDB that alone would double the import time.)
 *
 * An operation the catalog cannot serve is a problem (the import fails, naming its pointer): a malformed path
 * template, two routes that differ only in parameter names, the same argument name for two parameters.
 */

import { isJsonObject, type JsonObject, jsonPointer } from '../json.ts';
import {
  type ApiBody,
  type ApiOperation,
  type ApiParam,
  type ApiResponse,
  HTTP_METHODS,
  type HttpMethod,
  type ImportWarning,
  type JsonSchema,
  type ParamLocation,
} from '../types.ts';
import { NameRegistry, nameFromRoute, sanitizeToolName, TOOL_NAME_PATTERN } from './names.ts';
import { detectPagination } from './pagination.ts';
import type { ImportProblem } from './result.ts';
import { catalogSchema, copyData, objectSchemaParts, type SchemaCopier } from './schema.ts';

/** Fields an Operation Object may have (OpenAPI 3.1 §4.8.10); others (not `x-`) are reported and ignored. */
const OPERATION_FIELDS = new Set([
  'tags',
  'summary',
  'description',
  'externalDocs',
  'operationId',
  'parameters',
  'requestBody',
  'responses',
  'callbacks',
  'deprecated',
  'security',
  'servers',
]);
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const NO_BODY_STATUSES = new Set(['204', '205', '304']);

export interface OperationsInput {
  /** The dereferenced OpenAPI 3.1 document. */
  doc: JsonObject;
  refOf: WeakMap<object, string>;
  /** Maps a `$ref` of the 3.1 document to the pointer of its target in the input document. */
  refPointer(ref: string): string;
}

export type OperationsResult =
  | { ok: true; operations: ApiOperation[]; warnings: ImportWarning[] }
  | { ok: false; problem: ImportProblem };

class Unusable extends Error {
  constructor(readonly problem: ImportProblem) {
    super(problem.reason);
  }
}

export function buildOperations(input: OperationsInput): OperationsResult {
  const warnings: ImportWarning[] = [];
  const names = new NameRegistry();
  const operations: ApiOperation[] = [];
  const routes = new Map<string, string>(); // route shape (`/a/{}`) → the path template that claimed it
  const paths = (input.doc.paths ?? {}) as JsonObject;
  try {
    // Operation ids first, so an id keeps its name even when a route-built name of an earlier operation would
    // take it.
    const pending: { path: string; method: HttpMethod; op: JsonObject; item: JsonObject; pointer: string }[] =
      [];
    for (const [path, rawItem] of Object.entries(paths)) {
      if (path.startsWith('x-') || !isJsonObject(rawItem)) continue;
      const pathPointer = jsonPointer('paths', path);
      checkTemplate(path, pathPointer);
      const shape = path.replace(/\{[^}]*\}/g, '{}');
      const claimed = routes.get(shape);
      if (claimed !== undefined) {
        throw new Unusable({
          pointer: pathPointer,
          reason: `the path ${path} is the same route as ${claimed} (only parameter names differ), so a request could not tell them apart`,
        });
      }
      routes.set(shape, path);
      for (const [key, op] of Object.entries(rawItem)) {
        if (!(HTTP_METHODS as readonly string[]).includes(key) || !isJsonObject(op)) continue;
        pending.push({
          path,
          method: key as HttpMethod,
          op,
          item: rawItem,
          pointer: jsonPointer('paths', path, key),
        });
      }
    }
    const byId = new Map<JsonObject, string>();
    for (const p of pending) {
      const id = p.op.operationId;
      if (typeof id !== 'string' || id === '') continue;
      const wanted = TOOL_NAME_PATTERN.test(id) ? id : sanitizeToolName(id);
      const name = names.claim(wanted);
      if (name !== id) {
        warnings.push({
          pointer: `${p.pointer}/operationId`,
          operation: name,
          message: TOOL_NAME_PATTERN.test(id)
            ? `operationId "${id}" is used by another operation: this one is named "${name}"`
            : `operationId "${id}" is not a usable tool name (letters, digits, "_", "." and "-", at most 64): named "${name}"`,
        });
      }
      byId.set(p.op, name);
    }
    for (const p of pending) {
      const name = byId.get(p.op) ?? names.claim(nameFromRoute(p.method, p.path));
      operations.push(buildOperation({ ...p, name, input, warnings }));
    }
  } catch (err) {
    if (err instanceof Unusable) return { ok: false, problem: err.problem };
    throw err;
  }
  return { ok: true, operations, warnings };
}

/** A malformed path template (no leading "/", `{}`, a name twice, unbalanced braces) is unusable. */
function checkTemplate(path: string, pointer: string): void {
  if (!path.startsWith('/'))
    throw new Unusable({ pointer, reason: `the path "${path}" does not start with "/"` });
  const names: string[] = [];
  const stripped = path.replace(/\{([^{}]*)\}/g, (_m, name: string) => {
    if (name === '') throw new Unusable({ pointer, reason: `the path ${path} has an empty parameter "{}"` });
    if (names.includes(name))
      throw new Unusable({ pointer, reason: `the path ${path} names the parameter {${name}} twice` });
    names.push(name);
    return 'x';
  });
  if (/[{}]/.test(stripped))
    throw new Unusable({ pointer, reason: `the path ${path} has an unbalanced "{" or "}"` });
}

interface OperationSource {
  path: string;
  method: HttpMethod;
  op: JsonObject;
  item: JsonObject;
  pointer: string;
  name: string;
  input: OperationsInput;
  warnings: ImportWarning[];
}

function buildOperation(src: OperationSource): ApiOperation {
  const { op, pointer, name, warnings } = src;
  const warn = (at: string, message: string) => warnings.push({ pointer: at, operation: name, message });
  const cut = new Set<string>();
  const copier: SchemaCopier = {
    refOf: src.input.refOf,
    onCut: (ref) => {
      if (cut.has(ref)) return;
      cut.add(ref);
      warn(
        src.input.refPointer(ref),
        `recursive schema cut: ${ref} contains itself; where it recurs, the schema accepts any value`,
      );
    },
  };
  for (const key of Object.keys(op)) {
    if (!OPERATION_FIELDS.has(key) && !key.startsWith('x-')) {
      warn(`${pointer}/${key}`, `unknown field "${key}" on the operation: ignored`);
    }
  }

  const params = collectParams(src, copier, warn);
  const body = collectBody(src, params, copier, warn);
  const responses = collectResponses(src, copier, warn);
  const allParams = body?.flattened ? [...params, ...bodyParams(body)] : params;
  const argumentsSchema = argumentsSchemaOf(allParams, body);
  const pagination = detectPagination(allParams, responses);
  const summary = str(op.summary);
  const description = [summary, str(op.description)].filter((s) => s !== undefined && s !== '').join('\n\n');
  const operation: ApiOperation = {
    name,
    ...(typeof op.operationId === 'string' && op.operationId !== '' ? { operationId: op.operationId } : {}),
    method: src.method,
    path: src.path,
    ...(summary ? { summary } : {}),
    description,
    ...(Array.isArray(op.tags) && op.tags.length > 0
      ? { tags: op.tags.filter((t): t is string => typeof t === 'string') }
      : {}),
    ...(op.deprecated === true ? { deprecated: true } : {}),
    params: allParams,
    ...(body ? { body } : {}),
    argumentsSchema,
    responses,
    ...(pagination ? { pagination } : {}),
  };
  return operation;
}

function collectParams(
  src: OperationSource,
  copier: SchemaCopier,
  warn: (at: string, message: string) => void,
): ApiParam[] {
  const { path, op, item, pointer } = src;
  const pathItemPointer = jsonPointer('paths', path);
  const merged = new Map<string, { param: JsonObject; at: string }>();
  const add = (list: unknown, base: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((param, i) => {
      if (!isJsonObject(param) || typeof param.name !== 'string' || typeof param.in !== 'string') return;
      merged.set(`${param.in}\u0000${param.name}`, { param, at: `${base}/parameters/${i}` });
    });
  };
  add(item.parameters, pathItemPointer);
  add(op.parameters, pointer);

  const templateNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const params: ApiParam[] = [];
  const byName = new Map<string, string>(); // argument name → pointer of the parameter that took it
  for (const { param, at } of merged.values()) {
    const location = param.in as ParamLocation;
    const paramName = param.name as string;
    if (location === 'header' && IGNORED_HEADERS.has(paramName.toLowerCase())) {
      warn(
        at,
        `header parameter "${paramName}" is ignored (OpenAPI: Accept, Content-Type and Authorization are described elsewhere)`,
      );
      continue;
    }
    if (location === 'path' && !templateNames.includes(paramName)) {
      warn(at, `path parameter "${paramName}" does not appear in ${path}: ignored`);
      continue;
    }
    const taken = byName.get(paramName);
    if (taken !== undefined) {
      throw new Unusable({
        pointer: at,
        reason: `two parameters are named "${paramName}" (see ${taken}): an operation's arguments are one object, so each parameter needs its own name`,
      });
    }
    byName.set(paramName, at);
    params.push(paramOf(param, location, copier));
  }
  for (const missing of templateNames.filter((n) => !params.some((p) => p.in === 'path' && p.name === n))) {
    if (byName.has(missing)) {
      throw new Unusable({
        pointer: byName.get(missing)!,
        reason: `"${missing}" is both a path parameter of ${path} and a parameter in another location`,
      });
    }
    warn(pointer, `path parameter "${missing}" of ${path} is not declared: taken as a required string`);
    params.push({ name: missing, in: 'path', required: true, schema: { type: 'string' } });
    byName.set(missing, pointer);
  }
  // Path parameters first in template order, then the others in document order.
  const pathParams = templateNames.map((n) => params.find((p) => p.in === 'path' && p.name === n)!);
  return [...pathParams, ...params.filter((p) => p.in !== 'path')];
}

function paramOf(param: JsonObject, location: ParamLocation, copier: SchemaCopier): ApiParam {
  let schema: JsonSchema = {};
  if (param.schema !== undefined) schema = catalogSchema(param.schema, copier);
  else if (isJsonObject(param.content)) {
    const media = Object.values(param.content)[0];
    if (isJsonObject(media) && media.schema !== undefined) schema = catalogSchema(media.schema, copier);
  }
  const example = exampleOf(param, schema);
  const description = str(param.description);
  return {
    name: param.name as string,
    in: location,
    required: location === 'path' ? true : param.required === true,
    schema,
    ...(description ? { description } : {}),
    ...(example !== undefined ? { example } : {}),
  };
}

function collectBody(
  src: OperationSource,
  params: readonly ApiParam[],
  copier: SchemaCopier,
  warn: (at: string, message: string) => void,
): ApiBody | undefined {
  const requestBody = src.op.requestBody;
  if (!isJsonObject(requestBody) || !isJsonObject(requestBody.content)) return undefined;
  const mediaType = pickMediaType(Object.keys(requestBody.content), true);
  if (mediaType === undefined) return undefined;
  const media = requestBody.content[mediaType];
  const schema = isJsonObject(media) && media.schema !== undefined ? catalogSchema(media.schema, copier) : {};
  const required = requestBody.required === true;
  const parts = objectSchemaParts(schema);
  let flattened = parts !== null;
  if (parts) {
    const clash = Object.keys(parts.properties).find((p) => params.some((q) => q.name === p));
    if (clash !== undefined) {
      flattened = false;
      warn(
        `${src.pointer}/requestBody`,
        `body property "${clash}" has the name of a parameter: the body is passed whole as the argument "body"`,
      );
    }
  }
  if (!flattened && params.some((p) => p.name === 'body')) {
    throw new Unusable({
      pointer: `${src.pointer}/requestBody`,
      reason: 'the request body cannot be passed as the argument "body": a parameter already has that name',
    });
  }
  return { required, mediaType, schema, flattened };
}

function bodyParams(body: ApiBody): ApiParam[] {
  const parts = objectSchemaParts(body.schema)!;
  return Object.entries(parts.properties).map(([name, schema]) => {
    const description = typeof schema === 'object' ? str(schema.description) : undefined;
    const example = exampleOf({}, schema);
    return {
      name,
      in: 'body' as const,
      required: body.required && parts.required.includes(name),
      schema,
      ...(description ? { description } : {}),
      ...(example !== undefined ? { example } : {}),
    };
  });
}

function collectResponses(
  src: OperationSource,
  copier: SchemaCopier,
  warn: (at: string, message: string) => void,
): ApiResponse[] {
  const raw = src.op.responses;
  const responses: ApiResponse[] = [];
  if (isJsonObject(raw)) {
    for (const [status, response] of Object.entries(raw)) {
      if (status.startsWith('x-') || !isJsonObject(response)) continue;
      const out: ApiResponse = { status, description: str(response.description) ?? '' };
      const content = isJsonObject(response.content) ? response.content : undefined;
      const mediaType = content ? pickMediaType(Object.keys(content), false) : undefined;
      if (content && mediaType !== undefined) {
        out.mediaType = mediaType;
        const media = content[mediaType];
        if (isJsonObject(media)) {
          if (media.schema !== undefined) out.schema = catalogSchema(media.schema, copier);
          const example = exampleOf(media, out.schema);
          if (example !== undefined) out.example = example;
        }
      }
      responses.push(out);
    }
  }
  const at = `${src.pointer}/responses`;
  const success = responses.filter((r) => /^2(\d\d|XX)$/i.test(r.status));
  if (success.length === 0) {
    warn(at, 'no 2xx response is declared: a successful call has no documented answer');
  }
  for (const r of success) {
    if (r.schema === undefined && !NO_BODY_STATUSES.has(r.status)) {
      warn(
        jsonPointer('paths', src.path, src.method, 'responses', r.status),
        `response schema missing for ${r.status}`,
      );
    }
  }
  return responses;
}

function argumentsSchemaOf(params: readonly ApiParam[], body: ApiBody | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of params) {
    properties[p.name] = withDescription(p.schema, p.description);
    if (p.required) required.push(p.name);
  }
  if (body && !body.flattened) {
    properties.body = body.schema;
    if (body.required) required.push('body');
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function withDescription(schema: JsonSchema, description: string | undefined): JsonSchema {
  if (!description || typeof schema !== 'object' || typeof schema.description === 'string') return schema;
  return { ...schema, description };
}

/** JSON first (`application/json`, then any `+json` / `json`), else — for requests — a form, else the first. */
function pickMediaType(types: readonly string[], request: boolean): string | undefined {
  return (
    types.find((t) => /^application\/json\b/i.test(t)) ??
    types.find((t) => /[+/]json\b/i.test(t)) ??
    (request ? types.find((t) => /x-www-form-urlencoded|multipart\/form-data/i.test(t)) : undefined) ??
    types[0]
  );
}

/** The first example a parameter or media type gives: `example`, else the first of `examples`, else the schema's. */
function exampleOf(holder: JsonObject, schema: JsonSchema | undefined): unknown {
  if (holder.example !== undefined) return copyData(holder.example);
  if (isJsonObject(holder.examples)) {
    for (const ex of Object.values(holder.examples)) {
      if (isJsonObject(ex) && ex.value !== undefined) return copyData(ex.value);
    }
  }
  if (schema && typeof schema === 'object') {
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return copyData(schema.examples[0]);
    if (schema.example !== undefined) return copyData(schema.example);
  }
  return undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
