import { describe, expect, it } from 'vitest';
import { callBackend, emptyOverlay, type MockOverlay, MockWorld } from '../../../core/apis/mock/index.ts';
import { inferResources } from '../../../core/apis/mock/resources.ts';
import { errorResponse, successResponse } from '../../../core/apis/mock/schema-walk.ts';
import { type ScriptedAnswer, scriptedArgs } from '../../../core/apis/scripted.ts';
import type { ApiCatalog, ApiOperation } from '../../../core/apis/types.ts';
import { validateJson } from '../../../core/apis/validate.ts';
import { dataJson, imported, type ToolAlpacaEntry, tmdbImport } from './data.ts';

const seeded = { mode: 'seeded' as const };

function op(catalog: ApiCatalog, name: string): ApiOperation {
  const found = catalog.operations.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}

/** The answer of one call, which must be a 2xx. */
async function ok(world: MockWorld, name: string, args: Record<string, unknown>, overlay = emptyOverlay()) {
  const r = await callBackend(world, seeded, name, args, overlay);
  if (r.status >= 300) throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

/** Recomputes, from the document's own schema, whether an answer is what the operation declares. */
function declaredValid(operation: ApiOperation, status: number, body: unknown): boolean {
  const declared = status < 300 ? successResponse(operation) : errorResponse(operation, status);
  expect(declared?.schema, `${operation.name} declares a schema for ${status}`).toBeDefined();
  const result = validateJson(declared?.schema as never, body);
  if (!result.valid) throw new Error(`${operation.name}: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return true;
}

async function toolAlpaca(name: string): Promise<ApiCatalog> {
  const entry = dataJson<ToolAlpacaEntry[]>('toolalpaca/eval_simulated.json').find((e) => e.Name === name);
  if (!entry) throw new Error(`no ToolAlpaca API ${name}`);
  return (await imported(entry.Documentation)).catalog;
}

describe('the seeded mock on TMDB', () => {
  it('answers every one of the 54 operations with a body its response schema accepts, for requests built from earlier answers', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'walk');
    // Operations without path parameters first: their answers hold the ids the others need.
    const rank = (o: ApiOperation) => (o.path?.split('{').length ?? 0) * 2 + (o.path?.endsWith('}') ? 1 : 0);
    const ordered = [...catalog.operations].sort((a, b) => rank(a) - rank(b));
    const answers: ScriptedAnswer[] = [];
    let overlay: MockOverlay = emptyOverlay();
    for (const operation of ordered) {
      const args = scriptedArgs(operation, answers, 'The Dark Knight');
      const r = await callBackend(world, seeded, operation.name, args, overlay);
      expect(
        r.status,
        `${operation.name} ${JSON.stringify(args)} → ${JSON.stringify(r.body).slice(0, 200)}`,
      ).toBe(200);
      expect(declaredValid(operation, r.status, r.body)).toBe(true);
      answers.push({ operation: `${operation.name} ${operation.path}`, body: r.body });
      overlay = r.overlay;
    }
    expect(answers).toHaveLength(54);
  });

  it('is deterministic by seed: the same seed gives the same answers, another seed other ones', async () => {
    const { catalog } = await tmdbImport();
    const call = async (seed: string) =>
      (await ok(new MockWorld('tmdb', catalog, seed), 'GET_movie-movie_id', { movie_id: 550 })).body;
    expect(await call('a')).toEqual(await call('a'));
    expect(JSON.stringify(await call('a'))).not.toEqual(JSON.stringify(await call('b')));
  });

  it('materialises the entity a search names, and links it across operations', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'link');
    const search = await ok(world, 'GET_search-person', { query: 'Sofia Coppola' });
    const results = (search.body as { results: { id: number; name: string }[]; total_results: number })
      .results;
    expect(results[0]?.name).toBe('Sofia Coppola');
    const id = results[0]?.id as number;
    // The same person in every later answer of the session (her details, her credits' id).
    const person = await ok(world, 'GET_person-person_id', { person_id: id }, search.overlay);
    expect(person.body).toMatchObject({ id, name: 'Sofia Coppola' });
    const credits = await ok(world, 'GET_person-person_id-movie_credits', { person_id: id }, search.overlay);
    const body = credits.body as {
      id: number;
      cast: { id: number; title: string }[];
      crew: { job: string }[];
    };
    expect(body.id).toBe(id);
    // A movie in her credits is the same movie (same title) as GET /movie/{id} answers.
    const first = body.cast[0] as { id: number; title: string };
    const movie = await ok(world, 'GET_movie-movie_id', { movie_id: first.id }, credits.overlay);
    expect((movie.body as { title: string }).title).toBe(first.title);
    // Another session with the same seed materialises the same person for the same query.
    const again = await ok(new MockWorld('tmdb', catalog, 'link'), 'GET_search-person', {
      query: 'Sofia Coppola',
    });
    expect((again.body as { results: { id: number }[] }).results[0]?.id).toBe(id);
    // "The movies directed by Sofia Coppola": her crew credits spread over TMDB's most common jobs, directing
    // among them — for any person the mock materialises, not for this name only.
    expect(body.crew.some((c) => c.job === 'Director')).toBe(true);
    for (const name of ['Greta Gerwig', 'Bong Joon-ho', 'Ada Lovelace', 'X']) {
      const found = await ok(world, 'GET_search-person', { query: name });
      const pid = (found.body as { results: { id: number }[] }).results[0]?.id;
      const c = await ok(world, 'GET_person-person_id-movie_credits', { person_id: pid }, found.overlay);
      const jobs = (c.body as { crew: { job: string }[] }).crew.map((x) => x.job);
      expect(jobs, name).toContain('Director');
      expect(new Set(jobs).size, name).toBe(jobs.length);
    }
  });

  it('pages lists as the document says', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'pages');
    const p1 = (await ok(world, 'GET_movie-popular', { page: 1 })).body as {
      page: number;
      results: { id: number }[];
      total_pages: number;
      total_results: number;
    };
    const p2 = (await ok(world, 'GET_movie-popular', { page: 2 })).body as typeof p1;
    expect(p1.page).toBe(1);
    expect(p2.page).toBe(2);
    expect(p1.results).toHaveLength(20);
    expect(p1.total_pages).toBe(Math.ceil(p1.total_results / 20));
    expect(p2.results.map((m) => m.id)).not.toEqual(p1.results.map((m) => m.id));
  });

  it('answers an id outside the world with the 404 the document declares, and a bad parameter with a 400 naming it', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'errors', 10_000);
    const missing = await callBackend(
      world,
      seeded,
      'GET_movie-movie_id',
      { movie_id: 10_001 },
      emptyOverlay(),
    );
    expect(missing.status).toBe(404);
    expect(declaredValid(op(catalog, 'GET_movie-movie_id'), 404, missing.body)).toBe(true);
    expect(missing.body).toMatchObject({ status_code: 404, status_message: 'No movie with movie_id 10001.' });
    const inside = await callBackend(
      world,
      seeded,
      'GET_movie-movie_id',
      { movie_id: 10_000 },
      emptyOverlay(),
    );
    expect(inside.status).toBe(200);
    const bad = await callBackend(world, seeded, 'GET_movie-popular', { page: 'two' }, emptyOverlay());
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 400, errors: [{ field: 'page', in: 'query' }] });
    const missingQuery = await callBackend(world, seeded, 'GET_search-movie', {}, emptyOverlay());
    expect(missingQuery.status).toBe(400);
    expect((missingQuery.body as { detail: string }).detail).toContain('query');
  });

  it('derives entities on demand: an id at the end of a 10,000,000-entity world answers', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'huge', 10_000_000);
    const r = await callBackend(
      world,
      seeded,
      'GET_person-person_id',
      { person_id: 9_999_999 },
      emptyOverlay(),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 9_999_999 });
  });

  it('types entities by resource from paths and schemas', async () => {
    const { catalog } = await tmdbImport();
    const model = inferResources(catalog);
    expect(model.roles.get('GET_person-person_id')).toMatchObject({ kind: 'read', resource: 'person' });
    expect(model.roles.get('GET_person-person_id-movie_credits')).toMatchObject({
      kind: 'aspect',
      resource: 'person',
    });
    expect(model.roles.get('GET_search-person')).toMatchObject({
      kind: 'search',
      resource: 'person',
      query: 'query',
    });
    expect(model.roles.get('GET_movie-popular')).toMatchObject({
      kind: 'list',
      resource: 'movie',
      itemsKey: 'results',
    });
    expect(model.roles.get('GET_tv-tv_id-season-season_number')).toMatchObject({
      kind: 'read',
      resource: 'tv.season',
      key: { params: ['tv_id', 'season_number'] },
    });
    expect(model.resources.get('person')?.labelField).toBe('name');
    expect(model.resources.get('movie')?.labelField).toBe('title');
  });

  it('serves the examples verbatim in examples mode', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'x');
    const r = await callBackend(
      world,
      { mode: 'examples' },
      'GET_movie-movie_id',
      { movie_id: 1 },
      emptyOverlay(),
    );
    expect(r.status).toBe(200);
    expect(r.body).toEqual(successResponse(op(catalog, 'GET_movie-movie_id'))?.example);
  });
});

describe('writes in the seeded mock (ToolAlpaca documents)', () => {
  it('persist within a session overlay and not in another session', async () => {
    const catalog = await toolAlpaca('Auth0');
    const world = new MockWorld('auth0', catalog, 'w');
    const token = { accessToken: 'tok-1' };
    const created = await ok(world, 'createRole', { ...token, roleName: 'Auditors' });
    const roleId = (created.body as { roleId: string }).roleId;
    expect(typeof roleId).toBe('string');
    const listed = (await ok(world, 'listRoles', token, created.overlay)).body as {
      roles: { roleId: string; roleName: string }[];
    };
    expect(listed.roles[0]).toMatchObject({ roleId, roleName: 'Auditors' });
    // A fresh session (empty overlay) does not see the role.
    const other = await ok(world, 'listRoles', token, emptyOverlay());
    expect(JSON.stringify(other.body)).not.toContain('Auditors');
    // Deleted, it is gone from the list; deleting it again is a 404.
    const deleted = await ok(world, 'deleteRole', { ...token, roleId }, created.overlay);
    const after = (await ok(world, 'listRoles', token, deleted.overlay)).body as {
      roles: { roleId: string }[];
    };
    expect(after.roles.map((r) => r.roleId)).not.toContain(roleId);
    const again = await callBackend(world, seeded, 'deleteRole', { ...token, roleId }, deleted.overlay);
    expect(again.status).toBe(404);
    // Credentials are not kept: no later answer echoes the token.
    expect(JSON.stringify(deleted.overlay)).not.toContain('tok-1');
  });

  it('updates are read back by the operation that reads the same entity', async () => {
    const catalog = await toolAlpaca('Auth0');
    const world = new MockWorld('auth0', catalog, 'w');
    const who = { userId: 'user-42', accessToken: 'tok-1' };
    const profile = { name: 'Ada Lovelace', email: 'ada@example.org' };
    const updated = await ok(world, 'updateUserProfile', { ...who, profileData: profile });
    const after = await ok(world, 'getUserProfile', who, updated.overlay);
    expect(after.body).toEqual({ userProfile: profile });
    const before = await ok(world, 'getUserProfile', who);
    expect(JSON.stringify(before.body)).not.toContain('Ada Lovelace');
  });

  it('every ToolAlpaca operation answers schema-valid bodies for requests with their required parameters', async () => {
    const entries = dataJson<ToolAlpacaEntry[]>('toolalpaca/eval_simulated.json');
    let operations = 0;
    for (const entry of entries) {
      const { catalog } = await imported(entry.Documentation);
      const world = new MockWorld(entry.Name, catalog, 'all');
      for (const operation of catalog.operations) {
        const args = scriptedArgs(operation, [], 'hello');
        const r = await callBackend(world, seeded, operation.name, args, emptyOverlay());
        expect(
          [200, 201, 204, 404],
          `${entry.Name}.${operation.name}: ${JSON.stringify(r.body).slice(0, 200)}`,
        ).toContain(r.status);
        if (r.status < 300 && r.body !== null && successResponse(operation)?.schema) {
          expect(declaredValid(operation, r.status, r.body)).toBe(true);
        }
        operations++;
      }
    }
    expect(operations).toBe(54);
  });
});

describe('the proxy mode', () => {
  it('forwards the base call with the credentials, passes the answer through, and never echoes the secret', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'p');
    const seen: { url: string; headers: Headers }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen.push({ url, headers: new Headers(init.headers) });
      return new Response(JSON.stringify({ status_code: 34, status_message: 'upstream says no' }), {
        status: 404,
        headers: { 'content-type': 'application/json;charset=utf-8' },
      });
    }) as typeof fetch;
    const r = await callBackend(
      world,
      {
        mode: 'proxy',
        proxy: { target: { baseUrl: 'http://127.0.0.1:9/3', query: { api_key: 's3cret' } }, fetch: fetchFn },
      },
      'GET_search-movie',
      { query: 'Alien & Aliens', page: 2 },
      emptyOverlay(),
    );
    expect(seen[0]?.url).toBe(
      'http://127.0.0.1:9/3/search/movie?query=Alien+%26+Aliens&page=2&api_key=s3cret',
    );
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ status_code: 34, status_message: 'upstream says no' });
    expect(JSON.stringify(r)).not.toContain('s3cret');
  });

  it('reports an unreachable upstream by its origin only', async () => {
    const { catalog } = await tmdbImport();
    const world = new MockWorld('tmdb', catalog, 'p');
    const r = await callBackend(
      world,
      {
        mode: 'proxy',
        proxy: {
          target: { baseUrl: 'http://127.0.0.1:9/3', headers: { authorization: 'Bearer s3cret' } },
          fetch: (async () => {
            throw new TypeError('fetch failed');
          }) as typeof fetch,
        },
      },
      'GET_movie-movie_id',
      { movie_id: 1 },
      emptyOverlay(),
    );
    expect(r.status).toBe(502);
    expect((r.body as { detail: string }).detail).toBe(
      'The upstream http://127.0.0.1:9 could not be reached.',
    );
    expect(JSON.stringify(r)).not.toContain('s3cret');
  });
});
