import { describe, expect, it } from 'vitest';
import { worldSizes } from '../../../core/world/catalog.ts';
import { generateWorld, hashWorld, loadWorld } from '../../../core/world/world.ts';

describe('generateWorld', () => {
  it('gives byte-identical corpora for the same seed and different ones for another seed', () => {
    const a = hashWorld(generateWorld({ seed: 'alpha', scale: 0.1 }));
    const b = hashWorld(generateWorld({ seed: 'alpha', scale: 0.1 }));
    const c = hashWorld(generateWorld({ seed: 'beta', scale: 0.1 }));
    expect(b).toEqual(a);
    for (const part of Object.keys(a)) expect(c[part], part).not.toBe(a[part]);
  });

  it('does not depend on the order in which corpora are first used', () => {
    const w1 = generateWorld({ seed: 'order', scale: 0.1 });
    const w2 = generateWorld({ seed: 'order', scale: 0.1 });
    void w2.dblp.papers.size; // w2 builds DBLP first, w1 last (inside hashWorld)
    void w2.tables.yelp.rowCount;
    expect(hashWorld(w2)).toEqual(hashWorld(w1));
  });

  it('meets the default sizes at scale 1 and scales linearly', () => {
    const sizes = worldSizes(generateWorld({ seed: 'sizes', scale: 1 }));
    expect(sizes.flights.rows).toBeGreaterThanOrEqual(50_000);
    expect(sizes.coffee.rows).toBeGreaterThanOrEqual(5_000);
    expect(sizes.airbnb.rows).toBeGreaterThanOrEqual(10_000);
    expect(sizes.yelp.rows).toBeGreaterThanOrEqual(10_000);
    expect(sizes.agenda.rows).toBeGreaterThanOrEqual(10_000);
    expect(sizes.agenda.passages).toBe(sizes.agenda.rows);
    expect(sizes.scirex.passages).toBeGreaterThanOrEqual(400);
    expect(sizes.dblp.papers).toBeGreaterThanOrEqual(20_000);
    const small = worldSizes(generateWorld({ seed: 'sizes', scale: 0.5 }));
    expect((small.flights.rows as number) / (sizes.flights.rows as number)).toBeCloseTo(0.5, 1);
  });

  it('rejects a nonsensical scale', () => {
    expect(() => generateWorld({ seed: 'x', scale: 0 })).toThrow(RangeError);
    expect(() => generateWorld({ seed: 'x', scale: Number.NaN })).toThrow(RangeError);
  });

  it('loadWorld returns the same world object for the same config', () => {
    const a = loadWorld({ seed: 'cached', scale: 0.05 });
    expect(loadWorld({ seed: 'cached', scale: 0.05 })).toBe(a);
    expect(loadWorld({ seed: 'cached', scale: 0.1 })).not.toBe(a);
  });
});
