/**
 * The dashboard's browsing routes: trajectories (`/v1/trajectories`), recent sessions from the journal
 * (`GET /v1/sessions`) and the exploration list with its trees (`GET /v1/explorations`, `/{id}/trees`).
 * Rows are written straight into D1 with ids of their own, so the tests hold whatever else the database has.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { S_IN_SURFACE } from '../../core/surfaces/builtin.ts';
import { database } from '../../db/client.ts';
import { explorations, journal, trajectories, trees } from '../../db/schema.ts';
import { insertSurface } from '../../edge/stores/surfaces.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY } from './helpers.ts';

const EXPLORATION = `browse-${crypto.randomUUID()}`;
/** Far in the future, so these explorations are the newest whatever else the database holds. */
const T0 = Date.UTC(2100, 0, 1);
const SURFACE = `browse-surface-${crypto.randomUUID().slice(0, 8)}`;

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
type TrajectoryItem = {
  id: string;
  dataset: string;
  success: boolean;
  reward: number;
  steps: number;
} & Record<string, unknown>;

async function json<T>(path: string, key = USER_KEY): Promise<{ res: Response; body: T }> {
  const res = await call(path, { key });
  return { res, body: (await res.json()) as T };
}

function trajectoryRow(i: number, overrides: Partial<typeof trajectories.$inferInsert> = {}) {
  return {
    id: `${EXPLORATION}.0.${i % 2}:${i}`,
    treeId: `${EXPLORATION}.0.${i % 2}`,
    explorationId: EXPLORATION,
    taskId: 'browse-task-0',
    dataset: i < 3 ? 'flights' : 'coffee',
    leafNode: i,
    reward: i % 2 === 0 ? 1 : -1,
    surfaceId: 's-ood',
    promptSurfaceId: 'pc',
    text: `Thought: step ${i}\nAction: Finish\nAction Input: {"answer": "${i}"}`,
    steps: Array.from({ length: i + 1 }, (_, k) => ({
      node: k + 1,
      text: `Thought: ${k}`,
      observation: `obs ${k}`,
      outcome: 'ok',
    })),
    toolUpdates: i === 4 ? ['UpdateTool: LoadDB is now Init_DB'] : [],
    model: 'tooldrift-sim-v1 (simulator)',
    seed: `0/browse-task-0/${i % 2}`,
    selected: i === 0,
    // Two rows share a creation time: the id orders them, and no page may repeat or skip one.
    createdAt: T0 + Math.min(i, 3) * 1000,
    ...overrides,
  };
}

beforeAll(async () => {
  const db = database(env.DB);
  await db.insert(trajectories).values([0, 1, 2, 3, 4].map((i) => trajectoryRow(i)));
  await db.insert(explorations).values([
    {
      id: EXPLORATION,
      status: 'succeeded',
      config: {
        taskIds: ['browse-task-0', 'browse-task-1'],
        surface: 's-ood',
        promptSurface: 'pc',
        search: { mode: 'mcts' },
      },
      treesTotal: 3,
      createdAt: T0 + 5000,
      updatedAt: T0 + 6000,
    },
    {
      id: `${EXPLORATION}-older`,
      status: 'running',
      config: { taskIds: ['browse-task-0'], surface: 'pc', promptSurface: 'pc', search: { mode: 'greedy' } },
      treesTotal: 1,
      createdAt: T0 + 4000,
      updatedAt: T0 + 4000,
    },
  ]);
  await db.insert(trees).values([
    {
      id: `${EXPLORATION}.1.0`,
      explorationId: EXPLORATION,
      taskId: 'browse-task-1',
      treeIndex: 0,
      status: 'failed',
      seed: 's',
      updatedAt: T0,
    },
    {
      id: `${EXPLORATION}.0.1`,
      explorationId: EXPLORATION,
      taskId: 'browse-task-0',
      treeIndex: 1,
      status: 'succeeded',
      seed: 's',
      nodes: 9,
      solved: true,
      updatedAt: T0,
    },
    {
      id: `${EXPLORATION}.0.0`,
      explorationId: EXPLORATION,
      taskId: 'browse-task-0',
      treeIndex: 0,
      status: 'succeeded',
      seed: 's',
      nodes: 7,
      solved: false,
      updatedAt: T0,
    },
  ]);
  const entry = (sessionId: string, at: number, outcome: string, surfaceId = SURFACE) => ({
    sessionId,
    at,
    surfaceId,
    via: 'react' as const,
    action: 'LoadDB',
    input: {},
    outcome,
    httpStatus: 200,
    latencyMs: 1,
  });
  // The sessions' surface is a stored one: a filter naming no surface is a 404.
  await insertSurface(env, { ...S_IN_SURFACE, id: SURFACE }, 'custom');
  await db
    .insert(journal)
    .values([
      entry('browse-session-a', T0 + 10, 'ok'),
      entry('browse-session-a', T0 + 20, 'rejected', 'pc'),
      entry('browse-session-a', T0 + 30, 'finished'),
      entry('browse-session-b', T0 + 25, 'error'),
      entry('browse-session-c', T0 + 5, 'ok'),
    ]);
});

