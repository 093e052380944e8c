/**
 * The `train-toolset` job (issue 14 items 3–4): trains a toolset's Chain-of-Tools retriever (spec eq. 6–11) and
 * Tool Judge (eq. 3–5) over the deployment's frozen encoder (`embeddingModelFor`: the lexical encoder locally,
 * Workers AI in production), as a chain of chunk jobs.
 *
 * Phases: `retriever` → `judge` (skipped when the options say `judge: false` or there are no negatives) →
 * `evaluate` (the pool's tool vectors E_T(h); with the retriever's `fusion: "char"` — the `default` preset's — the λ
 * of the char fusion chosen on the early-stopping dev split, core/retrieval/cotools/fusion.ts; dev top-1/top-5 of
 * the ranking search serves beside bm25 and char measured in the same run, the judge's held-out accuracy) → done. A chunk works until TRAIN_CHUNK_MS (default 25 s) has passed, checked between
 * segments of a few optimiser steps; then it stores the run's exact state (core/retrieval/cotools/training.ts:
 * float64 weights and AdamW moments, packed paced) as the checkpoint of the next chunk in R2
 * (edge/stores/training-checkpoints.ts), names that chunk in `progress`, and enqueues its continuation; the next
 * chunk, when it runs in the same isolate, takes the run from memory instead of unpacking the checkpoint. Because the state is exact, where the chunks fall changes nothing: the same seed gives the
 * same weights bit for bit as one uninterrupted `trainRetriever` / `trainJudge` (tested).
 *
 * Idempotence: chunk n's job id is `train:<run>:<n>` (enqueueJob sends each once), and `progress.chunk` names the
 * chunk that may run next; a redelivered older chunk only re-sends the current continuation (a no-op when it was
 * sent). A run whose last attempt fails is marked failed with the error.
 *
 * Sharing the isolate: the optimiser steps and the early-stopping dev scores are drained through a pacer
 * (core/util/pacer.ts) that pauses after every encoder pass, and the evaluation phase paces per tool, so requests are
 * served between slices of a few tens of milliseconds however long the chunk. The inputs (a synthetic catalog is
 * ≈ 0.1–0.2 s to generate, with the early-stopping split and, once embedded, its dev vectors) are kept per isolate
 * for the run's next chunk.
 *
 * Cancellation (`DELETE …/training/{version}`) marks the run `cancelled`; the running chunk stops at its next
 * segment and no continuation runs. Spend (edge/metering.ts): with an encoder on another machine (Workers AI,
 * OpenAI) every `embed` request is a model call: each chunk checks the key's quota first (none left: the run fails
 * with `quota-exhausted`) and charges its requests after. The lexical and USE encoders run here and cost nothing.
 */

