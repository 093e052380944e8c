/**
 * Evaluations (issue 7): `POST /v1/evals` runs a suite (core/evals/suite.ts) by fanning its groups out through
 * the JOBS queue (edge/jobs/eval-group.ts); `GET /v1/evals/{id}` gives the aggregates shaped like ToolEvo's
 * Tables 2–5 and the error taxonomy of its Table 7 (core/evals/aggregate.ts, taxonomy.ts); results per task run
 * are listed with keyset pagination and read one by one with their trajectory.
 */
import { z } from '@hono/zod-openapi';
import { aggregate } from '../../core/evals/aggregate.ts';
import { type ApiSuite, ApiSuiteSchema } from '../../core/evals/api-suite.ts';
import { type ApiEvalGroup, apiEvalTable } from '../../core/evals/api-table.ts';
import type { EvalGroup } from '../../core/evals/plan.ts';
import { DIFFICULTIES, EVAL_METHODS, type EvalSuite, EvalSuiteSchema } from '../../core/evals/suite.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import { isApiSuite, launchApiEval, planApiSuite } from '../../edge/jobs/api-eval-group.ts';
import { assertSurfacesExist, launchEval, plannedPerCell, planSuite } from '../../edge/jobs/eval-group.ts';
import { spendView } from '../../edge/metering.ts';
import {
  type ApiEvalResultRow,
  apiResultRows,
  getApiResult,
  listApiResults,
} from '../../edge/stores/api-evals.ts';
import {
  cancelEval,
  type EvalResultRow,
  evalProgress,
  getEval,
  getResult,
  listResults,
  resultRows,
} from '../../edge/stores/evaluations.ts';
import { getTask } from '../../edge/stores/tasks.ts';
import { flagFilter, textFilter } from '../http/filters.ts';
import { linkNext, pageParams } from '../http/keyset.ts';
import { byId, component, idParams, itemsPage, namedSchema, routeModule } from '../http/openapi.ts';
import { cancelOwned, ownedOr404, ProblemError } from '../http/problem.ts';
import { MODEL_USAGE, TrajectoryStep } from '../schemas/agent-run.ts';
import { EvalSummary, evalSummary, listEvalSummaries, summaryWithProgress } from '../schemas/evals.ts';
import { scheduleFilter, surfaceFilter } from '../schemas/resource-filters.ts';
import {
  DryRunField,
  dryRunAnswer,
  dryRunResponse,
  EstimateSchema,
  spendFields,
  spendMembers,
} from '../schemas/spend.ts';
import { toView } from '../schemas/view.ts';

const Cell = z.object({
  dataset: z.string(),
  difficulty: z.enum(DIFFICULTIES),
  total: z.number().int(),
  done: z.number().int(),
  correct: z.number().int(),
  successRate: z.number().nullable(),
});

const Drop = z.object({
  method: z.string(),
  surface: z.string(),
  dataset: z.string().nullable(),
  difficulty: z.string().nullable(),
  previous: z.number(),
  current: z.number(),
  delta: z.number(),
});

export const EvalComparisonSchema = component('EvalComparison', {
  previousEvalId: z.string(),
  threshold: z.number(),
  flagged: z.boolean(),
  drops: z.array(Drop),
  suiteChanged: z.array(z.string()).optional().openapi({
    description:
      'Suite settings that changed between the two runs (the schedule was edited); the comparison covers only what both ran. Absent on runs compared before this was recorded.',
  }),
});

