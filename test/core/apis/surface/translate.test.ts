import { describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import type { ApiSurface, ApiTool, ExposedParam } from '../../../../core/apis/surface/model.ts';
import { resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { matchTemplate } from '../../../../core/apis/surface/route.ts';
import { translateBaseCall, translateGoldCall } from '../../../../core/apis/surface/translate.ts';
import { tmdbCatalog, tmdbGoldPaths } from '../support/catalogs.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);

function edited(operation: string, edit: (tool: ApiTool) => void): ApiSurface {
  const s = structuredClone(base);
  edit(s.tools.find((t) => t.operation === operation) as ApiTool);
  return s;
}

describe('translateBaseCall', () => {
  it('writes a base call as the surface call and the HTTP request that carry it, both resolving back to it', () => {
    const s = edited('GET_search-movie', (t) => {
      t.name = 'findFilms';
      t.method = 'post';
      t.path = '/v2/films/search';
      t.params = t.params.map((p): ExposedParam => {
        if (p.name === 'year')
          return {
            ...p,
            name: 'released',
            in: 'body',
            schema: { type: 'string' },
            convert: { kind: 'to-string' },
          } as ExposedParam;
        return { ...p, in: 'body' };
      });
    });
    const t = translateBaseCall(s, tmdb, 'GET_search-movie', { query: 'Alien', year: 1979, page: 2 });
    expect(t).toEqual({
      ok: true,
      tool: 'findFilms',
      args: { query: 'Alien', page: 2, released: '1979' },
      http: {
        method: 'post',
        path: '/v2/films/search',
        query: {},
        headers: {},
        body: { query: 'Alien', page: 2, released: '1979' },
      },
    });
    if (!t.ok || !t.http) throw new Error('no translation');
    const back = resolveApiCall(s, tmdb, { via: 'http', ...t.http, body: t.http.body });
    expect(back).toMatchObject({
      kind: 'call',
      operation: 'GET_search-movie',
      args: { query: 'Alien', year: 1979, page: 2 },
    });
  });

  it('fills and percent-encodes path parameters and writes query text', () => {
    const t = translateBaseCall(base, tmdb, 'GET_credit-credit_id', { credit_id: '52fe 42/x' });
    expect(t).toMatchObject({ ok: true, http: { method: 'get', path: '/credit/52fe%2042%2Fx', query: {} } });
    const q = translateBaseCall(base, tmdb, 'GET_search-person', {
      query: 'Sofia Coppola',
      include_adult: true,
    });
    expect(q).toMatchObject({
      ok: true,
      http: { path: '/search/person', query: { query: 'Sofia Coppola', include_adult: 'true' } },
    });
  });

  it('says why a base call has no equivalent on the surface', () => {
    const merged = edited('GET_search-movie', (t) => {
      t.params = [
        ...t.params.filter((p) => p.name !== 'region' && p.name !== 'query'),
        {
          kind: 'merged',
          name: 'query_region',
          in: 'query',
          required: true,
          schema: { type: 'string' },
          bases: ['query', 'region'],
          separator: '|',
        },
      ];
    });
    expect(translateBaseCall(merged, tmdb, 'GET_search-movie', { query: 'a|b', region: 'US' })).toEqual({
      ok: false,
      reason: 'GET_search-movie: query holds the separator "|" of query_region',
    });
    const dated = edited('GET_discover-movie', (t) => {
      t.params = t.params.map((p) =>
        p.name === 'release_date.gte'
          ? ({
              ...p,
              schema: { type: 'integer' },
              convert: { kind: 'date-to-timestamp', format: 'date' },
            } as ExposedParam)
          : p,
      );
    });
    expect(
      translateBaseCall(dated, tmdb, 'GET_discover-movie', { 'release_date.gte': '2019-05-01' }),
    ).toMatchObject({
      ok: true,
      args: { 'release_date.gte': 1556668800 },
    });
    expect(
      translateBaseCall(dated, tmdb, 'GET_discover-movie', { 'release_date.gte': 'May 2019' }),
    ).toMatchObject({ ok: false });
    expect(translateBaseCall(base, tmdb, 'GET_search-person', { query: 'x', language: 'en' })).toEqual({
      ok: false,
      reason: 'GET_search-person: base argument language has no counterpart on GET_search-person',
    });
    expect(translateBaseCall(base, tmdb, 'nope', {})).toEqual({
      ok: false,
      reason: 'tmdb serves no tool for nope',
    });
  });
});

describe('translateGoldCall', () => {
  const drifted = generateApiSurface(base, tmdb, {
    seed: 'gold',
    kinds: ['rename-operation', 'rename-path', 'rename-params', 'move-params', 'version-prefix'],
  });

  it('translates every RestBench gold path onto the drifted routes of the same operations', () => {
    const gold = tmdbGoldPaths();
    expect(gold).toHaveLength(100);
    let moved = 0;
    for (const path of gold) {
      for (const entry of path) {
        const t = translateGoldCall(drifted, entry, { catalog: tmdb });
        expect(t, entry).not.toBeNull();
        if (!t?.path || !t.method) throw new Error(entry);
        const tool = drifted.tools.find((x) => x.name === t.name) as ApiTool;
        expect(tool.method).toBe(t.method);
        expect(tool.path).toBe(t.path);
        const [method, template] = entry.split(' ') as [string, string];
        const op = tmdb.operations.find((o) => o.method === method.toLowerCase() && o.path === template);
        // q98's slip (`/person/{movie_id}/movie_credits`) matches the document's template by its shape.
        const byShape = tmdb.operations.find(
          (o) =>
            o.method === method.toLowerCase() &&
            matchTemplate(o.path as string, template.replace(/\{[^}]+\}/g, '1')),
        );
        expect(tool.operation).toBe((op ?? byShape)?.name);
        if (t.path !== template || t.method !== method.toLowerCase()) moved++;
      }
    }
    expect(moved).toBeGreaterThan(200);
  });

  it('takes a GoldCall by operation, and answers null for what the surface does not serve', () => {
    expect(translateGoldCall(base, { operation: 'GET_movie-movie_id-credits' })).toEqual({
      name: 'GET_movie-movie_id-credits',
      method: 'get',
      path: '/movie/{movie_id}/credits',
    });
    expect(translateGoldCall(base, 'GET /movie/{movie_id}/credits')).toBeNull();
    expect(translateGoldCall(base, 'GET /films', { catalog: tmdb })).toBeNull();
    expect(translateGoldCall(base, { operation: 'nope' })).toBeNull();
  });
});
