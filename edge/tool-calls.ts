/**
 * Expensive tool calls at the edge (issue 24): PythonInterpreter and SQLInterpreter calls are the requests whose CPU
 * a caller controls. Each runs under three bounds:
 * - per call: the Python sandbox's evaluation-step budget is PYTHON_MAX_STEPS on the server (default 100,000: a
 *   few tens of milliseconds of CPU — a loop of some ten thousand iterations; the observation of a program that
 *   exceeds it is ToolQA's timeout text), and SQL keeps its guard's row budget and time limit (core/sandbox/sql);
 * - per key: at most TOOL_CALLS_PER_KEY of a key's calls run at once in an isolate, and its Python calls take at
 *   most PYTHON_STEPS_PER_SECOND evaluation steps a second on average (a token bucket of steps holding two calls'
 *   budgets, 2 × PYTHON_MAX_STEPS: two calls always run from rest, a call's steps are charged when it ends, and the
 *   key's next Python call waits until the bucket is out of debt; its SQL calls do not). Beyond either, a call is refused with `ToolCallRefused` (a
 *   429 with `Retry-After` over HTTP). A concurrency bound alone is not enough: a Python call cannot yield, so a key
 *   that sends heavy calls back to back would keep the isolate busy, and every request's next turn would wait
 *   behind one; the step rate caps the key's share of the isolate's CPU (200,000 steps ≈ a tenth of it). Steps, not
 *   time, because workerd's clock stands still during a synchronous call. Both are kept where the CPU is spent —
 *   the isolate — since calls on other isolates do not compete for it;
 * - pacing: every call first yields to the event loop when the isolate has been busy for a slice
 *   (core/util/pacer.ts), so a run of calls in a background job lets requests through between them.
 */

import { createPacer } from '../core/util/pacer.ts';
import { ToolCallRefused } from '../core/world/kernel/kernel.ts';
import type { KernelDepsOptions } from '../core/world/kernel-deps.ts';
import { type Bindings, readConfig } from './env.ts';

/** Seconds a refused caller is told to wait: a bounded call lasts a fraction of one. */
export const TOOL_CALL_RETRY_SECONDS = 1;

/** Expensive calls running in this isolate, per key. */
const running = new Map<string, number>();

/** Per key: Python steps still allowed at `at` (negative: owed), in this isolate. */
const stepBuckets = new Map<string, { balance: number; at: number }>();

/** The key's step allowance now: what it had, refilled at `rate` a second, at most `capacity`. */
function stepBalance(key: string, now: number, rate: number, capacity: number): number {
  const bucket = stepBuckets.get(key);
  if (!bucket) return capacity;
  return Math.min(capacity, bucket.balance + ((now - bucket.at) / 1000) * rate);
}

/** How many expensive calls of `key` run in this isolate now (for tests and diagnostics). */
export function toolCallsRunning(key: string): number {
  return running.get(key) ?? 0;
}

/**
 * The kernel-deps options of the edge's expensive calls: the server's Python bound, pacing, and — for a call made
 * on behalf of a key (`caller`) — the per-key concurrency bound.
 */
export function toolCallOptions(
  env: Bindings,
  caller?: string,
): Required<Pick<KernelDepsOptions, 'pythonLimits' | 'around'>> {
  const config = readConfig(env);
  const pacer = createPacer();
  return {
    pythonLimits: { maxSteps: config.pythonMaxSteps },
    around: async <T>(call: () => Promise<T>, steps?: (result: T) => number): Promise<T> => {
      if (caller === undefined) {
        await pacer.pace();
        return call();
      }
      // The slot is taken on arrival, before the call waits for its turn: a Python call runs synchronously once it
      // starts, so calls waiting for the event loop are the ones that would hold it next.
      const now = running.get(caller) ?? 0;
      if (now >= config.toolCallsPerKey)
        throw new ToolCallRefused(
          `This key has ${now} Python or SQL calls running; at most ${config.toolCallsPerKey} at once. Retry in ${TOOL_CALL_RETRY_SECONDS} s.`,
          TOOL_CALL_RETRY_SECONDS,
        );
      const rate = config.pythonStepsPerSecond;
      const capacity = 2 * config.pythonMaxSteps;
      const balance = stepBalance(caller, Date.now(), rate, capacity);
      if (steps && balance <= 0) {
        const wait = Math.max(1, Math.ceil(-balance / rate + 0.001));
        throw new ToolCallRefused(
          `This key's Python calls took ${Math.round(-balance)} evaluation steps more than its ${rate} a second allow; retry in ${wait} s.`,
          wait,
        );
      }
      running.set(caller, now + 1);
      try {
        await pacer.pace();
        const result = await call();
        if (steps) {
          const at = Date.now();
          stepBuckets.set(caller, { balance: stepBalance(caller, at, rate, capacity) - steps(result), at });
        }
        return result;
      } finally {
        const left = (running.get(caller) ?? 1) - 1;
        if (left > 0) running.set(caller, left);
        else running.delete(caller);
      }
    },
  };
}