const EvalView = EvalSummary.extend({
  suite: z.record(z.string(), z.unknown()),
  model: z.object({ provider: z.string(), name: z.string(), simulated: z.boolean() }),
  columns: z.array(z.object({ dataset: z.string(), difficulty: z.enum(DIFFICULTIES) })),
  table: z.array(
    z.object({
      method: z.enum(EVAL_METHODS),
      surface: z.string(),
      cells: z.array(Cell),
      average: z
        .number()
        .nullable()
        .openapi({ description: "Mean of the cells' success rates (the paper's average)." }),
      averageEasy: z.number().nullable(),
      averageHard: z.number().nullable(),
      pooled: z.number().nullable().openapi({ description: 'Correct / done over all questions of the row.' }),
      pooledEasy: z.number().nullable(),
      pooledHard: z.number().nullable(),
    }),
  ),
  taxonomy: z.object({
    categories: z.array(z.object({ id: z.string(), label: z.string(), rule: z.string(), group: z.string() })),
    groups: z.array(z.object({ id: z.string(), label: z.string() })),
    rows: z.array(
      z.object({
        method: z.enum(EVAL_METHODS),
        surface: z.string(),
        failures: z.number().int(),
        runErrors: z.number().int(),
        budgetExhausted: z.number().int(),
        counts: z.record(z.string(), z.number().int()),
        groups: z.record(z.string(), z.number().int()),
      }),
    ),
  }),
  usage: z.object({ ...MODEL_USAGE, latencyMs: z.number().int() }),
  ...spendMembers,
  comparison: EvalComparisonSchema.nullable(),
}).openapi('Eval');

const TaxonomyLegend = {
  categories: z.array(z.object({ id: z.string(), label: z.string(), rule: z.string(), group: z.string() })),
  groups: z.array(z.object({ id: z.string(), label: z.string() })),
};

const ModelLabel = z.object({ provider: z.string(), name: z.string(), simulated: z.boolean() });

const UsageView = z.object({ ...MODEL_USAGE, latencyMs: z.number().int() });

/** An evaluation over an imported API's query set (`{"api", "queryset"}` suites): DRAFT Table 1's figures. */
const ApiEvalView = EvalSummary.extend({
  kind: z.literal('api'),
  suite: z.record(z.string(), z.unknown()),
  model: ModelLabel.openapi({
    description: 'The model that answered; `simulated`: every figure describes the simulator, not a model.',
  }),
  table: z.array(
    z.object({
      method: z.string(),
      surface: z.string(),
      docs: z
        .string()
        .openapi({ description: '`imported`, `surface`, `docset:<id>` or `description:<id>`.' }),
      aids: z.string().openapi({ description: '`none`, or the aid row as JSON.' }),
      total: z.number().int(),
      done: z.number().int(),
      correctPath: z.object({
        subsequence: z.number().nullable().openapi({
          description:
            "Correct Path Rate, the DRAFT paper's definition: percent of queries whose gold path is an ordered subsequence of the calls.",
        }),
        set: z.number().nullable().openapi({
          description:
            "Correct Path Rate, DRAFT's released code: percent of queries whose every gold operation was called.",
        }),
        n: z.number().int().openapi({ description: 'Finished queries with a gold path.' }),
      }),
      success: z.number().nullable().openapi({
        description:
          'Percent of correct answers over finished queries with a gold answer (null: none has one).',
      }),
      callsPerQuery: z.number().nullable(),
    }),
  ),
  taxonomy: z.object({
    ...TaxonomyLegend,
    rows: z.array(
      z.object({
        method: z.string(),
        surface: z.string(),
        docs: z.string(),
        aids: z.string(),
        failures: z.number().int(),
        runErrors: z.number().int(),
        budgetExhausted: z.number().int(),
        counts: z.record(z.string(), z.number().int()),
        groups: z.record(z.string(), z.number().int()),
      }),
    ),
  }),
  usage: UsageView,
  ...spendMembers,
}).openapi('ApiEval');

/** The answer of `POST /v1/evals`: the evaluation and its model-call estimate. */
const EvalLaunched = EvalSummary.extend({ estimate: EstimateSchema }).openapi('EvalLaunched');

const EvalResultSchema = component('EvalResult', {
  id: z.string(),
  method: z.string(),
  surface: z.string(),
  taskId: z.string(),
  dataset: z.string(),
  difficulty: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  correct: z.boolean(),
  ending: z.string(),
  errorClass: z.string().nullable(),
  steps: z.number().int(),
  ...MODEL_USAGE,
  latencyMs: z.number().int(),
  links: z.record(z.string(), z.string()),
});

