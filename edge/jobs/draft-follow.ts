/**
 * Docs that follow drift (issue 16), on every cron tick: for each enabled watch, the surface it follows now (its
 * surface, or its schedule's stage in force) is fingerprinted per kernel tool (core/draft/follow.ts); when the
 * fingerprint differs from the one last launched for, a DRAFT run re-documents only the changed tools, starting
 * from the watch's last documentation set. The run's trigger (`watch:<id>:<fingerprint hash>`) is unique in D1,
 * so a change seen by several ticks — or by a tick fired twice — launches one run.
 */

import { type DraftOptionsInput, DraftOptionsSchema } from '../../core/draft/config.ts';
import {
  changedKernels,
  type Fingerprint,
  followTrigger,
  keysForKernels,
  surfaceFingerprint,
  watchedSurfaceId,
} from '../../core/draft/follow.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import type { Schedule } from '../../core/surfaces/schedule.ts';
import type { Bindings } from '../env.ts';
import type { Logger } from '../log.ts';
import { type ModelChoice, textModelFor } from '../models.ts';
import {
  createDraftWatch,
  type DraftWatchRow,
  enabledDraftWatches,
  markDraftWatchLaunched,
} from '../stores/draft.ts';
import type { Owner } from '../stores/owners.ts';
import { findSurface } from '../stores/surfaces.ts';
import { bodyError, type DraftRunConfig, explorableTools, launchDraftRun, runStartDocset } from './draft.ts';

export type WatchTarget = { surface: string } | { schedule: Schedule };

/** What a watch stores in `config`. */
export interface DraftWatchConfig extends Omit<DraftRunConfig, 'tools'> {
  /** Only these tool keys are followed (default: every explorable tool). */
  tools?: string[];
}

export interface FollowOutcome {
  watchId: string;
  surface?: string;
  runId?: string;
  created?: boolean;
  tools?: string[];
  error?: string;
}

async function surfacesOf(env: Bindings, target: WatchTarget): Promise<Map<string, Surface>> {
  const ids = 'surface' in target ? [target.surface] : target.schedule.stages.map((s) => s.surface);
  const out = new Map<string, Surface>();
  for (const id of new Set(ids)) {
    const s = await findSurface(env, id);
    if (!s) throw new Error(`unknown surface ${id}`);
    out.set(id, s);
  }
  return out;
}

async function followOne(env: Bindings, watch: DraftWatchRow, now: Date): Promise<FollowOutcome> {
  const target = watch.target as WatchTarget;
  const config = watch.config as DraftWatchConfig;
  const surfaces = await surfacesOf(env, target);
  const surfaceId = watchedSurfaceId(target, surfaces, now);
  const fingerprint = surfaceFingerprint(surfaces.get(surfaceId)!);
  const changed = changedKernels((watch.fingerprint as Fingerprint | null) ?? null, fingerprint);
  if (changed.length === 0) return { watchId: watch.id, surface: surfaceId };
  const docs = await findSurface(env, watch.docsSurface);
  if (!docs) throw new Error(`unknown surface ${watch.docsSurface}`);
  const tools = keysForKernels(docs, changed, config.tools);
  if (tools.length === 0) {
    await markDraftWatchLaunched(env, watch.id, fingerprint, null);
    return { watchId: watch.id, surface: surfaceId, tools: [] };
  }
  const { tools: _followed, ...rest } = config;
  const launch = await launchDraftRun(env, {
    docsSurface: watch.docsSurface,
    serverSurface: surfaceId,
    parentDocset: watch.lastDocset,
    config: { ...rest, tools, watchId: watch.id },
    trigger: followTrigger(watch.id, fingerprint),
    ownerId: watch.ownerId,
  });
  if (launch.created) await markDraftWatchLaunched(env, watch.id, fingerprint, launch.id);
  return { watchId: watch.id, surface: surfaceId, runId: launch.id, created: launch.created, tools };
}

export async function followDrift(
  env: Bindings,
  scheduledTime: number,
  log: Logger,
): Promise<FollowOutcome[]> {
  const out: FollowOutcome[] = [];
  for (const watch of await enabledDraftWatches(env)) {
    try {
      const o = await followOne(env, watch, new Date(scheduledTime));
      if (o.runId)
        log.info(o.created ? 'draft re-documentation launched' : 'draft change already launched', { ...o });
      out.push(o);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log.warn('draft watch could not be followed', { watchId: watch.id, error });
      out.push({ watchId: watch.id, error });
    }
  }
  return out;
}

/** A request to create a watch (POST /v1/draft/watches, validated). */
export interface DraftWatchRequest {
  surface?: string | undefined;
  schedule?: Schedule | undefined;
  docsSurface: string;
  tools?: string[] | undefined;
  options?: DraftOptionsInput | undefined;
  model: ModelChoice;
  chunkSteps?: number | undefined;
}

/** Checks a watch request (one target, known surfaces, the model, explorable tools) and stores the watch. */
export async function createWatch(
  env: Bindings,
  body: DraftWatchRequest,
  owner?: Owner,
): Promise<DraftWatchRow> {
  if ((body.surface === undefined) === (body.schedule === undefined)) {
    throw bodyError(
      'surface',
      'give exactly one of surface and schedule',
      'Give exactly one of surface and schedule.',
    );
  }
  const target: WatchTarget =
    body.surface !== undefined ? { surface: body.surface } : { schedule: body.schedule! };
  const ids = 'surface' in target ? [target.surface] : target.schedule.stages.map((s) => s.surface);
  for (const id of [body.docsSurface, ...ids]) {
    if (!(await findSurface(env, id))) {
      const field = id === body.docsSurface ? 'docsSurface' : 'surface' in target ? 'surface' : 'schedule';
      throw bodyError(field, `no surface named ${id}`, `Unknown surface ${id}.`);
    }
  }
  textModelFor(env, body.model);
  const docs = await runStartDocset(env, {
    docsSurface: body.docsSurface,
    serverSurface: ids[0]!,
    parentDocset: null,
    config: { options: DraftOptionsSchema.parse({}), model: body.model, tools: [] },
  });
  const explorable = explorableTools(docs);
  const unknown = (body.tools ?? []).filter((t) => !explorable.includes(t));
  if (unknown.length > 0) {
    throw bodyError('tools', `not an explorable tool: ${unknown.slice(0, 5).join(', ')}`, 'Unknown tools.');
  }
  const config: DraftWatchConfig = {
    options: DraftOptionsSchema.parse(body.options ?? {}),
    model: body.model,
    ...(body.tools ? { tools: [...new Set(body.tools)] } : {}),
    ...(body.chunkSteps ? { chunkSteps: body.chunkSteps } : {}),
  };
  return createDraftWatch(
    env,
    { id: crypto.randomUUID(), docsSurface: body.docsSurface, target, config },
    owner,
  );
}
