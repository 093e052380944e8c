import { describe, expect, it } from 'vitest';
import { Semaphore, WORKER_CONNECTION_LIMIT } from '../../../core/models/concurrency.ts';
import { createTextModel } from '../../../core/models/factory.ts';
import type { AiBinding } from '../../../core/models/workers-ai.ts';

/** A promise with its resolver exposed. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('Semaphore', () => {
  it('defaults to the six connections a Worker invocation may hold', () => {
    expect(WORKER_CONNECTION_LIMIT).toBe(6);
    expect(new Semaphore().limit).toBe(6);
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });

  it('never runs more than its limit at once and serves waiters in arrival order', async () => {
    const semaphore = new Semaphore(3);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 10 }, gate);
    const tasks = gates.map((g, i) =>
      semaphore.run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await g.promise;
        running--;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(semaphore.active).toBe(3);
    expect(semaphore.waiting).toBe(7);
    // Finish out of order; later tasks still start in arrival order.
    gates[2]!.open();
    gates[0]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const g of gates) g.open();
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect(semaphore.active).toBe(0);
  });

  it('frees the slot when a task throws, and tolerates a double release', async () => {
    const semaphore = new Semaphore(1);
    await expect(
      semaphore.run(async () => {
        throw new Error('task failed');
      }),
    ).rejects.toThrow('task failed');
    const release = await semaphore.acquire();
    release();
    release();
    expect(semaphore.active).toBe(0);
    await expect(semaphore.run(async () => 'next')).resolves.toBe('next');
  });

  it('drops a waiter whose signal aborts', async () => {
    const semaphore = new Semaphore(1);
    const hold = await semaphore.acquire();
    const controller = new AbortController();
    const waiting = semaphore.acquire(controller.signal);
    expect(semaphore.waiting).toBe(1);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    expect(semaphore.waiting).toBe(0);
    hold();
    expect(semaphore.active).toBe(0);
  });
});

describe('concurrency cap on provider calls', () => {
  it('keeps k separate calls within the configured cap', async () => {
    let inFlight = 0;
    let peak = 0;
    const ai: AiBinding = {
      async run(_model, inputs) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return { response: `seed ${inputs.seed}` };
      },
    };
    const model = createTextModel({ provider: 'workers-ai', concurrency: 2 }, { ai });
    const response = await model.generate({ messages: [{ role: 'user', content: 'x' }], n: 7, seed: 0 });
    expect(response.candidates.map((c) => c.text)).toEqual([0, 1, 2, 3, 4, 5, 6].map((s) => `seed ${s}`));
    expect(peak).toBe(2);
  });

  it('shares one cap between models given the same semaphore', async () => {
    let inFlight = 0;
    let peak = 0;
    const ai: AiBinding = {
      async run() {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
        return { response: 'ok' };
      },
    };
    const semaphore = new Semaphore();
    const a = createTextModel({ provider: 'workers-ai' }, { ai, semaphore });
    const b = createTextModel(
      { provider: 'workers-ai', model: '@cf/meta/llama-3.2-3b-instruct' },
      { ai, semaphore },
    );
    const ask = { messages: [{ role: 'user' as const, content: 'x' }], n: 5 };
    await Promise.all([a.generate(ask), b.generate(ask)]);
    expect(peak).toBe(6);
  });
});
