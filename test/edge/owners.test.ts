/**
 * Keys that own what they create (issue 13 item 6): a second user key gets 404 on every object of another key
 * (sessions, explorations, trees, trajectories, exports, evaluations, schedules) and does not see it in lists;
 * admin keys see all; admins issue, list and revoke user keys (stored hashed, shown once, revoked → 401, own
 * rate limit); a model-call quota refuses a start when used up (the rest of metering: metering.test.ts).
 */
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveDraftOptions } from '../../core/draft/config.ts';
import { initialDocSet } from '../../core/draft/docset.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import { launchSteStageChanges } from '../../edge/jobs/ste-schedules.ts';
import { createLogger } from '../../edge/log.ts';
import { saveDocset } from '../../edge/stores/draft.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY, waitUntil } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

function send(path: string, method: string, body: unknown, key: string | null) {
  return call(path, {
    method,
    ...(key ? { key } : {}),
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface IssuedKey {
  id: string;
  name: string;
  prefix: string;
  secret: string;
  modelCallQuota: number | null;
  modelCallsUsed: number;
  revokedAt: string | null;
}

async function issue(body: Record<string, unknown>): Promise<IssuedKey> {
  const res = await send('/v1/keys', 'POST', body, ADMIN_KEY);
  expect(res.status).toBe(201);
  const key = (await res.json()) as IssuedKey;
  expect(res.headers.get('location')).toBe(`/v1/keys/${key.id}`);
  return key;
}

async function keyInfo(id: string): Promise<IssuedKey> {
  const res = await call('/v1/keys', { key: ADMIN_KEY });
  const { items } = (await res.json()) as { items: IssuedKey[] };
  return items.find((k) => k.id === id) as IssuedKey;
}

/** The ids a key sees in a list answer (a page: `{ items, nextCursor }`). */
async function listedIds(path: string, key: string): Promise<string[]> {
  const body = (await (await call(path, { key })).json()) as { items: { id: string }[]; nextCursor: unknown };
  expect(body).toHaveProperty('nextCursor');
  return body.items.map((r) => r.id);
}

/** The owner and an admin see `id` in the list; the other user key does not. */
async function expectListedForOwnerOnly(path: string, id: string, other: string) {
  expect(await listedIds(path, USER_KEY)).toContain(id);
  expect(await listedIds(path, ADMIN_KEY)).toContain(id);
  expect(await listedIds(path, other)).not.toContain(id);
}

async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

let tasks: Task[];
/** The intruder: an issued user key that owns nothing of USER_KEY's. */
let other: IssuedKey;

beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
  other = await issue({ name: 'intruder' });
}, 120_000);

describe('keys', () => {
  it('issues a key shown once and stored as its SHA-256 only', async () => {
    const key = await issue({ name: 'alice', ratePerMinute: 100, rateBurst: 50, modelCallQuota: 1000 });
    expect(key.secret).toMatch(/^td_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatchObject({ name: 'alice', modelCallQuota: 1000, modelCallsUsed: 0, revokedAt: null });
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    const [row] = await database(env.DB).select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row?.secretHash).toBe(await sha256Hex(key.secret));
    expect(JSON.stringify(row)).not.toContain(key.secret);
    // The list never shows a secret nor its hash.
    const listed = await call('/v1/keys', { key: ADMIN_KEY });
    expect(listed.status).toBe(200);
    const text = await listed.text();
    expect(text).toContain(key.id);
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain(row?.secretHash);
    // The key works as a user key.
    expect((await call('/v1/evals', { key: key.secret })).status).toBe(200);
  });

  it('revokes a key: 401 from then on, idempotently', async () => {
    const key = await issue({ name: 'bob' });
    expect((await call('/v1/explorations', { key: key.secret })).status).toBe(200);
    const res = await call(`/v1/keys/${key.id}`, { method: 'DELETE', key: ADMIN_KEY });
    expect(res.status).toBe(200);
    expect(((await res.json()) as IssuedKey).revokedAt).not.toBeNull();
    await expectProblem(await call('/v1/explorations', { key: key.secret }), 401, 'unauthorized');
    expect((await call(`/v1/keys/${key.id}`, { method: 'DELETE', key: ADMIN_KEY })).status).toBe(200);
    expect((await keyInfo(key.id)).revokedAt).not.toBeNull();
  });

  it("applies a key's own rate limit", async () => {
    const key = await issue({ name: 'slow', ratePerMinute: 1, rateBurst: 2 });
    expect((await call('/v1/evals', { key: key.secret })).status).toBe(200);
    expect((await call('/v1/evals', { key: key.secret })).status).toBe(200);
    await expectProblem(await call('/v1/evals', { key: key.secret }), 429, 'rate-limited');
  });

  it('is admin-only and rejects bad input', async () => {
    await expectProblem(await call('/v1/keys'), 401, 'unauthorized');
    await expectProblem(await call('/v1/keys', { key: USER_KEY }), 403, 'forbidden');
    await expectProblem(await send('/v1/keys', 'POST', { name: 'x' }, USER_KEY), 403, 'forbidden');
    await expectProblem(await send('/v1/keys', 'POST', { name: 'x' }, other.secret), 403, 'forbidden');
    await expectProblem(await send('/v1/keys', 'POST', {}, ADMIN_KEY), 400, 'validation-error');
    await expectProblem(await send('/v1/keys', 'POST', { name: '  ' }, ADMIN_KEY), 400, 'validation-error');
    await expectProblem(
      await send('/v1/keys', 'POST', { name: 'x', role: 'admin' }, ADMIN_KEY),
      400,
      'validation-error',
    );
    for (const bad of [
      { ratePerMinute: 0 },
      { rateBurst: 1.5 },
      { modelCallQuota: -1 },
      { modelCallQuota: 'x' },
    ]) {
      await expectProblem(
        await send('/v1/keys', 'POST', { name: 'x', ...bad }, ADMIN_KEY),
        400,
        'validation-error',
      );
    }
    await expectProblem(
      await call('/v1/keys', {
        method: 'POST',
        key: ADMIN_KEY,
        headers: { 'content-type': 'application/json' },
        body: '{"name":',
      }),
      400,
      'malformed-json',
    );
    await expectProblem(
      await call('/v1/keys/not-a-key', { method: 'DELETE', key: ADMIN_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call('/v1/keys/key_00000000000000000000', { method: 'DELETE', key: ADMIN_KEY }),
      404,
      'not-found',
    );
  });
});

describe('ownership', () => {
  it("answers 404 to another user key on a session's read, step, tool call and MCP; admins see it", async () => {
    const created = await send('/v1/sessions', 'POST', { taskId: tasks[0]?.id, stepBudget: 5 }, USER_KEY);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const step = { text: 'Thought: look.\nAction: LoadDB\nAction Input: {"DBName": "coffee"}' };
    expect((await send(`/v1/sessions/${id}/step`, 'POST', step, USER_KEY)).status).toBe(200);

    await expectProblem(await call(`/v1/sessions/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(await send(`/v1/sessions/${id}/step`, 'POST', step, other.secret), 404, 'not-found');
    await expectProblem(
      await send(`/v1/sessions/${id}/tools/LoadDB`, 'POST', { DBName: 'coffee' }, other.secret),
      404,
      'not-found',
    );
    await expectProblem(
      await send(
        `/v1/sessions/${id}/mcp`,
        'POST',
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        other.secret,
      ),
      404,
      'not-found',
    );
    // The intruder's moves changed nothing: one step, by the owner.
    const own = await call(`/v1/sessions/${id}`, { key: USER_KEY });
    expect(own.status).toBe(200);
    expect(((await own.json()) as { steps: number }).steps).toBe(1);
    expect((await call(`/v1/sessions/${id}`, { key: ADMIN_KEY })).status).toBe(200);

    const ids = async (key: string) => {
      const res = await call('/v1/sessions?limit=100', { key });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: { id: string }[] }).items.map((s) => s.id);
    };
    // The list comes from the journal, which the session writes to D1 just after its answers.
    await vi.waitFor(async () => expect(await ids(USER_KEY)).toContain(id), { timeout: 5_000 });
    expect(await ids(ADMIN_KEY)).toContain(id);
    expect(await ids(other.secret)).not.toContain(id);
  });

  it('answers 404 to another user key on an exploration, its trees, trajectories and exports; lists omit it', async () => {
    const res = await send(
      '/v1/explorations',
      'POST',
      { tasks: [tasks[0]?.id], treesPerTask: 1, search: { k: 2, maxDepth: 4, simulations: 3 }, seed: 'own' },
      USER_KEY,
    );
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await expectProblem(await call(`/v1/explorations/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/explorations/${id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    await expectProblem(await call(`/v1/explorations/${id}/events`, { key: other.secret }), 404, 'not-found');
    await expectProblem(await call(`/v1/explorations/${id}/trees`, { key: other.secret }), 404, 'not-found');
    const done = await waitUntil(
      'exploration',
      async () =>
        (await (await call(`/v1/explorations/${id}`, { key: USER_KEY })).json()) as { status: string },
      (b) => b.status !== 'queued' && b.status !== 'running',
    );
    expect(done.status).toBe('succeeded');
    const trees = (await (await call(`/v1/explorations/${id}/trees`, { key: ADMIN_KEY })).json()) as {
      items: { id: string }[];
    };
    const treeId = trees.items[0]?.id as string;
    expect((await call(`/v1/trees/${treeId}`, { key: USER_KEY })).status).toBe(200);
    await expectProblem(await call(`/v1/trees/${treeId}`, { key: other.secret }), 404, 'not-found');

    const listIds = async (path: string, key: string) =>
      ((await (await call(path, { key })).json()) as { items: { id: string }[] }).items.map((x) => x.id);
    expect(await listIds('/v1/explorations?limit=100', USER_KEY)).toContain(id);
    expect(await listIds('/v1/explorations?limit=100', ADMIN_KEY)).toContain(id);
    expect(await listIds('/v1/explorations?limit=100', other.secret)).not.toContain(id);

    const mine = await listIds(`/v1/trajectories?exploration=${id}&limit=100`, USER_KEY);
    expect(await listIds(`/v1/trajectories?exploration=${id}&limit=100`, ADMIN_KEY)).toEqual(mine);
    // Filtering by another key's exploration is a 404, as the exploration itself is.
    await expectProblem(
      await call(`/v1/trajectories?exploration=${id}&limit=100`, { key: other.secret }),
      404,
      'not-found',
    );
    for (const t of mine) {
      expect((await call(`/v1/trajectories/${encodeURIComponent(t)}`, { key: USER_KEY })).status).toBe(200);
      await expectProblem(
        await call(`/v1/trajectories/${encodeURIComponent(t)}`, { key: other.secret }),
        404,
        'not-found',
      );
    }
    for (const kind of ['sft', 'dpo']) {
      const path = `/v1/exports/${kind}.jsonl?exploration=${id}`;
      const owner = await (await call(path, { key: USER_KEY })).text();
      expect(await (await call(path, { key: ADMIN_KEY })).text()).toBe(owner);
      // Another key's exploration is as unknown as a missing one: 404, nothing exported.
      const foreign = await call(path, { key: other.secret });
      expect(foreign.status).toBe(404);
      expect(foreign.headers.get('content-type')).toMatch(/problem\+json/);
    }
  });

  it('answers 404 to another user key on an evaluation, its cancel and results; lists omit it', async () => {
    const suite = {
      surfaces: ['pc'],
      datasets: ['coffee'],
      difficulties: ['easy'],
      sampleSize: 1,
      seed: 'own',
    };
    const res = await send('/v1/evals', 'POST', suite, USER_KEY);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await expectProblem(await call(`/v1/evals/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/evals/${id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    await expectProblem(await call(`/v1/evals/${id}/results`, { key: other.secret }), 404, 'not-found');
    const done = await waitUntil(
      'evaluation',
      async () => (await (await call(`/v1/evals/${id}`, { key: USER_KEY })).json()) as { status: string },
      (b) => b.status !== 'running',
    );
    expect(done.status).toBe('done');
    const results = (await (await call(`/v1/evals/${id}/results`, { key: USER_KEY })).json()) as {
      items: { id: string }[];
    };
    const resultId = results.items[0]?.id as string;
    expect((await call(`/v1/evals/${id}/results/${resultId}`, { key: ADMIN_KEY })).status).toBe(200);
    await expectProblem(
      await call(`/v1/evals/${id}/results/${resultId}`, { key: other.secret }),
      404,
      'not-found',
    );
    const listIds = async (key: string) =>
      ((await (await call('/v1/evals?limit=100', { key })).json()) as { items: { id: string }[] }).items.map(
        (e) => e.id,
      );
    expect(await listIds(USER_KEY)).toContain(id);
    expect(await listIds(ADMIN_KEY)).toContain(id);
    expect(await listIds(other.secret)).not.toContain(id);
  });

  it('answers 404 to another user key on reading, renaming and deleting a schedule; lists omit it', async () => {
    const suite = { surfaces: ['pc'], datasets: ['coffee'], sampleSize: 1, seed: 'own' };
    const res = await send('/v1/schedules', 'POST', { name: 'mine', cron: '0 4 * * *', suite }, USER_KEY);
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await expectProblem(await call(`/v1/schedules/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await send(`/v1/schedules/${id}`, 'PATCH', { name: 'stolen' }, other.secret),
      404,
      'not-found',
    );
    await expectProblem(
      await call(`/v1/schedules/${id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    const listIds = async (key: string) =>
      ((await (await call('/v1/schedules', { key })).json()) as { items: { id: string; name: string }[] })
        .items;
    expect((await listIds(USER_KEY)).find((s) => s.id === id)?.name).toBe('mine');
    expect((await listIds(ADMIN_KEY)).map((s) => s.id)).toContain(id);
    expect((await listIds(other.secret)).map((s) => s.id)).not.toContain(id);
    // The admin may rename it; the owner may delete it.
    expect((await send(`/v1/schedules/${id}`, 'PATCH', { name: 'renamed' }, ADMIN_KEY)).status).toBe(200);
    expect((await call(`/v1/schedules/${id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(204);
  });

  it('answers 404 to another user key on a toolset and its search; lists omit it; admins see it', async () => {
    const res = await send(
      '/v1/toolsets',
      'POST',
      { source: 'synthetic', name: 'mine', seed: 'own', tools: 20 },
      USER_KEY,
    );
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await expectProblem(await call(`/v1/toolsets/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await send(
        `/v1/toolsets/${id}/search`,
        'POST',
        { query: 'weather', k: 3, ranker: 'bm25' },
        other.secret,
      ),
      404,
      'not-found',
    );
    expect((await call(`/v1/toolsets/${id}`, { key: USER_KEY })).status).toBe(200);
    expect((await call(`/v1/toolsets/${id}`, { key: ADMIN_KEY })).status).toBe(200);
    await expectListedForOwnerOnly('/v1/toolsets', id, other.secret);
  });

  it('answers 404 to another user key on an STE run, its events, memory and cancel; lists and exemplars omit it', async () => {
    const tool = S_OOD_SURFACE.tools.find((t) => t.kernel === 'LoadDB')?.name as string;
    const body = { surface: 's-ood', tools: [tool], seed: 'own', episodes: 1, trials: 1, chunkCalls: 3 };
    const res = await send('/v1/ste/runs', 'POST', body, USER_KEY);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    for (const path of [`/v1/ste/runs/${id}`, `/v1/ste/runs/${id}/events`, `/v1/ste/runs/${id}/memory`])
      await expectProblem(await call(path, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/ste/runs/${id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    await expectListedForOwnerOnly('/v1/ste/runs?limit=100', id, other.secret);
    expect((await call(`/v1/ste/runs/${id}`, { key: ADMIN_KEY })).status).toBe(200);
    const done = await waitUntil(
      'STE run',
      async () => (await (await call(`/v1/ste/runs/${id}`, { key: USER_KEY })).json()) as { status: string },
      (r) => r.status !== 'queued' && r.status !== 'running',
    );
    expect(done.status).toBe('succeeded');
    const exemplars = async (key: string) =>
      ((await (await call(`/v1/ste/exemplars?run=${id}`, { key })).json()) as { items: unknown[] }).items
        .length;
    expect(await exemplars(USER_KEY)).toBeGreaterThan(0);
    expect(await exemplars(ADMIN_KEY)).toBe(await exemplars(USER_KEY));
    // Filtering by another key's run is a 404, as the run itself is; the other key's own exemplars omit it.
    await expectProblem(await call(`/v1/ste/exemplars?run=${id}`, { key: other.secret }), 404, 'not-found');
    const theirs = (await (await call('/v1/ste/exemplars?limit=200', { key: other.secret })).json()) as {
      items: { run: string }[];
    };
    expect(theirs.items.filter((e) => e.run === id)).toEqual([]);
    // Its exemplar set is not an aid another key may use (a 400 as for an unknown set).
    const suite = { surfaces: ['s-ood'], datasets: ['coffee'], sampleSize: 1, seed: 'own' };
    await expectProblem(
      await send(
        '/v1/evals',
        'POST',
        { ...suite, aids: { demonstrations: { set: id, count: 2 } } },
        other.secret,
      ),
      400,
      'validation-error',
    );
  });

  it('answers 404 to another user key on a DRAFT run and its cancel, and on deleting a watch; lists omit them', async () => {
    const res = await send(
      '/v1/draft/runs',
      'POST',
      { surface: 's-in', tools: ['LoadDB'], chunkSteps: 2, options: { seed: 'own' } },
      USER_KEY,
    );
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    await expectProblem(await call(`/v1/draft/runs/${id}`, { key: other.secret }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/draft/runs/${id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    await expectListedForOwnerOnly('/v1/draft/runs?limit=100', id, other.secret);
    expect((await call(`/v1/draft/runs/${id}`, { key: ADMIN_KEY })).status).toBe(200);
    expect((await call(`/v1/draft/runs/${id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(200);

    const made = await send('/v1/draft/watches', 'POST', { surface: 's-in', tools: ['LoadDB'] }, USER_KEY);
    expect(made.status).toBe(201);
    const watch = (await made.json()) as { id: string };
    await expectListedForOwnerOnly('/v1/draft/watches', watch.id, other.secret);
    await expectProblem(
      await call(`/v1/draft/watches/${watch.id}`, { method: 'DELETE', key: other.secret }),
      404,
      'not-found',
    );
    expect(await listedIds('/v1/draft/watches', USER_KEY)).toContain(watch.id);
    expect((await call(`/v1/draft/watches/${watch.id}`, { method: 'DELETE', key: USER_KEY })).status).toBe(
      204,
    );
  });

  it("answers 404 to another user key on an STE schedule; the runs its cron launches belong to the schedule's key", async () => {
    const made = await send(
      '/v1/ste/schedules',
      'POST',
      {
        schedule: {
          id: 'own-drift',
          stages: [
            { surface: 's-in', effectiveFrom: '2026-01-01' },
            { surface: 's-ood', effectiveFrom: '2026-02-01' },
          ],
        },
        run: { episodes: 1, trials: 1, paraphrase: false, seed: 'own', chunkCalls: 10 },
      },
      other.secret,
    );
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    await expectProblem(await call(`/v1/ste/schedules/${id}`, { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/ste/schedules/${id}`, { method: 'DELETE', key: USER_KEY }),
      404,
      'not-found',
    );
    expect((await call(`/v1/ste/schedules/${id}`, { key: ADMIN_KEY })).status).toBe(200);
    const launched = (await launchSteStageChanges(env, Date.parse('2026-03-01'), createLogger('error'))).find(
      (l) => l.scheduleId === id,
    );
    expect(launched).toMatchObject({ stage: 1, created: true });
    const runId = launched?.runId as string;
    await expectProblem(await call(`/v1/ste/runs/${runId}`, { key: USER_KEY }), 404, 'not-found');
    expect((await call(`/v1/ste/runs/${runId}`, { key: other.secret })).status).toBe(200);
    expect((await call(`/v1/ste/runs/${runId}`, { method: 'DELETE', key: other.secret })).status).toBe(200);
    expect((await call(`/v1/ste/schedules/${id}`, { method: 'DELETE', key: other.secret })).status).toBe(204);
  });

  it("refuses another key's documentation set as an aid, as an unknown one; its owner may use it", async () => {
    const set = initialDocSet(PC_SURFACE, 's-in', 'manual', false, resolveDraftOptions());
    const docset = 'docset-owned-by-other';
    await saveDocset(env, docset, 'manual', set, other.id);
    const session = (key: string) =>
      send('/v1/sessions', 'POST', { surface: 's-in', docset, seed: 'own' }, key);
    await expectProblem(await session(USER_KEY), 400, 'validation-error');
    await expectProblem(
      await send('/v1/draft/runs', 'POST', { surface: 's-in', fromDocset: docset }, USER_KEY),
      400,
      'validation-error',
    );
    const suite = { surfaces: ['s-in'], datasets: ['coffee'], sampleSize: 1, seed: 'own' };
    await expectProblem(
      await send('/v1/evals', 'POST', { ...suite, aids: { documentation: { docset } } }, USER_KEY),
      400,
      'validation-error',
    );
    expect((await session(other.secret)).status).toBe(201);
    expect((await session(ADMIN_KEY)).status).toBe(201);
    // Reading it: its owner and admins see it; another user key gets 404 and no key a 401.
    for (const path of [`/v1/docsets/${docset}`, `/v1/docsets/${docset}/diff?against=${docset}`]) {
      expect((await call(path, { key: other.secret })).status).toBe(200);
      expect((await call(path, { key: ADMIN_KEY })).status).toBe(200);
      await expectProblem(await call(path, { key: USER_KEY }), 404, 'not-found');
      await expectProblem(await call(path), 401, 'unauthorized');
    }
  });
});

describe('model-call quota', () => {
  it('refuses to start an evaluation or an exploration once the quota is used up', async () => {
    const key = await issue({ name: 'broke', modelCallQuota: 0 });
    const suite = { surfaces: ['pc'], datasets: ['coffee'], sampleSize: 1, seed: 'broke' };
    await expectProblem(await send('/v1/evals', 'POST', suite, key.secret), 403, 'quota-exhausted');
    await expectProblem(
      await send('/v1/explorations', 'POST', { tasks: [tasks[0]?.id], treesPerTask: 1 }, key.secret),
      403,
      'quota-exhausted',
    );
    // Nothing was created.
    const list = (await (await call('/v1/evals', { key: key.secret })).json()) as { items: unknown[] };
    expect(list.items).toEqual([]);
  });
});
