/**
 * `bm25`: Okapi BM25 over word tokens of a tool's split name and description (text.ts), with Lucene's
 * non-negative IDF, ln(1 + (N − df + 0.5)/(df + 0.5)), and k1 = 1.2, b = 0.75. No training — the baseline a
 * trained retriever has to beat (spec "Data and reported results").
 */
import { countTerms, SparseIndex } from './sparse.ts';
import { toolWords, wordTokens } from './text.ts';
import type { Hit, Ranker, Tool } from './types.ts';

export interface Bm25Options {
  k1?: number;
  b?: number;
}

export function bm25Idf(documents: number, df: number): number {
  return Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

export class Bm25Ranker implements Ranker {
  readonly id = 'bm25';
  readonly #index: SparseIndex;
  readonly #scratch: Float32Array;

  constructor(tools: readonly Tool[], options: Bm25Options = {}) {
    const k1 = options.k1 ?? 1.2;
    const b = options.b ?? 0.75;
    this.#index = new SparseIndex(
      tools.map((tool) => {
        const words = toolWords(tool);
        return { counts: countTerms(words), length: words.length };
      }),
      (tf, _df, length, avg) => (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / (avg || 1))),
    );
    this.#scratch = new Float32Array(tools.length);
  }

  /** Query terms weighted by IDF × their count in the query (a repeated query word counts again). */
  search(query: string, k: number): Hit[] {
    const weights = new Map<string, number>();
    for (const [term, count] of countTerms(wordTokens(query))) {
      const df = this.#index.df(term);
      if (df > 0) weights.set(term, count * bm25Idf(this.#index.documents, df));
    }
    return this.#index.search(weights, k, this.#scratch);
  }

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    return queries.map((q) => this.search(q, k));
  }
}
