/**
 * The `ste-tool` job: one queue message per explored tool of an STE run, which starts the tool's Durable Object
 * (`SteExplorerObject`, one per (run, tool)). Starting is idempotent twice over: the job id is
 * `${runId}:${tool}` (enqueueJob sends it once), and `start` leaves an existing exploration alone, so a
 * redelivered message creates no second exploration and no duplicate exemplar (their D1 ids are deterministic
 * as well).
 */

import type { SteState } from '../core/ste/engine.ts';
import type { SteToolParams, SteToolProgress } from '../durable-objects/ste-explorer.ts';
import { findSteRun, findSteTool, markSteToolStarted } from '../edge/stores/ste.ts';
import type { Bindings } from './env.ts';
import { registerJobKind } from './jobs.ts';
import type { ModelChoice } from './models.ts';

export const STE_TOOL = 'ste-tool';

export interface SteToolPayload {
  runId: string;
  tool: string;
}

/** What POST /v1/ste/runs stores in `ste_runs.config` (the validated request, resolved). */
export interface SteRunConfig {
  surface: string;
  docs: string;
  since: string | null;
  tools: string[];
  model: ModelChoice;
  judge: ModelChoice | null;
  seed: string;
  episodes: number;
  trials: number;
  maxCalls: number;
  paraphrase: boolean;
  chunkCalls?: number;
}

export interface SteRpc {
  start(params: SteToolParams): Promise<SteToolProgress>;
  progress(): Promise<SteToolProgress | null>;
  state(): Promise<SteState | null>;
  cancel(): Promise<SteToolProgress | null>;
}

export function steStub(env: Bindings, runId: string, tool: string): SteRpc {
  return env.STE.get(env.STE.idFromName(`${runId}/${tool}`)) as unknown as SteRpc;
}

registerJobKind(STE_TOOL, async (payload, { env }) => {
  const { runId, tool } = payload as SteToolPayload;
  const [run, row] = await Promise.all([findSteRun(env.DB, runId), findSteTool(env.DB, runId, tool)]);
  if (!run || !row) throw new Error(`STE run ${runId} or its tool ${tool} is missing`);
  if (run.status === 'cancelled' || row.status === 'cancelled') return { runId, tool, skipped: 'cancelled' };
  const config = run.config as SteRunConfig;
  const params: SteToolParams = {
    runId,
    surfaceId: run.surfaceId,
    surfaceVersion: run.surfaceVersion,
    docsSurfaceId: run.docsSurfaceId,
    model: config.model,
    ...(config.judge ? { judge: config.judge } : {}),
    options: {
      tool,
      seed: config.seed,
      episodes: config.episodes,
      trials: config.trials,
      maxCalls: config.maxCalls,
      paraphrase: config.paraphrase,
    },
    ...(config.chunkCalls ? { chunkCalls: config.chunkCalls } : {}),
  };
  const progress = await steStub(env, runId, tool).start(params);
  await markSteToolStarted(env.DB, runId, tool);
  return { runId, tool, status: progress.status };
});
