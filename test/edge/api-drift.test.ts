/**
 * A drifted TMDB through the Worker (issue 22 §4, §5): a surface from four drift kinds, its OpenAPI document
 * (valid) and its diff; a schedule that moves a session from the API as imported to the drifted one with a
 * deprecation window — old routes deprecated with RFC 9745 / 8594 headers, then 410 naming the successor; the
 * gold path played on the drifted routes; MCP `tools/list` and `tools/call` with the official SDK client.
 */
import { exports } from 'cloudflare:workers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { importApi, validateOpenApiDocument } from '../../core/apis/import/index.ts';
import { type ScriptedAnswer, scriptedArgs } from '../../core/apis/scripted.ts';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { translateBaseCall } from '../../core/apis/surface/translate.ts';
import type { ApiCatalog } from '../../core/apis/types.ts';
import restbenchText from '../../data/apis/restbench-tmdb/restgpt/datasets/tmdb.json?raw';
import { tmdbText } from './api-data.ts';
import { importTmdb, json, post, send } from './api-helpers.ts';
import { ADMIN_KEY, expectProblem, USER_KEY } from './helpers.ts';

const KINDS = ['rename-path', 'rename-params', 'version-prefix', 'reshape-response', 'rename-operation'];

let api: string;
let surfaceId: string;
let surface: ApiSurface;
let catalog: ApiCatalog;

beforeAll(async () => {
  api = await importTmdb('drift');
  const created = await json<{ id: string; tools: string[]; retired: string[] }>(
    await post(`/v1/apis/${api}/surfaces`, { seed: '7', kinds: KINDS }),
    201,
  );
  surfaceId = created.id;
  surface = (await json<{ surface: ApiSurface }>(await send(`/v1/surfaces/${surfaceId}`))).surface;
  const imported = await importApi({ text: tmdbText });
  if (!imported.ok) throw new Error('TMDB does not import');
  catalog = imported.catalog;
});

