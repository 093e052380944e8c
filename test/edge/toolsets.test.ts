/**
 * Toolsets API (issue 14 §5): creation from a JSON Lines upload, a surface and the synthetic catalog; list and
 * read; search with each untrained ranker; and the bad paths (malformed line with its number, too many tools,
 * unknown surface, unknown toolset, bad search options, no key) as problem+json 4xx.
 */
import { describe, expect, it } from 'vitest';
import { call, expectProblem, postJson as post, USER_KEY } from './helpers.ts';

const TOOLS = [
  { name: 'getWeatherForecast', description: 'Weather forecast for a city', parameters: { type: 'object' } },
  { name: 'book_flight', description: 'Books a plane ticket between two airports' },
  { name: 'convertCurrency', description: 'Converts money from one currency to another' },
];
const jsonl = TOOLS.map((t) => JSON.stringify(t)).join('\n');

interface ToolsetJson {
  id: string;
  name: string;
  source: string;
  toolCount: number;
  tools?: { name: string; description: string; parameters?: unknown }[];
}

async function created(body: unknown): Promise<ToolsetJson> {
  const res = await post('/v1/toolsets', body);
  expect(res.status).toBe(201);
  const json = (await res.json()) as ToolsetJson;
  expect(res.headers.get('location')).toBe(`/v1/toolsets/${json.id}`);
  return json;
}

describe('toolsets', () => {
  it('creates a toolset from a JSON Lines upload, lists it, reads it and searches it', async () => {
    const ts = await created({ source: 'upload', name: 'travel', jsonl: `${jsonl}\n\n` });
    expect(ts).toMatchObject({ name: 'travel', source: 'upload', toolCount: 3 });
    const list = (await (await call('/v1/toolsets', { key: USER_KEY })).json()) as {
      items: ToolsetJson[];
      nextCursor: string | null;
    };
    expect(list.items.map((t) => t.id)).toContain(ts.id);
    const detail = (await (await call(`/v1/toolsets/${ts.id}`, { key: USER_KEY })).json()) as ToolsetJson;
    expect(detail.tools).toEqual(TOOLS);
    for (const ranker of ['bm25', 'char', 'dense', 'hybrid']) {
      const res = await post(`/v1/toolsets/${ts.id}/search`, {
        query: 'book a flight to Rome',
        k: 2,
        ranker,
      });
      expect(res.status).toBe(200);
      const out = (await res.json()) as {
        ranker: string;
        results: { rank: number; score: number; tool: { name: string } }[];
      };
      expect(out.ranker).toBe(ranker);
      expect(out.results[0]?.tool.name).toBe('book_flight');
      expect(out.results[0]?.rank).toBe(1);
      expect(out.results.length).toBeLessThanOrEqual(2);
    }
  });

  it('creates toolsets from a surface and from the synthetic catalog', async () => {
    const surface = await created({ source: 'surface', name: 's-ood tools', surface: 's-ood' });
    const detail = (await (
      await call(`/v1/toolsets/${surface.id}`, { key: USER_KEY })
    ).json()) as ToolsetJson;
    expect(detail.tools?.map((t) => t.name)).toContain('Init_DB');
    const synthetic = await created({ source: 'synthetic', name: 'catalog', tools: 2_000, seed: 'edge' });
    expect(synthetic.toolCount).toBe(2_000);
    const res = await post(`/v1/toolsets/${synthetic.id}/search`, {
      query: 'list all invoices by region',
      k: 5,
    });
    const out = (await res.json()) as { results: { tool: { name: string } }[] };
    expect(out.results).toHaveLength(5);
  });

  it('names the malformed line of an upload', async () => {
    const bad = `${jsonl}\n{"name": "x", "description": 3}`;
    const body = await expectProblem(
      await post('/v1/toolsets', { source: 'upload', name: 'bad', jsonl: bad }),
      400,
      'validation-error',
    );
    expect(body.line).toBe(4);
    expect(body.detail).toMatch(/line 4: description/);
    const notJson = await expectProblem(
      await post('/v1/toolsets', {
        source: 'upload',
        name: 'bad',
        jsonl: '{"name": "a", "description": "b"}\n{oops',
      }),
      400,
      'validation-error',
    );
    expect(notJson.detail).toMatch(/line 2: not valid JSON/);
    const dup = await expectProblem(
      await post('/v1/toolsets', {
        source: 'upload',
        name: 'dup',
        jsonl: `${jsonl}\n${JSON.stringify(TOOLS[0])}`,
      }),
      400,
      'validation-error',
    );
    expect(dup.detail).toMatch(/line 4: duplicate tool name "getWeatherForecast" \(first on line 1\)/);
    await expectProblem(
      await post('/v1/toolsets', { source: 'upload', name: 'empty', jsonl: '\n \n' }),
      400,
      'validation-error',
    );
  });

  it('limits the size of an upload', async () => {
    const many = Array.from({ length: 5_001 }, (_, i) => `{"name":"t${i}","description":"d"}`).join('\n');
    const body = await expectProblem(
      await post('/v1/toolsets', { source: 'upload', name: 'big', jsonl: many }),
      413,
      'payload-too-large',
    );
    expect(body.maxTools).toBe(5_000);
    const huge = 'x'.repeat(1_100_000);
    await expectProblem(
      await post('/v1/toolsets', { source: 'upload', name: 'huge', jsonl: huge }),
      413,
      'payload-too-large',
    );
  });

  it('rejects bad creation bodies, unknown surfaces and toolsets, bad search options and missing keys', async () => {
    await expectProblem(await post('/v1/toolsets', { source: 'ftp', name: 'x' }), 400, 'validation-error');
    await expectProblem(
      await post('/v1/toolsets', { source: 'synthetic', name: 'x', tools: 100_001 }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post('/v1/toolsets', { source: 'synthetic', name: '' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post('/v1/toolsets', { source: 'surface', name: 'x', surface: 'nope' }),
      404,
      'not-found',
    );
    await expectProblem(await call('/v1/toolsets/nope', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await post('/v1/toolsets/nope/search', { query: 'x' }), 404, 'not-found');
    const ts = await created({ source: 'upload', name: 'small', jsonl });
    await expectProblem(await post(`/v1/toolsets/${ts.id}/search`, { query: '' }), 400, 'validation-error');
    await expectProblem(
      await post(`/v1/toolsets/${ts.id}/search`, { query: 'x', k: 0 }),
      400,
      'validation-error',
    );
    await expectProblem(
      await post(`/v1/toolsets/${ts.id}/search`, { query: 'x', ranker: 'magic' }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('/v1/toolsets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ source: 'upload', name: 'x', jsonl }),
      }),
      401,
      'unauthorized',
    );
    await expectProblem(await call('/v1/toolsets'), 401, 'unauthorized');
    // Beyond MAX_DENSE_POOL dense search goes to the toolset's Durable Object index (tool-index.test.ts):
    // 503 with the build's progress until it is ready.
    const big = await created({ source: 'synthetic', name: 'big', tools: 6_000 });
    const dense = await expectProblem(
      await post(`/v1/toolsets/${big.id}/search`, { query: 'x', ranker: 'dense' }),
      503,
      'unavailable',
    );
    expect(dense.detail).toMatch(/beyond the 5000 embedded inside a request/);
  });

  it('lists the toolset routes in /openapi.json', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/v1/toolsets'] ?? {})).toEqual(expect.arrayContaining(['get', 'post']));
    expect(doc.paths['/v1/toolsets/{id}']?.get).toBeDefined();
    expect(doc.paths['/v1/toolsets/{id}/search']?.post).toBeDefined();
  });
});
