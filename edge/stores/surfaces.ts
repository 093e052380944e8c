/**
 * Surfaces by id: the built-in ones from code, custom and generated kernel surfaces from D1 (public), and the
 * drifted versions of imported APIs (issue 22), which belong to the key that made them like their API does. The
 * kernel finders never return an API surface, so everything that runs on the kernel (explorations, evaluations,
 * DRAFT, STE) keeps seeing kernel surfaces only.
 */
import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { BUILTIN_SURFACES, builtinSurface } from '../../core/surfaces/builtin.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { database } from '../../db/client.ts';
import { surfaces } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { InvalidInputError } from '../errors.ts';
import { newestFirstPage, type Page } from './keyset.ts';
import { type Owner, ownerIdOf, visibleTo } from './owners.ts';

export async function findSurface(env: Bindings, id: string): Promise<Surface | null> {
  const builtin = builtinSurface(id);
  if (builtin) return builtin;
  const rows = await database(env.DB)
    .select()
    .from(surfaces)
    .where(and(eq(surfaces.id, id), isNull(surfaces.apiId)))
    .limit(1);
  return (rows[0]?.body as Surface | undefined) ?? null;
}

/**
 * The surface a job acts on and the one its agent reads as documentation, loaded together; a missing one is an
 * Error naming it (a failed chunk of a Durable Object's job, retried; not a request error).
 */
export async function jobSurfaces(
  env: Bindings,
  surfaceId: string,
  docsId: string,
): Promise<{ surface: Surface; docs: Surface }> {
  const [surface, docs] = await Promise.all([findSurface(env, surfaceId), findSurface(env, docsId)]);
  if (!surface || !docs) throw new Error(`unknown surface ${surface ? docsId : surfaceId}`);
  return { surface, docs };
}

export async function listSurfaces(
  env: Bindings,
): Promise<{ surface: Surface; kind: 'builtin' | 'custom' | 'generated' }[]> {
  const rows = await database(env.DB)
    .select()
    .from(surfaces)
    .where(isNull(surfaces.apiId))
    .orderBy(desc(surfaces.createdAt));
  return [
    ...BUILTIN_SURFACES.map((surface) => ({ surface, kind: 'builtin' as const })),
    ...rows.map((r) => ({ surface: r.body as Surface, kind: r.kind })),
  ];
}

/**
 * The surface a request names in body field `field` (dotted, e.g. `schedule.stages.0.surface`), or an
 * InvalidInputError pointing at that field.
 */
export async function requireSurface(env: Bindings, id: string, field: string): Promise<Surface> {
  const surface = await findSurface(env, id);
  if (surface) return surface;
  throw unknownSurface(id, field);
}

/** The error for a body field (dotted) naming no surface. */
export function unknownSurface(id: string, field: string): InvalidInputError {
  return new InvalidInputError(`Unknown surface ${id}.`, [
    { in: 'body', field, pointer: `/${field.replaceAll('.', '/')}`, message: `no surface named ${id}` },
  ]);
}

/** Stores a custom or generated surface; its id must be free (the caller checked it is consistent). */
export async function insertSurface(
  env: Bindings,
  surface: Surface,
  kind: 'custom' | 'generated',
): Promise<void> {
  await database(env.DB)
    .insert(surfaces)
    .values({ id: surface.id, kind, body: surface, createdAt: Date.now() });
}

/** Deletes a stored surface; false when there was none with that id. */
export async function deleteSurface(env: Bindings, id: string): Promise<boolean> {
  const deleted = await database(env.DB)
    .delete(surfaces)
    .where(and(eq(surfaces.id, id), isNull(surfaces.apiId)))
    .returning({ id: surfaces.id });
  return deleted.length > 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Drifted versions of imported APIs

export interface ApiSurfaceRecord {
  id: string;
  apiId: string;
  surface: ApiSurface;
  createdAt: number;
}

/** A stored API surface visible to the owner, or null (the base surface of an API is derived, never stored). */
export async function findApiSurface(
  env: Bindings,
  id: string,
  owner: Owner | undefined,
): Promise<ApiSurfaceRecord | null> {
  const [row] = await database(env.DB)
    .select()
    .from(surfaces)
    .where(and(eq(surfaces.id, id), isNotNull(surfaces.apiId), visibleTo(surfaces.ownerId, owner)))
    .limit(1);
  return row
    ? { id: row.id, apiId: row.apiId as string, surface: row.body as ApiSurface, createdAt: row.createdAt }
    : null;
}

/** Whether any surface (kernel or API) has this id: ids are one namespace. */
export async function surfaceIdTaken(env: Bindings, id: string): Promise<boolean> {
  if (builtinSurface(id)) return true;
  const [row] = await database(env.DB)
    .select({ id: surfaces.id })
    .from(surfaces)
    .where(eq(surfaces.id, id))
    .limit(1);
  return row !== undefined;
}

export async function insertApiSurface(
  env: Bindings,
  surface: ApiSurface,
  owner: Owner | undefined,
): Promise<void> {
  await database(env.DB)
    .insert(surfaces)
    .values({
      id: surface.id,
      kind: 'generated',
      body: surface,
      createdAt: Date.now(),
      ownerId: ownerIdOf(owner),
      apiId: surface.api,
    });
}

export async function listApiSurfaces(
  env: Bindings,
  apiId: string,
  query: { owner: Owner; limit: number; cursor?: string },
): Promise<Page<ApiSurfaceRecord>> {
  const page = await newestFirstPage(
    { time: surfaces.createdAt, id: surfaces.id },
    query,
    (after, order, limit) =>
      database(env.DB)
        .select()
        .from(surfaces)
        .where(and(eq(surfaces.apiId, apiId), visibleTo(surfaces.ownerId, query.owner), after))
        .orderBy(...order)
        .limit(limit),
  );
  return {
    items: page.items.map((r) => ({
      id: r.id,
      apiId: r.apiId as string,
      surface: r.body as ApiSurface,
      createdAt: r.createdAt,
    })),
    nextCursor: page.nextCursor,
  };
}

export async function deleteApiSurface(
  env: Bindings,
  apiId: string,
  id: string,
  owner: Owner | undefined,
): Promise<boolean> {
  const deleted = await database(env.DB)
    .delete(surfaces)
    .where(and(eq(surfaces.id, id), eq(surfaces.apiId, apiId), visibleTo(surfaces.ownerId, owner)))
    .returning({ id: surfaces.id });
  return deleted.length > 0;
}