const EvalResultDetail = EvalResultSchema.extend({
  gold: z.unknown().openapi({ description: 'The gold answer (admin keys only; null otherwise).' }),
  trajectory: z.object({
    steps: z.array(TrajectoryStep),
    toolUpdates: z.array(z.string()),
    error: z.string().optional(),
  }),
}).openapi('EvalResultDetail');

/** One query run of an API evaluation. */
const ApiEvalResultSchema = component('ApiEvalResult', {
  id: z.string(),
  method: z.string(),
  surface: z.string(),
  docs: z.string(),
  aids: z.string(),
  item: z.number().int().openapi({ description: "The query set's item index." }),
  query: z.string(),
  answer: z.string().nullable(),
  correct: z
    .boolean()
    .nullable()
    .openapi({ description: 'Against the gold answer (null: the item has none).' }),
  correctPath: z
    .object({ subsequence: z.boolean(), set: z.boolean() })
    .nullable()
    .openapi({ description: 'Both Correct Path Rate definitions for this query (null: no gold path).' }),
  calls: z.number().int().openapi({ description: 'Steps that were not Finish.' }),
  ending: z.string(),
  errorClass: z.string().nullable(),
  steps: z.number().int(),
  ...MODEL_USAGE,
  latencyMs: z.number().int(),
  links: z.record(z.string(), z.string()),
});

const ApiEvalResultDetail = ApiEvalResultSchema.extend({
  trajectory: z.object({
    steps: z.array(TrajectoryStep),
    calls: z
      .array(z.object({ operation: z.string(), exposed: z.string(), status: z.number().int() }))
      .openapi({ description: 'Every call that reached an operation, as the session recorded it.' }),
    goldPath: z.array(z.string()).openapi({ description: "The gold path in the API's operation names." }),
    error: z.string().optional(),
  }),
}).openapi('ApiEvalResultDetail');

const EvalId = z.string().min(1).max(100);

const ListQuery = z.object({
  scheduleId: scheduleFilter('Only the runs of this schedule.'),
  ...pageParams(100),
});

const ResultsQuery = z
  .object({
    method: z.enum(EVAL_METHODS).optional(),
    surface: surfaceFilter(),
    dataset: z.enum(DATASET_NAMES).optional(),
    difficulty: z.enum(DIFFICULTIES).optional(),
    docs: textFilter(120, 'API evaluations: only this documentation (`imported`, `surface`, `docset:<id>`).'),
    correct: flagFilter(),
    errorClass: textFilter(50),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    // Results are listed in plan order (their ids sort that way): the cursor is the last result's id.
    cursor: z
      .string()
      .regex(/^[\w-]{1,100}\.\d{4}\.\d{3}$/, 'expected the `nextCursor` of a previous page')
      .optional()
      .openapi({ description: 'The `nextCursor` of the previous page.' }),
  })
  .strict();

/** The evaluation, if the caller may see it: another user key's evaluation is a 404 like a missing one. */
const findEval = ownedOr404(getEval, 'evaluation');

