/**
 * Drift streams at the edge (issue 26 item 1): creating a stream (its release 0), advancing it by one release —
 * by hand or for a due time of its cadence, once however often that is asked (the (stream, n) key and the
 * conditional moves of `edge/stores/streams.ts`) — and what a session or an evaluation plays when it names
 * `stream:<id>` (the releases so far) or `stream:<id>@<n>` (releases 0…n): the drift schedule of those releases
 * with their surfaces (`core/streams/timeline.ts`), so deprecation headers, 410s and successors are the
 * schedule's, over every protocol sessions speak.
 */
import { baseApiSurface } from '../core/apis/surface/base.ts';
import type { ApiSurface } from '../core/apis/surface/model.ts';
import { resolveApiSchedule } from '../core/apis/surface/schedule.ts';
import {
  type Cadence,
  type DeprecationWindow,
  type Intensity,
  intensityProblems,
  nextDueAfter,
  nextRelease,
  parseBackendRef,
  parseStreamRef,
  type ReleaseSurface,
  type ReleaseTimes,
  releaseInForce,
  type StreamBase,
  streamSchedule,
  sunsetFor,
} from '../core/streams/index.ts';
import { PC_SURFACE } from '../core/surfaces/builtin.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { resolveSchedule, type Schedule } from '../core/surfaces/schedule.ts';
import { hash128 } from '../core/util/random.ts';
import { apiCatalog } from './apis.ts';
import type { Bindings } from './env.ts';
import { type FieldIssue, InvalidInputError, NotFoundError } from './errors.ts';
import { enqueueLiving } from './living.ts';
import { findApi } from './stores/apis.ts';
import type { Owner } from './stores/owners.ts';
import {
  findStream,
  getRelease,
  insertStream,
  moveDue,
  type ReleaseSummaryRow,
  recordRelease,
  releasesWithSurfaces,
  type StreamReleaseRow,
  type StreamRow,
} from './stores/streams.ts';

export interface StreamRequest {
  name: string;
  /** `kernel` or `api:<id>`. */
  backend: string;
  seed: string;
  intensity: Intensity;
  cadence: Cadence;
  window: DeprecationWindow;
}

const bodyIssue = (field: string, message: string): FieldIssue => ({
  in: 'body',
  field,
  pointer: `/${field.replaceAll('.', '/')}`,
  message,
});

