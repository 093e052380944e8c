/**
 * JSON Lines responses shared by the export routes (trajectories, DPO pairs, STE exemplars): produced page by
 * page (keyset paging), so that no export of any size sits in memory at once. Progress streams are Server-Sent
 * Events (sse.ts).
 */
import { z } from '@hono/zod-openapi';

/** A stream that asks `page(cursor)` for lines until it returns no cursor. */
export function linesStream<C>(first: C, page: (cursor: C) => Promise<{ lines: string[]; next: C | null }>) {
  const encoder = new TextEncoder();
  let cursor: C | null = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (cursor === null) {
        controller.close();
        return;
      }
      const { lines, next } = await page(cursor);
      cursor = next;
      if (lines.length > 0) controller.enqueue(encoder.encode(lines.map((l) => `${l}\n`).join('')));
      if (cursor === null) controller.close();
    },
  });
}

export const NDJSON = 'application/x-ndjson';

/** An export route's success response, as the `ok` of `routeTable`/`jsonRoute` (openapi.ts). */
export const ndjsonOk = (description: string) =>
  [200, description, z.string().openapi({ description: 'One JSON object per line.' }), NDJSON] as const;

export function ndjson(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON } });
}
