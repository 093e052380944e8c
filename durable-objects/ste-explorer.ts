/**
 * One STE exploration per Durable Object: a (run, tool) pair (issue 15). The engine is `core/ste/engine.ts`, a
 * resumable state machine; this class stores its state, advances it in alarm-driven chunks of model calls,
 * reports live counters and, when the tool is done, writes its exemplars, long-term memory and trials to D1
 * (edge/stores/ste.ts).
 *
 * Storage (the object's key-value storage): `params` (what to explore, with which model; written once with the
 * first `meta`) and `meta` (the engine state, status, failures, whether the outcome reached D1; one `put` after
 * each chunk) — storage always holds the state after a whole chunk.
 *
 * Resumption: every alarm reloads the state. An alarm cut off by eviction or a provider error has stored
 * nothing of its chunk, and every model request's seed derives from the run seed and the call's position, so
 * the retried chunk makes exactly the same calls: the finished exploration equals an uninterrupted one.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  advance,
  initialSteState,
  type SteOptionsInput,
  type SteState,
  steProgress,
} from '../core/ste/engine.ts';
import type { Bindings } from '../edge/env.ts';
import { type ModelChoice, textModelFor } from '../edge/models.ts';
import { reportSteOutcome, reportSteProgress } from '../edge/stores/ste.ts';
import { jobSurfaces } from '../edge/stores/surfaces.ts';
import { edgeKernelDeps, worldFor } from '../edge/world-runtime.ts';
import { afterFailedChunk, type ChunkedJobMeta, retryAt } from './chunked-job.ts';

export interface SteToolParams {
  runId: string;
  surfaceId: string;
  surfaceVersion: string;
  docsSurfaceId: string;
  model: ModelChoice;
  /** The filter's judge (default: the explorer's model). */
  judge?: ModelChoice;
  options: SteOptionsInput;
  /** Model calls per alarm (default CHUNK_CALLS). */
  chunkCalls?: number;
}

export type SteToolStatus = 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface SteToolProgress extends ReturnType<typeof steProgress> {
  runId: string;
  tool: string;
  status: SteToolStatus;
  done: boolean;
  error: string | null;
}

interface Meta extends ChunkedJobMeta {
  state: SteState;
  status: SteToolStatus;
}

/** Model calls per alarm: a few seconds with a hosted model, far below an invocation's limits. */
export const CHUNK_CALLS = 8;

export class SteExplorerObject extends DurableObject<Bindings> {
  private async load(): Promise<{ params: SteToolParams; meta: Meta } | null> {
    const got = await this.ctx.storage.get<SteToolParams | Meta>(['params', 'meta']);
    const params = got.get('params') as SteToolParams | undefined;
    const meta = got.get('meta') as Meta | undefined;
    return params && meta ? { params, meta } : null;
  }

  private progressOf(params: SteToolParams, meta: Meta): SteToolProgress {
    return {
      ...steProgress(meta.state),
      runId: params.runId,
      tool: meta.state.options.tool,
      status: meta.status,
      done: meta.status !== 'running',
      error: meta.error,
    };
  }

  /** Creates the exploration and schedules its first chunk; a second call (a redelivered message) changes nothing. */
  async start(params: SteToolParams): Promise<SteToolProgress> {
    const existing = await this.load();
    if (existing) return this.progressOf(existing.params, existing.meta);
    const meta: Meta = {
      state: initialSteState(params.options),
      status: 'running',
      failures: 0,
      error: null,
      reported: false,
    };
    await this.ctx.storage.put({ params, meta });
    await this.ctx.storage.setAlarm(Date.now());
    return this.progressOf(params, meta);
  }

  async progress(): Promise<SteToolProgress | null> {
    const loaded = await this.load();
    return loaded ? this.progressOf(loaded.params, loaded.meta) : null;
  }

  /** The engine state (trials, memory, verdicts, exemplars) for inspection. */
  async state(): Promise<SteState | null> {
    return (await this.load())?.meta.state ?? null;
  }

  async cancel(): Promise<SteToolProgress | null> {
    const loaded = await this.load();
    if (!loaded) return null;
    const { params, meta } = loaded;
    if (meta.status === 'running') {
      meta.status = 'cancelled';
      await this.ctx.storage.put('meta', meta);
      await this.ctx.storage.deleteAlarm();
      await this.report(params, meta);
    }
    return this.progressOf(params, meta);
  }

  override async alarm(): Promise<void> {
    const loaded = await this.load();
    if (!loaded) return;
    const { params, meta } = loaded;
    if (meta.status !== 'running') {
      if (!meta.reported) await this.report(params, meta);
      return;
    }
    try {
      const { surface, docs } = await jobSurfaces(this.env, params.surfaceId, params.docsSurfaceId);
      const state = await advance(
        {
          model: textModelFor(this.env, params.model),
          ...(params.judge ? { judge: textModelFor(this.env, params.judge) } : {}),
          world: worldFor(this.env),
          surface,
          docs,
          deps: edgeKernelDeps(this.env),
        },
        meta.state,
        { calls: params.chunkCalls ?? CHUNK_CALLS },
      );
      const next: Meta = {
        ...meta,
        state,
        status: state.phase === 'done' ? 'succeeded' : 'running',
        failures: 0,
        error: null,
      };
      await this.ctx.storage.put('meta', next);
      if (next.status === 'succeeded') await this.report(params, next);
      else {
        await this.ctx.storage.setAlarm(Date.now());
        await reportSteProgress(this.env.DB, params.runId, next.state);
      }
    } catch (err) {
      // Nothing of the failed chunk was stored: the next attempt reloads the state and redoes it.
      const next = afterFailedChunk(meta, err);
      await this.ctx.storage.put('meta', next);
      if (next.status === 'failed') await this.report(params, next);
      else await this.ctx.storage.setAlarm(retryAt(next.failures));
    }
  }

  /** The outcome to D1 (idempotent: a retried alarm may repeat it). */
  private async report(params: SteToolParams, meta: Meta): Promise<void> {
    await reportSteOutcome(
      this.env.DB,
      { runId: params.runId, surfaceId: params.surfaceId, surfaceVersion: params.surfaceVersion },
      meta.state,
      meta.status === 'running' ? 'failed' : meta.status,
      meta.error,
    );
    if (!meta.reported) {
      meta.reported = true;
      await this.ctx.storage.put('meta', meta);
    }
  }
}
