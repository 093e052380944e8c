/**
 * The two kinds of surface a stream can drift, as one small model each: how the generator drafts a candidate from
 * the previous release with one kind, which *units* (a kernel tool, an API operation, or the response format) a
 * candidate changed, how a release takes over some units of a candidate and keeps the rest, whether the result
 * is valid, and what changed against the previous release. `release.ts` writes the derivation once over this.
 */
import { generateApiSurface } from '../apis/drift/generate.ts';
import { describeApiDrift } from '../apis/surface/diff.ts';
import type { ApiRetired, ApiSurface, ApiTool } from '../apis/surface/model.ts';
import { routeText } from '../apis/surface/route.ts';
import { toolForOperation } from '../apis/surface/tools.ts';
import { apiSurfaceProblems } from '../apis/surface/validity.ts';
import type { ApiCatalog } from '../apis/types.ts';
import { describeDrift } from '../surfaces/drift/diff.ts';
import { generateSurface } from '../surfaces/drift/generate.ts';
import { isDomain } from '../surfaces/drift/kernel-facts.ts';
import { driftProblems } from '../surfaces/drift/validity.ts';
import type { RetiredName, Surface, SurfaceTool } from '../surfaces/model.ts';
import { toolForKernel } from '../surfaces/translate.ts';
import type { DroppedName } from './model.ts';

/** The unit a response-format change is counted as. */
export const RESPONSE_UNIT = '(response)';

export interface ReleaseModel<S> {
  /** A candidate: the generator applied to `prev` with one kind (all the units that kind changes). */
  draft(prev: S, kind: string, seed: string, id: string): S;
  /** The units a kind may change, in the surface's order (targets, then the response). */
  units(s: S): string[];
  /** Every target (kernel tool or operation) the surface serves, for diffs. */
  targets(s: S): string[];
  /** Whether `unit` differs between two surfaces. */
  differs(a: S, b: S, unit: string): boolean;
  /** `prev` with `picked` units taken from `candidate`. */
  compose(prev: S, candidate: S, picked: ReadonlySet<string>): S;
  problems(s: S): string[];
  /** Names (or routes) `prev` served that `cur` does not, with their successor on `cur`. */
  dropped(prev: S, cur: S): DroppedName[];
  /** Tool names of a surface. */
  names(s: S): string[];
  /** The backend's own full diff. */
  detail(prev: S, cur: S): unknown;
  /** Which tool serves a unit (for the diff's from/to). */
  toolName(s: S, unit: string): string | null;
}

const json = (x: unknown) => JSON.stringify(x);

// ---------------------------------------------------------------------------------------------------------------
// The kernel's surfaces

const kernelTools = (s: Surface, kernel: string) => s.tools.filter((t) => t.kernel === kernel);

export const KERNEL_RELEASES: ReleaseModel<Surface> = {
  draft: (prev, kind, seed, id) => generateSurface(prev, { seed, kinds: [kind], id }),
  // Finish and UpdateTool are never drifted (the generator keeps them); UpdateTool's example follows LoadDB.
  units(s) {
    const out: string[] = [];
    for (const t of s.tools) if (isDomain(t.kernel) && !out.includes(t.kernel)) out.push(t.kernel);
    return [...out, RESPONSE_UNIT];
  },
  targets: (s) => [...new Set(s.tools.map((t) => t.kernel))],
  differs: (a, b, unit) =>
    unit === RESPONSE_UNIT
      ? json(a.response) !== json(b.response)
      : json(kernelTools(a, unit)) !== json(kernelTools(b, unit)),
  compose(prev, candidate, picked) {
    // UpdateTool's example names the database loader (generate.ts keeps it pointing at the served one), so it
    // follows LoadDB.
    const takes = (kernel: string) => picked.has(kernel) || (kernel === 'UpdateTool' && picked.has('LoadDB'));
    const tools: SurfaceTool[] = [];
    for (const t of prev.tools) {
      if (!takes(t.kernel)) tools.push(t);
      else if (toolForKernel(prev, t.kernel) === t) tools.push(...kernelTools(candidate, t.kernel));
    }
    const retired: RetiredName[] = [
      ...prev.retired.filter((r) => !takes(r.kernel)),
      ...candidate.retired.filter((r) => takes(r.kernel)),
    ];
    return {
      ...prev,
      tools: structuredClone(tools),
      retired: structuredClone(retired),
      response: structuredClone(picked.has(RESPONSE_UNIT) ? candidate.response : prev.response),
    };
  },
  problems: (s) => driftProblems(s),
  dropped(prev, cur) {
    const served = new Set(cur.tools.map((t) => t.name));
    return prev.tools
      .filter((t) => !served.has(t.name))
      .map((t) => ({
        name: t.name,
        target: t.kernel,
        successor: toolForKernel(cur, t.kernel)?.name ?? null,
      }));
  },
  names: (s) => s.tools.map((t) => t.name),
  detail: (prev, cur) => describeDrift(prev, cur),
  toolName: (s, unit) => (unit === RESPONSE_UNIT ? null : (toolForKernel(s, unit as never)?.name ?? null)),
};

