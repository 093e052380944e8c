/**
 * Every surface documents itself, as pure functions of the surface (plain JSON-serialisable values):
 *
 * - `renderToolList`: the ToolQA prompt-style numbered list, `(n) Name[params], description` (for `pc` exactly
 *   the list of spec §5.1, trailing spaces included), optionally followed by the lines UpdateTool added;
 * - `toolArgumentsSchema`: a JSON Schema (draft 2020-12, as OpenAPI 3.1 uses) of one tool's argument object,
 *   for the OpenAPI document and MCP tool schemas;
 * - `mcpTools`: the surface's tools as MCP tool descriptors;
 * - `surfaceOpenApi`: an OpenAPI 3.1 fragment with one `POST /v1/sessions/{id}/tools/{name}` path per name.
 *
 * Schema decisions:
 * - Numbered parameters are documented as the explicit properties `{prefix}1` … `{prefix}5` (function-calling
 *   clients handle named properties far better than patterns), `{prefix}1` required, plus a
 *   `patternProperties` entry for `{prefix}6` and beyond. Position cannot be expressed in JSON Schema: the
 *   descriptions say that the i-th key must be `{prefix}i`. The unnumbered single-key form is a compatibility
 *   path of the adapter and is not part of the schema.
 * - Flags are `enum`s of their accepted literals (`["True", "true", true]`).
 * - Prefixed strings carry `pattern: "^<escaped prefix>"`; structured strings the grammar as an (unanchored,
 *   like Python's re.search) ECMAScript pattern, e.g. `FirstNode\s*\[.*?\]\s*,\s*SecondNode\[.*?\]`.
 * - Ignored parameters accept any value (no `type`), with their example; Finish's `answer` accepts any JSON
 *   value; every other parameter is a string. Objects are closed (`additionalProperties: false`).
 * - Sunset tools are left out of the tool list and the MCP tools; in OpenAPI they and the retired names are
 *   `deprecated` operations whose answer is the deprecation message.
 */
import { type ResolveOptions, toolStatus } from './adapter.ts';
import type { ParamSpec, Surface, SurfaceTool } from './model.ts';
import { toolCallText } from './signature.ts';

export type JsonSchema = { [key: string]: unknown };

/** How many numbered keys the schemas spell out as properties. */
export const NUMBERED_DOC_KEYS = 5;

/** The tools a client can use at `now` (sunset ones are gone). */
function servedTools(surface: Surface, now?: Date): SurfaceTool[] {
  return surface.tools.filter((t) => toolStatus(t, now) !== 'sunset');
}

/**
 * The prompt-style tool list: `(1) RetrieveAgenda[keyword], which retrieves the agenda related to keyword.` …,
 * then the UpdateTool lines (`(14) …`) after a newline when there are any (§5.1).
 */
export function renderToolList(
  surface: Surface,
  opts: ResolveOptions & { newTools?: readonly string[] } = {},
): string {
  const lines = servedTools(surface, opts.now).map(
    (t, i) => `(${i + 1}) ${toolCallText(t)}, ${t.description}`,
  );
  const added = opts.newTools ?? [];
  return added.length > 0 ? `${lines.join('\n')}\n${added.join('\n')}` : lines.join('\n');
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function structuredPattern(spec: Extract<ParamSpec, { kind: 'structured' }>): string {
  return spec.slots
    .map((s, i) => `${escapeRegex(s.label)}${i < spec.slots.length - 1 ? '\\s*' : ''}\\[.*?\\]`)
    .join('\\s*,\\s*');
}

function renameSchema(spec: Extract<ParamSpec, { kind: 'rename' }>): JsonSchema {
  // Finish's answer is compared through Python str(), so any JSON value is an answer.
  return spec.kernel === 'answer'
    ? { description: spec.description }
    : { type: 'string', description: spec.description };
}

/** The JSON Schema of a tool's argument object (see the module header for the decisions). */
export function toolArgumentsSchema(tool: SurfaceTool): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const patternProperties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of tool.params) {
    switch (p.kind) {
      case 'rename':
        properties[p.name] = renameSchema(p);
        required.push(p.name);
        break;
      case 'ignored':
        properties[p.name] = {
          description: `${p.description} Any value is accepted.`,
          examples: [p.example],
        };
        required.push(p.name);
        break;
      case 'flag':
        properties[p.name] = { enum: [...p.accepted], description: p.description };
        if (!p.optional) required.push(p.name);
        break;
      case 'numbered': {
        for (let i = 1; i <= NUMBERED_DOC_KEYS; i++) {
          properties[`${p.prefix}${i}`] = {
            type: 'string',
            description: `${p.description} Must be the key at position ${i} of the object.`,
          };
        }
        patternProperties[`^${escapeRegex(p.prefix)}([6-9]|[1-9][0-9]+)$`] = {
          type: 'string',
          description: `Further keys ${p.prefix}${NUMBERED_DOC_KEYS + 1}, …, each at the position its number gives.`,
        };
        required.push(`${p.prefix}1`);
        break;
      }
      case 'structured':
        properties[p.name] = {
          type: 'string',
          pattern: structuredPattern(p),
          description: p.description,
          examples: [tool.example[p.name] ?? p.slots.map((s) => `${s.label}[…]`).join(', ')],
        };
        required.push(p.name);
        break;
      case 'prefixed':
        properties[p.name] = {
          type: 'string',
          pattern: `^${escapeRegex(p.prefix)}`,
          description: p.description,
        };
        required.push(p.name);
        break;
    }
  }
  const schema: JsonSchema = {
    type: 'object',
    description: `${toolCallText(tool)}, ${tool.description}`.trim(),
    properties,
  };
  if (Object.keys(patternProperties).length > 0) schema.patternProperties = patternProperties;
  schema.required = required;
  schema.additionalProperties = false;
  schema.examples = [tool.example];
  return schema;
}

