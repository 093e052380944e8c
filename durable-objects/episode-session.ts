/**
 * One benchmark session per Durable Object: its configuration and progress in storage, its transcript in the
 * object's SQLite, each call journalled to D1. The episode logic is `core/sessions/episode.ts`; this class
 * stores, serializes concurrent calls, injects the configured faults and expires the session. Its `fetch` is the
 * session's MCP endpoint (`session-mcp.ts`), whose tool calls are steps like any other.
 *
 * One alarm serves two purposes: it is kept at the earlier of the session's expiry and the next change of the
 * surface in force (`nextChangeAt`, in real time: the session clock's offset taken off). At a change it tells
 * the connected MCP clients that the tool list changed; at expiry it deletes the session.
 *
 * MCP tool calls (decisions, documented in functions/routes/mcp.ts too):
 * - a call that reaches the kernel or is rejected by the surface is a tool result whose one text content is the
 *   exact observation; `isError` is true for kernel errors and every rejection (parameter errors, deprecation
 *   messages, unparsable input), false for successes and for Finish (correct or not);
 * - a name the surface does not know at all (neither one of its tools nor a retired name) is a JSON-RPC error
 *   -32602, as the MCP specification treats unknown tools, whose `message` is exactly the invalid-action text;
 *   the call still takes a step (as an invalid action does in ToolQA-D) and `data` carries the step;
 * - `_meta["tooldrift/step"]` (and `data` of the error) carry the step number, steps left, done, reward, the
 *   outcome and any deprecation notice, as the REST step result does;
 * - after the episode ended a call is an `isError` result saying so (the REST routes answer 409);
 * - injected faults: a 429 is JSON-RPC error -32029 and a 5xx is -32603, each with the fault's body as message
 *   and `{status, headers, body}` as data; a malformed or truncated body corrupts the observation text; delays
 *   delay the answer.
 */

import { DurableObject } from 'cloudflare:workers';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { refineMcpTools } from '../core/draft/render.ts';
import { promptText } from '../core/messages/chat.ts';
import { renderPrompt } from '../core/prompts/registry.ts';
import {
  initialProgress,
  isApiSession,
  knowsName,
  restStatus,
  runSessionStep,
  type SessionBackends,
  type SessionConfig,
  SessionFinishedError,
  type SessionInput,
  type SessionProgress,
  type SessionStepResult,
  type StepVia,
  sessionMcpTools,
  sessionNow,
  sessionToolList,
  surfaceAt,
  type TranscriptEntry,
  UnsupportedInputError,
} from '../core/sessions/index.ts';
import type { McpToolDescriptor } from '../core/surfaces/docs.ts';
import { applyFaultToBody, decideFaults, type FaultDecision } from '../core/surfaces/faults.ts';
import { ToolCallRefused } from '../core/world/kernel/kernel.ts';
import { apiStepDeps } from '../edge/apis.ts';
import type { Bindings } from '../edge/env.ts';
import { createLogger } from '../edge/log.ts';
import { appendJournalJson, type NewJournalRow } from '../edge/stores/journal.ts';
import type { Owner } from '../edge/stores/owners.ts';
import { sessionVisible } from '../edge/stores/sessions.ts';
import { edgeKernelDeps, worldFor } from '../edge/world-runtime.ts';
import { McpHub, McpProtocolError } from './session-mcp.ts';

/** What a step's caller needs of the session's progress (not its environment state, which stays here). */
export type StepProgress = Pick<SessionProgress, 'steps' | 'done' | 'reward' | 'ending'>;

export type SessionStepReply =
  | {
      kind: 'step';
      entry: TranscriptEntry;
      progress: StepProgress;
      fault: FaultDecision;
      stepBudget: number;
      /** API sessions: the answer as the API gives it (the `/http/…` channel sends it as it is). */
      response?: SessionStepResult['response'];
    }
  | { kind: 'fault'; fault: FaultDecision; progress: StepProgress }
  | { kind: 'finished'; progress: StepProgress }
  /** The input is of a kind the session's backend does not take (an HTTP request to a kernel session). */
  | { kind: 'unsupported'; message: string }
  /** The step's Python or SQL call was refused by the caller's concurrency bound; nothing was recorded. */
  | { kind: 'busy'; detail: string; retryAfterSeconds: number }
  | { kind: 'missing' };

