/**
 * Docs that follow drift (issue 16), on every cron tick: for each enabled watch, the surface it follows now (its
 * surface, or its schedule's stage in force) is fingerprinted per kernel tool (core/draft/follow.ts); when the
 * fingerprint differs from the one last launched for, a DRAFT run re-documents only the changed tools, starting
 * from the watch's last documentation set. The run's trigger (`watch:<id>:<fingerprint hash>`) is unique in D1,
 * so a change seen by several ticks — or by a tick fired twice — launches one run. A watch may follow an imported
 * API's surface or a schedule of its surfaces (issue 23 §2): its changed operations are re-documented.
 */

import type { ApiSurface } from '../../core/apis/surface/model.ts';
import { type DraftOptionsInput, DraftOptionsSchema } from '../../core/draft/config.ts';
import {
  apiSurfaceFingerprint,
  changedKernels,
  type Fingerprint,
  followTrigger,
  keysForKernels,
  keysForOperations,
  surfaceFingerprint,
  watchedSurfaceId,
} from '../../core/draft/follow.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import type { Schedule } from '../../core/surfaces/schedule.ts';
import type { Bindings } from '../env.ts';
import {
  findExploreSurface,
  type ResolvedSurface,
  requireExploreSurface,
  requireSameBackend,
} from '../explore-surfaces.ts';
import type { Logger } from '../log.ts';
import { type ModelChoice, textModelFor } from '../models.ts';
import {
  createDraftWatch,
  type DraftWatchRow,
  enabledDraftWatches,
  markDraftWatchLaunched,
} from '../stores/draft.ts';
import type { Owner } from '../stores/owners.ts';
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

async function surfacesOf(env: Bindings, target: WatchTarget): Promise<Map<string, ResolvedSurface>> {
  const ids = 'surface' in target ? [target.surface] : target.schedule.stages.map((s) => s.surface);
  const out = new Map<string, ResolvedSurface>();
  for (const id of new Set(ids)) {
    const s = await findExploreSurface(env, id);
    if (!s) throw new Error(`unknown surface ${id}`);
    out.set(id, s);
  }
  return out;
}

async function followOne(env: Bindings, watch: DraftWatchRow, now: Date): Promise<FollowOutcome> {
  const target = watch.target as WatchTarget;
  const config = watch.config as DraftWatchConfig;
  const surfaces = await surfacesOf(env, target);
  const bare = new Map([...surfaces].map(([id, s]) => [id, s.surface]));
  const surfaceId = watchedSurfaceId(target, bare as Map<string, Surface> | Map<string, ApiSurface>, now);
  const served = surfaces.get(surfaceId)!;
  // Kernel surfaces are fingerprinted per kernel tool, an imported API's per base operation.
  const fingerprint =
    served.backend === 'api' ? apiSurfaceFingerprint(served.surface) : surfaceFingerprint(served.surface);
  const changed = changedKernels((watch.fingerprint as Fingerprint | null) ?? null, fingerprint);
  if (changed.length === 0) return { watchId: watch.id, surface: surfaceId };
  const docs = await findExploreSurface(env, watch.docsSurface);
  if (!docs) throw new Error(`unknown surface ${watch.docsSurface}`);
  const tools =
    docs.backend === 'api'
      ? keysForOperations(docs.surface, changed, config.tools)
      : keysForKernels(docs.surface, changed, config.tools);
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
  /** Default: `pc` for kernel surfaces, the API as imported for an API's surfaces. */
  docsSurface?: string | undefined;
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
  // Kernel surfaces, or surfaces of one API this key may use (the docs of the same kind: `pc`, or the API as
  // imported by default).
  const followed: ResolvedSurface[] = [];
  for (const [i, id] of ids.entries()) {
    const field = 'surface' in target ? 'surface' : `schedule.stages.${i}.surface`;
    const s = await requireExploreSurface(env, id, field, owner);
    if (followed[0]) requireSameBackend(followed[0], s, field);
    followed.push(s);
  }
  const first = followed[0]!;
  const docsSurface = body.docsSurface ?? (first.backend === 'api' ? first.api.id : 'pc');
  requireSameBackend(
    first,
    await requireExploreSurface(env, docsSurface, 'docsSurface', owner),
    'docsSurface',
  );
  textModelFor(env, body.model);
  const docs = await runStartDocset(env, {
    docsSurface,
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
  return createDraftWatch(env, { id: crypto.randomUUID(), docsSurface, target, config }, owner);
}
