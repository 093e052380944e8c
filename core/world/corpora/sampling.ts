/**
 * Weighted choice over a fixed list, for the generators' hot loops: `Rng.weighted` re-sums the weights on every
 * call, which is noticeable when one list of a few hundred entries is sampled tens of thousands of times.
 */
import type { Rng } from '../../util/random.ts';

export class WeightedPicker<T> {
  private readonly items: readonly T[];
  private readonly cumulative: Float64Array;

  constructor(items: readonly T[], weights: readonly number[]) {
    if (items.length === 0 || items.length !== weights.length) {
      throw new RangeError('WeightedPicker: items and weights must be non-empty and of equal length');
    }
    this.items = items;
    this.cumulative = new Float64Array(weights.length);
    let total = 0;
    weights.forEach((w, i) => {
      total += w;
      this.cumulative[i] = total;
    });
  }

  /** Draws one item with probability proportional to its weight (one `rng.next()` per call). */
  pick(rng: Rng): T {
    const c = this.cumulative;
    const r = rng.next() * (c[c.length - 1] as number);
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r < (c[mid] as number)) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}
