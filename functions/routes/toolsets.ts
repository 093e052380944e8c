/**
 * Chain-of-Tools toolsets (issue 14 §2, §5): pools of tools to search. Created from a JSON Lines upload (tools
 * `{name, description, parameters?}`, one per line; a malformed line is a 400 naming its line), from a surface's
 * tools, or from the seeded synthetic catalog (up to 100,000 tools). Search ranks a toolset's tools for a query
 * with an untrained ranker (bm25, char, dense, hybrid; dense uses the deployment's embedding model: Workers AI
 * in production, the lexical encoder locally). Rankers are built on first use and kept per isolate.
 */
import { z } from '@hono/zod-openapi';
import type { EmbeddingModel } from '../../core/models/types.ts';
import { CATALOG_CAPACITY } from '../../core/retrieval/catalog.ts';
import { ScoreFusionRanker } from '../../core/retrieval/cotools/fusion.ts';
import { type JudgeWeights, judgeTexts } from '../../core/retrieval/cotools/judge.ts';
import { encode } from '../../core/retrieval/cotools/retriever.ts';
import { resolveRetrieverOptions } from '../../core/retrieval/cotools/schedule.ts';
import {
  MAX_RETRIEVER_PARAMS,
  retrieverParams,
  type TrainOptions,
  TrainOptionsSchema,
} from '../../core/retrieval/cotools/service.ts';
import { unpackVectors } from '../../core/retrieval/cotools/training.ts';
import { embedAll, VectorRanker } from '../../core/retrieval/dense.ts';
import { HybridRanker } from '../../core/retrieval/hybrid.ts';
import { JsonlError, parseToolsJsonl, parseTrainingJsonl } from '../../core/retrieval/jsonl.ts';
import { surfaceToolPool } from '../../core/retrieval/pool.ts';
import { createRanker, UNTRAINED_RANKERS } from '../../core/retrieval/rankers.ts';
import type { Ranker, Tool } from '../../core/retrieval/types.ts';
import type { Bindings } from '../../edge/env.ts';
import { readConfig } from '../../edge/env.ts';
import { TooBusyError } from '../../edge/errors.ts';
import {
  encoderBills,
  enqueueTraining,
  type TrainingData,
  trainingEncoderCalls,
} from '../../edge/jobs/train-toolset.ts';
import { checkQuota, type Estimate, spendView } from '../../edge/metering.ts';
import { embeddingModelFor } from '../../edge/models.ts';
import {
  DurableObjectIndex,
  ensureDoIndexBuild,
  IndexRanker,
  RETRY_FAILED_BUILD_MS,
} from '../../edge/retrieval/do-index.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import { insertSpend } from '../../edge/stores/spend.ts';
import { findSurface } from '../../edge/stores/surfaces.ts';
import {
  cancelTraining,
  findTraining,
  insertTraining,
  listTrainings,
  readBlob,
  type TrainingRow,
  trainingsInFlight,
} from '../../edge/stores/toolset-training.ts';
import {
  createToolset,
  findToolset,
  listToolsets,
  loadToolsetTools,
  type ToolsetRecord,
} from '../../edge/stores/toolsets.ts';
import { trainedWeights } from '../../edge/trained-heads.ts';
import { pageAnswer, pageAnswerEach, pageParams } from '../http/keyset.ts';
import { itemsPage, namedSchema, routeModule } from '../http/openapi.ts';
import { cancelOwned, foundOr404, ProblemError } from '../http/problem.ts';
import { DryRunField, dryRunAnswer, dryRunResponse, spendFields, spendMembers } from '../schemas/spend.ts';
import { toView } from '../schemas/view.ts';

/** Most tools one upload may hold (each is a D1 row written in the request). */
export const MAX_UPLOAD_TOOLS = 5_000;
/**
 * Largest pool a dense ranker is built for inside one Worker request (embedding the pool is the cost). Larger
 * pools are served by the toolset's Durable Object index (edge/retrieval/do-index.ts), built in chunks on first
 * use; until it is ready, dense and hybrid answer 503 with its progress.
 */
export const MAX_DENSE_POOL = 5_000;

/** Most training lines one request may carry (the body limit, MAX_BODY_BYTES, applies as well). */
export const MAX_TRAIN_LINES = 20_000;
export const MAX_DEV_LINES = 5_000;
/**
 * Largest toolset a training run serves: its last chunk runs every tool through the trained tool encoder
 * (≈ 0.8 M multiply–adds per tool at H = 1,024, D = 256) and stores the pool's int8 vectors (H + 4 bytes each).
 */
