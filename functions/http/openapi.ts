/** Helpers shared by route modules for their OpenAPI descriptions. */
import { createRoute, type OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { Bindings } from '../../edge/env.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import type { AppEnv } from '../app-env.ts';
import { isAdminGate, ownerOf, type Role, requireKey } from './auth.ts';
import { resourceFilters } from './filters.ts';
import { ProblemError, ProblemSchema } from './problem.ts';
import { rateLimit } from './rate-limit.ts';
import { type ProgressState, progressEvents } from './sse.ts';

type OpenApiArgs = Parameters<z.ZodType['openapi']>;

/**
 * A schema from `core/` registered as a named OpenAPI component. `@hono/zod-openapi` adds `.openapi()` to zod's
 * prototype when it is first imported, and zod 4 copies prototype methods onto a schema when the schema is
 * built, so a core schema built before that import (a job or Durable Object module loaded first) has no
 * `.openapi` of its own. Calling the prototype's method works whichever module was loaded first.
 */
export function namedSchema<T extends z.ZodType>(schema: T, ...args: OpenApiArgs): T {
  const openapi = z.ZodType.prototype.openapi as (this: T, ...a: OpenApiArgs) => T;
  return openapi.call(schema, ...args);
}

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (problem+json names the failing field)',
  401: 'Missing or invalid API key',
  403: 'The key lacks the required role',
  404: 'Not found',
  409: 'Conflict with the current state',
  410: 'Gone',
  413: 'Request body too large',
  415: 'Unsupported media type',
  429: 'Rate limited (see Retry-After)',
  503: 'A dependency is unavailable',
};

/** OpenAPI `responses` entries for the given problem statuses. */
export function problemResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((s) => [
      String(s),
      {
        description: DESCRIPTIONS[s] ?? 'Problem',
        content: { 'application/problem+json': { schema: ProblemSchema } },
      },
    ]),
  );
}

/** Responses every authenticated route can produce. */
export const AUTH_PROBLEMS = [401, 429] as const;

export const BEARER = [{ bearerAuth: [] as string[] }];

/**
 * What every route behind a key declares: bearer security in the OpenAPI document, the key check (an admin key
 * for `admin`) and the per-key rate limit, in that order.
 */
