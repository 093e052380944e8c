/** Helpers shared by route modules for their OpenAPI descriptions. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env.ts';
import { isAdminGate } from './auth.ts';
import { ProblemSchema } from './problem.ts';

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
