/**
 * The dense index of a large toolset, sharded over Durable Objects (issue 14 §2). One class, two roles, told
 * apart by the object's name (edge/retrieval/do-index.ts names them):
 *
 *  - a **shard** (`<index>/shard/<n>`) holds at most `capacity` int8 rows of the pool (core/retrieval/
 *    vector-index.ts `QuantizedShard`) and answers top-k queries over them — by default with the query-pruned
 *    prefilter and int8 rescoring, `binary` or `exact` on request. Rows are persisted in the object's SQLite
 *    storage in chunks (one row per appended chunk: ids, codes and scales as blobs, each ≤ 2 MB), and reloaded
 *    into memory when the object wakes;
 *  - a **builder** (`<index>/build`) builds the index in alarm-driven chunks: each alarm embeds the next
 *    `chunk` tools with the deployment's embedding model, normalises and quantises them and appends them to their
 *    shard. It records how many tools are done, so an evicted or failed alarm resumes where the last stored chunk
 *    ended (a shard's `append` of a chunk it already has is a no-op, so a repeated chunk changes nothing).
 *
 * Imports only core/ and edge/ (never functions/).
 */

import { DurableObject } from 'cloudflare:workers';
import { embedAll, normalise } from '../core/retrieval/dense.ts';
import { toolText } from '../core/retrieval/text.ts';
import type { Hit } from '../core/retrieval/types.ts';
import {
  checkDimensions,
  QuantizedShard,
  quantize,
  type SearchOptions,
} from '../core/retrieval/vector-index.ts';
import { asBackground } from '../core/util/foreground.ts';
import type { Bindings } from '../edge/env.ts';
import { embeddingModelFor } from '../edge/models.ts';
import { RETRY_FAILED_BUILD_MS } from '../edge/retrieval/do-index.ts';
import { loadToolsetTools, type ToolsetRecord } from '../edge/stores/toolsets.ts';

export interface ShardConfig {
  dimensions: number;
  capacity: number;
}

export interface BuildParams {
  /** The index's name prefix (shards are `<name>/shard/<n>`). */
  name: string;
  toolset: ToolsetRecord;
  /** Rows per shard. */
  shardSize: number;
  /** Tools embedded per alarm. */
  chunk: number;
}

export type BuildState = 'building' | 'ready' | 'failed';

export interface BuildStatus {
  name: string;
  state: BuildState;
  total: number;
  done: number;
  dimensions: number | null;
  shardSize: number;
  shards: number;
  startedAt: number;
  finishedAt: number | null;
  error: string | null;
}

/** Alarm failures in a row after which a build is marked failed. */
export const MAX_BUILD_FAILURES = 5;

