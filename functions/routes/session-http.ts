/**
 * The HTTP channel of an API session (issue 22 §5): `/v1/sessions/{id}/http/<path>` answers like the imported
 * API would at the surface's own paths and methods — a drifted surface answers at its drifted routes, the old
 * ones deprecated (RFC 9745 `Deprecation`, RFC 8594 `Sunset`, `Link: rel="successor-version"`) and 410 after their
 * sunset, naming the successor. Each request is one step of the session (budget, journal, faults).
 *
 * What the channel passes to the API: the method, the path after `/http`, the query string (repeated keys as
 * arrays), a JSON body, and the request headers except tooldrift's own (`authorization` carries the tooldrift
 * key, never the API's; hop-by-hop, proxy and MCP headers are dropped too). Answers: the API's status, JSON body
 * and informative headers, plus `tooldrift-step`, `tooldrift-steps-left` and `tooldrift-done`; a call the surface
 * refuses is an RFC 9457 problem (400 naming the parameters, 404, 405 with `Allow`, 410 naming the successor).
 * A kernel session has no HTTP channel (404).
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { SessionStepReply } from '../../durable-objects/episode-session.ts';
import { assertSessionVisible } from '../../edge/stores/sessions.ts';
import { sessionStub } from '../../edge/stubs.ts';
import type { AppEnv } from '../app-env.ts';
import { ownerOf } from '../http/auth.ts';
import { AUTH_PROBLEMS, keyed, problemResponses } from '../http/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import { deprecationHeaders, faulted, faultResponse, handleNonStep } from './sessions.ts';

const PREFIX = /^\/v1\/sessions\/([^/]+)\/http(\/.*)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Request headers that belong to tooldrift or to the hop, not to the API. */
const DROPPED = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'accept-encoding',
  'x-request-id',
]);

function apiHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const n = name.toLowerCase();
    if (
      DROPPED.has(n) ||
      n.startsWith('cf-') ||
      n.startsWith('x-forwarded-') ||
      n.startsWith('mcp-') ||
      n.startsWith('tooldrift-')
    )
      return;
    out[n] = value;
  });
  return out;
}

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

async function bodyOf(c: Context<AppEnv>): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = await c.req.text();
  if (text === '') return undefined;
  if (!/^application\/([\w.-]+\+)?json$/.test(type)) {
    throw new ProblemError('unsupported-media-type', {
      detail: `The session's HTTP channel takes JSON bodies: send Content-Type application/json (got ${type || 'none'}).`,
    });
  }
  // The app checked the syntax already.
  return JSON.parse(text) as unknown;
}

function stepHeaders(reply: Extract<SessionStepReply, { kind: 'step' }>): Record<string, string> {
  return {
    'tooldrift-step': String(reply.entry.index + 1),
    'tooldrift-steps-left': String(Math.max(0, reply.stepBudget - reply.progress.steps)),
    'tooldrift-done': String(reply.progress.done),
  };
}

async function handle(c: Context<AppEnv>): Promise<Response> {
  const url = new URL(c.req.url);
  const m = PREFIX.exec(url.pathname);
  const id = m?.[1] ?? '';
  if (!UUID.test(id)) throw new ProblemError('not-found', { detail: `No session with id ${id}.` });
  await assertSessionVisible(c.env, id, ownerOf(c));
  const path = m?.[2] && m[2] !== '' ? m[2] : '/';
  const input = {
    http: {
      method: c.req.method,
      path,
      query: queryOf(url),
      headers: apiHeaders(c.req.raw.headers),
      body: await bodyOf(c),
    },
  };
  const reply = await sessionStub(c.env, id).step(input, 'http', `${c.req.method} ${path}`, ownerOf(c));
  if (reply.kind === 'fault') return faultResponse(reply.fault);
  if (reply.kind === 'unsupported') throw new ProblemError('not-found', { detail: reply.message });
  if (reply.kind !== 'step') handleNonStep(reply, id);
  const response = reply.response ?? { status: 200, headers: {}, body: null };
  if (
    response.headers['content-type'] === 'application/problem+json' &&
    response.body &&
    typeof response.body === 'object'
  ) {
    // A refusal is tooldrift's own problem: it names this request, as every problem does.
    const requestId = c.get('requestId') as string | undefined;
    response.body = { ...response.body, instance: url.pathname, ...(requestId ? { requestId } : {}) };
  }
  const headers = {
    ...response.headers,
    ...deprecationHeaders(reply.entry.deprecation, id),
    ...stepHeaders(reply),
  };
  if (response.body === null || response.body === undefined || c.req.method === 'HEAD') {
    return new Response(null, { status: response.status, headers });
  }
  return faulted(reply.fault, response.status, response.body, headers);
}

const Params = z.object({
  id: z.string().uuid().openapi({ description: 'An API session (POST /v1/sessions with `api`).' }),
  path: z
    .string()
    .openapi({ description: "The API's path on the session's surface (any depth), e.g. `search/person`." }),
});

function httpRoute(method: 'get' | 'post' | 'put' | 'patch' | 'delete') {
  return createRoute({
    method,
    path: '/v1/sessions/{id}/http/{path}',
    tags: ['Sessions'],
    summary: `${method.toUpperCase()} at the API's own paths: one step of an API session`,
    description:
      "Answers like the imported API would, at the routes of the surface in force (drifted paths and methods included): the API's status, JSON body and headers, plus `tooldrift-step`, `tooldrift-steps-left`, `tooldrift-done`. A deprecated route carries `Deprecation`, `Sunset` and `Link` headers; after its sunset it is a 410 naming the successor. A refused call is a problem: 400 naming the parameters, 404, 405 with `Allow`. `{path}` may hold slashes.",
    ...keyed('user'),
    request: { params: Params },
    responses: {
      200: {
        description: "The API's answer (any status the API gives)",
        content: { 'application/json': { schema: z.unknown() } },
      },
      ...problemResponses(400, 404, 405, 409, 410, 415, ...AUTH_PROBLEMS),
    },
  });
}

export function registerSessionHttpRoutes(app: OpenAPIHono<AppEnv>): void {
  // Documented per method; served by one handler for any depth of path.
  for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
    app.openAPIRegistry.registerPath(httpRoute(method));
  }
  const { middleware } = keyed('user');
  // Hono answers HEAD with the GET route; `*` is the API path of any depth (documented as `{path}`).
  app.on(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], '/v1/sessions/:id/http/*', ...middleware, handle);
}
