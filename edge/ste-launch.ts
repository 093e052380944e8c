/**
 * Launching an STE run (issue 15), shared by `POST /v1/ste/runs` and the cron tick's stage-change launches
 * (edge/jobs/ste-schedules.ts): the request (core/ste/run-request.ts) checked against the surfaces (unknown
 * surface or tool, nothing changed since `since`: InvalidInputError, a 400 over HTTP) with its model-call estimate
 * (`planSteRun`), then the estimate against the owner's quota, the run and tool rows, and one `ste-tool` job per
 * tool (`launchSteRun`).
 */

import { isApiSurface } from '../core/apis/surface/model.ts';
import { steToolModelCalls } from '../core/ste/constants.ts';
import { heldOutKeys } from '../core/ste/held-out.ts';
import type { CreateSteRunInput, SteRunConfig } from '../core/ste/run-request.ts';
import { steTargetTools, surfaceVersion } from '../core/ste/targets.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError } from './errors.ts';
import { requireExploreSurface, requireSameBackend } from './explore-surfaces.ts';
import { enqueueJob } from './jobs/enqueue.ts';
import { STE_TOOL } from './jobs/ste-tool.ts';
import { checkQuota, type Estimate } from './metering.ts';
import { textModelFor } from './models.ts';
import { apiQueryTexts } from './stores/apis.ts';
import type { Owner } from './stores/owners.ts';
import { insertSpend } from './stores/spend.ts';
import { createSteRun, findSteRun, type SteRunRow, steRunByTrigger } from './stores/ste.ts';

/** A checked run request: what it explores, its stored configuration and its model-call estimate. */
export interface StePlan {
  surfaceId: string;
  surfaceVersion: string;
  docsId: string;
  sinceId: string | null;
  tools: string[];
  config: SteRunConfig;
  /** The most model calls the run makes: its tools times one tool's bound (core/ste/constants.ts). */
  estimate: Estimate;
}

/**
 * Checks a run request against the surfaces and the model choice (InvalidInputError naming the field otherwise).
 * `surface` is a kernel surface or an imported API's surface the key may use (issue 23 §3); `docs` and `since` are
 * then surfaces of the same API. A run on an API carries the keys of its evaluation queries (every query set of
 * the API: STE's held-out test set among them), which never become exemplars (core/ste/held-out.ts).
 */
export async function planSteRun(env: Bindings, body: CreateSteRunInput, owner?: Owner): Promise<StePlan> {
  const resolved = await requireExploreSurface(env, body.surface, 'surface', owner);
  const surface = resolved.surface;
  const docsId = body.docs ?? body.surface;
  requireSameBackend(resolved, await requireExploreSurface(env, docsId, 'docs', owner), 'docs');
  const sinceResolved = body.since ? await requireExploreSurface(env, body.since, 'since', owner) : undefined;
  if (sinceResolved) requireSameBackend(resolved, sinceResolved, 'since');
  const since = sinceResolved?.surface;
  textModelFor(env, body.model); // a 400 when this deployment cannot serve the model choice
  if (body.judge) textModelFor(env, body.judge);
  let tools = isApiSurface(surface)
    ? steTargetTools(surface, since && isApiSurface(since) ? { since } : {})
    : steTargetTools(surface, since && !isApiSurface(since) ? { since } : {});
  const named = Array.isArray(body.tools) ? body.tools : null;
  if (named) {
    const names = new Set<string>(surface.tools.map((x) => x.name));
    const unknown = named.filter((t) => !names.has(t));
    if (unknown.length > 0) {
      throw new InvalidInputError(
        `Surface ${surface.id} has no tool ${unknown[0]}.`,
        unknown
          .slice(0, 5)
          .map((t) => ({ in: 'body', field: 'tools', pointer: '/tools', message: `no tool ${t}` })),
      );
    }
    tools = tools.filter((t) => named.includes(t));
  }
  if (tools.length === 0) {
    throw new InvalidInputError(
      since
        ? `No explorable tool of ${surface.id} changed since ${since.id}.`
        : 'None of the tools can be explored (Finish and UpdateTool are not explored).',
      [
        {
          in: 'body',
          field: since ? 'since' : 'tools',
          pointer: since ? '/since' : '/tools',
          message: 'no tool to explore',
        },
      ],
    );
  }
  const heldOut =
    resolved.backend === 'api' ? heldOutKeys(await apiQueryTexts(env, resolved.api.id, owner)) : [];
  const config: SteRunConfig = {
    surface: surface.id,
    docs: docsId,
    since: since?.id ?? null,
    tools,
    model: body.model,
    judge: body.judge ?? null,
    seed: body.seed,
    episodes: body.episodes,
    trials: body.trials,
    maxCalls: body.maxCalls,
    paraphrase: body.paraphrase,
    longTermMemory: body.longTermMemory,
    executionFeedback: body.executionFeedback,
    shortTermMemory: body.shortTermMemory,
    selfReflection: body.selfReflection,
    ...(body.chunkCalls ? { chunkCalls: body.chunkCalls } : {}),
    ...(heldOut.length > 0 ? { heldOut } : {}),
  };
  return {
    surfaceId: surface.id,
    surfaceVersion: surfaceVersion(surface),
    docsId,
    sinceId: since?.id ?? null,
    tools,
    config,
    estimate: { modelCalls: tools.length * steToolModelCalls(body) },
  };
}

/**
 * Launches a checked run: its estimate against the owner's quota (edge/metering.ts), the run and tool rows, and one
 * `ste-tool` job per tool. With a `trigger` the launch is idempotent (an existing run of that trigger is returned,
 * without a second quota check).
 */
export async function launchSteRun(
  env: Bindings,
  plan: StePlan,
  opts: { trigger?: string; ownerId?: string | null } = {},
): Promise<{ run: SteRunRow; created: boolean }> {
  const ownerId = opts.ownerId ?? null;
  const existing = opts.trigger ? await steRunByTrigger(env.DB, opts.trigger) : null;
  if (existing) return { run: existing, created: false };
  await checkQuota(env, ownerId, plan.estimate);
  const { id, created } = await createSteRun(env.DB, {
    id: crypto.randomUUID(),
    surfaceId: plan.surfaceId,
    surfaceVersion: plan.surfaceVersion,
    docsSurfaceId: plan.docsId,
    sinceSurfaceId: plan.sinceId,
    config: plan.config,
    tools: plan.tools,
    trialsPerTool: plan.config.episodes * plan.config.trials,
    trigger: opts.trigger ?? null,
    ownerId,
  });
  if (created) {
    await insertSpend(env, { kind: 'ste', subjectId: id, ownerId, estimate: plan.estimate.modelCalls });
    for (const tool of plan.tools)
      await enqueueJob(env, STE_TOOL, { runId: id, tool }, { id: `${id}:${tool}`, ownerId });
  }
  const run = await findSteRun(env.DB, id);
  if (!run) throw new Error(`STE run ${id} vanished after its launch`);
  return { run, created };
}
