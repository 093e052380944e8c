/** Job status (any key) and the admin canary that proves the queue round trip. */
import { z } from '@hono/zod-openapi';
import { CANARY } from '../../edge/jobs/canary.ts';
import { enqueueJob } from '../../edge/jobs/enqueue.ts';
import { getJob } from '../../edge/stores/jobs.ts';
import { component, idParams, routeModule } from '../http/openapi.ts';
import { foundOr404 } from '../http/problem.ts';

const JobSchema = component('Job', {
  id: z.string(),
  kind: z.string(),
  status: z.enum(['waiting', 'queued', 'running', 'succeeded', 'failed']).openapi({
    description:
      '`waiting`: the key has its share of the queue in flight already (JOB_SHARE jobs); the job is sent when one of them ends.',
  }),
  attempts: z.number().int(),
  result: z.unknown().optional(),
  error: z.string().nullable(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
  finishedAt: z.string().datetime().nullable(),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const registerJobRoutes = routeModule('Jobs', 'admin', (routes) => {
  const jobById = routes.on(idParams(z.string().min(1).max(200)), (env, { id }) =>
    foundOr404(getJob(env, id), 'job', id),
  );

  jobById.get(
    '/v1/jobs/{id}',
    'Status and result of a background job',
    { role: 'user', ok: [200, 'The job', JobSchema] },
    (_c, { resource: job }) => {
      return {
        id: job.id,
        kind: job.kind,
        status: job.status,
        attempts: job.attempts,
        result: job.result ?? undefined,
        error: job.error,
        createdAt: iso(job.createdAt) as string,
        updatedAt: iso(job.updatedAt) as string,
        finishedAt: iso(job.finishedAt),
      };
    },
  );

  routes.post(
    '/v1/admin/canary',
    'Enqueue a canary job to prove the queue round trip (admin)',
    {
      ok: [202, 'The canary job was enqueued', z.object({ id: z.string(), status: z.literal('queued') })],
      problems: [403],
    },
    async (c) => {
      const { id } = await enqueueJob(c.env, CANARY, { enqueuedAt: Date.now() });
      return { id, status: 'queued' as const };
    },
  );
});
