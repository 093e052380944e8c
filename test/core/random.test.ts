import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/util/random.ts';

describe('Rng', () => {
  it('is deterministic per seed and differs across seeds', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const c = new Rng(43);
    const xs = Array.from({ length: 5 }, () => a.nextUint32());
    expect(Array.from({ length: 5 }, () => b.nextUint32())).toEqual(xs);
    expect(Array.from({ length: 5 }, () => c.nextUint32())).not.toEqual(xs);
  });

  it('fork() derives a stream from the seed and label, not from the position', () => {
    const a = new Rng('s');
    a.next();
    a.next();
    expect(a.fork('x').next()).toBe(new Rng('s').fork('x').next());
    expect(a.fork('x').next()).not.toBe(a.fork('y').next());
  });

  it('int() stays in range and covers it', () => {
    const r = new Rng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const v = r.int(3, 7);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(7);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('weighted() follows the weights', () => {
    const r = new Rng(7);
    let heavy = 0;
    for (let i = 0; i < 10_000; i++) if (r.weighted(['a', 'b'], [9, 1]) === 'a') heavy++;
    expect(heavy / 10_000).toBeGreaterThan(0.87);
    expect(heavy / 10_000).toBeLessThan(0.93);
  });
});
