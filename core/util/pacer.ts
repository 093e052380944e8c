/**
 * Cooperative CPU slicing for long work on a shared event loop. A Worker isolate runs one piece of JavaScript at a
 * time: a background job (a training chunk, an evaluation chunk, a tree search, …) that computes for seconds holds
 * every request that reaches the isolate meanwhile — `/health` included. Long loops therefore call `pace()` between
 * small units of work (an optimiser example, a model call, a batch of embeddings); it returns at once while the
 * current slice lasts and otherwise first lets the event loop run (a zero-delay timer), so waiting requests are
 * served between slices of about `sliceMs` of CPU.
 *
 * Measuring a slice. workerd does not advance `Date.now()` while JavaScript runs (the clock moves on I/O and
 * timers: a Spectre mitigation), so a slice cannot be timed from inside it. The pacer counts units and ends a
 * slice after `budget` of them; across the yield the clock does move, and the time since the previous resume —
 * this slice's CPU plus whatever else ran meanwhile — gives the cost of a unit, from which the next budget is set
 * (at most doubling or halving per slice, so one slow unit does not swing it). Work done by others during the yield
 * makes units look dearer and slices shorter, never longer. Where the clock does move (Node; `wrangler dev`) a slice
 * ends as soon as `sliceMs` have passed, and the slice's own length tunes the budget.
 *
 * A pacer is cheap to call (a counter and a clock read) and belongs to one loop or one job; several pacers in one
 * isolate each keep their own slices short, so the isolate as a whole yields at least that often.
 *
 * In background work (a queue job, an alarm: core/util/foreground.ts) a yield also waits while the isolate is
 * answering a request, up to MAX_DEFER_MS, so a request's every await finds the CPU free rather than behind a slice.
 * That wait is not counted in a slice's cost.
 */
import { deferToRequests } from './foreground.ts';

export interface Pacer {
  /**
   * Call between units of work: resolves at once while the slice lasts, otherwise after the event loop has run.
   * `weight` (default 1) is how many units this call stands for.
   */
  pace(weight?: number): Promise<void>;
  /** Slices ended so far (yields to the event loop). */
  readonly yields: number;
}

export interface PacerOptions {
  /** Target CPU per slice in milliseconds (default 40: well below the ~100 ms a request may wait). */
  sliceMs?: number;
  /** Units in the first slice, before any has been measured (default 1). */
  initialBudget?: number;
  /** Most units in one slice (default 1,000,000). */
  maxBudget?: number;
  now?: () => number;
  /** Lets the event loop run (default: a zero-delay timer). */
  yieldNow?: () => Promise<void>;
  /** After the yield, in background work: waits for the requests in flight (default: deferToRequests). */
  defer?: () => Promise<unknown>;
}

export const DEFAULT_SLICE_MS = 10;

const timerYield = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createPacer(options: PacerOptions = {}): Pacer {
  const sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
  const maxBudget = options.maxBudget ?? 1_000_000;
  const now = options.now ?? Date.now;
  const yieldNow = options.yieldNow ?? timerYield;
  const defer = options.defer ?? (() => deferToRequests());
  let budget = Math.max(1, Math.min(maxBudget, options.initialBudget ?? 1));
  let units = 0;
  let resumedAt = now();
  let yields = 0;
  return {
    get yields() {
      return yields;
    },
    async pace(weight = 1) {
      units += weight;
      if (units < budget && now() - resumedAt < sliceMs) return;
      const sliceStart = resumedAt;
      // Where the clock moves, the slice's own length; where it stands still (a deployed Worker), 0.
      const busy = now() - sliceStart;
      const done = units;
      units = 0;
      await yieldNow();
      yields++;
      const yielded = now();
      await defer();
      resumedAt = now();
      // The slice's cost: its own length when it could be read, else the time across the yield (this slice plus
      // whatever ran meanwhile: an overestimate, which only shortens the next slice).
      const elapsed = busy > 0 ? busy : yielded - sliceStart;
      // The units a slice of `sliceMs` holds at the cost just measured, within [budget / 2, 2 × budget].
      const fit = elapsed > 0 ? Math.floor((done * sliceMs) / elapsed) : 2 * budget;
      budget = Math.max(1, Math.min(maxBudget, Math.max(Math.floor(budget / 2), Math.min(2 * budget, fit))));
    },
  };
}

/** Runs a generator of work units to its end, pacing between units; its return value is the result. */
export async function drainPaced<T>(steps: Generator<unknown, T>, pacer: Pacer): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pacer.pace();
  }
}

/** Runs a generator of work units to its end at once (no pacing): the synchronous form of `drainPaced`. */
export function drain<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}