export const MAX_TRAIN_POOL = 10_000;

const Name = z.string().trim().min(1).max(100);

const CreateToolset = z
  .discriminatedUnion('source', [
    z.strictObject({
      source: z.literal('upload'),
      name: Name,
      jsonl: z.string().min(1).openapi({
        description: 'JSON Lines: one `{"name", "description", "parameters"?}` object per line.',
      }),
    }),
    z.strictObject({ source: z.literal('surface'), name: Name, surface: z.string().min(1).max(64) }),
    z.strictObject({
      source: z.literal('synthetic'),
      name: Name,
      tools: z.number().int().min(1).max(100_000).default(10_000),
      seed: z.string().min(1).max(100).default('tool-catalog'),
    }),
  ])
  .openapi('CreateToolset');

const ToolView = z
  .object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('Tool');

const ToolsetView = z
  .object({
    id: z.string(),
    name: z.string(),
    source: z.enum(['upload', 'surface', 'synthetic']),
    spec: z
      .unknown()
      .openapi({ description: 'Surface id or synthetic catalog options (null for an upload).' }),
    toolCount: z.number().int(),
    createdAt: z.string(),
    links: z.record(z.string(), z.string()),
  })
  .openapi('Toolset');

const ToolsetDetail = ToolsetView.extend({
  tools: z.array(ToolView).openapi({ description: 'The first 100 tools in pool order.' }),
  training: z.object({ version: z.number().int(), status: z.string() }).nullable().openapi({
    description: 'The newest training run (GET …/training for its report), null when never trained.',
  }),
}).openapi('ToolsetDetail');

const SearchBody = z
  .strictObject({
    query: z.string().trim().min(1).max(2_000),
    k: z.number().int().min(1).max(50).default(5),
    ranker: z.enum([...UNTRAINED_RANKERS, 'cotools']).default('bm25'),
    version: z.number().int().min(1).optional().openapi({
      description:
        'With `cotools`: the training version whose weights rank (default: the newest finished one).',
    }),
  })
  .openapi('ToolSearch');

const TrainBody = namedSchema(
  TrainOptionsSchema.extend({
    train: z.string().min(1).optional().openapi({
      description:
        'Uploaded and surface toolsets: JSON Lines `{"query", "tools": [gold names]}`; a line with `"tools": []` is a text that needs no tool (a Tool Judge negative). Synthetic toolsets train on their catalog’s train split and take none.',
    }),
    dev: z.string().min(1).optional().openapi({
      description:
        'JSON Lines `{"query", "tools"}` scored for the report’s dev top-1/top-5 (synthetic: the catalog’s dev split).',
    }),
    dryRun: DryRunField,
  }),
  'TrainToolset',
);

const TrainingView = z
  .object({
    id: z.string(),
    toolsetId: z.string(),
    version: z.number().int(),
    status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    options: z.unknown(),
    progress: z.unknown().openapi({
      description:
        'Phase (retriever, judge, evaluate, done), optimiser steps done/total of the head being trained, epoch losses so far, chunks.',
    }),
    report: z.unknown().openapi({
      description:
        'When succeeded: loss per epoch of both heads, dev top-1/top-5 (and NDCG) beside bm25 and char measured in the same run, judge held-out accuracy, weight bytes and SHA-256, timings.',
    }),
    error: z.string().nullable(),
    weights: z.object({ bytes: z.number().int(), sha256: z.string() }).nullable(),
    ...spendMembers,
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    links: z.record(z.string(), z.string()),
  })
  .openapi('ToolsetTraining');

const JudgeBody = z
  .strictObject({
    text: z.string().trim().min(1).max(4_000),
    version: z.number().int().min(1).optional(),
  })
  .openapi('ToolJudgeRequest');

const JudgeResult = z
  .object({
    needsTool: z.boolean(),
    probability: z.number(),
    version: z.number().int(),
  })
  .openapi('ToolJudgeResult');

const SearchResult = z
  .object({
    ranker: z.string(),
    results: z.array(z.object({ rank: z.number().int(), score: z.number(), tool: ToolView })),
  })
  .openapi('ToolSearchResult');

