/**
 * The retriever's `fusion` option (core/retrieval/cotools/fusion.ts, issue 25 item 22): the `paper` preset ranks by
 * V_Q · V_T alone (eq. 10); the `default` preset adds λ × the untrained char similarity, λ chosen on the
 * early-stopping dev split held out of the training pairs — never on the sets being scored.
 */
import { describe, expect, it } from 'vitest';
import { LexicalEmbeddingModel, LexicalIdf } from '../../../core/models/lexical.ts';
import { resolveGold, runBench } from '../../../core/retrieval/bench.ts';
import { syntheticCatalog } from '../../../core/retrieval/catalog.ts';
import { CharRanker } from '../../../core/retrieval/char.ts';
import {
  chooseFusionWeight,
  FUSION_WEIGHTS,
  type FusionDevQuery,
  fusionDevQueries,
  fusionDevScore,
  ScoreFusionRanker,
} from '../../../core/retrieval/cotools/fusion.ts';
import { encode, type RetrieverWeights } from '../../../core/retrieval/cotools/retriever.ts';
import { RETRIEVER_PRESETS } from '../../../core/retrieval/cotools/schedule.ts';
import { devSet, retrieverPlan } from '../../../core/retrieval/cotools/training.ts';
import { embedAll } from '../../../core/retrieval/dense.ts';
import { TOOL_TEXT, toolText } from '../../../core/retrieval/text.ts';
import type { Hit, Ranker } from '../../../core/retrieval/types.ts';
import { Rng } from '../../../core/util/random.ts';

describe('choosing λ on the dev split', () => {
  // A seen-tool query the trained score gets right and a large λ breaks (t1 overtakes t0 once 0.5 + 0.5λ > 0.9),
  // and an unseen-tool query it gets third that the char similarity lifts (first once 0.4 + 0.5λ > 0.6).
  const seen: FusionDevQuery = { trained: [0.9, 0.5, 0.1], lexical: [0, 0.5, 0], gold: [0] };
  const unseen: FusionDevQuery = { trained: [0.6, 0.4, 0.5], lexical: [0, 0.5, 0], gold: [1], unseen: true };

  it('scores each λ by the mean of the seen- and unseen-tool groups’ MRR and keeps the best', () => {
    // Ranks (seen, unseen) per λ: 0 → (1, 3), 0.25 → (1, 2), 0.5 → (1, 1), 1 → (2, 1), 2 → (2, 1).
    const expected = [(1 + 1 / 3) / 2, (1 + 1 / 2) / 2, 1, (1 / 2 + 1) / 2, (1 / 2 + 1) / 2];
    const choice = chooseFusionWeight([seen, unseen]);
    expect(choice.scores.map((s) => s.weight)).toEqual([...FUSION_WEIGHTS]);
    for (const [i, s] of choice.scores.entries()) expect(s.mrr).toBeCloseTo(expected[i] as number, 12);
    expect(choice.weight).toBe(0.5);
    expect(fusionDevScore([seen, unseen], 0.5)).toEqual({ mrr: 1, top1: 1 });
    // Each group counts once whatever its size: three more seen queries do not change the unseen group's weight.
    expect(chooseFusionWeight([seen, seen, seen, unseen]).scores[0]?.mrr).toBeCloseTo((1 + 1 / 3) / 2, 12);
  });

  it('keeps the paper’s score (λ 0) when the char similarity does not help, and the smaller λ on a tie', () => {
    const noChar = { ...unseen, lexical: [0, 0, 0] };
    expect(chooseFusionWeight([seen, noChar]).weight).toBe(0);
    // Only the seen query: every λ < 0.8 ranks it first; the smallest wins.
    expect(chooseFusionWeight([seen]).weight).toBe(0);
    // A misleading char similarity on the unseen query's wrong tool: fusion only hurts.
    expect(
      chooseFusionWeight([seen, { ...unseen, trained: [0.3, 0.9, 0.1], lexical: [0.9, 0, 0] }]).weight,
    ).toBe(0);
  });
});

