/**
 * One DRAFT tool of one run per Durable Object (issue 16). The loop itself is core/draft/loop.ts; this class
 * stores the tool's state, advances it in alarm-driven chunks of a few steps, writes live progress and, when the
 * tool is done, its result to D1 — and, as the last tool of its run, enqueues the run's finalisation (the
 * tool-level rewrite and the documentation set, edge/jobs/draft.ts).
 *
 * Storage (the object's SQLite): one `kv` table with `meta` (start parameters, status, failures, whether the end
 * reached D1) and `state` (the JSON DraftToolState). A chunk writes both in one synchronous transaction, so
 * storage always holds the state after a whole number of steps.
 *
 * The explored surface is a kernel surface (the kernel answers) or an imported API's surface (issue 23 §2: its
 * operations through the API session's step over the seeded mock, so the analyzer reads the API's real answers).
 *
 * Resumption: every alarm reloads the state before it works. An alarm that fails or is cut off (eviction, a
 * provider error) has stored nothing of its unfinished chunk, and every model call's seed is a function of (run
 * seed, tool, iteration, role, attempt), so the retried chunk recomputes the same steps: the finished
 * documentation equals an uninterrupted run's. `resume` sets the alarm again for a running tool that has none
 * (the cron sweeper calls it when its progress stalled).
 *
 * Spend (edge/metering.ts): every chunk first checks the run's key still has model calls left — with none, the run
 * stops (`quota-exhausted`) — and charges its text-model calls afterwards, a failed chunk's included, with its
 * encoder requests when the run's encoder is a provider embedding that bills (USE lite and lexical run here).
 */

import { DurableObject } from 'cloudflare:workers';
import { advanceTool, type DraftContext, type DraftToolState } from '../core/draft/loop.ts';
import { meteredModel, UsageMeter } from '../core/models/usage.ts';
import { asBackground } from '../core/util/foreground.ts';
import type { Bindings } from '../edge/env.ts';
import { exploreTarget, findExploreSurface } from '../edge/explore-surfaces.ts';
import {
  draftEmbedderFor,
  draftEncoderProvider,
  enqueueDraftFinalize,
  stopDraftRunFor,
} from '../edge/jobs/draft.ts';
import {
  chargeSpend,
  countingEncoder,
  embeddingBills,
  mayContinue,
  QUOTA_EXHAUSTED,
} from '../edge/metering.ts';
import { type ModelChoice, textModelFor } from '../edge/models.ts';
import {
  type DeltaPoint,
  type DraftToolResult,
  draftRunOwner,
  finishDraftTool,
  reportDraftToolProgress,
} from '../edge/stores/draft.ts';
import { edgeKernelDeps, worldFor } from '../edge/world-runtime.ts';
import { afterFailedChunk, type ChunkedJobMeta, retryAt } from './chunked-job.ts';

export interface DraftToolStartParams {
  runId: string;
  /** The tool's starting state (core/draft/run.ts `toolStatesFor`). */
  state: DraftToolState;
  serverSurface: string;
  model: ModelChoice;
  /** Steps per alarm (default CHUNK_STEPS). */
  chunkSteps?: number;
}

export type DraftToolStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface DraftToolProgress {
  runId: string;
  tool: string;
  status: DraftToolStatus;
  phase: DraftToolState['phase'];
  iteration: number;
  modelCalls: number;
  toolCalls: number;
  deltas: DeltaPoint[];
  stop: DraftToolState['stop'];
  error: string | null;
}

/** `reported`: the end has been written to D1 (and the finalisation enqueued when this was the last tool). */
interface Meta extends ChunkedJobMeta {
  params: Omit<DraftToolStartParams, 'state'>;
  tool: string;
  status: DraftToolStatus;
}

/** Steps per alarm: each is one model call or one exploration's tool calls. */
export const CHUNK_STEPS = 4;

export function deltasOf(state: DraftToolState): DeltaPoint[] {
  return state.versions
    .slice(1)
    .map((v) => ({ iteration: v.iteration, bleu: v.bleu, cos: v.cos, delta: v.delta }));
}

