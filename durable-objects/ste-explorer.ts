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
 * The explored tool is a kernel surface's tool (the kernel answers) or an imported API's operation (issue 23 §3:
 * the trials call the API's mock through the session step).
 *
 * Resumption: every alarm reloads the state. An alarm cut off by eviction or a provider error has stored
 * nothing of its chunk, and every model request's seed derives from the run seed and the call's position, so
 * the retried chunk makes exactly the same calls: the finished exploration equals an uninterrupted one. `resume`
 * sets the alarm again for a running tool that has none (the cron sweeper calls it when its progress stalled).
 *
 * Spend (edge/metering.ts): every chunk first checks the run's key still has model calls left — with none, the
 * whole run stops (`quota-exhausted` on the tool) — and charges its calls afterwards, a failed chunk's included.
 */

import { DurableObject } from 'cloudflare:workers';
import { meteredModel, UsageMeter } from '../core/models/usage.ts';
import {
  advance,
  initialSteState,
  type SteContext,
  type SteOptionsInput,
  type SteState,
  steProgress,
} from '../core/ste/engine.ts';
import { asBackground } from '../core/util/foreground.ts';
import type { Bindings } from '../edge/env.ts';
import { exploreTarget, findExploreSurface } from '../edge/explore-surfaces.ts';
import { chargeSpend, mayContinue, QUOTA_EXHAUSTED } from '../edge/metering.ts';
import { type ModelChoice, textModelFor } from '../edge/models.ts';
import { cancelSteRun, findSteRun, reportSteOutcome, reportSteProgress } from '../edge/stores/ste.ts';
import { steStub } from '../edge/stubs.ts';
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

  /** Sets the alarm again when the tool is running and none is set (after a restart lost it); true if it did. */
  async resume(): Promise<boolean> {
    const loaded = await this.load();
    if (loaded?.meta.status !== 'running' || (await this.ctx.storage.getAlarm()) !== null) return false;
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  /** A chunk of the work runs as background work: its pacers defer to requests (core/util/foreground.ts). */
  override alarm(): Promise<void> {
    return asBackground(() => this.runChunk());
  }

  private async runChunk(): Promise<void> {
    const loaded = await this.load();
    if (!loaded) return;
    const { params, meta } = loaded;
    if (meta.status !== 'running') {
      if (!meta.reported) await this.report(params, meta);
      return;
    }
    const ownerId = (await findSteRun(this.env.DB, params.runId))?.ownerId ?? null;
    if (!(await mayContinue(this.env, ownerId))) {
      await this.stopRun(params, meta);
      return;
    }
    // Every model call of the chunk is metered: a chunk that fails is redone, but what its calls spent stays spent.
    const meter = new UsageMeter();
    const metered = (choice: SteToolParams['model']) =>
      meteredModel(textModelFor(this.env, choice), meter, { runId: params.runId });
    try {
      const [server, docs] = await Promise.all([
        findExploreSurface(this.env, params.surfaceId),
        findExploreSurface(this.env, params.docsSurfaceId),
      ]);
      if (!server || !docs)
        throw new Error(`unknown surface ${server ? params.docsSurfaceId : params.surfaceId}`);
      const models = {
        model: metered(params.model),
        ...(params.judge ? { judge: metered(params.judge) } : {}),
      };
      // A kernel surface's tools run on the kernel; an imported API's operations through its session step (the mock).
      const ctx: SteContext =
        server.backend === 'api'
          ? {
              ...models,
              target: await exploreTarget(this.env, server, {
                ...(docs.backend === 'api' ? { docs: docs.surface } : {}),
                now: new Date(),
              }),
            }
          : {
              ...models,
              world: worldFor(this.env),
              surface: server.surface,
              ...(docs.backend === 'kernel' ? { docs: docs.surface } : {}),
              deps: edgeKernelDeps(this.env),
            };
      const state = await advance(ctx, meta.state, { calls: params.chunkCalls ?? CHUNK_CALLS });
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
    } finally {
      await chargeSpend(this.env, { kind: 'ste', id: params.runId, ownerId }, meter.total().calls);
    }
  }

  /** The key's quota ran out: this tool stops saying so, and the run's other tools stop with it. */
  private async stopRun(params: SteToolParams, meta: Meta): Promise<void> {
    const stopped: Meta = { ...meta, status: 'cancelled', error: QUOTA_EXHAUSTED };
    await this.ctx.storage.put('meta', stopped);
    await this.report(params, stopped);
    const tool = meta.state.options.tool;
    for (const other of await cancelSteRun(this.env.DB, params.runId))
      if (other !== tool) await steStub(this.env, params.runId, other).cancel();
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
