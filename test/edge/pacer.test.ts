/**
 * Cooperative CPU slicing inside workerd (core/util/pacer.ts, issue 24 "Responsiveness"): other work on the isolate
 * (here a ticker standing in for waiting requests) runs *during* a paced computation and not at all during an
 * unpaced one, and the pacer yields far less often than it is called. No timing thresholds: the assertions count
 * interleavings. (Whether workerd's clock stands still during synchronous code depends on how it is run — it does
 * in a deployed Worker; the budget of units per slice covers that case, tested with a still clock in
 * test/core/pacer.test.ts.)
 */
import { describe, expect, it } from 'vitest';
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
});
