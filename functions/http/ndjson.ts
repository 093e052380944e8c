/**
 * JSON Lines exports (trajectories, DPO pairs, STE exemplars): bounded pages of an export in id order, each
 * produced in chunks (so no page sits in memory at once). A page holds at most `limit` records (default 1,000,
 * at most 10,000) after `cursor`; the answer says how large the whole export is (`X-Total-Count`, in lines) and
 * where the next page starts (`Link: <…?cursor=…>; rel="next"`, the shared keyset cursor `{records sent}_{last
 * id}`), so a client follows the links until there is none (issue 24: one unpaged export answered 769 MB).
 * Progress streams are Server-Sent Events (sse.ts).
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { cursorParam, linkNext } from './keyset.ts';

export const NDJSON = 'application/x-ndjson';

/** Records one export page holds by default, and at most. */
export const EXPORT_PAGE = { size: 1_000, max: 10_000 } as const;

/** Rows read from D1 per chunk of a page. */
const CHUNK = 50;

/** An export's paging query parameters, spread after its filters. */
export function exportParams(maxIdLength: number, unit = 'records') {
  return {
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(EXPORT_PAGE.max)
      .default(EXPORT_PAGE.size)
      .openapi({
        description: `At most this many ${unit} in this answer (the rest: follow \`Link: rel="next"\`).`,
      }),
    cursor: cursorParam(maxIdLength),
  };
}

/** An export route's success response, as the `ok` of `routeTable`/`jsonRoute` (openapi.ts). */
export const ndjsonOk = (description: string) =>
  [
    200,
    `${description}: one page (\`limit\`). \`X-Total-Count\` is the whole export's size in lines; \`Link: rel="next"\` the next page.`,
    z.string().openapi({ description: 'One JSON object per line.' }),
    NDJSON,
  ] as const;

/** What an export is read from: its size and a page's window, then the page's rows in chunks (ids ascending). */
export interface ExportSource<R> {
  window(after: string, limit: number): Promise<{ total: number; last: string | null; more: boolean }>;
  rows(after: string, upTo: string | undefined, chunk: number): Promise<R[]>;
  idOf(row: R): string;
  /** The lines of a chunk of rows (async: a row may need a lookup). */
  lines(rows: R[]): Promise<string[]> | string[];
  /** Lines per row (2 for STE exemplars), for `X-Total-Count`. */
  linesPerRow?: number;
}

/** Where a cursor says the page starts: records sent before it and the last id sent. */
function position(cursor: string | undefined): { sent: number; after: string } {
  const m = cursor === undefined ? null : /^(\d+)_(.*)$/s.exec(cursor);
  return m ? { sent: Number(m[1]), after: m[2] as string } : { sent: 0, after: '' };
}

/**
 * One page of JSON Lines: `X-Total-Count` (the whole export, in lines), the `Link` of the next page when there is
 * one, and the lines streamed chunk by chunk as `chunks` yields them.
 */
export function ndjsonPage(
  c: Context,
  page: { total: number; next: string | null },
  chunks: AsyncIterator<string[]>,
): Response {
  linkNext(c, page.next);
  c.header('x-total-count', String(page.total));
  c.header('content-type', NDJSON);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await chunks.next();
      if (done) {
        controller.close();
        return;
      }
      if (value.length > 0) controller.enqueue(encoder.encode(value.map((l) => `${l}\n`).join('')));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return c.body(body, 200);
}

/** One page of an export as JSON Lines, with its total size and the link to the next page. */
export async function exportAnswer<R>(
  c: Context,
  page: { limit: number; cursor?: string | undefined },
  source: ExportSource<R>,
): Promise<Response> {
  const { sent, after } = position(page.cursor);
  const { total, last, more } = await source.window(after, page.limit);
  async function* chunks() {
    let cursor = after;
    let left = page.limit;
    while (left > 0) {
      const want = Math.min(CHUNK, left);
      const rows = await source.rows(cursor, last ?? undefined, want);
      left -= rows.length;
      yield await source.lines(rows);
      const end = rows.at(-1);
      if (rows.length < want || !end) return;
      cursor = source.idOf(end);
    }
  }
  return ndjsonPage(
    c,
    {
      total: total * (source.linesPerRow ?? 1),
      next: more && last !== null ? `${sent + page.limit}_${last}` : null,
    },
    chunks(),
  );
}
