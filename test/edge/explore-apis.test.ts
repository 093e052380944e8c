/**
 * DRAFT and STE on imported APIs at the edge (issue 23 §2–3): `POST /v1/draft/runs` and `POST /v1/ste/runs` name
 * an API surface (the API's id, or a drifted version's) and explore its operations through the queue, one Durable
 * Object per (run, tool), the explorers' calls answered by the API's seeded mock through the session step. The
 * finished documentation set is tagged with its API, renders like any set and is accepted as an API evaluation's
 * documentation aid; STE's held-out test queries never become exemplars; bad input names the field; a key with
 * quota 0 starts nothing. Models: the simulated policy (numbers describe the simulator).
 */
import { env } from 'cloudflare:workers';
import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseApiSurface } from '../../core/apis/surface/base.ts';
import { apiToolList } from '../../core/apis/surface/docs.ts';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { docsetDescriptions } from '../../core/draft/api.ts';
import { resolveDraftOptions } from '../../core/draft/config.ts';
import type { DocSet } from '../../core/draft/docset.ts';
import { initialDocSet } from '../../core/draft/docset.ts';
import { apiSurfaceFingerprint } from '../../core/draft/follow.ts';
import { ApiSuiteSchema, checkApiSuite } from '../../core/evals/api-suite.ts';
import { heldOutKeys, heldOutTest } from '../../core/ste/held-out.ts';
import { PC_SURFACE } from '../../core/surfaces/builtin.ts';
import toolTestText from '../../data/apis/ste/ft_datasets/tool_test.json?raw';
import apiListText from '../../data/apis/ste/tool_metadata/API_list.json?raw';
import { database } from '../../db/client.ts';
import { draftRuns, steExemplars, steRuns, steTrials } from '../../db/schema.ts';
import { apiCatalog } from '../../edge/apis.ts';
import { runScheduledTick } from '../../edge/jobs/scheduled.ts';
import { createLogger } from '../../edge/log.ts';
import { saveDocset } from '../../edge/stores/draft.ts';
import yamlText from '../fixtures/apis/library.openapi.yaml?raw';
import { steText } from './api-data.ts';
import { importTmdb, json, post, send } from './api-helpers.ts';
import { ADMIN_KEY, expectProblem } from './helpers.ts';

interface DraftRun {
  id: string;
  status: string;
  surface: string;
  docsSurface: string;
  docsetId: string | null;
  progress: { tools: number; done: number; modelCalls: number };
  estimate: { modelCalls: number } | null;
  tools: { key: string; status: string; stop: string | null }[];
}

interface DocsetJson extends DocSet {
  id: string;
  flagged: { key: string; stop: string; flags: string[]; current: boolean }[];
}

interface SteRun {
  id: string;
  status: string;
  config: { heldOutQueries?: number; tools: string[] };
  progress: { tools: number; toolsDone: number; trialsDone: number; trialsTotal: number; exemplars: number };
  tools: { tool: string; status: string; kept: number; dropped: number; exemplars: number }[];
}

const CRON = '*/5 * * * *';
const log = createLogger('error');

/** Fast settings: one iteration, the weight-free encoder, whole tools per alarm. */
const DRAFT_FAST = { iterations: 1, encoder: 'lexical', seed: 'edge-api' } as const;

