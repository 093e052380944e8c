/**
 * Benchmark as a service: sessions (one Durable Object each) in which an external agent plays one ToolQA-D task
 * — or one query against an imported API (`{"api": …}`, issue 22) — against a server surface or a schedule of
 * surfaces, by ReAct text, by action objects, or by calling each tool over REST in the surface's own shape (an
 * API session also answers at the API's own paths: `session-http.ts`). tooldrift runs no model here: it only
 * answers and scores.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { docsetPromptSurface, refinedDescriptions } from '../../core/draft/render.ts';
import {
  type ApiSessionConfig,
  isApiSession,
  type KernelSessionConfig,
  restStatus,
  type SessionConfig,
  surfaceAt,
  type TranscriptEntry,
} from '../../core/sessions/index.ts';
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
import type { SessionStepReply, SessionView, StepProgress } from '../../durable-objects/episode-session.ts';
import { apiSessionParts } from '../../edge/api-sessions.ts';
import { apiRefOf } from '../../edge/stores/apis.ts';
import { getDocset } from '../../edge/stores/draft.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import { assertSessionVisible, insertSession } from '../../edge/stores/sessions.ts';
import { requireSurface } from '../../edge/stores/surfaces.ts';
import { getTask, type TaskRow, taskIdsMatching } from '../../edge/stores/tasks.ts';
import { streamServer, streamSurfaceAt } from '../../edge/streams.ts';
import { sessionStub } from '../../edge/stubs.ts';
import type { AppEnv } from '../app-env.ts';
import { ownerOf } from '../http/auth.ts';
import {
  AUTH_PROBLEMS,
  component,
  idParams,
  keyed,
  namesResource,
  problemResponses,
  routeModule,
} from '../http/openapi.ts';
import {
  foundOr404,
  ProblemError,
  problem,
  toolCallRefusedProblem,
  validationProblem,
} from '../http/problem.ts';
import { surfaceChoice } from '../schemas/surface-choice.ts';
import { registerSessionMcpRoutes } from './mcp.ts';
import { registerSessionHttpRoutes } from './session-http.ts';

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
    surface: surfaceChoice(
      'pc',
      'Server surface id (ignored with `schedule`), or a drift stream: `stream:<id>` (the release in force) or `stream:<id>@<n>`.',
    ),
    schedule: ScheduleSchema.optional().openapi({
      description: 'Surfaces over time instead of one surface.',
    }),
    promptSurface: surfaceChoice(
      'pc',
      'Surface whose docs the agent sees (`stream:<id>[@<n>]`: the stream’s surface in force, deprecated names included).',
    ),
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

const StepBudget = z.number().int().min(1).max(200).default(20);
const Seed = z.string().min(1).max(200).default('0');
const TtlSeconds = z
  .number()
  .int()
  .min(60)
  .max(7 * 24 * 3600)
  .default(3600);

const ApiSurfaceId = (description: string) =>
  namesResource(z.string().min(1).max(100).optional().openapi({ description }), 'surface');

const CreateApiSession = z
  .strictObject({
    api: namesResource(
      z
        .string()
        .min(1)
        .max(100)
        .openapi({ description: 'An imported API (POST /v1/apis) to play instead of a ToolQA-D task.' }),
      'API',
    ),
    surface: ApiSurfaceId(
      'The server surface: the API as imported (its id, the default), a drifted version (POST /v1/apis/{id}/surfaces), or a drift stream of the API (`stream:<id>`, `stream:<id>@<n>`). Ignored with `schedule`.',
    ),
    schedule: ScheduleSchema.optional().openapi({
      description: 'Surfaces of this API over time instead of one.',
    }),
    promptSurface: ApiSurfaceId('Surface whose docs the agent sees (default: the API as imported).'),
    queryset: namesResource(
      z.string().min(1).max(100).optional().openapi({
        description:
          'A query set of the API (POST /v1/apis/{id}/querysets): the session plays one of its items and is scored against its gold.',
      }),
      'query set',
    ),
    item: z
      .number()
      .int()
      .min(0)
      .optional()
      .openapi({ description: 'The item of `queryset` (default: chosen by `seed`).' }),
    query: z
      .string()
      .min(1)
      .max(10_000)
      .optional()
      .openapi({ description: "The query as free text (or instead of the item's text)." }),
    stepBudget: StepBudget,
    seed: Seed,
    faults: FaultConfigSchema.optional().openapi({ description: 'Fault injection (off by default).' }),
    ttlSeconds: TtlSeconds,
  })
  .refine((b) => b.item === undefined || b.queryset !== undefined, {
    message: '`item` needs `queryset`',
    path: ['item'],
  })
  .openapi('CreateApiSession');

const SessionCreated = component('SessionCreated', {
  id: z.string(),
  task: z
    .object({ id: z.string(), question: z.string(), dataset: z.string(), difficulty: z.string() })
    .optional()
    .openapi({ description: 'The ToolQA-D task (kernel sessions).' }),
  api: z
    .object({ id: z.string(), title: z.string(), mode: z.string() })
    .optional()
    .openapi({ description: 'The imported API (API sessions).' }),
  query: z
    .object({ text: z.string(), queryset: z.string().optional(), index: z.number().int().optional() })
    .nullable()
    .optional()
    .openapi({ description: 'The query of an API session (null: none, explore freely).' }),
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
  response: z.object({ status: z.number().int(), body: z.unknown() }).optional().openapi({
    description:
      'API sessions: the answer as the API gave it (status and JSON body, reshaped by the surface).',
  }),
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

function links(id: string, api = false) {
  return {
    self: `/v1/sessions/${id}`,
    step: `/v1/sessions/${id}/step`,
    tools: `/v1/sessions/${id}/tools/{name}`,
    mcp: `/v1/sessions/${id}/mcp`,
    ...(api ? { http: `/v1/sessions/${id}/http/{path}` } : {}),
  };
}

export function deprecationHeaders(
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

export function stepJson(
  entry: TranscriptEntry,
  progress: StepProgress,
  budget: number,
  response?: { status: number; body: unknown },
) {
  return {
    observation: entry.observation,
    done: progress.done,
    reward: progress.reward,
    step: entry.index + 1,
    stepsLeft: Math.max(0, budget - progress.steps),
    ...(entry.action !== undefined ? { action: entry.action } : {}),
    outcome: entry.outcome as unknown as Record<string, unknown>,
    ...(entry.deprecation ? { deprecation: entry.deprecation as unknown as Record<string, unknown> } : {}),
    ...(response ? { response: { status: response.status, body: response.body } } : {}),
  };
}

/** Sends a step's JSON body through the injected faults (delay, corrupted body). */
export async function faulted(
  fault: FaultDecision,
  status: number,
  body: unknown,
  headers: Record<string, string>,
) {
  if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
  const text = applyFaultToBody(fault, JSON.stringify(body));
  return new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
}

