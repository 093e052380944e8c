/**
 * Sentence BLEU as DRAFT's termination rule uses it (spec draft.md "Termination (eq. 3–4)"): NLTK's
 * `sentence_bleu(references=[prev], hypothesis=new)` with the default uniform 4-gram weights (0.25 each), one
 * reference, and `SmoothingFunction().method4` (Chen & Cherry 2014, NLTK's `k = 5`), on lower-cased
 * whitespace tokens.
 *
 * Written here rather than taken from a package: no maintained JavaScript BLEU implementation offers NLTK's
 * method 4, and the computation is forty lines. Exactly as NLTK ≥ 3.6 (earlier releases had an operator-precedence
 * slip in method 4, `i+1 * k / ln(len)`, that is not reproduced):
 * - modified precision p_n = clipped n-gram matches / max(1, hypothesis n-grams), kept as a (numerator,
 *   denominator) pair without normalisation;
 * - no unigram match at all → 0;
 * - method 4: every p_n with numerator 0 (when the hypothesis has more than one token) becomes
 *   1 / (2^inc · k / ln(len(hyp))) / denominator, inc counting 1, 2, … over the smoothed orders;
 * - brevity penalty 1 when the hypothesis is longer than the reference, 0 when it is empty, else exp(1 − r/c);
 * - BLEU = BP · exp(Σ w_n ln p_n).
 * One case NLTK does not handle (it raises a math domain error): a one-token hypothesis whose higher-order
 * precisions are 0 and cannot be smoothed (ln 1 = 0); it scores 0 here.
 */

/** NLTK SmoothingFunction's default `k` used by method 4. */
export const METHOD4_K = 5;
export const BLEU_MAX_ORDER = 4;

/** Lower-cased whitespace tokens (the spec's tokenisation for Δ). */
export function bleuTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t !== '');
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    // U+0001 cannot occur inside a whitespace token list of real text, so joined keys are unambiguous.
    const key = tokens.slice(i, i + n).join('\u0001');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export interface Precision {
  numerator: number;
  denominator: number;
}

/** NLTK `modified_precision` for one reference. */
export function modifiedPrecision(
  reference: readonly string[],
  hypothesis: readonly string[],
  n: number,
): Precision {
  const hyp = ngramCounts(hypothesis, n);
  const ref = ngramCounts(reference, n);
  let numerator = 0;
  let total = 0;
  for (const [gram, count] of hyp) {
    numerator += Math.min(count, ref.get(gram) ?? 0);
    total += count;
  }
  return { numerator, denominator: Math.max(1, total) };
}

/** NLTK `SmoothingFunction().method4`: the smoothed precisions as numbers. */
export function smoothMethod4(precisions: readonly Precision[], hypLength: number, k = METHOD4_K): number[] {
  let inc = 1;
  return precisions.map((p) => {
    if (p.numerator === 0 && hypLength > 1) {
      const numerator = 1 / ((2 ** inc * k) / Math.log(hypLength));
      inc++;
      return numerator / p.denominator;
    }
    return p.numerator / p.denominator;
  });
}

/** Sentence BLEU of `hypothesis` against one `reference`, both already tokenised. */
export function sentenceBleuTokens(reference: readonly string[], hypothesis: readonly string[]): number {
  const precisions: Precision[] = [];
  for (let n = 1; n <= BLEU_MAX_ORDER; n++) precisions.push(modifiedPrecision(reference, hypothesis, n));
  if (precisions[0]!.numerator === 0) return 0;
  const c = hypothesis.length;
  const r = reference.length;
  const bp = c > r ? 1 : c === 0 ? 0 : Math.exp(1 - r / c);
  const smoothed = smoothMethod4(precisions, c);
  let sum = 0;
  for (const p of smoothed) {
    if (p <= 0) return 0;
    sum += Math.log(p) / BLEU_MAX_ORDER;
  }
  return bp * Math.exp(sum);
}

/** Sentence BLEU between two texts, on lower-cased whitespace tokens (reference = the previous text). */
export function sentenceBleu(reference: string, hypothesis: string): number {
  return sentenceBleuTokens(bleuTokens(reference), bleuTokens(hypothesis));
}
