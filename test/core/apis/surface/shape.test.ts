import { describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../../core/apis/drift/index.ts';
import { baseApiSurface } from '../../../../core/apis/surface/base.ts';
import type { Pagination } from '../../../../core/apis/surface/model.ts';
import {
  decodeCursor,
  encodeCursor,
  pageFromBase,
  pageToBase,
  shapePage,
} from '../../../../core/apis/surface/pagination.ts';
import {
  recaseKey,
  recaseSchema,
  recaseValue,
  shapeApiResponse,
  shapeResponseSchema,
  shapeResponseValue,
} from '../../../../core/apis/surface/shape.ts';
import { operationOf } from '../../../../core/apis/surface/tools.ts';
import { validateJson } from '../../../../core/apis/validate.ts';
import { tmdbCatalog } from '../support/catalogs.ts';

const TMDB_PAGE: Pagination = {
  style: 'page',
  pageParam: 'page',
  pageSize: 20,
  itemsKey: 'results',
  pageKey: 'page',
  totalPagesKey: 'total_pages',
  totalItemsKey: 'total_results',
};

function tmdbPage(page: number, count: number, total: number) {
  return {
    page,
    results: Array.from({ length: count }, (_, i) => ({ id: (page - 1) * 20 + i })),
    total_pages: Math.ceil(total / 20),
    total_results: total,
  };
}

describe('key case', () => {
  it('writes keys in every case and leaves keys it cannot cut alone', () => {
    expect(recaseKey('poster_path', 'camel')).toBe('posterPath');
    expect(recaseKey('poster_path', 'pascal')).toBe('PosterPath');
    expect(recaseKey('poster_path', 'kebab')).toBe('poster-path');
    expect(recaseKey('posterPath', 'snake')).toBe('poster_path');
    expect(recaseKey('vote_count.gte', 'camel')).toBe('voteCountGte');
    expect(recaseKey('iso_3166_1', 'camel')).toBe('iso31661');
    expect(recaseKey('', 'camel')).toBe('');
    expect(recaseKey('día', 'camel')).toBe('día');
  });

  it('recases nested objects and arrays; a key that would collide keeps its spelling', () => {
    expect(
      recaseValue(
        { cast: [{ credit_id: 'a', known_for: { media_type: 'tv' } }], creditId: 1, credit_id: 2 },
        'camel',
      ),
    ).toEqual({
      cast: [{ creditId: 'a', knownFor: { mediaType: 'tv' } }],
      creditId: 1,
      credit_id: 2,
    });
  });

  it('recases schemas: properties, required, nested schemas and examples', () => {
    const schema = {
      type: 'object',
      required: ['total_pages'],
      properties: {
        total_pages: { type: 'integer' },
        results: { type: 'array', items: { type: 'object', properties: { poster_path: {} } } },
      },
      examples: [{ total_pages: 1 }],
    };
    expect(recaseSchema(schema, 'kebab')).toEqual({
      type: 'object',
      required: ['total-pages'],
      properties: {
        'total-pages': { type: 'integer' },
        results: { type: 'array', items: { type: 'object', properties: { 'poster-path': {} } } },
      },
      examples: [{ 'total-pages': 1 }],
    });
  });
});

describe('envelope and shapeApiResponse', () => {
  it('wraps every body with the status, error bodies included, after recasing', () => {
    const surface = {
      response: { keyCase: 'camel' as const, envelope: { dataKey: 'data', metaKey: 'meta' } },
    };
    const ctx = { tool: 't', operation: 'o' };
    expect(
      shapeApiResponse(surface, ctx, {
        status: 200,
        headers: { 'content-type': 'application/json', 'Content-Length': '20' },
        body: { status_code: 1 },
      }),
    ).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { data: { statusCode: 1 }, meta: { status: 200 } },
    });
    expect(
      shapeApiResponse(surface, ctx, { status: 404, headers: {}, body: { status_message: 'no' } }).body,
    ).toEqual({
      data: { statusMessage: 'no' },
      meta: { status: 404 },
    });
    expect(
      shapeApiResponse(surface, ctx, { status: 204, headers: { 'content-length': '0' }, body: undefined }),
    ).toEqual({
      status: 204,
      headers: { 'content-length': '0' },
      body: undefined,
    });
  });
});

