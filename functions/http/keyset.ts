/**
 * Keyset pagination over HTTP: the `cursor` query parameter and the `Link` header of the next page. The stores
 * (edge/stores/keyset.ts) turn a cursor into a condition and a page into its next cursor.
 */
import { z } from '@hono/zod-openapi';
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

/**
 * The paging parameters of a list's query, spread after its filters (`z.object({ ...filters, ...pageParams(300) })`):
 * `limit` (1 to `max`, default `size`) and `cursor` (ids up to `maxIdLength` characters).
 */
export function pageParams(maxIdLength: number, size = 20, max = 100) {
  return { limit: z.coerce.number().int().min(1).max(max).default(size), cursor: cursorParam(maxIdLength) };
}

/**
 * The body of a keyset-paginated list's answer, `{ items, nextCursor }`, with each item through `view`; sets the
 * `Link` header of the next page.
 */
export function pageAnswer<T, V>(
  c: Context,
  page: { items: readonly T[]; nextCursor: string | null },
  view: (item: T) => V,
): { items: V[]; nextCursor: string | null } {
  linkNext(c, page.nextCursor);
  return { items: page.items.map((item) => view(item)), nextCursor: page.nextCursor };
}

/** An RFC 8288 `Link: <…>; rel="next"` header for the next page, when there is one. */
export function linkNext(c: Context, cursor: string | null, param = 'cursor'): void {
  if (!cursor) return;
  const next = new URL(c.req.url);
  next.searchParams.set(param, cursor);
  c.header('link', `<${next.pathname}${next.search}>; rel="next"`);
}
