/**
 * What the routes that spend model calls show of it (edge/metering.ts): the `dryRun` body field, the estimate a
 * `POST` answer carries, the answer of a dry run, and a run's spend in its view — one declaration for the
 * evaluation, exploration, STE, DRAFT, training and solve routes.
 */
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Estimate, SpendView } from '../../edge/metering.ts';
import { modelCallsLeft } from '../../edge/stores/api-keys.ts';
import type { AppEnv } from '../app-env.ts';
import { component } from '../http/openapi.ts';

/** The body field: `true` checks and estimates the request and answers that, starting nothing. */
export const DryRunField = z.boolean().default(false).openapi({
  description:
    'Check the request and answer its model-call estimate (200, `DryRun`) without starting anything or spending.',
});

export const EstimateSchema = component('Estimate', {
  modelCalls: z.number().int().openapi({
    description:
      "The most model calls the request can make (an upper bound from its own limits); checked against the key's quota before it starts.",
  }),
});

export const DryRunSchema = component('DryRun', {
  dryRun: z.literal(true),
  estimate: EstimateSchema,
  modelCallsLeft: z.number().int().nullable().openapi({
    description:
      "What the key's quota has left (null: no quota). A request estimated above it is refused (403).",
  }),
});

export const SpendSchema = component('Spend', {
  modelCalls: z.number().int().openapi({ description: "Model calls charged to the key's quota so far." }),
  overshoot: z.number().int().openapi({
    description:
      'How many of them went past the quota: a run stops at the first batch that starts with the quota used up, so at most one batch.',
  }),
});

/** The view members of a run that spends model calls (null for a run recorded before metering). */
export const spendMembers = {
  estimate: EstimateSchema.nullable(),
  spend: SpendSchema.nullable(),
};

export function spendFields(view: SpendView | null): {
  estimate: Estimate | null;
  spend: { modelCalls: number; overshoot: number } | null;
} {
  return view
    ? { estimate: view.estimate, spend: { modelCalls: view.modelCalls, overshoot: view.overshoot } }
    : { estimate: null, spend: null };
}

/** The `responses` entry of a dry run's answer, for a route declaration. */
export const dryRunResponse = {
  200: {
    description: 'dryRun: the estimate alone (nothing was started)',
    content: { 'application/json': { schema: DryRunSchema } },
  },
};

/** The answer of a dry run: the estimate and what the caller's key has left. */
export async function dryRunAnswer(c: Context<AppEnv>, ownerId: string | null, estimate: Estimate) {
  const left = await modelCallsLeft(c.env, ownerId);
  return c.json(
    { dryRun: true as const, estimate, modelCallsLeft: left === null ? null : Math.max(0, left) },
    200,
  );
}
