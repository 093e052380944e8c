/** Surfaces by id: the built-in ones from code, custom and generated ones from D1. */
import { desc, eq } from 'drizzle-orm';
import { BUILTIN_SURFACES, builtinSurface } from '../../core/surfaces/builtin.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { database } from '../../db/client.ts';
import { surfaces } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { InvalidInputError } from '../errors.ts';

export async function findSurface(env: Bindings, id: string): Promise<Surface | null> {
  const builtin = builtinSurface(id);
  if (builtin) return builtin;
  const rows = await database(env.DB).select().from(surfaces).where(eq(surfaces.id, id)).limit(1);
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
  const rows = await database(env.DB).select().from(surfaces).orderBy(desc(surfaces.createdAt));
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
    .where(eq(surfaces.id, id))
    .returning({ id: surfaces.id });
  return deleted.length > 0;
}
