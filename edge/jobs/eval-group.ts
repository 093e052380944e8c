/**
 * Evaluations at the edge: launching a suite (from `POST /v1/evals` or from a schedule's due time) and the
 * `eval-group` job that runs one group of task runs (method × surface × dataset × difficulty) in task order.
 *
 * Idempotence: a group's job id is `${evalId}:${group}`, a continuation's `${evalId}:${group}@<first task index>`
 * (enqueueJob sends each once); a redelivered job stops where its continuation starts and skips the
 * task runs it finds in `eval_results` (unique per evaluation, method, surface and task), and carries the
 * greedy-memory lines on from their recorded tool updates. A scheduled launch inserts its evaluation under the
 * unique (schedule, due time) index first, so a second launch for the same due time does nothing.
 *
 * Chunks: a group runs as a chain of jobs of at most EVAL_CHUNK_TASKS task runs / EVAL_CHUNK_MS each (runEvalGroup).
 * A model provider that keeps failing: a model error (after the client's retries) is the run's `run-error` at once,
 * with the usage its calls spent; other errors retry the chunk through the queue, and on the last attempt the failing
 * task runs are recorded as `run-error` (counted apart from agent failures), so the evaluation still finishes.
 */
import { AidUnavailableError, documentationSurfaceId, resolveAids } from '../../core/aids/index.ts';
import { aggregate, compareTables } from '../../core/evals/aggregate.ts';
import { type EvalGroup, groupKey, planGroups, planModelCalls } from '../../core/evals/plan.ts';
import { type EvalOutcome, type EvalStep, runEvalTask } from '../../core/evals/run-task.ts';
import { type Difficulty, type EvalSuite, MAX_TASK_RUNS, suiteChanges } from '../../core/evals/suite.ts';
import { classifyRun, RUN_ERROR } from '../../core/evals/taxonomy.ts';
import { getMethod } from '../../core/methods/registry.ts';
import { ModelError } from '../../core/models/errors.ts';
import { emptyUsage, type Usage } from '../../core/models/types.ts';
import { meteredModel, UsageMeter } from '../../core/models/usage.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import type { Gold } from '../../core/world/tasks/types.ts';
import { assertOwnAidSets, edgeAidContext } from '../aids.ts';
import { type Bindings, readConfig } from '../env.ts';
import { InvalidInputError } from '../errors.ts';
import { chargeSpend, checkQuota, type Estimate, mayContinue, QUOTA_EXHAUSTED } from '../metering.ts';
import { textModelFor } from '../models.ts';
import { steDemonstrations } from '../ste-demonstrations.ts';
import {
  evalForDueTime,
  evalStatus,
  finishedRuns,
  getEval,
  insertEval,
  insertResult,
  markEvalDone,
  previousDoneEval,
  resultRows,
  stopEval,
} from '../stores/evaluations.ts';
import { jobIdsWithPrefix } from '../stores/jobs.ts';
import type { Owner } from '../stores/owners.ts';
import { getSchedule } from '../stores/schedules.ts';
import { insertSpend } from '../stores/spend.ts';
import { findSurface } from '../stores/surfaces.ts';
import { getTasks, taskCells } from '../stores/tasks.ts';
import { edgeKernelDeps, worldFor } from '../world-runtime.ts';
import { enqueueJob } from './enqueue.ts';
import { type JobContext, type JobKind, MAX_ATTEMPTS } from './types.ts';

export const EVAL_GROUP = 'eval-group';

export interface EvalGroupPayload {
  evalId: string;
  /** Index into the evaluation's `planned` groups. */
  group: number;
  /** The task index this chunk of the group starts at (0, the whole group's first job, when absent). */
  from?: number;
}

export interface EvalModelLabel {
  provider: string;
  name: string;
  simulated: boolean;
}

/** The surfaces of a suite that do not exist (built-in or stored). */
export async function missingSurfaces(env: Bindings, suite: EvalSuite): Promise<string[]> {
  const ids = [...new Set([...suite.surfaces, documentationSurfaceId(suite.aids, suite.promptSurface)])];
  const found = await Promise.all(ids.map((id) => findSurface(env, id)));
  return ids.filter((_, i) => found[i] === null);
}

