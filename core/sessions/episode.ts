/**
 * A benchmark session ("episode"): one task or query played by an external agent against a server surface (or a
 * schedule of surfaces over time), with a step budget. What stands behind the surface is the session's
 * *backend*: the ToolQA-D kernel (`kernel.ts`: a task of the seeded world, kernel surfaces) or an imported API
 * (`api.ts`: a query against the API's mock or upstream, API surfaces). This module holds what every session
 * shares whatever its backend — configuration basics, progress, the transcript, how a step ends the episode;
 * `index.ts` dispatches a step to its backend.
 *
 * Pure: configuration and progress are JSON values. The Durable Object that hosts a session only stores them.
 */
import type { DeprecationNotice, ParamProblem, StepInput, StepOutcome } from '../surfaces/adapter.ts';
import type { FaultConfig } from '../surfaces/faults.ts';
import type { Schedule } from '../surfaces/schedule.ts';
import type { KernelToolName } from '../world/kernel/kernel.ts';
import { type EnvState, initialState } from '../world/kernel/state.ts';
import type { ApiSessionState } from './api-state.ts';

/** What every session's configuration has. */
export interface SessionBase {
  id: string;
  stepBudget: number;
  /** Seeds everything random in the session (fault injection; the mock's world has its API's seed). */
  seed: string;
  faults?: FaultConfig;
  /**
   * Descriptions by tool name that replace the served tools' own in MCP `tools/list` (a DRAFT documentation
   * set's refined descriptions, core/draft/render.ts); tools without one keep theirs.
   */
  toolDescriptions?: Record<string, string>;
  /**
   * Who started the session (the owner id of its key, null for none): the session's object answers its own
   * calls as missing to any other user key, without a lookup per step. Sessions started before this was kept
   * have no such member (their object asks D1, as the route did).
   */
  ownerId?: string | null;
  createdAt: string;
  expiresAt: string;
}

/** One surface, or a schedule with every surface it names (the surfaces of either backend). */
export type ServerOf<S> =
  | { kind: 'surface'; surface: S }
  | { kind: 'schedule'; schedule: Schedule; surfaces: Record<string, S> };

/**
 * The surface a server speaks at `now` and when that will next change (for MCP list_changed), with the schedule
 * resolution of its backend's surfaces.
 */
export function surfaceInForce<S>(
  server: ServerOf<S>,
  resolve: (
    schedule: Schedule,
    surfaces: Record<string, S>,
    now: Date,
  ) => { current: S; nextChangeAt: Date | null },
  now: Date,
): { surface: S; nextChangeAt: Date | null } {
  if (server.kind === 'surface') return { surface: server.surface, nextChangeAt: null };
  const resolved = resolve(server.schedule, server.surfaces, now);
  return { surface: resolved.current, nextChangeAt: resolved.nextChangeAt };
}

/** An HTTP request to the session's API at the surface's own paths (`/v1/sessions/{id}/http/<path>`). */
export interface HttpStepInput {
  http: {
    method: string;
    path: string;
    query: Record<string, string | string[]>;
    headers: Record<string, string>;
    body: unknown;
  };
}

/** What the agent sent: ReAct text, an action with its input, or (API sessions) an HTTP request. */
export type SessionInput = StepInput | HttpStepInput;

export function isHttpInput(input: SessionInput): input is HttpStepInput {
  return typeof input === 'object' && input !== null && 'http' in input;
}

export type SessionEnding = 'finish' | 'budget';

export interface SessionProgress {
  /** The kernel's environment state (step and load counters, UpdateTool lines); unused by API sessions. */
  env: EnvState;
  /** Steps taken (every input, parsable or not). */
  steps: number;
  done: boolean;
  /**
   * +1 for a correct Finish, −1 for a wrong one or a spent budget; null while running — and at the end of an API
   * session whose query has no gold answer (its Finish answer is kept for later judging; see `api`).
   */
  reward: number | null;
  ending: SessionEnding | null;
  /** Moves the session's clock (admin "time travel" for schedules); 0 normally. */
  clockOffsetMs: number;
  /** HTTP calls made to the session, faulted ones included: the fault injector's call index. */
  calls: number;
  /** An API session's own state: the mock's overlay, the operations called, the answer and score. */
  api?: ApiSessionState;
}