export function keyed(role: Role): {
  security: typeof BEARER;
  middleware: [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>];
} {
  return { security: BEARER, middleware: [requireKey(role), rateLimit()] };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Empty = Record<never, never>;

/** A JSON request body the route requires, with the example the documentation shows (and a test sends). */
type JsonBody<B extends z.ZodType> = {
  required: true;
  content: { 'application/json': { schema: B; example: z.input<B> } };
};

type RequestOf<P, Q, B> = (P extends z.ZodType ? { params: P } : Empty) &
  (Q extends z.ZodType ? { query: Q } : Empty) &
  (B extends z.ZodType ? { body: JsonBody<B> } : Empty);

/**
 * The success response: status, description, schema and (default `application/json`) media type; without a
 * schema, a response with no body (`[204, 'Deleted']`).
 */
export type Ok<C extends number, S extends z.ZodType, M extends string = 'application/json'> =
  | readonly [status: C, description: string]
  | readonly [status: C, description: string, schema: S]
  | readonly [status: C, description: string, schema: S, mediaType: M];

type RouteOf<P, Q, B, C extends number, S extends z.ZodType, M extends string> = {
  method: Method;
  path: string;
  request: RequestOf<P, Q, B>;
  responses: {
    [K in C]: [S] extends [never]
      ? { description: string }
      : { description: string; content: { [T in M]: { schema: S } } };
  } & Record<string, { description: string; content: Record<string, { schema: z.ZodType }> }>;
};

/** What a route declares besides its method, path, tag and summary. */
type RouteParts<C extends number, S extends z.ZodType, M extends string, P, Q, B> = {
  /** The OpenAPI tag, when not the module's (an export route of another module). */
  tag?: string;
  description?: string;
  role?: Role;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * Required with `body`: a request body the route accepts (2xx), shown by /docs ("Try it out" sends it) and
   * sent by a test (test/edge/openapi-examples.test.ts). Ids it names must exist on any deployment (built-in
   * surfaces, datasets), not only in one database.
   */
  example?: B extends z.ZodType ? z.input<B> : never;
  ok: Ok<C, S, M>;
  problems?: readonly number[];
  /** `false`: the route documents exactly `problems` (and 401/429 if keyed), not those its request implies. */
  impliedProblems?: false;
  responses?: Record<string, unknown>;
};

/**
 * Request fields that name a stored resource (a task, a surface, a documentation set): the route answers 404 when
 * the named one does not exist. A zod metadata registry, so the mark stays out of the field's OpenAPI schema.
 */
const NAMES_A_RESOURCE = z.registry<{ resource: string }>();

/** `field`, marked as naming a stored `resource`: a JSON body with such a field implies the route's 404. */
export function namesResource<T extends z.ZodType>(field: T, resource: string): T {
  NAMES_A_RESOURCE.add(field, { resource });
  return field;
}

/**
 * Whether an object body — or any member of a union of them (POST /v1/sessions: a kernel or an API session) — has a
 * field (optional, defaulted or nullable) marked by `namesResource`.
 */
function namesAResource(body: unknown): boolean {
  const options = (body as { options?: unknown[] }).options;
  if (Array.isArray(options)) return options.some(namesAResource);
  const shape = (body as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.values(shape).some((field) => {
    let inner: z.ZodType | undefined = field;
    while (inner && !NAMES_A_RESOURCE.has(inner))
      inner = (inner._zod.def as { innerType?: z.ZodType }).innerType;
    return inner !== undefined;
  });
}

/**
 * The problems a route's request implies, so a route does not restate them: any request can name a query
 * parameter the route does not take, and any validated input (path parameters, query or body) can fail its
 * schema (400); a JSON body can be too large (413, the app's body limit)
 * or of another media type (415); a body field that names a stored resource (`namesResource`) or a query filter
 * that does (`resourceFilter`, filters.ts) can name none (404).
 */
function impliedProblems(spec: {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  impliedProblems?: false;
}): number[] {
  if (spec.impliedProblems === false) return [];
  return [
    400, // every route refuses a query parameter it does not declare (requestContract, strict-body.ts)
    ...(spec.body ? [413, 415] : []),
    ...((spec.body && namesAResource(spec.body)) || resourceFilters(spec.query).length > 0 ? [404] : []),
  ];
}

/**
 * One OpenAPI route declared by what differs between routes; the `createRoute` config it builds has the field
 * order the routes have always written (tags, summary, description, security, request, responses), so the
 * `/openapi.json` document does not change. `role` puts the route behind a key (`keyed(role)`) and adds the
 * 401/429 problems every keyed route can answer; `body` is a required JSON body (a route with another request
 * shape keeps `createRoute`); `problems` are the route's own problem statuses; `responses` adds other responses.
 */
export function jsonRoute<
  C extends number,
  S extends z.ZodType = never,
  M extends string = 'application/json',
  P = undefined,
  Q = undefined,
  B = undefined,
>(
  spec: { method: Method; path: string; tag: string; summary: string } & RouteParts<C, S, M, P, Q, B>,
): RouteOf<P, Q, B, C, S, M> {
  const {
    method,
    path,
    tag,
    summary,
    description,
    role,
    params,
    query,
    body,
    example,
    ok,
    problems = [],
  } = spec;
  const request: Record<string, unknown> = {};
  if (params) request.params = params;
  if (query) request.query = query;
  if (body) {
    if (example === undefined)
      throw new Error(`${method.toUpperCase()} ${path}: a request body needs an example`);
    request.body = { required: true, content: { 'application/json': { schema: body, example } } };
  }
  const [status, okDescription, schema, mediaType = 'application/json'] = ok;
  return createRoute({
    method,
    path,
    tags: [tag],
    summary,
    ...(description === undefined ? {} : { description }),
    ...(role ? keyed(role) : {}),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses: {
      [status]: schema
        ? { description: okDescription, content: { [mediaType]: { schema } } }
        : { description: okDescription },
      ...spec.responses,
      ...problemResponses(
        ...new Set([...impliedProblems(spec), ...problems, ...(role ? AUTH_PROBLEMS : [])]),
      ),
    },
  }) as unknown as RouteOf<P, Q, B, C, S, M>;
}

declare const APP: OpenAPIHono<AppEnv>;
/** The context `app.openapi(route, handler)` gives a handler of a route: its params, query and body typed from the route. */
type ContextOf<R extends RouteConfig> = Parameters<Parameters<typeof APP.openapi<R>>[1]>[0];
type HookOf<R extends RouteConfig> = Parameters<typeof APP.openapi<R>>[2];

/**
 * What a route's handler is given besides its context: the request as validated against what the route
 * declares (`params`, `query`, a JSON `body`) and the owner the request acts for (`ownerOf`, read on a keyed
 * route only: a public route has none).
 */
export type RouteInput<P, Q, B> = {
  params: P extends z.ZodType ? z.output<P> : undefined;
  query: Q extends z.ZodType ? z.output<Q> : undefined;
  body: B extends z.ZodType ? z.output<B> : undefined;
  readonly owner: Owner;
};

/** What a handler answers: its success result (the `ok` schema's value; none for a body-less `ok`) or a Response. */
// biome-ignore lint/suspicious/noConfusingVoidType: the handler of a body-less `ok` returns nothing
type RouteResult<S extends z.ZodType> = Response | ([S] extends [never] ? void : z.input<S>);

export type RouteHandler<R extends RouteConfig, P, Q, B, S extends z.ZodType> = (
  c: ContextOf<R>,
  input: RouteInput<P, Q, B>,
) => RouteResult<S> | Promise<RouteResult<S>>;

/**
 * A 404 problem when a query filter marked by `resourceFilter` names no resource the caller may see (checked in
 * field order, before the handler).
 */
async function assertFiltersKnown(c: Context<AppEnv>, schema: unknown, query: unknown): Promise<void> {
  const values = (query ?? {}) as Record<string, unknown>;
  for (const [field, { resource, exists }] of resourceFilters(schema)) {
    const id = values[field];
    if (typeof id !== 'string') continue;
    const owner = c.get('principal') ? ownerOf(c) : null;
    if (!(await exists(c.env, id, owner))) {
      throw new ProblemError('not-found', {
        detail: `No ${resource} with id ${id}.`,
        errors: [{ in: 'query', field, pointer: `/${field}`, message: `no ${resource} named ${id}` }],
      });
    }
  }
}

/**
 * The handler `app.openapi` is given for a route: it validates nothing itself (the route's validators have run),
 * hands `handler` the validated request and the owner, and answers a result that is not a Response as the route's
 * `ok` (JSON with its status; no body for a body-less `ok`).
 */
function answering<P, Q, B, S extends z.ZodType>(
  parts: { params?: P; query?: Q; body?: B; ok: readonly [number, string, ...unknown[]] },
  handler: (c: Context<AppEnv>, input: RouteInput<P, Q, B>) => unknown,
) {
  const [status] = parts.ok;
  return async (c: Context<AppEnv>) => {
    const valid = c.req.valid.bind(c.req) as (target: string) => unknown;
    const input = {
      params: parts.params ? valid('param') : undefined,
      query: parts.query ? valid('query') : undefined,
      body: parts.body ? valid('json') : undefined,
      get owner() {
        return ownerOf(c);
      },
    } as RouteInput<P, Q, B>;
    await assertFiltersKnown(c, parts.query, input.query);
    const result = (await handler(c, input)) as RouteResult<S>;
    if (result instanceof Response) return result;
    return result === undefined
      ? c.body(null, status as StatusCode)
      : c.json(result, status as ContentfulStatusCode);
  };
}

/**
 * The routes of one module, each declared where its handler is: `routes.get(path, summary, parts, handler)` is
 * `app.openapi(jsonRoute({ method: 'get', path, tag, summary, role, ...parts }), …, hook)`, and `handler(c, { params,
 * query, body, owner })` answers its result (or a Response). The tag and (unless a route says otherwise with
 * `role`) who may call them are named once: `role` puts every route behind a key, none makes them public. Routes
 * are registered (and so listed in `/openapi.json`) in the order they are declared.
 */
export function routeTable(app: OpenAPIHono<AppEnv>, tag: string, role?: Role) {
  const verb =
    (method: Method) =>
    <C extends number, P, Q, B, S extends z.ZodType = never, M extends string = 'application/json'>(
      path: string,
      summary: string,
      parts: RouteParts<C, S, M, P, Q, B>,
      handler: RouteHandler<RouteOf<P, Q, B, C, S, M>, P, Q, B, S>,
      hook?: HookOf<RouteOf<P, Q, B, C, S, M>>,
    ): void => {
      const route = jsonRoute<C, S, M, P, Q, B>({ method, path, tag, summary, role, ...parts });
      const answer = answering<P, Q, B, S>(
        parts,
        handler as (c: Context<AppEnv>, input: RouteInput<P, Q, B>) => unknown,
      );
      (app.openapi as (r: unknown, h: unknown, k: unknown) => unknown)(route, answer, hook);
    };
  /**
   * Routes on one resource: their path parameters are `params`, and before the handler runs `load` finds the
   * resource they name (or throws its 404 problem), so a handler is given it as `resource` and the route's 404 is
   * implied rather than restated. `load` is given the validated parameters and the caller (read only on a keyed
   * route: a public route's loader must not ask for an owner).
   */
  const on = <P, T>(
    params: P,
    load: (
      env: Bindings,
      params: RouteInput<P, never, never>['params'],
      caller: { readonly owner: Owner },
    ) => Promise<T>,
  ) => {
    const scoped =
      (method: Method) =>
      <C extends number, Q, B, S extends z.ZodType = never, M extends string = 'application/json'>(
        path: string,
        summary: string,
        parts: Omit<RouteParts<C, S, M, P, Q, B>, 'params'>,
        handler: (
          c: ContextOf<RouteOf<P, Q, B, C, S, M>>,
          input: RouteInput<P, Q, B> & { resource: T },
        ) => RouteResult<S> | Promise<RouteResult<S>>,
      ): void =>
        verb(method)<C, P, Q, B, S, M>(
          path,
          summary,
          { ...parts, params, problems: [...(parts.problems ?? []), 404] },
          async (c, input) =>
            handler(c, Object.assign(input, { resource: await load(c.env, input.params, input) })),
        );
    /**
     * The resource's progress as Server-Sent Events (`progressEvents`): `read` is polled with the request; `gone`
     * is what the stream says when the resource disappears. The resource is loaded before the stream starts, so a
     * missing one is a 404, not an empty stream.
     */
    const events = (
      path: string,
      summary: string,
      read: (
        env: Bindings,
        input: RouteInput<P, undefined, undefined> & { resource: T },
      ) => Promise<ProgressState | null>,
      gone: string,
    ): void =>
      scoped('get')<200, undefined, undefined, z.ZodString, 'text/event-stream'>(
        path,
        summary,
        { ok: [200, 'An event stream', z.string(), 'text/event-stream'] },
        (c, input) => progressEvents(c, () => read(c.env, input), gone),
      );
    return {
      get: scoped('get'),
      post: scoped('post'),
      put: scoped('put'),
      patch: scoped('patch'),
      delete: scoped('delete'),
      events,
    };
  };
  return {
    get: verb('get'),
    post: verb('post'),
    put: verb('put'),
    patch: verb('patch'),
    delete: verb('delete'),
    on,
  };
}

/** A loader for `routes.on` from a finder of the caller's resource by id (`ownedOr404`'s): the path's `{id}`. */
export function byId<T>(find: (env: Bindings, id: string, owner: Owner) => Promise<T>) {
  return (env: Bindings, params: { id: string }, caller: { readonly owner: Owner }): Promise<T> =>
    find(env, params.id, caller.owner);
}

/** The route table a module declares its routes on (`routeTable`). */
export type RouteTable = ReturnType<typeof routeTable>;

/**
 * A route module: its OpenAPI tag, who may call its routes (`'public'`: anyone; a route may still say `role`),
 * and the routes, declared on the table it is given. What it returns registers them on an app (`app.ts` gives
 * each module a sub-app of its own); routes of another shape (`createRoute`) go on the `app` it is also given.
 */
export function routeModule(
  tag: string,
  role: Role | 'public',
  declare: (routes: RouteTable, app: OpenAPIHono<AppEnv>) => void,
): (app: OpenAPIHono<AppEnv>) => void {
  return (app) => declare(routeTable(app, tag, role === 'public' ? undefined : role), app);
}

/**
 * A page of a list: `{ items, nextCursor }` — the one shape every list answers (nextCursor null on the last page;
 * the next page is the same request with `cursor=<nextCursor>`, also given as a `Link: rel="next"` header).
 */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().openapi({
      description:
        'The `cursor` of the next page (null on the last one); also the `Link: rel="next"` header.',
    }),
  });
}

