/**
 * The `train-toolset` job (issue 14 items 3–4): trains a toolset's Chain-of-Tools retriever (spec eq. 6–11) and
 * Tool Judge (eq. 3–5) over the deployment's frozen encoder (`embeddingModelFor`: the lexical encoder locally,
 * Workers AI in production), as a chain of chunk jobs.
 *
 * Phases: `retriever` → `judge` (skipped when the options say `judge: false` or there are no negatives) →
 * `evaluate` (the pool's tool vectors E_T(h), dev top-1/top-5 beside bm25 and char measured in the same run, the
 * judge's held-out accuracy) → done. A chunk works until TRAIN_CHUNK_MS (default 25 s) has passed, checked between
 * segments of a few optimiser steps; then it stores the run's exact state (core/retrieval/cotools/training.ts:
 * float64 weights and AdamW moments) as the `checkpoint` blob, in the same D1 batch as `progress`, and enqueues
 * its continuation. Because the state is exact, where the chunks fall changes nothing: the same seed gives the
 * same weights bit for bit as one uninterrupted `trainRetriever` / `trainJudge` (tested).
 *
 * Idempotence: chunk n's job id is `train:<run>:<n>` (enqueueJob sends each once), and `progress.chunk` names the
 * chunk that may run next; a redelivered older chunk only re-sends the current continuation (a no-op when it was
 * sent). A run whose last attempt fails is marked failed with the error.
 */

import type { EmbeddingModel } from '../../core/models/types.ts';
import { type CatalogOptions, syntheticCatalog } from '../../core/retrieval/catalog.ts';
import { judgeVector } from '../../core/retrieval/cotools/judge.ts';
import { encode } from '../../core/retrieval/cotools/retriever.ts';
import {
  type EarlyStoppingSplit,
  type ResolvedRetrieverOptions,
  resolveRetrieverOptions,
  retrieverDevScore,
} from '../../core/retrieval/cotools/schedule.ts';
import {
  judgeDataProblem,
  type PreparedData,
  prepareTrainingData,
  type TrainOptions,
} from '../../core/retrieval/cotools/service.ts';
import {
  advanceJudge,
  advanceRetriever,
  bytesSha256,
  evaluationDue,
  type HeadRun,
  nextBatches,
  packRun,
  packWeights,
  recordEvaluation,
  retrieverPlan,
  runFinished,
  runProgress,
  type ScoredStep,
  startJudge,
  startRetrieverTraining,
  unpackRun,
  unpackWeights,
  VectorPack,
} from '../../core/retrieval/cotools/training.ts';
import { embedAll } from '../../core/retrieval/dense.ts';
import { scoreRankings } from '../../core/retrieval/metrics.ts';
import { createRanker } from '../../core/retrieval/rankers.ts';
import { TOOL_TEXT } from '../../core/retrieval/text.ts';
import type { QueryExample, Tool } from '../../core/retrieval/types.ts';
import { ShardedVectorIndex } from '../../core/retrieval/vector-index.ts';
import { type Bindings, readConfig } from '../env.ts';
import { embeddingModelFor } from '../models.ts';
import {
  deleteBlobs,
  getTraining,
  readBlob,
  type TrainingRow,
  updateTraining,
  writeBlob,
} from '../stores/toolset-training.ts';
import { findToolset, loadToolsetTools, type ToolsetRecord } from '../stores/toolsets.ts';
import { enqueueJob } from './enqueue.ts';
import { type JobContext, type JobKind, MAX_ATTEMPTS } from './types.ts';

export const TRAIN_TOOLSET = 'train-toolset';

/** Optimiser steps per segment: the chunk's budget is checked between segments. */
const SEGMENT_STEPS = 8;

export interface TrainPayload {
  trainingId: string;
  chunk: number;
}

/** The training and dev queries a request gave (uploaded and surface toolsets). */
export interface TrainingData {
  train: QueryExample[];
  dev: QueryExample[];
}

export type Phase = 'retriever' | 'judge' | 'evaluate' | 'done';

