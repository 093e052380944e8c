/**
 * Evaluations over an imported API's query set at the edge (issue 23 §4): a suite `{"api", "queryset", methods,
 * surfaces, docs, aids, …}` (core/evals/api-suite.ts) checked against what the caller's key owns, planned as groups
 * of method × surface × documentation × aid over the chosen items, and the `api-eval-group` job that runs one group's items
 * in order — each query in a fresh session of the API's mock through the core runner (`runApiQueries`), scored with
 * Correct Path Rate in both definitions, the answer where the set has gold answers, calls and the Table 7-style
 * label — one `api_eval_results` row each, with the raw record it was scored from.
 *
 * Chunks, idempotence and metering are the ToolQA-D groups' (edge/jobs/eval-group.ts): job ids `${evalId}:${group}`
 * and `…@<from>` for continuations, at most EVAL_CHUNK_TASKS queries / EVAL_CHUNK_MS per chunk, a redelivered chunk
 * skipping the items it finds recorded (unique per evaluation, method, surface, documentation and item) and stopping
 * where its continuation starts; the estimate is checked before the launch, each run's model calls charged, and a
 * group stops the evaluation when a run would start with the key's quota used up (within one run of the quota).
 */

import { resolveApiDocs } from '../../core/aids/api-docs.ts';
import { baseApiSurface } from '../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import type { DocSet } from '../../core/draft/docset.ts';
import { runApiQueries } from '../../core/evals/api-queries.ts';
import { type ApiDocsChoice, type ApiSuite, checkApiSuite, suiteItems } from '../../core/evals/api-suite.ts';
import { type ApiEvalGroup, apiAidsKey, apiDocsKey, apiEvalTable } from '../../core/evals/api-table.ts';
import { MAX_TASK_RUNS } from '../../core/evals/suite.ts';
import { RUN_ERROR } from '../../core/evals/taxonomy.ts';
import { getMethod, type MethodId, suiteMethodOptions } from '../../core/methods/registry.ts';
import { ModelError } from '../../core/models/errors.ts';
import { meteredModel, UsageMeter } from '../../core/models/usage.ts';
import type { ApiPromptDocs } from '../../core/prompts/toolevo.ts';
import { apiCatalog, apiStepDeps, proxyTarget } from '../apis.ts';
import { type Bindings, readConfig } from '../env.ts';
import { InvalidInputError, NotFoundError } from '../errors.ts';
import { chargeSpend, checkQuota, type Estimate, mayContinue, QUOTA_EXHAUSTED } from '../metering.ts';
import { textModelFor } from '../models.ts';
import { findDescription } from '../stores/api-descriptions.ts';
import { apiResultRows, finishedApiItems, insertApiResult } from '../stores/api-evals.ts';
import {
  type ApiRecord,
  apiRefOf,
  findApi,
  findQuerySet,
  listQuerySets,
  queryItem,
  queryItems,
} from '../stores/apis.ts';
import { getDocset } from '../stores/draft.ts';
import { evalStatus, getEval, insertEval, markEvalDone, stopEval } from '../stores/evaluations.ts';
import type { Owner } from '../stores/owners.ts';
import { insertSpend } from '../stores/spend.ts';
import { findApiSurface } from '../stores/surfaces.ts';
import { enqueueJob } from './enqueue.ts';
import { chunkEnd, chunkJobId, type EvalModelLabel, resultId } from './eval-group.ts';
import { type JobContext, type JobKind, MAX_ATTEMPTS } from './types.ts';

export const API_EVAL_GROUP = 'api-eval-group';

export interface ApiEvalGroupPayload {
  evalId: string;
  group: number;
  /** The position in the group's items this chunk starts at (0 when absent). */
  from?: number;
}

/** Whether a stored suite is one over an imported API's query set (the ToolQA-D suites have no `api`). */
export function isApiSuite(suite: unknown): suite is ApiSuite {
  return typeof suite === 'object' && suite !== null && typeof (suite as { api?: unknown }).api === 'string';
}

/** The query set's first `n` items (all of them for Infinity), read a page at a time. */
async function firstItems(env: Bindings, setId: string, n: number) {
  const out: Awaited<ReturnType<typeof queryItems>>['items'] = [];
  let after = -1;
  while (out.length < n) {
    const page = await queryItems(env, setId, { after, limit: Math.min(200, n - out.length) });
    out.push(...page.items);
    if (page.next === null) break;
    after = page.next;
  }
  return out;
}

/** The surface an id names for this API and key: its own id is the API as imported, others a drifted version. */
async function apiSurfaceFor(
  env: Bindings,
  api: ApiRecord,
  base: ApiSurface,
  id: string,
  owner: Owner | undefined,
): Promise<ApiSurface | null> {
  if (id === api.id) return base;
  return (await findApiSurface(env, id, owner))?.surface ?? null;
}