/** An InvalidInputError (a 400 over HTTP) naming each unknown surface of a suite, with pointers under `pointerBase`. */
export async function assertSurfacesExist(
  env: Bindings,
  suite: EvalSuite,
  pointerBase = '',
  owner?: Owner,
): Promise<void> {
  // A DRAFT documentation set (or STE exemplar set) named by an aid must exist and not belong to another user
  // key (a 400 naming the field otherwise).
  await assertOwnAidSets(env, suite.aids, suite.promptSurface, owner, pointerBase);
  const missing = await missingSurfaces(env, suite);
  if (missing.length === 0) return;
  throw new InvalidInputError(
    `Unknown surface${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
    missing.map((id) => {
      const at = suite.surfaces.indexOf(id);
      const field =
        at >= 0
          ? `surfaces.${at}`
          : suite.aids?.documentation?.surface
            ? 'aids.documentation.surface'
            : 'promptSurface';
      return {
        in: 'body' as const,
        field: pointerBase ? `${pointerBase.slice(1).replaceAll('/', '.')}.${field}` : field,
        pointer: `${pointerBase}/${field.replaceAll('.', '/')}`,
        message: `no surface named ${id}`,
      };
    }),
  );
}

/** The groups of a suite over the tasks now in D1. */
export async function planEval(env: Bindings, suite: EvalSuite): Promise<EvalGroup[]> {
  const rows = await taskCells(env, suite.split, suite.datasets, suite.difficulties);
  const byCell = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.dataset}/${r.difficulty}`;
    const list = byCell.get(key) ?? [];
    list.push(r.id);
    byCell.set(key, list);
  }
  return planGroups(
    suite,
    (dataset: string, difficulty: Difficulty) => byCell.get(`${dataset}/${difficulty}`) ?? [],
  );
}

export interface LaunchOptions {
  scheduleId?: string;
  dueTime?: number;
  /** For tests: the evaluation id (default a random UUID). */
  id?: string;
  /** The key the evaluation belongs to (edge/stores/owners.ts); its model-call quota is checked and charged. */
  ownerId?: string | null;
}

export interface Launch {
  id: string;
  total: number;
  /** The most model calls the planned runs make (core/evals/plan.ts `planModelCalls`). */
  estimate: Estimate;
  /** False when a run for this schedule and due time already existed (nothing was launched). */
  created: boolean;
}

/** The plan of a suite over the tasks now in D1, with its size and model-call estimate (400s for an empty or oversized plan). */
export async function planSuite(env: Bindings, suite: EvalSuite) {
  const groups = await planEval(env, suite);
  const total = groups.reduce((n, g) => n + g.taskIds.length, 0);
  if (total === 0) {
    throw new InvalidInputError(
      `No ${suite.split} tasks match the suite's datasets and difficulties in this world.`,
      [{ in: 'body', field: 'datasets', pointer: '/datasets', message: 'no tasks to run' }],
    );
  }
  if (total > MAX_TASK_RUNS) {
    throw new InvalidInputError(
      `The suite plans ${total} task runs in this world; at most ${MAX_TASK_RUNS}.`,
      [{ in: 'body', field: 'sampleSize', pointer: '/sampleSize', message: 'too many task runs' }],
    );
  }
  return { groups, total, estimate: { modelCalls: planModelCalls(suite, groups) } };
}

/**
 * Records an evaluation and enqueues its groups. The suite must be resolved (defaults filled) and its
 * surfaces must exist; the model choice is checked against this deployment (a 400 problem otherwise), and the
 * plan's model-call estimate against the owner's quota (edge/metering.ts).
 */
