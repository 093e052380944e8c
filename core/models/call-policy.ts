/**
 * How every provider request is made: wait for a connection slot, run the request under a deadline, and
 * retry retryable failures with backoff. The deadline starts once the slot is held (time spent queueing
 * behind our own other calls is not the server's fault), and the slot is released while backing off.
 */
import type { Rng } from '../util/random.ts';
import type { Semaphore } from './concurrency.ts';
import { ModelTimeoutError } from './errors.ts';
import { type RetryEvent, type RetryPolicy, type Sleep, withRetry } from './retry.ts';

/**
 * Runs `task` with a signal that aborts after `timeoutMs` (or when `parent` aborts). The deadline wins even
 * if the task ignores its signal, so a provider that cannot be cancelled still cannot hang the caller.
 */
export async function withTimeout<T>(
  task: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  provider: string,
  parent?: AbortSignal,
): Promise<T> {
  if (parent?.aborted) throw parent.reason;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onParentAbort: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ModelTimeoutError(provider, timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    if (parent) {
      onParentAbort = () => {
        controller.abort(parent.reason);
        reject(parent.reason);
      };
      parent.addEventListener('abort', onParentAbort, { once: true });
    }
  });
  // Whichever side loses the race must not surface later as an unhandled rejection.
  deadline.catch(() => {});
  try {
    const running = task(controller.signal);
    running.catch(() => {});
    return await Promise.race([running, deadline]);
  } finally {
    clearTimeout(timer);
    if (parent && onParentAbort) parent.removeEventListener('abort', onParentAbort);
  }
}

export interface CallPolicyOptions {
  provider: string;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Jitter source; seeded so a run's backoff waits are reproducible. */
  rng: Rng;
  semaphore: Semaphore;
  sleep?: Sleep;
  onRetry?: (event: RetryEvent) => void;
}

export class CallPolicy {
  readonly options: CallPolicyOptions;

  constructor(options: CallPolicyOptions) {
    if (!(options.timeoutMs > 0))
      throw new RangeError(`timeoutMs must be positive, got ${options.timeoutMs}`);
    this.options = options;
  }

  /** One logical request: slot → deadline → retries. `task` receives the signal to hand to the transport. */
  run<T>(task: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const { provider, timeoutMs, retry, rng, semaphore, sleep, onRetry } = this.options;
    return withRetry(() => semaphore.run(() => withTimeout(task, timeoutMs, provider, signal), signal), {
      policy: retry,
      rng,
      sleep,
      signal,
      onRetry,
    });
  }
}