export interface TrainingProgress {
  phase: Phase;
  /** The chunk that may run next. */
  chunk: number;
  /** Optimiser steps of the current head done / in total. */
  steps: { done: number; total: number };
  epoch: number;
  epochs: number;
  retrieverEpochs?: { epoch: number; loss: number; steps: number; ms: number }[];
  /** The retriever's early stopping: dev scores so far and the step whose weights are kept. */
  retrieverStopping?: {
    scores: ScoredStep[];
    bestStep: number;
    dev: number;
    devUnseen: number;
    candidates: number;
  };
  /** Optimiser steps the retriever ran, of its budget (set when it finishes). */
  retrieverSteps?: { done: number; total: number };
  judgeEpochs?: { epoch: number; loss: number; steps: number; ms: number }[];
  judgeSkipped?: string;
  /** Milliseconds of work so far (every chunk). */
  workMs: number;
}

export const trainJobId = (trainingId: string, chunk: number) => `train:${trainingId}:${chunk}`;

export async function enqueueTraining(env: Bindings, trainingId: string, chunk = 0) {
  const payload: TrainPayload = { trainingId, chunk };
  return enqueueJob(env, TRAIN_TOOLSET, payload, { id: trainJobId(trainingId, chunk) });
}

/** The encoder label stored with the weights and checked at search time. */
export const encoderLabel = (encoder: EmbeddingModel) => `${encoder.provider}/${encoder.model}`;

interface RunInputs {
  tools: Tool[];
  data: PreparedData;
  /** The retriever's early-stopping split of `data.pairs` (null: it trains on all of them and does not stop early). */
  split: EarlyStoppingSplit | null;
  /** The retriever's options, resolved for the pairs it trains on. */
  retriever: ResolvedRetrieverOptions;
  /** How tools are written for the frozen encoder (the retriever options' `toolText`). */
  text: (tool: Tool) => string;
}

async function inputsOf(
  env: Bindings,
  toolset: ToolsetRecord,
  row: TrainingRow,
  hidden: number,
): Promise<RunInputs> {
  const options = row.options as TrainOptions;
  let tools: Tool[];
  let data: PreparedData;
  if (toolset.source === 'synthetic') {
    const catalog = syntheticCatalog(toolset.spec as CatalogOptions);
    tools = catalog.tools.map(({ name, description }) => ({ name, description }));
    data = prepareTrainingData(tools, catalog.train, catalog.dev, catalog.noTool, options.seed);
  } else {
    tools = await loadToolsetTools(env.DB, toolset);
    const given = row.data as TrainingData;
    data = prepareTrainingData(tools, given.train, given.dev, [], options.seed);
  }
  // The split is a pure function of the data and the options, so every chunk finds the same one.
  const plan = retrieverPlan(
    data.pairs.map((p) => p.gold),
    tools.length,
    hidden,
    retrieverOptions(options),
  );
  const split = plan.split;
  const resolved = resolveRetrieverOptions(plan.options, hidden, split?.train.length ?? data.pairs.length);
  return { tools, data, split, retriever: resolved, text: TOOL_TEXT[resolved.toolText] };
}

const retrieverOptions = (options: TrainOptions) => ({ ...options.retriever, seed: options.seed });

function startHead(
  phase: 'retriever' | 'judge',
  hidden: number,
  inputs: RunInputs,
  options: TrainOptions,
): HeadRun {
  if (phase === 'retriever')
    return startRetrieverTraining(
      inputs.data.pairs.map((p) => p.gold),
      inputs.tools.length,
      hidden,
      retrieverOptions(options),
    ).run;
  if (options.judge === false) throw new Error('judge phase without judge options');
  return startJudge(hidden, inputs.data.judge.length, { ...options.judge, seed: `${options.seed}/judge` });
}

/** The early-stopping dev queries and candidates through the frozen encoder (once per chunk). */
async function devVectors(inputs: RunInputs, encoder: EmbeddingModel) {
  const split = inputs.split as EarlyStoppingSplit;
  const slot = new Map(split.candidates.map((t, i) => [t, i]));
  const held = [
    ...split.dev.map((i) => ({ i, unseen: false })),
    ...split.devUnseen.map((i) => ({ i, unseen: true })),
  ];
  const pairs = held.map(({ i }) => inputs.data.pairs[i] as PreparedData['pairs'][number]);
  const [qv, cv] = await Promise.all([
    embedAll(
      encoder,
      pairs.map((p) => p.query),
    ),
    embedAll(
      encoder,
      split.candidates.map((t) => inputs.text(inputs.tools[t] as Tool)),
    ),
  ]);
  return {
    queries: pairs.map((p, k) => ({
      h: qv[k] as Float32Array,
      gold: p.gold.map((t) => slot.get(t) as number),
      unseen: held[k]?.unseen === true,
    })),
    candidates: cv,
  };
}