/** A value listed twice would be a second group with the same results rows: named by its pointer. */
function listedTwice<T>(field: string, list: readonly T[], key: (x: T) => string) {
  const seen = new Set<string>();
  return list.flatMap((x, i) => {
    const k = key(x);
    if (!seen.has(k)) {
      seen.add(k);
      return [];
    }
    return [{ pointer: `/${field}/${i}`, detail: `${field}[${i}] (${k}) is listed twice` }];
  });
}

export interface ApiPlan {
  api: ApiRecord;
  groups: ApiEvalGroup[];
  total: number;
  estimate: Estimate;
}

/**
 * The plan of a suite, checked against what the caller's key owns: an API it does not see is a 404 naming `api`;
 * an unknown query set, a surface or documentation set unknown to the key or of another API, a gold operation a
 * chosen surface does not serve (checkApiSuite) and an oversized plan are 400s naming the field's JSON pointer.
 */
export async function planApiSuite(
  env: Bindings,
  suite: ApiSuite,
  owner: Owner | undefined,
): Promise<ApiPlan> {
  const api = await findApi(env, suite.api, owner);
  if (!api)
    throw new NotFoundError(`No API with id ${suite.api}.`, [
      { in: 'body', field: 'api', pointer: '/api', message: 'no such API' },
    ]);
  const catalog = await apiCatalog(env, api.id);
  const base = baseApiSurface(api.id, catalog, api.title);
  const set = await findQuerySet(env, api.id, suite.queryset, owner);
  const querysets = new Map<string, { items: Awaited<ReturnType<typeof firstItems>> }>();
  if (set) {
    querysets.set(set.id, {
      items: await firstItems(
        env,
        set.id,
        suite.sampleSize === 'all' ? Number.POSITIVE_INFINITY : suite.sampleSize,
      ),
    });
  } else {
    // Named in the problem: the sets the key has for this API (a first page).
    for (const s of (await listQuerySets(env, api.id, { owner: owner as Owner, limit: 20 })).items)
      querysets.set(s.id, { items: [] });
  }
  const surfaces = new Map<string, ApiSurface>();
  for (const id of new Set(suite.surfaces ?? [api.id])) {
    const s = await apiSurfaceFor(env, api, base, id, owner);
    if (s) surfaces.set(id, s);
  }
  const docsets = new Map<string, { api: string | undefined }>();
  for (const d of suite.docs) {
    if (typeof d !== 'object' || !('docset' in d)) continue;
    const found = await getDocset(env, d.docset, owner);
    if (found) docsets.set(d.docset, { api: found.api });
  }
  const descriptions = new Map<string, { api: string }>();
  for (const d of suite.docs) {
    if (typeof d !== 'object' || !('description' in d)) continue;
    if (await findDescription(env, api.id, d.description)) descriptions.set(d.description, { api: api.id });
  }
  const problems = [
    ...checkApiSuite(suite, { querysets, surfaces, docsets, descriptions }),
    ...listedTwice('surfaces', suite.surfaces ?? [], (x) => x),
    ...listedTwice('docs', suite.docs, apiDocsKey),
    ...listedTwice('aids', suite.aids, apiAidsKey),
  ];
  if (problems.length > 0) {
    throw new InvalidInputError(
      problems.map((p) => p.detail).join('; '),
      problems.map((p) => ({
        in: 'body',
        field: p.pointer.slice(1).replaceAll('/', '.'),
        pointer: p.pointer,
        message: p.detail,
      })),
    );
  }
  const items = suiteItems(suite, set ? (querysets.get(set.id)?.items ?? []) : []).map((i) => i.index);
  if (items.length === 0)
    throw new InvalidInputError(`Query set ${suite.queryset} has no items.`, [
      { in: 'body', field: 'queryset', pointer: '/queryset', message: 'no items to run' },
    ]);
  const groups: ApiEvalGroup[] = [];
  for (const method of suite.methods)
    for (const surface of suite.surfaces ?? [api.id])
      for (const docs of suite.docs)
        for (const aids of suite.aids)
          groups.push({ method, surface, docs: apiDocsKey(docs), aids: apiAidsKey(aids), items });
  const total = groups.length * items.length;
  if (total > MAX_TASK_RUNS)
    throw new InvalidInputError(`The suite plans ${total} query runs; at most ${MAX_TASK_RUNS}.`, [
      { in: 'body', field: 'sampleSize', pointer: '/sampleSize', message: 'too many query runs' },
    ]);
  let modelCalls = 0;
  for (const g of groups) {
    const method = getMethod(g.method as MethodId);
    modelCalls +=
      g.items.length * method.modelCalls(suiteMethodOptions(suite, method), { maxSteps: suite.maxSteps });
  }
  return { api, groups, total, estimate: { modelCalls } };
}

