/** The D1 `cron_ticks` table: one row per (cron, scheduled time) the cron handler has claimed. */
import { and, eq } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { cronTicks } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

/** Claims a tick; false when a row for it exists (another or an earlier invocation handled it). */
export async function claimCronTick(env: Bindings, cron: string, scheduledTime: number): Promise<boolean> {
  const claimed = await database(env.DB)
    .insert(cronTicks)
    .values({ cron, scheduledTime, startedAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: cronTicks.id });
  return claimed.length > 0;
}

export async function finishCronTick(
  env: Bindings,
  cron: string,
  scheduledTime: number,
  summary: Record<string, unknown>,
): Promise<void> {
  await database(env.DB)
    .update(cronTicks)
    .set({ finishedAt: Date.now(), summary })
    .where(and(eq(cronTicks.cron, cron), eq(cronTicks.scheduledTime, scheduledTime)));
}