/** Runs segments of the head (and its early-stopping scores) until it finishes or the budget is spent. */
async function trainSegments(run: HeadRun, inputs: RunInputs, encoder: EmbeddingModel, deadline: number) {
  let dev: Awaited<ReturnType<typeof devVectors>> | null = null;
  do {
    if (run.head === 'retriever' && evaluationDue(run)) {
      dev ??= await devVectors(inputs, encoder);
      recordEvaluation(run, retrieverDevScore(run.weights, dev.queries, dev.candidates));
      continue;
    }
    const batches = nextBatches(run, SEGMENT_STEPS);
    if (run.head === 'retriever') {
      // The run's items are the split's training pairs.
      const pairOf = (i: number) => inputs.data.pairs[inputs.split ? (inputs.split.train[i] as number) : i];
      const queryIds = [...new Set(batches.flat())];
      const toolIds = [...new Set(queryIds.flatMap((i) => pairOf(i)?.gold ?? []))];
      const [qv, tv] = await Promise.all([
        embedAll(
          encoder,
          queryIds.map((i) => pairOf(i)?.query as string),
        ),
        embedAll(
          encoder,
          toolIds.map((i) => inputs.text(inputs.tools[i] as Tool)),
        ),
      ]);
      const queryVec = new Map(queryIds.map((id, k) => [id, qv[k] as Float32Array]));
      const toolVec = new Map(toolIds.map((id, k) => [id, tv[k] as Float32Array]));
      advanceRetriever(
        run,
        batches.map((b) =>
          b.map((i) => ({
            h: queryVec.get(i) as Float32Array,
            tools: pairOf(i)?.gold as number[],
          })),
        ),
        (t) => toolVec.get(t) as Float32Array,
      );
    } else {
      const ids = [...new Set(batches.flat())];
      const vs = await embedAll(
        encoder,
        ids.map((i) => inputs.data.judge[i]?.text as string),
      );
      const vec = new Map(ids.map((id, k) => [id, vs[k] as Float32Array]));
      advanceJudge(
        run,
        batches.map((b) =>
          b.map((i) => ({ h: vec.get(i) as Float32Array, label: inputs.data.judge[i]?.label as 0 | 1 })),
        ),
      );
    }
  } while (!runFinished(run) && Date.now() < deadline);
}

function stoppingOf(run: HeadRun, inputs: RunInputs): Pick<TrainingProgress, 'retrieverStopping'> {
  if (run.head !== 'retriever' || !run.stopping || !inputs.split) return {};
  const { scores, bestStep } = run.stopping;
  return {
    retrieverStopping: {
      scores,
      bestStep,
      dev: inputs.split.dev.length,
      devUnseen: inputs.split.devUnseen.length,
      candidates: inputs.split.candidates.length,
    },
  };
}

function headProgress(run: HeadRun) {
  return {
    steps: runProgress(run),
    epoch: Math.min(run.position.epoch, run.options.epochs),
    epochs: run.options.epochs,
  };
}

