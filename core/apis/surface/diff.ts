/**
 * `describeApiDrift`: what changed between two API surfaces of one API (served as
 * `GET /v1/surfaces/{id}/diff?against=…`), generated or not. Operations are matched by name; on each side the
 * operation's tool is the one `toolForOperation` picks (the first active, else the first deprecated). Per
 * operation: the tool's name and route, how each base parameter is carried (its key, location and conversion;
 * the merged string or split parts that carry it; the paging style that replaced it), the paging style, the
 * lifecycle, and the other tools still serving it (deprecated predecessors). Plus the response shape and the
 * retired names and routes each side has that the other has not.
 */
import type { Lifecycle } from '../../surfaces/model.ts';
import type { ApiCatalog, HttpMethod, ParamLocation } from '../types.ts';
import type { ApiRetired, ApiSurface, ApiTool, Pagination, ResponseShape, ValueConversion } from './model.ts';
import { basePageParamNames, pageParams } from './pagination.ts';
import { operationOf, toolForOperation } from './tools.ts';

/** How one base parameter is sent on a surface. */
export type ApiParamCarrier =
  | { kind: 'param'; key: string; in: ParamLocation; convert?: ValueConversion }
  | { kind: 'merged'; key: string; in: ParamLocation; separator: string; position: number; with: string[] }
  | { kind: 'part'; keys: string[]; in: ParamLocation; joiner: string }
  | { kind: 'paging'; style: Pagination['style']; keys: string[] };

export interface ApiToolRef {
  name: string;
  method?: HttpMethod;
  path?: string;
}

export interface ApiOperationDrift {
  operation: string;
  /** The operation's tool on each side (null when that side does not serve it). */
  from: ApiToolRef | null;
  to: ApiToolRef | null;
  renamed: boolean;
  /** The method or path changed. */
  moved: boolean;
  /** Base parameters carried differently. */
  params: { base: string; from: ApiParamCarrier | null; to: ApiParamCarrier | null }[];
  pagination: { from: Pagination | null; to: Pagination | null } | null;
  lifecycle: { from: Lifecycle; to: Lifecycle } | null;
  /** Other tools of the other side still serving the operation (deprecated predecessors). */
  alsoServedBy: (ApiToolRef & { lifecycle: Lifecycle })[];
}

export interface ApiRetiredRef {
  name?: string;
  method?: HttpMethod;
  path?: string;
  operation: string;
  successor: string;
}

export interface ApiDrift {
  base: string;
  surface: string;
  drift: { seed: string; kinds: string[] } | null;
  /** Every operation whose tool differs in any of the ways `ApiOperationDrift` lists, in catalog order of the base. */
  operations: ApiOperationDrift[];
  response: { from: ResponseShape; to: ResponseShape } | null;
  retired: { added: ApiRetiredRef[]; removed: ApiRetiredRef[] };
}

function carriers(tool: ApiTool | undefined, basePaging: string[]): Map<string, ApiParamCarrier> {
  const out = new Map<string, ApiParamCarrier>();
  if (!tool) return out;
  const parts = new Map<string, Extract<ApiTool['params'][number], { kind: 'part' }>[]>();
  for (const p of tool.params) {
    if (p.kind === 'param') {
      const c: ApiParamCarrier = { kind: 'param', key: p.name, in: p.in };
      if (p.convert) c.convert = p.convert;
      out.set(p.base, c);
    } else if (p.kind === 'merged') {
      p.bases.forEach((b, i) => {
        out.set(b, {
          kind: 'merged',
          key: p.name,
          in: p.in,
          separator: p.separator,
          position: i,
          with: [...p.bases],
        });
      });
    } else parts.set(p.base, [...(parts.get(p.base) ?? []), p]);
  }
  for (const [base, list] of parts) {
    const sorted = [...list].sort((a, b) => a.index - b.index);
    out.set(base, {
      kind: 'part',
      keys: sorted.map((p) => p.name),
      in: sorted[0]?.in ?? 'query',
      joiner: sorted[0]?.joiner ?? ' ',
    });
  }
  if (tool.pagination) {
    const keys = pageParams(tool.pagination).map((p) => p.name);
    for (const b of basePaging) out.set(b, { kind: 'paging', style: tool.pagination.style, keys });
  }
  return out;
}

