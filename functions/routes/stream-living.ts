/**
 * Living drift on a stream (issue 26 §2, §4): its plan — the maintenance run once per release and the evaluation
 * after it (`PUT`/`GET /v1/streams/{id}/plan`) — and the success-over-time series computed from the recorded
 * per-release results (`GET /v1/streams/{id}/series`): one line per configuration, the names each release retired,
 * and each release's maintenance spend. Owner or admin; another key's stream is a 404.
 */
import { z } from '@hono/zod-openapi';
import { configurationsFor } from '../../core/streams/evaluate.ts';
import { MaintenancePolicySchema } from '../../core/streams/maintain.ts';
import type { ReleaseDiff } from '../../core/streams/model.ts';
import { EvaluationPlanSchema, StreamPlanSchema } from '../../core/streams/plan.ts';
import { buildSeries } from '../../core/streams/series.ts';
import { enqueueLiving } from '../../edge/living.ts';
import { findQuerySet } from '../../edge/stores/apis.ts';
import { getPlan, maintenanceSpends, putPlan, streamResultRows } from '../../edge/stores/stream-living.ts';
import { findStream, releaseSummaries } from '../../edge/stores/streams.ts';
import { byId, component, requestBody, routeModule } from '../http/openapi.ts';
import { ownedOr404, ProblemError } from '../http/problem.ts';

const StreamId = z.object({ id: z.string().min(1).max(64) });
const findOwnStream = ownedOr404(findStream, 'stream');

const PlanBody = requestBody('StreamPlan', {
  maintenance: MaintenancePolicySchema.optional().openapi({
    description:
      'What runs on each release: DRAFT on the changed operations, STE on the changed tools (episodes, trials, rehearsal), the retrieval pool. Defaults: the papers’.',
  }),
  evaluation: EvaluationPlanSchema.optional().openapi({
    description: 'The fixed suite evaluated after each release’s maintenance, and its configurations.',
  }),
});

const PlanView = component('StreamPlanView', {
  stream: z.string(),
  maintenance: z.record(z.string(), z.unknown()),
  evaluation: z.record(z.string(), z.unknown()),
  /** The maintenance job enqueued for the current release (null: it existed already). */
  enqueued: z.string().nullable().optional(),
});

const SeriesQuery = z
  .object({
    from: z.coerce
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .openapi({ description: 'First release of the series (default 0).' }),
    to: z.coerce
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .openapi({ description: 'Last release of the series (default: the current release).' }),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    path: ['to'],
    message: 'to must not be before from',
  });

const SeriesView = component('StreamSeries', {
  stream: z.string(),
  releases: z.array(z.number().int()),
  configurations: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      success: z.array(z.number().nullable()).openapi({
        description: 'Success rate (0–1) per release, recomputed from the recorded runs; null: not run.',
      }),
      runs: z.array(z.number().int()),
    }),
  ),
  retirements: z.array(z.object({ release: z.number().int(), names: z.array(z.string()) })),
  maintenance: z.array(
    z.object({
      release: z.number().int(),
      modelCalls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      wallMs: z.number(),
      steps: z.array(
        z.object({
          step: z.string(),
          modelCalls: z.number().int(),
          tokens: z.number().int(),
          wallMs: z.number(),
          targets: z.number().int(),
        }),
      ),
    }),
  ),
});

export const registerStreamLivingRoutes = routeModule('Streams', 'user', (routes) => {
  const stream = routes.on(StreamId, byId(findOwnStream));

  stream.put(
    '/v1/streams/{id}/plan',
    'Set a stream’s maintenance and evaluation plan (owner or admin)',
    {
      description:
        'From now on each release is maintained (DRAFT, STE, the retrieval pool; once per release through the queue) and then evaluated with the plan’s suite. The current release and any before it not maintained yet are enqueued now.',
      body: PlanBody,
      example: {
        maintenance: { draft: true, ste: true, pool: true, rehearsal: true, steEpisodes: 15, steTrials: 4 },
        evaluation: {
          configurations: ['stale', 'memory', 'draft', 'ste', 'pool', 'combined'],
          sampleSize: 3,
        },
      },
      ok: [200, 'The plan', PlanView],
    },
    async (c, { resource: row, body, owner }) => {
      const plan = StreamPlanSchema.parse(body);
      const querysetProblem = (detail: string, message: string) =>
        new ProblemError('validation-error', {
          detail,
          errors: [{ in: 'body', field: 'evaluation.queryset', pointer: '/evaluation/queryset', message }],
        });
      if (row.apiId !== null) {
        if (plan.evaluation.queryset === undefined)
          throw querysetProblem(
            'An API stream’s evaluation draws its queries from a query set of the API: name it.',
            'required for an API stream',
          );
        if (!(await findQuerySet(c.env, row.apiId, plan.evaluation.queryset, owner)))
          throw querysetProblem(
            `API ${row.apiId} has no query set ${plan.evaluation.queryset}.`,
            'no such query set of the stream’s API',
          );
      }
      await putPlan(c.env, row.id, plan);
      const job = await enqueueLiving(c.env, row, row.currentRelease);
      return { stream: row.id, ...plan, enqueued: job?.created ? job.id : null };
    },
  );

  stream.get(
    '/v1/streams/{id}/plan',
    'A stream’s maintenance and evaluation plan',
    { ok: [200, 'The plan', PlanView], problems: [404] },
    async (c, { resource: row }) => {
      const plan = await getPlan(c.env, row.id);
      if (!plan) throw new ProblemError('not-found', { detail: `Stream ${row.id} has no plan.` });
      return { stream: row.id, ...plan };
    },
  );

  stream.get(
    '/v1/streams/{id}/series',
    'Success over releases per agent configuration, with retirements and maintenance spend per release',
    {
      description:
        'Computed on each request from the recorded runs of every release (each verdict recomputed from the recorded answer and gold, or path and gold path), the releases’ diffs and the recorded maintenance spend.',
      query: SeriesQuery,
      ok: [200, 'The series', SeriesView],
    },
    async (c, { resource: row, query }) => {
      const [releases, spends, rows, plan] = await Promise.all([
        releaseSummaries(c.env, row.id),
        maintenanceSpends(c.env, row.id),
        streamResultRows(c.env, row.id),
        getPlan(c.env, row.id),
      ]);
      const from = query.from ?? 0;
      const to = query.to ?? row.currentRelease;
      const kind = row.backend === 'kernel' ? 'kernel' : 'api';
      const asked = plan?.evaluation.configurations;
      const seen = new Set(rows.map((r) => r.configuration));
      const configurations = configurationsFor(kind).filter((c) =>
        asked ? asked.includes(c.id) : seen.has(c.id),
      );
      const series = buildSeries({
        releases: releases
          .filter((r) => r.n >= from && r.n <= to)
          .map((r) => ({
            n: r.n,
            retired: (r.diff as ReleaseDiff | null)?.retired.map((x) => x.name) ?? [],
          })),
        configurations,
        records: rows.filter((r) => r.n >= from && r.n <= to).flatMap((r) => r.records),
        maintenance: spends,
      });
      return { stream: row.id, ...series };
    },
  );
});
