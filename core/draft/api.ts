/**
 * DRAFT on an imported API (issue 23 §2): the starting documentation set of an API surface. Each served tool is
 * one entry documenting its operation — the exposed name, the route (method and path), the accepted parameters
 * with their descriptions, what it does — and its category is the resource it belongs to (the first literal
 * segment of the path, `movie` for `/movie/{movie_id}/credits`; for a catalog tool without a path, its first tag
 * or the part of its name before `%%`), standing in for ToolBench's "tool of several endpoints" as the kernel's
 * families do for ToolQA. The explorations run on the API's exploration target (`core/sessions/targets.ts`),
 * so the analyzer reads the mock's real answers and errors.
 */
import { toolAbout } from '../apis/surface/docs.ts';
import type { ApiSurface, ApiTool } from '../apis/surface/model.ts';
import { acceptedKeys, servedTools, toolRoute } from '../apis/surface/tools.ts';
import type { ApiCatalog } from '../apis/types.ts';
import type { DraftOptions } from './config.ts';
import { DOCSET_FORMAT, type DocEntry, type DocParam, type DocSet, type ToolDoc } from './docset.ts';

/** The resource an operation belongs to (see the module header). */
export function apiCategory(tool: ApiTool, catalog?: ApiCatalog): string {
  const segment = tool.path?.split('/').find((s) => s !== '' && !s.startsWith('{') && !/^v\d+$/i.test(s));
  if (segment) return segment;
  const tag = catalog?.operations.find((o) => o.name === tool.operation)?.tags?.[0];
  if (tag) return tag;
  const at = tool.operation.indexOf('%%');
  return at > 0 ? tool.operation.slice(0, at) : 'api';
}

/** A served tool's documentation as the API surface gives it (no example: nothing has been called yet). */
export function apiToolDoc(tool: ApiTool): ToolDoc {
  const described = new Map(tool.params.map((p) => [p.name, p.description]));
  const params: DocParam[] = acceptedKeys(tool).map((k) => {
    const d = described.get(k.name)?.trim();
    return d
      ? { name: k.name, required: k.required, description: d }
      : { name: k.name, required: k.required };
  });
  const doc: ToolDoc = { name: tool.name, params, description: toolAbout(tool) || 'No description.' };
  const route = toolRoute(tool);
  if (route) doc.route = route;
  return doc;
}

/** The starting documentation set of an API surface: every served tool, nothing explored yet. */
export function apiDocSet(
  docs: ApiSurface,
  server: string,
  model: string,
  simulated: boolean,
  options: DraftOptions,
  catalog?: ApiCatalog,
): DocSet {
  const tools: DocEntry[] = servedTools(docs).map((t) => {
    const doc = apiToolDoc(t);
    return {
      key: t.name,
      operation: t.operation,
      category: apiCategory(t, catalog),
      doc,
      versions: [{ iteration: 0, doc, bleu: null, cos: null, delta: null }],
      stop: 'not-explored',
      modelCalls: 0,
      toolCalls: 0,
    };
  });
  const categories = [...new Set(tools.map((t) => t.category))];
  return {
    format: DOCSET_FORMAT,
    source: { docs: docs.id, server },
    api: docs.api,
    parent: null,
    model,
    simulated,
    options,
    tools,
    categories: categories.map((name) => ({
      name,
      description: '',
      tools: tools.filter((t) => t.category === name).map((t) => t.key),
    })),
  };
}

/**
 * A documentation set's refined descriptions by base operation (for `apiToolList`'s `descriptions`: a DRAFT docset as
 * the agent's documentation aid). Only explored tools count; the others keep the API's own text.
 */
export function docsetDescriptions(set: DocSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of set.tools)
    if (t.operation !== undefined && t.stop !== 'not-explored') out[t.operation] = t.doc.description;
  return out;
}
