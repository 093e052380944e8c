import { describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { apiMcpTools } from '../../../../core/apis/surface/docs.ts';
import type { ApiTool } from '../../../../core/apis/surface/model.ts';
import { resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { apiDeprecationHeaders, resolveApiSchedule } from '../../../../core/apis/surface/schedule.ts';
import type { Schedule } from '../../../../core/surfaces/schedule.ts';
import { tmdbCatalog } from '../support/catalogs.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);
const v2 = generateApiSurface(base, tmdb, {
  seed: 's',
  kinds: ['rename-operation', 'version-prefix'],
  id: 'tmdb-v2',
});
const surfaces = { tmdb: base, 'tmdb-v2': v2 };
const schedule: Schedule = {
  id: 'tmdb-migration',
  stages: [
    { surface: 'tmdb', effectiveFrom: '2026-01-01' },
    { surface: 'tmdb-v2', effectiveFrom: '2026-02-01', sunsetAt: '2026-03-01' },
  ],
};
const credits = v2.tools.find((t) => t.operation === 'GET_movie-movie_id-credits') as ApiTool;
const get = (surface: typeof base, path: string, now: Date) =>
  resolveApiCall(
    surface,
    tmdb,
    { via: 'http', method: 'GET', path, query: {}, headers: {}, body: undefined },
    { now },
  );

describe('API surfaces over a schedule', () => {
  it('serves the first stage before the second takes over, and says when that happens', () => {
    const r = resolveApiSchedule(schedule, surfaces, new Date('2026-01-15'));
    expect(r.stageIndex).toBe(0);
    expect(r.current).toEqual(base);
    expect(r.nextChangeAt).toEqual(new Date('2026-02-01'));
  });

  it('keeps the old names and routes working, deprecated, inside the window', () => {
    const now = new Date('2026-02-10');
    const r = resolveApiSchedule(schedule, surfaces, now);
    expect(r.stageIndex).toBe(1);
    expect(r.nextChangeAt).toEqual(new Date('2026-03-01'));
    const old = get(r.current, '/movie/550/credits', now);
    expect(old).toMatchObject({
      kind: 'call',
      operation: 'GET_movie-movie_id-credits',
      args: { movie_id: 550 },
      deprecation: {
        tool: 'GET_movie-movie_id-credits',
        status: 'deprecated',
        successor: credits.name,
        deprecatedAt: '2026-02-01T00:00:00.000Z',
        sunsetAt: '2026-03-01T00:00:00.000Z',
      },
    });
    if (old.kind !== 'call' || !old.deprecation) throw new Error('not deprecated');
    expect(
      apiDeprecationHeaders(old.deprecation, { successor: `/tools/${credits.name}`, docs: '/docs' }),
    ).toEqual({
      Deprecation: '@1769904000',
      Sunset: 'Sun, 01 Mar 2026 00:00:00 GMT',
      Link: `</tools/${credits.name}>; rel="successor-version", </docs>; rel="deprecation"`,
    });
    const current = get(r.current, (credits.path as string).replace('{movie_id}', '550'), now);
    expect(current.kind === 'call' && current.operation).toBe('GET_movie-movie_id-credits');
    expect(current.deprecation).toBeUndefined();
    // The agent's tool list carries both during the window; names stay unique.
    const names = apiMcpTools(r.current, { now }).map((t) => t.name);
    expect(names).toContain('GET_movie-movie_id-credits');
    expect(names).toContain(credits.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("answers 410 naming the successor call and route after the sunset (the surface's own retired entries win)", () => {
    const now = new Date('2026-03-01');
    const r = resolveApiSchedule(schedule, surfaces, now);
    expect(r.nextChangeAt).toBeNull();
    for (const old of [
      get(r.current, '/movie/550/credits', now),
      resolveApiCall(r.current, tmdb, { via: 'name', name: 'GET_movie-movie_id-credits', args: {} }, { now }),
    ]) {
      expect(old).toMatchObject({
        kind: 'rejected',
        status: 410,
        reason: 'retired',
        operation: 'GET_movie-movie_id-credits',
      });
      if (old.kind === 'rejected')
        expect(old.message).toBe(
          `GET_movie-movie_id-credits (GET /movie/{movie_id}/credits) is deprecated and is no longer served. Use ${credits.name}[movie_id] (GET ${credits.path}) instead.`,
        );
    }
  });

  it("without sunsetAt retires the old names and routes at once, with the surface's own messages", () => {
    const now = new Date('2026-02-10');
    const atOnce: Schedule = {
      id: 'x',
      stages: [
        schedule.stages[0] as Schedule['stages'][number],
        { surface: 'tmdb-v2', effectiveFrom: '2026-02-01' },
      ],
    };
    const r = resolveApiSchedule(atOnce, new Map(Object.entries(surfaces)), now);
    expect(r.current.tools).toEqual(v2.tools);
    expect(get(r.current, '/movie/550/credits', now)).toMatchObject({ kind: 'rejected', status: 410 });
  });
});

describe('schedule mistakes', () => {
  it('refuses stages of different APIs and unknown surfaces', () => {
    const other = { ...baseApiSurface('other', tmdb), id: 'other', api: 'other' };
    expect(() =>
      resolveApiSchedule(
        {
          id: 'mixed',
          stages: [
            { surface: 'tmdb', effectiveFrom: '2026-01-01' },
            { surface: 'other', effectiveFrom: '2026-02-01' },
          ],
        },
        { tmdb: base, other },
        new Date('2026-03-01'),
      ),
    ).toThrow('schedule mixed: its stages are surfaces of different APIs (tmdb, other)');
    expect(() =>
      resolveApiSchedule(
        { id: 's', stages: [{ surface: 'nope', effectiveFrom: '2026-01-01' }] },
        surfaces,
        new Date(),
      ),
    ).toThrow('schedule s: stages[0] names unknown surface nope');
  });
});
