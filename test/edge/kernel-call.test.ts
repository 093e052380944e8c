import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

async function kernel(body: unknown) {
  return call('/v1/kernel/call', {
    method: 'POST',
    key: USER_KEY,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('POST /v1/kernel/call', () => {
  let world: World;
  let tasks: Task[];
  beforeAll(async () => {
    ({ world, tasks } = await seedTestWorld());
  });

  it('carries the functional state between calls', async () => {
    const date = world.tables.coffee.cell(10, 'Date');
    const loaded = (await (await kernel({ tool: 'LoadDB', args: { DBName: 'coffee' } })).json()) as {
      observation: string;
      state: unknown;
    };
    expect(loaded.observation).toBe(
      'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.',
    );
    const filtered = (await (
      await kernel({ tool: 'FilterDB', args: { condition: `Date=${date}` }, state: loaded.state })
    ).json()) as {
      observation: string;
      state: unknown;
    };
    expect(filtered.observation).toBe('We have successfully filtered the data (1 rows).');
    const value = (await (
      await kernel({ tool: 'GetValue', args: { column_name: 'Close' }, state: filtered.state })
    ).json()) as {
      observation: string;
    };
    expect(value.observation).toBe(`{"Close": "${world.tables.coffee.cell(10, 'Close')}"}`);
    // The same call from the loaded state again: branches do not interfere.
    const again = (await (
      await kernel({ tool: 'GetValue', args: { column_name: 'Close' }, state: loaded.state })
    ).json()) as {
      observation: string;
    };
    expect(again.observation.startsWith('{"Close": [')).toBe(true);
  });

  it('runs SQLInterpreter on the D1 mirror and refuses writes with the tool error', async () => {
    const ok = (await (
      await kernel({ tool: 'SQLInterpreter', args: { SQL: 'SELECT COUNT(*) AS n FROM coffee.coffee_data' } })
    ).json()) as {
      observation: string;
    };
    expect(ok.observation).toBe(`n: ${world.tables.coffee.rowCount}`);
    const hostile = (await (
      await kernel({ tool: 'SQLInterpreter', args: { SQL: 'DELETE FROM coffee_data' } })
    ).json()) as {
      observation: string;
    };
    expect(hostile.observation).toBe(
      'There is something wrong with the SQL command you send. Please modify it.',
    );
    const still = await env.DB.prepare('SELECT count(*) AS n FROM coffee_data').first<number>('n');
    expect(still).toBe(world.tables.coffee.rowCount);
  });

  it('judges Finish against the task named by taskId', async () => {
    const task = tasks[0] as Task;
    const right = (await (
      await kernel({ tool: 'Finish', args: { answer: task.plan.at(-1)?.args.answer }, taskId: task.id })
    ).json()) as {
      observation: string;
      outcome: { kind: string; correct: boolean };
    };
    expect(right.observation).toBe('Answer is CORRECT');
    expect(right.outcome).toEqual({ kind: 'finished', correct: true });
    const wrong = (await (
      await kernel({ tool: 'Finish', args: { answer: 'certainly not this' }, taskId: task.id })
    ).json()) as {
      observation: string;
    };
    expect(wrong.observation).toBe('Answer is INCORRECT');
    const missing = await expectProblem(
      await kernel({ tool: 'Finish', args: { answer: 'x' } }),
      400,
      'validation-error',
    );
    expect(missing.field).toBe('taskId');
    await expectProblem(
      await kernel({ tool: 'Finish', args: { answer: 'x' }, taskId: 'nope' }),
      404,
      'not-found',
    );
  });

  it('validates the call', async () => {
    const unknown = await expectProblem(
      await kernel({ tool: 'Calculate', args: {} }),
      400,
      'validation-error',
    );
    expect(unknown.field).toBe('tool');
    const badState = await expectProblem(
      await kernel({ tool: 'GetValue', args: { column_name: 'x' }, state: { db: 'mnist' } }),
      400,
      'validation-error',
    );
    expect(String(badState.field).startsWith('state')).toBe(true);
    await expectProblem(
      await call('/v1/kernel/call', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      401,
      'unauthorized',
    );
    await expectProblem(
      await call('/v1/kernel/call', {
        method: 'POST',
        key: USER_KEY,
        body: 'LoadDB[flights]',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported-media-type',
    );
  });
});
