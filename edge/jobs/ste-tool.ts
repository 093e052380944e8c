/**
 * The `ste-tool` job: one queue message per explored tool of an STE run, which starts the tool's Durable Object
 * (`SteExplorerObject`, one per (run, tool)). Starting is idempotent twice over: the job id is
 * `${runId}:${tool}` (enqueueJob sends it once), and `start` leaves an existing exploration alone, so a
 * redelivered message creates no second exploration and no duplicate exemplar (their D1 ids are deterministic
 * as well).
 */

import { type SteRunConfig, steEngineOptions } from '../../core/ste/run-request.ts';
import type { SteToolParams } from '../../durable-objects/ste-explorer.ts';
import { findSteRun, findSteTool, markSteToolStarted } from '../stores/ste.ts';
import { steStub } from '../stubs.ts';
import type { JobContext, JobKind } from './types.ts';

export const STE_TOOL = 'ste-tool';

export interface SteToolPayload {
  runId: string;
  tool: string;
}

async function steTool(payload: unknown, { env }: JobContext) {
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
    options: { tool, ...steEngineOptions(config) },
    ...(config.chunkCalls ? { chunkCalls: config.chunkCalls } : {}),
  };
  const progress = await steStub(env, runId, tool).start(params);
  await markSteToolStarted(env.DB, runId, tool);
  return { runId, tool, status: progress.status };
}

export const steToolJob: JobKind = { kind: STE_TOOL, run: steTool };
