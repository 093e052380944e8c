/**
 * DRAFT runs at the edge (issue 16): launching a run (D1 rows, then one `draft-tool` queue message per tool, each
 * starting that tool's Durable Object), and the `draft-finalize` job the last finished tool enqueues (the
 * tool-level rewrite per category and the stored documentation set). Both jobs are idempotent: their ids are
 * fixed (`draft-tool:<run>:<tool>`, `draft-finalize:<run>`), the object's `start` leaves an existing tool alone,
 * and the set is stored under `docset-<run>` with insert-or-ignore.
 */
import {
  type DraftEncoder,
  type DraftOptions,
  type DraftOptionsInput,
  DraftOptionsSchema,
} from '../../core/draft/config.ts';
import { type DocSet, explored } from '../../core/draft/docset.ts';
import { DRAFT_STATE_FORMAT, type DraftToolState } from '../../core/draft/loop.ts';
import { finishDocSet, startDocSet, toolStatesFor } from '../../core/draft/run.ts';
import type { EmbeddingModel } from '../../core/models/types.ts';
import type { Bindings } from '../env.ts';
import { readConfig } from '../env.ts';
import { ConflictError, type FieldIssue, InvalidInputError, NotFoundError } from '../errors.ts';
import { embeddingModelFor, type ModelChoice, textModelFor } from '../models.ts';
import {
  cancelDraftRun,
  createDraftRun,
  type DraftRunRow,
  type DraftToolResult,
  getDocset,
  getDraftRun,
  saveDocset,
  setDraftRunStatus,
  setDraftWatchDocset,
} from '../stores/draft.ts';
import { type Owner, ownerIdOf } from '../stores/owners.ts';
import { findSurface } from '../stores/surfaces.ts';
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
export function draftEmbedderFor(env: Bindings, encoder: DraftEncoder | undefined): EmbeddingModel {
  if (encoder === undefined) return embeddingModelFor(env);
  if (encoder === 'auto') {
    const provider = readConfig(env).embeddingProvider;
    return embeddingModelFor(env, provider === 'lexical' ? 'use' : provider);
  }
  return embeddingModelFor(env, encoder);
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
  const docs = await findSurface(env, run.docsSurface);
  if (!docs) throw new Error(`surface ${run.docsSurface} is missing`);
  return startDocSet({ ...common, docs });
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
  surface: string;
  docsSurface: string;
  fromDocset?: string | undefined;
  tools?: string[] | undefined;
  options?: DraftOptionsInput | undefined;
  model: ModelChoice;
  chunkSteps?: number | undefined;
}

/**
 * Checks a run request against this deployment (surfaces, the set it continues, the model, the tools) and
 * launches it; InvalidInputError naming the field otherwise.
 */
export async function startDraftRun(env: Bindings, body: DraftRunRequest, owner?: Owner): Promise<string> {
  for (const field of ['surface', 'docsSurface'] as const) {
    if (!(await findSurface(env, body[field]))) {
      throw bodyError(field, `no surface named ${body[field]}`, `Unknown surface ${body[field]}.`);
    }
  }
  if (body.fromDocset && !(await getDocset(env, body.fromDocset, owner))) {
    throw bodyError('fromDocset', `no documentation set ${body.fromDocset}`, `Unknown documentation set.`);
  }
  textModelFor(env, body.model); // an InvalidInputError when this deployment cannot serve the model choice
  const config: DraftRunConfig = {
    options: DraftOptionsSchema.parse(body.options ?? {}),
    model: body.model,
    tools: [],
    ...(body.chunkSteps ? { chunkSteps: body.chunkSteps } : {}),
  };
  const start = await runStartDocset(env, {
    docsSurface: body.docsSurface,
    serverSurface: body.surface,
    parentDocset: body.fromDocset ?? null,
    config,
  });
  const explorable = explorableTools(start);
  const tools = body.tools ? [...new Set(body.tools)] : explorable;
  const unknown = tools.filter((t) => !explorable.includes(t));
  if (unknown.length > 0) {
    throw bodyError(
      'tools',
      `not an explorable tool of the documentation: ${unknown.slice(0, 5).join(', ')}`,
      `Unknown or unexplorable tool${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).join(', ')}.`,
    );
  }
  config.tools = tools;
  const { id } = await launchDraftRun(env, {
    docsSurface: body.docsSurface,
    serverSurface: body.surface,
    parentDocset: body.fromDocset ?? null,
    config,
    ownerId: ownerIdOf(owner),
  });
  return id;
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

/** Records a run and enqueues its tools; with a trigger, a second launch for it returns the first run. */
export async function launchDraftRun(
  env: Bindings,
  input: LaunchDraftRun,
): Promise<{ id: string; created: boolean }> {
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
  for (const tool of input.config.tools) {
    await enqueueJob(
      env,
      DRAFT_TOOL,
      { runId: made.id, toolKey: tool },
      { id: `${DRAFT_TOOL}:${made.id}:${tool}` },
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
export async function enqueueDraftFinalize(env: Bindings, runId: string): Promise<void> {
  await enqueueJob(env, DRAFT_FINALIZE, { runId }, { id: `${DRAFT_FINALIZE}:${runId}` });
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
  const server = await findSurface(env, run.serverSurface);
  const { docset } = await finishDocSet(start, states, {
    model: textModelFor(env, config.model),
    // The server's names decide what is current documentation (a retired name never is).
    ...(server ? { server } : {}),
    now: new Date(),
  });
  const docsetId = `docset-${runId}`;
  await saveDocset(env, docsetId, runId, docset, run.ownerId);
  await setDraftRunStatus(env, runId, 'succeeded', ['queued', 'running', 'finalizing'], { docsetId });
  if (config.watchId) await setDraftWatchDocset(env, config.watchId, docsetId);
  return { runId, docsetId };
}

export const draftToolJob: JobKind = { kind: DRAFT_TOOL, run: runDraftTool };
export const draftFinalizeJob: JobKind = { kind: DRAFT_FINALIZE, run: finalizeDraftRun };
