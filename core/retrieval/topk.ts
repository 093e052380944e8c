/**
 * Top-k selection with a bounded min-heap: O(n log k) over n scores instead of sorting all of them — the pools
 * here reach 100,000 tools and k is ≤ 100. Hand-written because it is a dozen lines and sits in every hot loop.
 * Ties break towards the lower index, so results are deterministic.
 */
import type { Hit } from './types.ts';

/** Whether a ranks below b (a worse score, or an equal score at a higher index). */
function worse(a: Hit, b: Hit): boolean {
  return a.score < b.score || (a.score === b.score && a.index > b.index);
}

export class TopK {
  readonly #heap: Hit[] = [];
  constructor(readonly k: number) {}

  /** The score a candidate must beat to enter (−∞ until k candidates are held). */
  get threshold(): number {
    return this.#heap.length < this.k ? Number.NEGATIVE_INFINITY : (this.#heap[0] as Hit).score;
  }

  push(index: number, score: number): void {
    if (this.k <= 0) return;
    const h = this.#heap;
    const hit = { index, score };
    if (h.length < this.k) {
      h.push(hit);
      let i = h.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(h[i] as Hit, h[p] as Hit)) break;
        [h[i], h[p]] = [h[p] as Hit, h[i] as Hit];
        i = p;
      }
      return;
    }
    if (!worse(h[0] as Hit, hit)) return;
    h[0] = hit;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && worse(h[l] as Hit, h[m] as Hit)) m = l;
      if (r < h.length && worse(h[r] as Hit, h[m] as Hit)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m] as Hit, h[i] as Hit];
      i = m;
    }
  }

  /** Best first. */
  result(): Hit[] {
    return this.#heap.slice().sort((a, b) => b.score - a.score || a.index - b.index);
  }
}

/** The k best entries of `scores` (all indices considered). */
export function topKOf(scores: ArrayLike<number>, k: number): Hit[] {
  const top = new TopK(k);
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (s > top.threshold || (s === top.threshold && Number.isFinite(s))) top.push(i, s);
  }
  return top.result();
}
