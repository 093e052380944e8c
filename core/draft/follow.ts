/**
 * Docs that follow drift (issue 16): which tools of a documentation set must be re-documented when the surface a
 * watch follows changes — a schedule moving to a new stage, or a surface generated or edited. A surface's API is
 * fingerprinted per kernel tool (the served tool's name, parameters, flags, prefixes and lifecycle, and the
 * response format); the tools whose fingerprint changed since the last documented one are re-documented, and
 * the change's fingerprint hash makes the re-documentation's idempotency key (once per change).
 */
import type { Surface } from '../surfaces/model.ts';
import { resolveSchedule, type Schedule, type SurfaceLookup } from '../surfaces/schedule.ts';
import { hash128 } from '../util/random.ts';
import { categoryOf, explored } from './docset.ts';

/** Kernel tool → a hash of how the surface serves it (absent: not served). */
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

/** The surface id a watch follows at `now`: its surface, or its schedule's stage in force. */
export function watchedSurfaceId(
  target: { surface: string } | { schedule: Schedule },
  surfaces: SurfaceLookup,
  now: Date,
): string {
  if ('surface' in target) return target.surface;
  const resolved = resolveSchedule(target.schedule, surfaces, now);
  return target.schedule.stages[resolved.stageIndex]!.surface;
}
