/**
 * Launching an STE run (issue 15), shared by `POST /v1/ste/runs` and the cron tick's stage-change launches
 * (edge/jobs/ste-schedules.ts): the request (core/ste/run-request.ts) checked against the surfaces (unknown
 * surface or tool, nothing changed since `since`: InvalidInputError, a 400 over HTTP), the run and tool rows,
 * and one `ste-tool` job per tool.
 */
import type { CreateSteRunInput, SteRunConfig } from '../core/ste/run-request.ts';
import { steTargetTools, surfaceVersion } from '../core/ste/targets.ts';
import type { Bindings } from './env.ts';
import { InvalidInputError } from './errors.ts';
import { enqueueJob } from './jobs/enqueue.ts';
import { STE_TOOL } from './jobs/ste-tool.ts';
import { textModelFor } from './models.ts';
import { createSteRun, findSteRun, type SteRunRow } from './stores/ste.ts';
import { requireSurface } from './stores/surfaces.ts';

/**
 * Validates a run request against the surfaces and launches it: the run row, its tool rows and one `ste-tool`
 * job per tool. With a `trigger` the launch is idempotent (an existing run of that trigger is returned).
 */
export async function launchSteRun(
  env: Bindings,
  body: CreateSteRunInput,
  opts: { trigger?: string; ownerId?: string | null } = {},
): Promise<{ run: SteRunRow; created: boolean }> {
  const surface = await requireSurface(env, body.surface, 'surface');
  const docsId = body.docs ?? body.surface;
  await requireSurface(env, docsId, 'docs');
  const since = body.since ? await requireSurface(env, body.since, 'since') : undefined;
  textModelFor(env, body.model); // a 400 when this deployment cannot serve the model choice
  if (body.judge) textModelFor(env, body.judge);
  let tools = steTargetTools(surface, since ? { since } : {});
  if (body.tools) {
    const unknown = body.tools.filter((t) => !surface.tools.some((x) => x.name === t));
    if (unknown.length > 0) {
      throw new InvalidInputError(
        `Surface ${surface.id} has no tool ${unknown[0]}.`,
        unknown
          .slice(0, 5)
          .map((t) => ({ in: 'body', field: 'tools', pointer: '/tools', message: `no tool ${t}` })),
      );
    }
    tools = tools.filter((t) => body.tools?.includes(t));
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
  };
  const { id, created } = await createSteRun(env.DB, {
    id: crypto.randomUUID(),
    surfaceId: surface.id,
    surfaceVersion: surfaceVersion(surface),
    docsSurfaceId: docsId,
    sinceSurfaceId: since?.id ?? null,
    config,
    tools,
    trialsPerTool: body.episodes * body.trials,
    trigger: opts.trigger ?? null,
    ownerId: opts.ownerId ?? null,
  });
  if (created) {
    for (const tool of tools) await enqueueJob(env, STE_TOOL, { runId: id, tool }, { id: `${id}:${tool}` });
  }
  const run = await findSteRun(env.DB, id);
  if (!run) throw new Error(`STE run ${id} vanished after its launch`);
  return { run, created };
}
