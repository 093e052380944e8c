/**
 * Drift streams in D1 (issue 26): the `streams` rows (settings, current release, next due time) and one
 * `stream_releases` row per release (its surface, its diff, when it was released, when the names it dropped are
 * sunset). A release is recorded once: the (stream, n) key refuses a second insert, and the stream moves to
 * release n only from n−1 (a conditional update), in one batch.
 */
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { streamReleases, streams } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { newestFirstPage, type Page } from './keyset.ts';
import { type Owner, visibleTo } from './owners.ts';

export type StreamRow = typeof streams.$inferSelect;
export type StreamReleaseRow = typeof streamReleases.$inferSelect;
/** A release without its surface (lists, timelines). */
export type ReleaseSummaryRow = Omit<StreamReleaseRow, 'surface'>;

type Db = Pick<Bindings, 'DB'>;

/** Stores a new stream with its release 0. */
export async function insertStream(env: Db, row: StreamRow, release0: StreamReleaseRow): Promise<void> {
  const db = database(env.DB);
  await db.batch([db.insert(streams).values(row), db.insert(streamReleases).values(release0)]);
}

/** A stream the owner may see (any, for the system), or null. */
export async function findStream(env: Db, id: string, owner: Owner | undefined): Promise<StreamRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(streams)
    .where(and(eq(streams.id, id), visibleTo(streams.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

/** A page of the streams the owner may see, newest first. */
export async function listStreams(
  env: Db,
  page: { limit: number; cursor?: string },
  owner: Owner | undefined,
): Promise<Page<StreamRow>> {
  return newestFirstPage({ time: streams.createdAt, id: streams.id }, page, (after, order, limit) =>
    database(env.DB)
      .select()
      .from(streams)
      .where(and(visibleTo(streams.ownerId, owner), after))
      .orderBy(...order)
      .limit(limit),
  );
}

/** Deletes a stream and its releases. */
export async function deleteStream(env: Db, id: string): Promise<void> {
  const db = database(env.DB);
  await db.batch([
    db.delete(streamReleases).where(eq(streamReleases.streamId, id)),
    db.delete(streams).where(eq(streams.id, id)),
  ]);
}

const SUMMARY = {
  streamId: streamReleases.streamId,
  n: streamReleases.n,
  surfaceId: streamReleases.surfaceId,
  diff: streamReleases.diff,
  releasedAt: streamReleases.releasedAt,
  sunsetAt: streamReleases.sunsetAt,
  dueAt: streamReleases.dueAt,
  trigger: streamReleases.trigger,
};

/** The stream's releases 0…`upTo` (default: all) without their surfaces, in order. */
export async function releaseSummaries(
  env: Db,
  streamId: string,
  upTo?: number,
): Promise<ReleaseSummaryRow[]> {
  return database(env.DB)
    .select(SUMMARY)
    .from(streamReleases)
    .where(
      and(
        eq(streamReleases.streamId, streamId),
        upTo === undefined ? undefined : lte(streamReleases.n, upTo),
      ),
    )
    .orderBy(asc(streamReleases.n));
}

/** When each release of the stream happened and when its dropped names are sunset, in order (lists, timelines). */
export async function releaseTimeRows(
  env: Db,
  streamId: string,
): Promise<Pick<StreamReleaseRow, 'n' | 'surfaceId' | 'releasedAt' | 'sunsetAt'>[]> {
  return database(env.DB)
    .select({
      n: streamReleases.n,
      surfaceId: streamReleases.surfaceId,
      releasedAt: streamReleases.releasedAt,
      sunsetAt: streamReleases.sunsetAt,
    })
    .from(streamReleases)
    .where(eq(streamReleases.streamId, streamId))
    .orderBy(asc(streamReleases.n));
}

/** The stream's releases 0…`upTo` with their surfaces, in order. */
export async function releasesWithSurfaces(
  env: Db,
  streamId: string,
  upTo: number,
): Promise<StreamReleaseRow[]> {
  return database(env.DB)
    .select()
    .from(streamReleases)
    .where(and(eq(streamReleases.streamId, streamId), lte(streamReleases.n, upTo)))
    .orderBy(asc(streamReleases.n));
}

export async function getRelease(env: Db, streamId: string, n: number): Promise<StreamReleaseRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(streamReleases)
    .where(and(eq(streamReleases.streamId, streamId), eq(streamReleases.n, n)))
    .limit(1);
  return row ?? null;
}

/**
 * Records release `row.n` and moves the stream to it from `row.n − 1`, in one batch; `nextDueAt` (when given)
 * replaces the stream's next due time in the same update. False when the release existed already (another
 * request, tick or delivery made it): nothing changes then.
 */
export async function recordRelease(
  env: Db,
  row: StreamReleaseRow,
  nextDueAt?: number | null,
): Promise<boolean> {
  const db = database(env.DB);
  const [inserted] = await db.batch([
    db.insert(streamReleases).values(row).onConflictDoNothing().returning({ n: streamReleases.n }),
    db
      .update(streams)
      .set({
        currentRelease: row.n,
        updatedAt: Date.now(),
        ...(nextDueAt !== undefined ? { nextDueAt } : {}),
      })
      .where(and(eq(streams.id, row.streamId), eq(streams.currentRelease, row.n - 1))),
  ]);
  return inserted.length > 0;
}

/**
 * Moves a stream's next due time from `from` to `to`; false when it is no longer `from` (this due time was
 * handled already).
 */
export async function moveDue(env: Db, id: string, from: number, to: number | null): Promise<boolean> {
  const moved = await database(env.DB)
    .update(streams)
    .set({ nextDueAt: to, updatedAt: Date.now() })
    .where(and(eq(streams.id, id), eq(streams.nextDueAt, from)))
    .returning({ id: streams.id });
  return moved.length > 0;
}

/** Streams whose next due time has come by `at` (ms). */
export async function dueStreams(env: Db, at: number): Promise<StreamRow[]> {
  return database(env.DB)
    .select()
    .from(streams)
    .where(and(isNotNull(streams.nextDueAt), lte(streams.nextDueAt, at)))
    .orderBy(asc(streams.nextDueAt));
}