/** Records an API evaluation and enqueues its groups (the plan's estimate checked against the key's quota). */
export async function launchApiEval(
  env: Bindings,
  suite: ApiSuite,
  opts: { owner?: Owner; id?: string } = {},
): Promise<{ id: string; total: number; estimate: Estimate }> {
  const model = textModelFor(env, suite.model);
  const label: EvalModelLabel = {
    provider: model.provider,
    name: model.model,
    simulated: model.capabilities.simulated === true,
  };
  const { groups, total, estimate } = await planApiSuite(env, suite, opts.owner);
  const ownerId = opts.owner?.id ?? null;
  await checkQuota(env, ownerId, estimate);
  const id = opts.id ?? crypto.randomUUID();
  await insertEval(env, {
    id,
    ownerId,
    name: suite.name ?? null,
    status: 'running',
    suite,
    // The groups of an API suite (method × surface × documentation over the items), not ToolQA-D cells.
    planned: groups as never,
    total,
    model: label,
    scheduleId: null,
    dueTime: null,
    createdAt: Date.now(),
  });
  await insertSpend(env, { kind: 'evaluation', subjectId: id, ownerId, estimate: estimate.modelCalls });
  for (let group = 0; group < groups.length; group++) {
    const payload: ApiEvalGroupPayload = { evalId: id, group };
    await enqueueJob(env, API_EVAL_GROUP, payload, { id: chunkJobId(id, group, 0), ownerId });
  }
  return { id, total, estimate };
}

/**
 * The documentation a group's agent reads (core/aids/api-docs.ts `resolveApiDocs`: the API as imported, the served
 * surface's own, a DRAFT docset, an uploaded description file); null when its set or file was deleted since.
 */
async function groupDocs(
  env: Bindings,
  api: ApiRecord,
  base: ApiSurface,
  server: ApiSurface,
  docs: ApiDocsChoice,
  now: Date,
): Promise<ApiPromptDocs | null> {
  const docsets = new Map<string, DocSet>();
  const descriptions = new Map<string, Record<string, string>>();
  if (typeof docs === 'object' && 'docset' in docs) {
    const set = await getDocset(env, docs.docset);
    if (!set) return null;
    docsets.set(docs.docset, set);
  } else if (typeof docs === 'object') {
    const file = await findDescription(env, api.id, docs.description);
    if (!file) return null;
    descriptions.set(docs.description, file.descriptions);
  }
  return resolveApiDocs(docs, { imported: base, served: server, docsets, descriptions, now });
}

