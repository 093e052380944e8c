/**
 * core/util/foreground.ts and the pacer's deferral (issue 24, "background work yields to requests"): background
 * work waits for the requests in flight after each slice — at most MAX_DEFER_MS — and code outside background work
 * (a request pacing its own loop) never waits for itself.
 */
import { describe, expect, it } from 'vitest';
import {
  asBackground,
  deferToRequests,
  enterForeground,
  FOREGROUND_MS,
  inBackground,
  MAX_DEFER_MS,
  requestsInFlight,
} from '../../core/util/foreground.ts';
import { createPacer } from '../../core/util/pacer.ts';

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

describe('foreground and background', () => {
  it('counts requests in flight, once per request however often it leaves', () => {
    const before = requestsInFlight();
    const a = enterForeground();
    const b = enterForeground();
    expect(requestsInFlight()).toBe(before + 2);
    a();
    a();
    expect(requestsInFlight()).toBe(before + 1);
    b();
    expect(requestsInFlight()).toBe(before);
  });

  it('keeps the background scope across awaits and timers, and only inside asBackground', async () => {
    expect(inBackground()).toBe(false);
    const seen = await asBackground(async () => {
      const first = inBackground();
      await tick();
      const afterTimer = await new Promise<boolean>((r) => setTimeout(() => r(inBackground()), 1));
      return [first, afterTimer];
    });
    expect(seen).toEqual([true, true]);
    expect(inBackground()).toBe(false);
  });

  it('background work waits until the request in flight is answered', async () => {
    const order: string[] = [];
    const leave = enterForeground();
    const background = asBackground(async () => {
      await deferToRequests();
      order.push('background resumed');
    });
    await new Promise((r) => setTimeout(r, 20));
    order.push('request answered');
    leave();
    await background;
    expect(order).toEqual(['request answered', 'background resumed']);
  });

  it('waits at most maxMs under a request that does not end, and not at all outside background work', async () => {
    let t = 0;
    const leave = enterForeground();
    try {
      const waited = await asBackground(() =>
        deferToRequests(
          50,
          () => t,
          async (ms) => {
            t += ms;
          },
        ),
      );
      expect(waited).toBeGreaterThanOrEqual(50);
      expect(waited).toBeLessThan(50 + 3);
      expect(await deferToRequests(50)).toBe(0); // a request pacing itself: no wait
    } finally {
      leave();
    }
    expect(MAX_DEFER_MS).toBeLessThanOrEqual(250);
  });

  it('a request that has run longer than FOREGROUND_MS no longer holds background work', async () => {
    let t = 10_000;
    const leave = enterForeground(() => t); // started at t = 10,000
    const clock = () => t;
    const tick = async (ms: number) => {
      t += ms;
    };
    try {
      // Young: background waits (here the whole bound).
      expect(await asBackground(() => deferToRequests(50, clock, tick))).toBeGreaterThanOrEqual(50);
      // Old (a solve running its loop, a slow upstream): background goes on at once.
      t = 10_000 + FOREGROUND_MS;
      expect(await asBackground(() => deferToRequests(50, clock, tick))).toBe(0);
    } finally {
      leave();
    }
  });

  it("a pacer's wait for requests is not counted in its slice's cost", async () => {
    let t = 0;
    const yields: number[] = [];
    let units = 0;
    const pacer = createPacer({
      sliceMs: 10,
      now: () => t,
      yieldNow: async () => {
        t += units * 1; // 1 ms of CPU per unit, seen across the yield
        yields.push(units);
        units = 0;
      },
      defer: async () => {
        t += 500; // a long wait for requests
      },
    });
    for (let i = 0; i < 200; i++) {
      units++;
      await pacer.pace();
    }
    // Slices grow to 10 units (10 ms at 1 ms each) although every yield also waited 500 ms.
    expect(yields.slice(0, 4)).toEqual([1, 2, 4, 8]);
    expect(yields.slice(5, 9)).toEqual([10, 10, 10, 10]);
  });
});