export const registerEvalRoutes = routeModule('Evaluations', 'user', (routes) => {
  const evaluation = routes.on(idParams(EvalId), byId(findEval));
  const evalResult = routes.on(
    z.object({ id: EvalId, resultId: z.string().min(1).max(200) }),
    byId(findEval),
  );

  routes.post(
    '/v1/evals',
    'Run an evaluation suite (methods × surfaces × datasets × difficulty) through the queue',
    {
      description:
        "A ToolQA-D suite (methods × surfaces × datasets × difficulty), or with `api` and `queryset` a suite over an imported API's query set (methods × surfaces of the API × documentation), scored with Correct Path Rate in both definitions.",
      body: z.union([
        namedSchema(ApiSuiteSchema.extend({ dryRun: DryRunField }), 'ApiEvalSuite'),
        namedSchema(EvalSuiteSchema.extend({ dryRun: DryRunField }), 'EvalSuite'),
      ]),
      example: {
        methods: ['greedy'],
        surfaces: ['pc', 's-ood'],
        datasets: ['coffee'],
        difficulties: ['easy'],
        sampleSize: 1,
        seed: 'example',
      },
      ok: [202, 'The evaluation, running, with its model-call estimate', EvalLaunched],
      responses: dryRunResponse,
    },
    async (c, { body, owner }) => {
      if ('api' in body) {
        const { dryRun, ...suite }: ApiSuite & { dryRun: boolean } = body;
        if (dryRun)
          return await dryRunAnswer(c, owner.id, (await planApiSuite(c.env, suite, owner)).estimate);
        const launch = await launchApiEval(c.env, suite, { owner });
        const row = await findEval(c.env, launch.id, owner);
        return c.json({ ...evalSummary(row, 0, null), estimate: launch.estimate }, 202, {
          location: `/v1/evals/${launch.id}`,
        });
      }
      const { dryRun, ...suite }: EvalSuite & { dryRun: boolean } = body;
      await assertSurfacesExist(c.env, suite, '', owner);
      if (dryRun) return await dryRunAnswer(c, owner.id, (await planSuite(c.env, suite)).estimate);
      const launch = await launchEval(c.env, suite, { ownerId: owner.id });
      const row = await findEval(c.env, launch.id, owner);
      return c.json({ ...evalSummary(row, 0, null), estimate: launch.estimate }, 202, {
        location: `/v1/evals/${launch.id}`,
      });
    },
  );

  routes.get(
    '/v1/evals',
    'Evaluations, newest first',
    itemsPage(ListQuery, 'A page of evaluations', EvalSummary),
    async (c, { query: q, owner }) => {
      const page = await listEvalSummaries(c.env, { ...q, owner });
      linkNext(c, page.nextCursor);
      return page;
    },
  );

  evaluation.get(
    '/v1/evals/{id}',
    'An evaluation: success by method × surface × dataset × difficulty, error taxonomy, usage, comparison',
    {
      ok: [
        200,
        'The evaluation (a ToolQA-D suite, or `kind: "api"` over a query set)',
        z.union([EvalView, ApiEvalView]),
      ],
    },
    async (c, { resource: row }) => {
      if (isApiSuite(row.suite)) {
        const t = apiEvalTable(row.planned as unknown as ApiEvalGroup[], await apiResultRows(c.env, row.id));
        return {
          ...evalSummary(row, t.done, t.successRate),
          kind: 'api' as const,
          suite: row.suite as unknown as Record<string, unknown>,
          model: row.model as z.infer<typeof ModelLabel>,
          table: t.table,
          taxonomy: {
            categories: [...t.taxonomy.categories],
            groups: [...t.taxonomy.groups],
            rows: t.taxonomy.rows,
          },
          usage: t.usage,
          ...spendFields(await spendView(c.env, 'evaluation', row.id)),
        };
      }
      const suite = row.suite as EvalSuite;
      const rows = await resultRows(c.env, row.id);
      const agg = aggregate(suite, plannedPerCell(row.planned as EvalGroup[]), rows);
      return {
        ...evalSummary(row, rows.length, agg.successRate),
        suite: suite as unknown as Record<string, unknown>,
        model: row.model as { provider: string; name: string; simulated: boolean },
        columns: agg.columns,
        table: agg.table,
        taxonomy: {
          categories: [...agg.taxonomy.categories],
          groups: [...agg.taxonomy.groups],
          rows: agg.taxonomy.rows,
        },
        usage: agg.usage,
        ...spendFields(await spendView(c.env, 'evaluation', row.id)),
        comparison: (row.comparison ?? null) as z.infer<typeof EvalComparisonSchema> | null,
      };
    },
  );

  routes.delete(
    '/v1/evals/{id}',
    'Cancel a running evaluation (task runs not yet started are skipped; finished ones are kept)',
    { params: idParams(EvalId), ok: [200, 'The evaluation', EvalSummary], problems: [404] },
    async (c, { params: { id }, owner }) => {
      return cancelOwned(
        () => findEval(c.env, id, owner),
        () => cancelEval(c.env, id),
        async (row) => summaryWithProgress(row, (await evalProgress(c.env, [id])).get(id)),
      );
    },
  );

  evaluation.get(
    '/v1/evals/{id}/results',
    'Task runs of an evaluation, in plan order, filterable',
    itemsPage(
      ResultsQuery,
      'A page of task runs (query runs for an evaluation over an imported API)',
      z.union([EvalResultSchema, ApiEvalResultSchema]),
    ),
    async (c, { params: { id }, query: q, resource: row }) => {
      const { limit, cursor, correct, docs, ...filter } = q;
      if (isApiSuite(row.suite)) {
        const page = await listApiResults(
          c.env,
          id,
          {
            ...(filter.method ? { method: filter.method } : {}),
            ...(filter.surface ? { surface: filter.surface } : {}),
            ...(filter.errorClass ? { errorClass: filter.errorClass } : {}),
            ...(docs ? { docs } : {}),
            ...(correct ? { correct: correct === 'true' } : {}),
          },
          { limit, ...(cursor ? { cursor } : {}) },
        );
        linkNext(c, page.nextCursor);
        return { items: page.items.map(apiResultView), nextCursor: page.nextCursor };
      }
      const page = await listResults(
        c.env,
        id,
        { ...filter, ...(correct ? { correct: correct === 'true' } : {}) },
        { limit, cursor },
      );
      linkNext(c, page.nextCursor);
      return { items: page.items.map(resultView), nextCursor: page.nextCursor };
    },
  );

  evalResult.get(
    '/v1/evals/{id}/results/{resultId}',
    'One task run with its trajectory',
    {
      ok: [
        200,
        'The task run (a query run for an evaluation over an imported API)',
        z.union([EvalResultDetail, ApiEvalResultDetail]),
      ],
    },
    async (c, { params: { id, resultId }, resource: evaluation }) => {
      if (isApiSuite(evaluation.suite)) {
        const run = await getApiResult(c.env, id, resultId);
        if (!run)
          throw new ProblemError('not-found', { detail: `No query run ${resultId} in evaluation ${id}.` });
        const trajectory = run.trajectory as z.infer<typeof ApiEvalResultDetail>['trajectory'];
        return { ...apiResultView(run), trajectory };
      }
      const row = await getResult(c.env, id, resultId);
      if (!row)
        throw new ProblemError('not-found', { detail: `No task run ${resultId} in evaluation ${id}.` });
      // Gold answers are admin-only everywhere else (GET /v1/tasks); the same here.
      let gold: unknown = null;
      if (c.get('principal')?.role === 'admin') {
        gold = (await getTask(c.env, row.taskId))?.gold ?? null;
      }
      const trajectory = row.trajectory as z.infer<typeof EvalResultDetail>['trajectory'];
      return { ...resultView(row), gold, trajectory };
    },
  );
});

function resultView(r: EvalResultRow): z.infer<typeof EvalResultSchema> {
  return toView(EvalResultSchema, r, { links: { self: `/v1/evals/${r.evalId}/results/${r.id}` } });
}

function apiResultView(r: ApiEvalResultRow): z.infer<typeof ApiEvalResultSchema> {
  return {
    id: r.id,
    method: r.method,
    surface: r.surface,
    docs: r.docs,
    aids: r.aids,
    item: r.item,
    query: r.query,
    answer: r.answer,
    correct: r.correct,
    correctPath:
      r.pathSubsequence === null ? null : { subsequence: r.pathSubsequence, set: r.pathSet === true },
    calls: r.calls,
    ending: r.ending,
    errorClass: r.errorClass,
    steps: r.steps,
    modelCalls: r.modelCalls,
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    latencyMs: r.latencyMs,
    links: { self: `/v1/evals/${r.evalId}/results/${r.id}` },
  };
}
