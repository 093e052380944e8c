/**
 * Score fusion of the trained retriever with the untrained character n-gram similarity — the `fusion: "char"`
 * option of the retriever (tooldrift's, issue 25 item 22; the `default` preset's, not the paper's). The paper
 * ranks by V_Q · V_T alone (eq. 10; the `paper` preset, `fusion: "none"`); here a tool scores
 *
 *   s(q, t) = V_Q · V_T + λ · char(q, t),   char = the `char` ranker's TF-IDF cosine (char.ts), in [0, 1],
 *
 * with λ chosen after training from `FUSION_WEIGHTS` (0 included: the paper's score) on the early-stopping dev
 * split held out of the training pairs (schedule.ts `earlyStoppingSplit`) — never on a test set. The criterion is
 * early stopping's: the mean of the seen-tool and the unseen-tool groups' MRR, so a weight that buys one group
 * with the other is not chosen; a tie keeps the smaller weight.
 *
 * Why (README "Chain-of-Tools retrieval"): what the retriever learns is about the tools it trains on — the tool
 * side and W_dim are fitted to their features, and the query side learns to send wordings to them — so for a tool
 * no training pair names it can at best keep the frozen similarity it started from; with the lexical encoder that
 * is a hashed 512-d vector, several points below the exact character n-gram similarity on held-out tools. The
 * fusion keeps what training learned and adds back the untrained similarity that carries over to unseen tools.
 *
 * Deliberate differences from ToolQA-D's Chain-of-Tools retriever (spec cotools.md, eq. 10 and Training), all
 * named options with the paper's behaviour as the `paper` preset (schedule.ts; core/retrieval/README.md):
 * - `fusion: "char"` (the `default` preset): V_Q · V_T + λ · char(q, t), λ ∈ {0, 0.25, 0.5, 1, 2} chosen on the
 *   early-stopping dev split; the paper ranks by V_Q · V_T alone (`fusion: "none"`).
 * - The `default` preset trains to convergence on the data given (a step budget scaled to it, warm-up and decay,
 *   early stopping on held-out tools and queries, lr 1e-3, D = 256, a softmax scale of 20); the paper's 10 epochs
 *   at lr 1e-4, batch 16 × 12, D = 4 × H, no temperature are the `paper` preset.
 */
import { drain } from '../../util/pacer.ts';
import type { CharRanker } from '../char.ts';
import { TopK } from '../topk.ts';
import type { Hit, Ranker } from '../types.ts';
import { encode, type RetrieverWeights } from './retriever.ts';
import type { DevQuery, DevScore } from './schedule.ts';

export const FUSION_OPTIONS = ['none', 'char'] as const;
export type FusionOption = (typeof FUSION_OPTIONS)[number];

/** The λ a `char` fusion chooses among (0: the paper's score alone). */
export const FUSION_WEIGHTS = [0, 0.25, 0.5, 1, 2] as const;

/** A dev query's scores over the dev candidates: the trained retriever's and the lexical similarity's. */
export interface FusionDevQuery {
  trained: ArrayLike<number>;
  lexical: ArrayLike<number>;
  /** Gold positions among the candidates. */
  gold: readonly number[];
  /** Whether its tools were held out of training. */
  unseen?: boolean;
}

/** 1 + the number of candidates scoring strictly above the best-scoring gold one. */
export function goldRank(scores: ArrayLike<number>, gold: readonly number[]): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const g of gold) best = Math.max(best, scores[g] as number);
  let rank = 1;
  for (let i = 0; i < scores.length; i++) if ((scores[i] as number) > best) rank++;
  return rank;
}

/**
 * MRR and top-1 share of ranked dev queries; with both seen- and unseen-tool queries, the mean of the two groups'
 * figures (early stopping's criterion, schedule.ts).
 */
export function groupedDevScore(ranked: readonly { rank: number; unseen?: boolean | undefined }[]): DevScore {
  const sums = { seen: { mrr: 0, top1: 0, n: 0 }, unseen: { mrr: 0, top1: 0, n: 0 } };
  for (const r of ranked) {
    const group = sums[r.unseen ? 'unseen' : 'seen'];
    group.mrr += 1 / r.rank;
    if (r.rank === 1) group.top1++;
    group.n++;
  }
  const groups = [sums.seen, sums.unseen].filter((g) => g.n > 0);
  const mean = (key: 'mrr' | 'top1') =>
    groups.length === 0 ? 0 : groups.reduce((a, g) => a + g[key] / g.n, 0) / groups.length;
  return { mrr: mean('mrr'), top1: mean('top1') };
}

/** The dev score of V_Q · V_T + `weight` · char. */
export function fusionDevScore(queries: readonly FusionDevQuery[], weight: number): DevScore {
  return groupedDevScore(
    queries.map((q) => {
      const fused = new Float64Array(q.trained.length);
      for (let i = 0; i < fused.length; i++)
        fused[i] = (q.trained[i] as number) + weight * (q.lexical[i] as number);
      return { rank: goldRank(fused, q.gold), unseen: q.unseen };
    }),
  );
}

