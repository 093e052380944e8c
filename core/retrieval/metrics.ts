/**
 * Retrieval metrics with binary relevance (issue 14 §6): top-1 (the first result is gold), top-5 (any gold in
 * the first five), and NDCG@k = DCG@k / IDCG@k with DCG = Σ_i rel_i / log2(i + 1) over ranks i = 1..k and
 * IDCG the DCG of min(k, |gold|) gold tools ranked first. Reported as percentages.
 */

export interface RetrievalScores {
  n: number;
  top1: number;
  top5: number;
  ndcg1: number;
  ndcg5: number;
  ndcg10: number;
}

export function ndcgAt(ranked: readonly number[], gold: ReadonlySet<number>, k: number): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++)
    if (gold.has(ranked[i] as number)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, gold.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Scores ranked lists (pool positions, best first) against gold sets; percentages rounded to 0.01. */
export function scoreRankings(
  rankings: readonly (readonly number[])[],
  golds: readonly ReadonlySet<number>[],
): RetrievalScores {
  if (rankings.length !== golds.length) throw new RangeError('one ranking per query is needed');
  const n = rankings.length;
  let top1 = 0;
  let top5 = 0;
  let ndcg1 = 0;
  let ndcg5 = 0;
  let ndcg10 = 0;
  for (let q = 0; q < n; q++) {
    const ranked = rankings[q] as readonly number[];
    const gold = golds[q] as ReadonlySet<number>;
    if (ranked.length > 0 && gold.has(ranked[0] as number)) top1++;
    if (ranked.slice(0, 5).some((i) => gold.has(i))) top5++;
    ndcg1 += ndcgAt(ranked, gold, 1);
    ndcg5 += ndcgAt(ranked, gold, 5);
    ndcg10 += ndcgAt(ranked, gold, 10);
  }
  const pct = (x: number) => (n === 0 ? 0 : Math.round((x / n) * 10_000) / 100);
  return { n, top1: pct(top1), top5: pct(top5), ndcg1: pct(ndcg1), ndcg5: pct(ndcg5), ndcg10: pct(ndcg10) };
}
