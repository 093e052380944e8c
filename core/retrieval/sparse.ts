/**
 * A compressed inverted index (CSR: one offset per term, postings as typed arrays) shared by the lexical rankers.
 * Each posting carries a precomputed weight; a query's score for a document is Σ_term queryWeight × postingWeight,
 * accumulated only over the documents its terms touch. Built in two passes over flat typed arrays so 100,000
 * tools with ~150 features each stay well under 200 MB.
 */
import { TopK } from './topk.ts';
import type { Hit } from './types.ts';

export interface SparseDoc {
  /** Feature → raw count. */
  counts: Map<string, number>;
  /** Document length used by BM25 (number of tokens). */
  length: number;
}

export class SparseIndex {
  readonly documents: number;
  readonly avgLength: number;
  readonly #terms = new Map<string, number>();
  readonly #df: Int32Array;
  readonly #offsets: Int32Array;
  readonly #docs: Int32Array;
  readonly #weights: Float32Array;

  /** `weight(tf, df, docLength, avgLength, documents)` gives each posting's weight. */
  constructor(
    docs: Iterable<SparseDoc>,
    weight: (tf: number, df: number, length: number, avgLength: number, documents: number) => number,
    /** Optional per-document normaliser applied after weighting (e.g. L2 for cosine). */
    normalise?: (weights: Float32Array) => void,
  ) {
    let termIds = new Int32Array(1 << 16);
    let termTfs = new Float32Array(1 << 16);
    let used = 0;
    const docStart: number[] = [0];
    const lengths: number[] = [];
    const dfList: number[] = [];
    for (const doc of docs) {
      for (const [term, tf] of doc.counts) {
        let id = this.#terms.get(term);
        if (id === undefined) {
          id = dfList.length;
          this.#terms.set(term, id);
          dfList.push(0);
        }
        dfList[id] = (dfList[id] as number) + 1;
        if (used === termIds.length) {
          const ids = new Int32Array(used * 2);
          ids.set(termIds);
          termIds = ids;
          const tfs = new Float32Array(used * 2);
          tfs.set(termTfs);
          termTfs = tfs;
        }
        termIds[used] = id;
        termTfs[used] = tf;
        used++;
      }
      docStart.push(used);
      lengths.push(doc.length);
    }
    this.documents = lengths.length;
    this.avgLength = lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.documents);
    this.#df = Int32Array.from(dfList);
    this.#offsets = new Int32Array(dfList.length + 1);
    for (let t = 0; t < dfList.length; t++)
      this.#offsets[t + 1] = (this.#offsets[t] as number) + (dfList[t] as number);
    this.#docs = new Int32Array(used);
    this.#weights = new Float32Array(used);
    const fill = this.#offsets.slice(0, dfList.length);
    for (let d = 0; d < this.documents; d++) {
      const from = docStart[d] as number;
      const to = docStart[d + 1] as number;
      const w = new Float32Array(to - from);
      for (let p = from; p < to; p++) {
        const t = termIds[p] as number;
        w[p - from] = weight(
          termTfs[p] as number,
          this.#df[t] as number,
          lengths[d] as number,
          this.avgLength,
          this.documents,
        );
      }
      normalise?.(w);
      for (let p = from; p < to; p++) {
        const t = termIds[p] as number;
        const at = fill[t] as number;
        this.#docs[at] = d;
        this.#weights[at] = w[p - from] as number;
        fill[t] = at + 1;
      }
    }
  }

  /** Documents containing `term` (0 when unknown). */
  df(term: string): number {
    const id = this.#terms.get(term);
    return id === undefined ? 0 : (this.#df[id] as number);
  }

  /** Top-k documents for a weighted query (term → query weight); documents no term touches are not returned. */
  search(query: Map<string, number>, k: number, scratch: Float32Array): Hit[] {
    const touched: number[] = [];
    for (const [term, qw] of query) {
      const id = this.#terms.get(term);
      if (id === undefined || qw === 0) continue;
      const end = this.#offsets[id + 1] as number;
      for (let p = this.#offsets[id] as number; p < end; p++) {
        const d = this.#docs[p] as number;
        if (scratch[d] === 0) touched.push(d);
        scratch[d] = (scratch[d] as number) + qw * (this.#weights[p] as number);
      }
    }
    const top = new TopK(k);
    for (const d of touched) {
      const s = scratch[d] as number;
      scratch[d] = 0;
      if (s !== 0) top.push(d, s);
    }
    return top.result();
  }
}

export function countTerms(terms: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}
