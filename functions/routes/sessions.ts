/**
 * Benchmark as a service: sessions (one Durable Object each) in which an external agent plays one task against
 * a server surface or a schedule of surfaces, by ReAct text, by action objects, or by calling each tool over
 * REST in the surface's own shape. tooldrift runs no model here: it only answers and scores.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { docsetPromptSurface, refinedDescriptions } from '../../core/draft/render.ts';
import type { SessionConfig, SessionProgress, TranscriptEntry } from '../../core/sessions/episode.ts';
import { serverSurfaceAt } from '../../core/sessions/episode.ts';
import type { DeprecationNotice, StepInput } from '../../core/surfaces/adapter.ts';
import { applyFaultToBody, FaultConfigSchema, type FaultDecision } from '../../core/surfaces/faults.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import {
  deprecationHeaderValue,
  deprecationLinkHeaderValue,
  ScheduleSchema,
  sunsetHeaderValue,
} from '../../core/surfaces/schedule.ts';
import { hash128 } from '../../core/util/random.ts';
import { DATASET_NAMES } from '../../core/world/types.ts';
import type { SessionStepReply, SessionView } from '../../durable-objects/episode-session.ts';
import { getDocset } from '../../edge/stores/draft.ts';
import { assertSessionVisible, insertSession } from '../../edge/stores/sessions.ts';
import { requireSurface } from '../../edge/stores/surfaces.ts';
import { getTask, type TaskRow, taskIdsMatching } from '../../edge/stores/tasks.ts';
import { sessionStub } from '../../edge/stubs.ts';
import type { AppEnv } from '../app-env.ts';
import { ownerOf } from '../http/auth.ts';
import { AUTH_PROBLEMS, component, idParams, keyed, problemResponses, routeModule } from '../http/openapi.ts';
import { foundOr404, ProblemError, problem } from '../http/problem.ts';
import { surfaceChoice } from '../schemas/surface-choice.ts';
import { registerSessionMcpRoutes } from './mcp.ts';

const SessionId = z.string().uuid().openapi({ description: 'A session id returned by POST /v1/sessions.' });

const CreateSession = z
  .object({
    taskId: z.string().max(200).optional().openapi({ description: 'Play this task.' }),
    filter: z
      .object({
        dataset: z.enum(DATASET_NAMES).optional(),
        difficulty: z.enum(['easy', 'hard']).optional(),
        split: z.enum(['train', 'dev', 'test']).optional(),
      })
      .optional()
      .openapi({ description: 'Or pick a task matching this filter (chosen by `seed`).' }),
    surface: surfaceChoice('pc', 'Server surface id (ignored with `schedule`).'),
    schedule: ScheduleSchema.optional().openapi({
      description: 'Surfaces over time instead of one surface.',
    }),
    promptSurface: surfaceChoice('pc', 'Surface whose docs the agent sees.'),
    docset: z.string().min(1).max(100).optional().openapi({
      description:
        'Or a DRAFT documentation set: the agent sees its refined documentation, and MCP tools/list serves its descriptions.',
    }),
    stepBudget: z.number().int().min(1).max(200).default(20),
    seed: z.string().min(1).max(200).default('0'),
    faults: FaultConfigSchema.optional().openapi({ description: 'Fault injection (off by default).' }),
    ttlSeconds: z
      .number()
      .int()
      .min(60)
      .max(7 * 24 * 3600)
      .default(3600),
  })
  .refine((b) => !(b.taskId && b.filter), {
    message: 'give either taskId or filter, not both',
    path: ['filter'],
  })
  .openapi('CreateSession');

const SessionCreated = component('SessionCreated', {
  id: z.string(),
  task: z.object({ id: z.string(), question: z.string(), dataset: z.string(), difficulty: z.string() }),
  surface: z.string(),
  promptSurface: z.string(),
  tools: z.string().openapi({ description: 'The tool list for the agent prompt (prompt surface docs).' }),
  stepBudget: z.number().int(),
  expiresAt: z.string(),
  links: z.record(z.string(), z.string()),
});

const StepResult = component('StepResult', {
  observation: z.string(),
  done: z.boolean(),
  reward: z.number().nullable(),
  step: z.number().int(),
  stepsLeft: z.number().int(),
  action: z.string().optional(),
  outcome: z.record(z.string(), z.unknown()),
  deprecation: z.record(z.string(), z.unknown()).optional(),
});

const StepBody = z
  .union(
    [
      z.object({ text: z.string().max(100_000) }).strict(),
      z
        .object({
          action: z.string().max(1000),
          action_input: z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]),
        })
        .strict(),
    ],
    {
      error:
        'expected {"text": "<ReAct output>"} or {"action": "<tool name>", "action_input": <object or JSON text>}',
    },
  )
  .openapi('StepInput', {
    description:
      'Either `{"text": "<ReAct output>"}` (Thought/Action/Action Input, parsed as ToolQA-D does) or `{"action": ..., "action_input": ...}`. A `text/plain` body is taken as ReAct text.',
  });

async function pickTask(c: Context<AppEnv>, body: z.infer<typeof CreateSession>): Promise<TaskRow> {
  if (body.taskId) {
    return foundOr404(getTask(c.env, body.taskId), 'task', body.taskId);
  }
  const ids = await taskIdsMatching(c.env, body.filter ?? {});
  if (ids.length === 0) {
    throw new ProblemError('not-found', { detail: 'No task matches the filter (is the world seeded?).' });
  }
  const pick = ids[(hash128(`session-task/${body.seed}`)[0] as number) % ids.length] as string;
  return (await getTask(c.env, pick)) as TaskRow;
}

function links(id: string) {
  return {
    self: `/v1/sessions/${id}`,
    step: `/v1/sessions/${id}/step`,
    tools: `/v1/sessions/${id}/tools/{name}`,
    mcp: `/v1/sessions/${id}/mcp`,
  };
}

function deprecationHeaders(
  notice: DeprecationNotice | undefined,
  sessionId: string,
): Record<string, string> {
  if (notice?.status !== 'deprecated') return {};
  const headers: Record<string, string> = {};
  if (notice.deprecatedAt) headers.deprecation = deprecationHeaderValue(notice.deprecatedAt);
  if (notice.sunsetAt) headers.sunset = sunsetHeaderValue(notice.sunsetAt);
  const link = deprecationLinkHeaderValue({
    successor: notice.successor
      ? `/v1/sessions/${sessionId}/tools/${encodeURIComponent(notice.successor)}`
      : undefined,
    docs: `/v1/sessions/${sessionId}`,
  });
  if (link) headers.link = link;
  return headers;
}

function stepJson(entry: TranscriptEntry, progress: SessionProgress, budget: number) {
  return {
    observation: entry.observation,
    done: progress.done,
    reward: progress.reward,
    step: entry.index + 1,
    stepsLeft: Math.max(0, budget - progress.steps),
    ...(entry.action !== undefined ? { action: entry.action } : {}),
    outcome: entry.outcome as unknown as Record<string, unknown>,
    ...(entry.deprecation ? { deprecation: entry.deprecation as unknown as Record<string, unknown> } : {}),
  };
}

/** Sends a step's JSON body through the injected faults (delay, corrupted body). */
async function faulted(fault: FaultDecision, status: number, body: unknown, headers: Record<string, string>) {
  if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
  const text = applyFaultToBody(fault, JSON.stringify(body));
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function faultResponse(fault: FaultDecision) {
  if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
  const response = fault.response as NonNullable<FaultDecision['response']>;
  return new Response(response.body, { status: response.status, headers: response.headers });
}

function handleNonStep(reply: SessionStepReply, id: string): never {
  if (reply.kind === 'missing')
    throw new ProblemError('not-found', { detail: `No session with id ${id} (or it expired).` });
  if (reply.kind === 'finished') {
    throw new ProblemError('conflict', {
      detail: `The session has ended (${reply.progress.ending}); reward ${reply.progress.reward}.`,
      extensions: { reward: reply.progress.reward, ending: reply.progress.ending },
    });
  }
  throw new Error('unexpected session reply');
}

const stepRoute = createRoute({
  method: 'post',
  path: '/v1/sessions/{id}/step',
  tags: ['Sessions'],
  summary: 'One agent step: ReAct text or an action with its input',
  ...keyed('user'),
  request: {
    params: z.object({ id: SessionId }),
    body: {
      // Not `required`: a required body makes the JSON validator run on text/plain bodies too.
      required: false,
      content: {
        'application/json': { schema: StepBody },
        'text/plain': { schema: z.string().max(100_000) },
      },
    },
  },
  responses: {
    200: { description: 'The observation', content: { 'application/json': { schema: StepResult } } },
    ...problemResponses(400, 404, 409, 413, 415, ...AUTH_PROBLEMS),
  },
});

function publicView(view: SessionView) {
  const { config, progress } = view;
  return {
    id: config.id,
    task: {
      id: config.task.id,
      question: config.task.question,
      dataset: config.task.dataset,
      difficulty: config.task.difficulty,
    },
    surface: view.serverSurfaceId,
    promptSurface: config.promptSurface.id,
    schedule: config.server.kind === 'schedule' ? config.server.schedule : null,
    stepBudget: config.stepBudget,
    steps: progress.steps,
    done: progress.done,
    reward: progress.reward,
    ending: progress.ending,
    tools: view.tools,
    now: view.now,
    nextChangeAt: view.nextChangeAt,
    createdAt: config.createdAt,
    expiresAt: config.expiresAt,
    transcript: view.transcript,
  };
}

export const registerSessionRoutes = routeModule('Sessions', 'user', (routes, app) => {
  routes.post(
    '/v1/sessions',
    'Start a session: one task, a server surface (or schedule), a step budget',
    { body: CreateSession, ok: [201, 'The session', SessionCreated] },
    async (c, { body, owner }) => {
      const task = await pickTask(c, body);
      let promptSurface = await requireSurface(c.env, body.promptSurface, 'promptSurface');
      let toolDescriptions: Record<string, string> | undefined;
      if (body.docset !== undefined) {
        const set = await getDocset(c.env, body.docset, owner);
        if (!set) {
          throw new ProblemError('validation-error', {
            detail: `Unknown documentation set ${body.docset}.`,
            errors: [
              { in: 'body', field: 'docset', pointer: '/docset', message: 'no such documentation set' },
            ],
          });
        }
        promptSurface = docsetPromptSurface(set, await requireSurface(c.env, set.source.docs, 'docset'));
        toolDescriptions = refinedDescriptions(set);
      }
      let server: SessionConfig['server'];
      if (body.schedule) {
        const surfaces: Record<string, Surface> = {};
        for (const [i, stage] of body.schedule.stages.entries()) {
          surfaces[stage.surface] ??= await requireSurface(
            c.env,
            stage.surface,
            `schedule.stages.${i}.surface`,
          );
        }
        server = { kind: 'schedule', schedule: body.schedule, surfaces };
      } else {
        server = { kind: 'surface', surface: await requireSurface(c.env, body.surface, 'surface') };
      }
      const id = crypto.randomUUID();
      const now = new Date();
      const config: SessionConfig = {
        id,
        task: {
          id: task.id,
          question: task.question,
          dataset: task.dataset,
          difficulty: task.difficulty,
          gold: task.gold as never,
        },
        server,
        promptSurface,
        stepBudget: body.stepBudget,
        seed: body.seed,
        ...(body.faults ? { faults: body.faults } : {}),
        ...(toolDescriptions ? { toolDescriptions } : {}),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + body.ttlSeconds * 1000).toISOString(),
      };
      const view = await sessionStub(c.env, id).start(config);
      await insertSession(c.env, { id, taskId: task.id, createdAt: now.getTime() }, owner);
      return {
        id,
        task: { id: task.id, question: task.question, dataset: task.dataset, difficulty: task.difficulty },
        surface: serverSurfaceAt(server, now).surface.id,
        promptSurface: promptSurface.id,
        tools: view.tools,
        stepBudget: config.stepBudget,
        expiresAt: config.expiresAt,
        links: links(id),
      };
    },
  );

  routes.get(
    '/v1/sessions/{id}',
    'The session: task, progress, the full transcript',
    {
      params: idParams(SessionId),
      ok: [200, 'The session', z.record(z.string(), z.unknown())],
      problems: [404],
    },
    async (c, { params: { id }, owner }) => {
      await assertSessionVisible(c.env, id, owner);
      const view = await sessionStub(c.env, id).view();
      if (!view) throw new ProblemError('not-found', { detail: `No session with id ${id} (or it expired).` });
      return publicView(view) as Record<string, unknown>;
    },
  );

  app.openapi(stepRoute, async (c) => {
    const { id } = c.req.valid('param');
    await assertSessionVisible(c.env, id, ownerOf(c));
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let input: StepInput;
    if (type === 'text/plain') {
      input = await c.req.text();
    } else if (!/^application\/([\w.-]+\+)?json$/.test(type)) {
      throw new ProblemError('unsupported-media-type', {
        detail:
          'Send ReAct text as text/plain, or {"text": ...} / {"action": ..., "action_input": ...} as application/json.',
      });
    } else {
      const body = c.req.valid('json') as z.infer<typeof StepBody>;
      input = 'text' in body ? body.text : { action: body.action, actionInput: body.action_input };
    }
    const name = typeof input === 'string' ? 'react' : input.action;
    const reply = await sessionStub(c.env, id).step(
      input,
      typeof input === 'string' ? 'react' : 'action',
      name,
    );
    // Raw responses: an injected fault, or a body that faults may corrupt, so not c.json().
    if (reply.kind === 'fault') return (await faultResponse(reply.fault)) as never;
    if (reply.kind !== 'step') handleNonStep(reply, id);
    const res = await faulted(
      reply.fault,
      200,
      stepJson(reply.entry, reply.progress, reply.stepBudget),
      deprecationHeaders(reply.entry.deprecation, id),
    );
    return res as never;
  });

  routes.post(
    '/v1/sessions/{id}/tools/{name}',
    "Call one tool of the session's server surface with JSON parameters in that surface's shape",
    {
      description:
        'GET /v1/surfaces/{id}/openapi.json describes each tool of a surface. 400: parameter error; 404: no such tool; 410: the tool is sunset or retired (the problem names its successor); 409: the session has ended.',
      params: z.object({ id: SessionId, name: z.string().min(1).max(200) }),
      body: z.record(z.string(), z.unknown()),
      ok: [200, 'The tool result', StepResult],
      problems: [404, 409, 410],
    },
    async (c, { params: { id, name }, body: args, owner }) => {
      await assertSessionVisible(c.env, id, owner);
      const reply = await sessionStub(c.env, id).step({ action: name, actionInput: args }, 'rest', name);
      if (reply.kind === 'fault') return (await faultResponse(reply.fault)) as never;
      if (reply.kind !== 'step') handleNonStep(reply, id);
      const { entry, progress } = reply;
      const outcome = entry.outcome;
      const extensions = { observation: entry.observation, step: entry.index + 1, done: progress.done };
      if (outcome.kind === 'rejected') {
        // An unknown name is a 404; a known tool called with the wrong keys (P_c answers those with the
        // invalid-action text too, spec §4.2) is a 400.
        if (outcome.reason === 'invalid-action' && entry.kernel === undefined) {
          return problem(c, 'not-found', {
            detail: `No tool named ${name} on this surface. ${entry.observation}`,
            extensions,
          }) as never;
        }
        if (outcome.reason === 'retired') {
          return problem(c, 'gone', {
            detail: entry.observation,
            extensions: { ...extensions, successor: entry.deprecation?.successor ?? null },
          }) as never;
        }
        return problem(c, 'validation-error', { detail: entry.observation, extensions }) as never;
      }
      const res = await faulted(
        reply.fault,
        200,
        stepJson(entry, progress, reply.stepBudget),
        deprecationHeaders(entry.deprecation, id),
      );
      return res as never;
    },
  );

  routes.post(
    '/v1/sessions/{id}/clock',
    "Move the session's clock (admin): to an instant, or forward by milliseconds",
    {
      role: 'admin',
      params: idParams(SessionId),
      body: z.union([
        z.object({ at: z.iso.datetime({ offset: true }) }).strict(),
        z
          .object({
            advanceMs: z
              .number()
              .int()
              .min(0)
              .max(10 * 365 * 24 * 3600 * 1000),
          })
          .strict(),
      ]),
      ok: [200, 'The session after the move', z.record(z.string(), z.unknown())],
      // documented without the body's 413/415 since it was written; adding them changes /openapi.json
      problems: [400, 403, 404],
      impliedProblems: false,
    },
    async (c, { params: { id }, body: move }) => {
      const view = await sessionStub(c.env, id).setClock(move);
      if (!view) throw new ProblemError('not-found', { detail: `No session with id ${id} (or it expired).` });
      return publicView(view) as Record<string, unknown>;
    },
  );

  registerSessionMcpRoutes(app);
});
