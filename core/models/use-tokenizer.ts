/**
 * The SentencePiece (unigram) tokenizer of the Universal Sentence Encoder lite: text → vocabulary ids, the model's
 * sparse input. A TypeScript port of the tokenizer in `@tensorflow-models/universal-sentence-encoder` (as shipped,
 * unchanged, in `@energetic-ai/embeddings` 0.2.0), Copyright 2019 Google LLC, Apache License 2.0
 * (http://www.apache.org/licenses/LICENSE-2.0). It must stay token-for-token identical to that tokenizer: the Node
 * encoder (cli/retrieval/use-encoder.ts) uses the original and the workerd encoder (edge/use-encoder.ts) this port,
 * and both must give the same vector for the same text (test/edge/use-encoder.test.ts).
 *
 * Pure: no Node built-ins, no tfjs — usable in core, Node and workerd alike.
 */

/** The model's name and vector size, shared by the Node and workerd encoders (and so by their cache keys). */
export const USE_MODEL = 'universal-sentence-encoder-lite';
export const USE_DIMENSIONS = 512;

/** `[piece, log-probability score]`, as in the package's `vocab.json` (8,000 entries). */
export type UseVocabulary = ReadonlyArray<readonly [string, number]>;

/** SentencePiece's word-boundary marker (U+2581). */
const SEPARATOR = '\u2581';
/** `<unk>`, `<s>`, `</s>` and three extra ids: never produced by matching. */
const RESERVED_SYMBOLS = 6;

interface Piece {
  /** Length in code points. */
  length: number;
  score: number;
  index: number;
}

class TrieNode {
  readonly children = new Map<string, TrieNode>();
  piece: Piece | null = null;
}

/** Normalises as the original does: NFKC, a leading separator, every space a separator. */
function processInput(text: string): string[] {
  const normalized = text.normalize('NFKC');
  const marked = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
  return Array.from(marked); // code points, like the original's stringToChars
}

/**
 * Whether a text gives USE lite no token at all (empty once NFKC-normalised: the tokenizer marks nothing in it).
 * The model has no vector for such a text; both encoders (edge/use-encoder.ts, cli/retrieval/use-encoder.ts) give it
 * the zero vector and embed the others without it.
 */
export function withoutTokens(text: string): boolean {
  return text.normalize('NFKC').length === 0;
}

export class UseTokenizer {
  readonly #vocabulary: UseVocabulary;
  readonly #root = new TrieNode();

  constructor(vocabulary: UseVocabulary) {
    if (vocabulary.length <= RESERVED_SYMBOLS)
      throw new RangeError(`USE vocabulary has ${vocabulary.length} entries; expected thousands`);
    this.#vocabulary = vocabulary;
    for (let index = RESERVED_SYMBOLS; index < vocabulary.length; index++) {
      const [word, score] = vocabulary[index]!;
      const symbols = Array.from(word);
      let node = this.#root;
      for (const symbol of symbols) {
        let next = node.children.get(symbol);
        if (!next) {
          next = new TrieNode();
          node.children.set(symbol, next);
        }
        node = next;
      }
      if (symbols.length > 0) node.piece = { length: symbols.length, score, index };
    }
  }

  /** Every vocabulary piece that is a prefix of `symbols[from…]`; the lone first symbol as `<unk>` (id 0, score 0) when none is. */
  #prefixes(symbols: readonly string[], from: number): Piece[] {
    const out: Piece[] = [];
    let node = this.#root.children.get(symbols[from]!);
    for (let i = from; i < symbols.length && node; i++) {
      if (node.piece) out.push(node.piece);
      node = i + 1 < symbols.length ? node.children.get(symbols[i + 1]!) : undefined;
    }
    if (out.length === 0) out.push({ length: 1, score: 0, index: 0 });
    return out;
  }

  /** Vocabulary ids of `text`: the Viterbi segmentation by piece scores, consecutive unknowns merged into one. */
  encode(text: string): number[] {
    const symbols = processInput(text);
    const n = symbols.length;
    // ends[e] = the pieces ending at code point e, grouped by their start in increasing order of start (the
    // original keeps them in an object keyed by start position, which iterates integer keys in ascending order).
    const ends: Array<Map<number, Piece[]>> = Array.from({ length: n + 1 }, () => new Map());
    for (let start = 0; start < n; start++) {
      for (const piece of this.#prefixes(symbols, start)) {
        const end = start + piece.length;
        const list = ends[end]!.get(start);
        if (list) list.push(piece);
        else ends[end]!.set(start, [piece]);
      }
    }
    const best = new Array<number>(n + 1).fill(0);
    const words = new Array<number>(n + 1).fill(0);
    for (let end = 0; end <= n; end++) {
      const starts = [...ends[end]!.keys()].sort((a, b) => a - b);
      for (const start of starts) {
        for (const piece of ends[end]!.get(start)!) {
          const score = piece.score + best[end - piece.length]!;
          // The original's tie and "unset" rule (0 doubles as unset): kept as is for identical ids.
          if (best[end] === 0 || score >= best[end]!) {
            best[end] = score;
            words[end] = piece.index;
          }
        }
      }
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; ) {
      const id = words[at]!;
      reversed.push(id);
      // As the original: the piece's UTF-16 length (equal to its code-point length for every piece of the
      // vocabulary; `<unk>` is U+FFFD, length 1).
      at -= this.#vocabulary[id]![0].length;
    }
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}
