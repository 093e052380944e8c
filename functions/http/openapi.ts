/** Helpers shared by route modules for their OpenAPI descriptions. */
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
