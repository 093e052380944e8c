/**
 * The retrieval benchmark behind `tooldrift retrieve bench` and `npm run bench:retrieval`: builds every requested
 * ranker over one tool pool, trains `cotools` when training queries are given, and scores each query set
 * (metrics.ts). Frozen tool vectors are computed once and shared by `dense`, `hybrid` and `cotools`.
 */
import type { EmbeddingModel } from '../models/types.ts';
import type { CharRanker } from './char.ts';
import {
  chooseFusionWeight,
  type FusionChoice,
  fusionDevQueries,
  ScoreFusionRanker,
} from './cotools/fusion.ts';
import { cotoolsRanker } from './cotools/ranker.ts';
import type { EpochReport, RetrieverTrainOptions, RetrieverWeights } from './cotools/retriever.ts';
import { type ResolvedRetrieverOptions, resolveRetrieverOptions } from './cotools/schedule.ts';
import { devSet, type StoppingSummary, trainRetriever } from './cotools/training.ts';
import { embedAll } from './dense.ts';
import { type RetrievalScores, scoreRankings } from './metrics.ts';
import { createRanker } from './rankers.ts';
import { TOOL_TEXT, type ToolTextFormat } from './text.ts';
import type { QueryExample, Ranker, Tool } from './types.ts';

export const RANKER_IDS = ['bm25', 'char', 'dense', 'hybrid', 'cotools'] as const;
export type RankerId = (typeof RANKER_IDS)[number];

/** Gold tool positions of each query; throws `UnknownToolError` naming the first query with an unknown tool. */
export class UnknownToolError extends Error {
  constructor(
    readonly query: number,
    readonly tool: string,
  ) {
    super(`query ${query + 1} names tool ${JSON.stringify(tool)}, which is not in the pool`);
  }
}

export function resolveGold(tools: readonly Tool[], queries: readonly QueryExample[]): Set<number>[] {
  const position = new Map<string, number>();
  for (const [i, t] of tools.entries()) if (!position.has(t.name)) position.set(t.name, i);
  return queries.map((q, qi) => {
    const gold = new Set<number>();
    for (const name of q.tools) {
      const at = position.get(name);
      if (at === undefined) throw new UnknownToolError(qi, name);
      gold.add(at);
    }
    return gold;
  });
}

export interface BenchStep {
  /** e.g. `encode tools`, `train cotools`. */
  label: string;
  unit: string;
  done: number;
  total: number;
}

export interface BenchInput {
  tools: readonly Tool[];
  /** Named query sets to score (e.g. `test`, or `dev`/`seen`/`unseen`). */
  sets: Record<string, readonly QueryExample[]>;
  rankers: readonly RankerId[];
  /** The frozen encoder (dense, hybrid, cotools). */
  encoder: EmbeddingModel;
  /** Training queries (required for `cotools`). */
  train?: readonly QueryExample[] | undefined;
  /** Dev queries: scored after training for the training report. */
  dev?: readonly QueryExample[] | undefined;
  /** cotools training: a preset (`default` unless said) and overrides (cotools/schedule.ts). */
  cotools?: RetrieverTrainOptions;
  /**
   * How tools are written for the frozen encoder (dense, hybrid, cotools); default: the cotools preset's
   * (`sentence` for `default`, the spec's `paper` text for `paper`).
   */
  toolText?: ToolTextFormat;
  /** Texts per encoder call. */
  batchSize?: number;
  onStep?: (step: BenchStep) => void;
  /** Called with each ranker once built (the benchmark script times the dense index through it). */
  onRanker?: (id: RankerId, ranker: Ranker) => void;
  /** Called with the trained cotools retriever (to keep its weights). */
  onTrained?: (weights: RetrieverWeights) => void;
}

export interface RankerReport {
  sets: Record<string, RetrievalScores>;
  /** Milliseconds to build the ranker (index, embeddings, training). */
  buildMs: number;
  /** Mean milliseconds per query (encoding + lookup). */
  queryMs: number;
}

export interface BenchReport {
  pool: number;
  encoder: string;
  dimensions: number;
  /** Milliseconds to embed the pool with the frozen encoder (shared by the dense rankers). */
  encodeMs: number;
  /** The tool text the frozen vectors were computed from. */
  toolText: ToolTextFormat;
  rankers: Partial<Record<RankerId, RankerReport>>;
  training?: BenchTraining;
}

export interface BenchTraining {
  pairs: number;
  epochs: EpochReport[];
  ms: number;
  /** Optimiser steps run and the budget. */
  steps: { done: number; budget: number };
  /** Early stopping: pairs trained on / held out, dev candidates, the scores and the step kept. */
  stopping: StoppingSummary | null;
  options: ResolvedRetrieverOptions;
  /** `fusion: 'char'`: the λ chosen on the early-stopping dev split and every weight's dev score (else null). */
  fusion: ({ ranker: 'char' } & FusionChoice) | null;
  dev?: RetrievalScores;
}

