/**
 * Sentence BLEU as DRAFT's Δ uses it (NLTK sentence_bleu, uniform 4-gram weights, smoothing method 4, lower-cased
 * whitespace tokens), checked against values computed by hand from the definitions.
 */
import { describe, expect, it } from 'vitest';
import { bleuTokens, modifiedPrecision, sentenceBleu, smoothMethod4 } from '../../../core/draft/bleu.ts';

describe('sentence BLEU with smoothing method 4', () => {
  it('is 1 for identical texts and ignores case and extra whitespace', () => {
    expect(sentenceBleu('The cat sat on the mat', 'the  cat sat on THE mat')).toBeCloseTo(1, 12);
    expect(bleuTokens(' A  b\tC\n')).toEqual(['a', 'b', 'c']);
  });

  it('matches a hand computation without smoothing (every order has a match)', () => {
    // unigrams 5/6, bigrams 3/5, trigrams 2/4, 4-grams 1/3; equal lengths, BP = 1.
    const hand = ((5 / 6) * (3 / 5) * (2 / 4) * (1 / 3)) ** 0.25;
    expect(sentenceBleu('the cat sat on the mat', 'the cat sat on a mat')).toBeCloseTo(hand, 12);
    expect(hand).toBeCloseTo(0.537285, 6);
  });

  it('smooths a zero 4-gram precision as NLTK method 4: 1 / (2^1 · 5 / ln 6) / 3', () => {
    // hypothesis "the cat is on the mat": unigrams 5/6, bigrams 3/5, trigrams 1/4, 4-grams 0/3.
    const p4 = 1 / ((2 * 5) / Math.log(6)) / 3;
    const hand = ((5 / 6) * (3 / 5) * (1 / 4) * p4) ** 0.25;
    expect(sentenceBleu('the cat sat on the mat', 'the cat is on the mat')).toBeCloseTo(hand, 12);
    expect(hand).toBeCloseTo(0.29395, 4);
  });

  it('counts the smoothed orders: the second zero precision gets 2^2', () => {
    const p = smoothMethod4(
      [
        { numerator: 3, denominator: 4 },
        { numerator: 0, denominator: 3 },
        { numerator: 0, denominator: 2 },
        { numerator: 0, denominator: 1 },
      ],
      4,
    );
    const ln4 = Math.log(4);
    expect(p).toEqual([0.75, ln4 / 10 / 3, ln4 / 20 / 2, ln4 / 40 / 1]);
  });

  it('applies the brevity penalty exp(1 − r/c) to a shorter hypothesis', () => {
    // reference 6 tokens, hypothesis "the cat sat on" 4 tokens: all n-grams match (1, 1, 1, 1).
    expect(sentenceBleu('the cat sat on the mat', 'the cat sat on')).toBeCloseTo(Math.exp(1 - 6 / 4), 12);
  });

  it('is 0 without any unigram match, and for an empty hypothesis', () => {
    expect(sentenceBleu('the cat sat', 'dogs run fast')).toBe(0);
    expect(sentenceBleu('the cat sat', '')).toBe(0);
  });

  it('clips n-gram counts by the reference (modified precision)', () => {
    expect(modifiedPrecision(['the', 'cat'], ['the', 'the', 'the'], 1)).toEqual({
      numerator: 1,
      denominator: 3,
    });
    expect(modifiedPrecision(['a'], ['a'], 2)).toEqual({ numerator: 0, denominator: 1 });
  });
});
