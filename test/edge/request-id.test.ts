import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_URL_CHARS } from '../../functions/http/edges.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

// Issue 13 item 8: RFC 9457 for 414 and X-Request-Id on every response.

const post = (path: string, body: unknown) =>
  call(path, {
    method: 'POST',
    key: USER_KEY,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('request ids and 414 (issue 13 item 8)', () => {
  beforeAll(async () => {
    await seedTestWorld();
  });

  it('answers an over-long URL with a 414 problem carrying the request id', async () => {
    const res = await call(`/v1/tasks?x=${'a'.repeat(MAX_URL_CHARS)}`, { key: USER_KEY });
    const body = await expectProblem(res, 414, 'uri-too-long');
    expect(body.maxChars).toBe(MAX_URL_CHARS);
    expect(body.requestId).toBe(res.headers.get('x-request-id'));
    // Long but within the limit: answered (here a 400 naming the unknown query parameter, not a 414).
    const long = await expectProblem(
      await call(`/v1/tasks?x=${'a'.repeat(1000)}`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    expect(long.field).toBe('x');
  });

  it('sets X-Request-Id on successful steps, tool calls and exports, echoing a caller id', async () => {
    const created = await post('/v1/sessions', { surface: 'pc', seed: 'rid' });
    expect(created.headers.get('x-request-id')).toBeTruthy();
    const { id } = (await created.json()) as { id: string };
    const step = await post(`/v1/sessions/${id}/step`, {
      action: 'LoadDB',
      action_input: { DBName: 'coffee' },
    });
    expect(step.status).toBe(200);
    expect(step.headers.get('x-request-id')).toMatch(/.+/);
    const tool = await call(`/v1/sessions/${id}/tools/LoadDB`, {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-tool-1' },
      body: JSON.stringify({ DBName: 'yelp' }),
    });
    expect(tool.status).toBe(200);
    expect(tool.headers.get('x-request-id')).toBe('trace-tool-1');
    const exported = await call('/v1/exports/sft.jsonl', { key: ADMIN_KEY });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('serves static files through the Worker with X-Request-Id, and unknown files as a 404 problem', async () => {
    const page = await call('/dashboard/', { headers: { 'x-request-id': 'trace-static-1' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('x-request-id')).toBe('trace-static-1');
    const script = await call('/dashboard/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('x-request-id')).toMatch(/.+/);
    const missing = await call('/dashboard/no-such-file.js');
    await expectProblem(missing, 404, 'not-found');
    expect(missing.headers.get('x-request-id')).toMatch(/.+/);
  });
});
