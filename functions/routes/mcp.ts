/**
 * `/v1/sessions/{id}/mcp`: the session's Model Context Protocol endpoint (Streamable HTTP transport, stateful).
 * The route authenticates, rate-limits and forwards the request to the session's Durable Object, whose MCP
 * server (`durable-objects/session-mcp.ts`) lists the tools of the surface in force, with their JSON Schemas, and
 * runs each call as a step of the episode (transcript, journal, budget and faults as for every other step).
 *
 * Protocol: POST one JSON-RPC message (`initialize` first, without `Mcp-Session-Id`; then with the id the
 * response header gave), `Accept: application/json, text/event-stream`; GET opens the stream on which the
 * server sends `notifications/tools/list_changed` when the schedule changes the surface; DELETE ends the MCP
 * session (not the episode).
 *
 * Tool results: the one text content is the exact observation; kernel errors, parameter errors and deprecation
 * messages are `isError: true` results. A tool name the surface does not know at all is a JSON-RPC error -32602
 * whose message is exactly the invalid-action text (the call still takes a step). See
 * `durable-objects/episode-session.ts` for faults and ended episodes.
 *
 * Errors before the MCP layer are problem+json like everywhere else (401/429 key and rate limit, 400 a body that
 * is not JSON or not one JSON-RPC message — batches are not accepted —, 415 a body that is not JSON, 404 no such
 * session); errors of the transport (406 Accept, 400 missing `Mcp-Session-Id`, 404 unknown `Mcp-Session-Id`,
 * 400 unsupported `Mcp-Protocol-Version`) are JSON-RPC error bodies, as MCP clients expect them.
 */
import { createRoute, type OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { SESSION_MISSING_HEADER } from '../../durable-objects/episode-session.ts';
import { assertSessionVisible } from '../../edge/stores/sessions.ts';
import type { AppEnv } from '../app-env.ts';
import { ownerOf } from '../http/auth.ts';
import { AUTH_PROBLEMS, keyed, problemResponses } from '../http/openapi.ts';
import { ProblemError, ProblemSchema } from '../http/problem.ts';

const PATH = '/v1/sessions/{id}/mcp';

const Params = z.object({
  id: z.string().uuid().openapi({ description: 'A session id returned by POST /v1/sessions.' }),
});

const McpHeaders = z.object({
  'mcp-session-id': z.string().max(200).optional().openapi({
    description: 'The MCP session, from the `Mcp-Session-Id` header of the initialize response.',
  }),
  'mcp-protocol-version': z
    .string()
    .max(50)
    .optional()
    .openapi({ description: 'The negotiated MCP protocol version (e.g. `2025-11-25`).' }),
});

const JsonRpcMessage = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional(),
    method: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .openapi('JsonRpcMessage', {
    description:
      'One JSON-RPC 2.0 message: a request (`id` and `method`), a notification (`method` only) or a response to a server request (`id` and `result` or `error`).',
    example: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'LoadDB', arguments: { DBName: 'coffee' } },
    },
  });

const rpcError = (description: string) => ({
  description,
  content: { 'application/json': { schema: JsonRpcMessage } },
});

/** 400 and 404 come from the route (problem+json) or from the MCP transport (a JSON-RPC error body). */
const problemOrRpc = (description: string) => ({
  description,
  content: {
    'application/problem+json': { schema: ProblemSchema },
    'application/json': { schema: JsonRpcMessage },
  },
});

/**
 * One method of a session's MCP endpoint (`PATH`): a keyed Sessions route that the session's Durable Object
 * answers (`forward`); the methods differ only in what they document.
 */
function mcpRoute<Rq extends NonNullable<RouteConfig['request']>, Rs extends RouteConfig['responses']>(
  method: 'post' | 'get' | 'delete',
  summary: string,
  description: string,
  request: Rq,
  responses: Rs,
) {
  return createRoute({
    method,
    tags: ['Sessions'],
    ...keyed('user'),
    path: PATH,
    summary,
    description,
    request,
    responses,
  });
}

