/**
 * Requests first (issue 24: "background work yields to requests"). A Worker isolate runs one piece of JavaScript at
 * a time, and a pacer's zero-delay yield (core/util/pacer.ts) lets a waiting request in for one turn of the event
 * loop only: a request that awaits three times (its key's digest, a Durable Object, D1) then waits behind three
 * background slices. So the isolate counts the requests it is answering (`enterForeground`, called by the Worker's
 * fetch entry, functions/index.ts), background work runs inside `asBackground` (the queue consumer, the objects'
 * alarms), and a pacer in background work, after its slice, keeps waiting while any request is being answered —
 * at most `MAX_DEFER_MS` at a time, so background work still moves under a steady stream of requests (a slice of
 * ~40 ms at least every ~200 ms).
 *
 * Whether code runs as background is an AsyncLocalStorage scope (`node:async_hooks`, in Node and in workerd with
 * `nodejs_compat`): it follows the work through its awaits, timers and model calls, and a pacer created anywhere —
 * a paced model, a tool call — defers when its caller is background work, and never inside a request (a
 * `POST /v1/solve` paces its own loop but must not wait for itself).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** The longest one wait for requests lasts before the background slice runs anyway. */
export const MAX_DEFER_MS = 200;

const background = new AsyncLocalStorage<true>();
let inFlight = 0;

/** Counts a request from now until the returned function is called (calling it again does nothing). */
export function enterForeground(): () => void {
  inFlight++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    inFlight--;
  };
}

/** Requests being answered in this isolate right now. */
export function requestsInFlight(): number {
  return inFlight;
}

/** Runs `work` as background work: the pacers it reaches defer to requests. */
export function asBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Whether the caller is background work (inside `asBackground`). */
export function inBackground(): boolean {
  return background.getStore() === true;
}

/**
 * After a background slice: resolves once no request is in flight, or after `maxMs`. Outside background work it
 * resolves at once. Polls with short timers of its own: a request ends in another context, and workerd fails an
 * await on another request's I/O (functions/http/rate-limit.ts tells the story).
 */
export async function deferToRequests(
  maxMs = MAX_DEFER_MS,
  now: () => number = Date.now,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<number> {
  if (!inBackground() || inFlight === 0) return 0;
  const started = now();
  while (inFlight > 0 && now() - started < maxMs) await sleep(2);
  return now() - started;
}