export interface FusionChoice {
  /** The chosen λ. */
  weight: number;
  /** The dev score of every weight tried. */
  scores: ({ weight: number } & DevScore)[];
}

/** The λ of `weights` with the best dev MRR (a tie keeps the smaller one). */
export function chooseFusionWeight(
  queries: readonly FusionDevQuery[],
  weights: readonly number[] = FUSION_WEIGHTS,
): FusionChoice {
  const scores = [...weights]
    .sort((a, b) => a - b)
    .map((weight) => ({ weight, ...fusionDevScore(queries, weight) }));
  let best = scores[0] ?? { weight: 0, mrr: 0, top1: 0 };
  for (const s of scores) if (s.mrr > best.mrr) best = s;
  return { weight: best.weight, scores };
}

/** The `char` similarity of `query` to each of `candidates` (pool positions); 0 where they share no n-gram. */
export function charScores(
  char: CharRanker,
  pool: number,
  query: string,
  candidates: readonly number[],
): Float64Array {
  const all = new Float64Array(pool);
  for (const h of char.search(query, pool)) all[h.index] = h.score;
  return Float64Array.from(candidates, (t) => all[t] as number);
}

/**
 * The early-stopping dev split as `chooseFusionWeight` reads it: `dev` as `retrieverDevScore` reads it (training.ts
 * `devSet`), `texts` its queries' texts in the same order, `candidates` the pool positions of its candidates.
 */
export function fusionDevQueries(
  w: RetrieverWeights,
  dev: { queries: readonly DevQuery[]; candidates: readonly ArrayLike<number>[] },
  texts: readonly string[],
  candidates: readonly number[],
  char: CharRanker,
  pool: number,
): FusionDevQuery[] {
  return drain(fusionDevQueriesSteps(w, dev, texts, candidates, char, pool));
}

/** `fusionDevQueries` as a generator pausing after each candidate and each query (a caller on a shared loop). */
export function* fusionDevQueriesSteps(
  w: RetrieverWeights,
  dev: { queries: readonly DevQuery[]; candidates: readonly ArrayLike<number>[] },
  texts: readonly string[],
  candidates: readonly number[],
  char: CharRanker,
  pool: number,
): Generator<void, FusionDevQuery[]> {
  const tools: Float64Array[] = [];
  for (const h of dev.candidates) {
    tools.push(encode(w, 'tool', h));
    yield;
  }
  const out: FusionDevQuery[] = [];
  for (const [k, q] of dev.queries.entries()) {
    const v = encode(w, 'query', q.h);
    const trained = tools.map((t) => {
      let s = 0;
      for (let i = 0; i < v.length; i++) s += (v[i] as number) * (t[i] as number);
      return s;
    });
    out.push({
      trained,
      lexical: charScores(char, pool, texts[k] as string, candidates),
      gold: q.gold,
      unseen: q.unseen === true,
    });
    yield;
  }
  return out;
}

/**
 * The top `k` of a pool of `pool` tools by Σ weight × part score; a tool missing from a part's hits scores 0 there
 * (the char ranker answers every tool sharing an n-gram with the query; ask a vector ranker for the whole pool).
 */
export function fuseHits(
  parts: readonly { hits: readonly Hit[]; weight: number }[],
  pool: number,
  k: number,
): Hit[] {
  const fused = new Float64Array(pool);
  const touched = new Uint8Array(pool);
  for (const { hits, weight } of parts)
    for (const h of hits) {
      fused[h.index] = (fused[h.index] as number) + weight * h.score;
      touched[h.index] = 1;
    }
  const top = new TopK(k);
  for (let i = 0; i < pool; i++) if (touched[i]) top.push(i, fused[i] as number);
  return top.result();
}

/**
 * A ranker scoring every tool of a pool of `pool` tools by Σ weight × part score (a part's tools outside its
 * answer score 0: the char ranker answers every tool sharing an n-gram, a vector ranker the whole pool). Each part
 * is asked for the whole pool, so the fused top k is exact; for the pools this serves (≤ 100,000 tools) that is a
 * scan of the pool per query, as the exact vector search is anyway.
 */
export class ScoreFusionRanker implements Ranker {
  constructor(
    readonly id: string,
    private readonly parts: readonly { ranker: Ranker; weight: number }[],
    private readonly pool: number,
  ) {}

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    // One query at a time: each part answers up to the whole pool (100,000 hits per query on the largest pools).
    const parts = this.parts.filter((p) => p.weight !== 0);
    const out: Hit[][] = [];
    for (const query of queries) {
      const lists = await Promise.all(parts.map((p) => p.ranker.rank([query], this.pool)));
      out.push(
        fuseHits(
          parts.map((p, i) => ({ hits: lists[i]?.[0] ?? [], weight: p.weight })),
          this.pool,
          k,
        ),
      );
    }
    return out;
  }
}
