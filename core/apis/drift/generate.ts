/**
 * The API drift generator: from an API surface (usually the API's base surface), its catalog, a seed and a set
 * of drift kinds it derives a new surface in front of the same operations. It drafts one tool per operation (the
 * tool `toolForOperation` picks on the base), lets the active kinds (`kinds/`) reshape the drafts and the
 * response shape in their `order`, then settles the lifecycle and checks the result with `apiSurfaceProblems`.
 *
 * - Determinism: the surface is a function of (base, catalog, seed, kinds, window), drawn only from `Rng`; the
 *   kinds are a set (order and repeats do not matter) and each draws from its own forks, so adding a kind never
 *   changes what the others chose. Same input → deep-equal surface.
 * - Lifecycle: drafted tools keep their base tool's lifecycle. A base tool whose name or route the new surface no
 *   longer serves leaves a retired entry (the old name and/or route, 410) naming its successor's call and route;
 *   the base's own retired entries follow their successor. A tool `deprecate-operation` keeps stays served
 *   beside its successor, deprecated (within `window` when given), and answers 410 after the sunset.
 * - Validity: every generated surface passes `apiSurfaceProblems`; the generator throws otherwise.
 */
import { hash128, Rng, type Seed } from '../../util/random.ts';
import type { ApiRetired, ApiSurface, ApiTool } from '../surface/model.ts';
import { routeShape } from '../surface/route.ts';
import { retiredMessage, toolCallText, toolForOperation } from '../surface/tools.ts';
import { apiSurfaceProblems } from '../surface/validity.ts';
import type { ApiCatalog } from '../types.ts';
import type { ApiDriftWork, ApiToolDraft } from './kind.ts';
import {
  type ApiDriftKind,
  apiDriftKindSummary,
  apiDriftSequence,
  normalizeApiDriftKinds,
} from './kinds/index.ts';

export interface ApiDriftOptions {
  seed: Seed;
  /** A set of API drift kinds; order and repeats do not matter. */
  kinds: readonly string[];
  /** Default: `apiDriftSurfaceId(base, seed, kinds)`. */
  id?: string;
  title?: string;
  /** The deprecation window of the tools `deprecate-operation` keeps (ISO 8601 dates). */
  window?: { deprecatedAt: string; sunsetAt: string };
}

/** The default id: `{base}-drift-{8 hex digits of a hash of base, seed and kinds}`. */
export function apiDriftSurfaceId(base: ApiSurface, seed: Seed, kinds: readonly string[]): string {
  const [h] = hash128(
    `api\u0000${base.id}\u0000${String(seed)}\u0000${normalizeApiDriftKinds(kinds).join(',')}`,
  );
  return `${base.id}-drift-${h.toString(16).padStart(8, '0')}`;
}

function sameRoute(a: { method?: string; path?: string }, b: { method?: string; path?: string }): boolean {
  return (
    a.method === b.method &&
    (a.path === undefined) === (b.path === undefined) &&
    (a.path === undefined || routeShape(a.path) === routeShape(b.path as string))
  );
}

function toolOf(d: ApiToolDraft, lifecycle: ApiTool['lifecycle']): ApiTool {
  const tool: ApiTool = {
    operation: d.op.name,
    name: d.name,
    params: d.params,
    description: d.base.description,
    lifecycle,
  };
  if (d.method !== undefined) tool.method = d.method;
  if (d.path !== undefined) tool.path = d.path;
  if (d.pagination) tool.pagination = d.pagination;
  if (d.base.summary !== undefined) tool.summary = d.base.summary;
  return tool;
}