const IdParam = z.object({ id: z.string().min(1).max(64) });
const VersionParam = IdParam.extend({ version: z.coerce.number().int().min(1).max(1_000_000) });

const _iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function trainingView(env: Bindings, t: TrainingRow): Promise<z.infer<typeof TrainingView>> {
  const base = `/v1/toolsets/${t.toolsetId}`;
  return toView(TrainingView, t, {
    ...spendFields(await spendView(env, 'training', t.id)),
    weights:
      t.weightsBytes !== null && t.weightsSha256 !== null
        ? { bytes: t.weightsBytes, sha256: t.weightsSha256 }
        : null,
    links: {
      self: `${base}/training/${t.version}`,
      toolset: base,
      search: `${base}/search`,
      judge: `${base}/judge`,
    },
  });
}

function jsonlProblem(field: 'train' | 'dev', err: JsonlError, max: number): ProblemError {
  if (err.reason.startsWith('more than'))
    return new ProblemError('payload-too-large', {
      detail: `body.${field} holds at most ${max} lines; line ${err.line} is one too many.`,
      extensions: { maxLines: max, line: err.line },
    });
  return new ProblemError('validation-error', {
    detail: `Invalid body.${field}: line ${err.line}: ${err.reason}`,
    errors: [{ in: 'body', field, pointer: `/${field}`, message: `line ${err.line}: ${err.reason}` }],
    extensions: { line: err.line },
  });
}

function parseLines(field: 'train' | 'dev', text: string, tools: readonly Tool[], max: number) {
  try {
    return parseTrainingJsonl(text, tools, max);
  } catch (err) {
    if (err instanceof JsonlError) throw jsonlProblem(field, err, max);
    throw err;
  }
}

function badField(field: string, pointer: string, message: string): ProblemError {
  return new ProblemError('validation-error', {
    detail: `Invalid body.${field}: ${message}`,
    errors: [{ in: 'body', field, pointer, message }],
  });
}

/** The toolset's run of that version, or a 404 problem. */
async function versionOr404(env: Bindings, record: ToolsetRecord, version: number): Promise<TrainingRow> {
  const run = await findTraining(env.DB, record.id, { version });
  if (!run)
    throw new ProblemError('not-found', {
      detail: `Toolset ${record.id} has no training version ${version}.`,
    });
  return run;
}

/**
 * A run's model-call estimate: its encoder requests when the encoder bills (edge/jobs/train-toolset.ts), from the
 * sizes its data will have (a synthetic catalog's are known from its options: two training queries per seen tool,
 * as many no-tool texts, a tenth of the judge examples held out, at most 1,000 dev queries), else 0.
 */
function trainingEstimate(
  env: Bindings,
  record: ToolsetRecord,
  data: TrainingData | null,
  options: TrainOptions,
): Estimate {
  if (!encoderBills(env)) return { modelCalls: 0 };
  let pairs: number;
  let examples: number;
  let dev: number;
  if (data === null) {
    const seen = Math.min(record.toolCount, 5_000);
    pairs = 2 * seen;
    examples = 2 * pairs;
    dev = Math.min(1_000, seen);
  } else {
    pairs = data.train.filter((q) => q.tools.length > 0).length;
    examples = data.train.length;
    dev = data.dev.length;
  }
  const heldOut = Math.min(1_000, Math.floor(examples / 10));
  return {
    modelCalls: trainingEncoderCalls(
      { pool: record.toolCount, pairs, judge: examples - heldOut, dev, heldOut },
      options,
    ),
  };
}

/** The finished run whose weights serve (the given version, or the newest finished one); 404 / 409 otherwise. */
async function servingRun(
  env: Bindings,
  record: ToolsetRecord,
  version: number | undefined,
): Promise<TrainingRow> {
  const run = await findTraining(env.DB, record.id, { version, succeeded: version === undefined });
  if (!run)
    throw version === undefined
      ? new ProblemError('conflict', {
          detail: `Toolset ${record.id} has no finished training: POST /v1/toolsets/${record.id}/train first.`,
        })
      : new ProblemError('not-found', { detail: `Toolset ${record.id} has no training version ${version}.` });
  if (run.status !== 'succeeded')
    throw new ProblemError('conflict', {
      detail: `Training version ${run.version} is ${run.status}, not finished.`,
    });
  return run;
}

interface Trained {
  ranker: Ranker;
  judge: JudgeWeights | null;
  tools: Tool[];
}

