/**
 * Chain-of-Tools training runs of toolsets in D1 (the only module with their drizzle queries): one row per run in
 * `toolset_trainings` (version 1, 2, … per toolset, allocated at insert under the unique (toolset, version)
 * index), and its blobs — the finished weights (float32), the pool's vectors and, for runs from before
 * checkpoints moved to R2 (training-checkpoints.ts), the exact checkpoint — in `toolset_training_blobs`, split into parts of at most 1 MiB (D1 holds at
 * most 2 MB in one value), each stored as base64 text: D1 passes a BLOB value as an array of numbers, ≈ 0.5 s per MiB
 * of CPU on the isolate (a 38 MB checkpoint held a local server for 20 s), text ≈ 30 ms. (Parts written as BLOBs
 * before are still read.) A blob is replaced in two steps: its parts are written one statement at a time under a
 * staging kind (`<kind>.next`, pacing between them), then one batch drops the old parts, renames the staged ones
 * and applies the run's patch — so a reader never sees half of one, and no statement holds the isolate long.
 */
import { Buffer } from 'node:buffer';
import { and, asc, desc, eq, inArray, lt, max, ne, sql } from 'drizzle-orm';
import { concatBytes } from '../../core/util/bytes.ts';
import { database } from '../../db/client.ts';
import { toolsetTrainingBlobs, toolsetTrainings } from '../../db/schema.ts';
import { type Page, pageFrom } from './keyset.ts';
import { type Owner, ownerIdOf } from './owners.ts';

export type TrainingRow = typeof toolsetTrainings.$inferSelect;
export type TrainingStatus = TrainingRow['status'];
export type BlobKind = 'weights' | 'checkpoint' | 'vectors';
type StagedKind = `${BlobKind}.next`;

/** Bytes per blob part. */
export const BLOB_PART_BYTES = 1 << 20;

/** Inserts a queued run with the toolset's next version (retrying when another insert took that version). */
export async function insertTraining(
  db: D1Database,
  input: { toolsetId: string; options: unknown; data: unknown },
  owner?: Owner,
): Promise<TrainingRow> {
  const d = database(db);
  for (let attempt = 0; ; attempt++) {
    const [top] = await d
      .select({ version: max(toolsetTrainings.version) })
      .from(toolsetTrainings)
      .where(eq(toolsetTrainings.toolsetId, input.toolsetId));
    const now = Date.now();
    const row: TrainingRow = {
      id: crypto.randomUUID(),
      toolsetId: input.toolsetId,
      version: (top?.version ?? 0) + 1,
      status: 'queued',
      options: input.options,
      data: input.data ?? null,
      progress: null,
      report: null,
      error: null,
      weightsBytes: null,
      weightsSha256: null,
      ownerId: ownerIdOf(owner),
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
    };
    const inserted = await d.insert(toolsetTrainings).values(row).onConflictDoNothing().returning({
      id: toolsetTrainings.id,
    });
    if (inserted.length > 0) return row;
    if (attempt >= 4) throw new Error(`could not allocate a training version for toolset ${input.toolsetId}`);
  }
}

export async function getTraining(db: D1Database, id: string): Promise<TrainingRow | null> {
  const [row] = await database(db)
    .select()
    .from(toolsetTrainings)
    .where(eq(toolsetTrainings.id, id))
    .limit(1);
  return row ?? null;
}

/** Summaries of a toolset's runs, newest version first (without their data and report). */
/**
 * A page of a toolset's training runs, newest version first; the cursor is the last run's `{version}_{toolset id}`
 * (the shared keyset format).
 */
export async function listTrainings(
  db: D1Database,
  toolsetId: string,
  page: { limit: number; cursor?: string },
): Promise<Page<TrainingRow>> {
  const before = page.cursor === undefined ? undefined : Number(/^(\d+)_/.exec(page.cursor)?.[1]);
  const rows = await database(db)
    .select()
    .from(toolsetTrainings)
    .where(
      and(
        eq(toolsetTrainings.toolsetId, toolsetId),
        before === undefined ? undefined : lt(toolsetTrainings.version, before),
      ),
    )
    .orderBy(desc(toolsetTrainings.version))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => `${r.version}_${toolsetId}`);
  return { items, nextCursor: next };
}

/**
 * A toolset's run: the given version, or the newest one (with `succeeded`, the newest finished one). The caller
 * has already checked that the key may see the toolset.
 */
export async function findTraining(
  db: D1Database,
  toolsetId: string,
  opts: { version?: number | undefined; succeeded?: boolean } = {},
): Promise<TrainingRow | null> {
  const where = [eq(toolsetTrainings.toolsetId, toolsetId)];
  if (opts.version !== undefined) where.push(eq(toolsetTrainings.version, opts.version));
  if (opts.succeeded) where.push(eq(toolsetTrainings.status, 'succeeded'));
  const [row] = await database(db)
    .select()
    .from(toolsetTrainings)
    .where(and(...where))
    .orderBy(desc(toolsetTrainings.version))
    .limit(1);
  return row ?? null;
}

