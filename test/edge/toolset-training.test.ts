/**
 * Training as a service (issue 14 items 3, 4, 5, 8): `POST /v1/toolsets/{id}/train` queues a `train-toolset` job
 * chain that trains the Chain-of-Tools retriever and Tool Judge over the deployment's frozen encoder (lexical
 * here); weights are versioned per toolset; `GET …/training[/{version}]` gives the report; `cotools` search and
 * `POST …/judge` use the weights. Determinism: the same seed gives the same weights hash through the queue — as
 * one chunk, as many chunks delivered by hand (TRAIN_CHUNK_MS=1, a checkpoint between every segment), and as a
 * direct core training. Bad inputs: unknown id 404, malformed JSONL line numbered, oversized 413, bad options 400,
 * untrained 409, another key's toolset 404.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { syntheticCatalog } from '../../core/retrieval/catalog.ts';
import { FUSION_WEIGHTS } from '../../core/retrieval/cotools/fusion.ts';
import { trainJudge } from '../../core/retrieval/cotools/judge.ts';
import { prepareTrainingData, TrainOptionsSchema } from '../../core/retrieval/cotools/service.ts';
import { bytesSha256, packWeights, trainRetriever } from '../../core/retrieval/cotools/training.ts';
import { embedAll } from '../../core/retrieval/dense.ts';
import { toolText } from '../../core/retrieval/text.ts';
import type { Bindings } from '../../edge/env.ts';
import { enqueueTraining, forgetRun, trainToolsetJob } from '../../edge/jobs/train-toolset.ts';
import type { JobMessage } from '../../edge/jobs/types.ts';
import { createLogger } from '../../edge/log.ts';
import { embeddingModelFor } from '../../edge/models.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { insertTraining } from '../../edge/stores/toolset-training.ts';
import { findToolset } from '../../edge/stores/toolsets.ts';
import { ADMIN_KEY, call, expectProblem, postJson as post, USER_KEY } from './helpers.ts';
import { seedTestWorld } from './world-fixture.ts';

const OTHER_KEY = 'fuzz-8';
/** Small heads so the runs take seconds. */
const SMALL = {
  seed: 'edge-train',
  retriever: { epochs: 2, intermediate: 16, lr: 0.01 },
  judge: { epochs: 2, intermediate: 8, lr: 0.01, accumulation: 1 },
};
const CATALOG = { source: 'synthetic', name: 'train me', tools: 120, seed: 'edge-catalog' };

interface Training {
  id: string;
  version: number;
  status: string;
  progress: { phase: string; chunk: number } | null;
  report: {
    dev: { n: number; top1: number; top5: number } | null;
    baseline: Record<string, { top1: number; top5: number }>;
    retriever: {
      epochs: { epoch: number; loss: number }[];
      options: Record<string, unknown>;
      stopping: {
        dev: number;
        devUnseen: number;
        bestStep: number;
        scores: { step: number; mrr: number }[];
      } | null;
      fusion: { ranker: string; weight: number; scores: { weight: number; mrr: number }[] } | null;
    };
    judge: { accuracy: number | null; heldOut: number; epochs: unknown[] } | null;
    weights: { bytes: number; sha256: string };
    timings: { chunks: number };
  } | null;
  weights: { bytes: number; sha256: string } | null;
  error: string | null;
}

