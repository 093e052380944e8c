/**
 * Streaming responses shared by routes: progress as Server-Sent Events polled from D1 (one `progress` event
 * each second while the value changes, then `done`), and JSON Lines produced page by page (keyset paging), so
 * that neither a stream nor an export of any size sits in memory at once.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.ts';

/** Polls `read` each second; sends `progress` when its data changes and `done` (then ends) once it is done. */
export function progressEvents(
  c: Context<AppEnv>,
  read: () => Promise<{ data: unknown; done: boolean }>,
): Response {
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const run = async () => {
    let last = '';
    try {
      for (;;) {
        const { data: value, done } = await read();
        const data = JSON.stringify(value);
        if (data !== last) await writer.write(encoder.encode(`event: progress\ndata: ${data}\n\n`));
        last = data;
        if (done) {
          await writer.write(encoder.encode(`event: done\ndata: ${data}\n\n`));
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      await writer.close();
    } catch {
      // The client went away.
    }
  };
  c.executionCtx.waitUntil(run());
  return new Response(readable, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

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

export function ndjson(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON } });
}
