/**
 * The base surface of an imported API: every operation exposed as it is — its name, method, path, parameters
 * (each an identity `param` mapping, a body that is not a flattened object as the one parameter `body`), its
 * pagination style and description; an operation the document marks deprecated is deprecated (without dates or
 * successor). Its id is the API's id. The drift generator derives every other surface from it.
 */
import type { ApiCatalog, ApiOperation } from '../types.ts';
import { API_BACKEND, type ApiSurface, type ApiTool, type ExposedParam } from './model.ts';

/** The exposed parameters of an operation as it is. */
export function baseParams(op: ApiOperation): ExposedParam[] {
  const params: ExposedParam[] = op.params.map((p) => {
    const out: ExposedParam = {
      kind: 'param',
      name: p.name,
      in: p.in,
      required: p.required,
      schema: p.schema,
      base: p.name,
    };
    if (p.description !== undefined) out.description = p.description;
    return out;
  });
  if (op.body && !op.body.flattened) {
    params.push({
      kind: 'param',
      name: 'body',
      in: 'body',
      required: op.body.required,
      schema: op.body.schema,
      description: `The request body (${op.body.mediaType}).`,
      base: 'body',
    });
  }
  return params;
}

/** The tool of an operation as it is. */
export function baseTool(op: ApiOperation): ApiTool {
  const tool: ApiTool = {
    operation: op.name,
    name: op.name,
    params: baseParams(op),
    description: op.description,
    lifecycle: op.deprecated ? { status: 'deprecated' } : { status: 'active' },
  };
  if (op.method !== undefined && op.path !== undefined) {
    tool.method = op.method;
    tool.path = op.path;
  }
  if (op.summary !== undefined) tool.summary = op.summary;
  return tool;
}

export function baseApiSurface(apiId: string, catalog: ApiCatalog, title?: string): ApiSurface {
  return {
    id: apiId,
    backend: API_BACKEND,
    api: apiId,
    title: title ?? catalog.title,
    description: `${catalog.title} ${catalog.version} as imported: every operation under its own name, route and parameters.`,
    tools: catalog.operations.map(baseTool),
    retired: [],
    response: {},
  };
}
