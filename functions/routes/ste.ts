/**
 * STE (simulated trial and error, issue 15): runs that explore a surface's tools — each tool in its own Durable
 * Object (`SteExplorerObject`), fanned out through the JOBS queue (`ste-tool`, edge/jobs/ste-tool.ts) — and what
 * they keep: exemplars (filter by surface, surface version, tool, run; keyset pages) and their SFT export
 * (`/v1/exports/ste-sft.jsonl`, two chat records per exemplar: the call, then the final answer).
 * Drift-aware continual learning: `since` restricts a run to the tools changed between two surfaces.
 * Every D1 query is in edge/stores/ste.ts.
 */
import { z } from '@hono/zod-openapi';
import { CreateSteRun, type SteRunConfig } from '../../core/ste/run-request.ts';
import { STE_SFT_DOCUMENTATION, type SteSftDocumentation, steSftRecords } from '../../core/ste/sft.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { ScheduleSchema } from '../../core/surfaces/schedule.ts';
import type { Bindings } from '../../edge/env.ts';
import { requireExplicitScope, spendView } from '../../edge/metering.ts';
import { textModelFor } from '../../edge/models.ts';
import { launchSteRun, planSteRun } from '../../edge/ste-launch.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import {
  cancelSteRun,
  createSteSchedule,
  deleteSteSchedule,
  exemplarOfRow,
  findSteRun,
  findSteSchedule,
  listSteExemplars,
  listSteRuns,
  type SteExemplarFilter,
  type SteExemplarRow,
  type SteRunRow,
  steExemplarsAfter,
  steExemplarWindow,
  steMemoryOf,
  steRunsOfSchedule,
  steToolsOf,
} from '../../edge/stores/ste.ts';
import { findSurface } from '../../edge/stores/surfaces.ts';
import { steStub } from '../../edge/stubs.ts';
import { textFilter } from '../http/filters.ts';
import { pageAnswer, pageAnswerEach, pageParams } from '../http/keyset.ts';
import { type ExportSource, exportAnswer, exportParams, ndjsonOk } from '../http/ndjson.ts';
import { byId, component, itemsPage, namedSchema, requestBody, routeModule } from '../http/openapi.ts';
import { cancelOwned, foundOr404, ownedOr404, ProblemError } from '../http/problem.ts';
import { steRunFilter, surfaceFilter } from '../schemas/resource-filters.ts';
import { DryRunField, dryRunAnswer, dryRunResponse, spendFields, spendMembers } from '../schemas/spend.ts';
import { toView } from '../schemas/view.ts';

const CreateSteRunJson = namedSchema(CreateSteRun.extend({ dryRun: DryRunField }), 'CreateSteRun');

const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

const ToolProgress = z.object({
  tool: z.string(),
  status: z.enum(STATUSES),
  phase: z.string(),
  trialsDone: z.number().int(),
  trialsTotal: z.number().int(),
  solved: z.number().int(),
  kept: z.number().int().openapi({ description: 'Trials the filter kept.' }),
  dropped: z.number().int().openapi({ description: 'Trials the filter dropped (or could not judge).' }),
  exemplars: z.number().int().openapi({ description: 'Kept exemplars with their paraphrases.' }),
  modelCalls: z.number().int(),
  error: z.string().nullable(),
});

const SteRunView = component('SteRun', {
  id: z.string(),
  status: z.enum(STATUSES),
  surface: z.string(),
  surfaceVersion: z.string(),
  docs: z.string(),
  since: z.string().nullable(),
  trigger: z.string().nullable(),
  progress: z.object({
    tools: z.number().int(),
    toolsDone: z.number().int(),
    trialsDone: z.number().int(),
    trialsTotal: z.number().int(),
    exemplars: z.number().int(),
    modelCalls: z.number().int(),
  }),
  tools: z.array(ToolProgress),
  config: z.record(z.string(), z.unknown()).openapi({
    description:
      'The resolved request. On an imported API, `heldOutQueries` counts the API’s evaluation queries (its query sets) that the run never turns into exemplars.',
  }),
  ...spendMembers,
  createdAt: z.string(),
  updatedAt: z.string(),
  links: z.record(z.string(), z.string()),
});
type SteRunView = z.infer<typeof SteRunView>;

const RunId = z.object({ id: z.string().min(1).max(100) });

const ExemplarQuery = z.object({
  surface: surfaceFilter(),
  surfaceVersion: textFilter(64),
  tool: textFilter(200),
  run: steRunFilter(),
});

