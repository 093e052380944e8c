/**
 * Parts of an agent run as the API shows them, shared by the routes that answer one (an evaluation's task runs,
 * `POST /v1/solve`, explorations): one step of its trajectory and what its model calls spent.
 */
import { z } from '@hono/zod-openapi';

/** One step of a trajectory: the model's text, the observation it got, its action (if any) and the outcome. */
export const TrajectoryStep = z.object({
  text: z.string(),
  observation: z.string(),
  action: z.string().optional(),
  outcome: z.string(),
});

/** What a run's model calls spent, spread into a usage object: `z.object({ ...MODEL_USAGE, latencyMs })`. */
export const MODEL_USAGE = {
  modelCalls: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
};
