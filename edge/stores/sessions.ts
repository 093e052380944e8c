/**
 * Who started each session (the session itself lives in its Durable Object): a row per session, so a route can
 * tell whether the calling key may read or drive it, and the session browser can list a key's own sessions.
 */
import { and, eq } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { journal, sessions } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { NotFoundError } from '../errors.ts';
import { type Owner, ownerIdOf, visibleTo } from './owners.ts';

export async function insertSession(
  env: Bindings,
  row: { id: string; taskId: string; createdAt: number },
  owner: Owner,
): Promise<void> {
  await database(env.DB)
    .insert(sessions)
    .values({ ...row, ownerId: ownerIdOf(owner) });
}

/**
 * Whether the owner may use the session: admins may use any (the object answers whether it exists); a user key
 * only one it started.
 */
export async function sessionVisible(env: Bindings, id: string, owner: Owner): Promise<boolean> {
  if (owner.admin) return true;
  const [row] = await database(env.DB)
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, id), visibleTo(sessions.ownerId, owner)))
    .limit(1);
  return row !== undefined;
}

/** Throws NotFoundError (404, as for a missing session) when the owner may not use the session. */
export async function assertSessionVisible(env: Bindings, id: string, owner: Owner): Promise<void> {
  if (!(await sessionVisible(env, id, owner))) {
    throw new NotFoundError(`No session with id ${id} (or it expired).`);
  }
}

/**
 * Whether a session was ever started (its row) or called (its journal rows: a session's calls stay journalled
 * after it expires), for a filter that names one.
 */
export async function sessionKnown(env: Bindings, id: string, owner?: Owner): Promise<boolean> {
  const db = database(env.DB);
  const [started, called] = await db.batch([
    db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, id), visibleTo(sessions.ownerId, owner)))
      .limit(1),
    db.select({ id: journal.id }).from(journal).where(eq(journal.sessionId, id)).limit(1),
  ]);
  return started.length > 0 || (called.length > 0 && (owner === undefined || owner.admin));
}
