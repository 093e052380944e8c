/**
 * Living drift through the queue (issue 26 §2, §4). When a stream with a plan makes a release, a `stream-maintain`
 * job (id `stream-maintain:<stream>:<n>`: enqueued once per release however often the advance is asked for) runs
 * (enqueued by edge/living.ts) runs maintenance for every release up to n not maintained yet, in order (core/streams/maintain.ts), each recorded once
 * by its (stream, release) key — a redelivered message, or a second job for the same release, finds the row and
 * spends nothing. Then a `stream-evaluate` job (id `stream-evaluate:<stream>:<n>`) runs the plan's suite at every
 * maintained release up to n that lacks a configuration's results (core/streams/evaluate.ts), one row per
 * (release, configuration), so a job cut short resumes where it stopped. Model calls are metered per release
 * (`stream` ledger rows `<stream>/r<n>`): a release starts only while the key has quota left.
 */
import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { planGroups } from '../../core/evals/plan.ts';
import { EvalSuiteSchema } from '../../core/evals/suite.ts';
import {
  configurationsFor,
  type EvaluationSuite,
  evaluateRelease,
  poolDistractors,
} from '../../core/streams/evaluate.ts';
import { type MaintenanceBackend, maintain, totalSpend } from '../../core/streams/maintain.ts';
import type { Release, ReleaseDiff, ReleaseSurface, StreamBase } from '../../core/streams/model.ts';
import { apiSuiteSize, type StreamPlan } from '../../core/streams/plan.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import type { Gold } from '../../core/world/tasks/types.ts';
import { mockWorld } from '../apis.ts';
import type { Bindings } from '../env.ts';
import { type LivingPayload, STREAM_EVALUATE, STREAM_MAINTAIN } from '../living.ts';
import { chargeSpend, mayContinue, QUOTA_EXHAUSTED } from '../metering.ts';
import { embeddingModelFor, textModelFor } from '../models.ts';
import { apiRefOf, findApi, findQuerySet, queryItems } from '../stores/apis.ts';
import { insertSpend } from '../stores/spend.ts';
import {
  getPlan,
  maintained,
  maintenanceState,
  recordMaintenance,
  recordResult,
  releaseResults,
} from '../stores/stream-living.ts';
import { findStream, getRelease, type StreamRow } from '../stores/streams.ts';
import { getTasks, taskCells } from '../stores/tasks.ts';
import { streamBase } from '../streams.ts';
import { edgeKernelDeps, worldFor } from '../world-runtime.ts';
import { enqueueJob } from './enqueue.ts';
import type { JobKind } from './types.ts';

/** The clock explorations and evaluations of a stream run at: releases are served as they are, no schedule. */
const CLOCK = new Date('2026-01-01T00:00:00Z');

function asRelease(row: { n: number; surface: unknown; diff: unknown }): Release {
  return { n: row.n, surface: row.surface as ReleaseSurface, diff: (row.diff as ReleaseDiff | null) ?? null };
}

async function releaseAt(env: Bindings, streamId: string, n: number): Promise<Release> {
  const row = await getRelease(env, streamId, n);
  if (!row) throw new Error(`stream ${streamId} has no release ${n}`);
  return asRelease(row);
}

async function maintenanceBackend(
  env: Bindings,
  stream: StreamRow,
  base: StreamBase,
): Promise<MaintenanceBackend> {
  if (base.kind === 'kernel')
    return { kind: 'kernel', world: worldFor(env), deps: edgeKernelDeps(env), docs: base.base };
  const api = await findApi(env, base.base.id, undefined);
  if (!api) throw new Error(`stream ${stream.id}: API ${base.base.id} is gone`);
  const ref = apiRefOf(api);
  return { kind: 'api', api: ref, catalog: base.catalog, world: await mockWorld(env, ref), docs: base.base };
}

/** Ledger row of one release's model calls (maintenance and evaluation). */
async function releaseLedger(env: Bindings, stream: StreamRow, n: number) {
  const run = { kind: 'stream' as const, id: `${stream.id}/r${n}`, ownerId: stream.ownerId };
  await insertSpend(env, { kind: run.kind, subjectId: run.id, ownerId: run.ownerId, estimate: 0 });
  return run;
}

/** What both jobs work with: the stream, its plan, its base and backend, the plan's model; or why there is none. */
async function livingContext(env: Bindings, streamId: string) {
  const stream = await findStream(env, streamId, undefined);
  if (!stream) return { skipped: 'the stream was deleted' } as const;
  const plan = await getPlan(env, streamId);
  if (!plan) return { skipped: 'the stream has no plan' } as const;
  const base = await streamBase(env, stream);
  const backend = await maintenanceBackend(env, stream, base);
  const model = textModelFor(env, plan.evaluation.model ?? {});
  // DRAFT's φ and Δ and the exemplar retrieval run on the local lexical encoder: no billed embedding calls.
  const embedder = embeddingModelFor(env, 'lexical');
  return { stream, plan, base, backend, model, embedder };
}

