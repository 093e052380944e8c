/**
 * Progress as Server-Sent Events, the one polling loop of the API (an exploration's aggregate progress, one
 * tree's progress): `read` is polled every second; a `progress` event is sent whenever its data changes and a
 * `done` event once it reports done, then the stream ends. Built on Hono's `streamSSE`.
 */
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { AppEnv } from '../app-env.ts';

export interface ProgressState {
  data: unknown;
  done: boolean;
}

export const PROGRESS_POLL_MS = 1000;

export function progressEvents(
  c: Context<AppEnv>,
  read: () => Promise<ProgressState | null>,
  missing = 'the resource no longer exists',
): Response {
  return streamSSE(c, async (stream) => {
    let last = '';
    try {
      while (!stream.aborted) {
        const state = await read();
        if (!state) {
          await stream.writeSSE({ event: 'error', data: JSON.stringify({ detail: missing }) });
          return;
        }
        const data = JSON.stringify(state.data);
        if (data !== last) await stream.writeSSE({ event: 'progress', data });
        last = data;
        if (state.done) {
          await stream.writeSSE({ event: 'done', data });
          return;
        }
        await stream.sleep(PROGRESS_POLL_MS);
      }
    } catch (err) {
      // The client went away, or a read failed: the stream ends; the log says which.
      c.get('log')?.warn('event stream ended', { error: err instanceof Error ? err.message : String(err) });
    }
  });
}