/** Trained heads of this isolate by run id (weights ≈ 6 MB and pool vectors ≈ 1 KB per tool each). */
const trainedCache = new Map<string, Trained>();
const TRAINED_CACHE_ENTRIES = 2;

async function trainedFor(env: Bindings, record: ToolsetRecord, run: TrainingRow): Promise<Trained> {
  const hit = trainedCache.get(run.id);
  if (hit) {
    trainedCache.delete(run.id);
    trainedCache.set(run.id, hit);
    return hit;
  }
  const [trained, vectors] = await Promise.all([
    trainedWeights(env, run),
    readBlob(env.DB, run.id, 'vectors'),
  ]);
  if (!vectors) throw new Error(`training ${run.id} is finished but its pool vectors are missing`);
  if (!trained.ok) throw new ProblemError('conflict', { detail: trained.reason });
  const { weights, encoder } = trained;
  const vector = new VectorRanker('cotools', [], weights.retriever.hidden, async (queries) =>
    (await embedAll(encoder, queries)).map((h) => Float32Array.from(encode(weights.retriever, 'query', h))),
  );
  for (const v of unpackVectors(vectors)) vector.index.add(v);
  const tools = await loadToolsetTools(env.DB, record);
  // The char fusion the run chose (core/retrieval/cotools/fusion.ts; λ 0 or no fusion: V_Q · V_T alone).
  const lambda = (run.report as { retriever?: { fusion?: { weight?: number } | null } } | null)?.retriever
    ?.fusion?.weight;
  const ranker: Ranker =
    lambda && lambda > 0
      ? new ScoreFusionRanker(
          'cotools',
          [
            { ranker: vector, weight: 1 },
            { ranker: (await rankerFor(env, record, 'char')).ranker, weight: lambda },
          ],
          tools.length,
        )
      : vector;
  const entry = { ranker, judge: weights.judge, tools };
  trainedCache.set(run.id, entry);
  while (trainedCache.size > TRAINED_CACHE_ENTRIES) {
    const oldest = trainedCache.keys().next().value;
    if (oldest === undefined) break;
    trainedCache.delete(oldest);
  }
  return entry;
}

function view(r: ToolsetRecord): z.infer<typeof ToolsetView> {
  const base = `/v1/toolsets/${r.id}`;
  return toView(ToolsetView, r, {
    links: {
      self: base,
      search: `${base}/search`,
      train: `${base}/train`,
      training: `${base}/training`,
      judge: `${base}/judge`,
    },
  });
}

function uploadedTools(jsonl: string): Tool[] {
  try {
    const tools = parseToolsJsonl(jsonl, MAX_UPLOAD_TOOLS);
    if (tools.length === 0) throw new JsonlError(1, 'no tools: the upload has no non-blank line');
    return tools;
  } catch (err) {
    if (!(err instanceof JsonlError)) throw err;
    if (err.reason.startsWith('more than'))
      throw new ProblemError('payload-too-large', {
        detail: `An upload holds at most ${MAX_UPLOAD_TOOLS} tools; line ${err.line} is one too many.`,
        extensions: { maxTools: MAX_UPLOAD_TOOLS, line: err.line },
      });
    throw new ProblemError('validation-error', {
      detail: `Invalid body.jsonl: line ${err.line}: ${err.reason}`,
      errors: [{ in: 'body', field: 'jsonl', pointer: '/jsonl', message: `line ${err.line}: ${err.reason}` }],
      extensions: { line: err.line },
    });
  }
}

/** The caller's toolset named by the path's `{id}`, or a 404 problem. */
function toolsetOf(
  env: Bindings,
  { id }: { id: string },
  { owner }: { owner: Owner },
): Promise<ToolsetRecord> {
  return foundOr404(findToolset(env.DB, id, owner), 'toolset', id);
}

/** Built rankers of this isolate, least recently used first out (a 100k-tool BM25 index is ≈ 30 MB). */
const rankerCache = new Map<string, { tools: Tool[]; ranker: Ranker }>();
const RANKER_CACHE_ENTRIES = 4;