describe('ScoreFusionRanker', () => {
  /** A ranker answering fixed scores for a subset of the pool. */
  const fixed = (id: string, scores: Map<number, number>): Ranker => ({
    id,
    rank: async (queries, k) =>
      queries.map(() =>
        [...scores]
          .map(([index, score]): Hit => ({ index, score }))
          .sort((a, b) => b.score - a.score)
          .slice(0, k),
      ),
  });

  it('ranks by Σ weight × score over the whole pool (a tool a part does not answer scores 0 there)', async () => {
    const pool = 60;
    const rng = new Rng('fusion-ranker');
    const dense = new Map(
      Array.from({ length: pool }, (_, i) => [i, rng.next() * 2 - 1] as [number, number]),
    );
    const sparse = new Map(
      rng
        .sample(
          Array.from({ length: pool }, (_, i) => i),
          15,
        )
        .map((i) => [i, rng.next()] as [number, number]),
    );
    const ranker = new ScoreFusionRanker(
      'fused',
      [
        { ranker: fixed('a', dense), weight: 1 },
        { ranker: fixed('b', sparse), weight: 0.7 },
      ],
      pool,
    );
    const [hits = []] = await ranker.rank(['q'], 8);
    const brute = Array.from({ length: pool }, (_, i) => ({
      index: i,
      score: (dense.get(i) as number) + 0.7 * (sparse.get(i) ?? 0),
    }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 8);
    expect(hits.map((h) => h.index)).toEqual(brute.map((h) => h.index));
    for (const [i, h] of hits.entries()) expect(h.score).toBeCloseTo(brute[i]?.score as number, 12);
  });
});

describe('presets in the benchmark', () => {
  const catalog = syntheticCatalog({
    seed: 'fusion-test',
    tools: 60,
    seenTools: 40,
    trainPerTool: 4,
    dev: 30,
    testSeen: 30,
    testUnseen: 30,
  });
  const tools = catalog.tools.map(({ name, description }) => ({ name, description }));
  const encoder = new LexicalEmbeddingModel({ dimensions: 64, idf: LexicalIdf.fit(tools.map(toolText)) });
  const small = { steps: 60, intermediate: 16, seed: 'fusion' } as const;

  it('paper: no fusion — cotools ranks by V_Q · V_T of the trained encoders (eq. 10)', async () => {
    expect(RETRIEVER_PRESETS.paper.fusion).toBe('none');
    let weights: RetrieverWeights | null = null;
    const report = await runBench({
      tools,
      sets: { test: catalog.testUnseen },
      rankers: ['cotools'],
      encoder,
      train: catalog.train,
      cotools: { preset: 'paper', ...small },
      onTrained: (w) => {
        weights = w;
      },
    });
    expect(report.training?.fusion).toBeNull();
    // Top-1 recomputed from the trained weights: argmax_t E_Q(h_q) · E_T(h_t) over the pool.
    const w = weights as unknown as RetrieverWeights;
    const pool = (await embedAll(encoder, tools.map(TOOL_TEXT.paper))).map((h) => encode(w, 'tool', h));
    const queries = await embedAll(
      encoder,
      catalog.testUnseen.map((q) => q.query),
    );
    const gold = resolveGold(tools, catalog.testUnseen);
    let hits = 0;
    for (const [i, h] of queries.entries()) {
      const v = encode(w, 'query', h);
      const scores = pool.map((t) => t.reduce((s, x, j) => s + x * (v[j] as number), 0));
      if (gold[i]?.has(scores.indexOf(Math.max(...scores)))) hits++;
    }
    expect(report.rankers.cotools?.sets.test?.top1).toBeCloseTo((100 * hits) / queries.length, 6);
  });

  it('default: λ is chosen on the early-stopping dev split of the training queries, not on the scored sets', async () => {
    expect(RETRIEVER_PRESETS.default.fusion).toBe('char');
    let weights: RetrieverWeights | null = null;
    const run = (sets: Record<string, typeof catalog.dev>) =>
      runBench({
        tools,
        sets,
        rankers: ['char', 'cotools'],
        encoder,
        train: catalog.train,
        cotools: small,
        onTrained: (w) => {
          weights = w;
        },
      });
    const a = await run({ test: catalog.testUnseen });
    const fusion = a.training?.fusion;
    expect(fusion?.ranker).toBe('char');
    expect(fusion?.scores.map((s) => s.weight)).toEqual([...FUSION_WEIGHTS]);
    // Recomputed from raw inputs: the split training held out, its texts, the trained weights, the char ranker.
    const features = await embedAll(encoder, tools.map(TOOL_TEXT.sentence));
    const trainH = await embedAll(
      encoder,
      catalog.train.map((q) => q.query),
    );
    const golds = resolveGold(tools, catalog.train).map((g) => [...g]);
    const pairs = trainH.map((h, i) => ({ h, tools: golds[i] as number[] }));
    const split = retrieverPlan(golds, tools.length, encoder.dimensions, small).split;
    if (!split) throw new Error('expected an early-stopping split');
    expect(split.devUnseen.length).toBeGreaterThan(0);
    const texts = [...split.dev, ...split.devUnseen].map((i) => catalog.train[i]?.query as string);
    const queries = fusionDevQueries(
      weights as unknown as RetrieverWeights,
      devSet(split, pairs, (i) => features[i] as Float32Array),
      texts,
      split.candidates,
      new CharRanker(tools),
      tools.length,
    );
    expect(fusion).toEqual({ ranker: 'char', ...chooseFusionWeight(queries) });
    // Other scored sets, same training: the same λ.
    const b = await run({ dev: catalog.dev, seen: catalog.testSeen });
    expect(b.training?.fusion).toEqual(fusion);
    // `fusion: 'none'` on the default preset: the same training, no λ.
    const none = await runBench({
      tools,
      sets: { test: catalog.testUnseen },
      rankers: ['cotools'],
      encoder,
      train: catalog.train,
      cotools: { ...small, fusion: 'none' },
    });
    expect(none.training?.fusion).toBeNull();
    expect(none.training?.stopping).toEqual(a.training?.stopping);
  });
});