export class DraftToolObject extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, json TEXT NOT NULL)');
    });
  }

  private read<T>(key: 'meta' | 'state'): T | null {
    const row = this.ctx.storage.sql
      .exec<{ json: string }>('SELECT json FROM kv WHERE key = ?', key)
      .toArray()[0];
    return row ? (JSON.parse(row.json) as T) : null;
  }

  private write(key: 'meta' | 'state', value: unknown): void {
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO kv (key, json) VALUES (?, ?)',
      key,
      JSON.stringify(value),
    );
  }

  /** Stores the starting state and schedules the first chunk. Idempotent: an existing tool is left alone. */
  async start(params: DraftToolStartParams): Promise<DraftToolProgress> {
    const existing = this.read<Meta>('meta');
    if (existing) return this.progressOf(existing, this.read<DraftToolState>('state')!);
    const { state, ...rest } = params;
    const meta: Meta = {
      params: rest,
      tool: state.key,
      status: 'running',
      failures: 0,
      error: null,
      reported: false,
    };
    this.ctx.storage.transactionSync(() => {
      this.write('meta', meta);
      this.write('state', state);
    });
    await this.ctx.storage.setAlarm(Date.now());
    return this.progressOf(meta, state);
  }

  async progress(): Promise<DraftToolProgress | null> {
    const meta = this.read<Meta>('meta');
    return meta ? this.progressOf(meta, this.read<DraftToolState>('state')!) : null;
  }

  async state(): Promise<DraftToolState | null> {
    return this.read<DraftToolState>('state');
  }

  async cancel(): Promise<DraftToolProgress | null> {
    const meta = this.read<Meta>('meta');
    if (!meta) return null;
    if (meta.status === 'running') {
      meta.status = 'cancelled';
      meta.reported = true; // the run's cancellation already ended the tool row
      this.write('meta', meta);
      await this.ctx.storage.deleteAlarm();
    }
    return this.progressOf(meta, this.read<DraftToolState>('state')!);
  }

  /** Sets the alarm again when the tool is running and none is set (after a restart lost it); true if it did. */
  async resume(): Promise<boolean> {
    if (this.read<Meta>('meta')?.status !== 'running' || (await this.ctx.storage.getAlarm()) !== null)
      return false;
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** A chunk of the work runs as background work: its pacers defer to requests (core/util/foreground.ts). */
  override alarm(): Promise<void> {
    return asBackground(() => this.runChunk());
  }

  private async runChunk(): Promise<void> {
    const meta = this.read<Meta>('meta');
    const state = this.read<DraftToolState>('state');
    if (!meta || !state) return;
    if (meta.status !== 'running') {
      if (!meta.reported) await this.report(meta, state);
      return;
    }
    const { params } = meta;
    const ownerId = await draftRunOwner(this.env, params.runId);
    if (!(await mayContinue(this.env, ownerId))) {
      // The run's cancellation ends this tool's row and stops its other tools; this one stops itself.
      await stopDraftRunFor(this.env, params.runId, QUOTA_EXHAUSTED, meta.tool);
      await this.cancel();
      return;
    }
    // Every model call of the chunk is metered: a chunk that fails is redone, but what its calls spent stays spent.
    // The encoder's requests too when its provider bills (φ and Δ through a provider embedding).
    const meter = new UsageMeter();
    const embedder = countingEncoder(draftEmbedderFor(this.env, state.options.encoder));
    const embedsBill = embeddingBills(draftEncoderProvider(this.env, state.options.encoder));
    try {
      const server = await findExploreSurface(this.env, params.serverSurface);
      if (!server) throw new Error(`unknown surface ${params.serverSurface}`);
      const model = meteredModel(textModelFor(this.env, params.model), meter, { runId: params.runId });
      // A kernel surface answers through the kernel; an imported API's through its session step over the mock.
      const ctx: DraftContext =
        server.backend === 'api'
          ? { model, embedder, target: await exploreTarget(this.env, server, { now: new Date() }) }
          : {
              model,
              embedder,
              world: worldFor(this.env),
              server: server.surface,
              deps: edgeKernelDeps(this.env),
            };
      const next = await advanceTool(state, ctx, params.chunkSteps ?? CHUNK_STEPS);
      const nextMeta: Meta = {
        ...meta,
        failures: 0,
        status: next.phase === 'done' ? 'succeeded' : 'running',
      };
      this.ctx.storage.transactionSync(() => {
        this.write('state', next);
        this.write('meta', nextMeta);
      });
      if (nextMeta.status === 'succeeded') await this.report(nextMeta, next);
      else {
        await this.ctx.storage.setAlarm(Date.now());
        await reportDraftToolProgress(this.env, params.runId, meta.tool, {
          phase: next.phase,
          iteration: next.iteration,
          modelCalls: next.modelCalls,
          toolCalls: next.toolCalls,
          deltas: deltasOf(next),
        });
      }
    } catch (err) {
      // Nothing of the failed chunk was stored: the next attempt reloads the state and redoes it.
      const next = afterFailedChunk(meta, err);
      this.write('meta', next);
      if (next.status === 'failed') await this.report(next, state);
      else await this.ctx.storage.setAlarm(retryAt(next.failures));
    } finally {
      const calls = meter.total().calls + (embedsBill ? embedder.requests : 0);
      await chargeSpend(this.env, { kind: 'draft', id: params.runId, ownerId }, calls);
    }
  }

  private progressOf(meta: Meta, state: DraftToolState): DraftToolProgress {
    return {
      runId: meta.params.runId,
      tool: meta.tool,
      status: meta.status,
      phase: state.phase,
      iteration: state.iteration,
      modelCalls: state.modelCalls,
      toolCalls: state.toolCalls,
      deltas: deltasOf(state),
      stop: state.stop,
      error: meta.error,
    };
  }

  /** The tool's end to D1; the last tool of the run triggers its finalisation. Idempotent. */
  private async report(meta: Meta, state: DraftToolState): Promise<void> {
    const { runId } = meta.params;
    const open =
      meta.status === 'succeeded' && state.stop
        ? await finishDraftTool(this.env, runId, meta.tool, {
            status: 'succeeded',
            deltas: deltasOf(state),
            result: {
              doc: state.doc,
              versions: state.versions,
              stop: state.stop,
              flags: state.flags ?? [],
              modelCalls: state.modelCalls,
              toolCalls: state.toolCalls,
              model: state.model,
            } satisfies DraftToolResult,
          })
        : await finishDraftTool(this.env, runId, meta.tool, {
            status: 'failed',
            error: meta.error ?? 'failed',
          });
    if (open === 0) await enqueueDraftFinalize(this.env, runId);
    if (!meta.reported) this.write('meta', { ...meta, reported: true });
  }
}
