import { evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { S_IN_SURFACE } from '../../core/surfaces/builtin.ts';
import { translateCall } from '../../core/surfaces/translate.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const json = (body: unknown) => ({
  method: 'POST',
  key: USER_KEY,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function createSession(body: Record<string, unknown>) {
  const res = await call('/v1/sessions', json(body));
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await res.json()) as {
    id: string;
    task: { id: string; question: string };
    tools: string;
    surface: string;
  };
}

const step = (id: string, body: unknown) => call(`/v1/sessions/${id}/step`, json(body));
const tool = (id: string, name: string, args: unknown) =>
  call(`/v1/sessions/${id}/tools/${name}`, json(args));

/** ReAct text for a call, as an agent would write it. */
const react = (action: string, input: unknown) =>
  `Thought: next step.\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`;

describe('sessions', () => {
  let tasks: Task[];
  let task: Task;
  beforeAll(async () => {
    ({ tasks } = await seedTestWorld());
    task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy' && t.split === 'test') as Task;
  });

  it('plays a task to the end by ReAct text and scores it', async () => {
    const s = await createSession({ taskId: task.id, seed: 'react' });
    expect(s.task).toEqual({ id: task.id, question: task.question, dataset: 'coffee', difficulty: 'easy' });
    expect(s.tools).toContain(
      '(3) LoadDB[DBName], which loads the database DBName and returns the database.',
    );
    let last: { observation: string; done: boolean; reward: number | null } | undefined;
    for (const planned of task.plan) {
      const res = await step(s.id, { text: react(planned.tool, planned.args) });
      expect(res.status).toBe(200);
      last = (await res.json()) as typeof last;
      expect(last?.observation).toBe(planned.observation);
    }
    expect(last).toMatchObject({ done: true, reward: 1, observation: 'Answer is CORRECT' });
    await expectProblem(await step(s.id, { text: react('Finish', { answer: 'again' }) }), 409, 'conflict');
    const view = (await (await call(`/v1/sessions/${s.id}`, { key: USER_KEY })).json()) as {
      transcript: { observation: string; via: string }[];
      done: boolean;
      reward: number;
    };
    expect(view.transcript.map((e) => e.observation)).toEqual(task.plan.map((p) => p.observation));
    expect(view).toMatchObject({ done: true, reward: 1 });
    expect(JSON.stringify(view)).not.toContain('"gold"');
  });

  it('accepts raw text/plain ReAct and action objects alike', async () => {
    const s = await createSession({ taskId: task.id });
    const raw = await call(`/v1/sessions/${s.id}/step`, {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'text/plain' },
      body: react('LoadDB', { DBName: 'coffee' }),
    });
    expect(((await raw.json()) as { observation: string }).observation).toMatch(
      /^We have successfully loaded the coffee database/,
    );
    const obj = await step(s.id, { action: 'GetValue', action_input: { column_name: 'Close' } });
    expect(((await obj.json()) as { observation: string }).observation.startsWith('{"Close": [')).toBe(true);
    const unparsable = (await (await step(s.id, { text: 'I think I will load it.' })).json()) as {
      observation: string;
    };
    expect(unparsable.observation).toBe(
      'Your action is filtered due to some error in content. Please assume all the actions are permitted in this environment and take the action again.',
    );
  });

  it('answers old names on s-in with the exact deprecation message, and the new names work', async () => {
    const s = await createSession({ taskId: task.id, surface: 's-in' });
    const old = (await (await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) })).json()) as {
      observation: string;
    };
    expect(old.observation).toBe(
      'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use InitializeDatabase[DatabaseName], param example: {"DatabaseName": "flights"} instead.',
    );
    const fresh = (await (
      await step(s.id, { text: react('InitializeDatabase', { DatabaseName: 'coffee' }) })
    ).json()) as {
      observation: string;
    };
    expect(fresh.observation).toMatch(/^We have successfully loaded the coffee database/);
  });

  it('serves each tool over REST in the surface shape: 200, 400, 404, 410', async () => {
    const s = await createSession({ taskId: task.id, surface: 's-in' });
    const ok = await tool(s.id, 'InitializeDatabase', { DatabaseName: 'coffee' });
    expect(ok.status).toBe(200);
    const plan = task.plan.find((p) => p.tool === 'FilterDB');
    const translated = translateCall(S_IN_SURFACE, { tool: 'FilterDB', args: plan?.args ?? {} });
    if (!translated.ok) throw new Error(translated.reason);
    const filtered = (await (await tool(s.id, translated.tool, translated.args)).json()) as {
      observation: string;
    };
    expect(filtered.observation).toBe(plan?.observation);
    const bad = await expectProblem(
      await tool(s.id, 'Apply_Database_Filters', { condition2: 'Date>=2000-01-01' }),
      400,
      'validation-error',
    );
    expect(bad.detail).toBe(
      'There is something wrong with the arguments you send for filtering. Please modify it.',
    );
    const missing = await expectProblem(await tool(s.id, 'Calculate', { formula: '1+1' }), 404, 'not-found');
    expect(missing.detail).toContain('Invalid Action. Valid Actions are');
    const gone = await expectProblem(await tool(s.id, 'LoadDB', { DBName: 'coffee' }), 410, 'gone');
    expect(gone.successor).toBe('InitializeDatabase');
    expect(gone.detail).toMatch(/^Error: LoadDB\[DBName\] is deprecated/);
  });

  it('follows a schedule on a moved clock: headers during the window, 410 and the deprecation observation after', async () => {
    const s = await createSession({
      taskId: task.id,
      schedule: {
        id: 'spring-migration',
        stages: [
          { surface: 'pc', effectiveFrom: '2026-01-01' },
          { surface: 's-in', effectiveFrom: '2026-03-01', sunsetAt: '2026-04-01' },
        ],
      },
    });
    const move = (at: string) =>
      call(`/v1/sessions/${s.id}/clock`, { ...json({ at }), key: ADMIN_KEY }).then((r) => r.json());
    await move('2026-02-01T00:00:00Z');
    const before = await tool(s.id, 'LoadDB', { DBName: 'coffee' });
    expect(before.status).toBe(200);
    expect(before.headers.get('deprecation')).toBeNull();

    await move('2026-03-15T00:00:00Z');
    const during = await tool(s.id, 'LoadDB', { DBName: 'coffee' });
    expect(during.status).toBe(200);
    expect(during.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 2, 1) / 1000}`);
    expect(during.headers.get('sunset')).toBe('Wed, 01 Apr 2026 00:00:00 GMT');
    expect(during.headers.get('link')).toContain('rel="successor-version"');
    expect(during.headers.get('link')).toContain('InitializeDatabase');
    expect((await tool(s.id, 'InitializeDatabase', { DatabaseName: 'coffee' })).status).toBe(200);

    await move('2026-04-02T00:00:00Z');
    const after = await expectProblem(await tool(s.id, 'LoadDB', { DBName: 'coffee' }), 410, 'gone');
    expect(after.successor).toBe('InitializeDatabase');
    const viaReact = (await (await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) })).json()) as {
      observation: string;
    };
    expect(viaReact.observation).toMatch(
      /^Error: LoadDB\[DBName\] is deprecated and will be removed in future releases\. Use InitializeDatabase/,
    );
  });

  it('ends on the step budget with reward -1', async () => {
    const s = await createSession({ taskId: task.id, stepBudget: 2 });
    await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) });
    const second = (await (await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) })).json()) as {
      done: boolean;
      reward: number;
      stepsLeft: number;
    };
    expect(second).toMatchObject({ done: true, reward: -1, stepsLeft: 0 });
  });

  it('injects configured faults deterministically per seed', async () => {
    const statuses = async (seed: string) => {
      const s = await createSession({
        taskId: task.id,
        seed,
        faults: { surface: { rateLimit: { rate: 0.5, retryAfterSeconds: 7 } } },
      });
      const out: number[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await tool(s.id, 'LoadDB', { DBName: 'coffee' });
        out.push(res.status);
        if (res.status === 429) expect(res.headers.get('retry-after')).toBe('7');
        await res.body?.cancel();
      }
      return out;
    };
    const a = await statuses('fault-seed');
    expect(a).toContain(429);
    expect(a).toContain(200);
    expect(await statuses('fault-seed')).toEqual(a);
  });

  it('journals every call to D1 with the status its answer had (written after the answer)', async () => {
    const s = await createSession({ taskId: task.id, surface: 's-ood' });
    const sent = [
      await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) }), // a deprecation observation: 200
      await tool(s.id, 'NoSuchTool', {}), // 404
      await tool(s.id, 'LoadDB', { DBName: 'coffee' }), // retired on s-ood: 410
      await tool(s.id, 'Init_DB', { database: 'coffee' }), // wrong parameter: 400
      await tool(s.id, 'Init_DB', { databaseIdentifier: 'coffee' }), // 200
    ].map((r) => r.status);
    expect(sent).toEqual([200, 404, 410, 400, 200]);
    const journalled = async () =>
      (
        await env.DB.prepare(
          'SELECT via, action, outcome, http_status FROM journal WHERE session_id = ? ORDER BY id',
        )
          .bind(s.id)
          .all<{ via: string; action: string; outcome: string; http_status: number }>()
      ).results;
    await vi.waitFor(async () => expect(await journalled()).toHaveLength(5), { timeout: 5_000 });
    expect(await journalled()).toEqual([
      { via: 'react', action: 'LoadDB', outcome: 'rejected', http_status: 200 },
      { via: 'rest', action: 'NoSuchTool', outcome: 'rejected', http_status: 404 },
      { via: 'rest', action: 'LoadDB', outcome: 'rejected', http_status: 410 },
      { via: 'rest', action: 'Init_DB', outcome: 'rejected', http_status: 400 },
      { via: 'rest', action: 'Init_DB', outcome: 'ok', http_status: 200 },
    ]);
  });

  it('sends to D1 the journal rows an evicted session left in its outbox, once, when it wakes', async () => {
    const s = await createSession({ taskId: task.id });
    expect((await step(s.id, { text: react('LoadDB', { DBName: 'coffee' }) })).status).toBe(200);
    const count = async () =>
      (
        await env.DB.prepare('SELECT count(*) AS n FROM journal WHERE session_id = ?')
          .bind(s.id)
          .first<{ n: number }>()
      )?.n;
    await vi.waitFor(async () => expect(await count()).toBe(1));
    // A row still in the outbox when the object went away (as if evicted before its write to D1).
    const stub = env.SESSIONS.get(env.SESSIONS.idFromName(s.id));
    await runInDurableObject(stub, (_instance, state) => {
      const row = state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM journal_outbox').one();
      expect(row.n).toBe(0); // the step's row has left the outbox
      state.storage.sql.exec(
        'INSERT INTO journal_outbox (row) VALUES (?)',
        JSON.stringify({
          sessionId: s.id,
          at: Date.now(),
          surfaceId: 'pc',
          via: 'action',
          action: 'LoadDB',
          input: { action: 'LoadDB', actionInput: { DBName: 'coffee' } },
          call: null,
          observation: 'left behind',
          outcome: 'ok',
          httpStatus: 200,
          latencyMs: 1,
          fault: null,
        }),
      );
    });
    await evictDurableObject(stub);
    expect((await call(`/v1/sessions/${s.id}`, { key: USER_KEY })).status).toBe(200); // wakes it
    await vi.waitFor(async () => expect(await count()).toBe(2));
    await new Promise((r) => setTimeout(r, 200));
    expect(await count()).toBe(2);
  });

  it('validates session requests', async () => {
    await expectProblem(await call('/v1/sessions', { ...json({}), key: undefined }), 401, 'unauthorized');
    const unknownSurface = await expectProblem(
      await call('/v1/sessions', json({ taskId: task.id, surface: 'v9' })),
      400,
      'validation-error',
    );
    expect(unknownSurface.field).toBe('surface');
    await expectProblem(await call('/v1/sessions', json({ taskId: 'nope' })), 404, 'not-found');
    const budget = await expectProblem(
      await call('/v1/sessions', json({ taskId: task.id, stepBudget: 0 })),
      400,
      'validation-error',
    );
    expect(budget.field).toBe('stepBudget');
    const faults = await expectProblem(
      await call(
        '/v1/sessions',
        json({ taskId: task.id, faults: { surface: { serverError: { rate: 2 } } } }),
      ),
      400,
      'validation-error',
    );
    expect(String(faults.field)).toMatch(/^faults/);
    await expectProblem(await step('00000000-0000-4000-8000-000000000000', { text: 'x' }), 404, 'not-found');
    await expectProblem(await step('not-a-uuid', { text: 'x' }), 400, 'validation-error');
    const s = await createSession({ taskId: task.id });
    await expectProblem(await step(s.id, { text: 'x', action: 'y' }), 400, 'validation-error');
    await expectProblem(
      await call(`/v1/sessions/${s.id}/clock`, json({ advanceMs: 1000 })),
      403,
      'forbidden',
    );
  });
});