import type { EmbeddingModel } from '../../core/models/types.ts';
import { type CatalogOptions, syntheticCatalogSteps } from '../../core/retrieval/catalog.ts';
import type { CharRanker } from '../../core/retrieval/char.ts';
import {
  chooseFusionWeight,
  type FusionChoice,
  fuseHits,
  fusionDevQueriesSteps,
} from '../../core/retrieval/cotools/fusion.ts';
import { judgeVector } from '../../core/retrieval/cotools/judge.ts';
import { encode, type RetrieverTrainOptions } from '../../core/retrieval/cotools/retriever.ts';
import {
  DEV_MAX_CANDIDATES,
  DEV_MAX_QUERIES,
  type DevQuery,
  type EarlyStoppingSplit,
  type ResolvedRetrieverOptions,
  resolveRetrieverOptions,
  retrieverDevScoreSteps,
} from '../../core/retrieval/cotools/schedule.ts';
import {
  judgeDataProblem,
  type PreparedData,
  prepareTrainingData,
  type TrainOptions,
} from '../../core/retrieval/cotools/service.ts';
import {
  advanceJudgeSteps,
  advanceRetrieverSteps,
  bytesSha256,
  evaluationDue,
  type HeadRun,
  nextBatches,
  packRunSteps,
  packWeights,
  recordEvaluation,
  retrieverPlan,
  runFinished,
  runProgress,
  type ScoredStep,
  startJudgeSteps,
  startRetrieverSteps,
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
import { createPacer, drainPaced, type Pacer } from '../../core/util/pacer.ts';
import { type Bindings, readConfig } from '../env.ts';
import { chargeSpend, countingEncoder, embeddingBills, mayContinue, QUOTA_EXHAUSTED } from '../metering.ts';
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
import { deleteCheckpoints, getCheckpoint, putCheckpoint } from '../stores/training-checkpoints.ts';
import { enqueueJob } from './enqueue.ts';
import { type JobContext, type JobKind, MAX_ATTEMPTS } from './types.ts';

export const TRAIN_TOOLSET = 'train-toolset';

/** Optimiser steps per segment: the chunk's budget (and a cancellation) is checked between segments. */
const SEGMENT_STEPS = 8;
/** Dev queries the lexical baselines rank between two paces. */
const RANK_GROUP = 16;

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

export async function enqueueTraining(
  env: Bindings,
  trainingId: string,
  chunk = 0,
  ownerId: string | null = null,
) {
  const payload: TrainPayload = { trainingId, chunk };
  return enqueueJob(env, TRAIN_TOOLSET, payload, { id: trainJobId(trainingId, chunk), ownerId });
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
  /** The options the retriever run starts with (`retrieverPlan`'s: no early stopping without a split). */
  start: RetrieverTrainOptions;
  /** How tools are written for the frozen encoder (the retriever options' `toolText`). */
  text: (tool: Tool) => string;
  /** The early-stopping dev vectors, once a chunk of this isolate has embedded them (`devVectors`). */
  dev?: DevVectors;
}

/** The early-stopping dev queries and candidates as `retrieverDevScore` reads them. */
interface DevVectors {
  queries: DevQuery[];
  candidates: Float32Array[];
}

/** The inputs of the runs this isolate trained last (a run's chunks usually follow each other here). */
const inputsCache = new Map<string, RunInputs>();
const INPUTS_CACHED = 2;

/**
 * The head a chunk left, as it stored it in the checkpoint, for the run's next chunk in this isolate: that chunk
 * takes it from here instead of reading and unpacking tens of MB (a checkpoint of a 1,000-tool retriever is ≈ 50 MB,
 * whose read held the isolate for hundreds of milliseconds in one piece). Keyed by run and the chunk that may take
 * it, so a redelivered or swept chunk, or one in another isolate, reads the checkpoint as before. The state is exact
 * either way (the checkpoint is this object packed), so the weights do not depend on which path a chunk took.
 */
const runsHandedOver = new Map<string, { chunk: number; run: HeadRun }>();

function handOver(trainingId: string, chunk: number, run: HeadRun): void {
  runsHandedOver.delete(trainingId);
  runsHandedOver.set(trainingId, { chunk, run });
  for (const id of runsHandedOver.keys()) if (runsHandedOver.size > INPUTS_CACHED) runsHandedOver.delete(id);
}

function takeHandedOver(trainingId: string, chunk: number): HeadRun | null {
  const left = runsHandedOver.get(trainingId);
  runsHandedOver.delete(trainingId);
  return left?.chunk === chunk ? left.run : null;
}

/**
 * The checkpoint chunk `chunk` resumes from: its R2 object (edge/stores/training-checkpoints.ts), or for a run
 * checkpointed before those existed, its D1 parts.
 */
async function readCheckpoint(
  env: Bindings,
  trainingId: string,
  chunk: number,
  pacer: Pacer,
): Promise<Uint8Array | null> {
  return (
    (await getCheckpoint(env, trainingId, chunk, () => pacer.pace())) ??
    (await readBlob(env.DB, trainingId, 'checkpoint', () => pacer.pace()))
  );
}

/** Deletes a run's checkpoints, in R2 and (written before) in D1. */
async function dropCheckpoints(env: Bindings, trainingId: string): Promise<void> {
  await deleteCheckpoints(env, trainingId);
  await deleteBlobs(env.DB, trainingId, ['checkpoint']);
}

/** Forgets what this isolate keeps of a run (it ended, failed or was cancelled). */
export function forgetRun(trainingId: string): void {
  inputsCache.delete(trainingId);
  runsHandedOver.delete(trainingId);
}

async function inputsOf(
  env: Bindings,
  toolset: ToolsetRecord,
  row: TrainingRow,
  hidden: number,
  pacer: Pacer,
): Promise<RunInputs> {
  const cached = inputsCache.get(row.id);
  if (cached) return cached;
  const inputs = await buildInputs(env, toolset, row, hidden, pacer);
  inputsCache.set(row.id, inputs);
  for (const id of inputsCache.keys()) if (inputsCache.size > INPUTS_CACHED) inputsCache.delete(id);
  return inputs;
}

async function buildInputs(
  env: Bindings,
  toolset: ToolsetRecord,
  row: TrainingRow,
  hidden: number,
  pacer: Pacer,
): Promise<RunInputs> {
  const options = row.options as TrainOptions;
  let tools: Tool[];
  let data: PreparedData;
  if (toolset.source === 'synthetic') {
    const catalog = await drainPaced(syntheticCatalogSteps(toolset.spec as CatalogOptions), pacer);
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
  return { tools, data, split, retriever: resolved, start: plan.options, text: TOOL_TEXT[resolved.toolText] };
}

const retrieverOptions = (options: TrainOptions) => ({ ...options.retriever, seed: options.seed });

async function startHead(
  phase: 'retriever' | 'judge',
  hidden: number,
  inputs: RunInputs,
  options: TrainOptions,
  pacer: Pacer,
): Promise<HeadRun> {
  if (phase === 'retriever')
    return drainPaced(
      startRetrieverSteps(hidden, inputs.split?.train.length ?? inputs.data.pairs.length, inputs.start),
      pacer,
    );
  if (options.judge === false) throw new Error('judge phase without judge options');
  return drainPaced(
    startJudgeSteps(hidden, inputs.data.judge.length, { ...options.judge, seed: `${options.seed}/judge` }),
    pacer,
  );
}

/** The early-stopping dev queries and candidates through the frozen encoder (once per run and isolate). */
async function devVectors(inputs: RunInputs, encoder: EmbeddingModel): Promise<DevVectors> {
  if (inputs.dev) return inputs.dev;
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
  inputs.dev = {
    queries: pairs.map((p, k) => ({
      h: qv[k] as Float32Array,
      gold: p.gold.map((t) => slot.get(t) as number),
      unseen: held[k]?.unseen === true,
    })),
    candidates: cv,
  };
  return inputs.dev;
}

/**
 * Runs segments of the head (and its early-stopping scores) until it finishes, the budget is spent or the run was
 * cancelled (checked between segments); false when it was cancelled.
 */
async function trainSegments(
  run: HeadRun,
  inputs: RunInputs,
  encoder: EmbeddingModel,
  deadline: number,
  pacer: Pacer,
  cancelled: () => Promise<boolean>,
): Promise<boolean> {
  do {
    if (await cancelled()) return false;
    if (run.head === 'retriever' && evaluationDue(run)) {
      const dev = await devVectors(inputs, encoder);
      // A score encodes every dev query and candidate (up to 2,500 encoder passes): paced per pass.
      recordEvaluation(
        run,
        await drainPaced(retrieverDevScoreSteps(run.weights, dev.queries, dev.candidates), pacer),
      );
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
      await drainPaced(
        advanceRetrieverSteps(
          run,
          batches.map((b) =>
            b.map((i) => ({
              h: queryVec.get(i) as Float32Array,
              tools: pairOf(i)?.gold as number[],
            })),
          ),
          (t) => toolVec.get(t) as Float32Array,
        ),
        pacer,
      );
    } else {
      const ids = [...new Set(batches.flat())];
      const vs = await embedAll(
        encoder,
        ids.map((i) => inputs.data.judge[i]?.text as string),
      );
      const vec = new Map(ids.map((id, k) => [id, vs[k] as Float32Array]));
      await drainPaced(
        advanceJudgeSteps(
          run,
          batches.map((b) =>
            b.map((i) => ({ h: vec.get(i) as Float32Array, label: inputs.data.judge[i]?.label as 0 | 1 })),
          ),
        ),
        pacer,
      );
    }
  } while (!runFinished(run) && Date.now() < deadline);
  return true;
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
  pacer: Pacer,
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
      await pacer.pace();
    }
  }
  // `fusion: "char"` (core/retrieval/cotools/fusion.ts): λ chosen on the early-stopping dev split, as the CLI does.
  const char = (await createRanker('char', inputs.tools, { encoder })) as CharRanker;
  let fusion: ({ ranker: 'char' } & FusionChoice) | null = null;
  if (inputs.retriever.fusion === 'char' && inputs.split) {
    const split = inputs.split;
    const texts = [...split.dev, ...split.devUnseen].map(
      (i) => (inputs.data.pairs[i] as PreparedData['pairs'][number]).query,
    );
    const queries = await drainPaced(
      fusionDevQueriesSteps(
        weights.retriever,
        await devVectors(inputs, encoder),
        texts,
        split.candidates,
        char,
        inputs.tools.length,
      ),
      pacer,
    );
    fusion = { ranker: 'char', ...chooseFusionWeight(queries) };
  }
  const pool = inputs.tools.length;
  const { dev } = inputs.data;
  const golds = dev.map((q) => new Set(q.gold));
  let devScores = null;
  const baseline: Record<string, unknown> = {};
  if (dev.length > 0) {
    const qh = await embedAll(
      encoder,
      dev.map((q) => q.query),
    );
    const hits = [];
    for (const [k, h] of qh.entries()) {
      const v = Float32Array.from(encode(weights.retriever, 'query', h));
      if (fusion && fusion.weight > 0) {
        const parts = [
          { hits: await index.query(v, pool), weight: 1 },
          { hits: char.search((dev[k] as PreparedData['dev'][number]).query, pool), weight: fusion.weight },
        ];
        hits.push(fuseHits(parts, pool, 10));
      } else hits.push(await index.query(v, 10));
      await pacer.pace();
    }
    devScores = scoreRankings(
      hits.map((hs) => hs.map((x) => x.index)),
      golds,
    );
    // The untrained lexical rankers, measured in the same run (a trained retriever must beat them).
    for (const id of ['bm25', 'char'] as const) {
      const ranker = id === 'char' ? char : await createRanker(id, inputs.tools, { encoder });
      await pacer.pace();
      const ranked = [];
      for (let at = 0; at < dev.length; at += RANK_GROUP) {
        ranked.push(
          ...(await ranker.rank(
            dev.slice(at, at + RANK_GROUP).map((q) => q.query),
            10,
          )),
        );
        await pacer.pace();
      }
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
    for (const [i, h] of hs.entries()) {
      if (judgeVector(weights.judge, h).needsTool === (held[i]?.label === 1)) correct++;
      await pacer.pace();
    }
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
      fusion,
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
  forgetRun(row.id);
  await writeBlob(
    env.DB,
    row.id,
    'vectors',
    pack.bytes,
    {
      status: 'succeeded',
      progress: done,
      report,
      weightsBytes: blob.length,
      weightsSha256: sha,
      finishedAt: Date.now(),
    },
    () => pacer.pace(),
  );
  await dropCheckpoints(env, row.id);
  return report;
}

/** Whether the encoder runs elsewhere and each request is billed (Workers AI, OpenAI), not on this isolate. */
export function encoderBills(env: Bindings): boolean {
  return embeddingBills(readConfig(env).embeddingProvider);
}

/**
 * The most encoder requests a run makes (its model-call estimate when the encoder bills, else 0), one request per
 * 256 texts (`embedAll`):
 * - the retriever's step budget (schedule.ts, resolved for the pairs: the `default` preset's `auto` budget of up to
 *   6,000 steps, or `paper`'s whole epochs) in segments of SEGMENT_STEPS optimiser steps, each embedding its
 *   batches' queries and gold tools — plus one segment cut short per epoch end and per early-stopping score;
 * - early stopping's dev queries (at most 2 × DEV_MAX_QUERIES) and candidates (at most DEV_MAX_CANDIDATES), counted
 *   once per score (a chunk embeds them once and its isolate keeps them for the run's next chunks: an upper bound);
 * - the judge's epochs in segments likewise (its examples);
 * - the evaluation's pool, dev queries and held-out judge examples.
 */
export function trainingEncoderCalls(
  counts: { pool: number; pairs: number; judge: number; dev: number; heldOut: number },
  options: TrainOptions,
): number {
  const requests = (texts: number) => Math.ceil(texts / 256);
  // The budget and the scoring interval do not depend on the vectors' width (only `intermediate` does).
  const r = resolveRetrieverOptions(retrieverOptions(options), 1, counts.pairs);
  const scores = r.patience > 0 && counts.pairs >= 10 ? Math.floor(r.steps / r.evalEvery) + 2 : 0;
  const retrieverSegments = Math.ceil(r.steps / SEGMENT_STEPS) + r.epochs + scores;
  const retriever = retrieverSegments * 2 * requests(SEGMENT_STEPS * r.accumulation * r.batchSize);
  const devScores =
    scores *
    (requests(Math.min(2 * DEV_MAX_QUERIES, counts.pairs)) +
      requests(Math.min(DEV_MAX_CANDIDATES, counts.pool)));
  let judge = 0;
  if (options.judge !== false) {
    const o = options.judge;
    const perSegment = SEGMENT_STEPS * o.accumulation;
    const segments = o.epochs * (Math.ceil(Math.ceil(counts.judge / o.batchSize) / perSegment) + 1);
    judge = segments * requests(perSegment * o.batchSize);
  }
  return (
    retriever + devScores + judge + requests(counts.pool) + requests(counts.dev) + requests(counts.heldOut)
  );
}

async function trainChunk(payload: unknown, ctx: JobContext) {
  const { env } = ctx;
  const { trainingId, chunk } = payload as TrainPayload;
  const started = Date.now();
  const row = await getTraining(env.DB, trainingId);
  if (!row) {
    // Its toolset was deleted (the rows went with it): what it kept in R2 goes now.
    forgetRun(trainingId);
    await deleteCheckpoints(env, trainingId);
    return { trainingId, chunk, skipped: 'deleted' };
  }
  if (row.status === 'succeeded' || row.status === 'failed' || row.status === 'cancelled') {
    forgetRun(trainingId);
    return { trainingId, chunk, skipped: row.status };
  }
  const stored = row.progress as TrainingProgress | null;
  const expected = stored?.chunk ?? 0;
  if (chunk !== expected) {
    // A redelivery of a chunk that already handed over: make sure its continuation was sent, do nothing else.
    if (chunk < expected) await enqueueTraining(env, trainingId, expected, row.ownerId);
    return { trainingId, chunk, skipped: 'stale', next: expected };
  }
  const toolset = await findToolset(env.DB, row.toolsetId);
  if (!toolset) return { trainingId, chunk, skipped: 'toolset deleted' };
  const spend = { kind: 'training' as const, id: row.id, ownerId: row.ownerId };
  const bills = encoderBills(env);
  if (bills && !(await mayContinue(env, row.ownerId))) {
    await updateTraining(env.DB, row.id, {
      status: 'failed',
      error: `${QUOTA_EXHAUSTED}: the key's model-call quota ran out`,
      finishedAt: Date.now(),
    });
    await dropCheckpoints(env, row.id);
    return { trainingId, chunk, skipped: QUOTA_EXHAUSTED };
  }
  const encoder = countingEncoder(embeddingModelFor(env));
  try {
    return await trainWith(ctx, row, toolset, encoder, chunk, started);
  } finally {
    if (bills) await chargeSpend(env, spend, encoder.requests);
  }
}

async function trainWith(
  ctx: JobContext,
  row: TrainingRow,
  toolset: ToolsetRecord,
  encoder: EmbeddingModel,
  chunk: number,
  started: number,
) {
  const { env } = ctx;
  const trainingId = row.id;
  const options = row.options as TrainOptions;
  const pacer = createPacer();
  const inputs = await inputsOf(env, toolset, row, encoder.dimensions, pacer);
  const deadline = started + readConfig(env).trainChunkMs;
  let progress: TrainingProgress = (row.progress as TrainingProgress | null) ?? {
    phase: 'retriever',
    chunk: 0,
    steps: { done: 0, total: 0 },
    epoch: 1,
    epochs: inputs.retriever.epochs,
    workMs: 0,
  };
  if (row.status === 'queued') await updateTraining(env.DB, row.id, { status: 'running' });
  const cancelled = async () => (await getTraining(env.DB, trainingId))?.status === 'cancelled';

  while (progress.phase === 'retriever' || progress.phase === 'judge') {
    const phase = progress.phase;
    // A finished head's checkpoint is deleted with its hand-over, so a checkpoint is the current head's.
    const kept = chunk > 0 ? takeHandedOver(trainingId, chunk) : null;
    const saved = chunk > 0 && !kept ? await readCheckpoint(env, row.id, chunk, pacer) : null;
    const resumed = kept ?? (saved ? unpackRun(saved) : null);
    const run =
      resumed?.head === phase ? resumed : await startHead(phase, encoder.dimensions, inputs, options, pacer);
    if (!(await trainSegments(run, inputs, encoder, deadline, pacer, cancelled))) {
      forgetRun(trainingId);
      await dropCheckpoints(env, row.id);
      return { trainingId, chunk, skipped: 'cancelled' };
    }
    const workMs = progress.workMs + (Date.now() - started);
    if (!runFinished(run)) {
      // The epochs finished so far travel with the progress, so a client can draw the loss while it trains.
      const epochs =
        run.head === 'retriever'
          ? { retrieverEpochs: run.position.reports, ...stoppingOf(run, inputs) }
          : { judgeEpochs: run.position.reports };
      progress = { ...progress, ...headProgress(run), ...epochs, chunk: chunk + 1, workMs };
      const checkpoint = await drainPaced(packRunSteps(run), pacer);
      await putCheckpoint(env, row.id, chunk + 1, checkpoint, () => pacer.pace());
      await updateTraining(env.DB, row.id, { progress });
      await deleteCheckpoints(env, row.id, chunk + 1);
      handOver(trainingId, chunk + 1, run);
      await enqueueTraining(env, trainingId, chunk + 1, row.ownerId);
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
        { progress },
        () => pacer.pace(),
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
      await writeBlob(
        env.DB,
        row.id,
        'weights',
        packWeights({ ...weights, judge: run.weights }),
        { progress },
        () => pacer.pace(),
      );
    }
    await dropCheckpoints(env, row.id);
    if (Date.now() >= deadline) {
      progress = { ...progress, chunk: chunk + 1 };
      await updateTraining(env.DB, row.id, { progress });
      await enqueueTraining(env, trainingId, chunk + 1, row.ownerId);
      return { trainingId, chunk, phase: progress.phase };
    }
  }
  const report = await evaluate(env, row, inputs, encoder, { ...progress, chunk }, pacer);
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
