/**
 * An imported API in proxy mode (issue 22 §3) against a real local upstream this test starts: the drifted call
 * is translated back to the upstream's own request (path, query, JSON body), sent with the origin's secret
 * (from the Worker secret named in API_PROXY_ORIGINS), and the upstream's answers — errors included — come back as
 * they came, reshaped by the surface. The secret appears in no answer, transcript or journal.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { E2E_UPSTREAM_SECRET } from './local-instance.ts';

const baseUrl = inject('baseUrl');
const userKey = inject('userKey');
const adminKey = inject('adminKey');

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Stock', version: '1' },
  paths: {
    '/items/{item_id}': {
      get: {
        operationId: 'getItem',
        parameters: [
          { name: 'item_id', in: 'path', required: true, schema: { type: 'integer' } },
          { name: 'fields', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The item',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
              },
            },
          },
          '404': {
            description: 'Missing',
            content: {
              'application/json': { schema: { type: 'object', properties: { error: { type: 'string' } } } },
            },
          },
        },
      },
    },
    '/items': {
      post: {
        operationId: 'createItem',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, stock: { type: 'integer' } },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Created',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  },
};

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: string;
}

let upstream: Server;
let upstreamUrl = '';
const seen: Seen[] = [];

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

async function api<T>(
  path: string,
  init: RequestInit = {},
  status = 200,
  key = userKey,
): Promise<{ body: T; res: Response }> {
  const res = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${path}: expected ${status}, got ${res.status} ${text}`);
  return { body: (text ? JSON.parse(text) : null) as T, res };
}

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const body = await readBody(req);
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      key: req.headers['x-upstream-key'] as string | undefined,
      body,
    });
    if (req.url?.startsWith('/api/items/404')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'no such item' }));
    } else if (req.method === 'POST') {
      res
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 77, ...JSON.parse(body) }));
    } else {
      res
        .writeHead(200, { 'content-type': 'application/json', 'retry-after': '3' })
        .end(JSON.stringify({ id: Number(req.url?.split('/')[3]?.split('?')[0]), name: 'widget' }));
    }
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const address = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;
});

afterAll(async () => {
  await new Promise<void>((r) => upstream.close(() => r()));
});

describe('an imported API in proxy mode', () => {
  it('forwards drifted calls to the upstream with its secret and passes the answers through', async () => {
    const { body: imported } = await api<{ id: string; mode: string; upstream: string }>(
      '/v1/apis',
      { method: 'POST', body: JSON.stringify({ document: DOC, mode: 'proxy', upstream: upstreamUrl }) },
      201,
    );
    expect(imported).toMatchObject({ mode: 'proxy', upstream: upstreamUrl });
    const { body: surface } = await api<{ id: string }>(
      `/v1/apis/${imported.id}/surfaces`,
      {
        method: 'POST',
        body: JSON.stringify({ seed: '3', kinds: ['rename-path', 'rename-params', 'version-prefix'] }),
      },
      201,
    );
    const { body: doc } = await api<{
      paths: Record<
        string,
        Record<string, { deprecated?: boolean; parameters?: { name: string; in: string }[] }>
      >;
    }>(`/v1/surfaces/${surface.id}/openapi.json`);
    const [path, item] = Object.entries(doc.paths).find(([, i]) => i.get && !i.get.deprecated) ?? [];
    const idName = item?.get?.parameters?.find((p) => p.in === 'path')?.name as string;
    const { body: session } = await api<{ id: string }>(
      '/v1/sessions',
      { method: 'POST', body: JSON.stringify({ api: imported.id, surface: surface.id }) },
      201,
    );

    const concrete = (path as string).replace(`{${idName}}`, '5');
    const { body: got, res } = await api<{ id: number; name: string }>(
      `/v1/sessions/${session.id}/http${concrete}`,
    );
    expect(got).toEqual({ id: 5, name: 'widget' });
    expect(res.headers.get('retry-after')).toBe('3');
    // The upstream saw its own route and the secret, in its own header.
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/items/5', key: E2E_UPSTREAM_SECRET });

    const missing = await fetch(
      `${baseUrl}/v1/sessions/${session.id}/http${(path as string).replace(`{${idName}}`, '404')}`,
      {
        headers: { authorization: `Bearer ${userKey}` },
      },
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no such item' });

    const { body: transcript } = await api<Record<string, unknown>>(`/v1/sessions/${session.id}`);
    const { body: journal } = await api<unknown>(
      `/v1/admin/journal?session=${session.id}`,
      {},
      200,
      adminKey,
    );
    for (const text of [JSON.stringify(transcript), JSON.stringify(journal), JSON.stringify(got)]) {
      expect(text).not.toContain(E2E_UPSTREAM_SECRET);
    }
  });

  it('refuses an upstream the operator did not allow, naming the field', async () => {
    const res = await fetch(`${baseUrl}/v1/apis`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ document: DOC, mode: 'proxy', upstream: 'http://10.0.0.1:8080/api' }),
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { field: string }[]; detail: string };
    expect(problem.errors[0]?.field).toBe('upstream');
    expect(problem.detail).not.toContain(E2E_UPSTREAM_SECRET);
  });
});