/** Applies `patch` to a run that has not been cancelled. */
export async function updateTraining(
  db: D1Database,
  id: string,
  patch: Partial<Pick<TrainingRow, 'status' | 'progress' | 'report' | 'error' | 'finishedAt'>>,
): Promise<void> {
  await database(db)
    .update(toolsetTrainings)
    .set({ ...patch, updatedAt: Date.now() })
    .where(and(eq(toolsetTrainings.id, id), ne(toolsetTrainings.status, 'cancelled')));
}

/** Runs of a key that are queued or running. */
export async function trainingsInFlight(db: D1Database, ownerId: string): Promise<number> {
  const [row] = await database(db)
    .select({ n: sql<number>`count(*)` })
    .from(toolsetTrainings)
    .where(
      and(eq(toolsetTrainings.ownerId, ownerId), inArray(toolsetTrainings.status, ['queued', 'running'])),
    );
  return row?.n ?? 0;
}

/**
 * Cancels a queued or running run and drops its checkpoint (its running chunk stops at its next segment); false
 * when the run had already ended.
 */
export async function cancelTraining(db: D1Database, id: string): Promise<boolean> {
  const now = Date.now();
  const cancelled = await database(db)
    .update(toolsetTrainings)
    .set({ status: 'cancelled', updatedAt: now, finishedAt: now })
    .where(and(eq(toolsetTrainings.id, id), inArray(toolsetTrainings.status, ['queued', 'running'])))
    .returning({ id: toolsetTrainings.id });
  if (cancelled.length === 0) return false;
  await deleteBlobs(db, id, ['checkpoint']);
  return true;
}

/**
 * Replaces a blob and applies `patch` to the run (e.g. its progress or weights digest) at once: the parts are staged
 * one statement at a time (`pace` runs between them), then swapped in with the patch in one batch. A cancelled
 * run's row keeps its status.
 */
export async function writeBlob(
  db: D1Database,
  trainingId: string,
  kind: BlobKind,
  bytes: Uint8Array,
  patch: Partial<
    Pick<TrainingRow, 'status' | 'progress' | 'report' | 'weightsBytes' | 'weightsSha256' | 'finishedAt'>
  > = {},
  pace: () => Promise<void> = async () => {},
): Promise<void> {
  const d = database(db);
  const staged: StagedKind = `${kind}.next`;
  const of = (k: BlobKind | StagedKind) =>
    and(eq(toolsetTrainingBlobs.trainingId, trainingId), eq(toolsetTrainingBlobs.kind, k));
  await d.delete(toolsetTrainingBlobs).where(of(staged)); // what an interrupted write left
  for (let part = 0, at = 0; at < bytes.length || part === 0; part++, at += BLOB_PART_BYTES) {
    await d.insert(toolsetTrainingBlobs).values({
      trainingId,
      kind: staged,
      part,
      data: Buffer.from(bytes.subarray(at, at + BLOB_PART_BYTES)).toString('base64'),
    });
    await pace();
  }
  const update = d
    .update(toolsetTrainings)
    .set({ ...patch, updatedAt: Date.now() })
    .where(and(eq(toolsetTrainings.id, trainingId), ne(toolsetTrainings.status, 'cancelled')));
  await d.batch([
    d.delete(toolsetTrainingBlobs).where(of(kind)),
    d.update(toolsetTrainingBlobs).set({ kind }).where(of(staged)),
    update,
  ]);
}

/** A part as stored: base64 text, or (written before) the bytes themselves. */
function partBytes(data: string | Uint8Array | ArrayBuffer | number[]): Uint8Array {
  if (typeof data === 'string') return new Uint8Array(Buffer.from(data, 'base64'));
  return data instanceof Uint8Array ? data : new Uint8Array(data as ArrayBuffer | number[]);
}

/**
 * A blob, or null when the run has none of that kind. Parts are read one at a time (each is ≤ 1 MiB), with `pace`
 * after each one's decoding (a job passes its pacer's: a checkpoint is tens of parts).
 */
export async function readBlob(
  db: D1Database,
  trainingId: string,
  kind: BlobKind,
  pace: () => Promise<void> = async () => {},
): Promise<Uint8Array | null> {
  const d = database(db);
  const where = and(eq(toolsetTrainingBlobs.trainingId, trainingId), eq(toolsetTrainingBlobs.kind, kind));
  const parts = await d
    .select({ part: toolsetTrainingBlobs.part })
    .from(toolsetTrainingBlobs)
    .where(where)
    .orderBy(asc(toolsetTrainingBlobs.part));
  if (parts.length === 0) return null;
  const chunks: Uint8Array[] = [];
  for (const { part } of parts) {
    const [row] = await d
      .select({ data: toolsetTrainingBlobs.data })
      .from(toolsetTrainingBlobs)
      .where(and(where, eq(toolsetTrainingBlobs.part, part)));
    if (!row) throw new Error(`training ${trainingId}: ${kind} part ${part} vanished while being read`);
    chunks.push(partBytes(row.data));
    await pace();
  }
  return concatBytes(chunks);
}

export async function deleteBlobs(db: D1Database, trainingId: string, kinds: BlobKind[]): Promise<void> {
  await database(db)
    .delete(toolsetTrainingBlobs)
    .where(and(eq(toolsetTrainingBlobs.trainingId, trainingId), inArray(toolsetTrainingBlobs.kind, kinds)));
}
