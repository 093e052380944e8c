/**
 * Function catalogs → the catalog's operations: tools with JSON-Schema (or RapidAPI-style) parameters and no HTTP
 * shape. A catalog tool's arguments are its JSON object body (`body.flattened`, every parameter `in: 'body'`);
 * the mock answers it like any operation (a generated object when the catalog gives no response schema).
 *
 * Shapes read (detected in this order):
 * - OpenAI-style function lists: `[{type: 'function', function: {name, description, parameters}}]`, bare
 *   `[{name, description, parameters}]`, `{tools: […]}` / `{functions: […]}`; MCP's `inputSchema` is read too;
 * - ToolBench tool files: `{tool_name, tool_description, api_list: [{name | api_name, description |
 *   api_description, required_parameters, optional_parameters, method, template_response}]}`, a list of those,
 *   or a ToolBench query (`{query, api_list}`, whose APIs carry their `tool_name`); DRAFT's tool files with
 *   `tool_guidelines` (`Initial.json`: a map of tools, or one tool). Names follow ToolBench (`<api>_for_<tool>`,
 *   `names.ts`); the operation's `operationId` is the API's name and its tag the tool's;
 * - STE's `API_descriptions.json`: a map of API name → description text, either RapidAPI JSON text
 *   (`required_parameters`, `optional_parameters`, `parent_tool_name`) or BMTools text with an argument schema
 *   `{{"name" : type, }}`; `operationId` is the API's name as STE writes it (`Tool%%API`), the tool name that
 *   name made usable (`Tool.API`);
 * - RapidAPI-style entries without tools (DRAFT's `TMDB_Initial.json`): a map or list of `{tool_name | name,
 *   description, required_parameters, optional_parameters}`.
 */

import { isJsonObject, type JsonObject, jsonPointer } from '../json.ts';
import type { ApiCatalog, ApiOperation, ApiParam, ApiSource, ImportWarning, JsonSchema } from '../types.ts';
import { NameRegistry, sanitizeToolName, TOOL_NAME_PATTERN, toolBenchName } from './names.ts';
import type { ImportProblem } from './result.ts';

export type CatalogResult = { ok: true; catalog: ApiCatalog } | { ok: false; problem: ImportProblem };

/** One tool as read from a catalog, before naming. */
interface RawTool {
  pointer: string;
  /** The name the tool gets before uniqueness (already usable, or sanitised with a warning). */
  wanted: string;
  /** The identifier the source gives it, when it is not the tool name itself. */
  sourceName?: string;
  tag?: string;
  description: string;
  params: ApiParam[];
  /** The JSON Schema of the arguments when the source gives one (OpenAI-style); else built from `params`. */
  schema?: JsonObject;
  responseSchema?: JsonSchema;
}

class CatalogProblem extends Error {
  constructor(readonly problem: ImportProblem) {
    super(problem.reason);
  }
}

/** The catalog of a parsed function catalog, or the problem that stops it (an unknown shape included). */
export function importFunctionCatalog(value: unknown, title: string | undefined): CatalogResult {
  try {
    const read = readCatalog(value);
    if (!read) {
      return {
        ok: false,
        problem: {
          pointer: '',
          reason:
            'not an OpenAPI document ("openapi" or "swagger" field) nor a function catalog (an OpenAI-style function list, STE API descriptions or a ToolBench tool file)',
        },
      };
    }
    return { ok: true, catalog: assemble(read.tools, read.source, title ?? read.title, read.warnings) };
  } catch (err) {
    if (err instanceof CatalogProblem) return { ok: false, problem: err.problem };
    throw err;
  }
}

interface ReadCatalog {
  source: ApiSource;
  title: string;
  tools: RawTool[];
  warnings: ImportWarning[];
}

