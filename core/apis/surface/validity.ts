/**
 * `apiSurfaceProblems`: everything that makes an API surface unusable in front of its catalog (empty when it is
 * fine). The drift generator checks every surface it makes; a stored or hand-written surface can be checked the
 * same way.
 *
 * - Names: tool names, parameter keys and retired names are exposed names (`API_EXPOSED_NAME`); `Finish` is
 *   reserved; two different names may not be equal ignoring case; a name is used by one operation only (the
 *   same name twice only for one operation at two routes, as a schedule's deprecated copy is); a retired name is
 *   not a served one; successors are served tools.
 * - Routes: a tool has a method and path exactly when its operation has; paths start with `/`; the path's
 *   placeholders are exactly the tool's path parameters, which are required; two tools of different operations
 *   never share a method and route shape.
 * - Parameters: keys are unique within a tool (paging parameters included); each maps onto base parameters of
 *   its operation that exist, none twice, every required one carried; conversions fit the base schema; merged
 *   parameters join at least two scalar base parameters with a separator; the parts of a split parameter are
 *   complete (indices 0…count−1, one joiner) and split a string; a whole-body parameter is the only body one;
 *   exposed paging needs base paging it can be translated onto.
 * - Response: envelope keys are distinct and non-empty.
 */
import type { ApiCatalog, JsonSchema } from '../types.ts';
import type { ApiSurface, ApiTool, ExposedParam } from './model.ts';
import { basePageParamNames, pageParams, pagingCompatible } from './pagination.ts';
import { routeShape, templateParams } from './route.ts';
import { API_EXPOSED_NAME, isWholeBody, operationOf } from './tools.ts';
import { conversionFits, isScalarSchema, schemaTypes } from './values.ts';

function baseSchema(
  op: { params: { name: string; schema: JsonSchema }[]; body?: { flattened: boolean; schema: JsonSchema } },
  name: string,
) {
  if (name === 'body' && op.body && !op.body.flattened) return op.body.schema;
  return op.params.find((p) => p.name === name)?.schema;
}

function toolProblems(tool: ApiTool, catalog: ApiCatalog): string[] {
  const where = `${tool.name}:`;
  const problems: string[] = [];
  const op = operationOf(catalog, tool.operation);
  if (!op) return [`${where} operation ${tool.operation} is not in the catalog`];
  if (
    (op.method === undefined) !== (tool.method === undefined) ||
    (op.path === undefined) !== (tool.path === undefined)
  ) {
    problems.push(
      `${where} has ${tool.method ? 'an' : 'no'} HTTP route but its operation has ${op.method ? 'one' : 'none'}`,
    );
  }
  if (tool.path !== undefined) {
    if (!tool.path.startsWith('/')) problems.push(`${where} path ${tool.path} does not start with /`);
    const placeholders = templateParams(tool.path).sort();
    const pathParams = tool.params
      .filter((p) => p.in === 'path')
      .map((p) => p.name)
      .sort();
    if (placeholders.join('\u0000') !== pathParams.join('\u0000'))
      problems.push(
        `${where} path placeholders {${placeholders.join('}, {')}} are not its path parameters (${pathParams.join(', ')})`,
      );
  }
  for (const p of tool.params) {
    if (p.in === 'path' && !p.required) problems.push(`${where} path parameter ${p.name} is not required`);
  }

  const keys = [
    ...tool.params.map((p) => p.name),
    ...(tool.pagination ? pageParams(tool.pagination).map((p) => p.name) : []),
  ];
  const seenKeys = new Set<string>();
  for (const k of keys) {
    if (!API_EXPOSED_NAME.test(k)) problems.push(`${where} key ${JSON.stringify(k)} is not an exposed name`);
    if (seenKeys.has(k)) problems.push(`${where} key ${k} is declared twice`);
    seenKeys.add(k);
  }

  const covered = new Map<string, string>();
  const cover = (base: string, by: string) => {
    if (covered.has(base) && covered.get(base) !== by)
      problems.push(`${where} base parameter ${base} is carried by ${covered.get(base)} and ${by}`);
    covered.set(base, by);
  };
  const exists = (name: string) => baseSchema(op, name) !== undefined;
  const parts = new Map<string, Extract<ExposedParam, { kind: 'part' }>[]>();
  const wholes = tool.params.filter((p) => isWholeBody(p, op));
  if (wholes.length > 0 && tool.params.some((p) => p.in === 'body' && !wholes.includes(p)))
    problems.push(`${where} a whole-body parameter cannot sit beside body properties`);
  for (const p of tool.params) {
    switch (p.kind) {
      case 'param':
        if (!exists(p.base))
          problems.push(`${where} ${p.name} maps onto ${p.base}, which ${op.name} does not have`);
        else if (p.convert && !conversionFits(p.convert, baseSchema(op, p.base) as JsonSchema))
          problems.push(`${where} ${p.name}: conversion ${p.convert.kind} does not fit ${p.base}'s schema`);
        cover(p.base, p.name);
        break;
      case 'merged':
        if (p.bases.length < 2) problems.push(`${where} ${p.name} merges fewer than two parameters`);
        if (p.separator === '') problems.push(`${where} ${p.name} has an empty separator`);
        for (const b of p.bases) {
          if (!exists(b)) problems.push(`${where} ${p.name} merges ${b}, which ${op.name} does not have`);
          else if (!isScalarSchema(baseSchema(op, b)))
            problems.push(`${where} ${p.name} merges ${b}, which is not a scalar`);
          cover(b, p.name);
        }
        break;
      case 'part':
        if (!exists(p.base))
          problems.push(`${where} ${p.name} is a part of ${p.base}, which ${op.name} does not have`);
        else if (!schemaTypes(baseSchema(op, p.base)).has('string'))
          problems.push(`${where} ${p.name} splits ${p.base}, which is not a string`);
        parts.set(p.base, [...(parts.get(p.base) ?? []), p]);
        break;
    }
  }
  for (const [base, list] of parts) {
    cover(base, list.map((p) => p.name).join('+'));
    const count = list[0]?.count ?? 0;
    const indices = list.map((p) => p.index).sort((a, b) => a - b);
    if (
      list.some((p) => p.count !== count || p.joiner !== list[0]?.joiner) ||
      indices.join() !== [...Array(count).keys()].join()
    )
      problems.push(`${where} the parts of ${base} are not indices 0…${count - 1} with one joiner`);
    if (list[0]?.joiner === '') problems.push(`${where} the parts of ${base} have an empty joiner`);
  }
  if (tool.pagination) {
    if (!op.pagination) problems.push(`${where} pages but ${op.name} does not`);
    else {
      if (!pagingCompatible(tool.pagination, op.pagination))
        problems.push(
          `${where} its ${tool.pagination.style} paging cannot be translated onto ${op.pagination.style} paging`,
        );
      for (const b of basePageParamNames(op.pagination)) {
        if (covered.has(b))
          problems.push(`${where} base paging parameter ${b} is also carried by ${covered.get(b)}`);
        covered.set(b, 'paging');
      }
    }
  }
  for (const bp of op.params) {
    if (bp.required && !covered.has(bp.name))
      problems.push(`${where} required base parameter ${bp.name} is not carried`);
  }
  if (op.body && !op.body.flattened && op.body.required && !covered.has('body'))
    problems.push(`${where} the required request body is not carried`);
  return problems;
}