export class ToolIndexShard extends DurableObject<Bindings> {
  #shard: QuantizedShard | null = null;
  /** The builder's pool, kept between alarms while the object stays in memory. */
  #tools: { id: string; texts: string[] } | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      const sql = this.ctx.storage.sql;
      sql.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, json TEXT NOT NULL)');
      sql.exec(
        'CREATE TABLE IF NOT EXISTS chunks (first INTEGER PRIMARY KEY, ids BLOB NOT NULL, codes BLOB NOT NULL, scales BLOB NOT NULL)',
      );
      this.#load();
    });
  }

  #read<T>(key: string): T | null {
    const row = this.ctx.storage.sql
      .exec<{ json: string }>('SELECT json FROM kv WHERE key = ?', key)
      .toArray()[0];
    return row ? (JSON.parse(row.json) as T) : null;
  }

  #write(key: string, value: unknown): void {
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO kv (key, json) VALUES (?, ?)',
      key,
      JSON.stringify(value),
    );
  }

  /** Rebuilds the in-memory shard from storage (sign bits are derived from the codes). */
  #load(): void {
    const config = this.#read<ShardConfig>('config');
    if (!config) return;
    const shard = new QuantizedShard(config.dimensions, config.capacity);
    const rows = this.ctx.storage.sql
      .exec<{ ids: ArrayBuffer; codes: ArrayBuffer; scales: ArrayBuffer }>(
        'SELECT ids, codes, scales FROM chunks ORDER BY first',
      )
      .toArray();
    for (const row of rows) {
      const ids = new Int32Array(row.ids);
      const codes = new Int8Array(row.codes);
      const scales = new Float32Array(row.scales);
      for (let i = 0; i < ids.length; i++)
        shard.addQuantized(
          ids[i] as number,
          codes.subarray(i * config.dimensions, (i + 1) * config.dimensions),
          scales[i] as number,
        );
    }
    this.#shard = shard;
  }

  // ---- shard role ------------------------------------------------------------------------------------------

  /** Empties the shard and sets its shape. */
  async configure(config: ShardConfig): Promise<void> {
    if (!Number.isInteger(config.dimensions) || config.dimensions < 1)
      throw new RangeError(`dimensions must be a positive integer, got ${config.dimensions}`);
    if (!Number.isInteger(config.capacity) || config.capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${config.capacity}`);
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec('DELETE FROM chunks');
      this.#write('config', config);
    });
    this.#shard = new QuantizedShard(config.dimensions, config.capacity);
  }

  /**
   * Appends quantised rows with global ids `first`, `first + 1`, …; `codes` holds `scales.length` rows of
   * `dimensions` int8 codes. A chunk starting at a `first` the shard already holds is ignored (idempotent).
   */
  async append(first: number, codes: Int8Array, scales: Float32Array): Promise<number> {
    const shard = this.#shard;
    if (!shard) throw new Error('shard is not configured');
    const rows = scales.length;
    checkDimensions(codes.length, rows * shard.dimensions, 'chunk');
    const seen = this.ctx.storage.sql.exec('SELECT 1 FROM chunks WHERE first = ?', first).toArray();
    if (seen.length > 0) return shard.size;
    if (shard.size + rows > shard.capacity) throw new RangeError('shard is full');
    const ids = Int32Array.from({ length: rows }, (_, i) => first + i);
    this.ctx.storage.sql.exec(
      'INSERT INTO chunks (first, ids, codes, scales) VALUES (?, ?, ?, ?)',
      first,
      ids.buffer,
      codes.slice().buffer,
      scales.slice().buffer,
    );
    for (let i = 0; i < rows; i++)
      shard.addQuantized(
        first + i,
        codes.subarray(i * shard.dimensions, (i + 1) * shard.dimensions),
        scales[i] as number,
      );
    return shard.size;
  }

  /** The shard's top k for a unit query vector (`pruned` prefilter + int8 rescoring unless told otherwise). */
  async query(vector: Float32Array, k: number, options: SearchOptions = {}): Promise<Hit[]> {
    const shard = this.#shard;
    if (!shard) return [];
    return shard.topK(vector, k, { ...options, search: options.search ?? 'pruned' });
  }

  async info(): Promise<{ size: number; dimensions: number | null; bytes: number }> {
    return {
      size: this.#shard?.size ?? 0,
      dimensions: this.#shard?.dimensions ?? null,
      bytes: this.#shard?.bytes ?? 0,
    };
  }

  // ---- builder role ----------------------------------------------------------------------------------------

  /**
   * Starts a build unless one exists; answers the build's status. A build that failed at least
   * RETRY_FAILED_BUILD_MS ago resumes from its last stored chunk (the shards keep what was appended; a repeated
   * chunk is a no-op), so a passing fault — a D1 or encoder outage — does not leave the toolset without an index.
   */
  async startBuild(params: BuildParams, now = Date.now()): Promise<BuildStatus> {
    const existing = this.#read<BuildStatus>('build');
    if (existing?.state === 'failed' && now - (existing.finishedAt ?? 0) >= RETRY_FAILED_BUILD_MS) {
      const resumed: BuildStatus = { ...existing, state: 'building', finishedAt: null, error: null };
      this.ctx.storage.transactionSync(() => {
        this.#write('build', resumed);
        this.#write('failures', 0);
      });
      await this.ctx.storage.setAlarm(now);
      return resumed;
    }
    if (existing) return existing;
    const status: BuildStatus = {
      name: params.name,
      state: 'building',
      total: params.toolset.toolCount,
      done: 0,
      dimensions: null,
      shardSize: params.shardSize,
      shards: Math.ceil(params.toolset.toolCount / params.shardSize),
      startedAt: Date.now(),
      finishedAt: null,
      error: null,
    };
    this.ctx.storage.transactionSync(() => {
      this.#write('build', status);
      this.#write('params', params);
      this.#write('failures', 0);
    });
    await this.ctx.storage.setAlarm(Date.now());
    return status;
  }

  async buildStatus(): Promise<BuildStatus | null> {
    return this.#read<BuildStatus>('build');
  }

  /** A chunk of the work runs as background work: its pacers defer to requests (core/util/foreground.ts). */
  override alarm(): Promise<void> {
    return asBackground(() => this.runChunk());
  }

  private async runChunk(): Promise<void> {
    const status = this.#read<BuildStatus>('build');
    const params = this.#read<BuildParams>('params');
    if (!status || !params || status.state !== 'building') return;
    try {
      if (this.#tools?.id !== params.toolset.id) {
        const tools = await loadToolsetTools(this.env.DB, params.toolset);
        this.#tools = { id: params.toolset.id, texts: tools.map(toolText) };
      }
      const texts = this.#tools.texts;
      const encoder = embeddingModelFor(this.env);
      const first = status.done;
      // A chunk never straddles two shards.
      const shardNo = Math.floor(first / params.shardSize);
      const end = Math.min(texts.length, first + params.chunk, (shardNo + 1) * params.shardSize);
      const vectors = (await embedAll(encoder, texts.slice(first, end))).map(normalise);
      const dim = encoder.dimensions;
      const codes = new Int8Array(vectors.length * dim);
      const scales = new Float32Array(vectors.length);
      for (const [i, v] of vectors.entries()) {
        const q = quantize(v);
        codes.set(q.codes, i * dim);
        scales[i] = q.scale;
      }
      const shard = this.env.TOOL_INDEX.get(
        this.env.TOOL_INDEX.idFromName(`${params.name}/shard/${shardNo}`),
      );
      if (first % params.shardSize === 0)
        await shard.configure({ dimensions: dim, capacity: params.shardSize });
      await shard.append(first, codes, scales);
      const next: BuildStatus = {
        ...status,
        done: end,
        dimensions: dim,
        total: texts.length,
        shards: Math.ceil(texts.length / params.shardSize),
      };
      if (end >= texts.length) {
        next.state = 'ready';
        next.finishedAt = Date.now();
        this.#tools = null;
      }
      this.ctx.storage.transactionSync(() => {
        this.#write('build', next);
        this.#write('failures', 0);
      });
      if (next.state === 'building') await this.ctx.storage.setAlarm(Date.now());
    } catch (err) {
      const failures = (this.#read<number>('failures') ?? 0) + 1;
      const error = err instanceof Error ? err.message : String(err);
      this.#write('failures', failures);
      if (failures >= MAX_BUILD_FAILURES) {
        this.#write('build', { ...status, state: 'failed', error, finishedAt: Date.now() });
        return;
      }
      this.#write('build', { ...status, error });
      await this.ctx.storage.setAlarm(Date.now() + Math.min(60_000, 1000 * 2 ** failures));
    }
  }
}
