/**
 * Keyset pagination in the stores, for lists ordered newest first by (time, id): the cursor is the last row's
 * `{time}_{id}`, and the next page holds the rows strictly older than it in that order. Stable while rows are
 * added, unlike offsets. The HTTP side (the cursor query parameter, `Link` headers) is functions/http/keyset.ts.
 */
import { and, asc, desc, eq, gt, lt, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client.ts';

/** The time and id of a cursor the query schema has accepted (null without one). */
function parse(cursor: string | undefined): { at: number; id: string } | null {
  const m = cursor === undefined ? null : /^(\d+)_(.*)$/s.exec(cursor);
  return m ? { at: Number(m[1]), id: m[2] as string } : null;
}

/** Rows after the cursor in (time desc, id desc) order; undefined (no condition) without a cursor. */
export function olderThan(time: SQLWrapper, id: SQLWrapper, cursor: string | undefined): SQL | undefined {
  const c = parse(cursor);
  return c ? or(lt(time, c.at), and(eq(time, c.at), lt(id, c.id))) : undefined;
}

/** The same condition over aggregate expressions (for HAVING, where column helpers do not apply). */
export function olderThanSql(time: SQL, id: SQLWrapper, cursor: string | undefined): SQL | undefined {
  const c = parse(cursor);
  return c ? sql`(${time} < ${c.at} or (${time} = ${c.at} and ${id} < ${c.id}))` : undefined;
}

/**
 * The cursor of the next page: from the last row of the page when the query (asked for limit + 1 rows) found more.
 */
export function nextCursor<T>(
  rows: readonly T[],
  limit: number,
  key: (row: T) => [number, string],
): string | null {
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  if (last === undefined) return null;
  const [at, id] = key(last);
  return `${at}_${id}`;
}

/** One page of a keyset list: the rows and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The page in `rows` fetched with one row more than `limit`: the first `limit` rows and, when the extra row came,
 * the cursor of the last row kept (null on the last page).
 */
export function pageFrom<R, C>(
  rows: R[],
  limit: number,
  cursorOf: (last: R) => C,
): { items: R[]; next: C | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/**
 * One page of a list ordered newest first by (time, id): `query` runs the store's select with the cursor's
 * condition (to AND with its own filter), this order and one row more than the page, which tells whether a next
 * page exists.
 */
export async function newestFirstPage<R extends { createdAt: number; id: string }>(
  key: { time: SQLWrapper; id: SQLWrapper },
  page: { limit: number; cursor?: string },
  query: (after: SQL | undefined, order: SQL[], limit: number) => Promise<R[]>,
): Promise<Page<R>> {
  const rows = await query(
    olderThan(key.time, key.id, page.cursor),
    [desc(key.time), desc(key.id)],
    page.limit + 1,
  );
  return {
    items: rows.slice(0, page.limit),
    nextCursor: nextCursor(rows, page.limit, (r) => [r.createdAt, r.id]),
  };
}

/**
 * The window of an export page (exports are in id order): how many rows the whole filtered export has, and the
 * last id of the page of at most `limit` rows after `after` (null when the export ends within the page) with
 * whether rows follow it. Found before the page is streamed, so the answer's headers (total, next page) are sent
 * first and the page is exactly the rows with `after < id <= last`.
 */
export async function exportWindow(
  db: Database,
  table: SQLiteTable,
  id: SQLiteColumn,
  where: SQL | undefined,
  after: string,
  limit: number,
): Promise<{ total: number; last: string | null; more: boolean }> {
  const [counted, bounds] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(table).where(where),
    db
      .select({ id })
      .from(table)
      .where(and(where, gt(id, after)))
      .orderBy(asc(id))
      .limit(2)
      .offset(limit - 1),
  ]);
  const [last, next] = bounds as { id: string }[];
  return { total: counted[0]?.n ?? 0, last: last?.id ?? null, more: next !== undefined };
}
