import { beforeAll, describe, expect, it, vi } from 'vitest';
import { S_IN_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const post = (path: string, body: unknown, key = ADMIN_KEY) =>
  call(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('surfaces API', () => {
  let task: Task;
  beforeAll(async () => {
    const { tasks } = await seedTestWorld();
    task = tasks.find((t) => t.dataset === 'coffee') as Task;
  });

  it('lists the built-in surfaces and serves each with its prompt-style tool list', async () => {
    const list = (await (await call('/v1/surfaces')).json()) as {
      items: { id: string; kind: string; tools: string[] }[];
    };
    expect(list.items.filter((s) => s.kind === 'builtin').map((s) => s.id)).toEqual([
      'pc',
      's-in',
      's-ood',
      's-ood-alt',
    ]);
    expect(list.items.find((s) => s.id === 's-ood')?.tools).toContain('Init_DB');
    const pc = (await (await call('/v1/surfaces/pc')).json()) as {
      toolList: string;
      surface: { id: string };
    };
    expect(pc.surface.id).toBe('pc');
    expect(pc.toolList.split('\n')[0]).toBe(
      '(1) RetrieveAgenda[keyword], which retrieves the agenda related to keyword.',
    );
    await expectProblem(await call('/v1/surfaces/v9'), 404, 'not-found');
  });

  it("serves a surface's own OpenAPI document", async () => {
    const doc = (await (await call('/v1/surfaces/s-in/openapi.json')).json()) as {
      openapi: string;
      paths: Record<
        string,
        { post?: { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } } }
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/v1/sessions/{id}/tools/InitializeDatabase']?.post;
    expect(op?.requestBody?.content['application/json']?.schema.required).toEqual(['DatabaseName']);
  });

  it('creates, uses and deletes a custom surface (admin only)', async () => {
    const custom = { ...structuredClone(S_IN_SURFACE), id: 'acme-v2', title: 'ACME v2', derivedFrom: 's-in' };
    await expectProblem(await post('/v1/surfaces', custom, USER_KEY), 403, 'forbidden');
    const created = await post('/v1/surfaces', custom);
    expect(created.status).toBe(201);
    expect(((await created.json()) as { kind: string }).kind).toBe('custom');
    await expectProblem(await post('/v1/surfaces', custom), 409, 'conflict');
    await expectProblem(await post('/v1/surfaces', { ...custom, id: 'pc' }), 409, 'conflict');

    const session = (await (
      await post('/v1/sessions', { taskId: task.id, surface: 'acme-v2' }, USER_KEY)
    ).json()) as { id: string; surface: string };
    expect(session.surface).toBe('acme-v2');
    const res = await post(
      `/v1/sessions/${session.id}/tools/InitializeDatabase`,
      { DatabaseName: 'coffee' },
      USER_KEY,
    );
    expect(res.status).toBe(200);

    expect((await call('/v1/surfaces/acme-v2', { method: 'DELETE', key: ADMIN_KEY })).status).toBe(204);
    await expectProblem(await call('/v1/surfaces/acme-v2'), 404, 'not-found');
    await expectProblem(await call('/v1/surfaces/pc', { method: 'DELETE', key: ADMIN_KEY }), 409, 'conflict');
  });

  it("serves tool names and keys with ToolEvo's special characters over REST, ReAct steps and OpenAPI", async () => {
    // A hand-built surface: LoadDB as `Init@DB?v2&x#1.0%` (every special character of App. B.2) with key `db&name`.
    const name = 'Init@DB?v2&x#1.0%';
    const custom = structuredClone(S_IN_SURFACE);
    const load = custom.tools.find((t) => t.kernel === 'LoadDB') as (typeof custom.tools)[number];
    load.name = name;
    load.params = [{ kind: 'rename', name: 'db&name', kernel: 'DBName', description: 'The database.' }];
    load.example = { 'db&name': 'coffee' };
    for (const r of custom.retired) if (r.kernel === 'LoadDB') r.successor = name;
    const created = await post('/v1/surfaces', { ...custom, id: 'special-v1', title: 'Special' });
    expect(created.status).toBe(201);
    const session = (await (
      await post('/v1/sessions', { taskId: task.id, surface: 'special-v1' }, USER_KEY)
    ).json()) as { id: string };
    // REST: the name percent-encoded in the path.
    const rest = await post(
      `/v1/sessions/${session.id}/tools/${encodeURIComponent(name)}`,
      { 'db&name': 'coffee' },
      USER_KEY,
    );
    expect(rest.status).toBe(200);
    expect(((await rest.json()) as { observation: string }).observation).toMatch(
      /^We have successfully loaded the coffee database/,
    );
    // A ReAct step names it as written.
    const step = await post(
      `/v1/sessions/${session.id}/step`,
      { text: `Thought: again.\n\nAction: ${name}\n\nAction Input: {"db&name": "coffee"}` },
      USER_KEY,
    );
    expect(((await step.json()) as { observation: string }).observation).toMatch(
      /^We have successfully loaded/,
    );
    // The surface's OpenAPI path is percent-encoded; its schema names the key.
    const doc = (await (await call('/v1/surfaces/special-v1/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toContain(`/v1/sessions/{id}/tools/${encodeURIComponent(name)}`);
    expect((await call('/v1/surfaces/special-v1', { method: 'DELETE', key: ADMIN_KEY })).status).toBe(204);
  });

  it('rejects invalid surfaces with the failing field', async () => {
    const bad = await expectProblem(
      await post('/v1/surfaces', { ...structuredClone(S_IN_SURFACE), id: 'Not A Slug' }),
      400,
      'validation-error',
    );
    expect(bad.field).toBe('id');
    const clone = structuredClone(S_IN_SURFACE);
    (clone.tools[0] as { params: unknown[] }).params = [];
    const inconsistent = await expectProblem(
      await post('/v1/surfaces', { ...clone, id: 'broken' }),
      400,
      'validation-error',
    );
    expect(inconsistent.detail).toMatch(/^The surface is not consistent: /);
    const missing = await expectProblem(await post('/v1/surfaces', { id: 'x' }), 400, 'validation-error');
    expect(missing.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'title' })]));
  });
});

describe('journal API', () => {
  it('lists, filters and resets journalled calls (admin only)', async () => {
    const { tasks } = await seedTestWorld();
    const session = (await (await post('/v1/sessions', { taskId: tasks[0]?.id }, USER_KEY)).json()) as {
      id: string;
    };
    await post(
      `/v1/sessions/${session.id}/step`,
      { action: 'LoadDB', action_input: { DBName: 'coffee' } },
      USER_KEY,
    );
    await post(`/v1/sessions/${session.id}/tools/NoSuchTool`, {}, USER_KEY);
    await expectProblem(
      await call(`/v1/admin/journal?session=${session.id}`, { key: USER_KEY }),
      403,
      'forbidden',
    );
    // The session writes its journal right after answering.
    const read = async (query: string) =>
      (await (await call(`/v1/admin/journal?session=${session.id}${query}`, { key: ADMIN_KEY })).json()) as {
        items: { via: string; action: string; outcome: string; httpStatus: number }[];
        nextCursor: string | null;
      };
    await vi.waitFor(async () => expect((await read('')).items).toHaveLength(2), { timeout: 5_000 });
    const page = await read('');
    expect(page.items.map((e) => [e.via, e.action, e.outcome, e.httpStatus])).toEqual([
      ['rest', 'NoSuchTool', 'rejected', 404],
      ['action', 'LoadDB', 'ok', 200],
    ]);
    expect(page.nextCursor).toBeNull();
    // By cursor, one entry a page: the same entries in the same order.
    const first = await read('&limit=1');
    expect(first.items).toHaveLength(1);
    const second = await read(`&limit=1&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    expect([...first.items, ...second.items]).toEqual(page.items);
    expect(second.nextCursor).toBeNull();
    // A session that never existed is a 404, not an empty page.
    await expectProblem(await call('/v1/admin/journal?session=nope', { key: ADMIN_KEY }), 404, 'not-found');
    const onlyRest = (await (
      await call(`/v1/admin/journal?session=${session.id}&via=rest`, { key: ADMIN_KEY })
    ).json()) as {
      items: unknown[];
    };
    expect(onlyRest.items).toHaveLength(1);
    await expectProblem(
      await call('/v1/admin/journal?via=carrier-pigeon', { key: ADMIN_KEY }),
      400,
      'validation-error',
    );
    const reset = (await (
      await call(`/v1/admin/journal?session=${session.id}`, { method: 'DELETE', key: ADMIN_KEY })
    ).json()) as {
      deleted: number;
    };
    expect(reset.deleted).toBe(2);
    const after = (await (
      await call(`/v1/admin/journal?session=${session.id}`, { key: ADMIN_KEY })
    ).json()) as { items: unknown[] };
    expect(after.items).toEqual([]);
  });
});

describe('generated surfaces', () => {
  it('generates a surface by seeded drift, serves it, diffs it against pc, and plays it', async () => {
    const { tasks } = await seedTestWorld();
    const request = {
      generate: {
        base: 'pc',
        seed: 'drift-7',
        kinds: ['rename-tool', 'rename-params', 'flags'],
        id: 'drift-7',
      },
    };
    await expectProblem(await post('/v1/surfaces', request, USER_KEY), 403, 'forbidden');
    const created = await post('/v1/surfaces', request);
    expect(created.status).toBe(201);
    const summary = (await created.json()) as {
      id: string;
      kind: string;
      tools: string[];
      retired: string[];
    };
    expect(summary).toMatchObject({ id: 'drift-7', kind: 'generated' });
    expect(summary.retired).toContain('LoadDB');
    const diff = (await (await call('/v1/surfaces/drift-7/diff?against=pc')).json()) as {
      renamedTools: { from: string; to: string }[];
      drift: { seed: string };
    };
    expect(diff.drift.seed).toBe('drift-7');
    const load = diff.renamedTools.find((r) => r.from === 'LoadDB');
    expect(load?.to).toBe(summary.tools.find((n) => !['Finish', 'UpdateTool'].includes(n) && n === load?.to));
    // The same request generates the same surface: a second one is a conflict, not a different surface.
    await expectProblem(await post('/v1/surfaces', request), 409, 'conflict');
    const again = await post('/v1/surfaces', { generate: { ...request.generate, id: 'drift-7b' } });
    const twin = (await (await call('/v1/surfaces/drift-7b')).json()) as {
      surface: { tools: { name: string }[] };
    };
    expect(again.status).toBe(201);
    expect(twin.surface.tools.map((t) => t.name)).toEqual(summary.tools);

    const session = (await (
      await post('/v1/sessions', { taskId: tasks[0]?.id, surface: 'drift-7' }, USER_KEY)
    ).json()) as { id: string };
    const old = await post(
      `/v1/sessions/${session.id}/step`,
      { action: 'LoadDB', action_input: { DBName: 'coffee' } },
      USER_KEY,
    );
    expect(((await old.json()) as { observation: string }).observation).toMatch(
      new RegExp(
        `^Error: LoadDB\\[DBName\\] is deprecated and will be removed in future releases\\. Use ${load?.to}\\[`,
      ),
    );
    // special-chars uses ToolEvo's characters by default, `-` and `_` only with specialChars 'function-calling'.
    const names = async (id: string, specialChars?: string) => {
      const generate = {
        base: 'pc',
        seed: 'sc-1',
        kinds: ['special-chars'],
        id,
        ...(specialChars ? { specialChars } : {}),
      };
      expect((await post('/v1/surfaces', { generate })).status).toBe(201);
      return (
        (await (await call(`/v1/surfaces/${id}`)).json()) as { surface: { tools: { name: string }[] } }
      ).surface.tools.map((t) => t.name);
    };
    expect((await names('sc-paper')).some((n) => /[@%#.?&]/.test(n))).toBe(true);
    expect((await names('sc-fc', 'function-calling')).every((n) => /^[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    const badKind = await expectProblem(
      await post('/v1/surfaces', { generate: { seed: 'x', kinds: ['telepathy'] } }),
      400,
      'validation-error',
    );
    expect(String(badKind.field)).toMatch(/^generate\.kinds/);
  });
});
