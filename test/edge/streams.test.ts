/**
 * Drift streams over HTTP, the cron tick and the queue (issue 26 item 1): creating and reading a stream, its
 * releases and their OpenAPI documents, advancing by hand (owner or admin; another key's stream is a 404), the
 * cron tick advancing a due stream once per due time however often it fires and however often its job is
 * delivered, sessions naming `stream:<id>` that answer a dropped name with Deprecation/Sunset headers during the
 * window and 410 naming the successor after it, a stream over an imported API, and the bad-input problems.
 */
import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import { database } from '../../db/client.ts';
import { jobs, streamReleases } from '../../db/schema.ts';
import { consumeJobBatch } from '../../edge/jobs/consumer.ts';
import { createLogger } from '../../edge/log.ts';
import { findStream } from '../../edge/stores/streams.ts';
import { advanceForDueTime } from '../../edge/streams.ts';
import worker from '../../functions/index.ts';
import { importTmdb } from './api-helpers.ts';
import { ADMIN_KEY, call, expectProblem, USER_KEY, waitUntil } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const OTHER_KEY = 'test-queue-key';
const log = createLogger('error');

const send = (path: string, method: string, body?: unknown, key = USER_KEY) =>
  call(path, {
    method,
    key,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

interface Dropped {
  name: string;
  route?: string;
  target: string;
  successor: string | null;
}
interface ReleaseView {
  n: number;
  surface: string;
  releasedAt: string;
  sunsetAt: string | null;
  trigger: string;
  diff: { changed: unknown[]; added: string[]; retired: Dropped[]; applied: Record<string, number> } | null;
  deprecated: (Dropped & { sunsetAt: string })[];
  gone: Dropped[];
}
interface StreamDetail {
  id: string;
  currentRelease: number;
  inForce: number;
  nextDueAt: string | null;
  releases: ReleaseView[];
}

const kernelStream = (over: Record<string, unknown> = {}) => ({
  name: 'kernel drift',
  backend: 'kernel',
  seed: '11',
  intensity: { 'rename-tool': 2 },
  cadence: { everySeconds: 3600 },
  window: { seconds: 600 },
  ...over,
});

async function create(body: unknown, key = USER_KEY): Promise<StreamDetail> {
  const res = await send('/v1/streams', 'POST', body, key);
  const json = (await res.json()) as StreamDetail;
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(json)}`);
  expect(res.headers.get('location')).toBe(`/v1/streams/${json.id}`);
  return json;
}

async function detail(id: string, key = USER_KEY): Promise<StreamDetail> {
  const res = await call(`/v1/streams/${id}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as StreamDetail;
}

let tasks: Task[];
beforeAll(async () => {
  ({ tasks } = await seedTestWorld());
}, 120_000);

describe('streams over HTTP', () => {
  it('creates a stream at release 0, advances it by hand, and reads each release with its diff and document', async () => {
    const s = await create(kernelStream());
    expect(s).toMatchObject({ currentRelease: 0, inForce: 0 });
    expect(s.releases).toEqual([
      expect.objectContaining({ n: 0, surface: 'pc', trigger: 'create', diff: null }),
    ]);
    expect(Date.parse(s.nextDueAt as string) - Date.parse(s.releases[0]?.releasedAt as string)).toBe(
      3_600_000,
    );

    const res = await send(`/v1/streams/${s.id}/advance`, 'POST');
    expect(res.status).toBe(201);
    const r1 = (await res.json()) as ReleaseView;
    expect(r1).toMatchObject({ n: 1, surface: `stream-${s.id}-r1`, trigger: 'manual' });
    expect(r1.diff?.applied).toEqual({ 'rename-tool': 2 });
    expect(r1.diff?.retired).toHaveLength(2);
    // within the window the dropped names are deprecated until the release's sunset
    expect(r1.deprecated.map((d) => d.name).sort()).toEqual(r1.diff?.retired.map((d) => d.name).sort());
    expect(Date.parse(r1.sunsetAt as string) - Date.parse(r1.releasedAt)).toBe(600_000);

    const after = await detail(s.id);
    expect(after).toMatchObject({ currentRelease: 1, inForce: 1 });
    expect(after.releases.map((r) => r.n)).toEqual([0, 1]);

    const doc = (await (
      await call(`/v1/streams/${s.id}/releases/1/openapi.json`, { key: USER_KEY })
    ).json()) as {
      openapi: string;
      paths: Record<string, { post: { deprecated?: boolean } }>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const op = (name: string) =>
      Object.entries(doc.paths).find(([p]) => p.endsWith(`/${encodeURIComponent(name)}`))?.[1].post;
    for (const d of r1.diff?.retired ?? []) {
      // the successor is a live operation; the old name is documented as a deprecated (retired) one
      expect(op(d.successor as string), d.successor as string).toBeDefined();
      expect(op(d.successor as string)?.deprecated, d.successor as string).toBeFalsy();
      expect(op(d.name)?.deprecated, d.name).toBe(true);
    }
    const one = (await (await call(`/v1/streams/${s.id}/releases/1`, { key: USER_KEY })).json()) as {
      surfaceBody: { id: string };
      diff: { detail: { renamedTools: unknown[] } };
    };
    expect(one.surfaceBody.id).toBe(`stream-${s.id}-r1`);
    expect(one.diff.detail.renamedTools).toHaveLength(2);
    await expectProblem(await call(`/v1/streams/${s.id}/releases/2`, { key: USER_KEY }), 404, 'not-found');
  });

  it('lists your streams by page; admins see all; another key sees none of yours', async () => {
    const s = await create(kernelStream({ name: 'listed' }));
    const ids = async (key: string) => {
      const body = (await (await call('/v1/streams?limit=100', { key })).json()) as {
        items: { id: string }[];
        nextCursor: string | null;
      };
      expect(body).toHaveProperty('nextCursor');
      return body.items.map((i) => i.id);
    };
    expect(await ids(USER_KEY)).toContain(s.id);
    expect(await ids(ADMIN_KEY)).toContain(s.id);
    expect(await ids(OTHER_KEY)).not.toContain(s.id);
    const page = (await (await call('/v1/streams?limit=1', { key: USER_KEY })).json()) as {
      items: unknown[];
      nextCursor: string | null;
    };
    expect(page.items).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
  });

  it('another key cannot read, advance or delete a stream (404); an admin can advance it; the owner deletes it', async () => {
    const s = await create(kernelStream());
    await expectProblem(await call(`/v1/streams/${s.id}`, { key: OTHER_KEY }), 404, 'not-found');
    await expectProblem(
      await send(`/v1/streams/${s.id}/advance`, 'POST', undefined, OTHER_KEY),
      404,
      'not-found',
    );
    await expectProblem(await send(`/v1/streams/${s.id}`, 'DELETE', undefined, OTHER_KEY), 404, 'not-found');
    await expectProblem(
      await call(`/v1/streams/${s.id}/releases/0/openapi.json`, { key: OTHER_KEY }),
      404,
      'not-found',
    );
    expect((await detail(s.id)).currentRelease).toBe(0);
    const byAdmin = await send(`/v1/streams/${s.id}/advance`, 'POST', undefined, ADMIN_KEY);
    expect(byAdmin.status).toBe(201);
    expect((await detail(s.id)).currentRelease).toBe(1);
    expect((await send(`/v1/streams/${s.id}`, 'DELETE')).status).toBe(204);
    await expectProblem(await call(`/v1/streams/${s.id}`, { key: USER_KEY }), 404, 'not-found');
    const left = await database(env.DB)
      .select()
      .from(streamReleases)
      .where(eq(streamReleases.streamId, s.id));
    expect(left).toEqual([]);
    await expectProblem(await call('/v1/streams/nope', {}), 401, 'unauthorized');
  });

  it('refuses bad input with a problem naming the field', async () => {
    const field = async (body: unknown, pointer: string) => {
      const problem = await expectProblem(await send('/v1/streams', 'POST', body), 400, 'validation-error');
      const pointers = (problem.errors as { pointer: string }[]).map((e) => e.pointer);
      expect(
        pointers.some((p) => p === pointer || p.startsWith(`${pointer}/`)),
        `${pointers.join(', ')} names ${pointer}`,
      ).toBe(true);
    };
    await field(kernelStream({ backend: 'kernal' }), '/backend');
    await field(kernelStream({ intensity: { 'rename-path': 1 } }), '/intensity/rename-path');
    await field(kernelStream({ intensity: { 'rename-tool': 0 } }), '/intensity/rename-tool');
    await field(kernelStream({ intensity: {} }), '/intensity');
    await field(kernelStream({ cadence: { cron: 'every monday' } }), '/cadence');
    await field(kernelStream({ cadence: { everySeconds: 5 } }), '/cadence');
    await field(kernelStream({ window: { releases: -1 } }), '/window');
    await field(kernelStream({ colour: 'red' }), '/colour');
    await field({ ...kernelStream(), name: undefined }, '/name');
    // an API the key does not have: 404 naming the field
    const missing = await expectProblem(
      await send(
        '/v1/streams',
        'POST',
        kernelStream({ backend: 'api:no-such-api', intensity: { 'rename-path': 1 } }),
      ),
      404,
      'not-found',
    );
    expect((missing.errors as { pointer: string }[])[0]?.pointer).toBe('/backend');
    // any value in any field: a 4xx problem, never a 5xx
    const odd: unknown[] = [
      null,
      true,
      -1,
      1e308,
      '',
      'x'.repeat(300),
      [],
      {},
      { cron: 5 },
      { releases: 1.5 },
      ['a'],
    ];
    for (const key of ['name', 'backend', 'seed', 'intensity', 'cadence', 'window']) {
      for (const value of odd) {
        const res = await send('/v1/streams', 'POST', { ...kernelStream(), [key]: value });
        if (res.status === 201) continue; // e.g. a long but valid name
        const body = await expectProblem(
          res,
          res.status,
          res.status === 404 ? 'not-found' : 'validation-error',
        );
        expect(res.status, `${key}=${JSON.stringify(value)}: ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
    // path parameters
    await expectProblem(
      await call('/v1/streams/x/releases/minus-one', { key: USER_KEY }),
      400,
      'validation-error',
    );
  });
});

describe('the cron tick', () => {
  it('advances a due stream once per due time, however often the tick fires and its job is delivered', async () => {
    const s = await create(kernelStream({ name: 'cron', seed: '12' }));
    const due = Date.parse(s.nextDueAt as string);
    /** One invocation of the Worker's cron handler, awaited to the end of its waitUntil work. */
    const tick = async (scheduledTime: number) => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron: '*/5 * * * *', scheduledTime }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    // before the due time: nothing
    await tick(due - 60_000);
    expect((await detail(s.id)).currentRelease).toBe(0);
    // the scheduled() handler twice for the same tick, and a later tick before the next due time
    await tick(due + 1000);
    await tick(due + 1000);
    await tick(due + 2000);
    const jobId = `stream-advance:${s.id}:${due}`;
    await waitUntil(
      'the advance job',
      async () => (await database(env.DB).select().from(jobs).where(eq(jobs.id, jobId)))[0]?.status,
      (status) => status === 'succeeded',
    );
    const after = await detail(s.id);
    expect(after.currentRelease).toBe(1);
    expect(after.releases[1]).toMatchObject({ n: 1, trigger: 'cron' });
    expect(Date.parse(after.nextDueAt as string)).toBe(due + 3_600_000);
    const rows = await database(env.DB).select().from(jobs).where(eq(jobs.kind, 'stream-advance'));
    expect(rows.filter((r) => r.id.startsWith(`stream-advance:${s.id}:`))).toHaveLength(1);

    // the job's message delivered again (twice in one batch): acknowledged without advancing
    const batch = createMessageBatch(
      'tooldrift-jobs',
      [0, 1].map((i) => ({
        id: `dup-${i}`,
        timestamp: new Date(),
        attempts: 1,
        body: { jobId, kind: 'stream-advance' },
      })),
    );
    await consumeJobBatch(batch, env, log);
    // the job's work itself run again for the same due time: a no-op
    expect(await advanceForDueTime(env, s.id, due)).toEqual({ release: null, created: false });
    expect((await detail(s.id)).currentRelease).toBe(1);

    // the next due time advances it again, once
    await advanceForDueTime(env, s.id, due + 3_600_000);
    await advanceForDueTime(env, s.id, due + 3_600_000);
    const row = await findStream(env, s.id, undefined);
    expect(row?.currentRelease).toBe(2);
    expect(row?.nextDueAt).toBe(due + 2 * 3_600_000);
  });
});

describe('sessions on a stream', () => {
  it('serves the release in force: a dropped name is deprecated with headers in the window, then 410 naming its successor', async () => {
    const s = await create(kernelStream({ name: 'session', seed: '13', window: { seconds: 600 } }));
    const r1 = (await (await send(`/v1/streams/${s.id}/advance`, 'POST')).json()) as ReleaseView;
    const dropped = r1.diff?.retired[0] as Dropped;
    const old = PC_SURFACE.tools.find((t) => t.name === dropped.name);
    if (!old) throw new Error(`${dropped.name} is not a pc tool`);
    const task = tasks[0] as Task;

    const started = await send('/v1/sessions', 'POST', { taskId: task.id, surface: `stream:${s.id}` });
    expect(started.status).toBe(201);
    const session = (await started.json()) as { id: string; surface: string };
    expect(session.surface).toBe(`stream-${s.id}-r1`);
    const tool = (name: string, args: unknown) =>
      send(`/v1/sessions/${session.id}/tools/${name}`, 'POST', args);
    const move = (at: number) =>
      send(`/v1/sessions/${session.id}/clock`, 'POST', { at: new Date(at).toISOString() }, ADMIN_KEY);

    const releasedAt = Date.parse(r1.releasedAt);
    expect((await move(releasedAt + 60_000)).status).toBe(200);
    const during = await tool(old.name, old.example);
    expect(during.status).toBe(200);
    expect(during.headers.get('deprecation')).toBe(`@${Math.floor(releasedAt / 1000)}`);
    expect(during.headers.get('sunset')).toBe(new Date(releasedAt + 600_000).toUTCString());
    expect(during.headers.get('link')).toContain(dropped.successor as string);

    expect((await move(releasedAt + 601_000)).status).toBe(200);
    const gone = await expectProblem(await tool(old.name, old.example), 410, 'gone');
    expect(gone.successor).toBe(dropped.successor);
    // the same over ReAct: the deprecation message names the successor
    const react = (await (
      await send(`/v1/sessions/${session.id}/step`, 'POST', {
        text: `Thought: x\nAction: ${old.name}\nAction Input: ${JSON.stringify(old.example)}`,
      })
    ).json()) as { observation: string };
    expect(react.observation).toMatch(new RegExp(`is deprecated.*Use ${dropped.successor}`, 's'));

    // the agent can read the stream's docs: the successor is documented, the dropped name only while it works
    const docs = (await (
      await send('/v1/sessions', 'POST', {
        taskId: task.id,
        surface: `stream:${s.id}`,
        promptSurface: `stream:${s.id}`,
      })
    ).json()) as { tools: string; promptSurface: string };
    expect(docs.promptSurface).toBe(`stream-${s.id}-r1`);
    expect(docs.tools).toContain(`${dropped.successor}[`);

    // a pinned release: release 0 is pc itself, no drift at all
    const pinned = (await (
      await send('/v1/sessions', 'POST', { taskId: task.id, surface: `stream:${s.id}@0` })
    ).json()) as { id: string; surface: string };
    expect(pinned.surface).toBe('pc');

    // names that do not resolve: a problem naming the field
    for (const surface of [`stream:${s.id}@9`, 'stream:nope', 'stream:', `stream:${s.id}@x`]) {
      const problem = await expectProblem(
        await send('/v1/sessions', 'POST', { taskId: task.id, surface }),
        400,
        'validation-error',
      );
      expect((problem.errors as { pointer: string }[])[0]?.pointer, surface).toBe('/surface');
    }
    // another key's stream is unknown to it
    const foreign = await expectProblem(
      await send('/v1/sessions', 'POST', { taskId: task.id, surface: `stream:${s.id}` }, OTHER_KEY),
      400,
      'validation-error',
    );
    expect((foreign.errors as { pointer: string }[])[0]?.pointer).toBe('/surface');
  });
});

describe('a stream over an imported API', () => {
  it('drifts TMDB release by release, documents each release, and plays it in an API session', async () => {
    const api = await importTmdb('stream');
    const s = await create({
      name: 'tmdb drift',
      backend: `api:${api}`,
      seed: '5',
      intensity: { 'rename-operation': 2, 'rename-path': 1 },
      cadence: { cron: '0 9 * * 1' },
      window: { releases: 1 },
    });
    expect(s.releases[0]).toMatchObject({ n: 0, surface: api });
    const r1 = (await (await send(`/v1/streams/${s.id}/advance`, 'POST')).json()) as ReleaseView;
    expect(r1.diff?.applied).toEqual({ 'rename-operation': 2, 'rename-path': 1 });
    expect(r1.diff?.retired.length).toBeGreaterThanOrEqual(2);
    // a window of one release: the sunset is the cadence's next Monday 09:00 UTC after the release
    const sunset = new Date(r1.sunsetAt as string);
    expect([sunset.getUTCDay(), sunset.getUTCHours()]).toEqual([1, 9]);
    expect(sunset.getTime() - Date.parse(r1.releasedAt)).toBeLessThanOrEqual(7 * 86_400_000);

    const doc = (await (
      await call(`/v1/streams/${s.id}/releases/1/openapi.json`, { key: USER_KEY })
    ).json()) as {
      paths: Record<string, unknown>;
    };
    const moved = r1.diff?.retired.find((d) => d.route !== undefined && !d.route.includes(d.successor ?? ''));
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    expect(moved).toBeDefined();

    const started = await send('/v1/sessions', 'POST', { api, surface: `stream:${s.id}` });
    expect(started.status).toBe(201);
    expect(((await started.json()) as { surface: string }).surface).toBe(`stream-${s.id}-r1`);
    // a kernel session cannot play an API stream, and an API session only its own API's streams
    const kernel = await expectProblem(
      await send('/v1/sessions', 'POST', { taskId: (tasks[0] as Task).id, surface: `stream:${s.id}` }),
      400,
      'validation-error',
    );
    expect((kernel.errors as { pointer: string }[])[0]?.pointer).toBe('/surface');
    const kernelStreamId = (await create(kernelStream())).id;
    const wrong = await expectProblem(
      await send('/v1/sessions', 'POST', { api, surface: `stream:${kernelStreamId}` }),
      400,
      'validation-error',
    );
    expect((wrong.errors as { pointer: string }[])[0]?.pointer).toBe('/surface');
  });
});
