import { describe, expect, it } from 'vitest';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import type { ApiSurface, ApiTool, ExposedParam } from '../../../../core/apis/surface/model.ts';
import { type ApiResolution, resolveApiCall } from '../../../../core/apis/surface/resolve.ts';
import { tmdbCatalog } from '../support/catalogs.ts';

const tmdb = await tmdbCatalog();
const base = baseApiSurface('tmdb', tmdb);

function http(
  surface: ApiSurface,
  method: string,
  path: string,
  query: Record<string, string | string[]> = {},
  body?: unknown,
) {
  return resolveApiCall(surface, tmdb, { via: 'http', method, path, query, headers: {}, body });
}

function byName(surface: ApiSurface, name: string, args: Record<string, unknown>) {
  return resolveApiCall(surface, tmdb, { via: 'name', name, args });
}

function call(r: ApiResolution) {
  if (r.kind !== 'call') throw new Error(`expected a call, got ${r.status} ${r.message}`);
  return r;
}

function rejected(r: ApiResolution) {
  if (r.kind !== 'rejected') throw new Error(`expected a rejection, got a call of ${r.operation}`);
  return r;
}

/** The base surface with one tool's parameters replaced. */
function withParams(
  operation: string,
  edit: (params: ExposedParam[]) => ExposedParam[],
  patch: Partial<ApiTool> = {},
): ApiSurface {
  const s = structuredClone(base);
  const tool = s.tools.find((t) => t.operation === operation) as ApiTool;
  tool.params = edit(tool.params);
  Object.assign(tool, patch);
  return s;
}

describe('resolution by name', () => {
  it('maps a call onto the base operation with base arguments', () => {
    const r = call(byName(base, 'GET_search-person', { query: 'Sofia Coppola', page: 2 }));
    expect(r.operation).toBe('GET_search-person');
    expect(r.args).toEqual({ query: 'Sofia Coppola', page: 2 });
    expect(r.context).toEqual({ tool: 'GET_search-person', operation: 'GET_search-person' });
    expect(r.deprecation).toBeUndefined();
  });

  it('answers an unknown tool with 404 listing the tools and Finish', () => {
    const r = rejected(byName(base, 'searchPeople', {}));
    expect(r).toMatchObject({ reason: 'invalid-action', status: 404 });
    expect(r.message).toContain('"searchPeople" is not a tool of this API');
    expect(r.message).toContain('GET_search-person');
    expect(r.message.endsWith('Finish.')).toBe(true);
  });

  it('answers an unknown key with 400 naming it and listing the accepted ones', () => {
    const r = rejected(byName(base, 'GET_search-person', { query: 'x', name: 'Sofia' }));
    expect(r).toMatchObject({ reason: 'param-error', status: 400, operation: 'GET_search-person' });
    expect(r.errors).toEqual([{ field: 'name', message: 'is not a parameter of this tool' }]);
    expect(r.message).toContain('name is not a parameter of this tool');
    expect(r.message).toContain('It accepts: query (query, string, required), page (query, integer)');
  });

  it('names a missing required parameter and an ill-typed value (no coercion for JSON arguments)', () => {
    const r = rejected(byName(base, 'GET_search-person', { page: '2' }));
    expect(r.errors?.map((e) => [e.field, e.in])).toEqual([
      ['query', 'query'],
      ['page', 'query'],
    ]);
    expect(r.errors?.[0]?.message).toBe('is required');
    expect(r.errors?.[1]?.message).toMatch(/type/);
  });

  it('checks enums of the exposed schema', () => {
    const r = rejected(
      byName(base, 'GET_trending-media_type-time_window', { media_type: 'film', time_window: 'day' }),
    );
    expect(r.errors?.[0]?.field).toBe('media_type');
  });
});