export async function launchEval(env: Bindings, suite: EvalSuite, opts: LaunchOptions = {}): Promise<Launch> {
  const model = textModelFor(env, suite.model);
  const label: EvalModelLabel = {
    provider: model.provider,
    name: model.model,
    simulated: model.capabilities.simulated === true,
  };
  const ownerId = opts.ownerId ?? null;
  const { groups, total, estimate } = await planSuite(env, suite);
  await checkQuota(env, ownerId, estimate);
  const id = opts.id ?? crypto.randomUUID();
  const inserted = await insertEval(env, {
    id,
    ownerId,
    name: suite.name ?? null,
    status: 'running',
    suite,
    planned: groups,
    total,
    model: label,
    scheduleId: opts.scheduleId ?? null,
    dueTime: opts.dueTime ?? null,
    createdAt: Date.now(),
  });
  if (!inserted) {
    const existing =
      opts.scheduleId !== undefined && opts.dueTime !== undefined
        ? await evalForDueTime(env, opts.scheduleId, opts.dueTime)
        : await getEval(env, id);
    return { id: existing?.id ?? id, total: existing?.total ?? total, estimate, created: false };
  }
  await insertSpend(env, { kind: 'evaluation', subjectId: id, ownerId, estimate: estimate.modelCalls });
  for (let group = 0; group < groups.length; group++) {
    const payload: EvalGroupPayload = { evalId: id, group };
    await enqueueJob(env, EVAL_GROUP, payload, { id: chunkJobId(id, group, 0), ownerId });
  }
  return { id, total, estimate, created: true };
}

/** A result id that sorts in plan order: evaluation, group, task index. */
export function resultId(evalId: string, group: number, task: number): string {
  return `${evalId}.${String(group).padStart(4, '0')}.${String(task).padStart(3, '0')}`;
}

/** A run that could not be carried out, with what its model calls up to the failure spent (`usage`). */
function runError(message: string, usage: Usage = emptyUsage()): EvalOutcome & { error: string } {
  return {
    answer: null,
    correct: false,
    ending: 'open',
    steps: [],
    toolUpdates: [],
    modelCalls: usage.calls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    latencyMs: usage.latencyMs,
    error: message,
  };
}

/** The job id of the chunk of a group that starts at task index `from` (the first chunk keeps the plain id). */
export function chunkJobId(evalId: string, group: number, from: number): string {
  return from === 0 ? `${evalId}:${group}` : `${evalId}:${group}@${String(from).padStart(4, '0')}`;
}

/**
 * Where a chunk that starts at `from` must stop: the start of the next chunk when one was enqueued already (a
 * redelivered chunk leaves the continuation's tasks to it), otherwise the end of the group.
 */
export async function chunkEnd(env: Bindings, evalId: string, group: number, from: number, size: number) {
  const prefix = `${chunkJobId(evalId, group, 0)}@`;
  const starts = (await jobIdsWithPrefix(env, prefix))
    .map((id) => Number(id.slice(prefix.length)))
    .filter((k) => Number.isInteger(k) && k > from);
  return starts.length > 0 ? Math.min(...starts) : size;
}

/**
 * One chunk of a group: its task runs in plan order from `payload.from`, until the group ends or the chunk's
 * budget (EVAL_CHUNK_TASKS task runs, EVAL_CHUNK_MS of wall time) is spent; then the chunk enqueues its
 * continuation (job id from the next task's index, so a redelivered chunk enqueues nothing twice) and returns,
 * so no queue invocation outlasts the consumer's wall-time limit however slow the model is.
 */
