/**
 * A counting semaphore for outgoing model calls. A Worker invocation may hold at most six outgoing
 * connections at once (further fetches queue inside the runtime, where their time counts against our
 * per-call timeouts), so providers take a slot for each request and callers that share one invocation should
 * share one semaphore. Waiters are served first come, first served.
 */

/** Simultaneous outgoing connections a Worker invocation may have open. */
export const WORKER_CONNECTION_LIMIT = 6;

interface Waiter {
  grant: () => void;
}

export class Semaphore {
  readonly limit: number;
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(limit: number = WORKER_CONNECTION_LIMIT) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Semaphore limit must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  /** Slots in use. */
  get active(): number {
    return this.#active;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Resolves with a release function once a slot is free; calling release more than once is harmless. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#releaser());
        },
      };
      const onAbort = () => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Runs `task` inside a slot. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await task();
    } finally {
      release();
    }
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      // The slot passes straight to the next waiter, so `active` never dips and a newcomer cannot jump the queue.
      if (next) next.grant();
      else this.#active--;
    };
  }
}