describe('resolution over HTTP', () => {
  it('matches the route, decodes path parameters and coerces query text by the schema', () => {
    const r = call(
      http(base, 'GET', '/search/movie', {
        query: 'Lost in Translation',
        year: '2003',
        include_adult: 'false',
      }),
    );
    expect(r.operation).toBe('GET_search-movie');
    expect(r.args).toEqual({ query: 'Lost in Translation', year: 2003, include_adult: false });
    expect(call(http(base, 'GET', '/movie/550/credits')).args).toEqual({ movie_id: 550 });
    expect(call(http(base, 'GET', '/credit/52fe%2042/')).args).toEqual({ credit_id: '52fe 42' });
  });

  it('prefers a literal segment over a placeholder', () => {
    expect(call(http(base, 'GET', '/movie/latest')).operation).toBe('GET_movie-latest');
    expect(call(http(base, 'GET', '/movie/13')).operation).toBe('GET_movie-movie_id');
  });

  it('answers an unknown path with 404 and another method with 405 listing the allowed ones', () => {
    expect(rejected(http(base, 'GET', '/films/13'))).toMatchObject({ status: 404, reason: 'invalid-action' });
    const r = rejected(http(base, 'DELETE', '/movie/13'));
    expect(r).toMatchObject({ status: 405, reason: 'method-not-allowed', allow: ['GET'] });
    expect(r.message).toBe('DELETE /movie/13 is not allowed; this path answers GET.');
  });

  it('answers bad query text, unknown query keys, malformed escapes and unexpected bodies with 400 naming each', () => {
    const typed = rejected(http(base, 'GET', '/search/person', { query: 'x', page: 'two' }));
    expect(typed.errors?.map((e) => e.field)).toEqual(['page']);
    const unknown = rejected(http(base, 'GET', '/search/person', { query: 'x', language: 'en' }));
    expect(unknown.errors).toEqual([
      { field: 'language', in: 'query', message: 'is not a parameter of this operation' },
    ]);
    const malformed = rejected(http(base, 'GET', '/credit/%E0%A4%A'));
    expect(malformed.errors).toEqual([
      { field: 'credit_id', in: 'path', message: 'is not valid percent-encoding' },
    ]);
    const body = rejected(http(base, 'GET', '/movie/13', {}, { movie_id: 13 }));
    expect(body.errors?.[0]).toMatchObject({ field: 'body', in: 'body' });
    expect(call(http(base, 'GET', '/movie/13', {}, {})).args).toEqual({ movie_id: 13 });
  });

  it('reads repeated query values and comma lists as arrays where the schema wants one', () => {
    const s = withParams('GET_discover-movie', (ps) =>
      ps.map((p) =>
        p.name === 'with_genres' ? { ...p, schema: { type: 'array', items: { type: 'integer' } } } : p,
      ),
    );
    // The base parameter is a string: the surface only declares an array (no conversion), so the value passes through.
    expect(call(http(s, 'GET', '/discover/movie', { with_genres: ['28', '12'] })).args).toEqual({
      with_genres: [28, 12],
    });
    expect(call(http(s, 'GET', '/discover/movie', { with_genres: '28,12' })).args).toEqual({
      with_genres: [28, 12],
    });
  });

  it('points a key sent in the wrong place at the right one', () => {
    const s = withParams('GET_search-movie', (ps) => ps.map((p) => ({ ...p, in: 'body' as const })), {
      method: 'post',
    });
    const r = rejected(http(s, 'POST', '/search/movie', { query: 'Alien' }, { year: 1979 }));
    expect(r.errors).toEqual([
      { field: 'query', in: 'query', message: 'belongs in the JSON body, not in the query string' },
      { field: 'query', in: 'body', message: 'is required' },
    ]);
    expect(call(http(s, 'POST', '/search/movie', {}, { query: 'Alien', year: 1979 })).args).toEqual({
      query: 'Alien',
      year: 1979,
    });
    const notObject = rejected(http(s, 'POST', '/search/movie', {}, ['Alien']));
    expect(notObject.errors?.[0]).toMatchObject({ field: 'body', message: 'must be a JSON object' });
  });
});

