/** Helpers of the imported-API tests (apis.test.ts, api-drift.test.ts). */
import { exports } from 'cloudflare:workers';
import { tmdbText } from './api-data.ts';
import { USER_KEY } from './helpers.ts';

const BASE = 'https://tooldrift.test';

/** The Worker's fetch, retrying a 429 after its Retry-After (these tests make many calls with one key). */
export async function send(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${init.key ?? USER_KEY}`);
  for (let attempt = 0; ; attempt++) {
    const res = await exports.default.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
    if (res.status !== 429 || attempt >= 30) return res;
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
  }
}

export const post = (path: string, body: unknown, key?: string) =>
  send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(key ? { key } : {}),
  });

export async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

export async function importTmdb(seed = '0'): Promise<string> {
  return (await json<{ id: string }>(await post('/v1/apis', { document: tmdbText, seed }), 201)).id;
}
