import { describe, expect, it } from 'vitest';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';

describe('HTTP conventions', () => {
  it('answers unknown routes with a 404 problem and a request id', async () => {
    const res = await call('/no/such/route');
    const body = await expectProblem(res, 404, 'not-found');
    expect(body.detail).toContain('GET /no/such/route');
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('keeps a caller-supplied request id', async () => {
    const res = await call('/health', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await call('/health', { method: 'DELETE' });
    await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('rejects malformed JSON with 400 naming the parse error', async () => {
    const res = await call('/v1/admin/canary', {
      method: 'POST',
      key: ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: '{"a": 1,,}',
    });
    const body = await expectProblem(res, 400, 'malformed-json');
    expect(body.detail).toMatch(/^Malformed JSON in request body: .+/);
    expect(body.detail).not.toMatch(/at .*\.ts/); // no stack trace
  });

  it('rejects an empty JSON body as malformed', async () => {
    const res = await call('/v1/admin/canary', {
      method: 'POST',
      key: ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: '',
    });
    const body = await expectProblem(res, 400, 'malformed-json');
    expect(body.detail).toContain('the body is empty');
  });

  it('rejects an oversized body with 413 before parsing it', async () => {
    const res = await call('/v1/admin/canary', {
      method: 'POST',
      key: ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(1_100_000) }),
    });
    const body = await expectProblem(res, 413, 'payload-too-large');
    expect(body.maxBytes).toBe(1_048_576);
  });

  it('validates path parameters with a problem naming the field', async () => {
    const res = await call(`/v1/jobs/${'x'.repeat(201)}`, { key: USER_KEY });
    const body = await expectProblem(res, 400, 'validation-error');
    expect(body.field).toBe('id');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'param', field: 'id', pointer: '/id' })]);
  });
});

describe('authentication', () => {
  it('requires a key on guarded routes', async () => {
    const res = await call('/v1/jobs/anything');
    const body = await expectProblem(res, 401, 'unauthorized');
    expect(body.detail).toContain('Authorization: Bearer');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('rejects an invalid key', async () => {
    const res = await call('/v1/jobs/anything', { key: 'not-a-key' });
    await expectProblem(res, 401, 'unauthorized');
  });

  it('rejects a malformed Authorization header', async () => {
    const res = await call('/v1/jobs/anything', { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    await expectProblem(res, 401, 'unauthorized');
  });

  it('accepts a valid key (and reports the resource as missing)', async () => {
    const res = await call('/v1/jobs/missing-job', { key: USER_KEY });
    const body = await expectProblem(res, 404, 'not-found');
    expect(body.detail).toContain('missing-job');
  });

  it('keeps admin routes from user keys with 403', async () => {
    const res = await call('/v1/admin/canary', { method: 'POST', key: USER_KEY });
    await expectProblem(res, 403, 'forbidden');
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once the burst is spent', async () => {
    // The test configuration allows a burst of 200 per key and refills at 600 per minute (10 per second).
    // Requests go in concurrent batches of 50, so a slow machine cannot refill the bucket as fast as it is
    // spent (a sequential loop could, at ≥ 100 ms per request). The first 200 requests, in whatever order they
    // are answered, spend at most the burst, so all of them must pass.
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let batch = 0; batch < 20 && !limited; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 50 }, () => call('/v1/jobs/none', { key: 'test-ratelimit-key' })),
      );
      for (const res of responses) {
        statuses.push(res.status);
        if (res.status === 429 && !limited) limited = res;
        else await res.body?.cancel();
      }
    }
    expect(statuses.slice(0, 200).every((s) => s === 404)).toBe(true);
    expect(limited).toBeDefined();
    const res = limited as Response;
    const body = await expectProblem(res, 429, 'rate-limited');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfterSeconds).toBe(retryAfter);
  });

  it('keeps buckets per key: another key is unaffected', async () => {
    const res = await call('/v1/jobs/none', { key: USER_KEY });
    expect(res.status).toBe(404);
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThan(0);
  });
});

describe('documentation', () => {
  it('lists every registered route in /openapi.json', async () => {
    const { createApp } = await import('../../functions/app.ts');
    const app = createApp();
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const routes = app.routes.filter((r) => r.method !== 'ALL');
    expect(routes.length).toBeGreaterThan(5);
    for (const r of routes) {
      // A route of any depth below a prefix (`/v1/sessions/:id/http/*`) is documented with a `{path}` parameter.
      const path = r.path.replace(/:(\w+)/g, '{$1}').replace(/\/\*$/, '/{path}');
      expect(doc.paths[path], `${r.method} ${r.path}`).toBeDefined();
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    }
  });

  it('serves the human docs page and problem type pages', async () => {
    const docs = await call('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toContain('text/html');
    const html = await docs.text();
    expect(html).toContain('/v1/jobs/{id}');
    expect(html).toContain('/problems/rate-limited');
    const p = await call('/problems/rate-limited');
    expect(p.status).toBe(200);
    expect(await p.text()).toContain('Too many requests');
    await expectProblem(await call('/problems/nope'), 404, 'not-found');
  });
});
