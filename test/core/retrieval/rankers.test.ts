import { describe, expect, it } from 'vitest';
import { Bm25Ranker, bm25Idf } from '../../../core/retrieval/bm25.ts';
import { CharRanker, charNgrams } from '../../../core/retrieval/char.ts';
import { HybridRanker } from '../../../core/retrieval/hybrid.ts';
import { ndcgAt, scoreRankings } from '../../../core/retrieval/metrics.ts';
import { splitIdentifier, TOOL_TEXT, toolText, wordTokens } from '../../../core/retrieval/text.ts';
import { topKOf } from '../../../core/retrieval/topk.ts';
import type { Hit, Ranker } from '../../../core/retrieval/types.ts';

const TOOLS = [
  { name: 'getFlightStatus', description: 'status of a flight' },
  { name: 'list_hotel_rooms', description: 'rooms of a hotel hotel' },
  { name: 'weatherForecast', description: 'forecast for a city' },
];

describe('tool text and tokens', () => {
  it('splits camelCase, acronyms, digits and underscores in names', () => {
    expect(wordTokens('getFlightStatusByID_v2')).toEqual(['get', 'flight', 'status', 'by', 'id', 'v', '2']);
    expect(wordTokens('list_hotel_rooms')).toEqual(['list', 'hotel', 'rooms']);
    expect(splitIdentifier('parseHTTPResponse')).toBe('parse HTTP Response');
  });

  it('feeds the frozen encoder the sentence text by default and the spec’s tool text in the paper format', () => {
    const tool = { name: 'people/person/place_of_birth', description: 'the birthplace of a person' };
    expect(toolText(tool)).toBe('people person place of birth: the birthplace of a person');
    expect(TOOL_TEXT.sentence(tool)).toBe(toolText(tool));
    expect(TOOL_TEXT.paper(tool)).toBe(
      'tool name: people/person/place_of_birth, tool description: the birthplace of a person',
    );
    expect(toolText({ name: 'getFlightStatus', description: 'status of a flight' })).toBe(
      'get Flight Status: status of a flight',
    );
  });
});

describe('bm25', () => {
  it('matches Okapi BM25 computed by hand (k1 = 1.2, b = 0.75)', () => {
    const ranker = new Bm25Ranker(TOOLS);
    // Doc lengths (split name + description): 3 + 4 = 7, 3 + 5 = 8, 2 + 4 = 6 → average 7.
    const avg = 7;
    const term = (tf: number, len: number) => (tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
    const idf1 = bm25Idf(3, 1);
    expect(idf1).toBeCloseTo(Math.log(1 + 2.5 / 1.5), 12);
    const hits = ranker.search('hotel flight', 3);
    // "hotel" occurs 3 times in doc 1 (name once, description twice); "flight" twice in doc 0.
    expect(hits.map((h) => h.index)).toEqual([1, 0]);
    expect(hits[0]?.score).toBeCloseTo(idf1 * term(3, 8), 5);
    expect(hits[1]?.score).toBeCloseTo(idf1 * term(2, 7), 5);
    // "a" is in every document: a low but positive Lucene IDF, and never a negative score.
    expect(bm25Idf(3, 3)).toBeGreaterThan(0);
  });

  it('finds a tool by its name parts', async () => {
    const [hits] = await new Bm25Ranker(TOOLS).rank(['what is the forecast for weather'], 1);
    expect(hits?.[0]?.index).toBe(2);
  });
});

describe('char', () => {
  it('takes n-grams inside padded word boundaries', () => {
    expect(charNgrams(['cat'], 3, 4)).toEqual([' ca', 'cat', 'at ', ' cat', 'cat ']);
  });

  it('ranks a morphological variant first and scores a cosine in (0, 1]', () => {
    const ranker = new CharRanker(TOOLS);
    const [top] = ranker.search('forecasting', 3);
    expect(top?.index).toBe(2);
    expect(top?.score).toBeGreaterThan(0);
    expect(top?.score).toBeLessThanOrEqual(1 + 1e-6);
    // The identical text scores 1.
    const [self] = ranker.search('weatherForecast forecast for a city', 1);
    expect(self?.score).toBeCloseTo(1, 5);
  });
});

describe('metrics', () => {
  it('computes NDCG with binary relevance by hand', () => {
    // Gold at ranks 2 and 4 of 2 gold tools: DCG = 1/log2(3) + 1/log2(5); IDCG = 1 + 1/log2(3).
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(5);
    const idcg = 1 + 1 / Math.log2(3);
    expect(ndcgAt([9, 4, 8, 5, 7], new Set([4, 5]), 5)).toBeCloseTo(dcg / idcg, 12);
    expect(ndcgAt([9, 4, 8, 5, 7], new Set([4, 5]), 1)).toBe(0);
    expect(ndcgAt([4], new Set([4, 5]), 1)).toBe(1);
  });

  it('reports top-1, top-5 and NDCG as percentages', () => {
    const scores = scoreRankings(
      [
        [1, 2, 3],
        [0, 0, 0, 0, 0, 2],
        [7, 1],
      ],
      [new Set([1]), new Set([2]), new Set([1])],
    );
    expect(scores).toMatchObject({ n: 3, top1: 33.33, top5: 66.67 });
    expect(scores.ndcg1).toBe(33.33);
    expect(scores.ndcg10).toBeCloseTo(((1 + 1 / Math.log2(7) + 1 / Math.log2(3)) / 3) * 100, 1);
  });
});

describe('top-k and fusion', () => {
  it('keeps the k best, ties to the lower index', () => {
    expect(topKOf([0.5, 0.9, 0.1, 0.9, 0.7], 3)).toEqual([
      { index: 1, score: 0.9 },
      { index: 3, score: 0.9 },
      { index: 4, score: 0.7 },
    ]);
  });

  it('fuses rankers by reciprocal rank (c = 60)', async () => {
    const fixed = (id: string, lists: Hit[][]): Ranker => ({ id, rank: async () => lists });
    const a = fixed('a', [
      [
        { index: 1, score: 9 },
        { index: 2, score: 1 },
      ],
    ]);
    const b = fixed('b', [
      [
        { index: 2, score: 5 },
        { index: 3, score: 4 },
      ],
    ]);
    const [fused] = await new HybridRanker([a, b]).rank(['q'], 3);
    expect(fused?.map((h) => h.index)).toEqual([2, 1, 3]);
    expect(fused?.[0]?.score).toBeCloseTo(1 / 62 + 1 / 61, 12);
  });
});