const postRoute = mcpRoute(
  'post',
  'MCP (Streamable HTTP): send one JSON-RPC message to the session’s MCP server',
  'Start with `initialize` (no `Mcp-Session-Id`); the response carries the `Mcp-Session-Id` header to send from then on. `tools/list` gives the tools of the surface in force with their JSON Schemas; `tools/call` is one step of the episode and answers with the exact observation text (`isError: true` for errors, parameter errors and deprecation messages). An unknown tool name is JSON-RPC error -32602 whose message is the exact invalid-action text. Send `Accept: application/json, text/event-stream`.',
  {
    params: Params,
    headers: McpHeaders,
    // Not `required`: a required body makes the JSON validator run on other media types too (it answers 415).
    body: {
      required: false,
      content: {
        'application/json': {
          schema: JsonRpcMessage,
          example: {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 'example-agent', version: '1.0.0' },
            },
          },
        },
      },
    },
  },
  {
    200: {
      description:
        'For a request: an SSE stream (`text/event-stream`) of JSON-RPC messages ending with its response',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    202: { description: 'A notification or response was accepted' },
    400: problemOrRpc(
      'Not JSON or not a JSON-RPC message (problem+json), or a request other than initialize without Mcp-Session-Id (JSON-RPC error)',
    ),
    404: problemOrRpc('No such session (problem+json), or an unknown Mcp-Session-Id (JSON-RPC error)'),
    406: rpcError('The Accept header does not list both application/json and text/event-stream'),
    ...problemResponses(413, 415, ...AUTH_PROBLEMS),
  },
);

const getRoute = mcpRoute(
  'get',
  'MCP (Streamable HTTP): open the stream of server notifications',
  'An SSE stream on which the server sends `notifications/tools/list_changed` when the session’s schedule changes the surface in force (one stream per MCP session). Send `Accept: text/event-stream` and `Mcp-Session-Id`.',
  { params: Params, headers: McpHeaders },
  {
    200: { description: 'The SSE stream', content: { 'text/event-stream': { schema: z.string() } } },
    400: problemOrRpc('Missing Mcp-Session-Id'),
    404: problemOrRpc('No such session, or an unknown Mcp-Session-Id'),
    406: rpcError('The Accept header does not list text/event-stream'),
    409: rpcError('The MCP session already has a stream open'),
    ...problemResponses(...AUTH_PROBLEMS),
  },
);

const deleteRoute = mcpRoute(
  'delete',
  'MCP (Streamable HTTP): end an MCP session',
  'Closes the MCP session named by `Mcp-Session-Id` and its streams; the episode goes on.',
  { params: Params, headers: McpHeaders },
  {
    200: { description: 'The MCP session is closed' },
    400: problemOrRpc('Missing Mcp-Session-Id'),
    404: problemOrRpc('No such session, or an unknown Mcp-Session-Id'),
    ...problemResponses(...AUTH_PROBLEMS),
  },
);

/** Request headers the MCP transport reads; credentials stay at the edge. */
const FORWARDED_HEADERS = [
  'accept',
  'content-type',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
] as const;

async function forward(c: Context<AppEnv>, id: string): Promise<Response> {
  await assertSessionVisible(c.env, id, ownerOf(c));
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers.set(name, value);
  }
  const init: RequestInit = { method: c.req.method, headers };
  // The app's JSON check has already read (and cached) a JSON body; other bodies are read here.
  if (c.req.method === 'POST') init.body = await c.req.text();
  const stub = c.env.SESSIONS.get(c.env.SESSIONS.idFromName(id));
  const res = await stub.fetch(new Request(c.req.url, init));
  if (res.headers.has(SESSION_MISSING_HEADER)) {
    throw new ProblemError('not-found', { detail: `No session with id ${id} (or it expired).` });
  }
  // A fetched response's headers are immutable; middleware (rate limit) adds some.
  return new Response(res.body, res);
}

export function registerSessionMcpRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(postRoute, async (c) => (await forward(c, c.req.valid('param').id)) as never);
  app.openapi(getRoute, async (c) => (await forward(c, c.req.valid('param').id)) as never);
  app.openapi(deleteRoute, async (c) => (await forward(c, c.req.valid('param').id)) as never);
}