async function runApiEvalGroup(payload: unknown, { env, attempt, log }: JobContext) {
  const { evalId, group, from = 0 } = payload as ApiEvalGroupPayload;
  const started = Date.now();
  const row = await getEval(env, evalId);
  if (!row) throw new Error(`evaluation ${evalId} is missing`);
  if (row.status !== 'running') return { evalId, group, from, skipped: row.status };
  const suite = row.suite as ApiSuite;
  const plan = (row.planned as unknown as ApiEvalGroup[])[group];
  if (!plan) throw new Error(`evaluation ${evalId} has no group ${group}`);
  const budget = readConfig(env);
  const end = await chunkEnd(env, evalId, group, from, plan.items.length);
  const finished = await finishedApiItems(env, evalId, plan);

  // Where each run stands: the evaluation's creation time is every session's clock (a drifted surface's
  // deprecation and sunset dates resolve the same in every chunk).
  const now = new Date(row.createdAt);
  const api = await findApi(env, suite.api, undefined);
  let missing: string | null = api ? null : `API ${suite.api} was deleted`;
  let setup: {
    base: ApiSurface;
    server: ApiSurface;
    docs: ApiPromptDocs;
    deps: Awaited<ReturnType<typeof apiStepDeps>>;
  } | null = null;
  if (api) {
    const catalog = await apiCatalog(env, api.id);
    const base = baseApiSurface(api.id, catalog, api.title);
    const server = await apiSurfaceFor(env, api, base, plan.surface, undefined);
    const choice = suite.docs.find((d) => apiDocsKey(d) === plan.docs) ?? 'imported';
    const docs = server ? await groupDocs(env, api, base, server, choice, now) : null;
    if (!server) missing = `surface ${plan.surface} was deleted`;
    else if (!docs) missing = `the documentation ${plan.docs} was deleted`;
    else if (api.mode === 'proxy' && (!api.upstream || !proxyTarget(env, api.upstream)))
      missing = `the upstream of API ${api.id} is no longer an allowed origin`;
    else setup = { base, server, docs, deps: await apiStepDeps(env, { api: apiRefOf(api) }) };
  }
  const model = textModelFor(env, suite.model);
  const setId = suite.queryset;

  let ran = 0;
  for (const [position, index] of plan.items.entries()) {
    // A query before `from` left unfinished by an earlier chunk is run here, in plan order.
    if (position >= end) break;
    if (finished.has(index)) continue;
    if (ran > 0 && (ran >= budget.evalChunkTasks || Date.now() - started >= budget.evalChunkMs)) {
      const next: ApiEvalGroupPayload = { evalId, group, from: position };
      await enqueueJob(env, API_EVAL_GROUP, next, {
        id: chunkJobId(evalId, group, position),
        ownerId: row.ownerId,
      });
      return { evalId, group, from, ran, continuation: position };
    }
    const status = await evalStatus(env, evalId);
    if (status !== 'running') return { evalId, group, from, ran, skipped: status ?? 'deleted' };
    if (!(await mayContinue(env, row.ownerId))) {
      await stopEval(env, evalId, QUOTA_EXHAUSTED);
      return { evalId, group, from, ran, skipped: QUOTA_EXHAUSTED };
    }
    const item = await queryItem(env, setId, index);
    const meter = new UsageMeter();
    let error: string | null = item ? missing : `query set ${setId} has no item ${index} any more`;
    let result: Awaited<ReturnType<typeof runApiQueries>>['results'][number] | null = null;
    if (error === null && item && api && setup) {
      try {
        const report = await runApiQueries({
          method: plan.method as MethodId,
          model: meteredModel(model, meter, { runId: `${evalId}/${group}/${index}` }),
          api: apiRefOf(api),
          catalog: setup.deps.catalog,
          world: setup.deps.world,
          backend: setup.deps.backend,
          server: setup.server,
          docs: setup.docs,
          items: [item],
          options: suiteMethodOptions(suite, getMethod(plan.method as MethodId)),
          aids: suite.aids.find((a) => apiAidsKey(a) === plan.aids) ?? {},
          maxSteps: suite.maxSteps,
          seed: suite.seed,
          now,
        });
        result = report.results[0] ?? null;
      } catch (err) {
        // As for ToolQA-D runs: a model error (after the client's retries) is this run's error at once; anything
        // else is retried by the queue and becomes the run's error on the last attempt.
        if (!(err instanceof ModelError) && attempt < MAX_ATTEMPTS) throw err;
        error = err instanceof Error ? err.message : String(err);
        log.warn('api eval query run failed', { evalId, group, item: index, attempt, error });
      }
    }
    const usage = meter.total();
    const hasPath = (item?.gold.path.length ?? 0) > 0;
    const hasAnswer = item?.gold.answer !== undefined;
    await insertApiResult(env, {
      id: resultId(evalId, group, index),
      evalId,
      method: plan.method,
      surface: plan.surface,
      docs: plan.docs,
      aids: plan.aids,
      item: index,
      query: item?.query ?? '',
      answer: result?.answer ?? null,
      // A run that could not be carried out fails what its item is scored on (counted apart in the taxonomy).
      correct: result ? result.correct : hasAnswer ? false : null,
      pathSubsequence: result ? (result.correctPath?.subsequence ?? null) : hasPath ? false : null,
      pathSet: result ? (result.correctPath?.set ?? null) : hasPath ? false : null,
      calls: result?.calls ?? 0,
      ending: result ? result.ending : 'error',
      errorClass: result ? result.failure : RUN_ERROR,
      steps: result?.steps.length ?? 0,
      modelCalls: usage.calls,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      latencyMs: Math.round(usage.latencyMs),
      trajectory: {
        steps: result?.steps ?? [],
        calls: result?.apiCalls ?? [],
        goldPath: result?.goldPath ?? item?.gold.path.map((g) => g.operation) ?? [],
        ...(error !== null ? { error } : {}),
      },
      createdAt: Date.now(),
    });
    await chargeSpend(env, { kind: 'evaluation', id: evalId, ownerId: row.ownerId }, usage.calls);
    ran++;
  }
  await finishApiEvalIfComplete(env, evalId);
  return { evalId, group, from, ran };
}

/** The `api-eval-group` job kind: one group (method × surface × documentation) of an API evaluation. */
export const apiEvalGroupJob: JobKind = { kind: API_EVAL_GROUP, run: runApiEvalGroup };

/** Marks the evaluation done once every planned query run has a row, with its overall success rate. */
export async function finishApiEvalIfComplete(env: Bindings, evalId: string): Promise<boolean> {
  const row = await getEval(env, evalId);
  if (row?.status !== 'running') return false;
  const rows = await apiResultRows(env, evalId);
  if (rows.length < row.total) return false;
  const table = apiEvalTable(row.planned as unknown as ApiEvalGroup[], rows);
  await markEvalDone(env, evalId, { successRate: table.successRate, flagged: false, comparison: null });
  return true;
}