async function runMaintain(env: Bindings, { streamId, n }: LivingPayload) {
  const ctx = await livingContext(env, streamId);
  if ('skipped' in ctx) return { skipped: ctx.skipped };
  const { stream, plan, backend, model, embedder } = ctx;
  const made: number[] = [];
  for (let k = 0; k <= n; k++) {
    if (await maintained(env, streamId, k)) continue;
    if (!(await mayContinue(env, stream.ownerId))) return { maintained: made, stoppedFor: QUOTA_EXHAUSTED };
    const release = await releaseAt(env, streamId, k);
    const previous = k > 0 ? await releaseAt(env, streamId, k - 1) : null;
    const state = k > 0 ? await maintenanceState(env, streamId, k - 1) : null;
    if (k > 0 && !state)
      throw new Error(`stream ${streamId}: the maintenance state of release ${k - 1} is missing`);
    const m = await maintain({
      seed: stream.seed,
      release,
      previous: previous?.surface ?? null,
      state,
      policy: plan.maintenance,
      backend,
      model,
      embedder,
      now: CLOCK,
    });
    // Recorded once: a second delivery that got this far anyway records nothing and charges nothing.
    if (await recordMaintenance(env, streamId, m.state, m.spend)) {
      await chargeSpend(env, await releaseLedger(env, stream, k), totalSpend(m.spend).modelCalls);
      made.push(k);
    }
  }
  await enqueueJob(env, STREAM_EVALUATE, { streamId, n } satisfies LivingPayload, {
    id: `${STREAM_EVALUATE}:${streamId}:${n}`,
    ownerId: stream.ownerId,
  });
  return { maintained: made };
}

/** The plan's fixed suite: the same seeded tasks (kernel) or queries (API) at every release. */
async function suiteOf(
  env: Bindings,
  stream: StreamRow,
  plan: StreamPlan,
  backend: MaintenanceBackend,
): Promise<EvaluationSuite> {
  const e = plan.evaluation;
  if (backend.kind === 'kernel') {
    const suite = EvalSuiteSchema.parse({
      methods: ['greedy'],
      surfaces: ['pc'],
      sampleSize: e.sampleSize,
      seed: stream.seed,
    });
    const cells = await taskCells(env, suite.split, suite.datasets, suite.difficulties);
    const ids = planGroups(suite, (dataset, difficulty) =>
      cells.filter((c) => c.dataset === dataset && c.difficulty === difficulty).map((c) => c.id),
    ).flatMap((g) => g.taskIds);
    const rows = new Map((await getTasks(env, ids)).map((t) => [t.id, t]));
    const tasks = ids.flatMap((id) => {
      const t = rows.get(id);
      return t
        ? [
            {
              id: t.id,
              question: t.question,
              gold: t.gold as Gold,
              dataset: t.dataset,
              difficulty: t.difficulty,
            },
          ]
        : [];
    });
    return {
      kind: 'kernel',
      world: backend.world,
      deps: backend.deps,
      tasks,
      distractors: poolDistractors(stream.seed),
      maxSteps: e.maxSteps,
    };
  }
  const set = e.queryset ? await findQuerySet(env, backend.api.id, e.queryset, undefined) : null;
  if (!set)
    throw new Error(
      `stream ${stream.id}: query set ${e.queryset ?? '(none)'} of API ${backend.api.id} is gone`,
    );
  const { items } = await queryItems(env, set.id, { after: -1, limit: apiSuiteSize(e) });
  return {
    kind: 'api',
    api: backend.api,
    catalog: backend.catalog,
    world: backend.world,
    items,
    maxSteps: e.maxSteps,
  };
}

async function runEvaluate(env: Bindings, { streamId, n }: LivingPayload) {
  const ctx = await livingContext(env, streamId);
  if ('skipped' in ctx) return { skipped: ctx.skipped };
  const { stream, plan, base, backend, model, embedder } = ctx;
  const suite = await suiteOf(env, stream, plan, backend);
  const configurations = configurationsFor(suite.kind).filter((c) =>
    plan.evaluation.configurations.includes(c.id),
  );
  const evaluated: { release: number; configurations: string[] }[] = [];
  let previous = new Map<string, string[] | null>();
  for (let k = 0; k <= n; k++) {
    const done = await releaseResults(env, streamId, k);
    const todo = configurations.filter((c) => !done.has(c.id));
    if (todo.length > 0) {
      const state = await maintenanceState(env, streamId, k);
      if (!state) throw new Error(`stream ${streamId}: release ${k} is not maintained yet`);
      if (!(await mayContinue(env, stream.ownerId))) return { evaluated, stoppedFor: QUOTA_EXHAUSTED };
      const ledger = await releaseLedger(env, stream, k);
      const release = await releaseAt(env, streamId, k);
      // One configuration at a time: each is recorded on its own, so a job cut short resumes at the next.
      for (const c of todo) {
        const memory: Record<string, readonly string[]> = {};
        const carried = previous.get(c.id);
        if (carried) memory[c.id] = carried;
        const e = await evaluateRelease({
          seed: stream.seed,
          release,
          base: base.base as Surface | ApiSurface,
          state,
          suite,
          configurations: [c],
          memory,
          model,
          embedder,
          now: CLOCK,
        });
        const calls = e.records.reduce((s, r) => s + r.modelCalls, 0);
        const notes = e.notes.filter((x) => x.configuration === c.id);
        if (
          await recordResult(env, {
            streamId,
            n: k,
            configuration: c.id,
            records: e.records,
            memory: e.memory[c.id] ?? null,
            notes,
          })
        )
          await chargeSpend(env, ledger, calls);
      }
      evaluated.push({ release: k, configurations: todo.map((c) => c.id) });
    }
    previous = await releaseResults(env, streamId, k);
  }
  return { evaluated };
}

export const streamMaintainJob: JobKind = {
  kind: STREAM_MAINTAIN,
  run: (payload, { env }) => runMaintain(env, payload as LivingPayload),
};

export const streamEvaluateJob: JobKind = {
  kind: STREAM_EVALUATE,
  run: (payload, { env }) => runEvaluate(env, payload as LivingPayload),
};
