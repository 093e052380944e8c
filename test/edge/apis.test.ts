import { beforeAll, describe, expect, it, vi } from 'vitest';
import { validateOpenApiDocument } from '../../core/apis/import/index.ts';
import restbenchText from '../../data/apis/restbench-tmdb/restgpt/datasets/tmdb.json?raw';
import yamlText from '../fixtures/apis/library.openapi.yaml?raw';
import { steText, tmdbText, toolAlpacaText } from './api-data.ts';
import { importTmdb, json, post, send } from './api-helpers.ts';
import { expectProblem } from './helpers.ts';

const OTHER_KEY = 'fuzz-1';

let tmdb: string;

beforeAll(async () => {
  tmdb = await importTmdb();
});

describe('importing APIs', () => {
  it('imports the TMDB document: 54 operations, a tool list, the OpenAPI 3.1 form, one operation in full', async () => {
    const api = await json<{
      counts: { operations: number; writes: number; paginated: number };
      operations: { name: string; method: string; path: string }[];
      toolList: string;
      source: string;
      links: Record<string, string>;
    }>(await send(`/v1/apis/${tmdb}`));
    expect(api.source).toBe('openapi-3.0');
    expect(api.counts).toMatchObject({ operations: 54, writes: 0 });
    expect(api.operations.find((o) => o.path === '/search/person')).toMatchObject({ method: 'GET' });
    expect(api.toolList).toMatch(/Finish\[answer\]/);
    const doc = await json<Record<string, unknown>>(await send(`/v1/apis/${tmdb}/openapi.json`));
    expect(String(doc.openapi)).toMatch(/^3\.1\./);
    expect(validateOpenApiDocument(doc, { unknownFields: 'allow' })).toEqual([]);
    const op = await json<{ params: { name: string; schema: unknown }[]; responses: unknown[] }>(
      await send(`/v1/apis/${tmdb}/operations/GET_search-person`),
    );
    expect(op.params.map((p) => p.name)).toContain('query');
    const page = await json<{ items: { id: string }[] }>(await send('/v1/apis'));
    expect(page.items.map((a) => a.id)).toContain(tmdb);
  });

  it('takes a YAML document as the body, with the options in the query', async () => {
    const res = await send('/v1/apis?seed=7&title=Library', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: yamlText,
    });
    const api = await json<{ id: string; title: string; seed: string; counts: { operations: number } }>(
      res,
      201,
    );
    expect(api).toMatchObject({ title: 'Library', seed: '7' });
    expect(api.id).toMatch(/^library-[0-9a-f]{8}$/);
    expect(api.counts.operations).toBeGreaterThan(3);
  });

  it('answers a bad document with a 400 naming the JSON pointer of its first problem, and stores nothing', async () => {
    const before = (await json<{ items: unknown[] }>(await send('/v1/apis?limit=100'))).items.length;
    const broken = JSON.parse(tmdbText) as { paths: Record<string, { get: { responses: unknown } }> };
    (broken.paths['/movie/{movie_id}/credits'] as { get: { responses: unknown } }).get.responses = 'none';
    const body = await expectProblem(await post('/v1/apis', { document: broken }), 400, 'validation-error');
    expect((body.errors as { pointer: string }[])[0]?.pointer).toBe(
      '/document/paths/~1movie~1{movie_id}~1credits/get/responses',
    );
    const syntax = await expectProblem(
      await post('/v1/apis', { document: '{"openapi": "3.0.0", "paths": {' }),
      400,
      'validation-error',
    );
    expect(String(syntax.detail)).toMatch(/line|position|JSON|YAML/i);
    const after = (await json<{ items: unknown[] }>(await send('/v1/apis?limit=100'))).items.length;
    expect(after).toBe(before);
  });

  it('refuses a document over the size limit with a 413', async () => {
    const big = JSON.stringify({ document: tmdbText.padEnd(11 * 1024 * 1024, ' ') });
    const res = await send('/v1/apis', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: big,
    });
    await expectProblem(res, 413, 'payload-too-large');
  });

  it('refuses unknown options and a proxy without an allowed upstream, naming the field', async () => {
    const unknown = await expectProblem(
      await post('/v1/apis', { document: yamlText, mod: 'seeded' }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(unknown.errors)).toContain('mod');
    const proxy = await expectProblem(
      await post('/v1/apis', { document: yamlText, mode: 'proxy', upstream: 'https://evil.example.com' }),
      400,
      'validation-error',
    );
    expect((proxy.errors as { field: string }[])[0]?.field).toBe('upstream');
  });

  it('keeps an API to the key that imported it', async () => {
    expect((await send(`/v1/apis/${tmdb}`, { key: OTHER_KEY })).status).toBe(404);
    expect((await send(`/v1/apis/${tmdb}/openapi.json`, { key: OTHER_KEY })).status).toBe(404);
    expect((await send(`/v1/surfaces/${tmdb}`, { key: OTHER_KEY })).status).toBe(404);
    expect((await send(`/v1/surfaces/${tmdb}`)).status).toBe(200);
    const list = await json<{ items: { id: string }[] }>(await send('/v1/apis', { key: OTHER_KEY }));
    expect(list.items.map((a) => a.id)).not.toContain(tmdb);
    expect((await post('/v1/sessions', { api: tmdb }, OTHER_KEY)).status).toBe(404);
    expect(
      (await post(`/v1/apis/${tmdb}/surfaces`, { seed: '1', kinds: ['rename-path'] }, OTHER_KEY)).status,
    ).toBe(404);
    expect((await send(`/v1/apis/${tmdb}`, { method: 'DELETE', key: OTHER_KEY })).status).toBe(404);
  });

  it('deletes an API with its query sets and surfaces', async () => {
    const id = await importTmdb('doomed');
    const set = await json<{ id: string }>(
      await post(`/v1/apis/${id}/querysets`, { items: JSON.parse(restbenchText) }),
      201,
    );
    const surface = await json<{ id: string }>(
      await post(`/v1/apis/${id}/surfaces`, { seed: '1', kinds: ['rename-path'] }),
      201,
    );
    expect((await send(`/v1/apis/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await send(`/v1/apis/${id}`)).status).toBe(404);
    expect((await send(`/v1/apis/${id}/querysets/${set.id}`)).status).toBe(404);
    expect((await send(`/v1/surfaces/${surface.id}`)).status).toBe(404);
  });
});

describe('query sets', () => {
  it("takes RestBench's 100 queries with their gold paths, and pages them", async () => {
    const set = await json<{ id: string; items: number; format: string; warnings: unknown[] }>(
      await post(`/v1/apis/${tmdb}/querysets`, { name: 'RestBench TMDB', items: JSON.parse(restbenchText) }),
      201,
    );
    expect(set).toMatchObject({ items: 100, format: 'restbench' });
    // The data slips (whitespace, q98's parameter name) are warnings, not errors.
    expect(set.warnings.length).toBeGreaterThan(0);
    const page = await json<{
      queries: { index: number; gold: { path: { operation: string }[] } }[];
      nextCursor: number | null;
    }>(await send(`/v1/apis/${tmdb}/querysets/${set.id}?limit=40`));
    expect(page.queries).toHaveLength(40);
    expect(page.queries[0]?.gold.path.map((g) => g.operation)).toEqual([
      'GET_search-person',
      'GET_person-person_id-movie_credits',
    ]);
    const next = await json<{ queries: { index: number }[] }>(
      await send(`/v1/apis/${tmdb}/querysets/${set.id}?limit=40&cursor=${page.nextCursor}`),
    );
    expect(next.queries[0]?.index).toBe(40);
  });

  it('answers a gold path the API does not have with a 400 naming its line', async () => {
    const items = [
      { query: 'fine', solution: ['GET /search/movie'] },
      { query: 'broken', solution: ['GET /search/movie', 'GET /films/{film_id}/cast'] },
    ];
    const body = await expectProblem(
      await post(`/v1/apis/${tmdb}/querysets`, { items }),
      400,
      'validation-error',
    );
    expect(String(body.detail)).toContain('2');
    expect((body.errors as { pointer: string }[])[0]?.pointer).toBe('/items/1/solution/1');
  });
});

describe('API sessions', () => {
  it('plays a query set item over the HTTP channel and scores it with Correct Path Rate', async () => {
    const set = await json<{ id: string }>(
      await post(`/v1/apis/${tmdb}/querysets`, { items: JSON.parse(restbenchText) }),
      201,
    );
    const session = await json<{
      id: string;
      query: { text: string; index: number };
      tools: string;
      links: Record<string, string>;
    }>(await post('/v1/sessions', { api: tmdb, queryset: set.id, item: 0 }), 201);
    expect(session.query).toMatchObject({
      text: 'give me the number of movies directed by Sofia Coppola',
      index: 0,
    });
    expect(session.links.http).toBe(`/v1/sessions/${session.id}/http/{path}`);
    const search = await send(`/v1/sessions/${session.id}/http/search/person?query=Sofia%20Coppola`);
    expect(search.headers.get('tooldrift-step')).toBe('1');
    const found = await json<{ results: { id: number; name: string }[] }>(search);
    expect(found.results[0]?.name).toBe('Sofia Coppola');
    const credits = await json<{ id: number; crew: unknown[] }>(
      await send(`/v1/sessions/${session.id}/http/person/${found.results[0]?.id}/movie_credits`),
    );
    expect(credits.id).toBe(found.results[0]?.id);
    const finish = await json<{ done: boolean }>(
      await post(`/v1/sessions/${session.id}/tools/Finish`, { answer: 3 }),
    );
    expect(finish.done).toBe(true);
    const view = await json<{
      score: { correctPath: unknown; answer: unknown; goldPath: string[] };
      reward: null;
      calls: unknown[];
    }>(await send(`/v1/sessions/${session.id}`));
    expect(view.score).toMatchObject({ correctPath: { subsequence: true, set: true }, answer: 3 });
    expect(view.reward).toBeNull();
    expect(view.calls).toHaveLength(2);
  });

  it('gives two sessions with the same seed the same entities', async () => {
    const bodies: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await json<{ id: string }>(await post('/v1/sessions', { api: tmdb }), 201);
      bodies.push(await (await send(`/v1/sessions/${s.id}/http/movie/550`)).text());
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[0] as string)).toMatchObject({ id: 550 });
  });

  it('answers tool calls by name with problems naming the field, the tool, or the missing entity', async () => {
    const s = await json<{ id: string }>(await post('/v1/sessions', { api: tmdb }), 201);
    const unknown = await expectProblem(
      await post(`/v1/sessions/${s.id}/tools/GET_films`, {}),
      404,
      'not-found',
    );
    expect(String(unknown.detail)).toContain('GET_films');
    const bad = await expectProblem(
      await post(`/v1/sessions/${s.id}/tools/GET_movie-movie_id`, { movie_id: 'fifty' }),
      400,
      'validation-error',
    );
    expect((bad.errors as { field: string }[])[0]?.field).toBe('movie_id');
    const stale = await expectProblem(
      await post(`/v1/sessions/${s.id}/tools/GET_search-movie`, { q: 'Alien' }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(stale.errors)).toContain('q');
    const ok = await json<{ observation: string; response: { status: number; body: { title: string } } }>(
      await post(`/v1/sessions/${s.id}/tools/GET_movie-movie_id`, { movie_id: 11 }),
    );
    expect(ok.response.status).toBe(200);
    expect(ok.observation).toContain(ok.response.body.title);
    const missing = await json<{ observation: string; response: { status: number } }>(
      await post(`/v1/sessions/${s.id}/tools/GET_movie-movie_id`, { movie_id: 99_999_999 }),
    );
    expect(missing.response.status).toBe(404);
    expect(missing.observation).toMatch(/^Error 404: /);
    // Over HTTP: an unknown path is a 404 problem, a known one with another method a 405 naming the allowed ones.
    await expectProblem(await send(`/v1/sessions/${s.id}/http/films/1`), 404, 'not-found');
    const wrong = await send(`/v1/sessions/${s.id}/http/movie/1`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
  });

  it("keeps writes within their session (ToolAlpaca's Auth0)", async () => {
    const auth0 = (JSON.parse(toolAlpacaText) as { Name: string; Documentation: string }[]).find(
      (e) => e.Name === 'Auth0',
    );
    const api = await json<{ id: string }>(await post('/v1/apis', { document: auth0?.Documentation }), 201);
    const [a, b] = [
      await json<{ id: string }>(await post('/v1/sessions', { api: api.id }), 201),
      await json<{ id: string }>(await post('/v1/sessions', { api: api.id }), 201),
    ];
    const created = await json<{ roleId: string }>(
      await post(`/v1/sessions/${a?.id}/http/createRole?accessToken=t`, { roleName: 'Auditors' }),
    );
    const inA = await json<{ roles: { roleId: string; roleName: string }[] }>(
      await send(`/v1/sessions/${a?.id}/http/listRoles?accessToken=t`),
    );
    expect(inA.roles[0]).toMatchObject({ roleId: created.roleId, roleName: 'Auditors' });
    const inB = await (await send(`/v1/sessions/${b?.id}/http/listRoles?accessToken=t`)).text();
    expect(inB).not.toContain('Auditors');
  });

  it('answers a JSON body that breaks its schema with a 400 naming the field', async () => {
    const auth0 = (JSON.parse(toolAlpacaText) as { Name: string; Documentation: string }[]).find(
      (e) => e.Name === 'Auth0',
    );
    const api = await json<{ id: string }>(await post('/v1/apis', { document: auth0?.Documentation }), 201);
    const s = await json<{ id: string }>(await post('/v1/sessions', { api: api.id }), 201);
    const wrongType = await expectProblem(
      await post(`/v1/sessions/${s.id}/http/createRole?accessToken=t`, { roleName: 42 }),
      400,
      'validation-error',
    );
    expect((wrongType.errors as { field: string; in: string }[])[0]).toMatchObject({
      field: 'roleName',
      in: 'body',
    });
    const missing = await expectProblem(
      await post(`/v1/sessions/${s.id}/http/createRole?accessToken=t`, {}),
      400,
      'validation-error',
    );
    expect(JSON.stringify(missing.errors)).toContain('roleName');
    const notJson = await send(`/v1/sessions/${s.id}/http/createRole?accessToken=t`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'roleName=x',
    });
    const problem = await expectProblem(notJson, 415, 'unsupported-media-type');
    expect(String(problem.detail)).toContain('application/json');
  });

  it('counts every call against the step budget, journals the status sent, and injects the faults asked for', async () => {
    const s = await json<{ id: string }>(await post('/v1/sessions', { api: tmdb, stepBudget: 2 }), 201);
    expect((await send(`/v1/sessions/${s.id}/http/movie/1`)).status).toBe(200);
    const last = await send(`/v1/sessions/${s.id}/http/movie/99999999`);
    expect(last.status).toBe(404);
    expect(last.headers.get('tooldrift-done')).toBe('true');
    await last.body?.cancel();
    await expectProblem(await send(`/v1/sessions/${s.id}/http/movie/1`), 409, 'conflict');
    // The session writes its journal to D1 after its answers (batched): read it once both calls are in.
    const readJournal = async () =>
      json<{ items: { httpStatus: number; via: string; surfaceId: string }[] }>(
        await send(`/v1/admin/journal?session=${s.id}&via=http`, { key: 'test-admin-key' }),
      );
    await vi.waitFor(async () => expect((await readJournal()).items).toHaveLength(2), { timeout: 5_000 });
    const journal = await readJournal();
    expect(journal.items.map((e) => e.httpStatus).sort()).toEqual([200, 404]);
    expect(journal.items.every((e) => e.via === 'http' && e.surfaceId === tmdb)).toBe(true);

    const faulty = await json<{ id: string }>(
      await post('/v1/sessions', {
        api: tmdb,
        faults: { surface: { serverError: { rate: 1, status: 503 } } },
      }),
      201,
    );
    const failed = await send(`/v1/sessions/${faulty.id}/http/movie/1`);
    expect(failed.status).toBe(503);
    await failed.body?.cancel();
  });

  it("answers a function catalog's tools (STE's API descriptions) through the same mock", async () => {
    const api = await json<{
      id: string;
      format: string;
      operations: { name: string; params: { name: string; required: boolean }[] }[];
    }>(await post('/v1/apis', { document: steText, filename: 'API_descriptions.json' }), 201);
    expect(api.format).toBe('catalog');
    expect(api.operations).toHaveLength(817);
    const tool = api.operations.find((o) => o.params.some((p) => p.name === 'query' && p.required));
    const s = await json<{ id: string }>(await post('/v1/sessions', { api: api.id }), 201);
    const answer = await json<{ observation: string; response: { status: number } }>(
      await post(`/v1/sessions/${s.id}/tools/${tool?.name}`, { query: 'quantum computing' }),
    );
    expect(answer.response.status).toBe(200);
    expect(answer.observation.length).toBeGreaterThan(2);
    // A catalog tool has no HTTP shape: the HTTP channel has nothing there.
    expect((await send(`/v1/sessions/${s.id}/http/anything`)).status).toBe(404);
  });

  it('refuses an API session for an unknown API, query set or item, naming the field', async () => {
    const noApi = await expectProblem(await post('/v1/sessions', { api: 'nope-00000000' }), 404, 'not-found');
    expect(JSON.stringify(noApi.errors)).toContain('api');
    await expectProblem(
      await post('/v1/sessions', { api: tmdb, queryset: crypto.randomUUID() }),
      404,
      'not-found',
    );
    const set = await json<{ id: string }>(
      await post(`/v1/apis/${tmdb}/querysets`, { items: [{ query: 'q', solution: ['GET /search/movie'] }] }),
      201,
    );
    const item = await expectProblem(
      await post('/v1/sessions', { api: tmdb, queryset: set.id, item: 5 }),
      400,
      'validation-error',
    );
    expect((item.errors as { field: string }[])[0]?.field).toBe('item');
    const mixed = await expectProblem(
      await post('/v1/sessions', { api: tmdb, taskId: 'x' }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(mixed.errors)).toContain('taskId');
    const otherSurface = await expectProblem(
      await post('/v1/sessions', { api: tmdb, surface: 's-ood' }),
      400,
      'validation-error',
    );
    expect((otherSurface.errors as { field: string }[])[0]?.field).toBe('surface');
  });
});
