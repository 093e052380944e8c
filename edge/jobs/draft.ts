/**
 * DRAFT runs at the edge (issue 16): launching a run (D1 rows, then one `draft-tool` queue message per tool, each
 * starting that tool's Durable Object), and the `draft-finalize` job the last finished tool enqueues (the
 * tool-level rewrite per category and the stored documentation set). Both jobs are idempotent: their ids are
 * fixed (`draft-tool:<run>:<tool>`, `draft-finalize:<run>`), the object's `start` leaves an existing tool alone,
 * and the set is stored under `docset-<run>` with insert-or-ignore. A run explores a kernel surface or an imported
 * API's surface (issue 23 §2, edge/explore-surfaces.ts): the API's id or a drifted version of it, each served
 * operation one tool, its set carrying the API (`DocSet.api`) for an API evaluation's documentation aid.
 */
import {
  type DraftEncoder,
  type DraftOptions,
  type DraftOptionsInput,
  DraftOptionsSchema,
  draftToolEmbedRequests,
  draftToolModelCalls,
} from '../../core/draft/config.ts';
import { type DocSet, explored } from '../../core/draft/docset.ts';
import { DRAFT_STATE_FORMAT, type DraftToolState } from '../../core/draft/loop.ts';
import { finishDocSet, settleDocSet, startDocSet, toolStatesFor } from '../../core/draft/run.ts';
import type { EmbeddingModel } from '../../core/models/types.ts';
import { meteredModel, UsageMeter } from '../../core/models/usage.ts';
import { type Bindings, type Config, readConfig } from '../env.ts';
import { ConflictError, type FieldIssue, InvalidInputError, NotFoundError } from '../errors.ts';
import { findExploreSurface, requireExploreSurface, requireSameBackend } from '../explore-surfaces.ts';
import {
  chargeSpend,
  checkQuota,
  type Estimate,
  embeddingBills,
  mayContinue,
  requireExplicitScope,
} from '../metering.ts';
import { embeddingModelFor, type ModelChoice, textModelFor } from '../models.ts';
import {
  cancelDraftRun,
  createDraftRun,
  type DraftRunRow,
  type DraftToolResult,
  draftRunOwner,
  getDocset,
  getDraftRun,
  saveDocset,
  setDraftRunStatus,
  setDraftWatchDocset,
} from '../stores/draft.ts';
import { type Owner, ownerIdOf } from '../stores/owners.ts';
import { insertSpend } from '../stores/spend.ts';
import { draftToolStub } from '../stubs.ts';
import { enqueueJob } from './enqueue.ts';
import type { JobContext, JobKind } from './types.ts';

export const DRAFT_TOOL = 'draft-tool';
export const DRAFT_FINALIZE = 'draft-finalize';

export interface DraftToolPayload {
  runId: string;
  toolKey: string;
}

/** What a run stores in `draft_runs.config`. */
export interface DraftRunConfig {
  options: DraftOptions;
  model: ModelChoice;
  /** The tool keys the run re-documents. */
  tools: string[];
  chunkSteps?: number;
  /** The watch that launched the run (docs that follow drift), whose last set it becomes. */
  watchId?: string;
}

/**
 * The encoder of a run's φ and Δ (core/draft/config.ts `encoder`): `auto` — the deployment's provider embedding
 * when one is configured (Workers AI, OpenAI), else USE lite in the isolate (the weight-free lexical encoder is not
 * a sentence encoder; the paper's thresholds were set for ada-002); `use`; `lexical`. A state stored before the
 * option existed (no `encoder`) keeps the deployment's embedding model, as it was measured with.
 */
export function draftEncoderProvider(
  env: Bindings,
  encoder: DraftEncoder | undefined,
): Config['embeddingProvider'] {
  const provider = readConfig(env).embeddingProvider;
  if (encoder === undefined) return provider;
  if (encoder === 'auto') return provider === 'lexical' ? 'use' : provider;
  return encoder;
}

/**
 * The embedding model of a run's φ and Δ (`draftEncoderProvider`), paced like every model of embeddingModelFor
 * (USE lite embeds in small groups between yields); its requests are model calls when `embeddingBills`.
 */
export function draftEmbedderFor(env: Bindings, encoder: DraftEncoder | undefined): EmbeddingModel {
  return embeddingModelFor(env, draftEncoderProvider(env, encoder));
}

