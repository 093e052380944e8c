import { describe, expect, it } from 'vitest';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { apiSurfaceProblems } from '../../../core/apis/surface/validity.ts';
import {
  lifecycleAt,
  nextDueAfter,
  nextRelease,
  parseStreamRef,
  type Release,
  type ReleaseTimes,
  releaseAt,
  releaseInForce,
  releasesUpTo,
  type StreamBase,
  streamSchedule,
  sunsetFor,
} from '../../../core/streams/index.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { driftProblems } from '../../../core/surfaces/drift/validity.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { resolveSchedule } from '../../../core/surfaces/schedule.ts';
import { tmdbCatalog } from '../apis/support/catalogs.ts';

const KERNEL: StreamBase = { kind: 'kernel', base: PC_SURFACE };
const spec = (
  seed: string,
  intensity: Record<string, number> = { 'rename-tool': 2, 'rename-params': 1 },
) => ({
  id: 's1',
  seed,
  intensity,
});

describe('kernel streams', () => {
  const releases = releasesUpTo(spec('7'), KERNEL, 8);

  it('same seed → deep-equal releases and diffs; another seed → other releases', () => {
    expect(releasesUpTo(spec('7'), KERNEL, 8)).toEqual(releases);
    const other = releasesUpTo(spec('8'), KERNEL, 8);
    expect(other.map((r) => r.surface.tools.map((t) => t.name))).not.toEqual(
      releases.map((r) => r.surface.tools.map((t) => t.name)),
    );
    // releaseAt and nextRelease from a stored predecessor agree with the whole derivation
    expect(releaseAt(spec('7'), KERNEL, 5)).toEqual(releases[5]);
    expect(nextRelease(spec('7'), KERNEL, (releases[5] as Release).surface, 6)).toEqual(releases[6]);
  });

  it('each release makes the configured number of changes per kind, valid, named after the stream', () => {
    expect(releases[0]).toEqual({ n: 0, surface: PC_SURFACE, diff: null });
    for (const r of releases.slice(1)) {
      const surface = r.surface as Surface;
      expect(surface.id).toBe(`stream-s1-r${r.n}`);
      expect(surface.derivedFrom).toBe(r.n === 1 ? 'pc' : `stream-s1-r${r.n - 1}`);
      expect(driftProblems(surface)).toEqual([]);
      // rename-tool ×2: exactly two tool names change per release, and the old names are the retired ones
      expect(r.diff?.applied['rename-tool']).toBe(2);
      expect(r.diff?.retired).toHaveLength(2);
      const prev = (releases[r.n - 1] as Release).surface as Surface;
      for (const d of r.diff?.retired ?? []) {
        expect(prev.tools.map((t) => t.name)).toContain(d.name);
        expect(surface.tools.find((t) => t.kernel === d.target)?.name).toBe(d.successor);
        expect(surface.retired.find((x) => x.name === d.name)?.successor).toBe(d.successor);
      }
      expect(r.diff?.added.sort()).toEqual((r.diff?.retired ?? []).map((d) => d.successor).sort());
      expect(r.diff?.applied['rename-params']).toBe(1);
      // untouched tools are carried over as they were
      const touched = new Set(r.diff?.changed.map((c) => c.target));
      for (const t of prev.tools.filter((x) => !touched.has(x.kernel)))
        expect(surface.tools.find((x) => x.kernel === t.kernel)).toEqual(t);
    }
  });

  it('refuses a kind the backend does not know, naming the known ones', () => {
    expect(() => releaseAt(spec('7', { 'rename-path': 1 }), KERNEL, 1)).toThrow(
      /unknown drift kinds rename-path; known: rename-tool/,
    );
  });
});

describe('a stream over an imported API (TMDB)', async () => {
  const tmdb = await tmdbCatalog();
  const base: StreamBase = { kind: 'api', base: baseApiSurface('tmdb', tmdb), catalog: tmdb };
  const api = {
    id: 'tm',
    seed: '3',
    intensity: { 'rename-operation': 2, 'rename-path': 1, 'deprecate-operation': 1 },
  };
  const releases = releasesUpTo(api, base, 4);

  it('derives valid API surfaces deterministically, with the diff of each release', () => {
    expect(releasesUpTo(api, base, 4)).toEqual(releases);
    for (const r of releases.slice(1)) {
      const surface = r.surface as ApiSurface;
      expect(surface).toMatchObject({ backend: 'api', api: 'tmdb', id: `stream-tm-r${r.n}` });
      expect(apiSurfaceProblems(surface, tmdb)).toEqual([]);
      expect(r.diff?.applied['rename-operation']).toBe(2);
      expect(r.diff?.retired.length).toBeGreaterThanOrEqual(2);
      for (const d of r.diff?.retired ?? []) expect(d.successor).not.toBeNull();
      // deprecate-operation's kept tools are left to the stream's window: nothing is deprecated without an end
      expect(surface.tools.filter((t) => t.lifecycle.status !== 'active')).toEqual([]);
    }
    const other = releasesUpTo({ ...api, seed: '4' }, base, 4);
    expect(other.map((r) => r.diff?.changed)).not.toEqual(releases.map((r) => r.diff?.changed));
  });

  it('a retired name answers from its sunset on, naming its successor', () => {
    const hour = 3_600_000;
    const times: ReleaseTimes[] = releases.map((r) => ({
      n: r.n,
      surfaceId: r.surface.id,
      releasedAt: r.n * 10 * hour,
      sunsetAt: r.n === 0 ? null : r.n * 10 * hour + 2 * hour,
    }));
    const surfaces = new Map(releases.map((r) => [r.surface.id, r.surface]));
    const dropped = releases[1]?.diff?.retired[0];
    if (!dropped) throw new Error('release 1 dropped nothing');
    const during = lifecycleAt('tm', times, surfaces, 10 * hour + 1, 1);
    expect(during.deprecated.find((d) => d.name === dropped.name)).toMatchObject({
      successor: dropped.successor,
      sunsetAt: new Date(12 * hour).toISOString(),
    });
    const after = lifecycleAt('tm', times, surfaces, 12 * hour, 1);
    expect(after.deprecated.find((d) => d.name === dropped.name)).toBeUndefined();
    expect(after.gone.find((g) => g.name === dropped.name || g.route === dropped.route)?.successor).toBe(
      dropped.successor,
    );
  });
});