async function until<T extends { status: string }>(path: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await json<T>(await send(path));
    if (!['queued', 'running', 'finalizing'].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`${path} still ${JSON.stringify(body).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function importLibrary(key?: string): Promise<string> {
  const res = await send('/v1/apis?seed=7&title=Library', {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: yamlText,
    ...(key ? { key } : {}),
  });
  return (await json<{ id: string }>(res, 201)).id;
}

async function operationNames(api: string): Promise<string[]> {
  return (await json<{ operations: { name: string }[] }>(await send(`/v1/apis/${api}`))).operations.map(
    (o) => o.name,
  );
}

async function issueKey(name: string, modelCallQuota?: number): Promise<string> {
  const res = await post(
    '/v1/keys',
    { name, ...(modelCallQuota === undefined ? {} : { modelCallQuota }) },
    ADMIN_KEY,
  );
  return (await json<{ secret: string }>(res, 201)).secret;
}

/** The held-out keys a run stores with its configuration (the view shows their count). */
async function storedHeldOut(runId: string): Promise<string[]> {
  const [row] = await database(env.DB).select().from(steRuns).where(eq(steRuns.id, runId));
  return (row?.config as { heldOut?: string[] } | undefined)?.heldOut ?? [];
}

let tmdb: string;
let library: string;

beforeAll(async () => {
  [tmdb, library] = [await importTmdb('explore'), await importLibrary()];
}, 120_000);

describe('DRAFT on an imported API', () => {
  it('documents every served operation of a small API through the queue, with examples that worked and flags', async () => {
    const created = await json<DraftRun>(
      await post('/v1/draft/runs', { surface: library, tools: 'all', chunkSteps: 50, options: DRAFT_FAST }),
      202,
    );
    const ops = await operationNames(library);
    expect(created).toMatchObject({ surface: library, docsSurface: library });
    expect(created.progress.tools).toBe(ops.length);
    expect(created.estimate?.modelCalls).toBeGreaterThan(0);
    const run = await until<DraftRun>(`/v1/draft/runs/${created.id}`, 150_000);
    expect(run.status).toBe('succeeded');
    expect(run.progress.done).toBe(ops.length);
    expect(run.progress.modelCalls).toBeGreaterThan(0);

    const set = await json<DocsetJson>(await send(`/v1/docsets/${run.docsetId}`));
    expect(set.api).toBe(library);
    expect(set.simulated).toBe(true);
    expect(set.source).toEqual({ docs: library, server: library });
    // One entry per served operation, each documenting its route and parameters.
    expect(set.tools.map((t) => t.key).sort()).toEqual([...ops].sort());
    for (const t of set.tools) expect(t.doc.route).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \//);
    const withExample = set.tools.filter((t) => t.doc.example !== undefined);
    expect(withExample.length).toBeGreaterThan(0);
    // An example is a call that worked: never on a tool no exploration succeeded with, and the mock accepts it.
    for (const t of withExample) expect(t.stop).not.toBe('no-success');
    const session = await json<{ id: string }>(await post('/v1/sessions', { api: library }), 201);
    let replayed = 0;
    for (const t of withExample) {
      const r = await post(`/v1/sessions/${session.id}/tools/${t.doc.name}`, t.doc.example);
      const answer = await json<{ response: { status: number } }>(r);
      if (answer.response.status < 400) replayed++;
    }
    expect(replayed).toBeGreaterThan(0);
    // Tools never confirmed by the server are flagged, in every rendering.
    const unconfirmed = set.tools.filter((t) => t.stop === 'no-success').map((t) => t.key);
    expect(set.flagged.filter((f) => f.stop === 'no-success').map((f) => f.key)).toEqual(unconfirmed);
    for (const format of ['prompt', 'openapi', 'json-schema']) {
      const rendered = await json<{ format: string; simulated: boolean; flagged: unknown[] }>(
        await send(`/v1/docsets/${run.docsetId}?format=${format}`),
      );
      expect(rendered).toMatchObject({ format, simulated: true });
      expect(rendered.flagged).toEqual(set.flagged);
    }
    const prompt = await json<{ text: string }>(await send(`/v1/docsets/${run.docsetId}?format=prompt`));
    expect(prompt.text.split('\n')).toHaveLength(ops.length);
    const diff = await json<{ against: string; tools: unknown[] }>(
      await send(`/v1/docsets/${run.docsetId}/diff`),
    );
    expect(diff.against).toBe('source');
  });

  it('documents all 54 TMDB operations through the queue; the set is an API evaluation’s documentation aid', async () => {
    const created = await json<DraftRun>(
      await post('/v1/draft/runs', {
        surface: tmdb,
        tools: 'all',
        chunkSteps: 50,
        options: { ...DRAFT_FAST, setupCalls: 1 },
      }),
      202,
    );
    expect(created.progress.tools).toBe(54);
    const run = await until<DraftRun>(`/v1/draft/runs/${created.id}`, 280_000);
    expect(run.status).toBe('succeeded');
    expect(run.tools.filter((t) => t.status === 'succeeded')).toHaveLength(54);
    const set = await json<DocsetJson>(await send(`/v1/docsets/${run.docsetId}`));
    expect(set.api).toBe(tmdb);
    expect(set.tools).toHaveLength(54);
    expect(new Set(set.tools.map((t) => t.operation)).size).toBe(54);
    const explored = set.tools.filter((t) => t.stop !== 'not-explored');
    expect(explored).toHaveLength(54);
    expect(set.tools.filter((t) => t.doc.example !== undefined).length).toBeGreaterThan(5);
    expect(set.flagged.length).toBeGreaterThan(0);

    // The documentation aid `{docset: id}` of an API suite: accepted for this API, refused for another.
    const suite = ApiSuiteSchema.parse({ api: tmdb, queryset: 'q', docs: [{ docset: run.docsetId }] });
    const catalog = await apiCatalog(env, tmdb);
    const base = baseApiSurface(tmdb, catalog);
    const ctx = {
      querysets: new Map([['q', { items: [] }]]),
      surfaces: new Map([[tmdb, base]]),
      docsets: new Map([[run.docsetId as string, { api: set.api }]]),
    };
    expect(checkApiSuite(suite, ctx)).toEqual([]);
    const other = ApiSuiteSchema.parse({ api: library, queryset: 'q', docs: [{ docset: run.docsetId }] });
    const refused = checkApiSuite(other, { ...ctx, surfaces: new Map() });
    expect(refused.map((p) => p.pointer)).toContain('/docs/0/docset');
    // The agent's tool list with the set's refined descriptions: every operation listed, the rewrites in it.
    const list = apiToolList(base, { descriptions: docsetDescriptions(set) });
    expect(list.split('\n')).toHaveLength(55);
    const rewritten = set.tools.find(
      (t) => t.stop !== 'not-explored' && t.doc.description !== t.versions[0]?.doc.description,
    );
    expect(rewritten).toBeDefined();
    expect(list).toContain(rewritten?.doc.description.split('\n')[0]?.trim().slice(0, 40));
  });

  it('follows a drift schedule of TMDB: the operations the drift changed are re-documented from the last set', async () => {
    const drifted = await json<{ id: string }>(
      await post(`/v1/apis/${tmdb}/surfaces`, { seed: 'follow', kinds: ['rename-params'] }),
      201,
    );
    const surface = (await json<{ surface: ApiSurface }>(await send(`/v1/surfaces/${drifted.id}`))).surface;
    const base = baseApiSurface(tmdb, await apiCatalog(env, tmdb));
    const [before, after] = [apiSurfaceFingerprint(base), apiSurfaceFingerprint(surface)];
    const changed = base.tools.find((t) => before[t.operation] !== after[t.operation])!;
    const same = base.tools.find((t) => before[t.operation] === after[t.operation])!;
    const watch = await json<{ id: string; docsSurface: string }>(
      await post('/v1/draft/watches', {
        schedule: {
          id: 'tmdb-follow',
          stages: [
            { surface: tmdb, effectiveFrom: '2020-01-01' },
            { surface: drifted.id, effectiveFrom: '2040-01-01' },
          ],
        },
        tools: [changed.name, same.name],
        options: DRAFT_FAST,
        chunkSteps: 50,
      }),
      201,
    );
    expect(watch.docsSurface).toBe(tmdb);
    const runsOf = () =>
      database(env.DB)
        .select()
        .from(draftRuns)
        .where(like(draftRuns.trigger, `watch:${watch.id}:%`))
        .orderBy(draftRuns.createdAt);
    await runScheduledTick(CRON, Date.parse('2030-06-01T00:00:00Z'), env, log);
    let runs = await runsOf();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ serverSurface: tmdb, docsSurface: tmdb, parentDocset: null });
    expect((runs[0]!.config as { tools: string[] }).tools.sort()).toEqual([changed.name, same.name].sort());
    const first = await until<DraftRun>(`/v1/draft/runs/${runs[0]!.id}`, 150_000);
    expect(first.status).toBe('succeeded');

    // The drifted version takes over: only the operation it changed is re-documented, continuing the first set.
    await runScheduledTick(CRON, Date.parse('2040-01-01T00:05:00Z'), env, log);
    await runScheduledTick(CRON, Date.parse('2040-01-01T00:10:00Z'), env, log);
    runs = await runsOf();
    expect(runs).toHaveLength(2);
    expect(runs[1]).toMatchObject({ serverSurface: drifted.id, parentDocset: first.docsetId });
    expect((runs[1]!.config as { tools: string[] }).tools).toEqual([changed.name]);
    const second = await until<DraftRun>(`/v1/draft/runs/${runs[1]!.id}`, 150_000);
    expect(second.status).toBe('succeeded');
    const set = await json<DocsetJson>(await send(`/v1/docsets/${second.docsetId}`));
    expect(set.api).toBe(tmdb);
    expect(set.parent).toBe(first.docsetId);
    const redone = set.tools.find((t) => t.key === changed.name)!;
    const kept = set.tools.find((t) => t.key === same.name)!;
    const firstSet = await json<DocsetJson>(await send(`/v1/docsets/${first.docsetId}`));
    expect(redone.versions.length).toBeGreaterThan(
      firstSet.tools.find((t) => t.key === changed.name)!.versions.length,
    );
    expect(kept.versions).toEqual(firstSet.tools.find((t) => t.key === same.name)!.versions);
  });

  it('refuses an unknown surface, another key’s API, a foreign docs surface or docset, naming the field', async () => {
    const other = await issueKey('other-api-owner');
    const foreign = await importLibrary(other);
    for (const [body, field] of [
      [{ surface: 'no-such-api' }, 'surface'],
      [{ surface: foreign }, 'surface'],
      [{ surface: tmdb, docsSurface: library }, 'docsSurface'],
      [{ surface: tmdb, docsSurface: 'pc' }, 'docsSurface'],
      [{ surface: 's-in', docsSurface: tmdb }, 'docsSurface'],
      [{ surface: tmdb, tools: ['LoadDB'] }, 'tools'],
      [{ surface: tmdb, api: tmdb }, 'api'],
    ] as const) {
      const problem = await expectProblem(await post('/v1/draft/runs', body), 400, 'validation-error');
      expect(JSON.stringify(problem.errors), JSON.stringify(body)).toContain(`"${field}"`);
    }
    // A documentation set of kernel tools cannot be continued on an API.
    const kernelDocset = `docset-kernel-${crypto.randomUUID()}`;
    await saveDocset(
      env,
      kernelDocset,
      'manual',
      initialDocSet(PC_SURFACE, 's-in', 'manual', false, resolveDraftOptions()),
    );
    const problem = await expectProblem(
      await post('/v1/draft/runs', { surface: tmdb, fromDocset: kernelDocset }),
      400,
      'validation-error',
    );
    expect(JSON.stringify(problem.errors)).toContain('"fromDocset"');
  });

  it('starts nothing for a key with quota 0 on its own API (DRAFT and STE)', async () => {
    const broke = await issueKey('broke-api', 0);
    const api = await importLibrary(broke);
    const draft = await expectProblem(
      await post('/v1/draft/runs', { surface: api, tools: 'all', options: DRAFT_FAST }, broke),
      403,
      'quota-exhausted',
    );
    expect((draft.estimate as { modelCalls: number }).modelCalls).toBeGreaterThan(0);
    const ops = await operationNames(library);
    await expectProblem(
      await post('/v1/ste/runs', { surface: api, tools: [ops[0]], episodes: 1, trials: 1 }, broke),
      403,
      'quota-exhausted',
    );
  });
});

describe('STE on an imported API', () => {
  it('explores TMDB operations: trials call the mock, exemplars keep the operations’ names', async () => {
    const tools = ['GET_search-person', 'GET_movie-popular'];
    const created = await json<SteRun>(
      await post('/v1/ste/runs', {
        surface: tmdb,
        tools,
        episodes: 1,
        trials: 2,
        chunkCalls: 8,
        seed: 'tmdb',
      }),
      202,
    );
    const run = await until<SteRun>(`/v1/ste/runs/${created.id}`, 150_000);
    expect(run.status).toBe('succeeded');
    expect(run.progress).toMatchObject({ tools: 2, toolsDone: 2, trialsDone: 4, trialsTotal: 4 });
    const trials = await database(env.DB).select().from(steTrials).where(eq(steTrials.runId, run.id));
    expect(trials).toHaveLength(4);
    const steps = trials.flatMap((t) => t.steps as { action?: string; observation: string; ok: boolean }[]);
    // The calls reached the mock: a TMDB-shaped answer (paged results) came back for a call that worked.
    const answered = steps.filter((s) => s.ok && tools.includes(s.action ?? ''));
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.some((s) => s.observation.includes('"results"'))).toBe(true);
    const exemplars = await database(env.DB)
      .select()
      .from(steExemplars)
      .where(eq(steExemplars.runId, run.id));
    expect(exemplars.length).toBeGreaterThan(0);
    for (const e of exemplars) expect(tools).toContain(e.action);
  });

  it('explores the STE catalog imported as an API; its held-out test queries never become exemplars', async () => {
    // STE's 50 benchmark APIs out of its 817 descriptions.
    const all = JSON.parse(steText) as Record<string, unknown>;
    const fifty = Object.fromEntries((JSON.parse(apiListText) as string[]).map((n) => [n, all[n]]));
    const api = await json<{
      id: string;
      operations: { name: string; params: { name: string; required: boolean }[] }[];
    }>(await post('/v1/apis', { document: fifty, filename: 'API_descriptions.json', title: 'STE' }), 201);
    expect(api.operations).toHaveLength(50);
    const testSet = await json<{ id: string; items: number }>(
      await post(`/v1/apis/${api.id}/querysets`, { name: 'STE tool_test', items: JSON.parse(toolTestText) }),
      201,
    );
    expect(testSet.items).toBe(750);
    // A tool without required parameters, and add_date (which refuses a call without its two).
    const tools = [
      api.operations.find((o) => o.params.every((p) => !p.required))!.name,
      api.operations.find((o) => o.name.includes('add_date'))!.name,
    ];
    const created = await json<SteRun>(
      await post('/v1/ste/runs', {
        surface: api.id,
        tools,
        episodes: 1,
        trials: 2,
        chunkCalls: 8,
        seed: 'cat',
      }),
      202,
    );
    // The run carries the keys of every evaluation query of the API: the 750 test queries.
    const testQueries = Object.values(
      JSON.parse(toolTestText) as Record<string, { query: string }[]>,
    ).flatMap((rows) => rows.map((r) => r.query));
    const keys = await storedHeldOut(created.id);
    expect(keys).toEqual(heldOutKeys(testQueries));
    expect(created.config.heldOutQueries).toBe(keys.length);
    const run = await until<SteRun>(`/v1/ste/runs/${created.id}`, 150_000);
    expect(run.status).toBe('succeeded');
    expect(run.progress.trialsDone).toBe(4);
    // The trials called the catalog's tools on the mock (STE's catalog describes no responses: an empty body).
    const trials = await database(env.DB).select().from(steTrials).where(eq(steTrials.runId, run.id));
    const steps = trials.flatMap((t) => t.steps as { text: string; observation: string; ok: boolean }[]);
    expect(steps.some((s) => s.ok && s.text.includes(`Action: ${tools[0]}`))).toBe(true);
    // The mock's refusals reach the explorer, naming the parameters.
    expect(steps.some((s) => !s.ok && /date is required/.test(s.observation))).toBe(true);
    const held = heldOutTest(keys);
    const stored = await database(env.DB).select().from(steExemplars).where(eq(steExemplars.runId, run.id));
    expect(stored.filter((e) => held(e.query))).toEqual([]);
  });

  it('drops the trials whose query is one of the API’s evaluation queries (what the simulator imagines)', async () => {
    // The simulator imagines `What can the tool "X" do?` for a tool it has no query kinds for: made a held-out
    // evaluation query here, none of its trials may become an exemplar; without it, some do.
    const tool = 'GET_movie-popular';
    const run = async (seed: string) => {
      const created = await json<SteRun>(
        await post('/v1/ste/runs', {
          surface: tmdb,
          tools: [tool],
          episodes: 1,
          trials: 2,
          chunkCalls: 8,
          seed,
        }),
        202,
      );
      return until<SteRun>(`/v1/ste/runs/${created.id}`, 150_000);
    };
    const before = await run('held');
    const imagined = await database(env.DB).select().from(steTrials).where(eq(steTrials.runId, before.id));
    const keptBefore = before.tools[0]?.kept ?? 0;
    const api = await importTmdb('held-out');
    await json(
      await post(`/v1/apis/${api}/querysets`, {
        name: 'evaluation',
        format: 'calls',
        items: imagined.map((t) => ({ query: t.query, calls: [{ tool, args: {} }] })),
      }),
      201,
    );
    const created = await json<SteRun>(
      await post('/v1/ste/runs', {
        surface: api,
        tools: [tool],
        episodes: 1,
        trials: 2,
        chunkCalls: 8,
        seed: 'held',
      }),
      202,
    );
    expect(created.config.heldOutQueries).toBeGreaterThan(0);
    const after = await until<SteRun>(`/v1/ste/runs/${created.id}`, 150_000);
    expect(after.status).toBe('succeeded');
    const trials = await database(env.DB).select().from(steTrials).where(eq(steTrials.runId, after.id));
    expect(trials.map((t) => t.query).sort()).toEqual(imagined.map((t) => t.query).sort());
    expect(after.tools[0]).toMatchObject({ kept: 0, exemplars: 0, dropped: 2 });
    const stored = await database(env.DB).select().from(steExemplars).where(eq(steExemplars.runId, after.id));
    expect(stored).toEqual([]);
    // The guard is what made the difference (the same trials were kept without it).
    expect(keptBefore).toBeGreaterThan(0);
  });

  it('refuses an unknown surface, another key’s API, a docs or since surface of another API, naming the field', async () => {
    const other = await issueKey('other-ste-owner');
    const foreign = await importLibrary(other);
    for (const [body, field] of [
      [{ surface: 'no-such-api', tools: 'all' }, 'surface'],
      [{ surface: foreign, tools: 'all' }, 'surface'],
      [{ surface: tmdb, docs: library, tools: 'all' }, 'docs'],
      [{ surface: tmdb, since: 'pc', tools: 'all' }, 'since'],
      [{ surface: tmdb, tools: ['NoSuchTool'] }, 'tools'],
    ] as const) {
      const problem = await expectProblem(await post('/v1/ste/runs', body), 400, 'validation-error');
      expect(JSON.stringify(problem.errors), JSON.stringify(body)).toContain(`"${field}"`);
    }
  });
});
