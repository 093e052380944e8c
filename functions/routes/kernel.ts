/**
 * POST /v1/kernel/call: one P_c tool call on the world as a pure function of (state, call) → (state,
 * observation). The client carries the state between calls, so any number of branches can explore from the same
 * state. Sessions, surfaces and drift build on this (they translate other tool names into these calls).
 */
import { z } from '@hono/zod-openapi';
import { callKernel, KERNEL_TOOL_NAMES } from '../../core/world/kernel/kernel.ts';
import { type EnvState, initialState } from '../../core/world/kernel/state.ts';
import { DATABASE_NAMES } from '../../core/world/types.ts';
import { getTask } from '../../edge/stores/tasks.ts';
import { edgeKernelDeps, worldFor } from '../../edge/world-runtime.ts';
import { component, routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError } from '../http/problem.ts';

const StateSchema = z
  .object({
    db: z.enum(DATABASE_NAMES).nullable(),
    filters: z.array(z.string().max(2000)).max(200),
    numericColumns: z.array(z.string().max(200)).max(100),
    python: z.unknown(),
    steps: z.number().int().min(0).max(1_000_000),
    loads: z.number().int().min(0).max(1_000_000),
    newTools: z.array(z.string().max(4000)).max(100),
    finished: z.boolean(),
    answer: z.string().nullable(),
    correct: z.boolean().nullable(),
  })
  .openapi('EnvState', { description: 'The functional environment state returned by the previous call.' });

const CallSchema = component('KernelCall', {
  tool: z.enum(KERNEL_TOOL_NAMES).openapi({ description: 'A P_c tool name.' }),
  args: z.record(z.string(), z.unknown()).openapi({
    description: 'Kernel parameters, e.g. `{"condition": "Date>=2019-10-10, Date<=2020-08-03"}`.',
  }),
  state: StateSchema.optional().openapi({ description: 'Omit for a fresh episode.' }),
  taskId: z.string().max(200).optional().openapi({
    description: 'The task whose gold answer `Finish` is judged against (required for Finish).',
  }),
});

const ResultSchema = component('KernelResult', {
  observation: z.string(),
  state: StateSchema,
  outcome: z.object({
    kind: z.enum(['ok', 'error', 'finished']),
    reason: z.string().optional(),
    correct: z.boolean().optional(),
  }),
});

export const registerKernelRoutes = routeModule('World', 'user', (routes) => {
  routes.post(
    '/v1/kernel/call',
    'Call one P_c tool on the world, carrying the environment state yourself',
    {
      body: CallSchema,
      ok: [200, 'The observation and the next state', ResultSchema],
      problems: [404],
    },
    async (c, { body }) => {
      let gold: unknown;
      if (body.tool === 'Finish') {
        if (!body.taskId) {
          throw new ProblemError('validation-error', {
            detail: 'Finish is judged against a task: send `taskId`.',
            errors: [{ in: 'body', field: 'taskId', pointer: '/taskId', message: 'Required for Finish' }],
          });
        }
        const task = await foundOr404(getTask(c.env, body.taskId), 'task', body.taskId);
        gold = task.gold;
      }
      const state: EnvState = (body.state as EnvState | undefined) ?? initialState();
      const result = await callKernel(
        worldFor(c.env),
        state,
        { tool: body.tool, args: body.args },
        edgeKernelDeps(c.env, gold),
      );
      return {
        observation: result.observation,
        state: result.state,
        outcome: result.outcome,
      } as z.infer<typeof ResultSchema>;
    },
  );
});