/** The documentation set a stored run starts from. */
export async function runStartDocset(
  env: Bindings,
  run: Pick<DraftRunRow, 'docsSurface' | 'serverSurface' | 'parentDocset' | 'config'>,
): Promise<DocSet> {
  const config = run.config as DraftRunConfig;
  const model = textModelFor(env, config.model);
  const common = {
    server: run.serverSurface,
    model: model.model,
    simulated: model.capabilities.simulated,
    encoder: draftEmbedderFor(env, config.options.encoder).model,
    options: config.options,
  };
  if (run.parentDocset) {
    const set = await getDocset(env, run.parentDocset);
    if (!set) throw new Error(`documentation set ${run.parentDocset} is missing`);
    return startDocSet({ ...common, from: { id: run.parentDocset, set } });
  }
  const docs = await findExploreSurface(env, run.docsSurface);
  if (!docs) throw new Error(`surface ${run.docsSurface} is missing`);
  return startDocSet({
    ...common,
    docs: docs.surface,
    ...(docs.backend === 'api' ? { catalog: docs.catalog } : {}),
  });
}

export interface LaunchDraftRun {
  docsSurface: string;
  serverSurface: string;
  parentDocset: string | null;
  config: DraftRunConfig;
  trigger?: string;
  /** The launching key (a watch's run: the watch's owner). */
  ownerId?: string | null;
}

/** An InvalidInputError about one body field. */
export function bodyError(field: string, message: string, detail: string): InvalidInputError {
  const issue: FieldIssue = { in: 'body', field, pointer: `/${field}`, message };
  return new InvalidInputError(detail, [issue]);
}

/** The tool keys of a documentation set that DRAFT explores. */
export function explorableTools(set: DocSet): string[] {
  return set.tools.filter((t) => explored(t.category)).map((t) => t.key);
}

/** A request to start a DRAFT run (POST /v1/draft/runs, validated). */
export interface DraftRunRequest {
  /** A kernel surface, or an imported API's surface (the API's id or a drifted version's). */
  surface: string;
  /** Default: `pc` for a kernel surface, the API as imported for an API surface. */
  docsSurface?: string | undefined;
  fromDocset?: string | undefined;
  tools?: string[] | 'all' | undefined;
  options?: DraftOptionsInput | undefined;
  model: ModelChoice;
  chunkSteps?: number | undefined;
}

/**
 * The most model calls a run of `config` makes: per tool, core/draft/config.ts `draftToolModelCalls` text-model
 * calls, and `draftToolEmbedRequests` encoder requests when the run's encoder bills (a provider embedding).
 */
export function draftRunEstimate(env: Bindings, config: Pick<DraftRunConfig, 'options' | 'tools'>): Estimate {
  const embeds = embeddingBills(draftEncoderProvider(env, config.options.encoder))
    ? draftToolEmbedRequests(config.options)
    : 0;
  return { modelCalls: config.tools.length * (draftToolModelCalls(config.options) + embeds) };
}

/**
 * Checks a run request against this deployment (surfaces, the set it continues, the model, the tools); the launch
 * it describes, or InvalidInputError naming the field. A request that leaves `tools` to the default (every
 * explorable tool) must say `"all"` when that would cost EXPLICIT_SCOPE_CALLS model calls or more.
 */
