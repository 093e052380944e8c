/**
 * Docs that follow drift (issue 16): which tools of a documentation set must be re-documented when the surface a
 * watch follows changes — a schedule moving to a new stage, or a surface generated or edited. A surface's API is
 * fingerprinted per kernel tool (the served tool's name, parameters, flags, prefixes and lifecycle, and the
 * response format); the tools whose fingerprint changed since the last documented one are re-documented, and
 * the change's fingerprint hash makes the re-documentation's idempotency key (once per change).
 *
 * An imported API's surface (issue 23 §2) is fingerprinted per base operation the same way — the tool serving it
 * (name, route, parameters, paging, lifecycle), the names and routes it retired, and the response shape — and
 * the changed operations map to the documentation keys of the docs surface's tools serving them.
 */
import { type ApiSurface, isApiSurface } from '../apis/surface/model.ts';
import { resolveApiSchedule } from '../apis/surface/schedule.ts';
import { servedTools } from '../apis/surface/tools.ts';
import type { Surface } from '../surfaces/model.ts';
import { resolveSchedule, type Schedule, type SurfaceLookup } from '../surfaces/schedule.ts';
import { hash128 } from '../util/random.ts';
import { categoryOf, explored } from './docset.ts';

/** Kernel tool (or an API's base operation) → a hash of how the surface serves it (absent: not served). */
export type Fingerprint = Record<string, string>;

function hex(text: string): string {
  return hash128(text)
    .map((x) => x.toString(16).padStart(8, '0'))
    .join('');
}

export function surfaceFingerprint(surface: Surface): Fingerprint {
  const out: Fingerprint = {};
  const response = JSON.stringify(surface.response);
  for (const t of surface.tools) {
    if (out[t.kernel] !== undefined) continue; // the first tool of a kernel serves it (translate.ts)
    const { kernel: _kernel, ...api } = t;
    out[t.kernel] = hex(`${response}\u0000${JSON.stringify(api)}`);
  }
  return out;
}

/** An API surface's fingerprint: base operation → how the surface serves it (see the module header). */
export function apiSurfaceFingerprint(surface: ApiSurface): Fingerprint {
  const out: Fingerprint = {};
  const response = JSON.stringify(surface.response);
  for (const t of surface.tools) {
    if (out[t.operation] !== undefined) continue; // the first tool of an operation serves it
    const retired = surface.retired.filter((r) => r.operation === t.operation);
    out[t.operation] = hex(`${response}\u0000${JSON.stringify(t)}\u0000${JSON.stringify(retired)}`);
  }
  return out;
}

/** The documentation keys (tool names of the API docs surface) of the tools serving the given operations. */
export function keysForOperations(
  docs: ApiSurface,
  operations: readonly string[],
  only?: readonly string[],
): string[] {
  return servedTools(docs)
    .filter((t) => operations.includes(t.operation))
    .map((t) => t.name)
    .filter((name) => only === undefined || only.includes(name));
}

/** Kernel tools whose fingerprint differs (every one when there is no previous fingerprint). */
export function changedKernels(previous: Fingerprint | null, next: Fingerprint): string[] {
  const kernels = new Set([...Object.keys(next), ...Object.keys(previous ?? {})]);
  return [...kernels].filter((k) => previous === null || previous[k] !== next[k]).sort();
}

/** The documentation keys (tool names of the docs surface) of explorable tools over the given kernel tools. */
export function keysForKernels(
  docs: Surface,
  kernels: readonly string[],
  only?: readonly string[],
): string[] {
  return docs.tools
    .filter((t) => kernels.includes(t.kernel) && explored(categoryOf(t)))
    .map((t) => t.name)
    .filter((name) => only === undefined || only.includes(name));
}

/** The idempotency key of one change seen by one watch. */
export function followTrigger(watchId: string, fingerprint: Fingerprint): string {
  const sorted = Object.keys(fingerprint)
    .sort()
    .map((k) => `${k}=${fingerprint[k]}`)
    .join(';');
  return `watch:${watchId}:${hex(sorted)}`;
}

/**
 * The surface id a watch follows at `now`: its surface, or its schedule's stage in force (a schedule of kernel
 * surfaces, or of one API's surfaces).
 */
export function watchedSurfaceId(
  target: { surface: string } | { schedule: Schedule },
  surfaces: SurfaceLookup | ReadonlyMap<string, ApiSurface>,
  now: Date,
): string {
  if ('surface' in target) return target.surface;
  const first = surfaces instanceof Map ? [...surfaces.values()][0] : Object.values(surfaces)[0];
  const resolved =
    first !== undefined && isApiSurface(first)
      ? resolveApiSchedule(target.schedule, surfaces as ReadonlyMap<string, ApiSurface>, now)
      : resolveSchedule(target.schedule, surfaces as SurfaceLookup, now);
  return target.schedule.stages[resolved.stageIndex]!.surface;
}