async function rankerFor(env: Bindings, record: ToolsetRecord, id: (typeof UNTRAINED_RANKERS)[number]) {
  const key = `${record.id}\u0000${id}`;
  const hit = rankerCache.get(key);
  if (hit) {
    rankerCache.delete(key);
    rankerCache.set(key, hit);
    return hit;
  }
  const encoder = embeddingModelFor(env);
  const large = (id === 'dense' || id === 'hybrid') && record.toolCount > MAX_DENSE_POOL;
  const index = large ? await readyDoIndex(env, record, encoder) : null;
  const tools = await loadToolsetTools(env.DB, record);
  let ranker: Ranker;
  if (index) {
    const dense = new IndexRanker('dense', index, encoder);
    ranker =
      id === 'dense' ? dense : new HybridRanker([(await rankerFor(env, record, 'bm25')).ranker, dense]);
  } else ranker = await createRanker(id, tools, { encoder });
  const entry = { tools, ranker };
  rankerCache.set(key, entry);
  while (rankerCache.size > RANKER_CACHE_ENTRIES) {
    const oldest = rankerCache.keys().next().value;
    if (oldest === undefined) break;
    rankerCache.delete(oldest);
  }
  return entry;
}

/** The toolset's Durable Object index once built; otherwise starts (once) its build and answers 503 with progress. */
async function readyDoIndex(env: Bindings, record: ToolsetRecord, encoder: EmbeddingModel) {
  const status = await ensureDoIndexBuild(env, record, encoder);
  if (status.state === 'ready' && status.dimensions !== null)
    return new DurableObjectIndex(env, status.name, status.dimensions, status.total, status.shardSize);
  const progress = { state: status.state, done: status.done, total: status.total, error: status.error };
  const retryIn =
    status.state === 'failed'
      ? Math.max(1, Math.ceil(((status.finishedAt ?? 0) + RETRY_FAILED_BUILD_MS - Date.now()) / 1000))
      : 5;
  throw new ProblemError('unavailable', {
    detail:
      status.state === 'failed'
        ? `Building this toolset's dense index failed at ${status.done}/${status.total} tools: ${status.error}. A request after ${retryIn} s resumes it; bm25 and char answer now.`
        : `This toolset's dense index (${status.total} tools, beyond the ${MAX_DENSE_POOL} embedded inside a request) is being built: ${status.done}/${status.total} tools. Retry shortly.`,
    headers: { 'retry-after': String(retryIn) },
    extensions: { index: progress },
  });
}