export async function planDraftRun(
  env: Bindings,
  body: DraftRunRequest,
  owner?: Owner,
): Promise<{ launch: LaunchDraftRun; estimate: Estimate }> {
  // A kernel surface, or an imported API's surface this key may use; the documentation is of the same kind (an
  // API's own documentation by default, the P_c surface for a kernel surface).
  const server = await requireExploreSurface(env, body.surface, 'surface', owner);
  const docsSurface = body.docsSurface ?? (server.backend === 'api' ? server.api.id : 'pc');
  requireSameBackend(
    server,
    await requireExploreSurface(env, docsSurface, 'docsSurface', owner),
    'docsSurface',
  );
  if (body.fromDocset) {
    const from = await getDocset(env, body.fromDocset, owner);
    if (!from) {
      throw bodyError('fromDocset', `no documentation set ${body.fromDocset}`, `Unknown documentation set.`);
    }
    const api = server.backend === 'api' ? server.api.id : undefined;
    if (from.api !== api) {
      throw bodyError(
        'fromDocset',
        `documents ${from.api ? `API ${from.api}` : 'kernel tools'}, not ${api ? `API ${api}` : 'kernel tools'}`,
        `Documentation set ${body.fromDocset} does not document the explored surface's tools.`,
      );
    }
  }
  textModelFor(env, body.model); // an InvalidInputError when this deployment cannot serve the model choice
  const config: DraftRunConfig = {
    options: DraftOptionsSchema.parse(body.options ?? {}),
    model: body.model,
    tools: [],
    ...(body.chunkSteps ? { chunkSteps: body.chunkSteps } : {}),
  };
  const start = await runStartDocset(env, {
    docsSurface,
    serverSurface: body.surface,
    parentDocset: body.fromDocset ?? null,
    config,
  });
  const explorable = explorableTools(start);
  const tools = Array.isArray(body.tools) ? [...new Set(body.tools)] : explorable;
  const unknown = tools.filter((t) => !explorable.includes(t));
  if (unknown.length > 0) {
    throw bodyError(
      'tools',
      `not an explorable tool of the documentation: ${unknown.slice(0, 5).join(', ')}`,
      `Unknown or unexplorable tool${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}.`,
    );
  }
  config.tools = tools;
  const estimate = draftRunEstimate(env, config);
  requireExplicitScope(
    estimate,
    body.tools !== undefined,
    'tools',
    `every explorable tool (${tools.length})`,
  );
  return {
    launch: {
      docsSurface,
      serverSurface: body.surface,
      parentDocset: body.fromDocset ?? null,
      config,
      ownerId: ownerIdOf(owner),
    },
    estimate,
  };
}

/** Cancels a run and stops its unfinished tools' objects (NotFoundError, or ConflictError once it has ended). */
export async function stopDraftRun(env: Bindings, id: string, owner?: Owner): Promise<void> {
  const found = await getDraftRun(env, id, owner);
  if (!found) throw new NotFoundError(`No DRAFT run with id ${id}.`);
  if (!(await cancelDraftRun(env, id))) {
    throw new ConflictError(`The run has already ended (${found.run.status}).`);
  }
  for (const t of found.tools) {
    if (t.status === 'queued' || t.status === 'running') await draftToolStub(env, id, t.toolKey).cancel();
  }
}

/**
 * Stops a run by itself (`reason`, e.g. its key's quota ran out): the run and its open tools are cancelled, and the
 * objects of its running tools other than `except` (the caller, which stops itself) are stopped.
 */
export async function stopDraftRunFor(
  env: Bindings,
  id: string,
  reason: string,
  except?: string,
): Promise<void> {
  const found = await getDraftRun(env, id);
  if (!found || !(await cancelDraftRun(env, id, reason))) return;
  for (const t of found.tools) {
    if (t.toolKey === except) continue;
    if (t.status === 'queued' || t.status === 'running') await draftToolStub(env, id, t.toolKey).cancel();
  }
}

/**
 * Checks the run's estimate against its key's quota (edge/metering.ts), records the run and enqueues its tools; with
 * a trigger, a second launch for it returns the first run.
 */
export async function launchDraftRun(
  env: Bindings,
  input: LaunchDraftRun,
): Promise<{ id: string; created: boolean }> {
  const ownerId = input.ownerId ?? null;
  const estimate = draftRunEstimate(env, input.config);
  await checkQuota(env, ownerId, estimate);
  const made = await createDraftRun(env, {
    id: crypto.randomUUID(),
    docsSurface: input.docsSurface,
    serverSurface: input.serverSurface,
    parentDocset: input.parentDocset,
    config: input.config,
    tools: input.config.tools,
    ...(input.trigger ? { trigger: input.trigger } : {}),
    ownerId: input.ownerId ?? null,
  });
  if (!made.created) return made;
  await insertSpend(env, { kind: 'draft', subjectId: made.id, ownerId, estimate: estimate.modelCalls });
  for (const tool of input.config.tools) {
    await enqueueJob(
      env,
      DRAFT_TOOL,
      { runId: made.id, toolKey: tool },
      { id: `${DRAFT_TOOL}:${made.id}:${tool}`, ownerId },
    );
  }
  return made;
}

