import { exports } from 'cloudflare:workers';

export const USER_KEY = 'test-user-key';
export const ADMIN_KEY = 'test-admin-key';

/** Sends a request to the Worker under test (its default export's fetch handler). */
export function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  return exports.default.fetch(new Request(`https://tooldrift.test${path}`, { ...init, headers }));
}

/** A JSON POST with the user key. */
export const postJson = (path: string, body: unknown) =>
  call(path, {
    method: 'POST',
    key: USER_KEY,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

export async function expectProblem(res: Response, status: number, slug: string) {
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== status || res.headers.get('content-type') !== 'application/problem+json') {
    throw new Error(
      `expected ${status} problem+json, got ${res.status} ${res.headers.get('content-type')}: ${JSON.stringify(body)}`,
    );
  }
  if (
    body.type !== `/problems/${slug}` ||
    body.status !== status ||
    typeof body.detail !== 'string' ||
    !body.title
  ) {
    throw new Error(`problem body mismatch: ${JSON.stringify(body)}`);
  }
  return body;
}

/** Reads until `done` holds (every 100 ms, for at most 50 s); the error names `what` and the last value. */
export async function waitUntil<T>(
  what: string,
  read: () => Promise<T>,
  done: (v: T) => boolean,
): Promise<T> {
  const deadline = Date.now() + 50_000;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
