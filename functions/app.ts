/**
 * The Hono application: middleware (request ids, structured logs, body limits, JSON syntax, 405s), the error
 * mapping to RFC 9457 problems, and the route modules. Routes are declared with @hono/zod-openapi so their
 * schemas validate requests and generate /openapi.json from the same source.
 */
import { type Hook, OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { requestId } from 'hono/request-id';
import type { ProblemSlug } from '../core/http/problems.ts';
import { ToolCallRefused } from '../core/world/kernel/kernel.ts';
import { readConfig } from '../edge/env.ts';
import { DomainError } from '../edge/errors.ts';
import { createLogger } from '../edge/log.ts';
import type { AppEnv } from './app-env.ts';
import { requestIdEverywhere, serveAsset, uriLength } from './http/edges.ts';
import { jsonDepth, MAX_JSON_DEPTH } from './http/json-depth.ts';
import { documentAdminRoutes } from './http/openapi.ts';
import {
  domainProblem,
  ProblemError,
  problem,
  toolCallRefusedProblem,
  validationProblem,
} from './http/problem.ts';
import { expectedBodyTypes, requestContract } from './http/strict-body.ts';
import { registerApiDescriptionRoutes } from './routes/api-descriptions.ts';
import { registerApiQuerySetRoutes } from './routes/api-querysets.ts';
import { registerApiRoutes } from './routes/apis.ts';
import { registerDocsRoutes } from './routes/docs.ts';
import { registerDraftRoutes } from './routes/draft.ts';
import { registerEvalRoutes } from './routes/evals.ts';
import { registerExplorationListRoutes } from './routes/exploration-list.ts';
import { registerExplorationRoutes } from './routes/explorations.ts';
import { registerExportRoutes } from './routes/exports.ts';
import { registerHealthRoutes } from './routes/health.ts';
import { registerJobRoutes } from './routes/jobs.ts';
import { registerJournalRoutes } from './routes/journal.ts';
import { registerKeyRoutes } from './routes/keys.ts';
import { registerMethodRoutes } from './routes/methods.ts';
import { registerModelRoutes } from './routes/models.ts';
import { registerScheduleRoutes } from './routes/schedules.ts';
import { registerSessionListRoutes } from './routes/session-list.ts';
import { registerSessionRoutes } from './routes/sessions.ts';
import { registerSolveRoutes } from './routes/solve.ts';
import { registerSteRoutes } from './routes/ste.ts';
import { registerSurfaceRoutes } from './routes/surfaces.ts';
import { registerToolsetRoutes } from './routes/toolsets.ts';
import { registerTrajectoryRoutes } from './routes/trajectories.ts';
import { registerWorldRoutes } from './routes/world.ts';

const JSON_TYPE = /^application\/([\w.-]+\+)?json$/i;

function statusSlug(status: number, message: string): ProblemSlug {
  switch (status) {
    case 400:
      return /malformed json/i.test(message) ? 'malformed-json' : 'validation-error';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 405:
      return 'method-not-allowed';
    case 409:
      return 'conflict';
    case 410:
      return 'gone';
    case 413:
      return 'payload-too-large';
    case 415:
      return 'unsupported-media-type';
    case 429:
      return 'rate-limited';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal-error' : 'validation-error';
  }
}

/** Maps any error thrown by a handler or middleware to a problem response; never leaks a stack trace. */
export function errorToResponse(err: unknown, c: Context<AppEnv>): Response {
  if (err instanceof ProblemError) return problem(c, err.slug, err.options);
  if (err instanceof DomainError) {
    const { slug, options } = domainProblem(err);
    return problem(c, slug, options);
  }
  if (err instanceof ToolCallRefused) return problem(c, 'rate-limited', toolCallRefusedProblem(err));
  if (err instanceof HTTPException) {
    const slug = statusSlug(err.status, err.message);
    const headers: Record<string, string> = {};
    err.res?.headers.forEach((v, k) => {
      if (k !== 'content-type' && k !== 'content-length') headers[k] = v;
    });
    const detail = err.status === 415 ? mediaTypeDetail(c) : err.message || slug;
    return problem(c, slug, { detail, status: err.status, headers });
  }
  const log = c.get('log') ?? createLogger('error');
  log.error('unhandled error', {
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
  return problem(c, 'internal-error', {
    detail: 'An unexpected error occurred; quote the request id when reporting it.',
  });
}

/** A 415's detail: the media type sent and the one(s) the route takes (`requestContract` noted them). */
function mediaTypeDetail(c: Context<AppEnv>): string {
  const sent = c.req.header('content-type');
  const types = expectedBodyTypes(c) ?? ['application/json'];
  return `${sent ? `Content-Type ${sent} is not accepted here` : 'The request has a body but no Content-Type'}: send the body as ${types.join(' or ')} (Content-Type: ${types[0]}).`;
}

/** Every request part that fails its schema becomes a validation problem (on the app and each sub-app). */
const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (!result.success) return validationProblem(c, result.target, result.error);
};

/**
 * The routes of one module as a sub-app of its own, mounted on the app with `app.route()`; its admin-only routes
 * are marked in the OpenAPI document (documentAdminRoutes), and its JSON bodies are strict (requestContract: an
 * unknown field is a 400 naming it, another media type a 415 naming the expected one).
 */
function subApp(register: (app: OpenAPIHono<AppEnv>) => void): OpenAPIHono<AppEnv> {
  const sub = new OpenAPIHono<AppEnv>({ defaultHook });
  documentAdminRoutes(sub);
  requestContract(sub);
  register(sub);
  return sub;
}

/** The route modules in mounting order (the order of /openapi.json's paths). */
const ROUTE_MODULES = [
  registerHealthRoutes,
  registerJobRoutes,
  registerWorldRoutes,
  registerSessionRoutes,
  registerSurfaceRoutes,
  registerJournalRoutes,
  registerModelRoutes,
  registerSolveRoutes,
  registerMethodRoutes,
  registerExportRoutes,
  registerExplorationRoutes,
  registerEvalRoutes,
  registerScheduleRoutes,
  registerToolsetRoutes,
  registerExplorationListRoutes,
  registerTrajectoryRoutes,
  registerSessionListRoutes,
  registerSteRoutes,
  registerDraftRoutes,
  registerKeyRoutes,
  registerApiRoutes,
  registerApiQuerySetRoutes,
  registerApiDescriptionRoutes,
];

export function createApp(): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook });

  app.use(requestId({ limitLength: 128 }));
  app.use(requestIdEverywhere);
  app.use(uriLength);

  // Structured access log with the request id; the key's digest only, never the key.
  app.use(async (c, next) => {
    const config = readConfig(c.env);
    const log = createLogger(config.logLevel, { requestId: c.get('requestId') });
    c.set('log', log);
    const started = Date.now();
    await next();
    const status = c.res.status;
    log[status >= 500 ? 'error' : 'info']('request', {
      method: c.req.method,
      path: c.req.path,
      status,
      durationMs: Date.now() - started,
      keyId: c.get('principal')?.keyId,
    });
  });

  app.use(methodNotAllowed({ app, onMethodNotAllowed: (c, methods) => methodProblem(c, methods) }));

  app.use(async (c, next) => {
    // An imported API document may be larger than any other body (MAX_IMPORT_BYTES, 10 MiB by default).
    const config = readConfig(c.env);
    const maxSize =
      c.req.method === 'POST' && c.req.path === '/v1/apis' ? config.maxImportBytes : config.maxBodyBytes;
    return bodyLimit({
      maxSize,
      onError: (ctx) =>
        problem(ctx as Context<AppEnv>, 'payload-too-large', {
          detail: `The request body exceeds the maximum of ${maxSize} bytes.`,
          extensions: { maxBytes: maxSize },
        }),
    })(c, next);
  });

  // Parse JSON bodies up front so a syntax error is reported with the parser's own message.
  app.use(async (c, next) => {
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (['POST', 'PUT', 'PATCH'].includes(c.req.method) && JSON_TYPE.test(type)) {
      const text = await c.req.text();
      try {
        JSON.parse(text);
      } catch (e) {
        return problem(c, 'malformed-json', {
          detail: `Malformed JSON in request body: ${text.trim() === '' ? 'the body is empty' : (e as Error).message}`,
        });
      }
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        return problem(c, 'validation-error', {
          detail: `The request body nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects.`,
          extensions: { maxDepth: MAX_JSON_DEPTH },
        });
      }
    }
    await next();
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from API_KEYS (or ADMIN_API_KEYS for admin routes).',
  });
  documentAdminRoutes(app);
  requestContract(app);

  for (const register of ROUTE_MODULES) app.route('/', subApp(register));
  // The documentation describes the whole app, so it is registered on the app itself.
  registerDocsRoutes(app);

  app.notFound(
    async (c) =>
      (await serveAsset(c)) ??
      problem(c, 'not-found', { detail: `No route matches ${c.req.method} ${c.req.path}.` }),
  );
  app.onError(errorToResponse);
  return app;
}

function methodProblem(c: Context, methods: string[]): Response {
  return problem(c as Context<AppEnv>, 'method-not-allowed', {
    detail: `${c.req.method} is not allowed on ${c.req.path}; allowed: ${methods.join(', ')}.`,
    headers: { allow: methods.join(', ') },
  });
}
