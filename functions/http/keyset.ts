/**
 * Keyset pagination for lists ordered newest first by (time, id): the cursor is the last row's `{time}_{id}`, and
 * the next page holds the rows strictly older than it in that order. Stable while rows are added, unlike offsets.
 */
import { z } from '@hono/zod-openapi';
import { and, eq, lt, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Context } from 'hono';

function pattern(maxIdLength: number): RegExp {
  return new RegExp(`^(\\d{1,15})_(.{1,${maxIdLength}})$`);
}

/** The query parameter that takes a `nextCursor` (ids up to `maxIdLength` characters). */
export function cursorParam(maxIdLength: number) {
  return z
    .string()
    .regex(pattern(maxIdLength), 'expected the `nextCursor` of a previous page')
    .optional()
    .openapi({ description: 'The `nextCursor` of the previous page.' });
}

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

/** An RFC 8288 `Link: <…>; rel="next"` header for the next page, when there is one. */
export function linkNext(c: Context, cursor: string | null, param = 'cursor'): void {
  if (!cursor) return;
  const next = new URL(c.req.url);
  next.searchParams.set(param, cursor);
  c.header('link', `<${next.pathname}${next.search}>; rel="next"`);
}
