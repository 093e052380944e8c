/**
 * Requests first (issue 24: "background work yields to requests"). A Worker isolate runs one piece of JavaScript at
 * a time, and a pacer's zero-delay yield (core/util/pacer.ts) lets a waiting request in for one turn of the event
 * loop only: a request that awaits three times (its key's digest, a Durable Object, D1) then waits behind three
 * background slices. So the isolate counts the requests it is answering (`enterForeground`, called by the Worker's
 * fetch entry, functions/index.ts), background work runs inside `asBackground` (the queue consumer, the objects'
 * alarms), and a pacer in background work, after its slice, keeps waiting while any request is being answered —
 * at most `MAX_DEFER_MS` at a time, so background work still moves under a steady stream of requests (a slice of
 * ~10 ms at least every ~200 ms). Only requests younger than `FOREGROUND_MS` count: one that takes longer (a
 * `/v1/solve` running a whole agent loop, a step behind an injected delay or a slow upstream) is long work itself
 * and shares the CPU as an equal, instead of slowing every job twentyfold while it lasts.
 *
 * Whether code runs as background is an AsyncLocalStorage scope (`node:async_hooks`, in Node and in workerd with
 * `nodejs_compat`): it follows the work through its awaits, timers and model calls, and a pacer created anywhere —
 * a paced model, a tool call — defers when its caller is background work, and never inside a request (a
 * `POST /v1/solve` paces its own loop but must not wait for itself).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sleep } from './single-flight.ts';

/** The longest one wait for requests lasts before the background slice runs anyway. */
export const MAX_DEFER_MS = 200;

/** How long a request counts as foreground (background work waits for it). */
export const FOREGROUND_MS = 1_000;

const background = new AsyncLocalStorage<true>();
/** The requests being answered, by when each started. */
const inFlight = new Set<{ at: number }>();

/** Counts a request from now until the returned function is called (calling it again does nothing). */
export function enterForeground(now: () => number = Date.now): () => void {
  const request = { at: now() };
  inFlight.add(request);
  return () => {
    inFlight.delete(request);
  };
}

/** Requests being answered in this isolate right now. */
export function requestsInFlight(): number {
  return inFlight.size;
}

/** Whether a request that started less than FOREGROUND_MS ago is being answered. */
function foregroundBusy(now: number): boolean {
  for (const request of inFlight) if (now - request.at < FOREGROUND_MS) return true;
  return false;
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
  wait: (ms: number) => Promise<void> = sleep,
): Promise<number> {
  if (!inBackground() || !foregroundBusy(now())) return 0;
  const started = now();
  while (foregroundBusy(now()) && now() - started < maxMs) await wait(2);
  return now() - started;
}