async function toolset(body: unknown = CATALOG): Promise<string> {
  const res = await post('/v1/toolsets', body);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function waitForTraining(id: string, version: number, timeoutMs = 170_000): Promise<Training> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(`/v1/toolsets/${id}/training/${version}`, { key: USER_KEY });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Training;
    if (body.status === 'succeeded' || body.status === 'failed') return body;
    if (Date.now() > deadline)
      throw new Error(`training still ${body.status}: ${JSON.stringify(body.progress)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function train(id: string, body: unknown = SMALL): Promise<Training> {
  const res = await post(`/v1/toolsets/${id}/train`, body);
  expect(res.status).toBe(202);
  const run = (await res.json()) as Training;
  expect(res.headers.get('location')).toBe(`/v1/toolsets/${id}/training/${run.version}`);
  const done = await waitForTraining(id, run.version);
  expect(done.error).toBeNull();
  expect(done.status).toBe('succeeded');
  return done;
}

describe('toolset training', () => {
  it('trains through the queue, versions the weights, reports, searches with cotools and judges', async () => {
    const id = await toolset();
    // Untrained: cotools search and the judge answer 409; no training yet is a 404.
    const untrained = await expectProblem(
      await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'cotools' }),
      409,
      'conflict',
    );
    expect(untrained.detail).toMatch(/no finished training/);
    await expectProblem(await post(`/v1/toolsets/${id}/judge`, { text: 'x' }), 409, 'conflict');
    // No training yet: the list of runs is an empty page.
    expect(await (await call(`/v1/toolsets/${id}/training`, { key: USER_KEY })).json()).toEqual({
      items: [],
      nextCursor: null,
    });

    const first = await train(id);
    expect(first.version).toBe(1);
    const report = first.report;
    expect(report?.retriever.epochs.map((e) => e.epoch)).toEqual([1, 2]);
    expect(report?.retriever.epochs[1]?.loss).toBeLessThan(report?.retriever.epochs[0]?.loss as number);
    // The default preset over two whole epochs of the 194 pairs left after early stopping's split (a tenth of the
    // tools held out with their 24 pairs, a tenth of the rest: 22), scored every 10 steps and at the end.
    const retriever = report?.retriever;
    expect(retriever?.options).toMatchObject({ preset: 'default', epochs: 2, steps: 26, evalEvery: 10 });
    expect(retriever?.stopping).toMatchObject({ dev: 22, devUnseen: 24 });
    expect(retriever?.stopping?.scores.map((x) => x.step)).toEqual([0, 10, 20, 26]);
    const scores = retriever?.stopping?.scores ?? [];
    expect(scores.find((x) => x.step === retriever?.stopping?.bestStep)?.mrr).toBe(
      Math.max(...scores.map((x) => x.mrr)),
    );
    // The default preset's char fusion: λ chosen among FUSION_WEIGHTS on the early-stopping dev split.
    expect(retriever?.fusion?.ranker).toBe('char');
    expect(retriever?.fusion?.scores.map((x) => x.weight)).toEqual([...FUSION_WEIGHTS]);
    const bestFusion = Math.max(...(retriever?.fusion?.scores ?? []).map((x) => x.mrr));
    expect(retriever?.fusion?.scores.find((x) => x.weight === retriever.fusion?.weight)?.mrr).toBe(
      bestFusion,
    );
    expect(report?.dev?.n).toBe(120);
    expect(Object.keys(report?.baseline ?? {})).toEqual(['bm25', 'char']);
    expect(report?.judge?.heldOut).toBeGreaterThan(0);
    expect(report?.judge?.accuracy).toBeGreaterThan(50);
    expect(first.weights?.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.weights?.bytes).toBe(report?.weights.bytes);

    // Same seed → same weights (a second version); another seed → other weights.
    const second = await train(id);
    expect(second.version).toBe(2);
    expect(second.weights?.sha256).toBe(first.weights?.sha256);
    const third = await train(id, { ...SMALL, seed: 'another' });
    expect(third.version).toBe(3);
    expect(third.weights?.sha256).not.toBe(first.weights?.sha256);

    // The runs, newest version first, a page at a time.
    const runs = (await (await call(`/v1/toolsets/${id}/training`, { key: USER_KEY })).json()) as {
      items: Training[];
      nextCursor: string | null;
    };
    expect(runs.items.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(runs.items[0]?.weights?.sha256).toBe(third.weights?.sha256);
    const firstPage = (await (
      await call(`/v1/toolsets/${id}/training?limit=2`, { key: USER_KEY })
    ).json()) as {
      items: Training[];
      nextCursor: string;
    };
    expect(firstPage.items.map((v) => v.version)).toEqual([3, 2]);
    const rest = (await (
      await call(`/v1/toolsets/${id}/training?limit=2&cursor=${encodeURIComponent(firstPage.nextCursor)}`, {
        key: USER_KEY,
      })
    ).json()) as { items: Training[]; nextCursor: string | null };
    expect(rest).toMatchObject({ items: [{ version: 1 }], nextCursor: null });

    // cotools search on a training query's tool; a given version; an unknown version 404.
    const catalog = syntheticCatalog({ tools: 120, seed: 'edge-catalog' });
    const q = catalog.dev[0];
    const res = await post(`/v1/toolsets/${id}/search`, {
      query: q?.query,
      k: 5,
      ranker: 'cotools',
      version: 1,
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { ranker: string; results: { rank: number; score: number }[] };
    expect(out.ranker).toBe('cotools');
    expect(out.results).toHaveLength(5);
    expect(out.results[0]?.score).toBeGreaterThanOrEqual(out.results[4]?.score as number);
    await expectProblem(
      await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'cotools', version: 9 }),
      404,
      'not-found',
    );
    await expectProblem(
      await post(`/v1/toolsets/${id}/search`, { query: 'x', ranker: 'bm25', version: 1 }),
      400,
      'validation-error',
    );

    // The judge: a verdict and its probability, consistent with the > 0.5 rule.
    for (const text of [catalog.train[0]?.query as string, catalog.noTool[0] as string]) {
      const j = await post(`/v1/toolsets/${id}/judge`, { text });
      expect(j.status).toBe(200);
      const verdict = (await j.json()) as { needsTool: boolean; probability: number; version: number };
      expect(verdict.version).toBe(3);
      expect(verdict.needsTool).toBe(verdict.probability > 0.5);
    }

    // Ownership: another user key sees none of it; an admin sees it.
    await expectProblem(await call(`/v1/toolsets/${id}/training`, { key: OTHER_KEY }), 404, 'not-found');
    await expectProblem(
      await call(`/v1/toolsets/${id}/train`, {
        method: 'POST',
        key: OTHER_KEY,
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
      404,
      'not-found',
    );
    expect((await call(`/v1/toolsets/${id}/training/1`, { key: ADMIN_KEY })).status).toBe(200);
  }, 180_000); // several trainings through the queue: generous under a loaded machine

  it('gives the same weights hash as one chunk, as many hand-delivered chunks and as a direct core training', async () => {
    const id = await toolset();
    const viaQueue = await train(id);
    expect(viaQueue.report?.timings.chunks).toBe(1);

    // Many chunks: a checkpoint after every segment, each continuation delivered by hand (twice: redelivery).
    const sent: JobMessage[] = [];
    const queue = { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue;
    const e: Bindings = { ...env, TRAIN_CHUNK_MS: '1', JOBS: queue };
    const record = await findToolset(env.DB, id);
    if (!record) throw new Error('toolset vanished');
    const options = TrainOptionsSchema.parse(SMALL);
    const run = await insertTraining(env.DB, { toolsetId: id, options, data: null });
    await enqueueTraining(e, run.id);
    let delivered = 0;
    const checkpoints = async () =>
      (await env.BLOBS.list({ prefix: `trainings/${run.id}/checkpoint/` })).objects.map((o) => o.key);
    let resumedFromR2 = 0;
    while (delivered < sent.length) {
      const message = sent[delivered++] as JobMessage;
      const job = await getJob(e, message.jobId);
      const ctx = { env: e, jobId: message.jobId, attempt: 1, log: createLogger('error') };
      const { chunk } = (job?.payload ?? { chunk: 0 }) as { chunk: number };
      // Every other chunk resumes as in another isolate (or after a restart): from its R2 checkpoint, not from
      // the run this isolate handed over — both paths must give the same weights.
      if (chunk > 0 && chunk % 2 === 0) {
        forgetRun(run.id);
        expect(await checkpoints()).toContain(`trainings/${run.id}/checkpoint/${chunk}/000000`);
        resumedFromR2++;
      }
      await trainToolsetJob.run(job?.payload, ctx);
      // A chunk that stopped mid-head left one checkpoint, in parts: the next chunk's.
      const left = await checkpoints();
      for (const key of left)
        expect(key.startsWith(`trainings/${run.id}/checkpoint/${chunk + 1}/`)).toBe(true);
      // A redelivery of the same chunk changes nothing and sends nothing new.
      const before = sent.length;
      const again = (await trainToolsetJob.run(job?.payload, ctx)) as { skipped?: string };
      expect(again.skipped).toBeDefined();
      expect(sent.length).toBe(before);
    }
    expect(delivered).toBeGreaterThan(4);
    expect(resumedFromR2).toBeGreaterThan(1);
    expect(await checkpoints()).toEqual([]); // the finished run keeps no checkpoint
    const chunked = await waitForTraining(id, run.version, 1_000);
    expect(chunked.status).toBe('succeeded');
    expect(chunked.report?.timings.chunks).toBe(delivered);
    expect(chunked.weights?.sha256).toBe(viaQueue.weights?.sha256);
    expect(chunked.report?.retriever.epochs.map((x) => x.loss)).toEqual(
      viaQueue.report?.retriever.epochs.map((x) => x.loss),
    );

    // The same training in core, in one call each, packed the same way.
    const catalog = syntheticCatalog({ tools: 120, seed: 'edge-catalog' });
    const tools = catalog.tools.map(({ name, description }) => ({ name, description }));
    const data = prepareTrainingData(tools, catalog.train, catalog.dev, catalog.noTool, options.seed);
    const encoder = embeddingModelFor(env);
    const toolVectors = await embedAll(encoder, tools.map(toolText));
    const queryVectors = await embedAll(
      encoder,
      data.pairs.map((p) => p.query),
    );
    const retriever = trainRetriever(
      data.pairs.map((p, i) => ({ h: queryVectors[i] as Float32Array, tools: p.gold })),
      (i) => toolVectors[i] as Float32Array,
      encoder.dimensions,
      { ...options.retriever, seed: options.seed },
      { pool: tools.length },
    ).weights;
    const judgeVectors = await embedAll(
      encoder,
      data.judge.map((x) => x.text),
    );
    if (options.judge === false) throw new Error('judge options expected');
    const judge = trainJudge(
      data.judge.map((x, i) => ({ h: judgeVectors[i] as Float32Array, label: x.label })),
      encoder.dimensions,
      { ...options.judge, seed: `${options.seed}/judge` },
    ).weights;
    const direct = await bytesSha256(
      packWeights({ encoder: `${encoder.provider}/${encoder.model}`, retriever, judge }),
    );
    expect(direct).toBe(viaQueue.weights?.sha256);
  }, 180_000); // several trainings through the queue: generous under a loaded machine

  it('trains an uploaded toolset on training lines given in the request', async () => {
    const lines = [
      { name: 'getWeatherForecast', description: 'Weather forecast for a city' },
      { name: 'book_flight', description: 'Books a plane ticket between two airports' },
      { name: 'convertCurrency', description: 'Converts money from one currency to another' },
    ];
    const id = await toolset({
      source: 'upload',
      name: 'up',
      jsonl: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    const q = (query: string, ...tools: string[]) => JSON.stringify({ query, tools });
    const trainLines = [
      q('will it rain in Paris tomorrow', 'getWeatherForecast'),
      q('fly me to Rome', 'book_flight'),
      q('how many dollars is 20 euros', 'convertCurrency'),
      q('thanks, that was all'),
      q('the answer is 42'),
    ];
    const trainJsonl = [...trainLines, ...trainLines, ...trainLines].join('\n');
    const done = await train(id, {
      ...SMALL,
      train: trainJsonl,
      dev: q('weather in Oslo', 'getWeatherForecast'),
    });
    expect(done.report?.dev?.n).toBe(1);
    expect(done.report?.judge?.heldOut).toBe(1);
    // Without negatives the judge is skipped (and /judge says why); the retriever still trains.
    const onlyPositive = await train(id, { ...SMALL, train: trainLines.slice(0, 3).join('\n') });
    expect(onlyPositive.report?.judge).toBeNull();
    const noJudge = await expectProblem(
      await post(`/v1/toolsets/${id}/judge`, { text: 'x' }),
      409,
      'conflict',
    );
    expect(noJudge.detail).toMatch(/no negative examples/);
    expect((await post(`/v1/toolsets/${id}/search`, { query: 'rain', ranker: 'cotools' })).status).toBe(200);
  });

  it('gates the toolPool aid with the trained Tool Judge (judge: "trained"), and refuses it untrained', async () => {
    const task = (await seedTestWorld()).tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    const id = await toolset({ ...CATALOG, name: 'judge gate' });
    const solve = (judge: string) =>
      post('/v1/solve', {
        taskId: task?.id,
        surface: 's-ood',
        promptSurface: 's-ood',
        model: { provider: 'sim' },
        aids: { toolPool: { pool: id, topK: 3, judge } },
        seed: 'gate',
      });
    const refused = await expectProblem(await solve('trained'), 400, 'validation-error');
    const errors = refused.errors as { pointer: string; message: string }[];
    expect(errors.map((e) => e.pointer)).toEqual(['/aids/toolPool/judge']);
    expect(errors[0]?.message).toMatch(/no finished training/);
    await train(id);
    const gated = await solve('trained');
    expect(gated.status).toBe(200);
    const steps = ((await gated.json()) as { trajectory: { steps: unknown[] } }).trajectory.steps;
    expect(steps.length).toBeGreaterThan(0);
    expect((await solve('always')).status).toBe(200);
  });

  it('rejects unknown toolsets, malformed and oversized training lines and bad options', async () => {
    await expectProblem(await post('/v1/toolsets/nope/train', {}), 404, 'not-found');
    await expectProblem(await call('/v1/toolsets/nope/training', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await call('/v1/toolsets/nope/training/1', { key: USER_KEY }), 404, 'not-found');
    await expectProblem(await post('/v1/toolsets/nope/judge', { text: 'x' }), 404, 'not-found');
    const synthetic = await toolset();
    await expectProblem(
      await call(`/v1/toolsets/${synthetic}/training/0`, { key: USER_KEY }),
      400,
      'validation-error',
    );
    await expectProblem(
      await call(`/v1/toolsets/${synthetic}/training/7`, { key: USER_KEY }),
      404,
      'not-found',
    );
    for (const bad of [
      { retriever: { epochs: 0 } },
      { retriever: { lr: -1 } },
      { retriever: { batchSize: 1 } },
      { retriever: { magic: 1 } },
      { judge: { accumulation: 0 } },
      { judge: true },
      { retriever: { preset: 'fast' } },
      { retriever: { steps: 0 } },
      { retriever: { steps: 'many' } },
      { retriever: { warmup: 0.9 } },
      { retriever: { toolText: 'prose' } },
      { seed: '' },
      { extra: 1 },
    ])
      await expectProblem(await post(`/v1/toolsets/${synthetic}/train`, bad), 400, 'validation-error');
    const tooWide = await expectProblem(
      await post(`/v1/toolsets/${synthetic}/train`, { retriever: { intermediate: 4096 } }),
      400,
      'validation-error',
    );
    expect(tooWide.detail).toMatch(/intermediate ≤ \d+/);
    // The paper preset's D = 4 × H does not fit a Worker either: the problem names the field and the preset.
    const paper = await expectProblem(
      await post(`/v1/toolsets/${synthetic}/train`, { retriever: { preset: 'paper' } }),
      400,
      'validation-error',
    );
    expect(paper.detail).toMatch(/the paper preset's D\) gives \d+ retriever weights/);
    await expectProblem(
      await post(`/v1/toolsets/${synthetic}/train`, { train: '{"query":"x","tools":[]}' }),
      400,
      'validation-error',
    );
    await expectProblem(await post(`/v1/toolsets/${synthetic}/judge`, { text: '' }), 400, 'validation-error');
    const big = await toolset({ source: 'synthetic', name: 'big', tools: 10_001 });
    const tooBig = await expectProblem(await post(`/v1/toolsets/${big}/train`, {}), 409, 'conflict');
    expect(tooBig.detail).toMatch(/at most 10000 tools/);

    const upload = await toolset({
      source: 'upload',
      name: 'u',
      jsonl: '{"name":"a","description":"alpha"}',
    });
    await expectProblem(await post(`/v1/toolsets/${upload}/train`, {}), 400, 'validation-error');
    const malformed = await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, {
        train: '{"query":"x","tools":["a"]}\n\n{"query": 3, "tools": []}',
      }),
      400,
      'validation-error',
    );
    expect(malformed.line).toBe(3);
    expect(malformed.detail).toMatch(/body.train: line 3: query/);
    const unknownTool = await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, { train: '{"query":"x","tools":["zzz"]}' }),
      400,
      'validation-error',
    );
    expect(unknownTool.detail).toMatch(/line 1: tool "zzz" is not in the tool pool/);
    const badDev = await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, { train: '{"query":"x","tools":["a"]}', dev: 'nope' }),
      400,
      'validation-error',
    );
    expect(badDev.detail).toMatch(/body.dev: line 1: not valid JSON/);
    await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, { train: '{"query":"x","tools":[]}' }),
      400,
      'validation-error',
    );
    const many = Array.from({ length: 20_001 }, () => '{"query":"q","tools":["a"]}').join('\n');
    const over = await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, { train: many }),
      413,
      'payload-too-large',
    );
    expect(over.maxLines).toBe(20_000);
    await expectProblem(
      await post(`/v1/toolsets/${upload}/train`, { train: 'x'.repeat(1_100_000) }),
      413,
      'payload-too-large',
    );
  });

  it('lists the training routes in /openapi.json', async () => {
    const doc = (await (await call('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(doc.paths['/v1/toolsets/{id}/train']?.post).toBeDefined();
    expect(doc.paths['/v1/toolsets/{id}/training']?.get).toBeDefined();
    expect(doc.paths['/v1/toolsets/{id}/training/{version}']?.get).toBeDefined();
    expect(doc.paths['/v1/toolsets/{id}/judge']?.post).toBeDefined();
  });
});