function ref(t: { name: string; method?: HttpMethod; path?: string }): ApiToolRef {
  const out: ApiToolRef = { name: t.name };
  if (t.method !== undefined) out.method = t.method;
  if (t.path !== undefined) out.path = t.path;
  return out;
}

function retiredRef(r: ApiRetired): ApiRetiredRef {
  const out: ApiRetiredRef = { operation: r.operation, successor: r.successor };
  if (r.name !== undefined) out.name = r.name;
  if (r.method !== undefined) out.method = r.method;
  if (r.path !== undefined) out.path = r.path;
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from `base` to `other` (see the module header). The catalog tells which base parameters an
 * exposed paging style replaced (its operations' `pagination`); without it they are reported as not carried.
 */
export function describeApiDrift(base: ApiSurface, other: ApiSurface, catalog?: ApiCatalog): ApiDrift {
  const operations: string[] = [];
  for (const t of [...base.tools, ...other.tools])
    if (!operations.includes(t.operation)) operations.push(t.operation);
  const drifts: ApiOperationDrift[] = [];
  for (const op of operations) {
    const a = toolForOperation(base, op);
    const b = toolForOperation(other, op);
    const own = catalog ? operationOf(catalog, op)?.pagination : undefined;
    const paging = own && (a?.pagination || b?.pagination) ? basePageParamNames(own) : [];
    const ca = carriers(a, paging);
    const cb = carriers(b, paging);
    const params = [...new Set([...ca.keys(), ...cb.keys()])]
      .map((k) => ({ base: k, from: ca.get(k) ?? null, to: cb.get(k) ?? null }))
      .filter((c) => !same(c.from, c.to));
    const d: ApiOperationDrift = {
      operation: op,
      from: a ? ref(a) : null,
      to: b ? ref(b) : null,
      renamed: a !== undefined && b !== undefined && a.name !== b.name,
      moved: a !== undefined && b !== undefined && (a.method !== b.method || a.path !== b.path),
      params,
      pagination: same(a?.pagination ?? null, b?.pagination ?? null)
        ? null
        : { from: a?.pagination ?? null, to: b?.pagination ?? null },
      lifecycle:
        a && b && !same(a.lifecycle, b.lifecycle)
          ? { from: { ...a.lifecycle }, to: { ...b.lifecycle } }
          : null,
      alsoServedBy: other.tools
        .filter((t) => t.operation === op && t !== b)
        .map((t) => ({ ...ref(t), lifecycle: { ...t.lifecycle } })),
    };
    const changed =
      d.renamed ||
      d.moved ||
      d.params.length > 0 ||
      d.pagination !== null ||
      d.lifecycle !== null ||
      d.alsoServedBy.length > 0 ||
      !a ||
      !b;
    if (changed) drifts.push(d);
  }
  const key = (r: ApiRetired) => `${r.name ?? ''} ${r.method ?? ''} ${r.path ?? ''}`;
  const baseKeys = new Set(base.retired.map(key));
  const otherKeys = new Set(other.retired.map(key));
  return {
    base: base.id,
    surface: other.id,
    drift: other.drift ? { seed: other.drift.seed, kinds: [...other.drift.kinds] } : null,
    operations: drifts,
    response: same(base.response, other.response)
      ? null
      : { from: structuredClone(base.response), to: structuredClone(other.response) },
    retired: {
      added: other.retired.filter((r) => !baseKeys.has(key(r))).map(retiredRef),
      removed: base.retired.filter((r) => !otherKeys.has(key(r))).map(retiredRef),
    },
  };
}
