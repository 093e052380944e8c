/**
 * A request's choice of surface (the server surface a run calls, or the prompt surface whose docs the agent
 * sees), shared by the routes that start agent runs on a surface (sessions, explorations).
 */
import { z } from '@hono/zod-openapi';
import { namesResource } from '../http/openapi.ts';

/** A surface id of up to 100 characters, `defaultId` when left out (an unknown id is the route's 404). */
export function surfaceChoice(defaultId: string, description: string) {
  return namesResource(z.string().max(100).default(defaultId).openapi({ description }), 'surface');
}