export async function runBench(input: BenchInput): Promise<BenchReport> {
  const { tools, encoder } = input;
  const step = (label: string, unit: string) => (done: number, total: number) =>
    input.onStep?.({ label, unit, done, total });
  const golds = Object.fromEntries(
    Object.entries(input.sets).map(([name, qs]) => [name, resolveGold(tools, qs)]),
  );
  const needsVectors = input.rankers.some((r) => r === 'dense' || r === 'hybrid' || r === 'cotools');
  const format = input.toolText ?? resolveRetrieverOptions(input.cotools ?? {}, 1, 1).toolText;
  let encodeMs = 0;
  let features: Float32Array[] = [];
  if (needsVectors) {
    const t0 = performance.now();
    features = await embedAll(encoder, tools.map(TOOL_TEXT[format]), {
      batchSize: input.batchSize,
      onProgress: step('encode tools', 'tools'),
    });
    encodeMs = performance.now() - t0;
  }
  const report: BenchReport = {
    pool: tools.length,
    encoder: `${encoder.provider}/${encoder.model}`,
    dimensions: encoder.dimensions,
    encodeMs,
    toolText: format,
    rankers: {},
  };
  const built = new Map<RankerId, { ranker: Ranker; ms: number }>();
  const untrained = new Map<string, Ranker>();
  const build = async (id: RankerId): Promise<{ ranker: Ranker; ms: number }> => {
    const ready = built.get(id);
    if (ready) return ready;
    const t0 = performance.now();
    let ranker: Ranker;
    switch (id) {
      case 'bm25':
      case 'char':
      case 'dense':
      case 'hybrid':
        ranker = await createRanker(id, tools, {
          encoder,
          features,
          batchSize: input.batchSize,
          built: untrained,
        });
        break;
      case 'cotools': {
        const train = input.train;
        if (!train?.length) throw new RangeError('the cotools ranker needs training queries (--train)');
        const trainGold = resolveGold(tools, train);
        const trainVectors = await embedAll(
          encoder,
          train.map((q) => q.query),
          { batchSize: input.batchSize, onProgress: step('encode training queries', 'queries') },
        );
        const pairs = trainVectors.map((h, i) => ({ h, tools: [...(trainGold[i] as Set<number>)] }));
        const t1 = performance.now();
        const trained = trainRetriever(
          pairs,
          (i) => features[i] as Float32Array,
          encoder.dimensions,
          { ...input.cotools, toolText: format },
          { pool: tools.length, onStep: step('train cotools', 'steps') },
        );
        const trainMs = performance.now() - t1;
        input.onTrained?.(trained.weights);
        ranker = cotoolsRanker(trained.weights, features, encoder, step('encode pool (cotools)', 'tools'));
        let fusion: BenchTraining['fusion'] = null;
        if (trained.options.fusion === 'char' && trained.split) {
          // λ chosen on the early-stopping dev split (fusion.ts), never on the sets scored below.
          const char = (await createRanker('char', tools, { encoder, built: untrained })) as CharRanker;
          const split = trained.split;
          const texts = [...split.dev, ...split.devUnseen].map((i) => (train[i] as QueryExample).query);
          const dev = devSet(split, pairs, (i) => features[i] as Float32Array);
          const choice = chooseFusionWeight(
            fusionDevQueries(trained.weights, dev, texts, split.candidates, char, tools.length),
          );
          fusion = { ranker: 'char', ...choice };
          if (choice.weight > 0)
            ranker = new ScoreFusionRanker(
              'cotools',
              [
                { ranker, weight: 1 },
                { ranker: char, weight: choice.weight },
              ],
              tools.length,
            );
        }
        report.training = {
          fusion,
          pairs: pairs.length,
          epochs: trained.epochs,
          ms: trainMs,
          steps: trained.steps,
          stopping: trained.stopping,
          options: trained.options,
        };
        if (input.dev?.length) {
          const hits = await ranker.rank(
            input.dev.map((q) => q.query),
            10,
          );
          report.training.dev = scoreRankings(
            hits.map((h) => h.map((x) => x.index)),
            resolveGold(tools, input.dev),
          );
        }
        break;
      }
    }
    const entry = { ranker, ms: performance.now() - t0 };
    built.set(id, entry);
    input.onRanker?.(id, ranker);
    return entry;
  };
  for (const id of input.rankers) {
    const { ranker, ms } = await build(id);
    const sets: Record<string, RetrievalScores> = {};
    let queryTime = 0;
    let queryCount = 0;
    for (const [name, queries] of Object.entries(input.sets)) {
      const t0 = performance.now();
      const texts = queries.map((q) => q.query);
      const hits: number[][] = [];
      const chunk = 200;
      for (let at = 0; at < texts.length; at += chunk) {
        for (const h of await ranker.rank(texts.slice(at, at + chunk), 10)) hits.push(h.map((x) => x.index));
        step(`${id} ${name}`, 'queries')(Math.min(texts.length, at + chunk), texts.length);
      }
      queryTime += performance.now() - t0;
      queryCount += texts.length;
      sets[name] = scoreRankings(hits, golds[name] as Set<number>[]);
    }
    report.rankers[id] = { sets, buildMs: Math.round(ms), queryMs: queryCount ? queryTime / queryCount : 0 };
  }
  return report;
}
