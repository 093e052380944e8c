/**
 * Evaluations over an imported API's query set (issue 23 §4) at the edge: `POST /v1/evals {"api", "queryset", …}`
 * fanned out through the queue as method × surface × documentation groups, each query a fresh session of the mock;
 * the table (Correct Path Rate in both definitions, calls per query, the Table 7-style taxonomy) recomputed here from
 * the raw calls each run recorded, not from the stored verdicts; the 4xx problems naming the field (unknown query
 * set, a method without an API run, a gold operation a surface does not serve, another key's API and surface);
 * redelivered chunks adding no rows; the quota stopping a run within one query of it.
 */
import { env } from 'cloudflare:workers';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { correctPath } from '../../core/apis/scoring.ts';
import { baseApiSurface } from '../../core/apis/surface/base.ts';
import { ApiSuiteSchema } from '../../core/evals/api-suite.ts';
import { classifyRun } from '../../core/evals/taxonomy.ts';
import { database } from '../../db/client.ts';
import { apiEvalResults } from '../../db/schema.ts';
import { apiCatalog } from '../../edge/apis.ts';
import type { Bindings } from '../../edge/env.ts';
import { apiEvalGroupJob, launchApiEval } from '../../edge/jobs/api-eval-group.ts';
import type { JobMessage } from '../../edge/jobs/types.ts';
import { createLogger } from '../../edge/log.ts';
import { getEval } from '../../edge/stores/evaluations.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { insertApiSurface } from '../../edge/stores/surfaces.ts';
import { importTmdb, json, post, send } from './api-helpers.ts';
import { ADMIN_KEY, expectProblem, waitUntil } from './helpers.ts';

/** Four RestBench-TMDB queries (the file's first lines), with their gold paths. */
const QUERIES = [
  {
    query: 'give me the number of movies directed by Sofia Coppola',
    solution: ['GET /search/person', 'GET /person/{person_id}/movie_credits'],
  },
  {
    query: 'Who was the lead actor in the movie The Dark Knight?',
    solution: ['GET /search/movie', 'GET /movie/{movie_id}/credits'],
  },
  {
    query: 'Who directed the top-1 rated movie?',
    solution: ['GET /movie/top_rated', 'GET /movie/{movie_id}/credits'],
  },
  {
    query: 'What are the genres of the movie Titanic?',
    solution: ['GET /search/movie', 'GET /movie/{movie_id}'],
  },
];

let api: string;
let queryset: string;
let drifted: string;

interface ApiEval {
  id: string;
  kind: string;
  status: string;
  progress: { done: number; total: number };
  model: { provider: string; name: string; simulated: boolean };
  table: {
    method: string;
    surface: string;
    docs: string;
    aids: string;
    total: number;
    done: number;
    correctPath: { subsequence: number | null; set: number | null; n: number };
    success: number | null;
    callsPerQuery: number | null;
  }[];
  taxonomy: {
    rows: {
      method: string;
      surface: string;
      docs: string;
      failures: number;
      counts: Record<string, number>;
    }[];
  };
  estimate: { modelCalls: number } | null;
  spend: { modelCalls: number; overshoot: number } | null;
  stoppedFor: string | null;
}

interface Result {
  id: string;
  method: string;
  surface: string;
  docs: string;
  item: number;
  correctPath: { subsequence: boolean; set: boolean } | null;
  calls: number;
  ending: string;
  errorClass: string | null;
  links: { self: string };
}

interface ResultDetail extends Result {
  trajectory: {
    steps: { text: string; action?: string; outcome: string; observation: string }[];
    calls: { operation: string; exposed: string; status: number }[];
    goldPath: string[];
  };
}

beforeAll(async () => {
  api = await importTmdb('7');
  queryset = (
    await json<{ id: string }>(
      await post(`/v1/apis/${api}/querysets`, { name: 'RestBench head', items: QUERIES }),
      201,
    )
  ).id;
  drifted = (
    await json<{ id: string }>(
      await post(`/v1/apis/${api}/surfaces`, { seed: '5', kinds: ['rename-operation', 'rename-path'] }),
      201,
    )
  ).id;
}, 120_000);