async function runEvalGroup(payload: unknown, { env, attempt, log }: JobContext) {
  const { evalId, group, from = 0 } = payload as EvalGroupPayload;
  const started = Date.now();
  const row = await getEval(env, evalId);
  if (!row) throw new Error(`evaluation ${evalId} is missing`);
  if (row.status !== 'running') return { evalId, group, from, skipped: row.status };
  const suite = row.suite as EvalSuite;
  const plan = row.planned[group] as EvalGroup | undefined;
  if (!plan) throw new Error(`evaluation ${evalId} has no group ${group}`);
  const budget = readConfig(env);
  const end = await chunkEnd(env, evalId, group, from, plan.taskIds.length);

  const done = await finishedRuns(env, evalId, plan.method, plan.surface);
  const finished = new Map(
    done.map((d) => [
      d.taskId,
      d.trajectory as { steps?: EvalStep[]; toolUpdates?: string[]; error?: string },
    ]),
  );
  const taskRows = await getTasks(
    env,
    plan.taskIds.slice(0, end).filter((id) => !finished.has(id)),
  );
  const taskById = new Map(taskRows.map((t) => [t.id, t]));
  const docsId = suite.aids?.documentation?.docset ?? documentationSurfaceId(suite.aids, suite.promptSurface);
  const surface = await findSurface(env, plan.surface);
  // The documentation aid: a surface's docs or a DRAFT documentation set's (null when it was deleted).
  // The toolPool aid's retriever comes from the same resolution (null aids when a set or toolset was deleted).
  let aidMissing: AidUnavailableError | null = null;
  const resolved = await resolveAids(suite.aids, suite.promptSurface, edgeAidContext(env)).catch((err) => {
    if (!(err instanceof AidUnavailableError)) throw err;
    aidMissing = err;
    return null;
  });
  const docs = resolved?.documentation ?? null;
  const toolPool = resolved?.toolPool;
  const model = textModelFor(env, suite.model);
  const world = worldFor(env);
  const asked = suite.aids?.demonstrations;
  const demonstrations = asked ? await steDemonstrations(env)(asked.set, asked.count) : undefined;

  // The method's memory rule (core/methods), replayed over the runs recorded by earlier chunks or deliveries,
  // in plan order: a continuation carries on exactly where one job over the whole group would be.
  const carrier = getMethod(plan.method).memory;
  let memory = carrier?.initial();
  let ran = 0;
  for (const [index, taskId] of plan.taskIds.entries()) {
    if (index >= end) break;
    const previous = finished.get(taskId);
    if (previous) {
      if (carrier && previous.error === undefined)
        memory = carrier.carry(memory, {
          steps: previous.steps ?? [],
          toolUpdates: previous.toolUpdates ?? [],
        });
      continue;
    }
    // The budget is checked once this chunk has run something, so every chunk makes progress (and a chunk never
    // names itself as its own continuation). A task before `from` left unfinished is run here, in plan order.
    if (ran > 0 && (ran >= budget.evalChunkTasks || Date.now() - started >= budget.evalChunkMs)) {
      const next: EvalGroupPayload = { evalId, group, from: index };
      await enqueueJob(env, EVAL_GROUP, next, { id: chunkJobId(evalId, group, index), ownerId: row.ownerId });
      return { evalId, group: groupKey(plan), from, ran, continuation: index };
    }
    const status = await evalStatus(env, evalId);
    if (status !== 'running') return { evalId, group, from, ran, skipped: status ?? 'deleted' };
    // The owner's model-spend quota: a run that would start with none left stops the whole evaluation.
    if (!(await mayContinue(env, row.ownerId))) {
      await stopEval(env, evalId, QUOTA_EXHAUSTED);
      return { evalId, group, from, ran, skipped: QUOTA_EXHAUSTED };
    }
    const task = taskById.get(taskId);
    // Every model call of the run is metered, so a run that fails part-way still accounts what it spent.
    const meter = new UsageMeter();
    let outcome: EvalOutcome & { error?: string };
    if (!task) outcome = runError(`task ${taskId} is no longer in the task table`);
    else if (aidMissing !== null && (aidMissing as AidUnavailableError).slot === 'toolPool')
      outcome = runError(`toolPool aid: ${(aidMissing as AidUnavailableError).message}`);
    else if (!surface || !docs) outcome = runError(`surface ${!surface ? plan.surface : docsId} was deleted`);
    else if (demonstrations === null) outcome = runError(`exemplar set ${asked?.set} has no exemplars`);
    else {
      try {
        outcome = await runEvalTask({
          method: plan.method,
          suite,
          task: {
            id: task.id,
            question: task.question,
            gold: task.gold as Gold,
            dataset: plan.dataset,
            difficulty: plan.difficulty,
          },
          model: meteredModel(model, meter, { runId: taskId }),
          world,
          surface: surface as Surface,
          docs: docs as Surface,
          deps: edgeKernelDeps(env, task.gold),
          memory,
          ...(demonstrations ? { demonstrations } : {}),
          ...(toolPool ? { toolPool } : {}),
        });
      } catch (err) {
        // A model error arrives after the client's own retries (429, 5xx, timeouts, with backoff): running the
        // task again from the queue would spend its calls twice, so it is this run's error. Anything else
        // (storage, a bug) is retried by the queue and becomes the run's error on the last attempt.
        if (!(err instanceof ModelError) && attempt < MAX_ATTEMPTS) throw err;
        const message = err instanceof Error ? err.message : String(err);
        log.warn('eval task run failed', { evalId, group, taskId, attempt, error: message });
        outcome = runError(message, meter.total());
      }
    }
    if (carrier && outcome.error === undefined) memory = carrier.carry(memory, outcome);
    const errorClass = outcome.error !== undefined ? RUN_ERROR : classifyRun(outcome);
    await insertResult(env, {
      id: resultId(evalId, group, index),
      evalId,
      method: plan.method,
      surface: plan.surface,
      taskId,
      dataset: plan.dataset,
      difficulty: plan.difficulty,
      question: task?.question ?? '',
      answer: outcome.answer,
      correct: outcome.correct,
      ending: outcome.error !== undefined ? 'error' : outcome.ending,
      errorClass,
      steps: outcome.steps.length,
      modelCalls: outcome.modelCalls,
      inputTokens: outcome.inputTokens,
      outputTokens: outcome.outputTokens,
      latencyMs: Math.round(outcome.latencyMs),
      trajectory: {
        steps: outcome.steps,
        toolUpdates: outcome.toolUpdates,
        ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      },
      createdAt: Date.now(),
    });
    await chargeSpend(env, { kind: 'evaluation', id: evalId, ownerId: row.ownerId }, outcome.modelCalls);
    ran++;
  }
  await finishIfComplete(env, evalId);
  return { evalId, group: groupKey(plan), from, ran };
}

