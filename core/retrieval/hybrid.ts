/**
 * `hybrid`: reciprocal-rank fusion (Cormack et al. 2009) of a lexical and a dense ranker — each tool scores
 * Σ_rankers 1 / (c + rank), c = 60, over each ranker's top `depth` list.
 */
import { TopK } from './topk.ts';
import type { Hit, Ranker } from './types.ts';

export class HybridRanker implements Ranker {
  readonly id = 'hybrid';

  constructor(
    private readonly rankers: readonly Ranker[],
    private readonly options: { c?: number; depth?: number } = {},
  ) {
    if (rankers.length < 2) throw new RangeError('hybrid fuses at least two rankers');
  }

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    const c = this.options.c ?? 60;
    const depth = Math.max(k, this.options.depth ?? 100);
    const lists = await Promise.all(this.rankers.map((r) => r.rank(queries, depth)));
    return queries.map((_, q) => {
      const fused = new Map<number, number>();
      for (const list of lists) {
        for (const [rank, hit] of (list[q] ?? []).entries())
          fused.set(hit.index, (fused.get(hit.index) ?? 0) + 1 / (c + rank + 1));
      }
      const top = new TopK(k);
      for (const [index, score] of fused) top.push(index, score);
      return top.result();
    });
  }
}
