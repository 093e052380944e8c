/**
 * Model-spend metering (issue 24): the one piece every route and job that spends model calls goes through, so a key
 * with a quota pays for every call made for it and cannot start more than it has left.
 *
 * - Before it starts, a spending request computes an estimate — an upper bound from its own limits (a method's
 *   `modelCalls`, STE's and DRAFT's per-tool bounds, a training's encoder calls) — reports it (`estimate.modelCalls`
 *   in the `POST` answer; `dryRun: true` answers only that), and `startSpend` checks it against what the key has
 *   left: a key with nothing left, or less than the estimate, gets a 403 `quota-exhausted` naming both. A run that
 *   starts is recorded in the `model_spend` ledger (edge/stores/spend.ts) under its kind and id.
 * - While it runs, each batch of work (a task run, a tree chunk, an STE or DRAFT chunk, a training chunk) first asks
 *   `mayContinue` and afterwards `chargeSpend`s what its calls actually were: a run stops at the first batch
 *   that starts with the quota used up, so it spends at most one batch beyond it, and the ledger's `overshoot`
 *   says how much that was.
 * - `spendView` is what a run's view shows: its estimate, its calls charged so far and the overshoot.
 *
 * - An embedding model spends too when its provider bills (`embeddingBills`): trainings' and DRAFT's encoder
 *   requests are counted (`countingEncoder`) and charged like text-model calls.
 *
 * A new spending route plugs in with one `startSpend` call (and its jobs with `mayContinue` / `chargeSpend`). Keys
 * without a quota (configured keys, admin keys, issued keys without one) are metered the same way; only the check
 * never refuses them.
 */
import type { EmbeddingModel } from '../core/models/types.ts';
import type { Bindings, Config } from './env.ts';
import { type FieldIssue, InvalidInputError, QuotaExhaustedError } from './errors.ts';
import { modelCallsLeft } from './stores/api-keys.ts';
import { addSpend, findSpend, insertSpend } from './stores/spend.ts';

/** What spends model calls, as the ledger names it. */
export type SpendKind = 'evaluation' | 'exploration' | 'ste' | 'draft' | 'training' | 'solve' | 'stream';

/** What a `POST` answer carries: the most model calls the request can make (an upper bound). */
export interface Estimate {
  modelCalls: number;
}

/** Why a run stopped when its key's quota ran out (evaluations' and explorations' `stoppedFor`). */
export const QUOTA_EXHAUSTED = 'quota-exhausted';

/**
 * An estimate this large (model calls) needs the request to name its scope (`tools: "all"` or a list) instead of
 * leaving it to a default: `POST /v1/ste/runs {}` alone would otherwise start thousands of calls.
 */
export const EXPLICIT_SCOPE_CALLS = 1_000;

/** A 400 when a request that left `field` to its default would cost EXPLICIT_SCOPE_CALLS or more. */
export function requireExplicitScope(estimate: Estimate, given: boolean, field: string, what: string): void {
  if (given || estimate.modelCalls < EXPLICIT_SCOPE_CALLS) return;
  const issue: FieldIssue = {
    in: 'body',
    field,
    pointer: `/${field}`,
    message: `say "all" or list them: the default costs up to ${estimate.modelCalls} model calls`,
  };
  throw new InvalidInputError(
    `Without \`${field}\` this run would cover ${what}, up to ${estimate.modelCalls} model calls; send "${field}": "all" to mean that, or list the ones to cover.`,
    [issue],
  );
}

/** Throws QuotaExhaustedError when the key has nothing left or less than the estimate. */
export async function checkQuota(env: Bindings, ownerId: string | null, estimate: Estimate): Promise<void> {
  if (estimate.modelCalls <= 0) return; // nothing to spend (a training over an encoder that runs here)
  const left = await modelCallsLeft(env, ownerId);
  if (left === null) return;
  if (left <= 0)
    throw new QuotaExhaustedError(
      'This key has used its whole model-call quota; nothing that calls a model can start with it.',
      { estimate, modelCallsLeft: Math.max(0, left) },
    );
  if (estimate.modelCalls > left)
    throw new QuotaExhaustedError(
      `This request may make up to ${estimate.modelCalls} model calls; the key has ${left} left. Ask for less (\`dryRun: true\` answers the estimate alone) or use a key with a larger quota.`,
      { estimate, modelCallsLeft: left },
    );
}

/** Checks the estimate against the key's quota and records the run in the ledger: call before the run starts. */
export async function startSpend(
  env: Bindings,
  run: { kind: SpendKind; id: string; ownerId: string | null },
  estimate: Estimate,
): Promise<void> {
  await checkQuota(env, run.ownerId, estimate);
  await insertSpend(env, {
    kind: run.kind,
    subjectId: run.id,
    ownerId: run.ownerId,
    estimate: estimate.modelCalls,
  });
}

/** Whether a running job may start its next batch: false once the key's quota is used up. */
export async function mayContinue(env: Bindings, ownerId: string | null): Promise<boolean> {
  const left = await modelCallsLeft(env, ownerId);
  return left === null || left > 0;
}

/** Charges a batch's model calls to the run's key and ledger row (nothing for 0 calls). */
export async function chargeSpend(
  env: Bindings,
  run: { kind: SpendKind; id: string; ownerId: string | null },
  calls: number,
): Promise<void> {
  if (calls <= 0) return;
  await addSpend(env, run.kind, run.id, run.ownerId, calls);
}

/**
 * Whether an embedding provider bills each request (Workers AI, OpenAI: another machine's model); the lexical
 * encoder and USE lite run on this isolate's CPU (paced, edge/models.ts) and cost no model call.
 */
export function embeddingBills(provider: Config['embeddingProvider']): boolean {
  return provider !== 'lexical' && provider !== 'use';
}

/** An encoder counting its `embed` requests: with a provider that bills, each is a model call charged to the key. */
export function countingEncoder(encoder: EmbeddingModel): EmbeddingModel & { requests: number } {
  const counted = {
    provider: encoder.provider,
    model: encoder.model,
    dimensions: encoder.dimensions,
    requests: 0,
    embed(texts: string[], signal?: AbortSignal) {
      counted.requests++;
      return encoder.embed(texts, signal);
    },
  };
  return counted;
}

export interface SpendView {
  estimate: Estimate;
  /** Model calls charged to the key so far. */
  modelCalls: number;
  /** How many of them went past the key's quota (at most one batch's worth). */
  overshoot: number;
}

/** A run's spend as its view shows it (null for a run recorded before metering). */
export async function spendView(env: Bindings, kind: SpendKind, id: string): Promise<SpendView | null> {
  const row = await findSpend(env, kind, id);
  return row
    ? { estimate: { modelCalls: row.estimate }, modelCalls: row.modelCalls, overshoot: row.overshoot }
    : null;
}
