/**
 * Drift streams (issue 26): a named, seeded sequence of releases of the kernel's tools or an imported API
 * (core/streams). Create, list, read (releases, each one's diff against the previous, what is deprecated or gone),
 * delete; each release's OpenAPI document; advance by hand (owner or admin; the cron tick advances streams that
 * are due, edge/jobs/stream-advance.ts). Sessions name `stream:<id>` or `stream:<id>@<n>` as their surface.
 */
import { z } from '@hono/zod-openapi';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import type { ReleaseDiff } from '../../core/streams/model.ts';
import { CadenceSchema, IntensitySchema, WindowSchema } from '../../core/streams/model.ts';
import { releaseInForce } from '../../core/streams/timeline.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import type { Bindings } from '../../edge/env.ts';
import { deleteLivingBlobs } from '../../edge/stores/stream-living.ts';
import {
  deleteStream,
  findStream,
  getRelease,
  listStreams,
  type ReleaseSummaryRow,
  releaseSummaries,
  releaseTimeRows,
  type StreamRow,
} from '../../edge/stores/streams.ts';
import { advanceStream, createStream, releaseTimes, streamBase } from '../../edge/streams.ts';
import { pageAnswer, pageParams } from '../http/keyset.ts';
import { byId, component, itemsPage, requestBody, routeModule } from '../http/openapi.ts';
import { foundOr404, ownedOr404, ProblemError } from '../http/problem.ts';
import { surfaceDocument } from '../schemas/surface-document.ts';

const StreamId = z.object({ id: z.string().min(1).max(64) });
const ReleaseParams = StreamId.extend({
  n: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .openapi({ description: 'The release number (0: the base).' }),
});

const CreateStream = requestBody('CreateStream', {
  name: z.string().trim().min(1).max(100),
  backend: z
    .string()
    .regex(/^(kernel|api:[A-Za-z0-9][A-Za-z0-9_.-]{0,99})$/, 'expected `kernel` or `api:<id>`')
    .openapi({
      description: "`kernel` (the kernel's tools, from `pc`) or `api:<id>` (an imported API you own).",
    }),
  seed: z.string().min(1).max(200),
  intensity: IntensitySchema.describe(
    'Changes per release by drift kind, in the generators\' vocabulary: `{"rename-tool": 2, "rename-params": 1}` (kernel), `{"rename-operation": 2}` (API). 1–20 each.',
  ),
  cadence: CadenceSchema.describe(
    'When the cron tick releases: `{"cron": "0 9 * * 1"}` (UTC) or `{"everySeconds": 604800}`.',
  ),
  window: WindowSchema.default({ releases: 2 }).describe(
    'How long a dropped name keeps working (deprecated, with Deprecation and Sunset headers) before it answers 410 naming its successor: `{"releases": k}` (k due times of the cadence) or `{"seconds": s}`; 0 retires at once.',
  ),
});

const Dropped = z.object({
  name: z.string(),
  route: z.string().optional(),
  target: z.string(),
  successor: z.string().nullable(),
});