/**
 * What a keyset-paginated list route declares: its query (filters and `pageParams`, `keyset.ts`) and a page of
 * `item` (`pageOf`) (a 400 for a query that fails its schema is implied; a `resourceFilter` implies a 404).
 */
export function itemsPage<Q extends z.ZodType, T extends z.ZodType>(query: Q, description: string, item: T) {
  return { query, ok: [200, description, pageOf(item)] as const };
}

/** An object schema registered as the OpenAPI component `name` (a response, or a body that allows more keys). */
export function component<T extends z.ZodRawShape>(name: string, shape: T) {
  return z.object(shape).openapi(name);
}

/** A JSON request body: an object that refuses unknown keys, registered as the OpenAPI component `name`. */
export function requestBody<T extends z.ZodRawShape>(name: string, shape: T) {
  return z.object(shape).strict().openapi(name);
}

/** Path parameters `{ id }` with the given id schema. */
export const idParams = <T extends z.ZodType>(id: T) => z.object({ id });

/**
 * Makes the OpenAPI document say which routes need an admin key, from the middleware that enforces it: every
 * route registered on `app` afterwards whose middleware includes `requireKey('admin')` gets an `x-admin-only`
 * flag and a description that starts by saying so (its security stays the bearer scheme: the key is sent the
 * same way), so the documentation cannot disagree with the check.
 */
export function documentAdminRoutes(app: OpenAPIHono<AppEnv>): void {
  const register = app.openapi.bind(app);
  type Route = Parameters<typeof register>[0];
  app.openapi = ((route: Route, ...rest: unknown[]) => {
    const middleware = ([] as unknown[]).concat(route.middleware ?? []);
    const marked: Route = middleware.some(isAdminGate)
      ? ({
          ...route,
          'x-admin-only': true,
          description:
            `**Admin key required** (ADMIN_API_KEYS; a user key gets 403). ${route.description ?? ''}`.trim(),
        } as Route)
      : route;
    return (register as (...args: unknown[]) => unknown)(marked, ...rest);
  }) as typeof app.openapi;
}
