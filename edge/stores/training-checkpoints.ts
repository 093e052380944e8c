/**
 * A training run's checkpoint between queue chunks (edge/jobs/train-toolset.ts), in R2 (`BLOBS`), under the chunk
 * that may resume from it: `trainings/<run>/checkpoint/<chunk>/<part>`. A checkpoint of a 1,000-tool retriever is
 * ≈ 50 MB (float64 weights and AdamW moments), written every TRAIN_CHUNK_MS; in D1 (toolset-training.ts's parts)
 * each write moved tens of MB of rows in one batch, which held the database — and every request waiting on it —
 * for ~0.4 s every 25 s (issue 24, bench:responsiveness), and one 50 MB object held the local runtime ~0.85 s. So
 * the bytes go as parts of CHECKPOINT_PART_BYTES with the caller's pace between them. The parts of chunk n+1 are
 * all put first, then the run's progress names chunk n+1 (D1), then older checkpoints go: a runtime that dies
 * between two of these steps leaves the progress naming a checkpoint whose parts all exist.
 *
 * Runs checkpointed in D1 before (`toolset_training_blobs`, kind `checkpoint`) are still read by the job.
 */
import { concatBytes } from '../../core/util/bytes.ts';
import type { Bindings } from '../env.ts';

/** Bytes per part (≈ 35 ms of the local runtime's time per put; 25 puts for a 50 MB checkpoint). */
export const CHECKPOINT_PART_BYTES = 2 << 20;

const prefix = (trainingId: string) => `trainings/${trainingId}/checkpoint/`;

/** The key prefix of the checkpoint chunk `chunk` resumes from (its parts follow, numbered in key order). */
export function checkpointPrefix(trainingId: string, chunk: number): string {
  return `${prefix(trainingId)}${chunk}/`;
}

const partKey = (trainingId: string, chunk: number, part: number) =>
  `${checkpointPrefix(trainingId, chunk)}${String(part).padStart(6, '0')}`;

/** Every key under `keyPrefix`, in key order. */
async function keysUnder(env: Bindings, keyPrefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.BLOBS.list({ prefix: keyPrefix, ...(cursor ? { cursor } : {}) });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

/** Stores the state chunk `chunk` resumes from, a part at a time with `pace` between them. */
export async function putCheckpoint(
  env: Bindings,
  trainingId: string,
  chunk: number,
  bytes: Uint8Array,
  pace: () => Promise<void> = async () => {},
): Promise<void> {
  // What an interrupted write of this chunk's checkpoint left (it may have had more parts).
  await deleteKeys(env, await keysUnder(env, checkpointPrefix(trainingId, chunk)));
  for (let part = 0, at = 0; at < bytes.length || part === 0; part++, at += CHECKPOINT_PART_BYTES) {
    await env.BLOBS.put(partKey(trainingId, chunk, part), bytes.subarray(at, at + CHECKPOINT_PART_BYTES), {
      httpMetadata: { contentType: 'application/octet-stream' },
    });
    await pace();
  }
}

/** The state chunk `chunk` resumes from, or null when there is none in R2; `pace` after each part. */
export async function getCheckpoint(
  env: Bindings,
  trainingId: string,
  chunk: number,
  pace: () => Promise<void> = async () => {},
): Promise<Uint8Array | null> {
  const keys = await keysUnder(env, checkpointPrefix(trainingId, chunk));
  if (keys.length === 0) return null;
  const parts: Uint8Array[] = [];
  for (const key of keys) {
    const object = await env.BLOBS.get(key);
    if (!object) throw new Error(`training ${trainingId}: checkpoint part ${key} vanished while being read`);
    parts.push(new Uint8Array(await object.arrayBuffer()));
    await pace();
  }
  return concatBytes(parts);
}

async function deleteKeys(env: Bindings, keys: string[]): Promise<void> {
  // R2 deletes up to 1,000 keys in one call.
  for (let i = 0; i < keys.length; i += 1000) await env.BLOBS.delete(keys.slice(i, i + 1000));
}

/** Deletes the run's checkpoints, all of them or all but the one chunk `keep` resumes from. */
export async function deleteCheckpoints(env: Bindings, trainingId: string, keep?: number): Promise<void> {
  const kept = keep === undefined ? null : checkpointPrefix(trainingId, keep);
  const keys = await keysUnder(env, prefix(trainingId));
  await deleteKeys(
    env,
    keys.filter((k) => kept === null || !k.startsWith(kept)),
  );
}