describe('GET /v1/trajectories', () => {
  it('pages through one exploration newest first, without repeats or gaps', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/v1/trajectories?exploration=${EXPLORATION}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const { res, body } = await json<Page<TrajectoryItem>>(q);
      expect(res.status).toBe(200);
      expect(body.items.length).toBeLessThanOrEqual(2);
      if (body.nextCursor) expect(res.headers.get('link')).toContain('rel="next"');
      seen.push(...body.items.map((t) => t.id));
      cursor = body.nextCursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    // Rows 3 and 4 share the newest time and are ordered by id descending (`….0.1:3` after `….0.0:4`).
    expect(seen).toEqual([3, 4, 2, 1, 0].map((i) => trajectoryRow(i).id));
  });

  it('filters by dataset, success and selection and summarises each path', async () => {
    const { body } = await json<Page<TrajectoryItem>>(
      `/v1/trajectories?exploration=${EXPLORATION}&dataset=flights&success=true`,
    );
    expect(body.items.map((t) => t.id)).toEqual([trajectoryRow(2).id, trajectoryRow(0).id]);
    expect(body.items[1]).toMatchObject({
      dataset: 'flights',
      success: true,
      reward: 1,
      steps: 1,
      selected: true,
      surface: 's-ood',
      promptSurface: 'pc',
      links: { tree: `/v1/trees/${encodeURIComponent(`${EXPLORATION}.0.0`)}` },
    });
    const failed = await json<Page<TrajectoryItem>>(
      `/v1/trajectories?exploration=${EXPLORATION}&success=false`,
    );
    expect(failed.body.items.map((t) => t.reward)).toEqual([-1, -1]);
    const chosen = await json<Page<TrajectoryItem>>(
      `/v1/trajectories?exploration=${EXPLORATION}&selected=true`,
    );
    expect(chosen.body.items.map((t) => t.id)).toEqual([trajectoryRow(0).id]);
    const none = await json<Page<TrajectoryItem>>(`/v1/trajectories?exploration=${EXPLORATION}&surface=pc`);
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it('returns one trajectory with its text, steps and tool updates', async () => {
    const id = trajectoryRow(4).id;
    const { res, body } = await json<Record<string, unknown>>(`/v1/trajectories/${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      id,
      explorationId: EXPLORATION,
      question: null, // the task is not in this database
      leafNode: 4,
      text: 'Thought: step 4\nAction: Finish\nAction Input: {"answer": "4"}',
      toolUpdates: ['UpdateTool: LoadDB is now Init_DB'],
      steps: 5,
    });
    expect((body.stepList as unknown[])[0]).toEqual({
      node: 1,
      text: 'Thought: 0',
      observation: 'obs 0',
      outcome: 'ok',
    });
  });

  it('answers bad parameters, unknown ids and missing keys with problems', async () => {
    for (const query of ['dataset=weather', 'success=yes', 'limit=0', 'limit=101', 'cursor=not-a-cursor']) {
      const res = await call(`/v1/trajectories?${query}`, { key: USER_KEY });
      const problem = await expectProblem(res, 400, 'validation-error');
      expect((problem.errors as { in: string }[])[0]?.in).toBe('query');
    }
    await expectProblem(await call('/v1/trajectories/nope:1', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/trajectories'), 401, 'unauthorized');
    await expectProblem(await call('/v1/trajectories/x', { key: 'wrong-key' }), 401, 'unauthorized');
  });
});

describe('GET /v1/sessions', () => {
  type SessionItem = {
    id: string;
    surfaces: string[];
    calls: number;
    outcomes: Record<string, number>;
    finished: boolean;
    firstAt: string;
    lastAt: string;
  };

  it('groups the journal by session, most recently active first, by cursor', async () => {
    const first = await json<Page<SessionItem>>(`/v1/sessions?surface=${SURFACE}&limit=2`, ADMIN_KEY);
    expect(first.res.status).toBe(200);
    expect(first.body.items.map((s) => s.id)).toEqual(['browse-session-a', 'browse-session-b']);
    expect(first.body.items[0]).toEqual({
      id: 'browse-session-a',
      surfaces: [SURFACE, 'pc'],
      calls: 3,
      outcomes: { ok: 1, rejected: 1, finished: 1 },
      finished: true,
      firstAt: new Date(T0 + 10).toISOString(),
      lastAt: new Date(T0 + 30).toISOString(),
      links: { self: '/v1/sessions/browse-session-a' },
    });
    expect(first.body.items[1]).toMatchObject({ calls: 1, outcomes: { error: 1 }, finished: false });
    expect(first.body.nextCursor).not.toBeNull();
    const second = await json<Page<SessionItem>>(
      `/v1/sessions?surface=${SURFACE}&limit=2&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
      ADMIN_KEY,
    );
    expect(second.body).toMatchObject({ items: [{ id: 'browse-session-c', calls: 1 }], nextCursor: null });
  });

  it('rejects bad parameters and missing keys', async () => {
    await expectProblem(
      await call('/v1/sessions?surface=no-such-surface', { key: ADMIN_KEY }),
      404,
      'not-found',
    );
    await expectProblem(await call('/v1/sessions?limit=x', { key: ADMIN_KEY }), 400, 'validation-error');
    await expectProblem(await call('/v1/sessions?cursor=12', { key: ADMIN_KEY }), 400, 'validation-error');
    await expectProblem(await call('/v1/sessions'), 401, 'unauthorized');
    // A user key lists its own sessions since issue 13 item 6 (test/edge/owners.test.ts), no longer a 403.
  });
});

describe('GET /v1/explorations and /v1/explorations/{id}/trees', () => {
  it('lists explorations newest first with tree counts', async () => {
    const { res, body } = await json<Page<Record<string, unknown>>>('/v1/explorations?limit=1');
    expect(res.status).toBe(200);
    expect(body.items).toEqual([
      {
        id: EXPLORATION,
        status: 'succeeded',
        trees: 3,
        finished: 3,
        solved: 1,
        surface: 's-ood',
        promptSurface: 'pc',
        tasks: 2,
        mode: 'mcts',
        createdAt: new Date(T0 + 5000).toISOString(),
        updatedAt: new Date(T0 + 6000).toISOString(),
        links: { self: `/v1/explorations/${EXPLORATION}`, trees: `/v1/explorations/${EXPLORATION}/trees` },
      },
    ]);
    const next = await json<Page<{ id: string }>>(
      `/v1/explorations?limit=1&cursor=${encodeURIComponent(body.nextCursor as string)}`,
    );
    expect(next.body.items.map((e) => e.id)).toEqual([`${EXPLORATION}-older`]);
    const running = await json<Page<{ id: string; status: string }>>(
      '/v1/explorations?status=running&limit=100',
    );
    expect(running.body.items.every((e) => e.status === 'running')).toBe(true);
    expect(running.body.items.some((e) => e.id === `${EXPLORATION}-older`)).toBe(true);
  });

  it('lists the trees of one exploration by task then index', async () => {
    const { body } = await json<{
      items: { id: string; status: string; solved: boolean | null; nodes: number }[];
    }>(`/v1/explorations/${EXPLORATION}/trees`);
    expect(body.items.map((t) => [t.id, t.status, t.solved, t.nodes])).toEqual([
      [`${EXPLORATION}.0.0`, 'succeeded', false, 7],
      [`${EXPLORATION}.0.1`, 'succeeded', true, 9],
      [`${EXPLORATION}.1.0`, 'failed', null, 0],
    ]);
  });

  it('answers problems for unknown explorations, bad filters and missing keys', async () => {
    await expectProblem(await call('/v1/explorations/nope/trees', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(
      await call('/v1/explorations?status=done', { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(await call('/v1/explorations'), 401, 'unauthorized');
  });
});

describe('OpenAPI', () => {
  it('documents the browsing routes', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    for (const path of [
      '/v1/trajectories',
      '/v1/trajectories/{id}',
      '/v1/sessions',
      '/v1/explorations',
      '/v1/explorations/{id}/trees',
    ]) {
      expect(doc.paths[path]?.get?.security, path).toEqual([{ bearerAuth: [] }]);
    }
  });
});
