/**
 * The training blob store (edge/stores/toolset-training.ts): parts are stored as base64 text (D1 moves text far
 * faster than BLOB values), a replacement is staged under `<kind>.next` and swapped in at once, what an interrupted
 * write left staged is dropped by the next write, and parts written as BLOBs before still read back.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../edge/env.ts';
import {
  BLOB_PART_BYTES,
  getTraining,
  insertTraining,
  readBlob,
  writeBlob,
} from '../../edge/stores/toolset-training.ts';
import { postJson as post } from './helpers.ts';

const db = (env as unknown as Bindings).DB;

async function newTraining(): Promise<string> {
  const res = await post('/v1/toolsets', { source: 'synthetic', name: 'blobs', tools: 20, seed: 'blobs' });
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  return (await insertTraining(db, { toolsetId: id, options: {}, data: null })).id;
}

function bytesOf(n: number, salt: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (i * 31 + salt) & 0xff;
  return out;
}

async function parts(trainingId: string) {
  const { results } = await db
    .prepare(
      'SELECT kind, part, typeof(data) AS type FROM toolset_training_blobs WHERE training_id = ? ORDER BY kind, part',
    )
    .bind(trainingId)
    .all<{ kind: string; part: number; type: string }>();
  return results;
}

describe('training blobs', () => {
  it('stores parts as text, replaces a blob whole and applies the patch with it', async () => {
    const id = await newTraining();
    const first = bytesOf(BLOB_PART_BYTES + 1000, 1);
    let paced = 0;
    await writeBlob(db, id, 'checkpoint', first, { progress: { chunk: 1 } }, async () => {
      paced++;
    });
    expect(paced).toBe(2); // once after each part
    expect(await parts(id)).toEqual([
      { kind: 'checkpoint', part: 0, type: 'text' },
      { kind: 'checkpoint', part: 1, type: 'text' },
    ]);
    expect(await readBlob(db, id, 'checkpoint')).toEqual(first);
    expect((await getTraining(db, id))?.progress).toEqual({ chunk: 1 });

    // A smaller replacement leaves no part of the old one behind.
    const second = bytesOf(500, 2);
    await writeBlob(db, id, 'checkpoint', second, { progress: { chunk: 2 } });
    expect(await parts(id)).toEqual([{ kind: 'checkpoint', part: 0, type: 'text' }]);
    expect(await readBlob(db, id, 'checkpoint')).toEqual(second);
    expect((await getTraining(db, id))?.progress).toEqual({ chunk: 2 });
  });

  it('drops what an interrupted write staged, and keeps the old blob readable until the swap', async () => {
    const id = await newTraining();
    const old = bytesOf(300, 3);
    await writeBlob(db, id, 'weights', old);
    // A write cut off after staging two parts of a replacement (the process died before the swap).
    for (const part of [0, 1])
      await db
        .prepare(
          "INSERT INTO toolset_training_blobs (training_id, kind, part, data) VALUES (?, 'weights.next', ?, ?)",
        )
        .bind(id, part, 'AAAA')
        .run();
    expect(await readBlob(db, id, 'weights')).toEqual(old);
    const next = bytesOf(200, 4);
    await writeBlob(db, id, 'weights', next);
    expect(await parts(id)).toEqual([{ kind: 'weights', part: 0, type: 'text' }]);
    expect(await readBlob(db, id, 'weights')).toEqual(next);
  });

  it('reads parts written as BLOB values before', async () => {
    const id = await newTraining();
    const legacy = bytesOf(1234, 5);
    await db
      .prepare(
        "INSERT INTO toolset_training_blobs (training_id, kind, part, data) VALUES (?, 'vectors', 0, ?)",
      )
      .bind(id, legacy)
      .run();
    expect((await parts(id))[0]?.type).toBe('blob');
    expect(await readBlob(db, id, 'vectors')).toEqual(legacy);
  });
});
