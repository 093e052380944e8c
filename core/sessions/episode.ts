/**
 * A benchmark session ("episode"): one task played by an external agent against a server surface (or a
 * schedule of surfaces over time), with a step budget. The agent sees the tool documentation of its prompt
 * surface (P_c by default) and discovers drift only through the server's answers, as in ToolQA-D.
 *
 * Pure: the session's configuration and progress are JSON values; `runSessionStep` is a function of (world,
 * config, progress, input, now). The Durable Object that hosts a session only stores these values.
 */
import {
  type DeprecationNotice,
  type StepInput,
  type StepOutcome,
  stepSurface,
} from '../surfaces/adapter.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { FaultConfig } from '../surfaces/faults.ts';
import type { Surface } from '../surfaces/model.ts';
import { resolveSchedule, type Schedule } from '../surfaces/schedule.ts';
import { plainJson } from '../util/python-format.ts';
import type { KernelCall, KernelDeps, KernelToolName } from '../world/kernel/kernel.ts';
import { type EnvState, initialState } from '../world/kernel/state.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';

export type ServerSpec =
  | { kind: 'surface'; surface: Surface }
  /** A schedule with every surface it names. */
  | { kind: 'schedule'; schedule: Schedule; surfaces: Record<string, Surface> };

export interface SessionTask {
  id: string;
  question: string;
  dataset: string;
  difficulty: string;
  gold: Gold;
}

export interface SessionConfig {
  id: string;
  task: SessionTask;
  server: ServerSpec;
  /** The surface whose documentation the agent is given (its prompt docs). */
  promptSurface: Surface;
  stepBudget: number;
  /** Seeds everything random in the session (fault injection). */
  seed: string;
  faults?: FaultConfig;
  /**
   * Descriptions by tool name that replace the served tools' own in MCP `tools/list` (a DRAFT documentation
   * set's refined descriptions, core/draft/render.ts); tools without one keep theirs.
   */
  toolDescriptions?: Record<string, string>;
  createdAt: string;
  expiresAt: string;
}

export type SessionEnding = 'finish' | 'budget';

export interface SessionProgress {
  env: EnvState;
  /** Steps taken (every input, parsable or not). */
  steps: number;
  done: boolean;
  /** +1 for a correct Finish, −1 for a wrong one or a spent budget; null while running. */
  reward: number | null;
  ending: SessionEnding | null;
  /** Moves the session's clock (admin "time travel" for schedules); 0 normally. */
  clockOffsetMs: number;
  /** HTTP calls made to the session, faulted ones included: the fault injector's call index. */
  calls: number;
}

/** How the step arrived: ReAct text, an action object, a REST tool call or an MCP tool call. */
export type StepVia = 'react' | 'action' | 'rest' | 'mcp';

export interface TranscriptEntry {
  index: number;
  at: string;
  via: StepVia;
  /** The input as received (ReAct text, or action and its input). */
  input: StepInput;
  action?: string;
  call?: KernelCall;
  /** The kernel tool behind the called name, when the server surface knows the name. */
  kernel?: KernelToolName;
  observation: string;
  outcome: StepOutcome;
  surfaceId: string;
  deprecation?: DeprecationNotice;
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

/** The surface the server speaks at `now`, and when that will next change (for MCP list_changed). */
export function serverSurfaceAt(
  server: ServerSpec,
  now: Date,
): { surface: Surface; nextChangeAt: Date | null } {
  if (server.kind === 'surface') return { surface: server.surface, nextChangeAt: null };
  const resolved = resolveSchedule(server.schedule, server.surfaces, now);
  return { surface: resolved.current, nextChangeAt: resolved.nextChangeAt };
}

/** The tool list the agent's prompt shows (its prompt surface plus the UpdateTool lines of its path). */
export function promptToolList(config: SessionConfig, progress: SessionProgress): string {
  return renderToolList(config.promptSurface, { newTools: progress.env.newTools });
}

export class SessionFinishedError extends Error {
  constructor(readonly progress: SessionProgress) {
    super(`the session has ended (${progress.ending}); its reward was ${progress.reward}`);
    this.name = 'SessionFinishedError';
  }
}

export interface SessionStepResult {
  progress: SessionProgress;
  entry: TranscriptEntry;
}

/** One agent step. Throws SessionFinishedError after the episode ended. */
export async function runSessionStep(
  world: World,
  config: SessionConfig,
  progress: SessionProgress,
  input: StepInput,
  via: StepVia,
  deps: KernelDeps,
  realNow: Date,
): Promise<SessionStepResult> {
  if (progress.done) throw new SessionFinishedError(progress);
  const now = sessionNow(progress, realNow);
  const { surface } = serverSurfaceAt(config.server, now);
  const step = await stepSurface(world, surface, progress.env, input, deps, { now });
  const steps = progress.steps + 1;
  let done = false;
  let reward: number | null = null;
  let ending: SessionEnding | null = null;
  if (step.outcome.kind === 'finished') {
    done = true;
    reward = step.outcome.correct ? 1 : -1;
    ending = 'finish';
  } else if (steps >= config.stepBudget) {
    done = true;
    reward = -1;
    ending = 'budget';
  }
  const next: SessionProgress = { ...progress, env: step.state, steps, done, reward, ending };
  const entry: TranscriptEntry = {
    index: progress.steps,
    at: now.toISOString(),
    via,
    input,
    observation: step.observation,
    outcome: step.outcome,
    surfaceId: surface.id,
    reward,
    done,
  };
  if (step.action !== undefined) entry.action = step.action;
  // The call's arguments may hold decoded Python values (PyInt, PyDict…): the entry crosses the Durable Object
  // RPC boundary and storage, which take plain data only.
  if (step.call) entry.call = { ...step.call, args: plainJson(step.call.args) as KernelCall['args'] };
  if (step.kernel) entry.kernel = step.kernel;
  if (step.deprecation) entry.deprecation = step.deprecation;
  return { progress: next, entry };
}
