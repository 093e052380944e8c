/**
 * `char`: TF-IDF over character n-grams taken inside word boundaries (each word padded with spaces, like
 * scikit-learn's `char_wb`), smoothed IDF ln((1 + N)/(1 + df)) + 1, L2-normalised rows, cosine score. Catches
 * shared stems (`invoice` / `invoices`) and split name parts that BM25's exact words miss.
 */
import { countTerms, SparseIndex } from './sparse.ts';
import { toolWords, wordTokens } from './text.ts';
import type { Hit, Ranker, Tool } from './types.ts';

export interface CharOptions {
  /** Shortest and longest n-gram (default 3–4). */
  minN?: number;
  maxN?: number;
}

export function charNgrams(words: readonly string[], minN: number, maxN: number): string[] {
  const grams: string[] = [];
  for (const word of words) {
    const padded = ` ${word} `;
    for (let n = minN; n <= maxN; n++) {
      for (let at = 0; at + n <= padded.length; at++) grams.push(padded.slice(at, at + n));
    }
  }
  return grams;
}

function l2(weights: Float32Array): void {
  let norm = 0;
  for (const w of weights) norm += w * w;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < weights.length; i++) weights[i] = (weights[i] as number) * inv;
}

export class CharRanker implements Ranker {
  readonly id = 'char';
  readonly #index: SparseIndex;
  readonly #scratch: Float32Array;
  readonly #minN: number;
  readonly #maxN: number;

  constructor(tools: readonly Tool[], options: CharOptions = {}) {
    this.#minN = options.minN ?? 3;
    this.#maxN = options.maxN ?? 4;
    this.#index = new SparseIndex(
      tools.map((tool) => {
        const grams = charNgrams(toolWords(tool), this.#minN, this.#maxN);
        return { counts: countTerms(grams), length: grams.length };
      }),
      (tf, df, _len, _avg, n) => tf * this.#idf(df, n),
      l2,
    );
    this.#scratch = new Float32Array(tools.length);
  }

  #idf(df: number, n: number): number {
    return Math.log((1 + n) / (1 + df)) + 1;
  }

  search(query: string, k: number): Hit[] {
    const counts = countTerms(charNgrams(wordTokens(query), this.#minN, this.#maxN));
    const weights = new Map<string, number>();
    let norm = 0;
    for (const [gram, tf] of counts) {
      const df = this.#index.df(gram);
      if (df === 0) continue;
      const w = tf * this.#idf(df, this.#index.documents);
      weights.set(gram, w);
      norm += w * w;
    }
    // Unknown grams still count towards the query's norm, as in a cosine over the full vocabulary.
    for (const [gram, tf] of counts) {
      if (this.#index.df(gram) === 0) {
        const w = tf * this.#idf(0, this.#index.documents);
        norm += w * w;
      }
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (const [gram, w] of weights) weights.set(gram, w * inv);
    return this.#index.search(weights, k, this.#scratch);
  }

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    return queries.map((q) => this.search(q, k));
  }
}
