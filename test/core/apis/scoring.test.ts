import { describe, expect, it } from 'vitest';
import { parseQuerySet } from '../../../core/apis/querysets.ts';
import {
  callPath,
  correctPath,
  correctPathRate,
  matchGoldRoute,
  matchOperation,
  parseGoldCall,
} from '../../../core/apis/scoring.ts';
import type { ApiCatalog, ApiOperation } from '../../../core/apis/types.ts';
import { dataJson, tmdbImport } from './data.ts';

describe('Correct Path Rate: the paper (ordered subsequence) and DRAFT’s released code (set containment)', () => {
  it('agree when the calls follow the gold in order, with other calls between', () => {
    expect(correctPath(['search', 'credits'], ['search', 'details', 'credits'])).toEqual({
      subsequence: true,
      set: true,
    });
  });

  it('differ on order: set containment ignores it, the subsequence does not', () => {
    expect(correctPath(['search', 'credits'], ['credits', 'search'])).toEqual({
      subsequence: false,
      set: true,
    });
  });

  it('differ on repeats: a gold path that repeats a call needs it twice in order, a set needs it once', () => {
    // RestBench item 78: GET /search/movie twice ("Avatar versus Avatar: The Way of Water").
    expect(correctPath(['search', 'search'], ['search'])).toEqual({ subsequence: false, set: true });
    expect(correctPath(['search', 'search'], ['search', 'details', 'search'])).toEqual({
      subsequence: true,
      set: true,
    });
    expect(correctPath(['a', 'b', 'a'], ['a', 'a', 'b'])).toEqual({ subsequence: false, set: true });
  });

  it('fail both when a gold call is missing; an empty gold path is followed by anything', () => {
    expect(correctPath(['search', 'credits'], ['search', 'details'])).toEqual({
      subsequence: false,
      set: false,
    });
    expect(correctPath(['search'], [])).toEqual({ subsequence: false, set: false });
    expect(correctPath([], ['anything'])).toEqual({ subsequence: true, set: true });
  });

  it('rates queries in percent, each definition on its own', () => {
    const rate = correctPathRate([
      { gold: ['a', 'b'], calls: ['a', 'b'] }, // both
      { gold: ['a', 'b'], calls: ['b', 'a'] }, // set only
      { gold: ['a', 'a'], calls: ['a'] }, // set only
      { gold: ['c'], calls: ['a'] }, // neither
    ]);
    expect(rate).toEqual({ queries: 4, subsequence: 25, set: 75 });
    expect(correctPathRate([])).toEqual({ queries: 0, subsequence: 0, set: 0 });
  });
});