function stepProgress(p: SessionProgress): StepProgress {
  return { steps: p.steps, done: p.done, reward: p.reward, ending: p.ending };
}

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

/**
 * A session writes its journal to D1 at most once in this interval: a call after a quiet spell is written at once,
 * the calls of a busy session go together. A D1 write costs the same few milliseconds of CPU whether it carries
 * one row or fifty (profiled in `bench:world`, issue 24 item 5: at 500 ms the writes of four busy sessions were a
 * third of a step's CPU; at 2 s a step answers at 55 % of the bare route instead of 46 %).
 */
export const JOURNAL_INTERVAL_MS = 2000;
/** Journal rows written to D1 in one statement at most, and their JSON's length at most (D1 takes 2 MB a value). */
const JOURNAL_BATCH = 100;
const JOURNAL_BATCH_CHARS = 1_000_000;

/** Set on the 404 `fetch` answers for a session that does not exist (or expired), for the route to report. */
export const SESSION_MISSING_HEADER = 'tooldrift-session-missing';

/** JSON-RPC error codes of MCP tool calls (see the module header). */
export const MCP_UNKNOWN_TOOL = -32602;
export const MCP_RATE_LIMITED = -32029;
export const MCP_SERVER_ERROR = -32603;
export const MCP_SESSION_GONE = -32600;

/** What the agent is told when its MCP client connects (the registered `session/mcp-instructions` prompt). */
function mcpInstructions(config: SessionConfig): string {
  const about = isApiSession(config)
    ? {
        dataset: `API ${config.api.title}`,
        difficulty: `surface ${config.server.kind === 'surface' ? config.server.surface.id : config.server.schedule.id}`,
        question: config.query?.text ?? '(no query: explore the API)',
      }
    : { dataset: config.task.dataset, difficulty: config.task.difficulty, question: config.task.question };
  return promptText(
    renderPrompt('session/mcp-instructions', {
      sessionId: config.id,
      ...about,
      stepBudget: config.stepBudget,
    }),
  );
}

/** The step facts an MCP result carries besides its observation (the REST step result, less the text). */
function stepMeta(entry: TranscriptEntry, progress: StepProgress, budget: number) {
  return {
    step: entry.index + 1,
    stepsLeft: Math.max(0, budget - progress.steps),
    done: progress.done,
    reward: progress.reward,
    ...(entry.action !== undefined ? { action: entry.action } : {}),
    outcome: entry.outcome,
    ...(entry.deprecation ? { deprecation: entry.deprecation } : {}),
  };
}