const SteExemplarView = component('SteExemplar', {
  id: z.string(),
  run: z.string(),
  surface: z.string(),
  surfaceVersion: z.string(),
  tool: z.string(),
  query: z.string(),
  action: z.string(),
  actionInput: z.string(),
  observation: z.string(),
  finalAnswer: z.string(),
  paraphraseOf: z.string().nullable(),
  episode: z.number().int(),
  trial: z.number().int(),
  createdAt: z.string(),
});

const CreateSteSchedule = requestBody('CreateSteSchedule', {
  schedule: ScheduleSchema.describe('A drift schedule: stages of surfaces over time.'),
  run: CreateSteRun.omit({ surface: true, since: true, tools: true })
    .default(CreateSteRun.omit({ surface: true, since: true, tools: true }).parse({}))
    .describe('The run each stage change launches (over the tools the change touched).'),
});

const SteScheduleView = component('SteSchedule', {
  id: z.string(),
  schedule: z.record(z.string(), z.unknown()),
  run: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  runs: z.array(z.object({ id: z.string(), status: z.enum(STATUSES), trigger: z.string().nullable() })),
  createdAt: z.string(),
});

const ScheduleId = z.object({ id: z.string().min(1).max(100) });

/** A run's stored configuration as its view shows it: the held-out queries' keys as their count. */
function configView(config: SteRunConfig): Record<string, unknown> {
  const { heldOut, ...rest } = config;
  return heldOut ? { ...rest, heldOutQueries: heldOut.length } : rest;
}