export async function faultResponse(fault: FaultDecision) {
  if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
  const response = fault.response as NonNullable<FaultDecision['response']>;
  return new Response(response.body, { status: response.status, headers: response.headers });
}

export function handleNonStep(reply: SessionStepReply, id: string): never {
  if (reply.kind === 'missing')
    throw new ProblemError('not-found', { detail: `No session with id ${id} (or it expired).` });
  if (reply.kind === 'finished') {
    throw new ProblemError('conflict', {
      detail: `The session has ended (${reply.progress.ending}); reward ${reply.progress.reward}.`,
      extensions: { reward: reply.progress.reward, ending: reply.progress.ending },
    });
  }
  if (reply.kind === 'unsupported') throw new ProblemError('validation-error', { detail: reply.message });
  if (reply.kind === 'busy')
    throw new ProblemError(
      'rate-limited',
      toolCallRefusedProblem({ message: reply.detail, retryAfterSeconds: reply.retryAfterSeconds }),
    );
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
        'application/json': {
          schema: StepBody,
          example: { action: 'LoadDB', action_input: { DBName: 'coffee' } },
        },
        'text/plain': {
          schema: z.string().max(100_000),
          example: 'Thought: load the data first\nAction: LoadDB\nAction Input: {"DBName": "coffee"}',
        },
      },
    },
  },
  responses: {
    200: { description: 'The observation', content: { 'application/json': { schema: StepResult } } },
    ...problemResponses(400, 404, 409, 413, 415, ...AUTH_PROBLEMS),
  },
});

function about(config: SessionConfig) {
  if (isApiSession(config)) {
    const q = config.query;
    return {
      api: { id: config.api.id, title: config.api.title, mode: config.api.mode },
      query: q ? { text: q.text, ...(q.queryset ? { queryset: q.queryset, index: q.index } : {}) } : null,
    };
  }
  const { task } = config;
  return {
    task: { id: task.id, question: task.question, dataset: task.dataset, difficulty: task.difficulty },
  };
}

/** A JSON pointer segment (RFC 6901). */
const pointerPart = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