describe('the timeline', () => {
  const releases = releasesUpTo(spec('7'), KERNEL, 3);
  const day = 86_400_000;
  const t0 = Date.parse('2026-03-02T09:00:00Z');
  const times: ReleaseTimes[] = releases.map((r) => ({
    n: r.n,
    surfaceId: r.surface.id,
    releasedAt: t0 + r.n * 7 * day,
    sunsetAt: r.n === 0 ? null : t0 + r.n * 7 * day + 14 * day,
  }));
  const surfaces = new Map(releases.map((r) => [r.surface.id, r.surface]));

  it('due times of a cron or interval cadence; sunsets a window of releases or seconds away', () => {
    expect(nextDueAfter({ everySeconds: 3600 }, t0, t0)).toBe(t0 + 3_600_000);
    expect(nextDueAfter({ everySeconds: 3600 }, t0, t0 + 5_000_000)).toBe(t0 + 7_200_000);
    expect(nextDueAfter({ cron: '0 9 * * 1' }, 0, t0)).toBe(t0 + 7 * day); // 2026-03-02 is a Monday
    expect(sunsetFor({ releases: 2 }, { cron: '0 9 * * 1' }, 0, t0)).toBe(t0 + 14 * day);
    expect(sunsetFor({ releases: 2 }, { everySeconds: 86_400 }, t0, t0 + 1000)).toBe(t0 + 2 * day);
    expect(sunsetFor({ seconds: 60 }, { everySeconds: 86_400 }, t0, t0)).toBe(t0 + 60_000);
    expect(sunsetFor({ releases: 0 }, { everySeconds: 86_400 }, t0, t0)).toBeNull();
    expect(sunsetFor({ seconds: 0 }, { everySeconds: 86_400 }, t0, t0)).toBeNull();
  });

  it('the release in force, and the schedule sessions play', () => {
    expect(releaseInForce(times, t0 - 1)).toBe(0);
    expect(releaseInForce(times, t0 + 7 * day)).toBe(1);
    expect(releaseInForce(times, t0 + 100 * day)).toBe(3);
    const schedule = streamSchedule('s1', times, 2);
    expect(schedule.stages.map((s) => s.surface)).toEqual(['pc', 'stream-s1-r1', 'stream-s1-r2']);
    expect(schedule.stages[0]).not.toHaveProperty('sunsetAt');
    expect(schedule.stages[1]?.sunsetAt).toBe(new Date(t0 + 21 * day).toISOString());
    // exactly the drift-schedule resolution
    const at = new Date(t0 + 15 * day);
    expect(resolveSchedule(schedule, surfaces as Map<string, Surface>, at).stageIndex).toBe(2);
  });

  it('names a release drops are deprecated through its window, then gone naming the successor', () => {
    const dropped = releases[1]?.diff?.retired ?? [];
    expect(dropped.length).toBe(2);
    const during = lifecycleAt('s1', times, surfaces, t0 + 7 * day + 1);
    expect(during.release).toBe(1);
    for (const d of dropped) {
      expect(during.deprecated).toContainEqual({
        name: d.name,
        successor: d.successor,
        deprecatedAt: new Date(t0 + 7 * day).toISOString(),
        sunsetAt: new Date(t0 + 21 * day).toISOString(),
      });
      expect(during.gone.map((g) => g.name)).not.toContain(d.name);
    }
    const after = lifecycleAt('s1', times, surfaces, t0 + 21 * day);
    for (const d of dropped) {
      expect(after.deprecated.map((x) => x.name)).not.toContain(d.name);
      const gone = after.gone.find((g) => g.name === d.name);
      // the successor is today's tool for the same kernel tool (release 3 may have renamed it again)
      const today = ((releases[3] as Release).surface as Surface).tools.find(
        (t) => t.kernel === d.target,
      )?.name;
      expect(gone?.successor).toBe(today);
      expect(gone?.message).toContain(today as string);
    }
  });

  it('parses stream surface names', () => {
    expect(parseStreamRef('stream:ab12')).toEqual({ stream: 'ab12', release: null });
    expect(parseStreamRef('stream:ab12@0')).toEqual({ stream: 'ab12', release: 0 });
    expect(parseStreamRef('stream:ab12@17')).toEqual({ stream: 'ab12', release: 17 });
    for (const bad of ['stream:', 'stream:AB', 'stream:ab@', 'stream:ab@01', 'stream:ab@-1', 'pc'])
      expect(parseStreamRef(bad)).toBeNull();
  });
});
