/**
 * One caller at a time does a piece of shared work per key (a rate-limit lease, a model load), and the others wait
 * for it on timers of their own, then read what it left in plain module state. They never await the working
 * caller's promise: in workerd that promise is I/O of another request, and awaiting it fails ("Cannot perform I/O
 * on behalf of a different request" — a 500 under sustained load, functions/http/rate-limit.ts). A flight older
 * than `waitMs` no longer holds the others back (its request may have gone away), so nobody waits for ever.
 */
export class SingleFlight {
  readonly #flights = new Map<string, { since: number }>();

  constructor(
    /** How long the others wait for a flight before flying themselves. */
    readonly waitMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether another caller's flight of `key` is in the air and young enough to wait for. */
  busy(key: string): boolean {
    const flight = this.#flights.get(key);
    return flight !== undefined && this.now() - flight.since < this.waitMs;
  }

  /** Runs `work` as the flight of `key` (the others see it `busy` until it ends). */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const mine = { since: this.now() };
    this.#flights.set(key, mine);
    try {
      return await work();
    } finally {
      if (this.#flights.get(key) === mine) this.#flights.delete(key);
    }
  }
}

/** A timer of the caller's own (what a caller waiting for a flight sleeps on). */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