/** How the step arrived: ReAct text, an action object, a REST tool call, an MCP tool call or an HTTP request. */
export type StepVia = 'react' | 'action' | 'rest' | 'mcp' | 'http';

/** The outcome of an API session's step (the kernel's are `StepOutcome`). */
export type ApiStepOutcome =
  /** The backend answered a 2xx. */
  | { kind: 'ok'; status: number }
  /** The backend answered an error status (a bad request the mock rejected, a missing entity, an upstream error). */
  | { kind: 'error'; reason: 'status'; status: number }
  /** The surface refused the call before any operation ran (unknown, retired, bad arguments, unparsable). */
  | {
      kind: 'rejected';
      reason:
        | 'filtered'
        | 'argument-error'
        | 'invalid-action'
        | 'retired'
        | 'param-error'
        | 'method-not-allowed';
      status: number;
    }
  /** Finish: correct or not when the query has a gold answer, null when it has none. */
  | { kind: 'finished'; correct: boolean | null };

export interface TranscriptEntry {
  index: number;
  at: string;
  via: StepVia;
  /** The input as received (ReAct text, action and its input, or the HTTP request without its headers). */
  input: SessionInput;
  action?: string;
  /** The backend call: a kernel tool, or a base operation of the API, with its (base) arguments. */
  call?: { tool: string; args: Record<string, unknown> };
  /** The kernel tool behind the called name, when the server surface knows the name. */
  kernel?: KernelToolName;
  /** The API operation behind the called name or route (also for rejected calls the surface knows). */
  operation?: string;
  /** For API sessions: the exposed call as HTTP (`GET /people/{id}`) and the status the answer carried. */
  http?: { method?: string; path?: string; status: number };
  observation: string;
  outcome: StepOutcome | ApiStepOutcome;
  surfaceId: string;
  deprecation?: DeprecationNotice;
  /** For a call rejected for its parameters: which one, and why (the REST answer's `field`). */
  param?: ParamProblem;
  reward: number | null;
  done: boolean;
}

export function initialProgress(): SessionProgress {
  return {
    env: initialState(),
    steps: 0,
    done: false,
    reward: null,
    ending: null,
    clockOffsetMs: 0,
    calls: 0,
  };
}

/** The session's notion of now (the real time moved by the admin offset). */
export function sessionNow(progress: SessionProgress, realNow: Date): Date {
  return new Date(realNow.getTime() + progress.clockOffsetMs);
}

export class SessionFinishedError extends Error {
  constructor(readonly progress: SessionProgress) {
    super(`the session has ended (${progress.ending}); its reward was ${progress.reward}`);
    this.name = 'SessionFinishedError';
  }
}

/** An API's answer as HTTP, for the `/http/…` channel (the JSON body the surface shaped). */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface SessionStepResult {
  progress: SessionProgress;
  entry: TranscriptEntry;
  /** API sessions: the answer as the API gives it (status, headers, body). */
  response?: HttpAnswer;
}

/**
 * How a step ends (or not) the episode: a Finish ends it with its reward; otherwise the step that spends the
 * budget ends it with `budgetReward`.
 */
export function closeStep(
  progress: SessionProgress,
  stepBudget: number,
  finished: { reward: number | null } | null,
  budgetReward: number | null = -1,
): Pick<SessionProgress, 'steps' | 'done' | 'reward' | 'ending'> {
  const steps = progress.steps + 1;
  if (finished) return { steps, done: true, reward: finished.reward, ending: 'finish' };
  if (steps >= stepBudget) return { steps, done: true, reward: budgetReward, ending: 'budget' };
  return { steps, done: false, reward: null, ending: null };
}

/**
 * The HTTP status a REST tool call answers with (`POST /v1/sessions/{id}/tools/{name}`): 404 for a name the surface
 * does not know at all, 410 for a retired or sunset one, 400 for any other rejection (wrong parameters, unparsable
 * input), 200 when the call reached the backend; an API surface's refusal carries its own status (400, 404, 405,
 * 410). The session's journal records the same status the route sends.
 */
export function restStatus(entry: Pick<TranscriptEntry, 'outcome' | 'kernel'>): number {
  const { outcome } = entry;
  if (outcome.kind !== 'rejected') return 200;
  if ('status' in outcome) return outcome.status;
  if (outcome.reason === 'invalid-action' && entry.kernel === undefined) return 404;
  if (outcome.reason === 'retired') return 410;
  return 400;
}
