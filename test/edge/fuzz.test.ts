import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/util/random.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { call } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

/** Random JSON values of bounded depth: numbers, odd strings, nulls, arrays, objects with odd keys. */
function randomJson(rng: Rng, depth = 0): unknown {
  const kind = rng.int(0, depth > 3 ? 4 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1e308, -1e-308, 3.5, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER]);
    case 3:
    case 4:
      return randomString(rng);
    case 5:
    case 6:
      return Array.from({ length: rng.int(0, 4) }, () => randomJson(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(0, 5) }, () => [
          rng.pick([
            'text',
            'action',
            'action_input',
            'DBName',
            'condition1',
            '__proto__',
            'constructor',
            randomString(rng),
          ]),
          randomJson(rng, depth + 1),
        ]),
      );
  }
}

function randomString(rng: Rng): string {
  const pieces = [
    'LoadDB',
    'Action: ',
    'Action Input: ',
    '{"DBName": "coffee"}',
    '{',
    '}',
    '"',
    '\\',
    '\u0000',
    '\ud83d\ude00',
    '\ud800',
    'é',
    '\n',
    ' ',
    'Finish',
    'Observation:',
    "'; DROP TABLE tasks; --",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal injection probe, not a template
    '${jndi:x}',
    '%00',
    'x'.repeat(rng.int(0, 300)),
  ];
  return Array.from({ length: rng.int(0, 8) }, () => rng.pick(pieces)).join('');
}

/** A request body: valid-looking JSON, random JSON, broken JSON or plain text, under several content types. */
function randomRequest(rng: Rng): { body: string; type: string | undefined } {
  const type = rng.pick([
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
  ]);
  const shape = rng.int(0, 5);
  let body: string;
  if (shape === 0) body = JSON.stringify({ text: randomString(rng) });
  else if (shape === 1) body = JSON.stringify({ action: randomString(rng), action_input: randomJson(rng) });
  else if (shape === 2) body = JSON.stringify(randomJson(rng));
  else if (shape === 3) body = JSON.stringify(randomJson(rng)).slice(0, rng.int(0, 20));
  else body = randomString(rng);
  return { body, type };
}

describe('fuzzing the session endpoints', () => {
  let task: Task;
  beforeAll(async () => {
    const { tasks } = await seedTestWorld();
    task = tasks.find((t) => t.dataset === 'coffee') as Task;
  });

  it('answers 1,200 random and malformed bodies without a 5xx, every error as problem+json, sessions intact', async () => {
    const rng = new Rng('fuzz-sessions');
    const keys = Array.from({ length: 8 }, (_, i) => `fuzz-${i + 1}`);
    const sessions: string[] = [];
    // One session per key: a session belongs to the key that started it (issue 13 item 6), so each request
    // drives a session with its owner's key (8 keys keep the load under the per-key rate limit).
    for (const key of keys) {
      const res = await call('/v1/sessions', {
        method: 'POST',
        key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          taskId: task.id,
          stepBudget: 200,
          surface: rng.pick(['pc', 's-in', 's-ood']),
        }),
      });
      expect(res.status).toBe(201);
      sessions.push(((await res.json()) as { id: string }).id);
    }
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1200; i++) {
      const own = i % keys.length;
      const key = keys[own] as string;
      const session = rng.chance(0.95)
        ? (sessions[own] as string)
        : rng.pick(['not-a-uuid', '00000000-0000-4000-8000-000000000000', '%2e%2e']);
      const toolName = rng.pick([
        'LoadDB',
        'InitializeDatabase',
        'Init_DB',
        'FilterDB',
        'Finish',
        encodeURIComponent(randomString(rng).replace(/[\ud800-\udfff]/g, '')) || 'x',
      ]);
      const path = rng.chance(0.5)
        ? `/v1/sessions/${session}/step`
        : `/v1/sessions/${session}/tools/${toolName}`;
      const { body, type } = randomRequest(rng);
      const res = await call(path, {
        method: 'POST',
        key,
        headers: type ? { 'content-type': type } : {},
        body,
      });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const text = await res.text();
      expect(res.status, `${path} ${type} ${body.slice(0, 200)} → ${text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const problem = JSON.parse(text) as { type: string; status: number; detail: string };
        expect(problem.status).toBe(res.status);
        expect(problem.type).toMatch(/^\/problems\/[a-z-]+$/);
        expect(problem.detail.length).toBeGreaterThan(0);
        expect(text).not.toMatch(/\bat \S+\.(ts|js):\d+/); // no stack traces
      } else {
        const ok = JSON.parse(text) as { observation: string };
        expect(typeof ok.observation).toBe('string');
      }
    }
    // Both good and bad inputs were exercised.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect([...statuses.keys()].some((s) => s >= 400)).toBe(true);

    // Every session is still readable and consistent, and still plays.
    for (const [i, id] of sessions.entries()) {
      const key = keys[i] as string;
      const view = (await (await call(`/v1/sessions/${id}`, { key })).json()) as {
        steps: number;
        done: boolean;
        transcript: { index: number }[];
      };
      expect(view.transcript).toHaveLength(view.steps);
      expect(view.transcript.map((e) => e.index)).toEqual(view.transcript.map((_, n) => n));
      if (!view.done) {
        const res = await call(`/v1/sessions/${id}/step`, {
          method: 'POST',
          key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ action: 'Finish', action_input: { answer: 'x' } }),
        });
        expect(res.status).toBe(200);
      }
    }
  }, 180_000);
});