/** A new stream id: 12 hex digits (release surfaces are `stream-{id}-r{n}`, within a surface id's 64 characters). */
function newStreamId(): string {
  const [a, b] = hash128(crypto.randomUUID());
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`.slice(0, 12);
}

/** The base a stream's releases derive from: `pc`, or the API as imported (the API must be visible to `owner`). */
export async function streamBase(
  env: Bindings,
  row: Pick<StreamRow, 'backend'>,
  owner?: Owner,
): Promise<StreamBase> {
  const ref = parseBackendRef(row.backend);
  if (!ref) throw new Error(`stream backend ${row.backend} is not kernel or api:<id>`);
  if (ref.kind === 'kernel') return { kind: 'kernel', base: PC_SURFACE };
  const api = await findApi(env, ref.api, owner);
  if (!api) throw new NotFoundError(`No API with id ${ref.api}.`, [bodyIssue('backend', 'no such API')]);
  const catalog = await apiCatalog(env, api.id);
  return { kind: 'api', base: baseApiSurface(api.id, catalog, api.title), catalog };
}

/** Creates a stream and its release 0 (the base surface, released now); the request's fields are checked here. */
export async function createStream(
  env: Bindings,
  req: StreamRequest,
  owner: Owner,
  now = Date.now(),
): Promise<StreamRow> {
  const ref = parseBackendRef(req.backend);
  if (!ref)
    throw new InvalidInputError('backend must be `kernel` or `api:<id>`.', [
      bodyIssue('backend', 'expected `kernel` or `api:<id>`'),
    ]);
  const unknown = intensityProblems(ref, req.intensity);
  if (unknown.length > 0) {
    throw new InvalidInputError(
      unknown[0]?.message as string,
      unknown.map((u) => bodyIssue(`intensity.${u.kind}`, u.message)),
    );
  }
  const base = await streamBase(env, { backend: req.backend }, owner);
  const row: StreamRow = {
    id: newStreamId(),
    ownerId: owner.id,
    name: req.name,
    backend: req.backend,
    apiId: ref.kind === 'api' ? ref.api : null,
    seed: req.seed,
    intensity: req.intensity,
    cadence: req.cadence,
    window: req.window,
    currentRelease: 0,
    nextDueAt: nextDueAfter(req.cadence, now, now),
    createdAt: now,
    updatedAt: now,
  };
  await insertStream(env, row, {
    streamId: row.id,
    n: 0,
    surfaceId: base.base.id,
    surface: base.base,
    diff: null,
    releasedAt: now,
    sunsetAt: null,
    dueAt: null,
    trigger: 'create',
  });
  return row;
}

export interface Advance {
  release: StreamReleaseRow;
  /** False when the release existed already (another request, tick or delivery made it). */
  created: boolean;
}

/**
 * Makes release `current + 1` of a stream: derived from the stored release `current`, released now (strictly
 * after the previous release), sunset by the stream's window. `due` is the cadence's due time it is made for
 * (the cron path: the stream's next due time moves past it in the same update); without it, by hand.
 */
export async function advanceStream(
  env: Bindings,
  stream: StreamRow,
  opts: { due?: number; now?: number } = {},
): Promise<Advance> {
  const now = opts.now ?? Date.now();
  const n = stream.currentRelease + 1;
  const prev = await getRelease(env, stream.id, n - 1);
  if (!prev) throw new Error(`stream ${stream.id} has no release ${n - 1}`);
  const base = await streamBase(env, stream);
  const cadence = stream.cadence as Cadence;
  const made = nextRelease(
    { id: stream.id, seed: stream.seed, intensity: stream.intensity },
    base,
    prev.surface as ReleaseSurface,
    n,
  );
  const releasedAt = Math.max(now, prev.releasedAt + 1);
  const row: StreamReleaseRow = {
    streamId: stream.id,
    n,
    surfaceId: made.surface.id,
    surface: made.surface,
    diff: made.diff,
    releasedAt,
    sunsetAt: sunsetFor(stream.window as DeprecationWindow, cadence, stream.createdAt, releasedAt),
    dueAt: opts.due ?? null,
    trigger: opts.due === undefined ? 'manual' : 'cron',
  };
  const nextDue =
    opts.due === undefined ? undefined : nextDueAfter(cadence, stream.createdAt, Math.max(opts.due, now));
  const created = await recordRelease(env, row, nextDue);
  if (!created) {
    // Another request or delivery made release n; this due time is spent all the same.
    if (opts.due !== undefined) await moveDue(env, stream.id, opts.due, nextDue ?? null);
    const existing = await getRelease(env, stream.id, n);
    return { release: existing ?? row, created: false };
  }
  // Living drift: a stream with a plan maintains (then evaluates) the new release through the queue, once.
  await enqueueLiving(env, stream, n);
  return { release: row, created: true };
}

/**
 * The cron path for one due time of one stream: advances it when `due` is still its next due time, else does
 * nothing (the due time was handled). Safe to call any number of times for the same due time.
 */
export async function advanceForDueTime(
  env: Bindings,
  streamId: string,
  due: number,
  now = Date.now(),
): Promise<{ release: number | null; created: boolean }> {
  const stream = await findStream(env, streamId, undefined);
  if (!stream) return { release: null, created: false };
  if (stream.nextDueAt !== due) {
    // The due time was handled — perhaps by a run that recorded the release and died before enqueueing its
    // maintenance; the redelivered job asks for it again (its id is per (stream, release): enqueued at most once).
    await enqueueLiving(env, stream, stream.currentRelease);
    return { release: null, created: false };
  }
  const { release, created } = await advanceStream(env, stream, { due, now });
  return { release: release.n, created };
}

export function releaseTimes(
  rows: readonly Pick<ReleaseSummaryRow, 'n' | 'surfaceId' | 'releasedAt' | 'sunsetAt'>[],
): ReleaseTimes[] {
  return rows.map((r) => ({
    n: r.n,
    surfaceId: r.surfaceId,
    releasedAt: r.releasedAt,
    sunsetAt: r.sunsetAt,
  }));
}

/** What a session or evaluation plays for a `stream:` surface name. */
export type StreamServer =
  | {
      kind: 'kernel';
      stream: StreamRow;
      release: number;
      schedule: Schedule;
      surfaces: Record<string, Surface>;
    }
  | {
      kind: 'api';
      stream: StreamRow;
      api: string;
      release: number;
      schedule: Schedule;
      surfaces: Record<string, ApiSurface>;
    };

/**
 * The schedule and surfaces of `stream:<id>` (the releases made so far; the one in force at `now` is served)
 * or `stream:<id>@<n>` (releases 0…n); null when `name` is not a stream name. A stream the key cannot see, or a
 * release it does not have, is an InvalidInputError naming `field`.
 */
export async function streamServer(
  env: Pick<Bindings, 'DB'>,
  name: string,
  owner: Owner | undefined,
  field: string,
  now = Date.now(),
): Promise<StreamServer | null> {
  if (!name.startsWith('stream:')) return null;
  const ref = parseStreamRef(name);
  if (!ref)
    throw new InvalidInputError(`${name} is not a stream surface name.`, [
      bodyIssue(field, 'expected `stream:<id>` or `stream:<id>@<n>`'),
    ]);
  const stream = await findStream(env, ref.stream, owner);
  if (!stream)
    throw new InvalidInputError(`No stream with id ${ref.stream}.`, [
      bodyIssue(field, `no stream ${ref.stream}`),
    ]);
  if (ref.release !== null && ref.release > stream.currentRelease) {
    throw new InvalidInputError(
      `Stream ${stream.id} has releases 0…${stream.currentRelease}; ${ref.release} is not made yet.`,
      [bodyIssue(field, `no release ${ref.release} (latest: ${stream.currentRelease})`)],
    );
  }
  const rows = await releasesWithSurfaces(env, stream.id, ref.release ?? stream.currentRelease);
  const times = releaseTimes(rows);
  const upTo = ref.release ?? releaseInForce(times, now);
  const played = rows.filter((r) => r.n <= upTo);
  const schedule = streamSchedule(stream.id, times, upTo);
  const surfaces = Object.fromEntries(played.map((r) => [r.surfaceId, r.surface]));
  if (stream.apiId !== null) {
    return {
      kind: 'api',
      stream,
      api: stream.apiId,
      release: upTo,
      schedule,
      surfaces: surfaces as Record<string, ApiSurface>,
    };
  }
  return { kind: 'kernel', stream, release: upTo, schedule, surfaces: surfaces as Record<string, Surface> };
}

/**
 * The surface a stream serves at `now` as one surface (the schedule resolved: the release in force, plus the
 * names still in their window as deprecated tools and the retired ones): what an agent reads as documentation
 * when a request names `stream:<id>` as its prompt surface.
 */
export function streamSurfaceAt(server: StreamServer, now = Date.now()): ReleaseSurface {
  return server.kind === 'api'
    ? resolveApiSchedule(server.schedule, server.surfaces, new Date(now)).current
    : resolveSchedule(server.schedule, server.surfaces, new Date(now)).current;
}