describe('gold routes and concrete requests', () => {
  it('parses "METHOD /path" gold calls', () => {
    expect(parseGoldCall('GET /movie/{movie_id}/credits')).toEqual({
      method: 'get',
      path: '/movie/{movie_id}/credits',
    });
    expect(parseGoldCall(' post /pets ')).toEqual({ method: 'post', path: '/pets' });
    expect(parseGoldCall('GET_movie_movie_id_credits')).toBeNull();
    expect(parseGoldCall('FETCH /x')).toBeNull();
  });

  it('maps a concrete TMDB request to its operation, literal segments before parameters', async () => {
    const { catalog } = await tmdbImport();
    const name = (method: string, path: string) => matchOperation(catalog, method, path)?.path ?? null;
    expect(name('GET', '/movie/top_rated')).toBe('/movie/top_rated');
    expect(name('GET', '/movie/550')).toBe('/movie/{movie_id}');
    expect(name('GET', '/movie/550/credits?language=en')).toBe('/movie/{movie_id}/credits');
    expect(name('get', '/tv/1399/season/1/episode/2/credits')).toBe(
      '/tv/{tv_id}/season/{season_number}/episode/{episode_number}/credits',
    );
    expect(name('GET', '/3/person/1769/movie_credits')).toBe('/person/{person_id}/movie_credits'); // the server's /3 prefix
    expect(name('GET', '/search/person/')).toBe('/search/person');
    expect(name('POST', '/search/person')).toBeNull();
    expect(name('GET', '/movie/550/trailers')).toBeNull();
    expect(name('GET', '/movie//credits')).toBeNull();
  });

  it('matches parameters inside a segment and percent-encoded values', () => {
    const op = (name: string, path: string): ApiOperation => ({
      name,
      method: 'get',
      path,
      description: '',
      params: [],
      argumentsSchema: {},
      responses: [],
    });
    const catalog: ApiCatalog = {
      format: 'openapi',
      source: 'openapi-3.1',
      title: 'Files',
      version: '1',
      servers: [],
      operations: [
        op('raw', '/files/{name}'),
        op('json', '/files/{name}.json'),
        op('readme', '/files/README.md'),
      ],
      warnings: [],
    };
    expect(matchOperation(catalog, 'GET', '/files/report.json')?.name).toBe('json');
    expect(matchOperation(catalog, 'GET', '/files/report.txt')?.name).toBe('raw');
    expect(matchOperation(catalog, 'GET', '/files/README.md')?.name).toBe('readme');
    expect(matchOperation(catalog, 'GET', '/files/README%2Emd')?.name).toBe('readme');
  });

  it('reads a gold template whose parameter has another name as the document’s route (RestBench item 98)', async () => {
    const { catalog } = await tmdbImport();
    expect(matchGoldRoute(catalog, 'GET', '/person/{person_id}/movie_credits')).toMatchObject({
      renamed: false,
      operation: { path: '/person/{person_id}/movie_credits' },
    });
    expect(matchGoldRoute(catalog, 'GET', '/person/{movie_id}/movie_credits')).toMatchObject({
      renamed: true,
      operation: { path: '/person/{person_id}/movie_credits' },
    });
    // A literal where the document has a parameter is another route, not a renamed one.
    expect(matchGoldRoute(catalog, 'GET', '/person/latest/movie_credits')).toBeNull();
    expect(matchGoldRoute(catalog, 'GET', '/movie/{movie_id}/trailers')).toBeNull();
  });
});

describe('Correct Path Rate on RestBench TMDB, recomputed from the raw gold and scripted requests', () => {
  /** A scripted client's requests for a gold path: each template with its parameters filled by numbers. */
  const concrete = (gold: string[]) =>
    gold.map((entry) => {
      const [method, path] = entry.trim().split(/\s+/) as [string, string];
      return { method, path: path.replace(/\{[^}]+\}/g, (_m) => String(100 + path.length)) };
    });

  it('scores 100 by both definitions when the requests follow the gold; reversed requests lower only the paper’s', async () => {
    const { catalog } = await tmdbImport();
    const raw = dataJson<{ query: string; solution: string[] }[]>(
      'restbench-tmdb/restgpt/datasets/tmdb.json',
    );
    const parsed = parseQuerySet(raw, catalog);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const gold = parsed.set.items.map((item) => item.gold.path.map((g) => g.operation));

    const followed = raw.map((item, i) => ({
      gold: gold[i]!,
      calls: callPath(catalog, concrete(item.solution)),
    }));
    expect(correctPathRate(followed)).toEqual({ queries: 100, subsequence: 100, set: 100 });

    // Reversed: 95 queries have two or more gold calls; of those, item 78 repeats the same call, so reversing it
    // keeps the order — 94 fail the subsequence, none fails set containment.
    const reversed = raw.map((item, i) => ({
      gold: gold[i]!,
      calls: callPath(catalog, concrete(item.solution).reverse()),
    }));
    expect(correctPathRate(reversed)).toEqual({ queries: 100, subsequence: 6, set: 100 });

    // Dropping each query's last request leaves no query correct by either definition, except where the dropped
    // call repeats an earlier one (item 78): the set still has it, the subsequence does not.
    const truncated = raw.map((item, i) => ({
      gold: gold[i]!,
      calls: callPath(catalog, concrete(item.solution).slice(0, -1)),
    }));
    expect(correctPathRate(truncated)).toEqual({ queries: 100, subsequence: 0, set: 1 });
  });
});