async function scheduleView(
  env: Bindings,
  id: string,
  owner: Owner,
): Promise<z.infer<typeof SteScheduleView>> {
  const row = await foundOr404(findSteSchedule(env.DB, id, owner), 'STE schedule', id);
  const runs = await steRunsOfSchedule(env.DB, id);
  return {
    id: row.id,
    schedule: row.schedule as Record<string, unknown>,
    run: row.run as Record<string, unknown>,
    enabled: row.enabled,
    runs: runs.map((r) => ({ id: r.id, status: r.status, trigger: r.trigger })),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

async function runView(env: Bindings, run: SteRunRow): Promise<SteRunView> {
  const tools = await steToolsOf(env.DB, run.id);
  const sum = (f: (t: (typeof tools)[number]) => number) => tools.reduce((s, t) => s + f(t), 0);
  return {
    id: run.id,
    status: run.status,
    surface: run.surfaceId,
    surfaceVersion: run.surfaceVersion,
    docs: run.docsSurfaceId,
    since: run.sinceSurfaceId,
    trigger: run.trigger,
    progress: {
      tools: run.toolsTotal,
      toolsDone: tools.filter((t) => t.status !== 'queued' && t.status !== 'running').length,
      trialsDone: sum((t) => t.trialsDone),
      trialsTotal: sum((t) => t.trialsTotal),
      exemplars: sum((t) => t.exemplars),
      modelCalls: sum((t) => t.modelCalls),
    },
    tools: tools.map((t) => ({
      tool: t.tool,
      status: t.status,
      phase: t.phase,
      trialsDone: t.trialsDone,
      trialsTotal: t.trialsTotal,
      solved: t.solved,
      kept: t.kept,
      dropped: t.dropped,
      exemplars: t.exemplars,
      modelCalls: t.modelCalls,
      error: t.error,
    })),
    config: configView(run.config as SteRunConfig),
    ...spendFields(await spendView(env, 'ste', run.id)),
    createdAt: new Date(run.createdAt).toISOString(),
    updatedAt: new Date(run.updatedAt).toISOString(),
    links: {
      self: `/v1/ste/runs/${run.id}`,
      events: `/v1/ste/runs/${run.id}/events`,
      memory: `/v1/ste/runs/${run.id}/memory`,
      exemplars: `/v1/ste/exemplars?run=${encodeURIComponent(run.id)}`,
    },
  };
}

const runOrProblem = ownedOr404(
  (env: Bindings, id, owner: Owner) => findSteRun(env.DB, id, owner),
  'STE run',
);

function exemplarView(r: SteExemplarRow): z.infer<typeof SteExemplarView> {
  return toView(SteExemplarView, r, { run: r.runId, surface: r.surfaceId });
}

/** What the run's event stream sends: status and progress, done once the run is no longer queued or running. */
async function runProgress(env: Bindings, id: string, owner: Owner) {
  const run = await findSteRun(env.DB, id, owner);
  if (!run) return null;
  const view = await runView(env, run);
  return {
    data: { status: view.status, progress: view.progress, tools: view.tools },
    done: view.status !== 'queued' && view.status !== 'running',
  };
}

/** The STE SFT export: two lines per exemplar, the surface's documentation looked up once per surface. */
const SteSftQuery = ExemplarQuery.extend({
  documentation: z.enum(STE_SFT_DOCUMENTATION).default('none').openapi({
    description:
      'The records’ context: `none` — a short tool-mode system message without any API documentation (STE §2.2, default); `agent-prompt` — the ToolEvo agent prompt over the documentation of the surface each exemplar was explored on.',
  }),
  ...exportParams(300, 'exemplars (two lines each)'),
});

/**
 * The STE SFT export: two lines per exemplar; with `documentation: 'agent-prompt'` the surface's documentation,
 * looked up once per surface.
 */
function steSftSource(
  env: Bindings,
  f: SteExemplarFilter,
  documentation: SteSftDocumentation,
): ExportSource<SteExemplarRow> {
  const docsBySurface = new Map<string, Surface | null>();
  return {
    window: (after, limit) => steExemplarWindow(env.DB, f, after, limit),
    rows: (after, upTo, chunk) => steExemplarsAfter(env.DB, f, after, chunk, upTo),
    idOf: (row) => row.id,
    linesPerRow: 2,
    async lines(rows) {
      const lines: string[] = [];
      for (const r of rows) {
        if (documentation === 'agent-prompt' && !docsBySurface.has(r.surfaceId))
          docsBySurface.set(r.surfaceId, await findSurface(env, r.surfaceId));
        const docs = docsBySurface.get(r.surfaceId) ?? undefined;
        const records = steSftRecords(exemplarOfRow(r), { documentation, ...(docs ? { docs } : {}) });
        records.forEach((record, i) => {
          lines.push(
            JSON.stringify({
              ...record,
              meta: {
                exemplarId: r.id,
                run: r.runId,
                surface: r.surfaceId,
                surfaceVersion: r.surfaceVersion,
                tool: r.tool,
                sample: i === 0 ? 'call' : 'answer',
                paraphraseOf: r.paraphraseOf,
                documentation,
              },
            }),
          );
        });
      }
      return lines;
    },
  };
}

export const registerSteRoutes = routeModule('STE', 'user', (routes) => {
  const watch = routes.on(ScheduleId, byId(scheduleView));
  const steRun = routes.on(RunId, byId(runOrProblem));

  routes.post(
    '/v1/ste/schedules',
    'Watch a drift schedule: at each stage change the cron tick launches an STE run over the changed tools, once',
    {
      body: CreateSteSchedule,
      example: {
        schedule: {
          id: 'drift-2027',
          stages: [
            { surface: 'pc', effectiveFrom: '2027-01-01' },
            { surface: 's-in', effectiveFrom: '2027-02-01' },
          ],
        },
        run: { episodes: 1, trials: 1 },
      },
      ok: [201, 'The watch', SteScheduleView],
    },
    async (c, { body, owner }) => {
      for (const [i, stage] of body.schedule.stages.entries()) {
        if (!(await findSurface(c.env, stage.surface))) {
          throw new ProblemError('validation-error', {
            detail: `Unknown surface ${stage.surface} in stage ${i}.`,
            errors: [
              {
                in: 'body',
                field: 'schedule',
                pointer: `/schedule/stages/${i}/surface`,
                message: `no surface named ${stage.surface}`,
              },
            ],
          });
        }
      }
      textModelFor(c.env, body.run.model);
      const id = crypto.randomUUID();
      await createSteSchedule(c.env.DB, { id, schedule: body.schedule, run: body.run }, owner);
      return await scheduleView(c.env, id, owner);
    },
  );

  watch.get(
    '/v1/ste/schedules/{id}',
    'A watched drift schedule with the STE runs its stage changes launched',
    { ok: [200, 'The watch', SteScheduleView] },
    (_c, { resource }) => resource,
  );

  watch.delete(
    '/v1/ste/schedules/{id}',
    'Stop watching a drift schedule (runs already launched continue)',
    { ok: [204, 'Deleted'] },
    async (c, { resource }) => {
      await deleteSteSchedule(c.env.DB, resource.id);
    },
  );

  routes.post(
    '/v1/ste/runs',
    "Start an STE run: explore a surface's tools by simulated trial and error, one Durable Object per tool",
    {
      body: CreateSteRunJson,
      example: { surface: 's-in', tools: ['InitializeDatabase'], episodes: 1, trials: 1, seed: 'example' },
      ok: [202, 'The run', SteRunView],
      responses: dryRunResponse,
    },
    async (c, { body: { dryRun, ...body }, owner }) => {
      const plan = await planSteRun(c.env, body, owner);
      requireExplicitScope(
        plan.estimate,
        body.tools !== undefined || body.since !== undefined,
        'tools',
        `every explorable tool of ${plan.surfaceId} (${plan.tools.length})`,
      );
      if (dryRun) return await dryRunAnswer(c, owner.id, plan.estimate);
      const { run } = await launchSteRun(c.env, plan, { ownerId: owner.id });
      return await runView(c.env, run);
    },
  );

  routes.get(
    '/v1/ste/runs',
    'STE runs, newest first (keyset pages)',
    itemsPage(z.object({ surface: surfaceFilter(), ...pageParams(100) }), 'A page of runs', SteRunView),
    async (c, { query: q, owner }) =>
      pageAnswerEach(c, await listSteRuns(c.env.DB, { ...q, owner }), (r) => runView(c.env, r)),
  );

  steRun.get(
    '/v1/ste/runs/{id}',
    'An STE run with per-tool progress (trials, Solved marks, exemplars kept and dropped by the filter)',
    { ok: [200, 'The run', SteRunView] },
    (c, { resource }) => runView(c.env, resource),
  );

  routes.delete(
    '/v1/ste/runs/{id}',
    'Cancel an STE run: queued tools never start, running tools stop',
    { params: RunId, ok: [200, 'The run', SteRunView], problems: [404] },
    async (c, { params: { id }, owner }) => {
      return cancelOwned(
        () => runOrProblem(c.env, id, owner),
        async () => {
          const running = await cancelSteRun(c.env.DB, id);
          // A queued tool's job sees the cancelled run and never starts; a running one is stopped.
          for (const tool of running) await steStub(c.env, id, tool).cancel();
        },
        (run) => runView(c.env, run),
      );
    },
  );

  steRun.events(
    '/v1/ste/runs/{id}/events',
    'Run progress as Server-Sent Events (`progress` each second while it changes, then `done`)',
    (env, { params: { id }, owner }) => runProgress(env, id, owner),
    'the STE run was deleted',
  );

  steRun.get(
    '/v1/ste/runs/{id}/memory',
    "A run's long-term memory by tool: every explored query with its Solved mark, in order; by cursor",
    itemsPage(
      z.object({ tool: textFilter(200, "Only this tool's memory."), ...pageParams(300, 100, 500) }),
      'A page of long-term memory',
      z.object({
        tool: z.string(),
        position: z.number().int(),
        query: z.string(),
        solved: z.boolean().nullable().openapi({
          description: 'The reflection’s mark; null when the run explored without self-reflection.',
        }),
      }),
    ),
    async (c, { params: { id }, query, resource: run }) => {
      const reflected = (run.config as SteRunConfig).selfReflection !== false;
      return pageAnswer(c, await steMemoryOf(c.env.DB, id, query), (m) =>
        reflected ? m : { ...m, solved: null },
      );
    },
  );

  routes.get(
    '/v1/ste/exemplars',
    'Kept STE exemplars, newest first (filter by surface, surface version, tool, run; keyset pages)',
    itemsPage(ExemplarQuery.extend(pageParams(300, 50, 200)), 'A page of exemplars', SteExemplarView),
    async (c, { query, owner }) => {
      const page = await listSteExemplars(c.env.DB, { ...query, owner });
      return pageAnswer(c, page, exemplarView);
    },
  );

  routes.get(
    '/v1/exports/ste-sft.jsonl',
    'STE exemplars as SFT chat records: two per exemplar (the call, then the final answer), a page at a time',
    {
      tag: 'Exports',
      description:
        'Each line: {"messages": [system (no documentation by default, see `documentation`), user ("Question: <query>" — for the second record followed by the call and its observation), assistant (the call, or Finish with the final answer)], "meta": {exemplarId, run, surface, surfaceVersion, tool, sample: "call"|"answer", paraphraseOf, documentation}}. The format of /v1/exports/sft.jsonl, checked by gpu-jobs validate. At most `limit` exemplars (2 × `limit` lines) per answer: follow `Link: rel="next"` for the rest; `X-Total-Count` is the whole export in lines.',
      query: SteSftQuery,
      ok: ndjsonOk('SFT records'),
    },
    async (c, { query: { limit, cursor, documentation, ...filter }, owner }) =>
      exportAnswer(c, { limit, cursor }, steSftSource(c.env, { ...filter, owner }, documentation)) as never,
  );
});
