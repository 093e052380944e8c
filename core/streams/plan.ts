/**
 * A stream's living-drift plan (issue 26 §2, §4), as a request sets it (`PUT /v1/streams/{id}/plan`): the
 * maintenance policy run once per release, and the evaluation after it — the same seeded suite at every release
 * for the chosen configurations, answered by the chosen model. One zod schema for the route, the store and the CLI.
 */
import { z } from 'zod';
import { ModelChoiceSchema } from '../models/choice.ts';
import { STREAM_CONFIGURATIONS } from './evaluate.ts';
import { MaintenancePolicySchema } from './maintain.ts';

const CONFIGURATION_IDS = STREAM_CONFIGURATIONS.map((c) => c.id) as [string, ...string[]];

export const EvaluationPlanSchema = z.strictObject({
  configurations: z
    .array(z.enum(CONFIGURATION_IDS))
    .min(1)
    .max(CONFIGURATION_IDS.length)
    .default([...CONFIGURATION_IDS])
    .superRefine((ids, ctx) => {
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i)
          ctx.addIssue({ code: 'custom', path: [i], message: `${id} is listed twice` });
      });
    })
    .meta({
      description:
        'Agent configurations: stale (no aids), memory (tool-update memory only), draft, ste, pool (each aid alone), combined (the combined-greedy preset). An API stream runs those that apply to APIs.',
    }),
  sampleSize: z.number().int().min(1).max(20).default(3).meta({
    description:
      'Kernel: test tasks per dataset × difficulty (3 → 42 tasks); an API: the first sampleSize × 14 queries of the query set.',
  }),
  queryset: z.string().min(1).max(100).optional().meta({
    description: 'An API stream: the query set (of the stream’s API) the suite draws its queries from.',
  }),
  maxSteps: z.number().int().min(1).max(30).default(20),
  model: ModelChoiceSchema.optional(),
});

export const StreamPlanSchema = z.strictObject({
  maintenance: MaintenancePolicySchema.default(MaintenancePolicySchema.parse({})),
  evaluation: EvaluationPlanSchema.default(EvaluationPlanSchema.parse({})),
});

export type StreamPlan = z.output<typeof StreamPlanSchema>;
export type StreamPlanInput = z.input<typeof StreamPlanSchema>;
export type EvaluationPlan = z.output<typeof EvaluationPlanSchema>;

/** Queries per release of an API stream's suite. */
export function apiSuiteSize(plan: EvaluationPlan): number {
  return plan.sampleSize * 14;
}
