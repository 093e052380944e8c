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

  it('holds on the imported-API routes: an import, an API session, a drift and a query set name their typo', async () => {
    const document = {
      openapi: '3.1.0',
      info: { title: 'Pets', version: '1' },
      paths: {
        '/pets': { get: { operationId: 'listPets', responses: { '200': { description: 'The pets' } } } },
      },
    };
    const imported = await postJson('/v1/apis', { document, seed: '0' });
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    const typo = async (path: string, body: unknown) =>
      (await expectProblem(await postJson(path, body), 400, 'validation-error')).field;
    expect(await typo('/v1/apis', { document, sead: '1' })).toBe('sead');
    // The session body is a kernel session's or an API session's: the typo is named in the one it meant.
    expect(await typo('/v1/sessions', { api: id, stepbudget: 3 })).toBe('stepbudget');
    expect(await typo('/v1/sessions', { taskId: task.id, stepbudget: 3 })).toBe('stepbudget');
    expect(await typo(`/v1/apis/${id}/surfaces`, { seed: '1', kinds: ['rename-path'], titel: 'x' })).toBe(
      'titel',
    );
    expect(
      await typo(`/v1/apis/${id}/querysets`, {
        items: [{ query: 'List the pets', solution: ['GET /pets'] }],
        fromat: 'restbench',
      }),
    ).toBe('fromat');
    // A raw document's options are query parameters: an undeclared one is named too.
    const raw = await call(`/v1/apis?sead=1`, {
      method: 'POST',
      key: USER_KEY,
      headers: { 'content-type': 'application/yaml' },
      body: 'openapi: 3.1.0\n',
    });
    expect((await expectProblem(raw, 400, 'validation-error')).field).toBe('sead');
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

describe('one list envelope', () => {
  it('answers every list as a page: items, nextCursor and a cursor parameter', async () => {
    interface Schema {
      $ref?: string;
      type?: string;
      properties?: Record<string, Schema>;
    }
    interface Op {
      parameters?: { in: string; name: string }[];
      responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
    }
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, Op>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (s: Schema | undefined): Schema | undefined =>
      s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').at(-1) as string]) : s;
    // Not lists: the world's seven datasets and the configured model providers are fixed catalogues, the
    // methods page carries the aids and the presets beside its items, and a stream's series is one computed
    // document of its releases (narrowed by `from` / `to`: a chart's data, one entry per release and configuration).
    const catalogues = [
      '/v1/datasets datasets',
      '/v1/models providers',
      '/v1/methods aids',
      '/v1/methods presets',
      ...['releases', 'configurations', 'retirements', 'maintenance'].map(
        (k) => `/v1/streams/{id}/series ${k}`,
      ),
    ];
    const lists: string[] = [];
    const offenders: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      // One resource (its path ends in its id) may hold arrays of its parts (a run's tools).
      if (!op || /\}$/.test(path)) continue;
      const props = resolve(op.responses?.['200']?.content?.['application/json']?.schema)?.properties ?? {};
      const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      for (const [name, value] of Object.entries(props)) {
        if (resolve(value)?.type !== 'array' || catalogues.includes(`${path} ${name}`)) continue;
        if (name === 'items' && 'nextCursor' in props && query.includes('cursor')) lists.push(path);
        else offenders.push(`${path} ${name}`);
      }
    }
    expect(offenders).toEqual([]);
    expect(lists).toEqual(
      expect.arrayContaining([
        '/v1/evals',
        '/v1/schedules',
        '/v1/toolsets',
        '/v1/draft/watches',
        '/v1/ste/runs',
        '/v1/admin/journal',
        '/v1/apis',
        '/v1/apis/{id}/surfaces',
        '/v1/apis/{id}/querysets',
      ]),
    );
  });
});