async function runDraftTool(payload: unknown, { env }: JobContext) {
  const { runId, toolKey } = payload as DraftToolPayload;
  const found = await getDraftRun(env, runId);
  if (!found) throw new Error(`draft run ${runId} is missing`);
  if (found.run.status === 'cancelled') return { runId, toolKey, skipped: 'cancelled' };
  const config = found.run.config as DraftRunConfig;
  const start = await runStartDocset(env, found.run);
  const [state] = toolStatesFor(start, [toolKey]);
  if (!state) throw new Error(`tool ${toolKey} is not explored in run ${runId}`);
  const progress = await draftToolStub(env, runId, toolKey).start({
    runId,
    state,
    serverSurface: found.run.serverSurface,
    model: config.model,
    ...(config.chunkSteps ? { chunkSteps: config.chunkSteps } : {}),
  });
  await setDraftRunStatus(env, runId, 'running', ['queued']);
  return { runId, toolKey, status: progress.status };
}

/** Enqueues a run's finalisation once (called by the last tool's Durable Object when that tool has ended). */
export async function enqueueDraftFinalize(env: Bindings, runId: string): Promise<boolean> {
  const ownerId = await draftRunOwner(env, runId);
  return (await enqueueJob(env, DRAFT_FINALIZE, { runId }, { id: `${DRAFT_FINALIZE}:${runId}`, ownerId }))
    .created;
}

async function finalizeDraftRun(payload: unknown, { env }: JobContext) {
  const { runId } = payload as { runId: string };
  const found = await getDraftRun(env, runId);
  if (!found) throw new Error(`draft run ${runId} is missing`);
  const { run, tools } = found;
  if (run.status === 'succeeded' || run.status === 'cancelled') return { runId, skipped: run.status };
  const start = await runStartDocset(env, run);
  const states: DraftToolState[] = [];
  for (const t of tools) {
    if (t.status !== 'succeeded' || !t.result) continue;
    const r = t.result as DraftToolResult;
    const entry = start.tools.find((e) => e.key === t.toolKey);
    if (!entry) continue;
    // The finished loop state as applyToolStates reads it (the rest of the state stays in the object).
    states.push({
      ...toolStatesFor(start, [t.toolKey])[0]!,
      format: DRAFT_STATE_FORMAT,
      phase: 'done',
      doc: r.doc,
      versions: r.versions,
      stop: r.stop,
      flags: r.flags ?? [],
      modelCalls: r.modelCalls,
      toolCalls: r.toolCalls,
      model: r.model,
    });
  }
  if (states.length === 0) {
    await setDraftRunStatus(env, runId, 'failed', ['queued', 'running', 'finalizing'], {
      error: 'no tool finished',
    });
    return { runId, status: 'failed' };
  }
  await setDraftRunStatus(env, runId, 'finalizing', ['queued', 'running']);
  const config = run.config as DraftRunConfig;
  const spend = { kind: 'draft' as const, id: runId, ownerId: run.ownerId };
  // The server's names decide what is current documentation (a retired name never is).
  const server = (await findExploreSurface(env, run.serverSurface))?.surface;
  const served = { ...(server ? { server } : {}), now: new Date() };
  // The tool-level rewrites are the run's last batch: with the quota used up the run ends with the tools' own
  // documentation, and what the rewrites' calls were is charged whether they succeed or not.
  const meter = new UsageMeter();
  const docset = (await mayContinue(env, run.ownerId))
    ? (
        await finishDocSet(start, states, {
          model: meteredModel(textModelFor(env, config.model), meter, { runId }),
          ...served,
        }).finally(() => chargeSpend(env, spend, meter.total().calls))
      ).docset
    : settleDocSet(start, states, served);
  const docsetId = `docset-${runId}`;
  await saveDocset(env, docsetId, runId, docset, run.ownerId);
  await setDraftRunStatus(env, runId, 'succeeded', ['queued', 'running', 'finalizing'], { docsetId });
  if (config.watchId) await setDraftWatchDocset(env, config.watchId, docsetId);
  return { runId, docsetId };
}

export const draftToolJob: JobKind = { kind: DRAFT_TOOL, run: runDraftTool };
export const draftFinalizeJob: JobKind = { kind: DRAFT_FINALIZE, run: finalizeDraftRun };