function publicView(view: SessionView) {
  const { config, progress } = view;
  return {
    id: config.id,
    ...about(config),
    surface: view.serverSurfaceId,
    promptSurface: config.promptSurface.id,
    schedule: config.server.kind === 'schedule' ? config.server.schedule : null,
    ...(isApiSession(config) ? { score: progress.api?.score ?? null, calls: progress.api?.calls ?? [] } : {}),
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

/** A kernel session naming a stream over an imported API: the body needs `api` too. */
function streamOfApi(api: string, field = 'surface'): ProblemError {
  return new ProblemError('validation-error', {
    detail: `The stream drifts the imported API ${api}: start the session with {"api": "${api}", "${field}": …}.`,
    errors: [{ in: 'body', field, pointer: `/${field}`, message: `a stream of API ${api}; add "api"` }],
  });
}

/** The server and prompt surfaces of a kernel session, with a documentation set's descriptions when one is named. */
async function kernelSessionParts(c: Context<AppEnv>, body: z.infer<typeof CreateSession>, owner: Owner) {
  const promptStream = await streamServer(c.env, body.promptSurface, owner, 'promptSurface');
  if (promptStream?.kind === 'api') throw streamOfApi(promptStream.api, 'promptSurface');
  let promptSurface = promptStream
    ? (streamSurfaceAt(promptStream) as Surface)
    : await requireSurface(c.env, body.promptSurface, 'promptSurface');
  let toolDescriptions: Record<string, string> | undefined;
  if (body.docset !== undefined) {
    const set = await getDocset(c.env, body.docset, owner);
    if (!set) {
      throw new ProblemError('validation-error', {
        detail: `Unknown documentation set ${body.docset}.`,
        errors: [{ in: 'body', field: 'docset', pointer: '/docset', message: 'no such documentation set' }],
      });
    }
    promptSurface = docsetPromptSurface(set, await requireSurface(c.env, set.source.docs, 'docset'));
    toolDescriptions = refinedDescriptions(set);
  }
  let server: KernelSessionConfig['server'];
  if (body.schedule) {
    const surfaces: Record<string, Surface> = {};
    for (const [i, stage] of body.schedule.stages.entries()) {
      surfaces[stage.surface] ??= await requireSurface(c.env, stage.surface, `schedule.stages.${i}.surface`);
    }
    server = { kind: 'schedule', schedule: body.schedule, surfaces };
  } else {
    const stream = await streamServer(c.env, body.surface, owner, 'surface');
    if (stream?.kind === 'api') throw streamOfApi(stream.api);
    server = stream
      ? { kind: 'schedule', schedule: stream.schedule, surfaces: stream.surfaces }
      : { kind: 'surface', surface: await requireSurface(c.env, body.surface, 'surface') };
  }
  return { server, promptSurface, toolDescriptions };
}

export const registerSessionRoutes = routeModule('Sessions', 'user', (routes, app) => {
  routes.post(
    '/v1/sessions',
    'Start a session: one task (or a query against an imported API), a server surface (or schedule), a step budget',
    {
      description:
        'A ToolQA-D task (`taskId` or `filter`), or with `api` an imported API played with a query — free text (`query`) or an item of one of its query sets (`queryset`, `item`), scored at the end with Correct Path Rate.',
      body: z.union([CreateApiSession, CreateSession]),
      example: {
        filter: { dataset: 'coffee', difficulty: 'easy' },
        surface: 's-ood',
        stepBudget: 20,
        seed: '7',
      },
      ok: [201, 'The session', SessionCreated],
    },
    async (c, { body, owner }) => {
      const id = crypto.randomUUID();
      const now = new Date();
      const base = {
        id,
        stepBudget: body.stepBudget,
        seed: body.seed,
        ...(body.faults ? { faults: body.faults } : {}),
        ownerId: owner.id,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + body.ttlSeconds * 1000).toISOString(),
      };
      let config: SessionConfig;
      let taskId: string;
      if ('api' in body) {
        const parts = await apiSessionParts(c.env, body, owner);
        const { api } = parts;
        config = {
          ...base,
          backend: 'api',
          api: apiRefOf(api),
          query: parts.query,
          server: parts.server,
          promptSurface: parts.promptSurface,
        } satisfies ApiSessionConfig;
        taskId = parts.query?.queryset
          ? `api:${api.id}/${parts.query.queryset}#${parts.query.index}`
          : `api:${api.id}`;
      } else {
        const task = await pickTask(c, body);
        const kernel = await kernelSessionParts(c, body, owner);
        config = {
          ...base,
          ...(kernel.toolDescriptions ? { toolDescriptions: kernel.toolDescriptions } : {}),
          task: {
            id: task.id,
            question: task.question,
            dataset: task.dataset,
            difficulty: task.difficulty,
            gold: task.gold as never,
          },
          server: kernel.server,
          promptSurface: kernel.promptSurface,
        } satisfies KernelSessionConfig;
        taskId = task.id;
      }
      const view = await sessionStub(c.env, id).start(config);
      await insertSession(c.env, { id, taskId, createdAt: now.getTime() }, owner);
      return {
        id,
        ...about(config),
        surface: surfaceAt(config, now).surfaceId,
        promptSurface: config.promptSurface.id,
        tools: view.tools,
        stepBudget: config.stepBudget,
        expiresAt: config.expiresAt,
        links: links(id, isApiSession(config)),
      };
    },
    async (result, c) => {
      // A union reports its failures per branch; report the branch the body meant instead (`api` or not).
      if (result.target !== 'json') return undefined as never;
      const raw = (await c.req.json()) as unknown;
      const wantsApi = typeof raw === 'object' && raw !== null && 'api' in raw;
      if (result.success && wantsApi === 'api' in (result.data as object)) return undefined as never;
      const parsed = (wantsApi ? CreateApiSession : CreateSession).safeParse(raw);
      if (parsed.success) return undefined as never;
      return validationProblem(c, 'json', parsed.error) as never;
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
    // The session's object checks the key may drive it (a missing one and another key's are both 404).
    const reply = await sessionStub(c.env, id).step(
      input,
      typeof input === 'string' ? 'react' : 'action',
      name,
      ownerOf(c),
    );
    // Raw responses: an injected fault, or a body that faults may corrupt, so not c.json().
    if (reply.kind === 'fault') return (await faultResponse(reply.fault)) as never;
    if (reply.kind !== 'step') handleNonStep(reply, id);
    const res = await faulted(
      reply.fault,
      200,
      stepJson(reply.entry, reply.progress, reply.stepBudget, reply.response),
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
      example: { databaseIdentifier: 'coffee' }, // Init_DB: LoadDB on s-ood, the session example's surface
      ok: [200, 'The tool result', StepResult],
      problems: [404, 405, 409, 410],
    },
    async (c, { params: { id, name }, body: args, owner }) => {
      const reply = await sessionStub(c.env, id).step(
        { action: name, actionInput: args },
        'rest',
        name,
        owner,
      );
      if (reply.kind === 'fault') return (await faultResponse(reply.fault)) as never;
      if (reply.kind !== 'step') handleNonStep(reply, id);
      const { entry, progress } = reply;
      const extensions = { observation: entry.observation, step: entry.index + 1, done: progress.done };
      // The status the session's journal recorded for this call (restStatus, core/sessions/episode.ts): an
      // unknown name is a 404; a known tool called with the wrong keys (P_c answers those with the
      // invalid-action text too, spec §4.2) or unparsable input is a 400 naming the parameter.
      // An API session's refusal carries its own status and the fields or successor it names.
      const detail = reply.response?.body as { errors?: unknown; successor?: unknown } | undefined;
      switch (restStatus(entry)) {
        case 404:
          return problem(c, 'not-found', {
            detail: `No tool named ${name} on this surface. ${entry.observation}`,
            extensions,
          }) as never;
        case 410:
          return problem(c, 'gone', {
            detail: entry.observation,
            extensions: {
              ...extensions,
              successor: entry.deprecation?.successor ?? detail?.successor ?? null,
            },
          }) as never;
        case 200:
          break;
        case 405:
          return problem(c, 'method-not-allowed', { detail: entry.observation, extensions }) as never;
        default: {
          const param = entry.param;
          const errors = Array.isArray(detail?.errors)
            ? (detail.errors as never)
            : param
              ? [
                  {
                    in: 'body',
                    field: param.field,
                    pointer: `/${pointerPart(param.field)}`,
                    message: param.message,
                  },
                ]
              : [{ in: 'body', field: '', pointer: '/', message: entry.observation }];
          return problem(c, 'validation-error', { detail: entry.observation, errors, extensions }) as never;
        }
      }
      const res = await faulted(
        reply.fault,
        200,
        stepJson(entry, progress, reply.stepBudget, reply.response),
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
      example: { advanceMs: 86_400_000 },
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
  registerSessionHttpRoutes(app);
});
