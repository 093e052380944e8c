/**
 * A request's model choice (which provider and model answers, with which sampling settings). Pure zod, so the
 * HTTP routes, the evaluation suites and the CLI validate it the same way; every field falls back to the
 * deployment's configuration (edge/models.ts).
 */
import { z } from 'zod';

export const MODEL_PROVIDERS = ['sim', 'workers-ai', 'openai'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const ModelChoiceSchema = z
  .strictObject({
    provider: z.enum(MODEL_PROVIDERS).optional(),
    model: z.string().min(1).max(200).optional(),
    temperature: z.number().min(0).max(2).optional(),
    k: z.number().int().min(1).max(16).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
  })
  .describe(
    'Which model answers: provider (sim, workers-ai, openai), model name, temperature, k candidates, seed.',
  );

export type ModelChoice = z.infer<typeof ModelChoiceSchema>;
