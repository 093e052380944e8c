/**
 * A documentation set rendered the ways a surface documents itself (core/surfaces/docs.ts): the prompt-style tool
 * list, JSON Schemas of the argument objects, MCP tool descriptors and an OpenAPI 3.1 fragment — plus a
 * documentation-only Surface for code that takes its documentation as a surface (the agent prompt), and the
 * difference between two sets.
 *
 * What DRAFT knows of a parameter is its name, whether it is required, its description and an example call that
 * worked, so the schemas are that and no more: string-or-any properties with descriptions, the required list,
 * the learned example, and open objects when the signature ends in `...` (numbered parameters).
 *
 * Every rendering presents current documentation only: a tool flagged `not-served` (its documented name is not
 * served by the explored server, docset.ts) is left out of the tool list, the schemas, MCP, OpenAPI and the
 * prompt surface; `flaggedTools` lists it, with every other flagged tool, for the API and the CLI to show.
 */
import type { JsonSchema, McpToolDescriptor } from '../surfaces/docs.ts';
import type { ParamSpec, Surface, SurfaceTool } from '../surfaces/model.ts';
import {
  type DocEntry,
  type DocFlag,
  type DocSet,
  entryFlags,
  type StopReason,
  toolDocLine,
} from './docset.ts';

/** The tools a rendering presents as current documentation: all but those whose name the server does not serve. */
export function currentTools(set: DocSet): DocEntry[] {
  return set.tools.filter((t) => !entryFlags(t).includes('not-served'));
}

/** A tool whose documentation is not to be taken as current, and why. */
export interface FlaggedTool {
  key: string;
  /** The documented name. */
  name: string;
  stop: StopReason;
  flags: DocFlag[];
  /** False when the name is not served: the renderings leave the tool out. */
  current: boolean;
}

/** Every flagged tool of a set, in the set's order. */
export function flaggedTools(set: DocSet): FlaggedTool[] {
  return set.tools
    .filter((t) => entryFlags(t).length > 0)
    .map((t) => ({
      key: t.key,
      name: t.doc.name,
      stop: t.stop,
      flags: entryFlags(t),
      current: !entryFlags(t).includes('not-served'),
    }));
}

/** `(1) Name[params], description` lines of the current tools, numbered like a surface's tool list. */
export function docsetToolList(set: DocSet): string {
  return currentTools(set)
    .map((t, i) => `(${i + 1}) ${toolDocLine(t.doc)}`)
    .join('\n');
}

export function docArgumentsSchema(entry: DocEntry): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let open = false;
  for (const p of entry.doc.params) {
    if (p.name === '...' || p.name === '…') {
      open = true;
      continue;
    }
    properties[p.name] = p.description ? { description: p.description } : {};
    if (p.required) required.push(p.name);
  }
  const schema: JsonSchema = { type: 'object', description: toolDocLine(entry.doc), properties, required };
  schema.additionalProperties = open;
  if (entry.doc.example) schema.examples = [entry.doc.example];
  return schema;
}

export function docsetMcpTools(set: DocSet): McpToolDescriptor[] {
  return currentTools(set).map((t) => ({
    name: t.doc.name,
    description: toolDocLine(t.doc),
    inputSchema: docArgumentsSchema(t),
  }));
}

/** A set's documentation lines by the tool name they document (for serving refined descriptions). */
export function refinedDescriptions(set: DocSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of currentTools(set)) out[t.doc.name] ??= toolDocLine(t.doc);
  return out;
}

/** MCP tool descriptors with the descriptions a documentation set has for their names. */
export function refineMcpTools(
  tools: readonly McpToolDescriptor[],
  descriptions: Readonly<Record<string, string>>,
): McpToolDescriptor[] {
  return tools.map((t) =>
    Object.hasOwn(descriptions, t.name) ? { ...t, description: descriptions[t.name] as string } : t,
  );
}

