/**
 * DRAFT Table 3's inputs on RestBench-TMDB (issue 23 §5): the authors' tool instruction files and test file read
 * and validated, the two pools (same 54 names, descriptions raw or DRAFT's), every query's gold resolving in
 * them, NDCG recomputed by hand on a small pool, and a tooldrift DRAFT set replacing the descriptions it refined.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import type { DocSet } from '../../../core/draft/docset.ts';
import {
  documentedBy,
  parseToolInstructions,
  RestBenchFileError,
  restBenchQueries,
  retrievalPool,
} from '../../../core/draft/restbench.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { resolveGold, runBench } from '../../../core/retrieval/bench.ts';
import { ndcgAt } from '../../../core/retrieval/metrics.ts';

function data(path: string): unknown {
  return JSON.parse(
    readFileSync(new URL(`../../../data/apis/restbench-tmdb/draft/${path}`, import.meta.url), 'utf8'),
  );
}

const RAW = parseToolInstructions(data('tool_instruction/TMDB_Initial.json'));
const DRAFT = parseToolInstructions(data('tool_instruction/TMDB_DRAFT.json'));
const QUERIES = restBenchQueries(data('test_data/TMDB.json'));

describe("DRAFT's RestBench-TMDB files", () => {
  it('hold the 54 operations under the same names, documented raw and by DRAFT, and 100 queries whose gold resolves', () => {
    expect(RAW).toHaveLength(54);
    expect(DRAFT.map((t) => t.name)).toEqual(RAW.map((t) => t.name));
    expect(RAW[0]).toEqual({
      id: 0,
      name: 'GET_movie_movie_id_keywords',
      description: 'Get the keywords that have been added to a movie.',
      url: 'http://api.themoviedb.org/3/movie/{movie_id}/keywords',
    });
    expect(DRAFT[0]!.description.length).toBeGreaterThan(RAW[0]!.description.length);
    const changed = RAW.filter((t, i) => t.description !== DRAFT[i]!.description).length;
    expect(changed).toBe(54);
    expect(QUERIES).toHaveLength(100);
    expect(QUERIES[0]).toEqual({
      query: 'give me the number of movies directed by Sofia Coppola',
      tools: ['GET_search_person', 'GET_person_person_id_movie_credits'],
    });
    const golds = resolveGold(retrievalPool(RAW), QUERIES);
    expect(golds.every((g) => g.size >= 1)).toBe(true);
  });

  it('refuses malformed files with the pointer of the offending value', () => {
    expect(() => parseToolInstructions({ 0: { ID: 0, description: 'x' } })).toThrow(RestBenchFileError);
    expect(() => parseToolInstructions({ 0: { ID: 0, description: 'x' } })).toThrow(/^\/0\/tool_name: /);
    expect(() =>
      parseToolInstructions({
        0: { ID: 0, tool_name: 'a', description: '' },
        1: { ID: 1, tool_name: 'a', description: '' },
      }),
    ).toThrow(/duplicate tool a/);
    expect(() => restBenchQueries([{ query: 'q', 'relevant APIs': [] }])).toThrow(/^\/0\/relevant APIs: /);
  });

  it('ranks the pools: NDCG as defined (IDCG over min(k, |gold|)), only the descriptions differ', async () => {
    // By hand: gold {2, 5}, ranking [5, 1, 2]: DCG@10 = 1 + 1/log2(4) = 1.5, IDCG = 1 + 1/log2(3).
    expect(ndcgAt([5, 1, 2], new Set([2, 5]), 10)).toBeCloseTo(1.5 / (1 + 1 / Math.log2(3)), 12);
    expect(ndcgAt([1, 5], new Set([2, 5]), 1)).toBe(0);
    const encoder = new LexicalEmbeddingModel({ dimensions: 64 });
    const [raw, draft] = await Promise.all(
      [RAW, DRAFT].map((tools) =>
        runBench({ tools: retrievalPool(tools), sets: { test: QUERIES }, rankers: ['bm25'], encoder }),
      ),
    );
    const a = raw!.rankers.bm25!.sets.test!;
    const b = draft!.rankers.bm25!.sets.test!;
    expect(a.n).toBe(100);
    // The figures `npm run eval:restbench` prints and the README shows (bm25 is deterministic).
    expect([a.ndcg1, b.ndcg1]).toEqual([30, 32]);
    expect(a.ndcg10).toBeCloseTo(33.7, 1);
    expect(b.ndcg10).toBeCloseTo(45.0, 1);
  });

  it("takes a tooldrift DRAFT set's refined descriptions for the operations it explored", () => {
    const set = {
      tools: [
        {
          key: 'GET_movie-movie_id-keywords',
          operation: 'GET_movie-movie_id-keywords',
          stop: 'converged',
          doc: { name: 'x', params: [], description: 'Keywords of a movie by its id.' },
        },
        {
          key: 'GET_tv-popular',
          operation: 'GET_tv-popular',
          stop: 'not-explored',
          doc: { name: 'y', params: [], description: 'not used' },
        },
      ],
      options: resolveDraftOptions({}),
    } as unknown as DocSet;
    const operations = new Map([
      ['GET_movie_movie_id_keywords', 'GET_movie-movie_id-keywords'],
      ['GET_tv_popular', 'GET_tv-popular'],
    ]);
    const out = documentedBy(RAW, set, (n) => operations.get(n));
    expect(out[0]!.description).toBe('Keywords of a movie by its id.');
    expect(out.find((t) => t.name === 'GET_tv_popular')!.description).toBe(
      RAW.find((t) => t.name === 'GET_tv_popular')!.description,
    );
    expect(out.slice(1).filter((t, i) => t.description !== RAW[i + 1]!.description)).toEqual([]);
  });
});