async function evaluate(
  env: Bindings,
  row: TrainingRow,
  inputs: RunInputs,
  encoder: EmbeddingModel,
  progress: TrainingProgress,
) {
  const started = Date.now();
  const blob = await readBlob(env.DB, row.id, 'weights');
  if (!blob) throw new Error(`training ${row.id} has no weights to evaluate`);
  const weights = unpackWeights(blob);
  const H = weights.retriever.hidden;
  // The pool through the tool side, into the index (dev ranking) and the stored vectors (search).
  const index = new ShardedVectorIndex(H);
  const pack = new VectorPack(H, inputs.tools.length);
  for (let at = 0; at < inputs.tools.length; at += 256) {
    const hs = await embedAll(encoder, inputs.tools.slice(at, at + 256).map(inputs.text));
    for (const h of hs) {
      const v = Float32Array.from(encode(weights.retriever, 'tool', h));
      index.add(v);
      pack.add(v);
    }
  }
  const { dev } = inputs.data;
  const golds = dev.map((q) => new Set(q.gold));
  let devScores = null;
  const baseline: Record<string, unknown> = {};
  if (dev.length > 0) {
    const qh = await embedAll(
      encoder,
      dev.map((q) => q.query),
    );
    const hits = await Promise.all(
      qh.map((h) => index.query(Float32Array.from(encode(weights.retriever, 'query', h)), 10)),
    );
    devScores = scoreRankings(
      hits.map((hs) => hs.map((x) => x.index)),
      golds,
    );
    // The untrained lexical rankers, measured in the same run (a trained retriever must beat them).
    for (const id of ['bm25', 'char'] as const) {
      const ranker = await createRanker(id, inputs.tools, { encoder });
      const ranked = await ranker.rank(
        dev.map((q) => q.query),
        10,
      );
      baseline[id] = scoreRankings(
        ranked.map((hs) => hs.map((x) => x.index)),
        golds,
      );
    }
  }
  let judge = null;
  if (weights.judge) {
    const held = inputs.data.judgeHeldOut;
    const hs = await embedAll(
      encoder,
      held.map((e) => e.text),
    );
    let correct = 0;
    for (const [i, h] of hs.entries())
      if (judgeVector(weights.judge, h).needsTool === (held[i]?.label === 1)) correct++;
    judge = {
      examples: inputs.data.judge.length,
      heldOut: held.length,
      accuracy: held.length ? Math.round((10_000 * correct) / held.length) / 100 : null,
      positiveShare: held.length
        ? Math.round((10_000 * held.filter((e) => e.label === 1).length) / held.length) / 100
        : null,
      epochs: progress.judgeEpochs ?? [],
    };
  }
  const sha = await bytesSha256(blob);
  const report = {
    encoder: weights.encoder,
    dimensions: H,
    pool: inputs.tools.length,
    pairs: inputs.data.pairs.length,
    retriever: {
      epochs: progress.retrieverEpochs ?? [],
      intermediate: weights.retriever.inter,
      options: inputs.retriever,
      steps: progress.retrieverSteps ?? null,
      stopping: progress.retrieverStopping ?? null,
    },
    dev: devScores,
    baseline,
    judge,
    ...(progress.judgeSkipped ? { judgeSkipped: progress.judgeSkipped } : {}),
    weights: { bytes: blob.length, sha256: sha, vectorBytes: pack.bytes.length },
    timings: {
      workMs: progress.workMs + (Date.now() - started),
      evaluateMs: Date.now() - started,
      wallMs: Date.now() - row.createdAt,
      chunks: progress.chunk + 1,
    },
  };
  const done: TrainingProgress = { ...progress, phase: 'done', chunk: progress.chunk + 1 };
  await writeBlob(env.DB, row.id, 'vectors', pack.bytes, {
    status: 'succeeded',
    progress: done,
    report,
    weightsBytes: blob.length,
    weightsSha256: sha,
    finishedAt: Date.now(),
  });
  await deleteBlobs(env.DB, row.id, ['checkpoint']);
  return report;
}

