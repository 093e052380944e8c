/**
 * edge/stores/training-checkpoints.ts: a training run's checkpoint in R2, in parts under the chunk that resumes
 * from it. The bytes read back are the bytes written, whatever the number of parts; a new write of the same chunk
 * replaces what an interrupted one left; `keep` leaves exactly the named chunk's parts.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_PART_BYTES,
  checkpointPrefix,
  deleteCheckpoints,
  getCheckpoint,
  putCheckpoint,
} from '../../edge/stores/training-checkpoints.ts';

function bytesOf(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const keys = async (prefix: string) => (await env.BLOBS.list({ prefix })).objects.map((o) => o.key).sort();

describe('training checkpoints in R2', () => {
  it('writes a checkpoint in parts, pacing between them, and reads the same bytes back', async () => {
    const id = crypto.randomUUID();
    const bytes = bytesOf(2 * CHECKPOINT_PART_BYTES + 12_345, 1);
    let paces = 0;
    await putCheckpoint(env, id, 3, bytes, async () => void paces++);
    expect(await keys(checkpointPrefix(id, 3))).toEqual(
      ['000000', '000001', '000002'].map((p) => `${checkpointPrefix(id, 3)}${p}`),
    );
    expect(paces).toBe(3);
    let reads = 0;
    expect(await getCheckpoint(env, id, 3, async () => void reads++)).toEqual(bytes);
    expect(reads).toBe(3);
    expect(await getCheckpoint(env, id, 4)).toBeNull();
    // An empty checkpoint is one empty part, not a missing one.
    await putCheckpoint(env, id, 9, new Uint8Array(0));
    expect(await getCheckpoint(env, id, 9)).toEqual(new Uint8Array(0));
  });

  it('a rewrite of the same chunk drops the parts an interrupted write left; keep leaves one chunk', async () => {
    const id = crypto.randomUUID();
    // An interrupted write: three parts of a larger checkpoint were put, then the runtime died.
    await putCheckpoint(env, id, 2, bytesOf(2 * CHECKPOINT_PART_BYTES + 1, 2));
    const smaller = bytesOf(1_000, 3);
    await putCheckpoint(env, id, 2, smaller);
    expect(await keys(checkpointPrefix(id, 2))).toHaveLength(1);
    expect(await getCheckpoint(env, id, 2)).toEqual(smaller);

    const next = bytesOf(CHECKPOINT_PART_BYTES + 5, 4);
    await putCheckpoint(env, id, 3, next);
    await deleteCheckpoints(env, id, 3);
    expect(await getCheckpoint(env, id, 2)).toBeNull();
    expect(await getCheckpoint(env, id, 3)).toEqual(next);
    // Another run's checkpoint is not touched.
    const other = crypto.randomUUID();
    await putCheckpoint(env, other, 1, smaller);
    await deleteCheckpoints(env, id);
    expect(await keys(`trainings/${id}/`)).toEqual([]);
    expect(await getCheckpoint(env, other, 1)).toEqual(smaller);
  });
});
