/** Helpers shared by route modules for their OpenAPI descriptions. */
import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { isAdminGate, type Role, requireKey } from './auth.ts';
import { ProblemSchema } from './problem.ts';
import { rateLimit } from './rate-limit.ts';

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
