import { beforeAll, describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../functions/http/json-depth.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

// Issue 13 item 5: deeply nested JSON is a 400 problem, never a 500 from a stack overflow downstream.

const post = (path: string, body: string) =>
  call(path, { method: 'POST', key: USER_KEY, headers: { 'content-type': 'application/json' }, body });
const deep = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

async function session(): Promise<string> {
  const res = await post('/v1/sessions', JSON.stringify({ surface: 'pc', seed: 'deep-json' }));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('JSON nesting bound (issue 13 item 5)', () => {
  beforeAll(async () => {
    await seedTestWorld();
  });

  it('measures depth outside strings only', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a": [1, {"b": []}]}')).toBe(4);
    expect(jsonDepth('{"a": "[[[[\\"[[["}')).toBe(1);
  });

  it('answers 400 problem+json for 5,000 levels to /tools/LoadDB, in action_input and in kernel args', async () => {
    const id = await session();
    for (const [path, body] of [
      [`/v1/sessions/${id}/tools/LoadDB`, `{"DBName": ${deep(5000)}}`],
      [`/v1/sessions/${id}/step`, `{"action": "LoadDB", "action_input": {"DBName": ${deep(5000)}}}`],
      ['/v1/kernel/call', `{"tool": "LoadDB", "args": {"DBName": ${deep(5000)}}}`],
    ] as const) {
      const res = await post(path, body);
      const problem = await expectProblem(res, 400, 'validation-error');
      expect(problem.detail).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    // just under the bound is accepted
    const ok = await post(
      '/v1/kernel/call',
      `{"tool": "LoadDB", "args": {"DBName": ${deep(MAX_JSON_DEPTH - 2)}}}`,
    );
    expect(ok.status).toBe(200);
  });

  it('steps with action_input JSON text whose decoded values are Python ints or 800 levels deep', async () => {
    const id = await session();
    for (const text of ['{"DBName": 1}', '{"DBName": [1.5, 2]}', `{"DBName": ${deep(800)}}`]) {
      const res = await post(
        `/v1/sessions/${id}/step`,
        JSON.stringify({ action: 'LoadDB', action_input: text }),
      );
      expect(res.status, text.slice(0, 20)).toBe(200);
      const body = (await res.json()) as { observation: string };
      expect(body.observation).toBe(
        'The database you want to query in not in the list. Please change another database for query.',
      );
    }
    const res = await post(
      `/v1/sessions/${id}/step`,
      JSON.stringify({ action: 'LoadDB', action_input: `{"DBName": ${deep(5000)}}` }),
    );
    expect(((await res.json()) as { observation: string }).observation).toMatch(
      /maximum recursion depth exceeded/,
    );
    const view = await call(`/v1/sessions/${id}`, { key: USER_KEY });
    const transcript = ((await view.json()) as { transcript: { call?: { args: unknown } }[] }).transcript;
    expect(transcript[0]?.call?.args).toEqual({ DBName: 1 });
  });
});
