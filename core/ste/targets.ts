/**
 * Which tools an STE run explores. By default every tool the server surface serves except Finish and UpdateTool
 * (they answer and take notes; there is nothing to imagine a query for). Drift-aware continual learning targets
 * only the tools that changed since an earlier surface (the structured diff of core/surfaces/drift.ts): a tool
 * whose name, parameters, flags, prefixes, key handling or lifecycle differ — and every tool when the response
 * format changed, since every observation then reads differently. An imported API's surface (`ApiSurface`) is
 * targeted the same way: every served operation, or those whose tool changed since an earlier surface
 * (`describeApiDrift`: renamed, moved, parameters carried differently, paging, lifecycle) — all of them when the
 * response shape changed.
 */
import { describeApiDrift } from '../apis/surface/diff.ts';
import { type ApiSurface, isApiSurface } from '../apis/surface/model.ts';
import { servedTools } from '../apis/surface/tools.ts';
import { toolStatus } from '../surfaces/adapter.ts';
import { describeDrift } from '../surfaces/drift/diff.ts';
import type { Surface } from '../surfaces/model.ts';
import { hash128 } from '../util/random.ts';

const NOT_EXPLORED = new Set(['Finish', 'UpdateTool']);

export function exploredTools(surface: Surface | ApiSurface, now?: Date): string[] {
  if (isApiSurface(surface)) return servedTools(surface, now).map((t) => t.name);
  return surface.tools
    .filter((t) => !NOT_EXPLORED.has(t.kernel) && toolStatus(t, now) !== 'sunset')
    .map((t) => t.name);
}

/** The tools of `surface` an STE run should explore, all of them or only those changed since `since`. */
export function steTargetTools(surface: Surface, opts?: { since?: Surface; now?: Date }): string[];
export function steTargetTools(surface: ApiSurface, opts?: { since?: ApiSurface; now?: Date }): string[];
export function steTargetTools(
  surface: Surface | ApiSurface,
  opts: { since?: Surface | ApiSurface; now?: Date } = {},
): string[] {
  const all = exploredTools(surface, opts.now);
  if (!opts.since) return all;
  if (isApiSurface(surface)) {
    if (!isApiSurface(opts.since))
      throw new TypeError('an API surface changes only since a surface of its API');
    const drift = describeApiDrift(opts.since, surface);
    if (drift.response !== null) return all;
    const changed = new Set<string>();
    for (const o of drift.operations) {
      if (o.to !== null) changed.add(o.to.name);
      for (const t of o.alsoServedBy) changed.add(t.name);
    }
    return all.filter((name) => changed.has(name));
  }
  if (isApiSurface(opts.since)) throw new TypeError('a kernel surface changes only since a kernel surface');
  const drift = describeDrift(opts.since, surface);
  if (drift.response !== null) return all;
  const changed = new Set<string>();
  for (const t of drift.tools) if (t.to !== null) changed.add(t.to);
  for (const t of drift.lifecycle.tools) changed.add(t.name);
  return all.filter((name) => changed.has(name));
}

/** A surface's version: the hash of its JSON (exemplars belong to the surface as it was when explored). */
export function surfaceVersion(surface: Surface | ApiSurface): string {
  return hash128(JSON.stringify(surface))
    .map((x) => x.toString(16).padStart(8, '0'))
    .join('')
    .slice(0, 16);
}
