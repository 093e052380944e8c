/**
 * DRAFT (issue 16): documentation refined by exploring a server surface — a kernel surface, or an imported API's
 * operations against its mock (issue 23 §2: `surface` names the API or a drifted version). A run is one Durable Object per
 * (run, tool) fanned out through the JOBS queue (edge/jobs/draft.ts); D1 holds the run, per-tool progress
 * with the Δ history, and the documentation sets with every revision (edge/stores/draft.ts). A documentation set
 * renders like a surface's documentation: the prompt-style tool list, JSON Schemas, or an OpenAPI fragment.
 */
import { z } from '@hono/zod-openapi';
import { DraftOptionsSchema } from '../../core/draft/config.ts';
import { entryFlags } from '../../core/draft/docset.ts';
import {
  docsetDiff,
  docsetJsonSchema,
  docsetOpenApi,
  docsetToolList,
  flaggedTools,
} from '../../core/draft/render.ts';
import { startDocSet } from '../../core/draft/run.ts';
import { ScheduleSchema } from '../../core/surfaces/schedule.ts';
import type { Bindings } from '../../edge/env.ts';
import { requireExploreSurface } from '../../edge/explore-surfaces.ts';
import { launchDraftRun, planDraftRun, stopDraftRun } from '../../edge/jobs/draft.ts';
import { createWatch } from '../../edge/jobs/draft-follow.ts';
import { spendView } from '../../edge/metering.ts';
import { ModelChoiceSchema } from '../../edge/models.ts';
import {
  type DraftRunRow,
  type DraftToolRow,
  type DraftWatchRow,
  deleteDraftWatch,
  getDocset,
  getDraftRun,
  listDraftRuns,
  listDraftWatches,
} from '../../edge/stores/draft.ts';
import { pageAnswer, pageAnswerEach, pageParams } from '../http/keyset.ts';
import {
  byId,
  component,
  idParams,
  itemsPage,
  namesResource,
  requestBody,
  routeModule,
} from '../http/openapi.ts';
import { ownedOr404, ProblemError } from '../http/problem.ts';
import { DryRunField, dryRunAnswer, dryRunResponse, spendFields, spendMembers } from '../schemas/spend.ts';
import { toView } from '../schemas/view.ts';

const Id = z.string().min(1).max(100);

const CreateDraftRun = requestBody('CreateDraftRun', {
  surface: namesResource(
    Id.openapi({
      description:
        'The server surface DRAFT explores (its answers are the evidence): a kernel surface, or an imported API’s surface — the API’s id (the API as imported) or a drifted version from POST /v1/apis/{id}/surfaces; every served operation is then explored against the API’s mock.',
    }),
    'surface',
  ),
  docsSurface: namesResource(
    Id.optional().openapi({
      description:
        'Start from this surface’s documentation (default: `pc` for a kernel surface, the API as imported for an API surface; a surface of the same API).',
    }),
    'surface',
  ),
  fromDocset: namesResource(
    Id.optional().openapi({
      description: 'Continue this documentation set instead (its documentation and history are the start).',
    }),
    'documentation set',
  ),
  tools: z
    .union([z.array(z.string().min(1).max(100)).min(1).max(50), z.literal('all')])
    .optional()
    .openapi({
      description:
        'Tool keys to re-document, or "all" (the default: every explorable tool — to be said when that would cost 1,000 model calls or more).',
    }),
  options: DraftOptionsSchema.optional().openapi({
    description: 'DRAFT settings: I, temperature, φ, attempts, τ, and the ablation switches.',
  }),
  model: ModelChoiceSchema.default({}),
  chunkSteps: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .openapi({ description: 'Steps per alarm of each tool object (tests use small chunks).' }),
  dryRun: DryRunField,
});

/** A rewrite's similarity to the version before it: BLEU, cosine or their mean Δ (null for the starting version). */
const Similarity = z.number().nullable();

const DeltaPoint = z.object({
  iteration: z.number().int(),
  bleu: Similarity,
  cos: Similarity,
  delta: Similarity,
});

const DraftToolView = z.object({
  key: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  phase: z.string(),
  iteration: z.number().int(),
  modelCalls: z.number().int(),
  toolCalls: z.number().int(),
  deltas: z.array(DeltaPoint).openapi({ description: 'Δ = (BLEU + cos) / 2 per rewrite.' }),
  stop: z.string().nullable().openapi({
    description:
      'Why the loop ended: `converged` (Δ > τ after a rewrite that worked), `max-iterations`, `rewrite-failed` (it ended on a rewrite that returned the documentation unchanged although the call failed — not convergence), `no-success` (no exploration’s call ever succeeded: nothing was confirmed by the server).',
  }),
  error: z.string().nullable(),
});