describe('paging styles', () => {
  const offset: Pagination = {
    style: 'offset',
    offsetParam: 'skip',
    pageSize: 20,
    itemsKey: 'results',
    totalKey: 'total',
  };
  const cursor: Pagination = {
    style: 'cursor',
    cursorParam: 'after',
    nextKey: 'next',
    pageSize: 20,
    itemsKey: 'results',
  };

  it('an offset inside a page asks for that page and drops the items before it', () => {
    const req = pageToBase(offset, TMDB_PAGE, { skip: 25 });
    if (!req.ok) throw new Error(req.message);
    expect(req.baseArgs).toEqual({ page: 2 });
    expect(req.state).toMatchObject({ start: 25, size: 20, skip: 5 });
    const body = shapePage(req.state, tmdbPage(2, 20, 45)) as { results: { id: number }[]; total: number };
    expect(body).toEqual({ results: tmdbPage(2, 20, 45).results.slice(5), total: 45 });
    expect(body.results[0]?.id).toBe(25);
  });

  it('a cursor walks the pages and is null on the last one', () => {
    let req = pageToBase(cursor, TMDB_PAGE, {});
    if (!req.ok) throw new Error(req.message);
    expect(req.baseArgs).toEqual({});
    const first = shapePage(req.state, tmdbPage(1, 20, 30)) as { next: string | null };
    expect(first.next).toBe(encodeCursor(20));
    req = pageToBase(cursor, TMDB_PAGE, { after: first.next });
    if (!req.ok) throw new Error(req.message);
    expect(req.baseArgs).toEqual({ page: 2 });
    expect(shapePage(req.state, tmdbPage(2, 10, 30))).toEqual({
      results: tmdbPage(2, 10, 30).results,
      next: null,
    });
    expect(decodeCursor('bogus')).toBeNull();
    expect(pageToBase(cursor, TMDB_PAGE, { after: 'bogus' })).toMatchObject({ ok: false, field: 'after' });
  });

  it('a page over an offset base sends offset and limit and reports pages', () => {
    const base: Pagination = {
      style: 'offset',
      offsetParam: 'offset',
      limitParam: 'limit',
      pageSize: 10,
      itemsKey: 'members',
      totalKey: 'total',
    };
    const page: Pagination = {
      style: 'page',
      pageParam: 'page',
      sizeParam: 'per_page',
      pageSize: 10,
      itemsKey: 'members',
      pageKey: 'page',
      totalPagesKey: 'total_pages',
      totalItemsKey: 'total_results',
    };
    const req = pageToBase(page, base, { page: 3, per_page: 5 });
    if (!req.ok) throw new Error(req.message);
    expect(req.baseArgs).toEqual({ offset: 10, limit: 5 });
    expect(shapePage(req.state, { members: [1, 2, 3, 4, 5], total: 23 })).toEqual({
      members: [1, 2, 3, 4, 5],
      page: 3,
      total_pages: 5,
      total_results: 23,
    });
    expect(pageFromBase(page, base, { offset: 10, limit: 5 })).toEqual({
      ok: true,
      args: { page: 3, per_page: 5 },
    });
    expect(pageFromBase(page, base, { offset: 7, limit: 5 })).toEqual({
      ok: false,
      reason: 'offset 7 is not on a page boundary',
    });
  });

  it('leaves bodies without the items array alone', () => {
    const req = pageToBase(offset, TMDB_PAGE, {});
    if (!req.ok) throw new Error(req.message);
    expect(shapePage(req.state, { status_message: 'not found' })).toEqual({ status_message: 'not found' });
  });
});

describe('shaped examples fit shaped schemas', () => {
  it('on TMDB drifted by reshape-response and pagination, every 2xx example that fits its base schema fits its surface schema', async () => {
    const tmdb = await tmdbCatalog();
    const surface = generateApiSurface(baseApiSurface('tmdb', tmdb), tmdb, {
      seed: 'shape',
      kinds: ['reshape-response', 'pagination'],
    });
    expect(surface.response.keyCase ?? surface.response.envelope).toBeDefined();
    let checked = 0;
    let paged = 0;
    let changed = 0;
    for (const tool of surface.tools) {
      const op = operationOf(tmdb, tool.operation);
      for (const r of op?.responses ?? []) {
        if (!r.status.startsWith('2') || r.schema === undefined || r.example === undefined) continue;
        if (!validateJson(r.schema, r.example).valid) continue;
        const paging =
          tool.pagination && op?.pagination ? { exposed: tool.pagination, base: op.pagination } : undefined;
        const page = paging ? pageToBase(paging.exposed, paging.base, {}) : undefined;
        const schema = shapeResponseSchema(surface.response, paging, r.status, r.schema);
        const value = shapeResponseValue(surface.response, page?.ok ? page.state : undefined, 200, r.example);
        expect(validateJson(schema, value).errors, tool.name).toEqual([]);
        if (JSON.stringify(value) !== JSON.stringify(r.example)) changed++;
        checked++;
        if (paging) paged++;
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(changed).toBeGreaterThan(checked / 2);
    expect(paged).toBeGreaterThan(3);
  });
});