/** Derives a drifted surface from `base` (see the module header). */
export function generateApiSurface(
  base: ApiSurface,
  catalog: ApiCatalog,
  options: ApiDriftOptions,
): ApiSurface {
  const kinds: ApiDriftKind[] = normalizeApiDriftKinds(options.kinds);
  const seed = String(options.seed);
  const root = new Rng(`api-drift/${seed}`);
  if (options.window && !(Date.parse(options.window.sunsetAt) > Date.parse(options.window.deprecatedAt)))
    throw new RangeError('api drift: window.sunsetAt must be a date after window.deprecatedAt');

  const drafts: ApiToolDraft[] = [];
  for (const op of catalog.operations) {
    const primary = toolForOperation(base, op.name);
    if (!primary) continue;
    const draft: ApiToolDraft = {
      base: primary,
      op,
      name: primary.name,
      params: structuredClone(primary.params),
    };
    if (primary.method !== undefined) draft.method = primary.method;
    if (primary.path !== undefined) draft.path = primary.path;
    if (primary.pagination) draft.pagination = structuredClone(primary.pagination);
    drafts.push(draft);
  }
  const work: ApiDriftWork = {
    base,
    catalog,
    kinds,
    root,
    tools: drafts,
    response: structuredClone(base.response),
  };
  for (const kind of apiDriftSequence(kinds)) kind.apply(work);

  const tools: ApiTool[] = [];
  const successorOf = new Map<string, ApiTool>();
  for (const d of drafts) {
    const tool = toolOf(d, d.keepOld ? { status: 'active' } : structuredClone(d.base.lifecycle));
    tools.push(tool);
    successorOf.set(d.op.name, tool);
    if (d.keepOld) {
      tools.push({
        ...structuredClone(d.base),
        lifecycle: { status: 'deprecated', successor: tool.name, ...(options.window ?? {}) },
      });
    }
  }

  const servedNames = new Set(tools.map((t) => t.name));
  const servedRoute = (r: { method?: string; path?: string }) =>
    tools.some((t) => t.method !== undefined && sameRoute(t, r));
  const retired: ApiRetired[] = [];
  for (const entry of base.retired) {
    const successor = successorOf.get(entry.operation);
    if (!successor) continue;
    const name = entry.name !== undefined && !servedNames.has(entry.name) ? entry.name : undefined;
    const route =
      entry.method !== undefined && entry.path !== undefined && !servedRoute(entry)
        ? { method: entry.method, path: entry.path }
        : undefined;
    if (name === undefined && route === undefined) continue;
    const before = base.tools.find((t) => t.name === entry.successor);
    const unchanged = before !== undefined && toolCallText(before) === toolCallText(successor);
    retired.push({
      ...(name !== undefined ? { name } : {}),
      ...(route ?? {}),
      operation: entry.operation,
      successor: successor.name,
      message: unchanged ? entry.message : retiredMessage(entry, successor),
    });
  }
  const kept = new Set(drafts.filter((d) => d.keepOld).map((d) => d.base));
  for (const old of base.tools) {
    const successor = successorOf.get(old.operation);
    if (!successor || kept.has(old)) continue;
    const nameGone = !servedNames.has(old.name);
    const routeGone = old.method !== undefined && old.path !== undefined && !servedRoute(old);
    if (!nameGone && !routeGone) continue;
    const entry: ApiRetired = {
      operation: old.operation,
      successor: successor.name,
      message: retiredMessage(old, successor),
    };
    if (nameGone) entry.name = old.name;
    if (routeGone) {
      entry.method = old.method;
      entry.path = old.path;
    }
    if (!retired.some((r) => r.name === entry.name && r.method === entry.method && r.path === entry.path))
      retired.push(entry);
  }

  const id = options.id ?? apiDriftSurfaceId(base, seed, kinds);
  const surface: ApiSurface = {
    id,
    backend: base.backend,
    api: base.api,
    title: options.title ?? `${base.title}, drifted (seed ${seed})`,
    description: `Generated from ${base.id} with seed ${seed}: ${kinds.length > 0 ? kinds.map(apiDriftKindSummary).join('; ') : 'no drift'}.`,
    derivedFrom: base.id,
    drift: { seed, kinds: [...kinds] },
    tools,
    retired,
    response: work.response,
  };
  const problems = apiSurfaceProblems(surface, catalog);
  if (problems.length > 0)
    throw new Error(`api drift: generated surface ${id} is invalid: ${problems.join('; ')}`);
  return surface;
}
