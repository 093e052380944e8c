/**
 * Cooperative CPU slicing inside workerd (core/util/pacer.ts, issue 24 "Responsiveness"): other work on the isolate
 * (here a ticker standing in for waiting requests) runs *during* a paced computation and not at all during an
 * unpaced one, and the pacer yields far less often than it is called. No timing thresholds: the assertions count
 * interleavings. (Whether workerd's clock stands still during synchronous code depends on how it is run — it does
 * in a deployed Worker; the budget of units per slice covers that case, tested with a still clock in
 * test/core/pacer.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { asBackground, enterForeground, inBackground } from '../../core/util/foreground.ts';
import { createPacer } from '../../core/util/pacer.ts';

/** A fraction of a millisecond of CPU that the optimiser cannot drop. */
function burn(): number {
  let x = 0;
  for (let i = 0; i < 20_000; i++) x = (x + Math.sqrt(i)) % 1_000;
  return x;
}

/** Ticks counted by a zero-delay timer loop while `work` runs. */
async function ticksDuring(work: () => Promise<void>): Promise<number> {
  let ticks = 0;
  let running = true;
  const ticker = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, 0));
      if (running) ticks++;
    }
  })();
  await work();
  running = false;
  await ticker;
  return ticks;
}

describe('the pacer in workerd', () => {
  it('lets other work run during a paced computation, and none during an unpaced one', async () => {
    const UNITS = 3_000;
    const unpaced = await ticksDuring(async () => {
      await Promise.resolve();
      for (let i = 0; i < UNITS; i++) burn();
    });
    const pacer = createPacer({ sliceMs: 20 });
    const paced = await ticksDuring(async () => {
      for (let i = 0; i < UNITS; i++) {
        burn();
        await pacer.pace();
      }
    });
    expect(unpaced).toBe(0);
    expect(pacer.yields).toBeGreaterThan(2);
    expect(paced).toBeGreaterThanOrEqual(pacer.yields - 1);
    // The budget adapts to the measured unit cost: far fewer yields than units.
    expect(pacer.yields).toBeLessThan(UNITS / 10);
  });

  it('in background work, a paced computation waits while a request is in flight (AsyncLocalStorage in workerd)', async () => {
    const UNITS = 600;
    const leave = enterForeground();
    let backgroundUnits = 0;
    let scoped = false;
    const work = asBackground(async () => {
      const pacer = createPacer({ sliceMs: 5 });
      for (let i = 0; i < UNITS; i++) {
        burn();
        backgroundUnits++;
        await pacer.pace();
      }
      scoped = inBackground();
    });
    // The "request" takes 20 timer turns; meanwhile the background work gets at most one slice in.
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setTimeout(r, 0));
    const duringRequest = backgroundUnits;
    leave();
    await work;
    expect(scoped).toBe(true);
    expect(duringRequest).toBeLessThan(UNITS / 4);
    expect(backgroundUnits).toBe(UNITS);
  });
});
