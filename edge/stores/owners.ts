/**
 * Ownership (issue 13 item 6): what a key creates belongs to it. A table adopts the convention with its
 * `ownerId: ownerId()` column (db/schema.ts); its store ANDs `visibleTo(table.ownerId, owner)` into every read,
 * change and list, so a row another user key owns is simply not found (the route answers 404, not 403: a
 * foreign id reveals nothing). Admin keys see every row; so does the system (cron, queue jobs), which passes no
 * owner.
 */
import { eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** Who is asking: the key's owner id and whether it is an admin key. */
export interface Owner {
  id: string;
  admin: boolean;
}

/** The condition restricting a query to rows the owner may see; undefined (no condition) for admins and the system. */
export function visibleTo(column: SQLWrapper, owner: Owner | undefined): SQL | undefined {
  if (!owner || owner.admin) return undefined;
  return eq(column as never, owner.id);
}

/** The same as a raw SQL fragment that is always a condition (`1` when unrestricted), for hand-written filters. */
export function visibleToSql(column: SQLWrapper, owner: Owner | undefined): SQL {
  return visibleTo(column, owner) ?? sql`1`;
}

/** The owner id to store on a new row. */
export function ownerIdOf(owner: Owner | undefined): string | null {
  return owner?.id ?? null;
}

/**
 * For rows owned through a parent (a trajectory through its exploration, a session's journal rows through the
 * session): `fk in (select id from parent where parent.owner_id = owner)`; undefined for admins and the system.
 */
export function visibleThrough(
  fk: SQLWrapper,
  parent: { table: SQLWrapper; id: SQLWrapper; ownerId: SQLWrapper },
  owner: Owner | undefined,
): SQL | undefined {
  if (!owner || owner.admin) return undefined;
  return sql`${fk} in (select ${parent.id} from ${parent.table} where ${parent.ownerId} = ${owner.id})`;
}