const DraftRunView = component('DraftRun', {
  id: z.string(),
  status: z.enum(['queued', 'running', 'finalizing', 'succeeded', 'failed', 'cancelled']),
  surface: z.string(),
  docsSurface: z.string(),
  parentDocset: z.string().nullable(),
  docsetId: z.string().nullable(),
  trigger: z.string().nullable(),
  progress: z.object({ tools: z.number().int(), done: z.number().int(), modelCalls: z.number().int() }),
  tools: z.array(DraftToolView),
  config: z.record(z.string(), z.unknown()),
  ...spendMembers,
  error: z.string().nullable().openapi({
    description: 'Why the run failed, or why it stopped by itself (`quota-exhausted`).',
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const DOCSET_FORMATS = ['json', 'prompt', 'json-schema', 'openapi'] as const;

const CreateDraftWatch = requestBody('CreateDraftWatch', {
  surface: Id.optional().openapi({
    description:
      'Follow this surface (re-document it when it changes): a kernel surface, or an imported API’s (its id or a drifted version’s).',
  }),
  schedule: ScheduleSchema.optional().openapi({
    description:
      'Or follow a drift schedule (of kernel surfaces, or of one API’s surfaces): re-document when a new stage takes over.',
  }),
  docsSurface: Id.optional().openapi({
    description: 'Default: `pc` for kernel surfaces, the API as imported for an API’s surfaces.',
  }),
  tools: z.array(z.string().min(1).max(100)).min(1).max(50).optional(),
  options: DraftOptionsSchema.optional(),
  model: ModelChoiceSchema.default({}),
  chunkSteps: z.number().int().min(1).max(50).optional(),
});

const DraftWatchView = component('DraftWatch', {
  id: z.string(),
  target: z.record(z.string(), z.unknown()),
  docsSurface: z.string(),
  config: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  lastRun: z.string().nullable(),
  lastDocset: z.string().nullable(),
  createdAt: z.string(),
});

function watchView(w: DraftWatchRow): z.infer<typeof DraftWatchView> {
  return {
    id: w.id,
    target: w.target as Record<string, unknown>,
    docsSurface: w.docsSurface,
    config: w.config as Record<string, unknown>,
    enabled: w.enabled,
    lastRun: w.lastRun,
    lastDocset: w.lastDocset,
    createdAt: new Date(w.createdAt).toISOString(),
  };
}

function toolView(t: DraftToolRow): z.infer<typeof DraftToolView> {
  return toView(DraftToolView, t, { key: t.toolKey, deltas: t.deltas as z.infer<typeof DeltaPoint>[] });
}

async function runView(
  env: Bindings,
  run: DraftRunRow,
  tools: DraftToolRow[],
): Promise<z.infer<typeof DraftRunView>> {
  return {
    id: run.id,
    status: run.status,
    surface: run.serverSurface,
    docsSurface: run.docsSurface,
    parentDocset: run.parentDocset,
    docsetId: run.docsetId,
    trigger: run.trigger,
    progress: {
      tools: tools.length,
      done: tools.filter((t) => t.status !== 'queued' && t.status !== 'running').length,
      modelCalls: tools.reduce((s, t) => s + t.modelCalls, 0),
    },
    tools: tools.map(toolView),
    config: run.config as Record<string, unknown>,
    ...spendFields(await spendView(env, 'draft', run.id)),
    error: run.error,
    createdAt: new Date(run.createdAt).toISOString(),
    updatedAt: new Date(run.updatedAt).toISOString(),
    links: {
      self: `/v1/draft/runs/${run.id}`,
      ...(run.docsetId ? { docset: `/v1/docsets/${run.docsetId}` } : {}),
    },
  };
}

const runOr404 = ownedOr404(getDraftRun, 'DRAFT run');

/** A documentation set the caller may read (its own, or any for an admin key), or a 404 problem. */
const docsetOr404 = ownedOr404(getDocset, 'documentation set');

export const registerDraftRoutes = routeModule('DRAFT', 'user', (routes) => {
  const draftRun = routes.on(idParams(Id), byId(runOr404));
  const docset = routes.on(idParams(Id), byId(docsetOr404));

  routes.post(
    '/v1/draft/runs',
    'Start a DRAFT run: explore a surface tool by tool and rewrite the documentation from what it answers',
    {
      body: CreateDraftRun,
      example: {
        surface: 's-in',
        tools: ['LoadDB'],
        options: { iterations: 2, setupCalls: 1, seed: 'example' },
      },
      ok: [202, 'The run', DraftRunView],
      responses: dryRunResponse,
    },
    async (c, { body: { dryRun, ...body }, owner }) => {
      const { launch, estimate } = await planDraftRun(c.env, body, owner);
      if (dryRun) return await dryRunAnswer(c, owner.id, estimate);
      const { id } = await launchDraftRun(c.env, launch);
      const found = await runOr404(c.env, id, owner);
      return await runView(c.env, found.run, found.tools);
    },
  );

  routes.get(
    '/v1/draft/runs',
    'DRAFT runs, newest first; by cursor',
    itemsPage(z.object(pageParams(100)), 'A page of runs', DraftRunView),
    async (c, { query, owner }) =>
      pageAnswerEach(c, await listDraftRuns(c.env, query, owner), async (r) =>
        runView(c.env, r, (await getDraftRun(c.env, r.id))?.tools ?? []),
      ),
  );

  draftRun.get(
    '/v1/draft/runs/{id}',
    'A DRAFT run: progress and the Δ history of every tool',
    { ok: [200, 'The run', DraftRunView] },
    async (c, { resource: found }) => runView(c.env, found.run, found.tools),
  );

  routes.delete(
    '/v1/draft/runs/{id}',
    'Cancel a DRAFT run: queued tools never start, running tools stop',
    { params: idParams(Id), ok: [200, 'The run', DraftRunView], problems: [404, 409] },
    async (c, { params: { id }, owner }) => {
      await stopDraftRun(c.env, id, owner);
      const after = await runOr404(c.env, id, owner);
      return await runView(c.env, after.run, after.tools);
    },
  );

  routes.post(
    '/v1/draft/watches',
    'Docs that follow drift: re-document the changed tools of a surface or schedule on cron ticks',
    {
      body: CreateDraftWatch,
      example: { surface: 's-ood', tools: ['LoadDB'], options: { iterations: 2 } },
      ok: [201, 'The watch', DraftWatchView],
    },
    async (c, { body, owner }) => watchView(await createWatch(c.env, body, owner)),
  );

  routes.get(
    '/v1/draft/watches',
    'DRAFT watches, newest first; by cursor',
    itemsPage(z.object(pageParams(100)), 'A page of watches', DraftWatchView),
    async (c, { query, owner }) => pageAnswer(c, await listDraftWatches(c.env, query, owner), watchView),
  );

  routes.delete(
    '/v1/draft/watches/{id}',
    'Stop following (runs already launched go on)',
    { params: z.object({ id: Id }), ok: [204, 'Deleted'], problems: [404] },
    async (c, { params: { id }, owner }) => {
      if (!(await deleteDraftWatch(c.env, id, owner))) {
        throw new ProblemError('not-found', { detail: `No DRAFT watch with id ${id}.` });
      }
    },
  );

  docset.get(
    '/v1/docsets/{id}',
    'A DRAFT documentation set, as stored or rendered like a surface’s documentation',
    {
      query: z.object({
        format: z.enum(DOCSET_FORMATS).default('json').openapi({
          description:
            '`json`: the set with every version and each tool’s `flags`; `prompt`: the tool list; `json-schema`; `openapi`: a fragment. Every format carries `flagged`: the tools whose documentation is not to be taken as current (`rewrite-failed`, `no-success`, `not-served`), each with `current: false` when its name is not served by the explored surface — such a tool is left out of the prompt, JSON Schema and OpenAPI renderings.',
        }),
      }),
      ok: [200, 'The documentation', z.record(z.string(), z.unknown())],
    },
    async (_c, { resource: set, params: { id }, query: { format } }) => {
      // Every format says which tools are not to be taken as current; the renderings leave out the names the
      // server no longer serves (core/draft/render.ts).
      const flagged = flaggedTools(set);
      const content =
        format === 'json'
          ? { id, ...set, tools: set.tools.map((t) => ({ ...t, flags: entryFlags(t) })), flagged }
          : format === 'prompt'
            ? { id, format, simulated: set.simulated, text: docsetToolList(set), flagged }
            : format === 'json-schema'
              ? { id, format, simulated: set.simulated, schema: docsetJsonSchema(set), flagged }
              : { id, format, simulated: set.simulated, openapi: docsetOpenApi(set), flagged };
      return content as Record<string, unknown>;
    },
  );

  docset.get(
    '/v1/docsets/{id}/diff',
    'What changed per tool between two documentation sets (`against` a set id, `parent`, or `source`)',
    {
      query: z.object({
        against: Id.default('source').openapi({
          description:
            '`source` (default): the documentation the first run started from (what DRAFT changed); `parent`: the set this one continued (400 for a first run); or a documentation set id.',
        }),
      }),
      ok: [200, 'Per tool: the line before and after', z.record(z.string(), z.unknown())],
    },
    async (c, { resource: set, params: { id }, query: { against }, owner }) => {
      if (against === 'source') {
        const docs = await requireExploreSurface(c.env, set.source.docs, 'against', owner);
        const source = startDocSet({
          docs: docs.surface,
          ...(docs.backend === 'api' ? { catalog: docs.catalog } : {}),
          server: set.source.server,
          model: set.model,
          simulated: set.simulated,
          options: set.options,
        });
        return { id, against: 'source', source: set.source.docs, tools: docsetDiff(set, source) };
      }
      const otherId = against === 'parent' ? set.parent : against;
      if (!otherId) {
        throw new ProblemError('validation-error', {
          detail: 'This documentation set has no parent.',
          errors: [{ in: 'query', field: 'against', pointer: '/against', message: 'no parent set' }],
        });
      }
      const other = await docsetOr404(c.env, otherId, owner);
      return { id, against: otherId, tools: docsetDiff(set, other) };
    },
  );
});
