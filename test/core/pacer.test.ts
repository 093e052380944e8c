/**
 * core/util/pacer.ts with a scripted clock: how slices end (by the unit budget where the clock stands still, as in a
 * deployed Worker; by elapsed time where it moves), how the budget follows the measured unit cost, and that the
 * generator helpers give the same result paced or not.
 */
import { describe, expect, it } from 'vitest';
import { batchLoss, batchLossSteps, initRetriever } from '../../core/retrieval/cotools/retriever.ts';
import { createPacer, drain, drainPaced } from '../../core/util/pacer.ts';

/** A clock that only moves when told, and a yield that lets `onYield` move it (others' work, or our own CPU). */
function scripted() {
  let t = 1_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('createPacer', () => {
  it('with a clock that stands still during work, ends a slice after its unit budget and tunes it to the cost', async () => {
    const clock = scripted();
    const yields: number[] = [];
    let unitsSinceYield = 0;
    const pacer = createPacer({
      sliceMs: 40,
      now: clock.now,
      yieldNow: async () => {
        // The clock moves only across the yield: 2 ms of CPU per unit done since the last one.
        clock.advance(unitsSinceYield * 2);
        yields.push(unitsSinceYield);
        unitsSinceYield = 0;
      },
    });
    for (let i = 0; i < 400; i++) {
      unitsSinceYield++;
      await pacer.pace();
    }
    // Slices grow 1, 2, 4, 8, 16 and settle at 40 ms / 2 ms = 20 units.
    expect(yields.slice(0, 5)).toEqual([1, 2, 4, 8, 16]);
    expect(yields.slice(6, 12)).toEqual([20, 20, 20, 20, 20, 20]);
    expect(pacer.yields).toBe(yields.length);
  });

  it('shortens slices when units get dearer, by at most half each time', async () => {
    const clock = scripted();
    let cost = 1;
    let pending = 0;
    const sizes: number[] = [];
    const pacer = createPacer({
      sliceMs: 40,
      initialBudget: 40,
      now: clock.now,
      yieldNow: async () => {
        clock.advance(pending * cost);
        sizes.push(pending);
        pending = 0;
      },
    });
    for (let i = 0; i < 200; i++) {
      if (i === 80) cost = 20;
      pending++;
      await pacer.pace();
    }
    expect(sizes[0]).toBe(40);
    // After the change: 40 → 20 → 10 → 5 → 2 (40 ms / 20 ms per unit), never dropping faster than half.
    const after = sizes.slice(sizes.indexOf(40, 2) + 1);
    expect(after.slice(0, 4)).toEqual([20, 10, 5, 2]);
  });

  it('with a moving clock, ends a slice once sliceMs have passed whatever the budget', async () => {
    const clock = scripted();
    let yielded = 0;
    const pacer = createPacer({
      sliceMs: 40,
      initialBudget: 1_000,
      now: clock.now,
      yieldNow: async () => {
        yielded++;
      },
    });
    for (let i = 0; i < 9; i++) {
      clock.advance(5);
      await pacer.pace();
    }
    expect(yielded).toBe(1); // at 40 ms, after the 8th unit
  });

  it('lets timers run between slices on the Node event loop', async () => {
    let ticks = 0;
    let running = true;
    const ticker = (async () => {
      while (running) {
        await new Promise((r) => setTimeout(r, 0));
        ticks++;
      }
    })();
    const pacer = createPacer({ sliceMs: 5 });
    const until = Date.now() + 60;
    while (Date.now() < until) await pacer.pace();
    running = false;
    await ticker;
    expect(pacer.yields).toBeGreaterThan(3);
    expect(ticks).toBeGreaterThanOrEqual(pacer.yields - 1);
  });
});

describe('paced generators', () => {
  it('give the same result as their synchronous form, pausing after every encoder pass', async () => {
    const w = initRetriever(16, 8, 'pace');
    const h = (k: number) => Float64Array.from({ length: 16 }, (_, i) => Math.sin(i + k));
    const queries = [
      { h: h(1), gold: [0] },
      { h: h(2), gold: [1] },
    ];
    const candidates = [h(3), h(4)];
    let paces = 0;
    const paced = await drainPaced(batchLossSteps(w, queries, candidates, undefined, 20), {
      yields: 0,
      pace: async () => {
        paces++;
      },
    });
    expect(paced).toBe(batchLoss(w, queries, candidates, undefined, 20));
    expect(paced).toBe(drain(batchLossSteps(w, queries, candidates, undefined, 20)));
    expect(paces).toBe(4); // two queries and two candidates forward, no gradient asked
  });
});