export function apiSurfaceProblems(surface: ApiSurface, catalog: ApiCatalog): string[] {
  const problems: string[] = [];
  if (surface.backend !== 'api') problems.push(`backend is ${String(surface.backend)}, not api`);
  if (surface.id === '') problems.push('the id is empty');

  const byName = new Map<string, ApiTool[]>();
  for (const t of surface.tools) byName.set(t.name, [...(byName.get(t.name) ?? []), t]);
  const lower = new Map<string, string>();
  const names = [...byName.keys(), ...surface.retired.flatMap((r) => (r.name !== undefined ? [r.name] : []))];
  for (const n of names) {
    if (!API_EXPOSED_NAME.test(n)) problems.push(`name ${JSON.stringify(n)} is not an exposed name`);
    if (n.toLowerCase() === 'finish') problems.push(`name ${n} is reserved for the answer`);
    const other = lower.get(n.toLowerCase());
    if (other !== undefined && other !== n) problems.push(`names ${other} and ${n} differ only in case`);
    lower.set(n.toLowerCase(), n);
  }
  for (const [name, tools] of byName) {
    if (new Set(tools.map((t) => t.operation)).size > 1)
      problems.push(`name ${name} is used by several operations`);
    const routes = tools.map((t) => `${t.method} ${t.path === undefined ? '' : routeShape(t.path)}`);
    if (new Set(routes).size < routes.length) problems.push(`name ${name} is used twice for one route`);
  }
  const routes = new Map<string, string>();
  for (const t of surface.tools) {
    if (t.method === undefined || t.path === undefined) continue;
    const key = `${t.method} ${routeShape(t.path)}`;
    const other = routes.get(key);
    if (other !== undefined && other !== t.operation)
      problems.push(`route ${t.method.toUpperCase()} ${t.path} is served for ${other} and ${t.operation}`);
    routes.set(key, t.operation);
  }
  const served = new Set(surface.tools.map((t) => t.name));
  for (const t of surface.tools) {
    problems.push(...toolProblems(t, catalog));
    const s = t.lifecycle.successor;
    if (s !== undefined && !served.has(s))
      problems.push(`${t.name}: successor ${s} is not a tool of the surface`);
  }
  for (const r of surface.retired) {
    const label = r.name ?? `${r.method?.toUpperCase()} ${r.path}`;
    if (r.name === undefined && (r.method === undefined || r.path === undefined))
      problems.push('a retired entry has neither a name nor a route');
    if (r.name !== undefined && served.has(r.name)) problems.push(`retired name ${r.name} is also served`);
    if (!served.has(r.successor))
      problems.push(`retired ${label}: successor ${r.successor} is not a tool of the surface`);
    if (!operationOf(catalog, r.operation))
      problems.push(`retired ${label}: operation ${r.operation} is not in the catalog`);
  }
  const env = surface.response.envelope;
  if (env && (env.dataKey === '' || env.metaKey === '' || env.dataKey === env.metaKey))
    problems.push('the envelope keys are empty or equal');
  return problems;
}