describe('translation onto base arguments', () => {
  it('converts retyped values both ways of HTTP and names a value that does not convert', () => {
    const s = withParams(
      'GET_movie-movie_id',
      (ps) =>
        ps.map((p) =>
          p.name === 'movie_id'
            ? {
                ...p,
                name: 'filmId',
                schema: { type: 'string', pattern: '^-?[0-9]+$' },
                convert: { kind: 'to-string' },
              }
            : p,
        ),
      { path: '/movie/{filmId}' },
    );
    expect(call(http(s, 'GET', '/movie/550')).args).toEqual({ movie_id: 550 });
    expect(call(byName(s, 'GET_movie-movie_id', { filmId: '550' })).args).toEqual({ movie_id: 550 });
    const r = rejected(byName(s, 'GET_movie-movie_id', { filmId: 550 }));
    expect(r.errors?.[0]?.field).toBe('filmId');
    expect(
      rejected(byName(s, 'GET_movie-movie_id', { movie_id: '550' })).errors?.map((e) => e.field),
    ).toEqual(['movie_id', 'filmId']);
  });

  it('converts dates to timestamps, booleans to words and comma lists to arrays', () => {
    const s = withParams('GET_discover-movie', (ps) =>
      ps.map((p): ExposedParam => {
        if (p.kind !== 'param') return p;
        if (p.name === 'primary_release_date.gte')
          return {
            ...p,
            schema: { type: 'integer' },
            convert: { kind: 'date-to-timestamp', format: 'date' },
          };
        if (p.name === 'include_adult')
          return {
            ...p,
            schema: { type: 'string', enum: ['on', 'off'] },
            convert: { kind: 'boolean-to-enum', true: 'on', false: 'off' },
          };
        if (p.name === 'with_genres')
          return {
            ...p,
            schema: { type: 'array', items: { type: 'string' } },
            convert: { kind: 'to-array', separator: ',' },
          };
        return p;
      }),
    );
    expect(
      call(
        http(s, 'GET', '/discover/movie', {
          'primary_release_date.gte': '1556668800',
          include_adult: 'off',
          with_genres: '28,12',
        }),
      ).args,
    ).toEqual({ 'primary_release_date.gte': '2019-05-01', include_adult: false, with_genres: '28,12' });
    const r = rejected(byName(s, 'GET_discover-movie', { include_adult: 'maybe', with_genres: ['a,b'] }));
    expect(r.errors?.map((e) => e.field)).toEqual(['include_adult']);
    const r2 = rejected(byName(s, 'GET_discover-movie', { with_genres: ['a,b'] }));
    expect(r2.errors).toEqual([{ field: 'with_genres', in: 'query', message: 'items must not contain ","' }]);
  });

  it('cuts a merged string into its base parameters, each read and checked as its base type', () => {
    const s = withParams('GET_search-movie', (ps) => [
      ...ps.filter((p) => p.name !== 'year' && p.name !== 'region'),
      {
        kind: 'merged',
        name: 'year_region',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        bases: ['year', 'region'],
        separator: '|',
      },
    ]);
    expect(call(http(s, 'GET', '/search/movie', { query: 'Alien', year_region: '1979|US' })).args).toEqual({
      query: 'Alien',
      year: 1979,
      region: 'US',
    });
    expect(call(byName(s, 'GET_search-movie', { query: 'Alien', year_region: '|US' })).args).toEqual({
      query: 'Alien',
      region: 'US',
    });
    const parts = rejected(byName(s, 'GET_search-movie', { query: 'Alien', year_region: '1979' }));
    expect(parts.errors?.[0]?.message).toBe('must hold 2 parts joined by "|" (year|region), got 1');
    const typed = rejected(byName(s, 'GET_search-movie', { query: 'Alien', year_region: 'late|US' }));
    expect(typed.errors?.[0]).toMatchObject({ field: 'year_region' });
    expect(typed.errors?.[0]?.message).toMatch(/^part 1 \(year\): /);
  });

  it('joins the parts of a split parameter and names the part a required base value needs', () => {
    const s = withParams('GET_search-person', (ps) => [
      {
        kind: 'part',
        name: 'first_name',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        base: 'query',
        index: 0,
        count: 2,
        joiner: ' ',
      },
      {
        kind: 'part',
        name: 'last_name',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        base: 'query',
        index: 1,
        count: 2,
        joiner: ' ',
      },
      ...ps.filter((p) => p.name !== 'query'),
    ]);
    expect(
      call(http(s, 'GET', '/search/person', { last_name: 'Coppola', first_name: 'Sofia' })).args,
    ).toEqual({
      query: 'Sofia Coppola',
    });
    expect(call(byName(s, 'GET_search-person', { last_name: 'Coppola' })).args).toEqual({ query: 'Coppola' });
    const r = rejected(byName(s, 'GET_search-person', { page: 1 }));
    expect(r.errors).toEqual([
      { field: 'first_name + last_name', in: 'query', message: 'must carry a value for query' },
    ]);
  });

  it('translates an exposed paging style onto the base one and rejects a cursor it never issued', () => {
    const s = withParams('GET_search-person', (ps) => ps.filter((p) => p.name !== 'page'), {
      pagination: {
        style: 'cursor',
        cursorParam: 'cursor',
        nextKey: 'next_cursor',
        pageSize: 20,
        itemsKey: 'results',
      },
    });
    const first = call(http(s, 'GET', '/search/person', { query: 'x' }));
    expect(first.args).toEqual({ query: 'x' });
    expect(first.context.page).toMatchObject({ start: 0, size: 20, skip: 0 });
    const r = rejected(http(s, 'GET', '/search/person', { query: 'x', cursor: 'not-ours' }));
    expect(r.errors?.[0]).toMatchObject({ field: 'cursor', in: 'query' });
    expect(r.errors?.[0]?.message).toContain('next_cursor');
    expect(rejected(http(s, 'GET', '/search/person', { query: 'x', page: '2' })).errors?.[0]?.field).toBe(
      'page',
    );
  });
});