const DiffView = component('StreamReleaseDiff', {
  changed: z.array(z.object({ target: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  added: z.array(z.string()),
  retired: z.array(Dropped),
  response: z.boolean(),
  applied: z.record(z.string(), z.number().int()),
});

const ReleaseView = component('StreamRelease', {
  n: z.number().int(),
  surface: z.string(),
  releasedAt: z.string(),
  sunsetAt: z
    .string()
    .nullable()
    .openapi({ description: 'When the names this release dropped stop working.' }),
  dueAt: z
    .string()
    .nullable()
    .openapi({ description: 'The cadence due time it was made for (null: by hand).' }),
  trigger: z.enum(['create', 'cron', 'manual']),
  diff: DiffView.nullable().openapi({ description: 'Against the previous release (null for release 0).' }),
  deprecated: z
    .array(Dropped.extend({ sunsetAt: z.string() }))
    .openapi({ description: 'Names this release dropped that still work now (deprecated until sunsetAt).' }),
  gone: z
    .array(Dropped)
    .openapi({ description: 'Names this release dropped that answer 410 now, naming their successor.' }),
  links: z.record(z.string(), z.string()),
});

const StreamView = component('Stream', {
  id: z.string(),
  name: z.string(),
  backend: z.string(),
  seed: z.string(),
  intensity: z.record(z.string(), z.number().int()),
  cadence: z.record(z.string(), z.unknown()),
  window: z.record(z.string(), z.unknown()),
  currentRelease: z.number().int().openapi({ description: 'The latest release made.' }),
  inForce: z.number().int().openapi({ description: 'The release in force now.' }),
  nextDueAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const StreamDetail = StreamView.extend({ releases: z.array(ReleaseView) }).openapi('StreamDetail');

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function releaseView(streamId: string, r: ReleaseSummaryRow, now: number): z.infer<typeof ReleaseView> {
  const diff = r.diff as ReleaseDiff | null;
  const dropped = diff?.retired ?? [];
  const working = r.sunsetAt !== null && now < r.sunsetAt;
  return {
    n: r.n,
    surface: r.surfaceId,
    releasedAt: iso(r.releasedAt) as string,
    sunsetAt: iso(r.sunsetAt),
    dueAt: iso(r.dueAt),
    trigger: r.trigger,
    diff: diff
      ? {
          changed: diff.changed,
          added: diff.added,
          retired: diff.retired,
          response: diff.response,
          applied: diff.applied,
        }
      : null,
    deprecated: working ? dropped.map((d) => ({ ...d, sunsetAt: iso(r.sunsetAt) as string })) : [],
    gone: working ? [] : dropped,
    links: {
      self: `/v1/streams/${streamId}/releases/${r.n}`,
      openapi: `/v1/streams/${streamId}/releases/${r.n}/openapi.json`,
      surface: `stream:${streamId}@${r.n}`,
    },
  };
}

function streamView(
  row: StreamRow,
  releases: readonly Pick<ReleaseSummaryRow, 'n' | 'surfaceId' | 'releasedAt' | 'sunsetAt'>[],
  now: number,
): z.infer<typeof StreamView> {
  return {
    id: row.id,
    name: row.name,
    backend: row.backend,
    seed: row.seed,
    intensity: row.intensity,
    cadence: row.cadence as Record<string, unknown>,
    window: row.window as Record<string, unknown>,
    currentRelease: row.currentRelease,
    inForce: releaseInForce(releaseTimes(releases), now),
    nextDueAt: iso(row.nextDueAt),
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
    links: {
      self: `/v1/streams/${row.id}`,
      advance: `/v1/streams/${row.id}/advance`,
      surface: `stream:${row.id}`,
    },
  };
}

async function detail(env: Bindings, row: StreamRow) {
  const releases = await releaseSummaries(env, row.id);
  const now = Date.now();
  return { ...streamView(row, releases, now), releases: releases.map((r) => releaseView(row.id, r, now)) };
}

const findOwnStream = ownedOr404(findStream, 'stream');

export const registerStreamRoutes = routeModule('Streams', 'user', (routes) => {
  const stream = routes.on(StreamId, byId(findOwnStream));
  const release = routes.on(ReleaseParams, async (env, { id, n }, { owner }) => {
    const row = await findOwnStream(env, id, owner);
    const found = await foundOr404(getRelease(env, row.id, n), `release of stream ${row.id}`, String(n));
    return { stream: row, release: found };
  });

  routes.post(
    '/v1/streams',
    'Create a drift stream: a seeded sequence of releases of the kernel’s tools or an imported API',
    {
      description:
        'Release 0 is the base (`pc`, or the API as imported), made now. Each release derives the next surface from the previous one with the drift generator (`intensity` changes per kind), on the `cadence` (the cron tick) or by hand (POST …/advance); the names a release drops are deprecated for `window`, then answer 410 naming the successor. Sessions play it as `surface: "stream:<id>"` (the release in force) or `"stream:<id>@<n>"`.',
      body: CreateStream,
      example: {
        name: 'weekly kernel drift',
        backend: 'kernel',
        seed: '7',
        intensity: { 'rename-tool': 2, 'rename-params': 1 },
        cadence: { cron: '0 9 * * 1' },
        window: { releases: 2 },
      },
      ok: [201, 'The stream', StreamDetail],
      problems: [404],
    },
    async (c, { body, owner }) => {
      const row = await createStream(c.env, body, owner);
      return c.json(await detail(c.env, row), 201, { location: `/v1/streams/${row.id}` });
    },
  );

  routes.get(
    '/v1/streams',
    'Your drift streams (admins: all), newest first; by cursor',
    itemsPage(z.object(pageParams(64)), 'A page of streams', StreamView),
    async (c, { query, owner }) => {
      const page = await listStreams(c.env, query, owner);
      const now = Date.now();
      const views = await Promise.all(
        page.items.map(async (row) => streamView(row, await releaseTimeRows(c.env, row.id), now)),
      );
      return pageAnswer(c, { items: views, nextCursor: page.nextCursor }, (v) => v);
    },
  );

  stream.get(
    '/v1/streams/{id}',
    'A stream with its releases: each one’s diff against the previous, and what it deprecated or retired',
    { ok: [200, 'The stream', StreamDetail] },
    async (c, { resource: row }) => detail(c.env, row),
  );

  stream.delete(
    '/v1/streams/{id}',
    'Delete a stream and its releases',
    { ok: [204, 'Deleted'] },
    async (c, { resource: row }) => {
      await deleteStream(c.env, row.id);
      // Living drift: its rows go with the stream (foreign keys); the maintenance states are R2 blobs.
      await deleteLivingBlobs(c.env, row.id);
    },
  );

  stream.post(
    '/v1/streams/{id}/advance',
    'Make the next release now (owner or admin)',
    {
      description:
        'Derives release `currentRelease + 1` from the current one and releases it now. 409 when another request or the cron tick made that release first (ask again for the one after).',
      ok: [201, 'The new release', ReleaseView],
      problems: [409],
    },
    async (c, { resource: row }) => {
      const { release: made, created } = await advanceStream(c.env, row);
      if (!created) {
        throw new ProblemError('conflict', {
          detail: `Release ${made.n} of stream ${row.id} was made by another request meanwhile; advance again for release ${made.n + 1}.`,
        });
      }
      return c.json(releaseView(row.id, made, Date.now()), 201, {
        location: `/v1/streams/${row.id}/releases/${made.n}`,
      });
    },
  );

  release.get(
    '/v1/streams/{id}/releases/{n}',
    'One release: its surface and its full diff against the previous release',
    { ok: [200, 'The release', z.record(z.string(), z.unknown())] },
    async (_c, { resource: { stream: row, release: r } }) => ({
      ...releaseView(row.id, r, Date.now()),
      diff: r.diff as Record<string, unknown> | null,
      surfaceBody: r.surface as Record<string, unknown>,
    }),
  );

  release.get(
    '/v1/streams/{id}/releases/{n}/openapi.json',
    'One release as an OpenAPI 3.1 document (the drifted API itself, or the kernel surface’s session endpoints)',
    { ok: [200, 'OpenAPI document', z.record(z.string(), z.unknown())] },
    async (c, { resource: { stream: row, release: r } }) => {
      const base = await streamBase(c.env, row);
      return surfaceDocument(
        base.kind === 'api'
          ? { kind: 'api', surface: r.surface as ApiSurface, catalog: base.catalog }
          : { kind: 'kernel', surface: r.surface as Surface },
      );
    },
  );
});
