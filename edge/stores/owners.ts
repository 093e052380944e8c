/**
 * Ownership (issue 13 item 6): what a key creates belongs to it. A table adopts the convention with its
 * `ownerId: ownerId()` column (db/schema.ts); its store ANDs `visibleTo(table.ownerId, owner)` into every read,
 * change and list, so a row another user key owns is simply not found (the route answers 404, not 403: a
 * foreign id reveals nothing). Admin keys see every row; so does the system (cron, queue jobs), which passes no
 * owner.
 */
import { eq, isNull, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** Who is asking: the key's owner id and whether it is an admin key. */
export interface Owner {
  id: string;
  admin: boolean;
}

/**
 * The condition restricting a query to rows the owner may see; undefined (no condition) for admins and the
 * system. A row without an owner (made before ownership existed, or written directly by an operator) stays
 * visible to every key, as every row was before; every row made through the API since has an owner.
 */
export function visibleTo(column: SQLWrapper, owner: Owner | undefined): SQL | undefined {
  if (!owner || owner.admin) return undefined;
  return or(isNull(column as never), eq(column as never, owner.id));
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
 * For rows owned through a parent (a trajectory or a DPO pair through its exploration): hidden when the parent
 * belongs to another key, `fk not in (select id from parent where owner_id <> owner)` (so, like `visibleTo`, rows
 * whose parent has no owner, or no row, stay visible); undefined for admins and the system.
 */
export function visibleThrough(
  fk: SQLWrapper,
  parent: { table: SQLWrapper; id: SQLWrapper; ownerId: SQLWrapper },
  owner: Owner | undefined,
): SQL | undefined {
  if (!owner || owner.admin) return undefined;
  return sql`${fk} not in (select ${parent.id} from ${parent.table} where ${parent.ownerId} <> ${owner.id})`;
}