async function trainChunk(payload: unknown, ctx: JobContext) {
  const { env } = ctx;
  const { trainingId, chunk } = payload as TrainPayload;
  const started = Date.now();
  const row = await getTraining(env.DB, trainingId);
  if (!row) return { trainingId, chunk, skipped: 'deleted' };
  if (row.status === 'succeeded' || row.status === 'failed')
    return { trainingId, chunk, skipped: row.status };
  const stored = row.progress as TrainingProgress | null;
  const expected = stored?.chunk ?? 0;
  if (chunk !== expected) {
    // A redelivery of a chunk that already handed over: make sure its continuation was sent, do nothing else.
    if (chunk < expected) await enqueueTraining(env, trainingId, expected);
    return { trainingId, chunk, skipped: 'stale', next: expected };
  }
  const toolset = await findToolset(env.DB, row.toolsetId);
  if (!toolset) return { trainingId, chunk, skipped: 'toolset deleted' };
  const options = row.options as TrainOptions;
  const encoder = embeddingModelFor(env);
  const inputs = await inputsOf(env, toolset, row, encoder.dimensions);
  const deadline = started + readConfig(env).trainChunkMs;
  let progress: TrainingProgress = stored ?? {
    phase: 'retriever',
    chunk: 0,
    steps: { done: 0, total: 0 },
    epoch: 1,
    epochs: inputs.retriever.epochs,
    workMs: 0,
  };
  if (row.status === 'queued') await updateTraining(env.DB, row.id, { status: 'running' });

  while (progress.phase === 'retriever' || progress.phase === 'judge') {
    const phase = progress.phase;
    // A finished head's checkpoint is deleted with its hand-over, so a checkpoint is the current head's.
    const saved = chunk > 0 ? await readBlob(env.DB, row.id, 'checkpoint') : null;
    const resumed = saved ? unpackRun(saved) : null;
    const run = resumed?.head === phase ? resumed : startHead(phase, encoder.dimensions, inputs, options);
    await trainSegments(run, inputs, encoder, deadline);
    const workMs = progress.workMs + (Date.now() - started);
    if (!runFinished(run)) {
      // The epochs finished so far travel with the progress, so a client can draw the loss while it trains.
      const epochs =
        run.head === 'retriever'
          ? { retrieverEpochs: run.position.reports, ...stoppingOf(run, inputs) }
          : { judgeEpochs: run.position.reports };
      progress = { ...progress, ...headProgress(run), ...epochs, chunk: chunk + 1, workMs };
      await writeBlob(env.DB, row.id, 'checkpoint', packRun(run), { progress });
      await enqueueTraining(env, trainingId, chunk + 1);
      return { trainingId, chunk, phase, ...headProgress(run) };
    }
    // The head is finished: store it with the weights and move on.
    if (run.head === 'retriever') {
      const judgeSkipped =
        options.judge === false ? 'judge: false in the options' : judgeDataProblem(inputs.data.judge);
      progress = {
        ...progress,
        ...headProgress(run),
        phase: judgeSkipped ? 'evaluate' : 'judge',
        retrieverEpochs: run.position.reports,
        retrieverSteps: runProgress(run),
        ...stoppingOf(run, inputs),
        ...(judgeSkipped ? { judgeSkipped } : {}),
        workMs,
      };
      await writeBlob(
        env.DB,
        row.id,
        'weights',
        packWeights({ encoder: encoderLabel(encoder), retriever: run.weights, judge: null }),
        {
          progress,
        },
      );
    } else {
      const blob = await readBlob(env.DB, row.id, 'weights');
      if (!blob) throw new Error(`training ${row.id} lost its retriever weights`);
      const weights = unpackWeights(blob);
      progress = {
        ...progress,
        ...headProgress(run),
        phase: 'evaluate',
        judgeEpochs: run.position.reports,
        workMs,
      };
      await writeBlob(env.DB, row.id, 'weights', packWeights({ ...weights, judge: run.weights }), {
        progress,
      });
    }
    await deleteBlobs(env.DB, row.id, ['checkpoint']);
    if (Date.now() >= deadline) {
      progress = { ...progress, chunk: chunk + 1 };
      await updateTraining(env.DB, row.id, { progress });
      await enqueueTraining(env, trainingId, chunk + 1);
      return { trainingId, chunk, phase: progress.phase };
    }
  }
  const report = await evaluate(env, row, inputs, encoder, { ...progress, chunk });
  return { trainingId, chunk, phase: 'done', dev: report.dev, sha256: report.weights.sha256 };
}

async function trainToolset(payload: unknown, ctx: JobContext) {
  try {
    return await trainChunk(payload, ctx);
  } catch (err) {
    if (ctx.attempt >= MAX_ATTEMPTS)
      await updateTraining(ctx.env.DB, (payload as TrainPayload).trainingId, {
        status: 'failed',
        error: err instanceof Error ? err.message : String(err),
        finishedAt: Date.now(),
      });
    throw err;
  }
}

export const trainToolsetJob: JobKind = { kind: TRAIN_TOOLSET, run: trainToolset };