export const registerToolsetRoutes = routeModule('Toolsets', 'user', (routes) => {
  const toolset = routes.on(IdParam, toolsetOf);
  const trainingVersion = routes.on(VersionParam, toolsetOf);

  routes.post(
    '/v1/toolsets',
    'Create a toolset from a JSON Lines upload, a surface or the synthetic catalog',
    {
      body: CreateToolset,
      example: { source: 'surface', name: 'the pc tools', surface: 'pc' },
      ok: [201, 'The toolset', ToolsetView],
      problems: [404],
    },
    async (c, { body, owner }) => {
      let record: ToolsetRecord;
      switch (body.source) {
        case 'upload':
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'upload',
              tools: uploadedTools(body.jsonl),
            },
            owner,
          );
          break;
        case 'surface': {
          const surface = await findSurface(c.env, body.surface);
          if (!surface)
            throw new ProblemError('not-found', {
              detail: `No surface with id ${body.surface}.`,
              errors: [{ in: 'body', field: 'surface', pointer: '/surface', message: 'unknown surface' }],
            });
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'surface',
              spec: { surface: surface.id },
              tools: surfaceToolPool(surface),
            },
            owner,
          );
          break;
        }
        case 'synthetic': {
          const spec = { seed: body.seed, tools: Math.min(body.tools, CATALOG_CAPACITY) };
          record = await createToolset(
            c.env.DB,
            {
              name: body.name,
              source: 'synthetic',
              spec,
              tools: spec.tools,
            },
            owner,
          );
          break;
        }
      }
      return c.json(view(record), 201, { location: `/v1/toolsets/${record.id}` });
    },
  );

  routes.get(
    '/v1/toolsets',
    'Toolsets, newest first; by cursor',
    itemsPage(z.object(pageParams(64)), 'A page of toolsets', ToolsetView),
    async (c, { query, owner }) => pageAnswer(c, await listToolsets(c.env.DB, query, owner), view),
  );

  toolset.get(
    '/v1/toolsets/{id}',
    'A toolset with its first 100 tools',
    { ok: [200, 'The toolset', ToolsetDetail] },
    async (c, { resource: record }) => {
      const [tools, latest] = await Promise.all([
        loadToolsetTools(c.env.DB, record),
        findTraining(c.env.DB, record.id),
      ]);
      const training = latest ? { version: latest.version, status: latest.status } : null;
      return { ...view(record), tools: tools.slice(0, 100), training };
    },
  );

  toolset.post(
    '/v1/toolsets/{id}/search',
    'Rank the toolset’s tools for a query (bm25, char, dense or hybrid)',
    {
      body: SearchBody,
      example: { query: 'load the coffee database', k: 3, ranker: 'bm25' },
      ok: [200, 'The top k tools, best first', SearchResult],
      problems: [409, 503],
    },
    async (c, { resource: record, body }) => {
      if (body.version !== undefined && body.ranker !== 'cotools')
        throw badField('version', '/version', 'a version is only for the cotools ranker');
      const { tools, ranker } =
        body.ranker === 'cotools'
          ? await trainedFor(c.env, record, await servingRun(c.env, record, body.version))
          : await rankerFor(c.env, record, body.ranker);
      const [hits = []] = await ranker.rank([body.query], body.k);
      return {
        ranker: body.ranker,
        results: hits.map((h, i) => ({ rank: i + 1, score: h.score, tool: tools[h.index] as Tool })),
      };
    },
  );

  toolset.post(
    '/v1/toolsets/{id}/train',
    'Train the toolset’s Chain-of-Tools retriever and Tool Judge (a queue job; a new weights version)',
    {
      description:
        'At most TRAININGS_PER_KEY (default 2) runs of a key are queued or running at once (beyond: 429). With an encoder on another machine (Workers AI, OpenAI) every encoder request is a model call, estimated before the run starts and charged to the key; the lexical and USE encoders run in the Worker and cost none (estimate 0).',
      body: TrainBody,
      // For a toolset made from a surface (pc): its tools are the surface's names.
      example: {
        seed: 'example',
        retriever: { epochs: 2, intermediate: 16 },
        judge: { epochs: 2, intermediate: 8 },
        train: [
          '{"query": "load the coffee database", "tools": ["LoadDB"]}',
          '{"query": "open the flights table", "tools": ["LoadDB"]}',
          '{"query": "keep only the rows of 2000-01-14", "tools": ["FilterDB"]}',
          '{"query": "only flights from ATL", "tools": ["FilterDB"]}',
          '{"query": "what was the closing price", "tools": ["GetValue"]}',
          '{"query": "read the departure time column", "tools": ["GetValue"]}',
          '{"query": "average these numbers in Python", "tools": ["PythonInterpreter"]}',
          '{"query": "who co-authored with Chao Zhang", "tools": ["NeighbourCheck"]}',
          '{"query": "thanks, that is all", "tools": []}',
          '{"query": "the answer is 42", "tools": []}',
          '{"query": "so the price went up", "tools": []}',
          '{"query": "I am done", "tools": []}',
        ].join('\n'),
      },
      ok: [202, 'The training run, queued', TrainingView],
      problems: [409],
      responses: dryRunResponse,
    },
    async (c, { resource: record, body, owner }) => {
      const { train, dev, dryRun, ...options } = body;
      const hidden = embeddingModelFor(c.env).dimensions;
      // The preset's D unless one is given (the paper's 4 × H rarely fits: say so at the field).
      const intermediate = resolveRetrieverOptions(options.retriever, hidden, 1).intermediate;
      const weightCount = retrieverParams(hidden, intermediate);
      if (weightCount > MAX_RETRIEVER_PARAMS)
        throw badField(
          'retriever.intermediate',
          '/retriever/intermediate',
          `${intermediate}${options.retriever.intermediate === undefined ? ` (the ${options.retriever.preset} preset's D)` : ''} gives ${weightCount} retriever weights over this deployment's ${hidden}-d frozen vectors; at most ${MAX_RETRIEVER_PARAMS} fit a Worker (intermediate ≤ ${Math.floor((MAX_RETRIEVER_PARAMS - hidden) / (6 * hidden))})`,
        );
      if (record.toolCount > MAX_TRAIN_POOL)
        throw new ProblemError('conflict', {
          detail: `Training serves toolsets of at most ${MAX_TRAIN_POOL} tools; this one has ${record.toolCount}. The CLI (tooldrift retrieve bench) trains on any pool.`,
        });
      let data: TrainingData | null = null;
      if (record.source === 'synthetic') {
        if (train !== undefined || dev !== undefined)
          throw badField(
            train !== undefined ? 'train' : 'dev',
            train !== undefined ? '/train' : '/dev',
            'a synthetic toolset trains on its catalog’s train and dev splits',
          );
      } else {
        if (train === undefined)
          throw badField(
            'train',
            '/train',
            'required for an uploaded or surface toolset: JSON Lines {"query", "tools"}',
          );
        const tools = await loadToolsetTools(c.env.DB, record);
        const trainLines = parseLines('train', train, tools, MAX_TRAIN_LINES);
        if (!trainLines.some((q) => q.tools.length > 0))
          throw badField('train', '/train', 'no line names a gold tool: the retriever has nothing to learn');
        data = {
          train: trainLines,
          dev: dev === undefined ? [] : parseLines('dev', dev, tools, MAX_DEV_LINES),
        };
      }
      const estimate = trainingEstimate(c.env, record, data, options);
      if (dryRun) return await dryRunAnswer(c, owner.id, estimate);
      const inFlight = await trainingsInFlight(c.env.DB, owner.id);
      const cap = readConfig(c.env).trainingsPerKey;
      if (inFlight >= cap)
        throw new TooBusyError(
          `This key has ${inFlight} trainings queued or running; at most ${cap} at once. Retry when one has finished, or cancel one (DELETE …/training/{version}).`,
          60,
          { trainingsInFlight: inFlight, limit: cap },
        );
      await checkQuota(c.env, owner.id, estimate);
      const run = await insertTraining(c.env.DB, { toolsetId: record.id, options, data }, owner);
      await insertSpend(c.env, {
        kind: 'training',
        subjectId: run.id,
        ownerId: owner.id,
        estimate: estimate.modelCalls,
      });
      await enqueueTraining(c.env, run.id, 0, owner.id);
      return c.json(await trainingView(c.env, run), 202, {
        location: `/v1/toolsets/${record.id}/training/${run.version}`,
      });
    },
  );

  toolset.get(
    '/v1/toolsets/{id}/training',
    'The training runs (progress or report), newest version first; by cursor',
    itemsPage(z.object(pageParams(64, 20, 100)), 'A page of training runs', TrainingView),
    async (c, { resource: record, query }) =>
      pageAnswerEach(c, await listTrainings(c.env.DB, record.id, query), (t) => trainingView(c.env, t)),
  );

  trainingVersion.get(
    '/v1/toolsets/{id}/training/{version}',
    'One training run by version',
    { ok: [200, 'The run', TrainingView] },
    async (c, { resource: record, params: { version } }) =>
      trainingView(c.env, await versionOr404(c.env, record, version)),
  );

  trainingVersion.delete(
    '/v1/toolsets/{id}/training/{version}',
    'Cancel a queued or running training run (its chunk stops at its next segment; no weights are kept)',
    { ok: [200, 'The run, cancelled', TrainingView], problems: [409] },
    async (c, { resource: record, params: { version } }) =>
      cancelOwned(
        () => versionOr404(c.env, record, version),
        async () => {
          const run = await versionOr404(c.env, record, version);
          if (!(await cancelTraining(c.env.DB, run.id)))
            throw new ProblemError('conflict', {
              detail: `Training version ${version} has already ended (${run.status}).`,
            });
        },
        (run) => trainingView(c.env, run),
      ),
  );

  toolset.post(
    '/v1/toolsets/{id}/judge',
    'Does this step need a tool? The trained Tool Judge (spec eq. 3–5)',
    {
      body: JudgeBody,
      example: { text: 'What was the closing price of coffee on 2000-01-14?' },
      ok: [200, 'The verdict (needsTool when probability > 0.5)', JudgeResult],
      problems: [409],
    },
    async (c, { resource: record, body }) => {
      const run = await servingRun(c.env, record, body.version);
      const { judge } = await trainedFor(c.env, record, run);
      if (!judge)
        throw new ProblemError('conflict', {
          detail: `Training version ${run.version} has no Tool Judge (${(run.report as { judgeSkipped?: string } | null)?.judgeSkipped ?? 'not trained'}).`,
        });
      const [verdict] = await judgeTexts(judge, embeddingModelFor(c.env), [body.text]);
      if (!verdict) throw new Error('the judge gave no verdict');
      return { ...verdict, version: run.version };
    },
  );
});