/** The JSON Schema rendering: one entry per tool (name, category, description, argument schema). */
export function docsetJsonSchema(set: DocSet): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `DRAFT documentation of ${set.source.docs} explored on ${set.source.server}`,
    tools: currentTools(set).map((t) => ({
      name: t.doc.name,
      category: t.category,
      description: toolDocLine(t.doc),
      inputSchema: docArgumentsSchema(t),
    })),
  };
}

/** An OpenAPI 3.1 fragment: one POST per tool under the session tool path, tagged with its category. */
export function docsetOpenApi(set: DocSet): JsonSchema {
  const paths: Record<string, JsonSchema> = {};
  for (const t of currentTools(set)) {
    paths[`/v1/sessions/{id}/tools/${encodeURIComponent(t.doc.name)}`] = {
      post: {
        operationId: `call_${t.doc.name}`,
        summary: `${t.doc.name}[${t.doc.params.map((p) => p.name).join(', ')}]`,
        description: toolDocLine(t.doc),
        tags: [t.category],
        parameters: [{ $ref: '#/components/parameters/SessionId' }],
        requestBody: { required: true, content: { 'application/json': { schema: docArgumentsSchema(t) } } },
        responses: { '200': { description: 'The observation' } },
      },
    };
  }
  return {
    paths,
    tags: set.categories.map((c) => ({ name: c.name, description: c.description })),
    components: {
      parameters: {
        SessionId: { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      },
    },
  };
}

/**
 * A documentation-only surface for the agent prompt: the base surface (the one DRAFT started from) with each
 * tool's name, signature and description replaced by the set's. Parameters become `ignored` specs that only carry
 * their names, so the tool list reads exactly like `docsetToolList`; the prompt's worked examples cannot be
 * translated onto such tools and stay in the base surface's API. Not servable: never run calls against it.
 * A tool whose documented name the server does not serve is left out (never shown as current documentation).
 */
export function docsetPromptSurface(set: DocSet, base: Surface): Surface {
  const byKey = new Map(set.tools.map((t) => [t.key, t]));
  const stale = new Set(set.tools.filter((t) => entryFlags(t).includes('not-served')).map((t) => t.key));
  const tools: SurfaceTool[] = base.tools
    .filter((tool) => !stale.has(tool.name))
    .map((tool) => {
      const entry = byKey.get(tool.name);
      if (!entry) return tool;
      const params: ParamSpec[] = entry.doc.params.map((p) => ({
        kind: 'ignored',
        name: p.name,
        description: p.description ?? '',
        example: null,
      }));
      return {
        ...tool,
        name: entry.doc.name,
        description: entry.doc.description,
        params,
        example: entry.doc.example ?? {},
        lifecycle: { status: 'active' },
      };
    });
  return {
    ...base,
    id: `${base.id}+draft`,
    title: `${base.title} (DRAFT documentation)`,
    tools,
    retired: [],
  };
}

export interface DocDiffEntry {
  key: string;
  before: string | null;
  after: string | null;
  changed: boolean;
  /** Δ of the newest version of `after` (null when none). */
  delta: number | null;
  stop: string | null;
  /** The flags of the tool in `set` (empty when none or absent). */
  flags: DocFlag[];
}

/** Per tool key: the documentation line in `against` and in `set`, and whether it changed. */
export function docsetDiff(set: DocSet, against: DocSet): DocDiffEntry[] {
  const before = new Map(against.tools.map((t) => [t.key, t]));
  const keys = [...new Set([...set.tools.map((t) => t.key), ...against.tools.map((t) => t.key)])];
  const after = new Map(set.tools.map((t) => [t.key, t]));
  return keys.map((key) => {
    const a = after.get(key);
    const b = before.get(key);
    const afterLine = a ? toolDocLine(a.doc) : null;
    const beforeLine = b ? toolDocLine(b.doc) : null;
    return {
      key,
      before: beforeLine,
      after: afterLine,
      changed: afterLine !== beforeLine,
      delta: a?.versions.at(-1)?.delta ?? null,
      stop: a?.stop ?? null,
      flags: a ? entryFlags(a) : [],
    };
  });
}