// ---------------------------------------------------------------------------------------------------------------
// Imported APIs' surfaces

const opTools = (s: ApiSurface, op: string) => s.tools.filter((t) => t.operation === op);
const routeOf = (t: ApiTool) =>
  t.method !== undefined && t.path !== undefined ? routeText(t.method, t.path) : undefined;
const apiKey = (t: ApiTool) => `${t.name}\u0000${routeOf(t) ?? ''}`;

export function apiReleases(catalog: ApiCatalog): ReleaseModel<ApiSurface> {
  return {
    draft: (prev, kind, seed, id) => generateApiSurface(prev, catalog, { seed, kinds: [kind], id }),
    units(s) {
      const out: string[] = [];
      for (const t of s.tools) if (!out.includes(t.operation)) out.push(t.operation);
      return [...out, RESPONSE_UNIT];
    },
    targets: (s) => [...new Set(s.tools.map((t) => t.operation))],
    differs: (a, b, unit) =>
      unit === RESPONSE_UNIT
        ? json(a.response) !== json(b.response)
        : json(opTools(a, unit)) !== json(opTools(b, unit)),
    compose(prev, candidate, picked) {
      const tools: ApiTool[] = [];
      const done = new Set<string>();
      for (const t of prev.tools) {
        if (!picked.has(t.operation)) tools.push(t);
        else if (!done.has(t.operation)) {
          done.add(t.operation);
          // `deprecate-operation` keeps the old tool beside its successor, deprecated without an end; in a stream
          // every dropped tool is deprecated for the stream's window (the schedule's rules), so it is dropped here
          // and the window, its Sunset header and its 410 after the sunset apply to it like to any other.
          const before = new Set(opTools(prev, t.operation).map(apiKey));
          tools.push(
            ...opTools(candidate, t.operation).filter(
              (c) =>
                !(
                  c.lifecycle.status === 'deprecated' &&
                  c.lifecycle.sunsetAt === undefined &&
                  before.has(apiKey(c))
                ),
            ),
          );
        }
      }
      const retired: ApiRetired[] = [
        ...prev.retired.filter((r) => !picked.has(r.operation)),
        ...candidate.retired.filter((r) => picked.has(r.operation)),
      ];
      return {
        ...prev,
        tools: structuredClone(tools),
        retired: structuredClone(retired),
        response: structuredClone(picked.has(RESPONSE_UNIT) ? candidate.response : prev.response),
      };
    },
    problems: (s) => apiSurfaceProblems(s, catalog),
    dropped(prev, cur) {
      const served = new Set(cur.tools.map(apiKey));
      return prev.tools
        .filter((t) => !served.has(apiKey(t)))
        .map((t) => {
          const route = routeOf(t);
          return {
            name: t.name,
            ...(route !== undefined ? { route } : {}),
            target: t.operation,
            successor: toolForOperation(cur, t.operation)?.name ?? null,
          };
        });
    },
    names: (s) => s.tools.map((t) => t.name),
    detail: (prev, cur) => describeApiDrift(prev, cur, catalog),
    toolName: (s, unit) => (unit === RESPONSE_UNIT ? null : (toolForOperation(s, unit)?.name ?? null)),
  };
}