export interface McpToolDescriptor {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** The served tools as MCP tool descriptors (`tools/list`). */
export function mcpTools(surface: Surface, opts: ResolveOptions = {}): McpToolDescriptor[] {
  return servedTools(surface, opts.now).map((t) => ({
    name: t.name,
    description: `${toolCallText(t)}, ${t.description}`.trim(),
    inputSchema: toolArgumentsSchema(t),
  }));
}

const DEPRECATION_NOTICE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'Present when the called name is deprecated, past its sunset, or retired.',
  required: ['tool', 'status'],
  properties: {
    tool: { type: 'string', description: 'The name that was called.' },
    status: { type: 'string', enum: ['deprecated', 'sunset', 'retired'] },
    successor: { type: 'string', description: 'The tool to use instead.' },
    deprecatedAt: { type: 'string', description: 'ISO 8601 date.' },
    sunsetAt: { type: 'string', description: 'ISO 8601 date.' },
  },
  additionalProperties: false,
};

const TOOL_RESULT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The answer to one tool call.',
  required: ['observation', 'outcome'],
  properties: {
    observation: {
      type: 'string',
      description:
        "What the agent sees, in the surface's response format; cut to 1024 whitespace-separated tokens plus ` ...`.",
    },
    outcome: {
      type: 'object',
      required: ['kind'],
      properties: {
        kind: {
          type: 'string',
          enum: ['ok', 'error', 'refused', 'finished', 'rejected'],
          description:
            "`ok`/`error`: the tool ran; `refused`: its sandbox would not run the call (SQL guard, time or engine failure; Python evaluation budget or program length), the observation is the tool's error text; `finished`: Finish was judged; `rejected`: the call never reached the tool.",
        },
        reason: {
          type: 'string',
          description:
            'For `error` the kernel error reason; for `refused` one of sql-guard, sql-timeout, sql-engine, python-timeout, python-too-long; for `rejected` one of filtered, argument-error, invalid-action, retired, param-error.',
        },
        correct: { type: 'boolean', description: 'For `finished`: whether the answer matched.' },
      },
      additionalProperties: false,
    },
    deprecation: { $ref: '#/components/schemas/DeprecationNotice' },
  },
};

const DEPRECATION_HEADERS = {
  Deprecation: {
    description:
      'RFC 9745: when the tool was deprecated (`@<unix seconds>`), or `true` when no date is known.',
    schema: { type: 'string' },
  },
  Sunset: { description: 'RFC 8594: when the tool stops being served.', schema: { type: 'string' } },
};

function toolPath(name: string): string {
  return `/v1/sessions/{id}/tools/${encodeURIComponent(name)}`;
}

function operation(opts: {
  name: string;
  summary: string;
  description: string;
  deprecated: boolean;
  schema: JsonSchema;
}): JsonSchema {
  const ok: JsonSchema = {
    description: 'The observation (tool errors, parameter errors and deprecations are observations too)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/SurfaceToolResult' } } },
  };
  if (opts.deprecated) ok.headers = DEPRECATION_HEADERS;
  const op: JsonSchema = {
    operationId: `call_${opts.name}`,
    summary: opts.summary,
    description: opts.description,
    tags: ['Tools'],
    parameters: [{ $ref: '#/components/parameters/SessionId' }],
    requestBody: { required: true, content: { 'application/json': { schema: opts.schema } } },
    responses: { '200': ok },
  };
  if (opts.deprecated) op.deprecated = true;
  return op;
}

/**
 * The surface's OpenAPI 3.1 fragment: `paths` (one POST per tool and retired name) and the `components` they
 * reference. Merge it into the service's document; the session `{id}` fixes the surface.
 */
export function surfaceOpenApi(surface: Surface, opts: ResolveOptions = {}): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const t of surface.tools) {
    const status = toolStatus(t, opts.now);
    const successor = t.lifecycle.successor;
    let description = `${toolCallText(t)}, ${t.description}`.trim();
    if (status === 'deprecated') {
      description += ` Deprecated${successor ? `: use ${successor} instead` : ''}.`;
    }
    if (status === 'sunset') {
      description = `Past its sunset: answers with a deprecation message${successor ? ` naming ${successor}` : ''}.`;
    }
    paths[toolPath(t.name)] = {
      post: operation({
        name: t.name,
        summary: toolCallText(t),
        description,
        deprecated: status !== 'active',
        schema: status === 'sunset' ? { type: 'object' } : toolArgumentsSchema(t),
      }),
    };
  }
  for (const r of surface.retired) {
    paths[toolPath(r.name)] = {
      post: operation({
        name: r.name,
        summary: `${r.name} (retired)`,
        description: `Retired: answers with a deprecation message naming ${r.successor}; the arguments are not inspected.`,
        deprecated: true,
        schema: { type: 'object' },
      }),
    };
  }
  return {
    paths,
    components: {
      parameters: {
        SessionId: {
          name: 'id',
          in: 'path',
          required: true,
          description: `A session on the surface \`${surface.id}\`.`,
          schema: { type: 'string' },
        },
      },
      schemas: { SurfaceToolResult: TOOL_RESULT_SCHEMA, DeprecationNotice: DEPRECATION_NOTICE_SCHEMA },
    },
  };
}
