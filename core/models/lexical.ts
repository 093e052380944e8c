/**
 * The `lexical` embedding: a weight-free, deterministic text embedding that is the offline default (tests,
 * local runs, retrieval baselines). Features are word unigrams, word bigrams, and character 3–5-grams of each
 * word (with `<` `>` marking its edges, as in fastText, so `departed` and `departures` share `<depart`).
 * Each feature's weight is sublinear term frequency, 1 + ln(tf), times its inverse document frequency when an
 * IDF table was fitted on a corpus; without one, a short English stop-word list stands in for IDF (stop words
 * count a quarter and give no character n-grams). Every feature group is L2-normalised on its own, weighted
 * (words 1, bigrams 0.5, characters 0.8), and feature-hashed into `dimensions` buckets with a sign hash (so
 * collisions cancel on average instead of piling up); the sum is L2-normalised. Empty text (no letters or
 * digits) embeds as the zero vector.
 */
import type { EmbeddingModel } from './types.ts';

export const LEXICAL_MODEL = 'tooldrift-lexical-v1';
export const LEXICAL_DEFAULT_DIMENSIONS = 1024;

const GROUP_WEIGHTS = { word: 1, bigram: 0.5, char: 0.8 } as const;
type Group = keyof typeof GROUP_WEIGHTS;
const STOP_WORD_WEIGHT = 0.25;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by did do does for from had has have how i if in into is it its of on or ' +
    'so than that the their them then there these they this to was were what when where which who whom why ' +
    'will with you your me my we our us he she his her him not no can could would should many much'
  ).split(' '),
);

/** Lower-cased runs of letters and digits, after Unicode compatibility normalisation. */
export function lexicalTokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Features of `text`, by group, with raw counts. */
function featureCounts(text: string): Record<Group, Map<string, number>> {
  const groups: Record<Group, Map<string, number>> = { word: new Map(), bigram: new Map(), char: new Map() };
  const bump = (group: Group, feature: string) =>
    groups[group].set(feature, (groups[group].get(feature) ?? 0) + 1);
  const tokens = lexicalTokens(text);
  for (const [i, token] of tokens.entries()) {
    bump('word', token);
    const next = tokens[i + 1];
    if (next !== undefined && !(STOP_WORDS.has(token) && STOP_WORDS.has(next)))
      bump('bigram', `${token} ${next}`);
    if (STOP_WORDS.has(token)) continue;
    const padded = [...`<${token}>`];
    for (let n = 3; n <= 5; n++) {
      for (let at = 0; at + n <= padded.length; at++) bump('char', padded.slice(at, at + n).join(''));
    }
  }
  return groups;
}

/** Inverse document frequencies fitted on a corpus (smoothed: ln((1 + N) / (1 + df)) + 1). */
export class LexicalIdf {
  readonly documents: number;
  readonly #df: Map<string, number>;

  private constructor(documents: number, df: Map<string, number>) {
    this.documents = documents;
    this.#df = df;
  }

  static fit(corpus: Iterable<string>): LexicalIdf {
    const df = new Map<string, number>();
    let documents = 0;
    for (const text of corpus) {
      documents++;
      const groups = featureCounts(text);
      for (const group of Object.keys(groups) as Group[]) {
        for (const feature of groups[group].keys()) {
          const key = `${group}:${feature}`;
          df.set(key, (df.get(key) ?? 0) + 1);
        }
      }
    }
    return new LexicalIdf(documents, df);
  }

  weight(group: Group, feature: string): number {
    const df = this.#df.get(`${group}:${feature}`) ?? 0;
    return Math.log((1 + this.documents) / (1 + df)) + 1;
  }
}

/** FNV-1a over UTF-16 code units, finished with MurmurHash3's fmix32 so every output bit depends on every input bit. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export interface LexicalOptions {
  dimensions?: number;
  idf?: LexicalIdf | undefined;
}

export function lexicalEmbedding(text: string, options: LexicalOptions = {}): number[] {
  const dimensions = options.dimensions ?? LEXICAL_DEFAULT_DIMENSIONS;
  const vector = new Float64Array(dimensions);
  const groups = featureCounts(text);
  for (const group of Object.keys(groups) as Group[]) {
    const weights: Array<[string, number]> = [];
    let norm = 0;
    for (const [feature, tf] of groups[group]) {
      let w = 1 + Math.log(tf);
      if (options.idf) w *= options.idf.weight(group, feature);
      else if (group === 'word' && STOP_WORDS.has(feature)) w *= STOP_WORD_WEIGHT;
      weights.push([feature, w]);
      norm += w * w;
    }
    if (norm === 0) continue;
    const scale = GROUP_WEIGHTS[group] / Math.sqrt(norm);
    for (const [feature, w] of weights) {
      const key = `${group}\u0001${feature}`;
      const index = hash32(key, 0) % dimensions;
      const sign = hash32(key, 0x9e3779b9) & 1 ? 1 : -1;
      vector[index]! += sign * w * scale;
    }
  }
  let norm = 0;
  for (const x of vector) norm += x * x;
  const out = new Array<number>(dimensions);
  const inv = norm === 0 ? 0 : 1 / Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) out[i] = vector[i]! * inv;
  return out;
}

export class LexicalEmbeddingModel implements EmbeddingModel {
  readonly provider = 'lexical';
  readonly model = LEXICAL_MODEL;
  readonly dimensions: number;
  readonly #idf: LexicalIdf | undefined;

  constructor(options: LexicalOptions = {}) {
    const dimensions = options.dimensions ?? LEXICAL_DEFAULT_DIMENSIONS;
    if (!Number.isInteger(dimensions) || dimensions < 16) {
      throw new RangeError(`lexical: dimensions must be an integer ≥ 16, got ${dimensions}`);
    }
    this.dimensions = dimensions;
    this.#idf = options.idf;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => lexicalEmbedding(text, { dimensions: this.dimensions, idf: this.#idf }));
  }
}
