/**
 * Evaluation schedules (issue 7): a suite with a five-field UTC cron expression. The Worker's cron handler
 * launches each enabled schedule once per due time (edge/jobs/schedules.ts); each run is compared with the
 * schedule's previous run and flagged when a success rate drops by more than the schedule's threshold.
 */
import { z } from '@hono/zod-openapi';
import { type EvalSuite, EvalSuiteSchema } from '../../core/evals/suite.ts';
import { cronExpression, nextDue } from '../../core/util/cron.ts';
import type { Bindings } from '../../edge/env.ts';
import { InvalidInputError, nestIssues } from '../../edge/errors.ts';
import { assertSurfacesExist } from '../../edge/jobs/eval-group.ts';
import { textModelFor } from '../../edge/models.ts';
import {
  deleteSchedule,
  getSchedule,
  insertSchedule,
  listSchedules,
  type ScheduleRow,
  updateSchedule,
} from '../../edge/stores/schedules.ts';
import { pageAnswerEach, pageParams } from '../http/keyset.ts';
import { byId, component, itemsPage, routeModule } from '../http/openapi.ts';
import { ownedOr404 } from '../http/problem.ts';
import { EvalSummary, listEvalSummaries } from '../schemas/evals.ts';

const Cron = cronExpression().openapi({
  description: 'Five-field cron expression in UTC, e.g. `0 3 * * *` (daily at 03:00).',
  example: '0 3 * * *',
});

const Threshold = z.number().min(0).max(1).openapi({
  description:
    'Flag a run whose success rate drops by more than this (absolute, 0–1) against the previous run.',
});

const CreateSchedule = z
  .strictObject({
    name: z.string().trim().min(1).max(100),
    cron: Cron,
    suite: EvalSuiteSchema,
    threshold: Threshold.default(0.1),
    enabled: z.boolean().default(true),
  })
  .openapi('CreateSchedule');

const UpdateSchedule = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    cron: Cron.optional(),
    suite: EvalSuiteSchema.optional(),
    threshold: Threshold.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('UpdateSchedule');

const ScheduleView = component('Schedule', {
  id: z.string(),
  name: z.string(),
  cron: z.string(),
  suite: z.record(z.string(), z.unknown()),
  threshold: z.number(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  nextDueAt: z.string().nullable().openapi({ description: 'The next due time (null when disabled).' }),
  lastRun: EvalSummary.nullable(),
  links: z.record(z.string(), z.string()),
});

const ScheduleDetail = ScheduleView.extend({ runs: z.array(EvalSummary) }).openapi('ScheduleDetail');

const ScheduleId = z.object({ id: z.string().min(1).max(100) });

async function scheduleView(env: Bindings, row: ScheduleRow): Promise<z.infer<typeof ScheduleView>> {
  const last = await listEvalSummaries(env, { limit: 1, scheduleId: row.id });
  const next = row.enabled ? nextDue(row.cron, Date.now()) : null;
  return {
    id: row.id,
    name: row.name,
    cron: row.cron,
    suite: row.suite as Record<string, unknown>,
    threshold: row.threshold,
    enabled: row.enabled,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    nextDueAt: next === null ? null : new Date(next).toISOString(),
    lastRun: last.items[0] ?? null,
    links: { self: `/v1/schedules/${row.id}`, runs: `/v1/evals?scheduleId=${row.id}` },
  };
}

/** The suite's model choice must be usable here, or every tick would fail: a 400 naming `/suite/model/…`. */
function assertModelAvailable(env: Bindings, suite: EvalSuite): void {
  try {
    textModelFor(env, suite.model);
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    throw new InvalidInputError(err.message, nestIssues(err.issues, 'suite'));
  }
}

export const registerScheduleRoutes = routeModule('Evaluations', 'user', (routes) => {
  // The schedule, if the caller may see it: another user key's schedule is a 404 like a missing one.
  const schedule = routes.on(ScheduleId, byId(ownedOr404(getSchedule, 'schedule')));

  routes.post(
    '/v1/schedules',
    'Schedule an evaluation suite with a cron expression',
    {
      body: CreateSchedule,
      example: {
        name: 'nightly drift check',
        cron: '0 3 * * *',
        suite: { methods: ['greedy'], surfaces: ['pc', 's-ood'], datasets: ['coffee'], sampleSize: 2 },
        threshold: 0.1,
        enabled: false,
      },
      ok: [201, 'The schedule', ScheduleView],
    },
    async (c, { body, owner }) => {
      await assertSurfacesExist(c.env, body.suite, '/suite', owner);
      assertModelAvailable(c.env, body.suite);
      const now = Date.now();
      const row: ScheduleRow = {
        id: crypto.randomUUID(),
        ownerId: owner.id,
        name: body.name,
        cron: body.cron.trim(),
        suite: body.suite,
        threshold: body.threshold,
        enabled: body.enabled,
        createdAt: now,
        updatedAt: now,
      };
      await insertSchedule(c.env, row);
      return c.json(await scheduleView(c.env, row), 201, { location: `/v1/schedules/${row.id}` });
    },
  );

  routes.get(
    '/v1/schedules',
    'Evaluation schedules, newest first; by cursor',
    itemsPage(z.object(pageParams(100)), 'A page of schedules', ScheduleView),
    async (c, { query, owner }) =>
      pageAnswerEach(c, await listSchedules(c.env, query, owner), (r) => scheduleView(c.env, r)),
  );

  schedule.get(
    '/v1/schedules/{id}',
    'A schedule with its runs (newest first, at most 50): the trend across scheduled runs',
    { ok: [200, 'The schedule', ScheduleDetail] },
    async (c, { resource: row }) => {
      const runs = await listEvalSummaries(c.env, { limit: 50, scheduleId: row.id });
      return { ...(await scheduleView(c.env, row)), runs: runs.items };
    },
  );

  schedule.patch(
    '/v1/schedules/{id}',
    'Change a schedule (name, cron, suite, threshold, enabled)',
    {
      body: UpdateSchedule,
      example: { enabled: true, threshold: 0.05 },
      ok: [200, 'The schedule', ScheduleView],
    },
    async (c, { resource: row, body, owner }) => {
      if (body.suite) {
        await assertSurfacesExist(c.env, body.suite, '/suite', owner);
        assertModelAvailable(c.env, body.suite);
      }
      const next: ScheduleRow = {
        ...row,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.cron !== undefined ? { cron: body.cron.trim() } : {}),
        ...(body.suite !== undefined ? { suite: body.suite } : {}),
        ...(body.threshold !== undefined ? { threshold: body.threshold } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        updatedAt: Date.now(),
      };
      await updateSchedule(c.env, next);
      return await scheduleView(c.env, next);
    },
  );

  schedule.delete(
    '/v1/schedules/{id}',
    'Delete a schedule (its past runs are kept)',
    { ok: [204, 'Deleted'] },
    async (c, { resource: row }) => {
      await deleteSchedule(c.env, row.id);
    },
  );
});