export class EpisodeSession extends DurableObject<Bindings> {
  private readonly mcp = new McpHub({
    listTools: () => this.mcpToolList(),
    callTool: (name, args) => this.mcpCall(name, args),
  });
  /** The session as last read or written (storage is the truth; this saves deserializing it on every step). */
  private state: { config: SessionConfig; progress: SessionProgress } | null = null;
  /** A flush of the journal outbox is waiting behind the one running: rows journalled meanwhile go with it. */
  private flushQueued = false;
  /** When the last flush started (see JOURNAL_INTERVAL_MS). */
  private lastFlushAt = 0;
  /** The flushes of the outbox run one after another (a step's and the alarm's never send a row twice). */
  private flushChain: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.createTables();
      // Rows an evicted object left in its outbox go to D1 with the first flush of this one.
      const left = this.ctx.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM journal_outbox').one();
      if (left.n > 0) this.scheduleFlush();
    });
  }

  /** The transcript and the journal outbox (again after `deleteAll`, which drops them). */
  private createTables(): void {
    this.ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS transcript (idx INTEGER PRIMARY KEY, entry TEXT NOT NULL)',
    );
    // Journal rows not yet in D1, in call order (see `journal`).
    this.ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS journal_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, row TEXT NOT NULL)',
    );
  }

  private async load(): Promise<{ config: SessionConfig; progress: SessionProgress } | null> {
    if (this.state) return this.state;
    const [config, progress] = await Promise.all([
      this.ctx.storage.get<SessionConfig>(CONFIG),
      this.ctx.storage.get<SessionProgress>(PROGRESS),
    ]);
    this.state = config && progress ? { config, progress } : null;
    return this.state;
  }

  private async saveProgress(config: SessionConfig, progress: SessionProgress): Promise<void> {
    await this.ctx.storage.put(PROGRESS, progress);
    this.state = { config, progress };
  }

  /** Creates the session; calling it again with the same id is a no-op (safe to retry). */
  async start(config: SessionConfig): Promise<SessionView> {
    const existing = await this.load();
    if (!existing) {
      const progress = initialProgress();
      await this.ctx.storage.put({ [CONFIG]: config, [PROGRESS]: progress });
      this.state = { config, progress };
      await this.scheduleAlarm(config, progress);
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
    const { surfaceId, nextChangeAt } = surfaceAt(state.config, now);
    return {
      config: state.config,
      progress: state.progress,
      transcript,
      tools: sessionToolList(state.config, state.progress, now),
      serverSurfaceId: surfaceId,
      nextChangeAt: nextChangeAt?.toISOString() ?? null,
      now: now.toISOString(),
    };
  }

  /**
   * Whether `owner` may drive this session: an admin key any, a user key only the one that started it (a session
   * started before its config kept the owner is looked up in D1, as the route once did for every call).
   */
  private async visibleTo(config: SessionConfig, owner: Owner | undefined): Promise<boolean> {
    if (!owner || owner.admin) return true;
    if (config.ownerId === undefined) return sessionVisible(this.env, config.id, owner);
    return config.ownerId === null || config.ownerId === owner.id;
  }

  /**
   * One call: decides the injected faults, runs the step unless a fault replaces it, records everything. With an
   * `owner`, a session another user key started answers as missing (the route's 404), so a step needs no D1
   * lookup before it. `caller` (by default the owner's key) is the key the step is made for: its Python and SQL
   * calls count against that key's bounds (edge/tool-calls.ts); a refused call records nothing and answers `busy`.
   */
  async step(
    input: SessionInput,
    via: StepVia,
    toolName: string,
    owner?: Owner,
    caller: string | undefined = owner?.id,
  ): Promise<SessionStepReply> {
    let reply: SessionStepReply = { kind: 'missing' };
    await this.ctx.blockConcurrencyWhile(async () => {
      const state = await this.load();
      if (!state || !(await this.visibleTo(state.config, owner))) return;
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
        await this.saveProgress(config, progress);
        this.journal(config, progress, via, input, null, fault.response.status, Date.now() - started, fault);
        reply = { kind: 'fault', fault, progress: stepProgress(progress) };
        return;
      }
      if (progress.done) {
        await this.saveProgress(config, progress);
        reply = { kind: 'finished', progress: stepProgress(progress) };
        return;
      }
      try {
        const backends: SessionBackends = {
          kernel: () => ({
            world: worldFor(this.env),
            deps: edgeKernelDeps(
              this.env,
              (config as Extract<SessionConfig, { task: unknown }>).task.gold,
              caller,
            ),
          }),
          api: (c) => apiStepDeps(this.env, c),
        };
        const result = await runSessionStep(config, progress, input, via, backends, new Date());
        this.ctx.storage.sql.exec(
          'INSERT INTO transcript (idx, entry) VALUES (?, ?)',
          result.entry.index,
          JSON.stringify(result.entry),
        );
        await this.saveProgress(config, result.progress);
        // The status the caller is answered with: an API's answer carries its own; a REST tool call's reflects
        // the outcome (restStatus); ReAct, action and MCP steps are 200 whatever the observation says.
        const status = result.response?.status ?? (via === 'rest' ? restStatus(result.entry) : 200);
        this.journal(config, result.progress, via, input, result.entry, status, Date.now() - started, fault);
        reply = {
          kind: 'step',
          entry: result.entry,
          progress: stepProgress(result.progress),
          fault,
          stepBudget: config.stepBudget,
          ...(result.response ? { response: result.response } : {}),
        };
      } catch (err) {
        if (err instanceof SessionFinishedError)
          reply = { kind: 'finished', progress: stepProgress(progress) };
        else if (err instanceof UnsupportedInputError) reply = { kind: 'unsupported', message: err.message };
        else if (err instanceof ToolCallRefused)
          reply = { kind: 'busy', detail: err.message, retryAfterSeconds: err.retryAfterSeconds };
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
    const progress = { ...state.progress, clockOffsetMs: offset };
    await this.saveProgress(state.config, progress);
    // The next change is now at another real time, and the move may itself have changed the surface.
    await this.scheduleAlarm(state.config, progress);
    await this.mcp.refresh();
    return this.view();
  }

  /** Keeps the one alarm at the earlier of expiry and the next change of the surface (in real time). */
  private async scheduleAlarm(config: SessionConfig, progress: SessionProgress): Promise<void> {
    const realNow = Date.now();
    const { nextChangeAt } = surfaceAt(config, sessionNow(progress, new Date(realNow)));
    let at = Date.parse(config.expiresAt);
    if (nextChangeAt) at = Math.min(at, nextChangeAt.getTime() - progress.clockOffsetMs);
    await this.ctx.storage.setAlarm(at);
  }

  /**
   * Expiry: the session and its transcript are deleted (the D1 journal keeps its calls) and MCP clients are
   * disconnected. A change of the surface: MCP clients are told, and the alarm moves to the next event.
   */
  override async alarm(): Promise<void> {
    // Rows an evicted object left in its outbox reach D1 now at the latest.
    await this.flushJournal();
    const state = await this.load();
    if (state && Date.parse(state.config.expiresAt) > Date.now()) {
      await this.mcp.refresh();
      await this.scheduleAlarm(state.config, state.progress);
      return;
    }
    await this.mcp.closeAll();
    await this.ctx.storage.deleteAll();
    this.state = null;
    this.createTables();
  }

  /**
   * The session's MCP endpoint (Streamable HTTP: POST, GET, DELETE), reached through
   * `ALL /v1/sessions/{id}/mcp` after authentication. A missing session is a bare 404 marked with
   * SESSION_MISSING_HEADER, which the route turns into a problem response.
   */
  override async fetch(request: Request): Promise<Response> {
    const state = await this.load();
    if (!state) return new Response(null, { status: 404, headers: { [SESSION_MISSING_HEADER]: '1' } });
    // An alarm may be a little late: a request after a change announces it first.
    await this.mcp.refresh();
    return this.mcp.handle(request, mcpInstructions(state.config));
  }

  private async mcpToolList(): Promise<McpToolDescriptor[]> {
    const state = await this.load();
    if (!state) throw new McpProtocolError(MCP_SESSION_GONE, 'The session no longer exists (it expired).');
    const now = sessionNow(state.progress, new Date());
    const tools = sessionMcpTools(state.config, now);
    const refined = state.config.toolDescriptions;
    return refined ? refineMcpTools(tools, refined) : tools;
  }

  /** One MCP tool call: a step like any other, mapped onto an MCP result (see the module header). */
  private async mcpCall(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    // An MCP session's steps are serialised like any session's, so its calls run one at a time; they are counted
    // under the session itself.
    const reply = await this.step(
      { action: name, actionInput: args },
      'mcp',
      name,
      undefined,
      `mcp:${this.ctx.id}`,
    );
    if (reply.kind === 'missing') {
      throw new McpProtocolError(MCP_SESSION_GONE, 'The session no longer exists (it expired).');
    }
    if (reply.kind === 'unsupported') throw new McpProtocolError(MCP_UNKNOWN_TOOL, reply.message);
    if (reply.kind === 'finished') {
      const { ending, reward } = reply.progress;
      return {
        content: [{ type: 'text', text: `The session has ended (${ending}); reward ${reward}.` }],
        isError: true,
        _meta: { 'tooldrift/step': { done: true, reward, ending } },
      };
    }
    if (reply.kind === 'busy') throw new McpProtocolError(MCP_RATE_LIMITED, reply.detail);
    const fault = reply.fault;
    if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (reply.kind === 'fault') {
      const response = fault.response as NonNullable<FaultDecision['response']>;
      throw new McpProtocolError(
        response.status === 429 ? MCP_RATE_LIMITED : MCP_SERVER_ERROR,
        response.body,
        response,
      );
    }
    const { entry, progress } = reply;
    const text = applyFaultToBody(fault, entry.observation);
    const meta = stepMeta(entry, progress, reply.stepBudget);
    const outcome = entry.outcome;
    if (outcome.kind === 'rejected' && outcome.reason === 'invalid-action') {
      const config = (await this.ctx.storage.get<SessionConfig>(CONFIG)) as SessionConfig;
      if (!knowsName(config, name, new Date(entry.at))) {
        throw new McpProtocolError(MCP_UNKNOWN_TOOL, text, { observation: text, ...meta });
      }
    }
    return {
      content: [{ type: 'text', text }],
      isError: outcome.kind === 'error' || outcome.kind === 'refused' || outcome.kind === 'rejected',
      _meta: { 'tooldrift/step': meta },
    };
  }

  /**
   * Journals a call after the answer, not before it: the row goes into the session's own outbox (its SQLite, in
   * the same step as the transcript, so an evicted object loses none) and one writer takes the outbox to D1 in
   * call order, at most once per JOURNAL_INTERVAL_MS — a call after a quiet spell is written at once, a busy
   * session's calls go together in one batch —, so a step never waits on D1. The journal is a record for admins
   * and the session list, read after the fact: a row is in D1 at most about two seconds after its answer. A
   * failed write is logged and kept for the next flush (or the alarm), never the step's failure.
   */
  private journal(
    config: SessionConfig,
    progress: SessionProgress,
    via: StepVia,
    input: SessionInput,
    entry: TranscriptEntry | null,
    httpStatus: number,
    latencyMs: number,
    fault: FaultDecision,
  ): void {
    const now = sessionNow(progress, new Date());
    const row: NewJournalRow = {
      sessionId: config.id,
      at: now.getTime(),
      surfaceId: entry?.surfaceId ?? surfaceAt(config, now).surfaceId,
      via,
      action: entry?.action ?? null,
      // The entry's copy of the input (an HTTP request without its headers); the raw one for a fault.
      input: entry?.input ?? input,
      call: entry?.call ?? null,
      observation: entry?.observation ?? null,
      outcome: entry ? entry.outcome.kind : 'fault',
      httpStatus,
      latencyMs,
      fault: fault.faults.length > 0 ? fault : null,
    };
    this.ctx.storage.sql.exec('INSERT INTO journal_outbox (row) VALUES (?)', JSON.stringify(row));
    this.scheduleFlush();
  }

  /** Flushes the outbox after the flush running, unless a flush is already waiting for it. */
  private scheduleFlush(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    const wait = Math.max(0, this.lastFlushAt + JOURNAL_INTERVAL_MS - Date.now());
    const due = wait > 0 ? new Promise<void>((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
    this.ctx.waitUntil(
      due.then(() =>
        this.flushJournal(() => {
          this.flushQueued = false;
          this.lastFlushAt = Date.now();
        }),
      ),
    );
  }

  /** Writes the outbox to D1 after any flush already running (see `writeOutbox`). */
  private flushJournal(starting?: () => void): Promise<void> {
    const run = this.flushChain.then(() => {
      starting?.();
      return this.writeOutbox();
    });
    this.flushChain = run.catch(() => {});
    return run;
  }

  /**
   * Writes the outbox to D1, a batch at a time in call order, deleting what D1 has taken. A batch is one statement
   * over the rows' JSON as the outbox keeps it (appendJournalJson): nothing is parsed or rebuilt per row.
   */
  private async writeOutbox(): Promise<void> {
    for (;;) {
      const found = this.ctx.storage.sql
        .exec<{ id: number; row: string }>(
          'SELECT id, row FROM journal_outbox ORDER BY id LIMIT ?',
          JOURNAL_BATCH,
        )
        .toArray();
      let chars = 0;
      const rows = found.filter((r, i) => {
        chars += r.row.length;
        return i === 0 || chars <= JOURNAL_BATCH_CHARS;
      });
      const last = rows.at(-1);
      if (!last) return;
      try {
        await appendJournalJson(this.env, `[${rows.map((r) => r.row).join(',')}]`);
      } catch (err) {
        createLogger('error', { sessionId: this.state?.config.id }).error('journal write failed', {
          rows: rows.length,
          error: err instanceof Error ? err.message : String(err),
        });
        return; // kept in the outbox: the next flush (or the alarm) tries again
      }
      this.ctx.storage.sql.exec('DELETE FROM journal_outbox WHERE id <= ?', last.id);
    }
  }
}