const getJson = async <T>(path: string) => json<T>(await send(path));

async function allResults(evalId: string, query = ''): Promise<Result[]> {
  const out: Result[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: Result[]; nextCursor: string | null } = await getJson(
      `/v1/evals/${evalId}/results?limit=5${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

const pct = (x: number, n: number) => (n === 0 ? null : Math.round((1000 * x) / n) / 10);

describe('evaluations over a query set of an imported API', () => {
  it('runs methods × surfaces × docs through the queue; the table is what the recorded calls give', async () => {
    const suite = {
      api,
      queryset,
      methods: ['greedy', 'react-reflexion'],
      surfaces: [api, drifted],
      docs: ['imported', 'surface'],
      sampleSize: 3,
      maxSteps: 6,
      seed: 'api-evals',
    };
    const dry = await json<{ dryRun: true; estimate: { modelCalls: number } }>(
      await post('/v1/evals', { ...suite, dryRun: true }),
    );
    expect(dry.estimate.modelCalls).toBeGreaterThan(0);
    const launched = await json<{
      id: string;
      estimate: { modelCalls: number };
      progress: { total: number };
    }>(await post('/v1/evals', suite), 202);
    expect(launched.estimate).toEqual(dry.estimate);
    expect(launched.progress.total).toBe(2 * 2 * 2 * 3);
    const ev = await waitUntil(
      'the API evaluation',
      () => getJson<ApiEval>(`/v1/evals/${launched.id}`),
      (e) => e.status !== 'running',
    );
    expect(ev).toMatchObject({ kind: 'api', status: 'done', progress: { done: 24, total: 24 } });
    // Offline the simulator answers, and says so.
    expect(ev.model.simulated).toBe(true);
    expect(ev.table).toHaveLength(8);

    const results = await allResults(launched.id);
    expect(results).toHaveLength(24);
    expect(new Set(results.map((r) => r.id)).size).toBe(24);
    const details = await Promise.all(results.map((r) => getJson<ResultDetail>(r.links.self)));
    for (const d of details) {
      // Each verdict follows from the raw record: the calls that reached operations against the gold path.
      const recomputed = correctPath(
        d.trajectory.goldPath,
        d.trajectory.calls.map((c) => c.operation),
      );
      expect(d.correctPath).toEqual(recomputed);
      expect(d.calls).toBe(d.trajectory.steps.filter((s) => s.action !== 'Finish').length);
      expect(d.errorClass).toBe(
        classifyRun({
          correct: recomputed.subsequence,
          ending: d.ending as never,
          steps: d.trajectory.steps,
        }),
      );
    }
    for (const row of ev.table) {
      const mine = details.filter(
        (d) => d.method === row.method && d.surface === row.surface && d.docs === row.docs,
      );
      expect(mine).toHaveLength(3);
      const paths = mine.map((d) =>
        correctPath(
          d.trajectory.goldPath,
          d.trajectory.calls.map((c) => c.operation),
        ),
      );
      expect(row).toMatchObject({
        total: 3,
        done: 3,
        correctPath: {
          subsequence: pct(paths.filter((p) => p.subsequence).length, 3),
          set: pct(paths.filter((p) => p.set).length, 3),
          n: 3,
        },
        success: null, // RestBench has no gold answers
      });
      const calls = mine.reduce(
        (n, d) => n + d.trajectory.steps.filter((s) => s.action !== 'Finish').length,
        0,
      );
      expect(row.callsPerQuery).toBe(Math.round((100 * calls) / 3) / 100);
      const tax = ev.taxonomy.rows.find(
        (t) => t.method === row.method && t.surface === row.surface && t.docs === row.docs,
      );
      expect(tax?.failures).toBe(paths.filter((p) => !p.subsequence).length);
    }
    // Filters and the spend of the run.
    const onDrifted = await allResults(launched.id, `&surface=${drifted}&docs=surface`);
    expect(onDrifted).toHaveLength(6);
    expect(onDrifted.every((r) => r.surface === drifted && r.docs === 'surface')).toBe(true);
    expect(ev.spend?.modelCalls).toBeGreaterThan(0);
    expect(ev.spend?.modelCalls).toBeLessThanOrEqual(ev.estimate?.modelCalls ?? 0);
  }, 120_000);

  it('runs each aid row (the toolPool aid over the whole API) and the searches as rows of their own', async () => {
    const launched = await json<{ id: string }>(
      await post('/v1/evals', {
        api,
        queryset,
        methods: ['greedy', 'mcts'],
        mcts: { simulations: 2, k: 2, maxDepth: 4 },
        aids: [{}, { toolPool: { pool: 'all', k: 5 } }],
        sampleSize: 2,
        maxSteps: 5,
        seed: 'api-evals-aids',
      }),
      202,
    );
    const ev = await waitUntil(
      'the API evaluation with aids',
      () => getJson<ApiEval>(`/v1/evals/${launched.id}`),
      (e) => e.status !== 'running',
    );
    expect(ev).toMatchObject({ status: 'done', progress: { done: 8, total: 8 } });
    expect(ev.table.map((r) => `${r.method} ${r.aids}`)).toEqual([
      'greedy none',
      'greedy {"toolPool":{"k":5,"pool":"all","ranker":"bm25"}}',
      'mcts none',
      'mcts {"toolPool":{"k":5,"pool":"all","ranker":"bm25"}}',
    ]);
    // The searches ran (their model calls are bounded by the estimate, which counts their options).
    expect(ev.spend?.modelCalls).toBeGreaterThan(0);
    expect(ev.spend?.modelCalls).toBeLessThanOrEqual(ev.estimate?.modelCalls ?? 0);
  }, 120_000);

  it('answers 400 naming the field for an unknown query set, a method without an API run, a gold operation a surface lacks', async () => {
    const base = { api, queryset, sampleSize: 2 };
    const unknownSet = await expectProblem(
      await post('/v1/evals', { ...base, queryset: 'nope' }),
      400,
      'validation-error',
    );
    expect(unknownSet.errors).toEqual([expect.objectContaining({ pointer: '/queryset' })]);
    expect(unknownSet.detail).toContain(queryset); // names the sets it has

    const mcts = await expectProblem(
      await post('/v1/evals', { ...base, methods: ['greedy', 'mcts-no-tool-update'] }),
      400,
      'validation-error',
    );
    expect(mcts.errors).toEqual([expect.objectContaining({ pointer: '/methods/1' })]);
    expect(JSON.stringify(mcts)).toContain('method mcts-no-tool-update does not run on imported APIs');
    expect(JSON.stringify(mcts)).toContain('greedy'); // and which do

    // A stored version of the API that no longer serves GET /search/person (the gold path of item 0).
    const catalog = await apiCatalog(env as Bindings, api);
    const full = baseApiSurface(api, catalog, 'TMDB');
    const lacking = {
      ...full,
      id: 'tmdb-without-search-person',
      tools: full.tools.filter((t) => t.path !== '/search/person'),
    };
    await insertApiSurface(env as Bindings, lacking, undefined);
    const gold = await expectProblem(
      await post('/v1/evals', { ...base, surfaces: [api, lacking.id] }),
      400,
      'validation-error',
    );
    expect(gold.errors).toEqual([expect.objectContaining({ pointer: '/surfaces/1' })]);
    expect(gold.detail).toMatch(/does not serve .*item 0 \(line 1\)/);

    const unknownDocset = await expectProblem(
      await post('/v1/evals', { ...base, docs: ['imported', { docset: 'no-such-set' }] }),
      400,
      'validation-error',
    );
    expect(unknownDocset.errors).toEqual([expect.objectContaining({ pointer: '/docs/1/docset' })]);
    const pool = await expectProblem(
      await post('/v1/evals', { ...base, aids: [{}, { toolPool: { pool: 'candidates' } }] }),
      400,
      'validation-error',
    );
    // RestBench's own file lists no candidate APIs per query (DRAFT's test files do).
    expect(pool.errors).toEqual([expect.objectContaining({ pointer: '/aids/1/toolPool/pool' })]);
    const description = await expectProblem(
      await post('/v1/evals', { ...base, docs: [{ description: 'no-such-file' }] }),
      400,
      'validation-error',
    );
    expect(description.errors).toEqual([expect.objectContaining({ pointer: '/docs/0/description' })]);
    const twice = await expectProblem(
      await post('/v1/evals', { ...base, surfaces: [api, drifted, api] }),
      400,
      'validation-error',
    );
    expect(twice.errors).toEqual([expect.objectContaining({ pointer: '/surfaces/2' })]);
    // Strict bodies stay strict on both kinds of suite.
    const typo = await expectProblem(
      await post('/v1/evals', { ...base, sample: 2 }),
      400,
      'validation-error',
    );
    expect(typo.field).toBe('sample');
    const kernelTypo = await expectProblem(
      await post('/v1/evals', { surfaces: ['pc'], sample: 2 }),
      400,
      'validation-error',
    );
    expect(kernelTypo.field).toBe('sample');
  });

  it("refuses another key's API (404 naming api) and surface (400 naming it)", async () => {
    const issued = await json<{ secret: string }>(
      await send('/v1/keys', {
        method: 'POST',
        key: ADMIN_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'api-evals intruder' }),
      }),
      201,
    );
    const theirs = await expectProblem(
      await post('/v1/evals', { api, queryset, sampleSize: 1 }, issued.secret),
      404,
      'not-found',
    );
    expect(theirs.errors).toEqual([expect.objectContaining({ pointer: '/api' })]);
    // Their own API, with our drifted version of TMDB named as a surface.
    const own = (
      await json<{ id: string }>(
        await post('/v1/apis', { document: JSON.parse(JSON.stringify(TINY)) }, issued.secret),
        201,
      )
    ).id;
    const ownSet = (
      await json<{ id: string }>(
        await post(
          `/v1/apis/${own}/querysets`,
          { items: [{ query: 'list the pets', calls: [{ tool: 'listPets' }] }] },
          issued.secret,
        ),
        201,
      )
    ).id;
    const surface = await expectProblem(
      await post('/v1/evals', { api: own, queryset: ownSet, surfaces: [own, drifted] }, issued.secret),
      400,
      'validation-error',
    );
    expect(surface.errors).toEqual([expect.objectContaining({ pointer: '/surfaces/1' })]);
  });
});

/** A two-operation API of the intruder's own. */
const TINY = {
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        summary: 'List the pets',
        responses: {
          '200': {
            description: 'pets',
            content: {
              'application/json': {
                schema: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { id: { type: 'integer' }, name: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'showPet',
        summary: 'One pet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'a pet',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
  },
};

describe('API evaluation groups in chunks', () => {
  function recordingEnv(tasksPerChunk: number): { env: Bindings; sent: JobMessage[] } {
    const sent: JobMessage[] = [];
    const queue = { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue;
    return { env: { ...(env as Bindings), EVAL_CHUNK_TASKS: String(tasksPerChunk), JOBS: queue }, sent };
  }

  async function deliver(e: Bindings, m: JobMessage) {
    const job = await getJob(e, m.jobId);
    if (!job) throw new Error(`no job row ${m.jobId}`);
    return apiEvalGroupJob.run(job.payload, {
      env: e,
      jobId: job.id,
      attempt: 1,
      log: createLogger('error'),
    }) as Promise<{
      ran?: number;
      continuation?: number;
      skipped?: string;
    }>;
  }

  const rows = (evalId: string) =>
    database(env.DB)
      .select()
      .from(apiEvalResults)
      .where(eq(apiEvalResults.evalId, evalId))
      .orderBy(asc(apiEvalResults.id));

  it('runs a group as chunks, each continuation once; redeliveries add no rows', async () => {
    const { env: e, sent } = recordingEnv(1);
    const suite = ApiSuiteSchema.parse({
      api,
      queryset,
      surfaces: [drifted],
      sampleSize: 3,
      maxSteps: 4,
      seed: 'chunks',
    });
    const launch = await launchApiEval(e, suite);
    expect(sent.map((m) => m.jobId)).toEqual([`${launch.id}:0`]);
    expect(await deliver(e, sent[0] as JobMessage)).toMatchObject({ ran: 1, continuation: 1 });
    // Redelivered before its continuation ran: nothing runs twice, nothing is enqueued twice.
    expect(await deliver(e, sent[0] as JobMessage)).toMatchObject({ ran: 0 });
    expect(sent).toHaveLength(2);
    expect(await rows(launch.id)).toHaveLength(1);
    expect(await deliver(e, sent[1] as JobMessage)).toMatchObject({ ran: 1, continuation: 2 });
    expect(await deliver(e, sent[2] as JobMessage)).toMatchObject({ ran: 1 });
    for (const m of [...sent]) expect(await deliver(e, m)).toMatchObject({ skipped: 'done' });
    const stored = await rows(launch.id);
    expect(stored.map((r) => r.item)).toEqual([0, 1, 2]);
    expect((await getEval(e, launch.id))?.status).toBe('done');
  }, 60_000);

  it('refuses an estimate over the quota, and stops a run within one query of it, charging what was spent', async () => {
    const QUOTA = 20;
    const issued = await json<{ id: string; secret: string }>(
      await send('/v1/keys', {
        method: 'POST',
        key: ADMIN_KEY,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'api-evals quota', modelCallQuota: QUOTA }),
      }),
      201,
    );
    const own = (await json<{ id: string }>(await post('/v1/apis', { document: TINY }, issued.secret), 201))
      .id;
    const items = Array.from({ length: 6 }, (_, i) => ({
      query: `list the pets (${i})`,
      calls: [{ tool: 'listPets' }],
    }));
    const set = (
      await json<{ id: string }>(await post(`/v1/apis/${own}/querysets`, { items }, issued.secret), 201)
    ).id;
    // The estimate is over the quota: refused before anything runs.
    const big = await post('/v1/evals', { api: own, queryset: set, maxSteps: 20 }, issued.secret);
    await expectProblem(big, 403, 'quota-exhausted');
    const dry = await json<{ estimate: { modelCalls: number }; modelCallsLeft: number }>(
      await post('/v1/evals', { api: own, queryset: set, maxSteps: 3, dryRun: true }, issued.secret),
    );
    expect(dry).toMatchObject({ estimate: { modelCalls: 6 * 3 }, modelCallsLeft: QUOTA });

    // Two runs each within the quota, together beyond it: the second stops when a query would start with none left.
    const { env: e, sent } = recordingEnv(100);
    const owner = { id: issued.id, admin: false };
    const suite = ApiSuiteSchema.parse({ api: own, queryset: set, maxSteps: 3, seed: 'quota' });
    const a = await launchApiEval(e, suite, { owner });
    const b = await launchApiEval(e, suite, { owner });
    for (const m of sent.filter((x) => x.jobId.startsWith(a.id))) await deliver(e, m);
    for (const m of sent.filter((x) => x.jobId.startsWith(b.id))) await deliver(e, m);
    const [ea, eb] = [await getEval(e, a.id), await getEval(e, b.id)];
    expect(ea?.status).toBe('done');
    expect(eb).toMatchObject({ status: 'cancelled', stoppedFor: 'quota-exhausted' });
    const spentA = (await rows(a.id)).reduce((n, r) => n + r.modelCalls, 0);
    const spentB = (await rows(b.id)).reduce((n, r) => n + r.modelCalls, 0);
    expect((await rows(b.id)).length).toBeLessThan(6);
    const keys = await json<{ items: { id: string; modelCallsUsed: number }[] }>(
      await send('/v1/keys?limit=100', { key: ADMIN_KEY }),
    );
    expect(keys.items.find((k) => k.id === issued.id)?.modelCallsUsed).toBe(spentA + spentB);
    // At most one query's calls (maxSteps) past the quota.
    expect(spentA + spentB).toBeGreaterThanOrEqual(QUOTA);
    expect(spentA + spentB).toBeLessThanOrEqual(QUOTA + 3);
  });
});