function readCatalog(value: unknown): ReadCatalog | null {
  const warnings: ImportWarning[] = [];
  if (Array.isArray(value)) {
    if (value.length === 0) throw new CatalogProblem({ pointer: '', reason: 'the catalog lists no tools' });
    const first = value[0];
    if (
      isJsonObject(first) &&
      (first.type === 'function' ||
        isJsonObject(first.function) ||
        'parameters' in first ||
        'inputSchema' in first)
    ) {
      return {
        source: 'functions',
        title: 'Function catalog',
        tools: value.map((t, i) => openAiTool(t, `/${i}`)),
        warnings,
      };
    }
    if (isJsonObject(first) && Array.isArray(first.api_list)) {
      const tools = value.flatMap((t, i) => toolBenchApiList(t, `/${i}`, warnings));
      return { source: 'toolbench', title: 'ToolBench tools', tools: dedupeSameApi(tools), warnings };
    }
    if (isJsonObject(first) && isJsonObject(first.tool_guidelines)) {
      return {
        source: 'toolbench',
        title: 'ToolBench tools',
        tools: value.flatMap((t, i) => guidelinesTool(t, `/${i}`, warnings)),
        warnings,
      };
    }
    if (isJsonObject(first) && isRapidEntry(first)) {
      return {
        source: 'toolbench',
        title: 'RapidAPI tools',
        tools: value.map((t, i) => rapidEntry(t, `/${i}`, warnings)),
        warnings,
      };
    }
    return null;
  }
  if (!isJsonObject(value)) return null;
  for (const key of ['tools', 'functions']) {
    const list = value[key];
    if (Array.isArray(list) && list.length > 0) {
      return {
        source: 'functions',
        title: typeof value.title === 'string' ? value.title : 'Function catalog',
        tools: list.map((t, i) => openAiTool(t, jsonPointer(key, i))),
        warnings,
      };
    }
  }
  if (Array.isArray(value.api_list)) {
    return {
      source: 'toolbench',
      title: typeof value.tool_name === 'string' ? value.tool_name : 'ToolBench tool',
      tools: dedupeSameApi(toolBenchApiList(value, '', warnings)),
      warnings,
    };
  }
  if (isJsonObject(value.tool_guidelines)) {
    return {
      source: 'toolbench',
      title: typeof value.tool_name === 'string' ? value.tool_name : 'ToolBench tool',
      tools: guidelinesTool(value, '', warnings),
      warnings,
    };
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return null;
  if (entries.every(([, v]) => typeof v === 'string')) {
    return {
      source: 'ste',
      title: 'STE API descriptions',
      tools: entries.map(([name, text]) => steTool(name, text as string, jsonPointer(name), warnings)),
      warnings,
    };
  }
  if (entries.every(([, v]) => isJsonObject(v) && isJsonObject(v.tool_guidelines))) {
    return {
      source: 'toolbench',
      title: 'ToolBench tools',
      tools: entries.flatMap(([k, t]) => guidelinesTool(t, jsonPointer(k), warnings)),
      warnings,
    };
  }
  if (entries.every(([, v]) => isJsonObject(v) && isRapidEntry(v))) {
    return {
      source: 'toolbench',
      title: 'RapidAPI tools',
      tools: entries.map(([k, t]) => rapidEntry(t, jsonPointer(k), warnings)),
      warnings,
    };
  }
  return null;
}

// ---- OpenAI-style functions -------------------------------------------------------------------------------

function openAiTool(entry: unknown, pointer: string): RawTool {
  if (!isJsonObject(entry)) throw new CatalogProblem({ pointer, reason: 'a tool is a JSON object' });
  const fn = isJsonObject(entry.function) ? entry.function : entry;
  const at = fn === entry ? pointer : `${pointer}/function`;
  if (typeof fn.name !== 'string' || fn.name === '') {
    throw new CatalogProblem({ pointer: `${at}/name`, reason: 'a tool needs a name' });
  }
  const rawSchema = fn.parameters ?? fn.inputSchema ?? { type: 'object', properties: {} };
  const schemaAt = `${at}/${fn.parameters !== undefined ? 'parameters' : 'inputSchema'}`;
  if (!isJsonObject(rawSchema) || (rawSchema.type !== undefined && rawSchema.type !== 'object')) {
    throw new CatalogProblem({
      pointer: schemaAt,
      reason: 'the parameters must be a JSON Schema of an object ("type": "object")',
    });
  }
  const properties = isJsonObject(rawSchema.properties) ? rawSchema.properties : {};
  const required = Array.isArray(rawSchema.required)
    ? rawSchema.required.filter((r): r is string => typeof r === 'string')
    : [];
  const params: ApiParam[] = Object.entries(properties).map(([name, schema]) => {
    const s = (isJsonObject(schema) || typeof schema === 'boolean' ? schema : {}) as JsonSchema;
    const description =
      typeof s === 'object' && typeof s.description === 'string' ? s.description : undefined;
    const example =
      typeof s === 'object'
        ? Array.isArray(s.examples)
          ? s.examples[0]
          : (s.example ?? s.example_value)
        : undefined;
    return {
      name,
      in: 'body' as const,
      required: required.includes(name),
      schema: s,
      ...(description ? { description } : {}),
      ...(example !== undefined ? { example } : {}),
    };
  });
  const responseSchema = isJsonObject(fn.outputSchema) ? (fn.outputSchema as JsonSchema) : undefined;
  return {
    pointer,
    wanted: fn.name,
    description: typeof fn.description === 'string' ? fn.description : '',
    params,
    schema: { ...rawSchema, type: 'object' },
    ...(responseSchema ? { responseSchema } : {}),
  };
}

// ---- RapidAPI-style parameters (STE, ToolBench, DRAFT) ------------------------------------------------------

interface RapidParam {
  name: string;
  type?: string;
  description?: string;
  default?: unknown;
}

/**
 * A RapidAPI parameter as a JSON Schema. `NUMBER` becomes `number` (ToolBench's own conversion says `integer`,
 * but RapidAPI's numbers include coordinates such as STE's `lat: -33.8688`; `number` accepts every integer a
 * ToolBench-trained model sends). The RapidAPI `default` is the example value of the playground: kept as the
 * parameter's example, not as a schema default.
 */
function rapidParams(
  list: unknown,
  required: boolean,
  pointer: string,
  warnings: ImportWarning[],
): ApiParam[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new CatalogProblem({ pointer, reason: 'the parameters must be a list' });
  return list.map((raw, i) => {
    if (!isJsonObject(raw) || typeof raw.name !== 'string' || raw.name === '') {
      throw new CatalogProblem({ pointer: `${pointer}/${i}`, reason: 'a parameter needs a name' });
    }
    const p = raw as unknown as RapidParam;
    const type = (typeof p.type === 'string' ? p.type : 'STRING').trim();
    const schema = rapidSchema(type);
    if (schema === null) {
      warnings.push({
        pointer: `${pointer}/${i}/type`,
        message: `unknown parameter type "${type}": taken as a string`,
      });
    }
    const description = typeof p.description === 'string' && p.description !== '' ? p.description : undefined;
    const example = rapidExample(p.default, schema ?? { type: 'string' });
    return {
      name: p.name,
      in: 'body' as const,
      required,
      schema: schema ?? { type: 'string' },
      ...(description ? { description } : {}),
      ...(example !== undefined ? { example } : {}),
    };
  });
}

function rapidSchema(type: string): JsonObject | null {
  const t = type.toUpperCase();
  if (t === 'STRING' || t === 'ENUM' || t === 'TEXT') return { type: 'string' };
  if (t === 'NUMBER' || t === 'FLOAT' || t === 'DOUBLE') return { type: 'number' };
  if (t === 'INTEGER' || t === 'INT') return { type: 'integer' };
  if (t === 'BOOLEAN' || t === 'BOOL') return { type: 'boolean' };
  if (t === 'ARRAY' || t === 'LIST') return { type: 'array' };
  if (t === 'OBJECT' || t === 'DICT' || t === 'JSON') return { type: 'object' };
  if (t.startsWith('DATE')) return { type: 'string', format: 'date' };
  if (t.startsWith('TIME')) return { type: 'string' };
  if (t === 'BINARY' || t === 'FILE') return { type: 'string', contentEncoding: 'base64' };
  if (t === 'GEOPOINT' || t === 'QUERY') return { type: 'string' };
  return null;
}

function rapidExample(value: unknown, schema: JsonObject): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  if (schema.type === 'number' || schema.type === 'integer') {
    const n = Number(value);
    return Number.isFinite(n) && value.trim() !== '' ? n : undefined;
  }
  if (schema.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : undefined;
  if (schema.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  return value;
}

function isRapidEntry(v: JsonObject): boolean {
  return (
    (Array.isArray(v.required_parameters) || Array.isArray(v.optional_parameters)) &&
    (typeof v.tool_name === 'string' || typeof v.name === 'string' || typeof v.api_name === 'string')
  );
}

function rapidEntry(entry: unknown, pointer: string, warnings: ImportWarning[]): RawTool {
  if (!isJsonObject(entry)) throw new CatalogProblem({ pointer, reason: 'a tool is a JSON object' });
  const name = (entry.tool_name ?? entry.name ?? entry.api_name) as string;
  return {
    pointer,
    wanted: name,
    description: firstText(entry.description, entry.tool_description, entry.api_description),
    params: [
      ...rapidParams(entry.required_parameters, true, `${pointer}/required_parameters`, warnings),
      ...rapidParams(entry.optional_parameters, false, `${pointer}/optional_parameters`, warnings),
    ],
  };
}

// ---- ToolBench ----------------------------------------------------------------------------------------------

function toolBenchApiList(file: unknown, pointer: string, warnings: ImportWarning[]): RawTool[] {
  if (!isJsonObject(file) || !Array.isArray(file.api_list)) {
    throw new CatalogProblem({ pointer, reason: 'a ToolBench tool has an "api_list"' });
  }
  const fileTool = typeof file.tool_name === 'string' ? file.tool_name : undefined;
  return file.api_list.map((api, i) => {
    const at = `${pointer}/api_list/${i}`;
    if (!isJsonObject(api)) throw new CatalogProblem({ pointer: at, reason: 'an API is a JSON object' });
    const apiName = api.api_name ?? api.name;
    const tool = typeof api.tool_name === 'string' ? api.tool_name : fileTool;
    if (typeof apiName !== 'string' || apiName === '')
      throw new CatalogProblem({ pointer: at, reason: 'an API needs a name ("api_name" or "name")' });
    if (tool === undefined)
      throw new CatalogProblem({ pointer: at, reason: 'an API needs its tool ("tool_name")' });
    const responseSchema =
      api.template_response !== undefined && api.template_response !== null
        ? templateSchema(api.template_response)
        : undefined;
    return {
      pointer: at,
      wanted: toolBenchName(tool, apiName),
      sourceName: apiName,
      tag: tool,
      description: firstText(api.api_description, api.description, file.tool_description),
      params: [
        ...rapidParams(api.required_parameters, true, `${at}/required_parameters`, warnings),
        ...rapidParams(api.optional_parameters, false, `${at}/optional_parameters`, warnings),
      ],
      ...(responseSchema ? { responseSchema } : {}),
    };
  });
}

/** ToolBench queries list the same API once per query that uses it: one tool per (tool, API). */
function dedupeSameApi(tools: RawTool[]): RawTool[] {
  const seen = new Set<string>();
  return tools.filter((t) => {
    const key = `${t.tag}\u0000${t.sourceName}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function guidelinesTool(tool: unknown, pointer: string, warnings: ImportWarning[]): RawTool[] {
  if (!isJsonObject(tool) || !isJsonObject(tool.tool_guidelines)) {
    throw new CatalogProblem({ pointer, reason: 'a DRAFT tool has "tool_guidelines"' });
  }
  const toolName = typeof tool.tool_name === 'string' ? tool.tool_name : undefined;
  if (toolName === undefined)
    throw new CatalogProblem({ pointer: `${pointer}/tool_name`, reason: 'a tool needs a "tool_name"' });
  return Object.entries(tool.tool_guidelines).map(([key, api]) => {
    const at = `${pointer}/tool_guidelines/${jsonPointer(key).slice(1)}`;
    if (!isJsonObject(api)) throw new CatalogProblem({ pointer: at, reason: 'an API is a JSON object' });
    const apiName = typeof api.name === 'string' && api.name !== '' ? api.name : key;
    return {
      pointer: at,
      wanted: toolBenchName(toolName, apiName),
      sourceName: apiName,
      tag: toolName,
      description: firstText(api.description, tool.tool_description),
      params: [
        ...rapidParams(api.required_parameters, true, `${at}/required_parameters`, warnings),
        ...rapidParams(api.optional_parameters, false, `${at}/optional_parameters`, warnings),
      ],
    };
  });
}

/**
 * ToolBench's response skeleton (`template_response`) as a JSON Schema: `"str"` → string, `"int"` → integer,
 * `"float"` → number, `"bool"` → boolean, `"NoneType"` → null, `"list of str with length 3"` / `"empty list"` →
 * arrays, `[{…, "_list_length": 975}]` → an array of such objects; a skeleton given as JSON text is read as JSON.
 */
export function templateSchema(template: unknown): JsonSchema {
  if (Array.isArray(template)) {
    const first = template[0];
    if (first === undefined) return { type: 'array' };
    const item = isJsonObject(first)
      ? Object.fromEntries(Object.entries(first).filter(([k]) => k !== '_list_length'))
      : first;
    return { type: 'array', items: templateSchema(item) };
  }
  if (isJsonObject(template)) {
    return {
      type: 'object',
      properties: Object.fromEntries(Object.entries(template).map(([k, v]) => [k, templateSchema(v)])),
    };
  }
  if (typeof template === 'number') return { type: 'number' };
  if (typeof template === 'boolean') return { type: 'boolean' };
  if (typeof template !== 'string') return {};
  const scalar = SKELETON_TYPES[template];
  if (scalar) return { ...scalar };
  const list = /^list of (\w+) with length \d+$/.exec(template);
  if (list) return { type: 'array', items: { ...(SKELETON_TYPES[list[1]!] ?? {}) } };
  if (template === 'empty list') return { type: 'array' };
  if (/^\s*[{[]/.test(template)) {
    try {
      return templateSchema(JSON.parse(template));
    } catch {
      // not JSON after all: a string
    }
  }
  return { type: 'string' };
}

const SKELETON_TYPES: Record<string, JsonObject> = {
  str: { type: 'string' },
  int: { type: 'integer' },
  float: { type: 'number' },
  bool: { type: 'boolean' },
  NoneType: { type: 'null' },
  list: { type: 'array' },
  dict: { type: 'object' },
};

// ---- STE ----------------------------------------------------------------------------------------------------

/** STE's BMTools descriptions end with `… (args json schema): {{"location" : string, "days" : integer, }} …`. */
const BMTOOLS_SCHEMA = /args json schema\):\s*\{\{(.*?)\}\}/s;
const BMTOOLS_ARG = /"([^"]+)"\s*:\s*([A-Za-z_]+)/g;

function steTool(name: string, text: string, pointer: string, warnings: ImportWarning[]): RawTool {
  const json = parseJsonObject(text);
  if (json && (Array.isArray(json.required_parameters) || Array.isArray(json.optional_parameters))) {
    const parent = typeof json.parent_tool_name === 'string' ? json.parent_tool_name : undefined;
    return {
      pointer,
      wanted: name.replace(/%%/g, '.'),
      sourceName: name,
      ...(parent ? { tag: parent } : {}),
      description: firstText(json.description, json.parent_tool_description),
      params: [
        ...rapidParams(json.required_parameters, true, pointer, warnings),
        ...rapidParams(json.optional_parameters, false, pointer, warnings),
      ],
    };
  }
  // BMTools text: the description is what precedes the schema sentence; every listed argument is required
  // (the text marks none optional, and STE's gold calls pass them all).
  const schema = BMTOOLS_SCHEMA.exec(text);
  const params: ApiParam[] = [];
  if (schema) {
    for (const [, arg, type] of schema[1]!.matchAll(BMTOOLS_ARG)) {
      params.push({
        name: arg!,
        in: 'body',
        required: true,
        schema: rapidSchema(type!) ?? { type: 'string' },
      });
    }
  }
  const description = text
    .split(/\.?\s*Your input should be a json|\.?\s*The Action to trigger this API/)[0]!
    .trim();
  return { pointer, wanted: name.replace(/%%/g, '.'), sourceName: name, description, params };
}

// ---- assembly -----------------------------------------------------------------------------------------------

function assemble(raw: RawTool[], source: ApiSource, title: string, warnings: ImportWarning[]): ApiCatalog {
  const names = new NameRegistry();
  const operations: ApiOperation[] = raw.map((tool) => {
    const usable = TOOL_NAME_PATTERN.test(tool.wanted) ? tool.wanted : sanitizeToolName(tool.wanted);
    const name = names.claim(usable);
    if (usable !== tool.wanted) {
      warnings.push({
        pointer: tool.pointer,
        operation: name,
        message: `"${tool.wanted}" is not a usable tool name (letters, digits, "_", "." and "-", at most 64): named "${name}"`,
      });
    } else if (name !== usable) {
      warnings.push({
        pointer: tool.pointer,
        operation: name,
        message: `the name "${usable}" is taken by another tool: this one is named "${name}"`,
      });
    }
    const sourceName = tool.sourceName ?? (name !== tool.wanted ? tool.wanted : undefined);
    // RapidAPI listings repeat a parameter now and then (STE's "Reqres - dont change!%%User by id" lists
    // "array[]" twice): the first listing is kept.
    const seen = new Set<string>();
    tool.params = tool.params.filter((p) => {
      if (!seen.has(p.name)) {
        seen.add(p.name);
        return true;
      }
      warnings.push({
        pointer: tool.pointer,
        operation: name,
        message: `the parameter "${p.name}" is listed twice: the first listing is kept`,
      });
      return false;
    });
    const argumentsSchema = tool.schema ?? argumentsOf(tool.params);
    if (tool.responseSchema === undefined) {
      warnings.push({
        pointer: tool.pointer,
        operation: name,
        message: 'response schema missing: the mock answers a generated object',
      });
    }
    return {
      name,
      ...(sourceName !== undefined ? { operationId: sourceName } : {}),
      description: tool.description,
      ...(tool.tag ? { tags: [tool.tag] } : {}),
      params: tool.params,
      body: {
        required: tool.params.some((p) => p.required),
        mediaType: 'application/json',
        schema: argumentsSchema,
        flattened: true,
      },
      argumentsSchema,
      responses: [
        {
          status: '200',
          description: '',
          mediaType: 'application/json',
          ...(tool.responseSchema !== undefined ? { schema: tool.responseSchema } : {}),
        },
      ],
    };
  });
  return { format: 'catalog', source, title, version: '1', servers: [], operations, warnings };
}

function argumentsOf(params: readonly ApiParam[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const p of params) {
    properties[p.name] =
      p.description && typeof p.schema === 'object' ? { ...p.schema, description: p.description } : p.schema;
  }
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function parseJsonObject(text: string): JsonObject | null {
  if (!/^\s*\{/.test(text)) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return isJsonObject(v) ? v : null;
  } catch {
    return null;
  }
}

function firstText(...values: unknown[]): string {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v.trim();
  return '';
}
