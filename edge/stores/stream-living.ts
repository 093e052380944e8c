/**
 * Living drift in D1 and R2 (issue 26 §2, §4): a stream's plan (`stream_plans`), one `stream_maintenance` row per
 * maintained release (its spend; the state it left is an R2 blob, too large for a row), and one `stream_results`
 * row per (release, configuration) of the evaluation over time. Rows are written once: the keys refuse a second
 * insert, so a redelivered job records nothing twice.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { TaskRecord } from '../../core/streams/evaluate.ts';
import type { MaintenanceState, ReleaseMaintenance } from '../../core/streams/maintain.ts';
import type { StreamPlan } from '../../core/streams/plan.ts';
import { database } from '../../db/client.ts';
import { streamMaintenance, streamPlans, streamResults } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';

type Db = Pick<Bindings, 'DB'>;

export async function getPlan(env: Db, streamId: string): Promise<StreamPlan | null> {
  const [row] = await database(env.DB)
    .select()
    .from(streamPlans)
    .where(eq(streamPlans.streamId, streamId))
    .limit(1);
  return row ? ({ maintenance: row.maintenance, evaluation: row.evaluation } as StreamPlan) : null;
}

/** Sets (or replaces) a stream's plan; releases already maintained and evaluated keep their rows. */
export async function putPlan(env: Db, streamId: string, plan: StreamPlan, now = Date.now()): Promise<void> {
  await database(env.DB)
    .insert(streamPlans)
    .values({
      streamId,
      maintenance: plan.maintenance,
      evaluation: plan.evaluation,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: streamPlans.streamId,
      set: { maintenance: plan.maintenance, evaluation: plan.evaluation, updatedAt: now },
    });
}

export const stateKey = (streamId: string, n: number) => `streams/${streamId}/maintenance/r${n}.json`;

/** Whether release n of the stream was maintained. */
export async function maintained(env: Db, streamId: string, n: number): Promise<boolean> {
  const [row] = await database(env.DB)
    .select({ n: streamMaintenance.n })
    .from(streamMaintenance)
    .where(and(eq(streamMaintenance.streamId, streamId), eq(streamMaintenance.n, n)))
    .limit(1);
  return row !== undefined;
}

/** The state maintenance left at release n (null: not maintained, or its blob is gone). */
export async function maintenanceState(
  env: Pick<Bindings, 'DB' | 'BLOBS'>,
  streamId: string,
  n: number,
): Promise<MaintenanceState | null> {
  if (!(await maintained(env, streamId, n))) return null;
  const object = await env.BLOBS.get(stateKey(streamId, n));
  return object ? ((await object.json()) as MaintenanceState) : null;
}

/**
 * Records release n's maintenance: the state blob first, then the row (the row is the commit: a blob without a row
 * is overwritten by the next attempt). False when the row existed already.
 */
export async function recordMaintenance(
  env: Pick<Bindings, 'DB' | 'BLOBS'>,
  streamId: string,
  state: MaintenanceState,
  spend: ReleaseMaintenance,
  now = Date.now(),
): Promise<boolean> {
  const key = stateKey(streamId, state.release);
  await env.BLOBS.put(key, JSON.stringify(state), { httpMetadata: { contentType: 'application/json' } });
  const inserted = await database(env.DB)
    .insert(streamMaintenance)
    .values({ streamId, n: state.release, spend, stateKey: key, createdAt: now })
    .onConflictDoNothing()
    .returning({ n: streamMaintenance.n });
  return inserted.length > 0;
}

/** Every maintained release's spend, in release order. */
export async function maintenanceSpends(env: Db, streamId: string): Promise<ReleaseMaintenance[]> {
  const rows = await database(env.DB)
    .select({ spend: streamMaintenance.spend })
    .from(streamMaintenance)
    .where(eq(streamMaintenance.streamId, streamId))
    .orderBy(asc(streamMaintenance.n));
  return rows.map((r) => r.spend as ReleaseMaintenance);
}

export interface ResultRow {
  n: number;
  configuration: string;
  records: TaskRecord[];
  memory: string[] | null;
}

/** The recorded evaluation results of a stream (every release and configuration), in release order. */
export async function streamResultRows(env: Db, streamId: string): Promise<ResultRow[]> {
  const rows = await database(env.DB)
    .select({
      n: streamResults.n,
      configuration: streamResults.configuration,
      records: streamResults.records,
      memory: streamResults.memory,
    })
    .from(streamResults)
    .where(eq(streamResults.streamId, streamId))
    .orderBy(asc(streamResults.n), asc(streamResults.configuration));
  return rows.map((r) => ({ ...r, records: r.records as TaskRecord[] }));
}

/** The configurations evaluated at release n, with the memory each ended it with. */
export async function releaseResults(
  env: Db,
  streamId: string,
  n: number,
): Promise<Map<string, string[] | null>> {
  const rows = await database(env.DB)
    .select({ configuration: streamResults.configuration, memory: streamResults.memory })
    .from(streamResults)
    .where(and(eq(streamResults.streamId, streamId), eq(streamResults.n, n)));
  return new Map(rows.map((r) => [r.configuration, r.memory ?? null]));
}

/** Records one configuration's runs at release n; false when they were recorded already. */
export async function recordResult(
  env: Db,
  row: {
    streamId: string;
    n: number;
    configuration: string;
    records: TaskRecord[];
    memory: readonly string[] | null;
    notes: unknown;
  },
  now = Date.now(),
): Promise<boolean> {
  const inserted = await database(env.DB)
    .insert(streamResults)
    .values({ ...row, memory: row.memory ? [...row.memory] : null, createdAt: now })
    .onConflictDoNothing()
    .returning({ n: streamResults.n });
  return inserted.length > 0;
}

/** The R2 blobs of a stream's maintenance (the rows go with the stream: foreign keys cascade). */
export async function deleteLivingBlobs(env: Pick<Bindings, 'BLOBS'>, streamId: string): Promise<void> {
  const listed = await env.BLOBS.list({ prefix: `streams/${streamId}/` });
  if (listed.objects.length > 0) await env.BLOBS.delete(listed.objects.map((o) => o.key));
}
