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

/** `pageAnswer` with a view that reads more (each item's view awaited in turn, in the page's order). */
export async function pageAnswerEach<T, V>(
  c: Context,
  page: { items: readonly T[]; nextCursor: string | null },
  view: (item: T) => Promise<V>,
): Promise<{ items: V[]; nextCursor: string | null }> {
  linkNext(c, page.nextCursor);
  const items: V[] = [];
  for (const item of page.items) items.push(await view(item));
  return { items, nextCursor: page.nextCursor };
}

/** An RFC 8288 `Link: <…>; rel="next"` header for the next page, when there is one. */
export function linkNext(c: Context, cursor: string | null, param = 'cursor'): void {
  if (!cursor) return;
  const next = new URL(c.req.url);
  next.searchParams.set(param, cursor);
  c.header('link', `<${next.pathname}${next.search}>; rel="next"`);
}

/**
 * A page of a list held in memory (a registry, the built-in surfaces with the stored ones), in the same shape and
 * with the same cursor format as the stores' keyset pages: `{position}_{id}` of the page's last item; the next
 * page starts after that item (found by id, so a list that grew meanwhile does not repeat or skip it).
 */
export function arrayPage<T>(
  all: readonly T[],
  page: { limit: number; cursor?: string | undefined },
  idOf: (item: T) => string,
): { items: T[]; nextCursor: string | null } {
  let start = 0;
  const m = page.cursor === undefined ? null : /^(\d+)_(.*)$/s.exec(page.cursor);
  if (m) {
    const at = all.findIndex((item) => idOf(item) === m[2]);
    start = (at >= 0 ? at : Number(m[1])) + 1;
  }
  const items = all.slice(start, start + page.limit);
  const last = items.at(-1);
  const more = start + page.limit < all.length;
  return {
    items,
    nextCursor: more && last !== undefined ? `${start + items.length - 1}_${idOf(last)}` : null,
  };
}
