/**
 * Deriving a stream's releases. Release 0 is the base surface (the kernel's `pc` or another kernel surface, an
 * imported API as imported). Release n is derived from release n−1, one kind at a time in the generator's
 * canonical order: the generator drafts a candidate from the surface so far with that kind alone (seed
 * `{stream seed}/release/{n}/{kind}/{attempt}`), the units (kernel tools or API operations, and the response
 * format) the candidate changed are listed in the surface's order, `intensity[kind]` of them are drawn
 * (`Rng('stream/{seed}/release/{n}/{kind}/{attempt}')`), and the surface takes those units over from the
 * candidate — their tools, and the retired names the generator left for their old names — keeping the rest.
 * A composition the validity rules refuse (a new name that another tool still uses) is drawn again with the next
 * attempt; after `MAX_ATTEMPTS` the kind changes nothing in that release.
 *
 * Everything is a function of (base, seed, intensity, n): the same stream spec gives deep-equal releases and
 * diffs in Node and in workerd; nothing here reads a clock (when a release happened is `timeline.ts`'s).
 */
import { API_DRIFT_KINDS } from '../apis/drift/kinds/index.ts';
import { DRIFT_KINDS } from '../surfaces/drift/kinds/index.ts';
import { Rng } from '../util/random.ts';
import { apiReleases, KERNEL_RELEASES, RESPONSE_UNIT, type ReleaseModel } from './backends.ts';
import {
  type Release,
  type ReleaseDiff,
  type ReleaseSurface,
  releaseSurfaceId,
  type StreamBase,
  type StreamSpec,
} from './model.ts';

/** Draws per kind and release before the kind is skipped for that release. */
export const MAX_ATTEMPTS = 6;

function deriveWith<S extends ReleaseSurface>(
  model: ReleaseModel<S>,
  kinds: readonly string[],
  spec: StreamSpec,
  base: S,
  prev: S,
  n: number,
): Release {
  const unknown = Object.keys(spec.intensity).filter((k) => !kinds.includes(k));
  if (unknown.length > 0)
    throw new RangeError(`unknown drift kinds ${unknown.join(', ')}; known: ${kinds.join(', ')}`);
  const id = releaseSurfaceId(spec.id, n, base);
  let surface = prev;
  const applied: Record<string, number> = {};
  for (const kind of kinds) {
    const count = spec.intensity[kind];
    if (count === undefined) continue;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const label = `${spec.seed}/release/${n}/${kind}/${attempt}`;
      const candidate = model.draft(surface, kind, label, id);
      const changed = model.units(surface).filter((u) => model.differs(surface, candidate, u));
      if (changed.length === 0) break;
      const picked = new Rng(`stream/${label}`).sample(changed, count);
      const next = model.compose(surface, candidate, new Set(picked));
      if (model.problems(next).length > 0) continue;
      surface = next;
      applied[kind] = picked.length;
      break;
    }
  }
  const release = {
    ...surface,
    id,
    title: `${base.title}, stream ${spec.id} release ${n}`,
    description: `Release ${n} of drift stream ${spec.id} (seed ${spec.seed}), derived from ${prev.id}: ${
      Object.keys(applied).length > 0
        ? Object.entries(applied)
            .map(([k, c]) => `${k} ×${c}`)
            .join(', ')
        : 'no change'
    }.`,
    derivedFrom: prev.id,
    drift: { seed: spec.seed, kinds: Object.keys(applied) },
  } as S;
  return { n, surface: release, diff: diffWith(model, prev, release, applied) };
}

function diffWith<S extends ReleaseSurface>(
  model: ReleaseModel<S>,
  prev: S,
  cur: S,
  applied: Record<string, number>,
): ReleaseDiff {
  const units = [...new Set([...model.targets(prev), ...model.targets(cur)])];
  const before = new Set(model.names(prev));
  return {
    changed: units
      .filter((u) => model.differs(prev, cur, u))
      .map((u) => ({ target: u, from: model.toolName(prev, u), to: model.toolName(cur, u) })),
    added: [...new Set(model.names(cur).filter((n) => !before.has(n)))],
    retired: model.dropped(prev, cur),
    response: model.differs(prev, cur, RESPONSE_UNIT),
    applied,
    detail: model.detail(prev, cur),
  };
}

/** The model and the kinds (canonical order) of a stream's backend. */
function modelOf(base: StreamBase): { model: ReleaseModel<ReleaseSurface>; kinds: readonly string[] } {
  return base.kind === 'kernel'
    ? { model: KERNEL_RELEASES as ReleaseModel<ReleaseSurface>, kinds: DRIFT_KINDS }
    : { model: apiReleases(base.catalog) as ReleaseModel<ReleaseSurface>, kinds: API_DRIFT_KINDS };
}

/**
 * Release n (n ≥ 1) from release n−1's surface: its surface and its diff against `prev`. This is what a server
 * calls when a stream advances (it stores `prev`, so earlier releases are never derived again).
 */
export function nextRelease(spec: StreamSpec, base: StreamBase, prev: ReleaseSurface, n: number): Release {
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`nextRelease: release ${n} is not a positive integer`);
  const { model, kinds } = modelOf(base);
  return deriveWith(model, kinds, spec, base.base as ReleaseSurface, prev, n);
}

/** Releases 0…n, each derived from the one before (release 0 is the base, without a diff). */
export function releasesUpTo(spec: StreamSpec, base: StreamBase, n: number): Release[] {
  const out: Release[] = [{ n: 0, surface: base.base, diff: null }];
  for (let k = 1; k <= n; k++) out.push(nextRelease(spec, base, (out[k - 1] as Release).surface, k));
  return out;
}

/** Release n of a stream (derived from release 0). */
export function releaseAt(spec: StreamSpec, base: StreamBase, n: number): Release {
  return releasesUpTo(spec, base, n)[n] as Release;
}
