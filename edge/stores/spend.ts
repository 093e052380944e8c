/**
 * The D1 `model_spend` ledger (the only module with its queries): per run that spends model calls, the estimate it
 * started with, what it has charged to its key and how much of that went past the key's quota. A charge updates
 * the key's `model_calls_used` and the run's row in one batch, so the overshoot is computed from the key's count
 * right after this charge, whoever else charged meanwhile.
 */
import { and, eq, sql } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { apiKeys, modelSpend } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

export type SpendRow = typeof modelSpend.$inferSelect;

/** Records a run's estimate (once: a second open of the same subject changes nothing). */
export async function insertSpend(
  env: Pick<Bindings, 'DB'>,
  row: { kind: string; subjectId: string; ownerId: string | null; estimate: number },
): Promise<void> {
  const now = Date.now();
  await database(env.DB)
    .insert(modelSpend)
    .values({ ...row, modelCalls: 0, overshoot: 0, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
}

/**
 * Adds `calls` to the owner's key and to the run's row; the run's overshoot grows by the part of these calls that
 * took the key past its quota (none for a key without one, or an owner that is not an issued key).
 */
export async function addSpend(
  env: Pick<Bindings, 'DB'>,
  kind: string,
  subjectId: string,
  ownerId: string | null,
  calls: number,
): Promise<void> {
  const d = database(env.DB);
  const now = Date.now();
  const beyond = ownerId
    ? sql`coalesce((select max(0, min(${calls}, ${apiKeys.modelCallsUsed} - ${apiKeys.modelCallQuota})) from ${apiKeys} where ${apiKeys.id} = ${ownerId} and ${apiKeys.modelCallQuota} is not null), 0)`
    : sql`0`;
  const run = d
    .update(modelSpend)
    .set({
      modelCalls: sql`${modelSpend.modelCalls} + ${calls}`,
      overshoot: sql`${modelSpend.overshoot} + ${beyond}`,
      updatedAt: now,
    })
    .where(and(eq(modelSpend.kind, kind), eq(modelSpend.subjectId, subjectId)));
  if (!ownerId) {
    await run;
    return;
  }
  const key = d
    .update(apiKeys)
    .set({ modelCallsUsed: sql`${apiKeys.modelCallsUsed} + ${calls}` })
    .where(eq(apiKeys.id, ownerId));
  // The key first: the run's overshoot reads the key's count after this charge.
  await d.batch([key, run]);
}

export async function findSpend(
  env: Pick<Bindings, 'DB'>,
  kind: string,
  subjectId: string,
): Promise<SpendRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(modelSpend)
    .where(and(eq(modelSpend.kind, kind), eq(modelSpend.subjectId, subjectId)))
    .limit(1);
  return row ?? null;
}