describe('lifecycle', () => {
  const successor: ApiTool = {
    ...structuredClone(base.tools.find((t) => t.name === 'GET_person-person_id') as ApiTool),
    name: 'getPerson',
    path: '/people/{person_id}',
  };
  const old = base.tools.find((t) => t.name === 'GET_person-person_id') as ApiTool;
  const surface: ApiSurface = {
    ...structuredClone(base),
    tools: [
      ...base.tools.filter((t) => t !== old),
      successor,
      {
        ...structuredClone(old),
        lifecycle: {
          status: 'deprecated',
          deprecatedAt: '2026-01-01',
          sunsetAt: '2026-03-01',
          successor: 'getPerson',
        },
      },
    ],
    retired: [
      {
        name: 'GET_movie-latest',
        method: 'get',
        path: '/movie/latest',
        operation: 'GET_movie-latest',
        successor: 'GET_movie-movie_id',
        message:
          'GET_movie-latest (GET /movie/latest) is deprecated and is no longer served. Use GET_movie-movie_id[movie_id] (GET /movie/{movie_id}) instead.',
      },
    ],
  };
  surface.tools = surface.tools.filter((t) => t.name !== 'GET_movie-latest');

  it('serves a deprecated tool inside its window with its notice', () => {
    for (const r of [
      byName(surface, 'GET_person-person_id', { person_id: 5 }),
      http(surface, 'GET', '/person/5'),
    ]) {
      const c = call(r);
      expect(c.args).toEqual({ person_id: 5 });
      expect(c.deprecation).toEqual({
        tool: 'GET_person-person_id',
        status: 'deprecated',
        successor: 'getPerson',
        deprecatedAt: '2026-01-01',
        sunsetAt: '2026-03-01',
      });
    }
  });

  it('answers a tool past its sunset with 410 naming the successor call and route', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    for (const r of [
      resolveApiCall(
        surface,
        tmdb,
        { via: 'name', name: 'GET_person-person_id', args: { person_id: 5 } },
        { now },
      ),
      resolveApiCall(
        surface,
        tmdb,
        { via: 'http', method: 'GET', path: '/person/5', query: {}, headers: {}, body: undefined },
        { now },
      ),
    ]) {
      const x = rejected(r);
      expect(x).toMatchObject({ status: 410, reason: 'retired', operation: 'GET_person-person_id' });
      expect(x.message).toBe(
        'GET_person-person_id (GET /person/{person_id}) is deprecated and was removed on 2026-03-01. Use getPerson[person_id] (GET /people/{person_id}) instead.',
      );
      expect(x.deprecation).toMatchObject({ status: 'sunset', successor: 'getPerson' });
    }
    expect(
      call(
        resolveApiCall(
          surface,
          tmdb,
          { via: 'http', method: 'GET', path: '/people/5', query: {}, headers: {}, body: undefined },
          { now },
        ),
      ).operation,
    ).toBe('GET_person-person_id');
  });

  it('answers a retired name or route with 410 and its message, before looking at the arguments', () => {
    for (const r of [
      byName(surface, 'GET_movie-latest', { bogus: 1 }),
      http(surface, 'GET', '/movie/latest', { bogus: '1' }),
    ]) {
      const x = rejected(r);
      expect(x).toMatchObject({ status: 410, reason: 'retired', operation: 'GET_movie-latest' });
      expect(x.message).toContain('Use GET_movie-movie_id[movie_id] (GET /movie/{movie_id}) instead.');
      expect(x.deprecation).toMatchObject({ status: 'retired', successor: 'GET_movie-movie_id' });
    }
    // A literal retired route beats the served template it would otherwise fall into.
    expect(rejected(http(surface, 'GET', '/movie/latest')).status).toBe(410);
  });
});
