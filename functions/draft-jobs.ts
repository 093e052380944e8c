/**
 * DRAFT runs at the edge (issue 16): launching a run (D1 rows, then one `draft-tool` queue message per tool, each
 * starting that tool's Durable Object), and the `draft-finalize` job the last finished tool enqueues (the
 * tool-level rewrite per category and the stored documentation set). Both jobs are idempotent: their ids are
 * fixed (`draft-tool:<run>:<tool>`, `draft-finalize:<run>`), the object's `start` leaves an existing tool alone,
 * and the set is stored under `docset-<run>` with insert-or-ignore.
 */
import type { DraftOptions } from '../core/draft/config.ts';
import type { DocSet } from '../core/draft/docset.ts';
import { DRAFT_STATE_FORMAT, type DraftToolState } from '../core/draft/loop.ts';
import { finishDocSet, startDocSet, toolStatesFor } from '../core/draft/run.ts';
import type { DraftToolProgress, DraftToolStartParams } from '../durable-objects/draft-tool.ts';
import { setRunToolsDoneHandler } from '../durable-objects/draft-tool.ts';
import {
  createDraftRun,
  type DraftRunRow,
  type DraftToolResult,
  getDocset,
  getDraftRun,
  saveDocset,
  setDraftRunStatus,
  setDraftWatchDocset,
} from '../edge/stores/draft.ts';
import type { Bindings } from './env.ts';
import { enqueueJob, registerJobKind } from './jobs.ts';
import { type ModelChoice, textModelFor } from './models.ts';
import { findSurface } from './surface-store.ts';

export const DRAFT_TOOL = 'draft-tool';
export const DRAFT_FINALIZE = 'draft-finalize';

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

export interface DraftToolRpc {
  start(params: DraftToolStartParams): Promise<DraftToolProgress>;
  progress(): Promise<DraftToolProgress | null>;
  state(): Promise<DraftToolState | null>;
  cancel(): Promise<DraftToolProgress | null>;
}

export function draftToolStub(env: Bindings, runId: string, toolKey: string): DraftToolRpc {
  return env.DRAFT_TOOLS.get(env.DRAFT_TOOLS.idFromName(`${runId}/${toolKey}`)) as unknown as DraftToolRpc;
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
    options: config.options,
  };
  if (run.parentDocset) {
    const set = await getDocset(env.DB, run.parentDocset);
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
}

/** Records a run and enqueues its tools; with a trigger, a second launch for it returns the first run. */
export async function launchDraftRun(
  env: Bindings,
  input: LaunchDraftRun,
): Promise<{ id: string; created: boolean }> {
  const made = await createDraftRun(env.DB, {
    id: crypto.randomUUID(),
    docsSurface: input.docsSurface,
    serverSurface: input.serverSurface,
    parentDocset: input.parentDocset,
    config: input.config,
    tools: input.config.tools,
    ...(input.trigger ? { trigger: input.trigger } : {}),
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

registerJobKind(DRAFT_TOOL, async (payload, { env }) => {
  const { runId, toolKey } = payload as { runId: string; toolKey: string };
  const found = await getDraftRun(env.DB, runId);
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
  await setDraftRunStatus(env.DB, runId, 'running', ['queued']);
  return { runId, toolKey, status: progress.status };
});

registerJobKind(DRAFT_FINALIZE, async (payload, { env }) => {
  const { runId } = payload as { runId: string };
  const found = await getDraftRun(env.DB, runId);
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
      modelCalls: r.modelCalls,
      toolCalls: r.toolCalls,
      model: r.model,
    });
  }
  if (states.length === 0) {
    await setDraftRunStatus(env.DB, runId, 'failed', ['queued', 'running', 'finalizing'], {
      error: 'no tool finished',
    });
    return { runId, status: 'failed' };
  }
  await setDraftRunStatus(env.DB, runId, 'finalizing', ['queued', 'running']);
  const config = run.config as DraftRunConfig;
  const { docset } = await finishDocSet(start, states, { model: textModelFor(env, config.model) });
  const docsetId = `docset-${runId}`;
  await saveDocset(env.DB, docsetId, runId, docset);
  await setDraftRunStatus(env.DB, runId, 'succeeded', ['queued', 'running', 'finalizing'], { docsetId });
  if (config.watchId) await setDraftWatchDocset(env.DB, config.watchId, docsetId);
  return { runId, docsetId };
});

setRunToolsDoneHandler(async (env, runId) => {
  await enqueueJob(env, DRAFT_FINALIZE, { runId }, { id: `${DRAFT_FINALIZE}:${runId}` });
});
