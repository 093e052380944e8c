/**
 * One benchmark session per Durable Object: its configuration and progress in storage, its transcript in the
 * object's SQLite, each call journalled to D1. The episode logic is `core/sessions/episode.ts`; this class
 * stores, serializes concurrent calls, injects the configured faults and expires the session.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  initialProgress,
  promptToolList,
  runSessionStep,
  type SessionConfig,
  SessionFinishedError,
  type SessionProgress,
  type StepVia,
  serverSurfaceAt,
  sessionNow,
  type TranscriptEntry,
} from '../core/sessions/episode.ts';
import type { StepInput } from '../core/surfaces/adapter.ts';
import { decideFaults, type FaultDecision } from '../core/surfaces/faults.ts';
import { database } from '../db/client.ts';
import { journal } from '../db/schema.ts';
import type { Bindings } from '../functions/env.ts';
import { edgeKernelDeps, worldFor } from '../functions/world-runtime.ts';

export type SessionStepReply =
  | {
      kind: 'step';
      entry: TranscriptEntry;
      progress: SessionProgress;
      fault: FaultDecision;
      stepBudget: number;
    }
  | { kind: 'fault'; fault: FaultDecision; progress: SessionProgress }
  | { kind: 'finished'; progress: SessionProgress }
  | { kind: 'missing' };

export interface SessionView {
  config: SessionConfig;
  progress: SessionProgress;
  transcript: TranscriptEntry[];
  /** Tool list of the agent's prompt (prompt surface + UpdateTool lines). */
  tools: string;
  /** The surface the server speaks now, and when that changes. */
  serverSurfaceId: string;
  nextChangeAt: string | null;
  now: string;
}

const CONFIG = 'config';
const PROGRESS = 'progress';

export class EpisodeSession extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        'CREATE TABLE IF NOT EXISTS transcript (idx INTEGER PRIMARY KEY, entry TEXT NOT NULL)',
      );
    });
  }

  private async load(): Promise<{ config: SessionConfig; progress: SessionProgress } | null> {
    const [config, progress] = await Promise.all([
      this.ctx.storage.get<SessionConfig>(CONFIG),
      this.ctx.storage.get<SessionProgress>(PROGRESS),
    ]);
    return config && progress ? { config, progress } : null;
  }

  /** Creates the session; calling it again with the same id is a no-op (safe to retry). */
  async start(config: SessionConfig): Promise<SessionView> {
    const existing = await this.load();
    if (!existing) {
      await this.ctx.storage.put({ [CONFIG]: config, [PROGRESS]: initialProgress() });
      await this.ctx.storage.setAlarm(new Date(config.expiresAt));
    }
    return (await this.view()) as SessionView;
  }

  async view(): Promise<SessionView | null> {
    const state = await this.load();
    if (!state) return null;
    const transcript = this.ctx.storage.sql
      .exec<{ entry: string }>('SELECT entry FROM transcript ORDER BY idx')
      .toArray()
      .map((r) => JSON.parse(r.entry) as TranscriptEntry);
    const now = sessionNow(state.progress, new Date());
    const { surface, nextChangeAt } = serverSurfaceAt(state.config.server, now);
    return {
      config: state.config,
      progress: state.progress,
      transcript,
      tools: promptToolList(state.config, state.progress),
      serverSurfaceId: surface.id,
      nextChangeAt: nextChangeAt?.toISOString() ?? null,
      now: now.toISOString(),
    };
  }

  /** One call: decides the injected faults, runs the step unless a fault replaces it, records everything. */
  async step(input: StepInput, via: StepVia, toolName: string): Promise<SessionStepReply> {
    let reply: SessionStepReply = { kind: 'missing' };
    await this.ctx.blockConcurrencyWhile(async () => {
      const state = await this.load();
      if (!state) return;
      const { config } = state;
      let progress = state.progress;
      const started = Date.now();
      // Faults follow the session's seed, not its random id: the same seed reproduces the same faults.
      const fault = decideFaults(config.faults, {
        seed: config.seed,
        sessionId: 'episode',
        callIndex: progress.calls,
        tool: toolName,
      });
      progress = { ...progress, calls: progress.calls + 1 };
      if (fault.response) {
        await this.ctx.storage.put(PROGRESS, progress);
        await this.journal(
          config,
          progress,
          via,
          input,
          null,
          fault.response.status,
          Date.now() - started,
          fault,
        );
        reply = { kind: 'fault', fault, progress };
        return;
      }
      if (progress.done) {
        await this.ctx.storage.put(PROGRESS, progress);
        reply = { kind: 'finished', progress };
        return;
      }
      try {
        const deps = edgeKernelDeps(this.env, config.task.gold);
        const result = await runSessionStep(
          worldFor(this.env),
          config,
          progress,
          input,
          via,
          deps,
          new Date(),
        );
        this.ctx.storage.sql.exec(
          'INSERT INTO transcript (idx, entry) VALUES (?, ?)',
          result.entry.index,
          JSON.stringify(result.entry),
        );
        await this.ctx.storage.put(PROGRESS, result.progress);
        await this.journal(
          config,
          result.progress,
          via,
          input,
          result.entry,
          200,
          Date.now() - started,
          fault,
        );
        reply = {
          kind: 'step',
          entry: result.entry,
          progress: result.progress,
          fault,
          stepBudget: config.stepBudget,
        };
      } catch (err) {
        if (err instanceof SessionFinishedError) reply = { kind: 'finished', progress };
        else throw err;
      }
    });
    return reply;
  }

  /** Moves the session's clock (admin only, through the API): to `at`, or by `advanceMs`. */
  async setClock(move: { at?: string; advanceMs?: number }): Promise<SessionView | null> {
    const state = await this.load();
    if (!state) return null;
    const current = state.progress.clockOffsetMs;
    const offset =
      move.at !== undefined ? new Date(move.at).getTime() - Date.now() : current + (move.advanceMs ?? 0);
    await this.ctx.storage.put(PROGRESS, { ...state.progress, clockOffsetMs: offset });
    return this.view();
  }

  /** Expiry: the session and its transcript are deleted (the D1 journal keeps its calls). */
  override async alarm(): Promise<void> {
    const config = await this.ctx.storage.get<SessionConfig>(CONFIG);
    if (config && new Date(config.expiresAt).getTime() > Date.now()) {
      await this.ctx.storage.setAlarm(new Date(config.expiresAt));
      return;
    }
    await this.ctx.storage.deleteAll();
  }

  private async journal(
    config: SessionConfig,
    progress: SessionProgress,
    via: StepVia,
    input: StepInput,
    entry: TranscriptEntry | null,
    httpStatus: number,
    latencyMs: number,
    fault: FaultDecision,
  ): Promise<void> {
    const now = sessionNow(progress, new Date());
    await database(this.env.DB)
      .insert(journal)
      .values({
        sessionId: config.id,
        at: now.getTime(),
        surfaceId: entry?.surfaceId ?? serverSurfaceAt(config.server, now).surface.id,
        via,
        action: entry?.action ?? null,
        input,
        call: entry?.call ?? null,
        observation: entry?.observation ?? null,
        outcome: entry ? entry.outcome.kind : 'fault',
        httpStatus,
        latencyMs,
        fault: fault.faults.length > 0 ? fault : null,
      });
  }
}