/** The `eval-group` job kind: one group (method × surface × cell) of an evaluation. */
export const evalGroupJob: JobKind = { kind: EVAL_GROUP, run: runEvalGroup };

/** Planned task runs per (dataset, difficulty) cell, for one method × surface. */
export function plannedPerCell(planned: readonly EvalGroup[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of planned) out.set(`${g.dataset}\u0000${g.difficulty}`, g.taskIds.length);
  return out;
}

export interface EvalComparison {
  previousEvalId: string;
  threshold: number;
  flagged: boolean;
  drops: ReturnType<typeof compareTables>;
  /** Suite settings that changed between the two runs (empty: the same suite). */
  suiteChanged: string[];
}

/**
 * Marks the evaluation done once every planned task run has a result: overall success rate, and for a scheduled
 * run the comparison with the previous finished run of its schedule (flagged when a drop exceeds the threshold).
 */
export async function finishIfComplete(env: Bindings, evalId: string): Promise<boolean> {
  const row = await getEval(env, evalId);
  if (row?.status !== 'running') return false;
  const rows = await resultRows(env, evalId);
  if (rows.length < row.total) return false;
  const suite = row.suite as EvalSuite;
  const current = aggregate(suite, plannedPerCell(row.planned as EvalGroup[]), rows);
  let comparison: EvalComparison | null = null;
  if (row.scheduleId !== null && row.dueTime !== null) {
    const schedule = await getSchedule(env, row.scheduleId);
    const previous = await previousDoneEval(env, row.scheduleId, row.dueTime);
    if (previous) {
      const before = aggregate(
        previous.suite as EvalSuite,
        plannedPerCell(previous.planned as EvalGroup[]),
        await resultRows(env, previous.id),
      );
      const threshold = schedule?.threshold ?? 0.1;
      const drops = compareTables(before.table, current.table, threshold);
      comparison = {
        previousEvalId: previous.id,
        threshold,
        flagged: drops.length > 0,
        drops,
        suiteChanged: suiteChanges(previous.suite as EvalSuite, suite),
      };
    }
  }
  await markEvalDone(env, evalId, {
    successRate: current.successRate,
    flagged: comparison?.flagged ?? false,
    comparison,
  });
  return true;
}
