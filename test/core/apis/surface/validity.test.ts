import { describe, expect, it } from 'vitest';
import { API_DRIFT_KINDS, generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import { describeApiDrift } from '../../../../core/apis/surface/diff.ts';
import { apiToolList } from '../../../../core/apis/surface/docs.ts';
import type { ApiSurface, ApiTool } from '../../../../core/apis/surface/model.ts';
import { apiSurfaceOpenApi } from '../../../../core/apis/surface/openapi.ts';
import { resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { translateBaseCall } from '../../../../core/apis/surface/translate.ts';
import { apiSurfaceProblems } from '../../../../core/apis/surface/validity.ts';
import type { ApiCatalog } from '../../../../core/apis/types.ts';
import { tmdbCatalog } from '../support/catalogs.ts';
import { openApi31Problems } from '../support/openapi.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);

function broken(edit: (s: ApiSurface, tool: (op: string) => ApiTool) => void): string[] {
  const s = structuredClone(base);
  edit(s, (op) => s.tools.find((t) => t.operation === op) as ApiTool);
  return apiSurfaceProblems(s, tmdb);
}

describe('apiSurfaceProblems', () => {
  it('finds nothing in a base surface', () => {
    expect(apiSurfaceProblems(base, tmdb)).toEqual([]);
  });

  it('names what makes a surface unusable', () => {
    expect(broken((_, t) => (t('GET_movie-latest').name = 'GET_movie-movie_id'))).toContain(
      'name GET_movie-movie_id is used by several operations',
    );
    expect(broken((_, t) => (t('GET_movie-latest').name = 'finish'))).toContain(
      'name finish is reserved for the answer',
    );
    expect(broken((_, t) => (t('GET_movie-latest').name = 'get movie'))).toContain(
      'name "get movie" is not an exposed name',
    );
    expect(broken((_, t) => (t('GET_movie-latest').name = 'get_movie-movie_id'))).toContain(
      'names GET_movie-movie_id and get_movie-movie_id differ only in case',
    );
    expect(broken((_, t) => (t('GET_movie-movie_id').path = '/movie/{id}'))).toContain(
      'GET_movie-movie_id: path placeholders {id} are not its path parameters (movie_id)',
    );
    expect(broken((_, t) => (t('GET_movie-latest').path = '/movie/{movie_id}'))).toEqual(
      expect.arrayContaining([
        'route GET /movie/{movie_id} is served for GET_movie-movie_id and GET_movie-latest',
      ]),
    );
    expect(
      broken(
        (_, t) =>
          (t('GET_search-person').params = t('GET_search-person').params.filter((p) => p.name !== 'query')),
      ),
    ).toContain('GET_search-person: required base parameter query is not carried');
    expect(
      broken((_, t) => {
        const tool = t('GET_search-person');
        tool.params = tool.params.map((p) =>
          p.name === 'query' ? { ...p, convert: { kind: 'to-string' } } : p,
        );
      }),
    ).toContain("GET_search-person: query: conversion to-string does not fit query's schema");
    expect(
      broken((s) =>
        s.retired.push({ name: 'old', operation: 'GET_movie-latest', successor: 'gone', message: 'm' }),
      ),
    ).toContain('retired old: successor gone is not a tool of the surface');
    expect(
      broken((_, t) => {
        t('GET_search-person').pagination = {
          style: 'offset',
          offsetParam: 'offset',
          pageSize: 20,
          itemsKey: 'results',
        };
      }),
    ).toContain('GET_search-person: base paging parameter page is also carried by page');
  });
});

describe('describeApiDrift', () => {
  it('lists per operation what changed, the response shape and the retired entries', () => {
    const drifted = generateApiSurface(base, tmdb, {
      seed: 'diff',
      kinds: ['rename-operation', 'pagination', 'reshape-response', 'retype-params'],
    });
    const diff = describeApiDrift(base, drifted, tmdb);
    expect(diff).toMatchObject({
      base: 'tmdb',
      surface: drifted.id,
      drift: drifted.drift,
      response: { from: {}, to: drifted.response },
    });
    const renamed = diff.operations.filter((o) => o.renamed);
    expect(renamed.length).toBe(
      drifted.tools.filter((t) => !base.tools.some((b) => b.name === t.name)).length,
    );
    expect(diff.retired.added.map((r) => r.name).sort()).toEqual(renamed.map((o) => o.from?.name).sort());
    const paged = diff.operations.find((o) => o.pagination !== null);
    expect(paged?.params.find((p) => p.base === 'page')?.to).toMatchObject({ kind: 'paging' });
    const retyped = diff.operations
      .flatMap((o) => o.params)
      .find((p) => p.to?.kind === 'param' && p.to.convert);
    expect(retyped?.from).toMatchObject({ kind: 'param' });
    expect(describeApiDrift(base, base, tmdb)).toEqual({
      base: 'tmdb',
      surface: 'tmdb',
      drift: null,
      operations: [],
      response: null,
      retired: { added: [], removed: [] },
    });
  });
});

describe('a function catalog (tools without HTTP shape)', () => {
  const catalog: ApiCatalog = {
    format: 'catalog',
    source: 'functions',
    title: 'Weather',
    version: '1',
    servers: [],
    warnings: [],
    operations: [
      {
        name: 'get_forecast',
        description: 'Get the forecast of a city for a number of days.',
        params: [
          { name: 'city_name', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'days', in: 'query', required: false, schema: { type: 'integer' } },
          { name: 'metric', in: 'query', required: false, schema: { type: 'boolean' } },
        ],
        argumentsSchema: {},
        responses: [],
      },
    ],
  };
  const surface = baseApiSurface('weather', catalog);

  it('resolves by name only and documents its tools', () => {
    expect(
      resolveApiCall(surface, catalog, {
        via: 'name',
        name: 'get_forecast',
        args: { city_name: 'Oslo', days: 3 },
      }),
    ).toMatchObject({
      kind: 'call',
      args: { city_name: 'Oslo', days: 3 },
    });
    expect(
      resolveApiCall(surface, catalog, {
        via: 'http',
        method: 'GET',
        path: '/get_forecast',
        query: {},
        headers: {},
        body: undefined,
      }),
    ).toMatchObject({ status: 404 });
    expect(apiToolList(surface)).toBe(
      '(1) get_forecast[city_name, days, metric], Get the forecast of a city for a number of days. Parameters: city_name (string, query, required); days (integer, query); metric (boolean, query).\n(2) Finish[answer], which returns the answer and finishes the task.',
    );
  });

  it('drifts names, keys and types, round-trips, and documents itself as POST /tools/{name}', () => {
    for (const seed of ['1', '2', '3']) {
      const drifted = generateApiSurface(surface, catalog, { seed, kinds: API_DRIFT_KINDS });
      expect(drifted.tools.every((t) => t.method === undefined && t.path === undefined)).toBe(true);
      const t = translateBaseCall(drifted, catalog, 'get_forecast', {
        city_name: 'New York',
        days: 3,
        metric: true,
      });
      expect(t.ok && t.http).toBe(undefined);
      const doc = apiSurfaceOpenApi(drifted, catalog);
      expect(openApi31Problems(doc)).toEqual([]);
      expect(Object.keys(doc.paths as object)).toEqual(drifted.tools.map((x) => `/tools/${x.name}`));
    }
  });
});
