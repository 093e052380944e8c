/**
 * Launching an STE run (issue 15), shared by `POST /v1/ste/runs` and the cron tick's stage-change launches
 * (functions/ste-schedules.ts): the request schema, validation against the surfaces (unknown surface or tool,
 * nothing changed since `since` → 400 problems), the run and tool rows, and one `ste-tool` job per tool.
 */
import { z } from '@hono/zod-openapi';
import { steTargetTools, surfaceVersion } from '../core/ste/targets.ts';
import type { Surface } from '../core/surfaces/model.ts';
import { createSteRun, findSteRun, type SteRunRow } from '../edge/stores/ste.ts';
import type { Bindings } from './env.ts';
import { ProblemError } from './http/problem.ts';
import { enqueueJob } from './jobs.ts';
import { ModelChoiceSchema, textModelFor } from './models.ts';
import { STE_TOOL, type SteRunConfig } from './ste-jobs.ts';
import { findSurface } from './surface-store.ts';

export const CreateSteRun = z
  .object({
    surface: z
      .string()
      .min(1)
      .max(100)
      .default('pc')
      .openapi({ description: 'The server surface to explore.' }),
    docs: z.string().min(1).max(100).optional().openapi({
      description: 'Surface whose documentation the prompts show (default: the explored surface).',
    }),
    since: z.string().min(1).max(100).optional().openapi({
      description:
        'Continual learning: explore only the tools that changed between this surface and `surface`.',
    }),
    tools: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: 'Explore only these tools (exposed names of `surface`).' }),
    model: ModelChoiceSchema.default({}),
    judge: ModelChoiceSchema.optional().openapi({ description: "The filter's judge (default: `model`)." }),
    seed: z.string().min(1).max(200).default('0'),
    episodes: z
      .number()
      .int()
      .min(1)
      .max(15)
      .default(15)
      .openapi({ description: 'Episodes per tool (spec: 15).' }),
    trials: z
      .number()
      .int()
      .min(1)
      .max(8)
      .default(4)
      .openapi({ description: 'Trials per episode (spec: 4; the code default 3).' }),
    maxCalls: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(4)
      .openapi({ description: 'Calls per trial (spec: 4).' }),
    paraphrase: z.boolean().default(true),
    /** Model calls per alarm of each tool (tests use small chunks). */
    chunkCalls: z.number().int().min(1).max(100).optional(),
  })
  .strict()
  .openapi('CreateSteRun');
export type CreateSteRunInput = z.infer<typeof CreateSteRun>;

async function surfaceOrProblem(env: Bindings, id: string, field: string): Promise<Surface> {
  const surface = await findSurface(env, id);
  if (surface) return surface;
  throw new ProblemError('validation-error', {
    detail: `Unknown surface ${id}.`,
    errors: [{ in: 'body', field, pointer: `/${field}`, message: `no surface named ${id}` }],
  });
}

/**
 * Validates a run request against the surfaces and launches it: the run row, its tool rows and one `ste-tool`
 * job per tool. With a `trigger` the launch is idempotent (an existing run of that trigger is returned).
 */
export async function launchSteRun(
  env: Bindings,
  body: CreateSteRunInput,
  opts: { trigger?: string } = {},
): Promise<{ run: SteRunRow; created: boolean }> {
  const surface = await surfaceOrProblem(env, body.surface, 'surface');
  const docsId = body.docs ?? body.surface;
  await surfaceOrProblem(env, docsId, 'docs');
  const since = body.since ? await surfaceOrProblem(env, body.since, 'since') : undefined;
  textModelFor(env, body.model); // a 400 when this deployment cannot serve the model choice
  if (body.judge) textModelFor(env, body.judge);
  let tools = steTargetTools(surface, since ? { since } : {});
  if (body.tools) {
    const unknown = body.tools.filter((t) => !surface.tools.some((x) => x.name === t));
    if (unknown.length > 0) {
      throw new ProblemError('validation-error', {
        detail: `Surface ${surface.id} has no tool ${unknown[0]}.`,
        errors: unknown
          .slice(0, 5)
          .map((t) => ({ in: 'body', field: 'tools', pointer: '/tools', message: `no tool ${t}` })),
      });
    }
    tools = tools.filter((t) => body.tools?.includes(t));
  }
  if (tools.length === 0) {
    throw new ProblemError('validation-error', {
      detail: since
        ? `No explorable tool of ${surface.id} changed since ${since.id}.`
        : 'None of the tools can be explored (Finish and UpdateTool are not explored).',
      errors: [
        {
          in: 'body',
          field: since ? 'since' : 'tools',
          pointer: since ? '/since' : '/tools',
          message: 'no tool to explore',
        },
      ],
    });
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
  });
  if (created) {
    for (const tool of tools) await enqueueJob(env, STE_TOOL, { runId: id, tool }, { id: `${id}:${tool}` });
  }
  const run = await findSteRun(env.DB, id);
  if (!run) throw new Error(`STE run ${id} vanished after its launch`);
  return { run, created };
}