describe('a drifted TMDB', () => {
  it('is a valid OpenAPI 3.1 document of the drifted API, and its diff lists what changed', async () => {
    const doc = await json<{ openapi: string; paths: Record<string, unknown> }>(
      await send(`/v1/surfaces/${surfaceId}/openapi.json`),
    );
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(validateOpenApiDocument(doc)).toEqual([]);
    // The drifted routes; the original ones are documented as deprecated (they answer 410 naming the successor).
    const current = Object.entries(doc.paths).filter(
      ([, item]) => !(item as { get?: { deprecated?: boolean } }).get?.deprecated,
    );
    expect(current.length).toBe(54);
    expect(current.every(([p]) => /^\/v\d+\//.test(p))).toBe(true);
    expect((doc.paths['/search/person'] as { get: { deprecated: boolean } }).get.deprecated).toBe(true);
    const diff = await json<Record<string, unknown>>(
      await send(`/v1/surfaces/${surfaceId}/diff?against=${api}`),
    );
    expect(JSON.stringify(diff)).toContain('/search/person');
    // Same seed and kinds, same surface: a second request conflicts on the same id.
    expect((await post(`/v1/apis/${api}/surfaces`, { seed: '7', kinds: KINDS })).status).toBe(409);
    // An unknown kind is a 400 naming it.
    const bad = await expectProblem(
      await post(`/v1/apis/${api}/surfaces`, { seed: '7', kinds: ['rename-tool'] }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(bad.errors)).toContain('kinds');
  });

  it('serves the old routes deprecated during the window, then 410 naming the successor', async () => {
    const schedule = {
      id: 'tmdb-v2',
      stages: [
        { surface: api, effectiveFrom: '2026-01-01' },
        { surface: surfaceId, effectiveFrom: '2026-03-01', sunsetAt: '2026-06-01' },
      ],
    };
    const s = await json<{ id: string }>(await post('/v1/sessions', { api, schedule, stepBudget: 50 }), 201);
    const clock = async (at: string) =>
      expect((await post(`/v1/sessions/${s.id}/clock`, { at }, ADMIN_KEY)).status).toBe(200);
    await clock('2026-02-01T00:00:00Z');
    const before = await send(`/v1/sessions/${s.id}/http/movie/550`);
    expect(before.status).toBe(200);
    expect(before.headers.get('deprecation')).toBeNull();
    await before.body?.cancel();
    await clock('2026-04-01T00:00:00Z');
    const during = await send(`/v1/sessions/${s.id}/http/movie/550`);
    expect(during.status).toBe(200);
    expect(during.headers.get('deprecation')).toBe(`@${Date.parse('2026-03-01') / 1000}`);
    expect(during.headers.get('sunset')).toBe('Mon, 01 Jun 2026 00:00:00 GMT');
    expect(during.headers.get('link')).toContain('rel="successor-version"');
    await during.body?.cancel();
    await clock('2026-07-01T00:00:00Z');
    const after = await expectProblem(await send(`/v1/sessions/${s.id}/http/movie/550`), 410, 'gone');
    const successor = surface.tools.find((t) => t.operation === 'GET_movie-movie_id');
    expect(after.successor).toBe(successor?.name);
    expect(String(after.detail)).toContain(successor?.path as string);
    // The successor's route answers.
    const t = translateBaseCall(surface, catalog, 'GET_movie-movie_id', { movie_id: 550 });
    if (!t.ok || !t.http) throw new Error('no translation');
    const now = await send(`/v1/sessions/${s.id}/http${t.http.path}`);
    expect(now.status).toBe(200);
    await now.body?.cancel();
  });

  it('plays a RestBench gold path translated onto the drifted routes and scores Correct Path Rate 100', async () => {
    const set = await json<{ id: string }>(
      await post(`/v1/apis/${api}/querysets`, { items: JSON.parse(restbenchText) }),
      201,
    );
    const s = await json<{ id: string; query: { text: string } }>(
      await post('/v1/sessions', { api, surface: surfaceId, queryset: set.id, item: 1 }),
      201,
    );
    const gold = ['GET_search-movie', 'GET_movie-movie_id-credits'];
    const answers: ScriptedAnswer[] = [];
    for (const name of gold) {
      const op = catalog.operations.find((o) => o.name === name);
      if (!op) throw new Error(name);
      const t = translateBaseCall(surface, catalog, name, scriptedArgs(op, answers, s.query.text));
      if (!t.ok || !t.http) throw new Error('no translation');
      const query = new URLSearchParams(t.http.query).toString();
      const res = await send(`/v1/sessions/${s.id}/http${t.http.path}${query ? `?${query}` : ''}`, {
        method: t.http.method.toUpperCase(),
        ...(t.http.body !== undefined
          ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(t.http.body) }
          : {}),
      });
      answers.push({ operation: `${name} ${op.path}`, body: await json(res) });
    }
    await post(`/v1/sessions/${s.id}/tools/Finish`, { answer: 'Christian Bale' });
    const view = await json<{ score: { correctPath: unknown; goldOnSurface: string[] } }>(
      await send(`/v1/sessions/${s.id}`),
    );
    expect(view.score.correctPath).toEqual({ subsequence: true, set: true });
    expect(view.score.goldOnSurface.every((r) => /^GET \/v\d+\//.test(r))).toBe(true);
  });

  it('is an MCP server for the official SDK client: tools/list with the drifted tools, tools/call a step', async () => {
    const s = await json<{ id: string }>(await post('/v1/sessions', { api, surface: surfaceId }), 201);
    const transport = new StreamableHTTPClientTransport(
      new URL(`https://tooldrift.test/v1/sessions/${s.id}/mcp`),
      {
        fetch: (url, init) => exports.default.fetch(new Request(url, init)),
        requestInit: { headers: { authorization: `Bearer ${USER_KEY}` } },
      },
    );
    const client = new Client({ name: 'tooldrift-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...surface.tools.map((t) => t.name), 'Finish'].sort());
      const tool = surface.tools.find((t) => t.operation === 'GET_movie-movie_id');
      const idParam = tool?.params.find((p) => p.kind === 'param' && p.base === 'movie_id')?.name as string;
      const listed = tools.find((t) => t.name === tool?.name);
      expect(
        Object.keys((listed?.inputSchema as { properties?: object } | undefined)?.properties ?? {}),
      ).toContain(idParam);
      const result = await client.callTool({ name: tool?.name as string, arguments: { [idParam]: 603 } });
      expect(result.isError).toBe(false);
      const text = (result.content as { type: string; text: string }[])[0]?.text as string;
      expect(text).toContain('603');
      // The base name is no longer served on this surface: a tool result with the message naming the successor.
      const old = await client.callTool({ name: 'GET_movie-movie_id', arguments: { movie_id: 603 } });
      expect(old.isError).toBe(true);
      expect((old.content as { text: string }[])[0]?.text).toContain(tool?.name as string);
    } finally {
      await client.close();
    }
  });
});
