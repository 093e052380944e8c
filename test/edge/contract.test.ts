/**
 * One API contract (issue 24 item 6): strict JSON bodies at every depth (an unknown field is a 400 naming it),
 * a 415 naming the media type the route takes, validation errors located in `body`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../core/world/tasks/types.ts';
import { ADMIN_KEY, call, expectProblem, postJson, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

describe('strict request bodies', () => {
  let task: Task;
  beforeAll(async () => {
    const { tasks } = await seedTestWorld();
    task = tasks.find((t) => t.dataset === 'coffee') as Task;
  });

  it('refuses a misspelt top-level field instead of applying the default (stepbudget → 400)', async () => {
    const res = await postJson('/v1/sessions', { taskId: task.id, stepbudget: 3 });
    const body = await expectProblem(res, 400, 'validation-error');
    expect(body.field).toBe('stepbudget');
    expect(body.detail).toContain('body.stepbudget');
    expect(body.detail).toContain('stepBudget'); // the fields it does take, so the typo is visible
    expect(body.errors).toEqual([
      expect.objectContaining({ in: 'body', field: 'stepbudget', pointer: '/stepbudget' }),
    ]);
    // The same body spelt right is accepted.
    expect((await postJson('/v1/sessions', { taskId: task.id, stepBudget: 3 })).status).toBe(201);
  });

  it('refuses unknown fields nested in objects, and names each of them', async () => {
    const res = await postJson('/v1/sessions', {
      filter: { dataset: 'coffee', difficult: 'easy' },
      faults: { rates: {}, bogus: 1 },
    });
    const body = await expectProblem(res, 400, 'validation-error');
    const fields = (body.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toContain('filter.difficult');
    expect(body.field).toBe('filter.difficult');
  });

  it('refuses unknown fields in nested settings, union options and method option blocks', async () => {
    const search = await postJson('/v1/explorations', {
      tasks: { dataset: 'coffee', limit: 1 },
      search: { simulation: 4 },
    });
    expect((await expectProblem(search, 400, 'validation-error')).field).toBe('search.simulation');

    // `tasks` is a list of ids or a filter: the filter option is the one the value is.
    const union = await postJson('/v1/explorations', { tasks: { dataset: 'coffee', limt: 1 } });
    expect((await expectProblem(union, 400, 'validation-error')).field).toBe('tasks.limt');

    const evaluation = await postJson('/v1/evals', {
      methods: ['mcts'],
      surfaces: ['pc'],
      datasets: ['coffee'],
      mcts: { simulation: 3 },
    });
    expect((await expectProblem(evaluation, 400, 'validation-error')).field).toBe('mcts.simulation');
  });

  it('leaves open what is declared open: REST tool arguments are the surface’s to judge', async () => {
    const created = (await (await postJson('/v1/sessions', { taskId: task.id })).json()) as { id: string };
    const res = await postJson(`/v1/sessions/${created.id}/tools/LoadDB`, { DBName: 'coffee' });
    expect(res.status).toBe(200);
  });

  it('names the unknown field of a strict union option instead of the union summary (a step body)', async () => {
    const created = (await (await postJson('/v1/sessions', { taskId: task.id })).json()) as { id: string };
    const res = await postJson(`/v1/sessions/${created.id}/step`, {
      action: 'LoadDB',
      action_input: { DBName: 'coffee' },
      thought: 'x',
    });
    const body = await expectProblem(res, 400, 'validation-error');
    expect(body.field).toBe('thought');
    expect(body.errors).toEqual([
      expect.objectContaining({ in: 'body', field: 'thought', pointer: '/thought' }),
    ]);
    // A body that matches no option at all still gets the union's own summary.
    const neither = await postJson(`/v1/sessions/${created.id}/step`, { act: 'LoadDB' });
    expect((await expectProblem(neither, 400, 'validation-error')).detail).toContain('action_input');
  });

  it('checks the key before the body: an unknown field without a key is a 401', async () => {
    const res = await call('/v1/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stepbudget: 3 }),
    });
    await expectProblem(res, 401, 'unauthorized');
  });

  it('applies to admin routes and strict schemas alike (one error per unknown key)', async () => {
    const res = await call('/v1/keys', {
      method: 'POST',
      key: ADMIN_KEY,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', quota: 5, rate: 1 }),
    });
    const body = await expectProblem(res, 400, 'validation-error');
    expect((body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual(['quota', 'rate']);
  });
});

describe('media types', () => {
  it('answers another media type with a 415 naming application/json', async () => {
    const res = await call('/v1/kernel/call', {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'text/plain' },
      body: 'LoadDB[flights]',
    });
    const body = await expectProblem(res, 415, 'unsupported-media-type');
    expect(body.detail).toContain('application/json');
    expect(body.detail).toContain('text/plain');
  });

  it('names application/json when a body comes without a Content-Type', async () => {
    const res = await call('/v1/explorations', { method: 'POST', key: USER_KEY, body: '{}' });
    const body = await expectProblem(res, 415, 'unsupported-media-type');
    expect(body.detail).toContain('application/json');
  });

  it('locates a JSON body’s schema errors in `body`', async () => {
    const res = await postJson('/v1/kernel/call', { tool: 'LoadDB', args: 'x' });
    const body = await expectProblem(res, 400, 'validation-error');
    expect(body.detail).toMatch(/^Invalid body\.args/);
    expect((body.errors as { in: string }[])[0]?.in).toBe('body');
  });
});
