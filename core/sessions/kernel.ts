/**
 * A session on the kernel backend: one ToolQA-D task played by an external agent against a kernel surface (or a
 * schedule of surfaces over time), with a step budget. The agent sees the tool documentation of its prompt
 * surface (P_c by default) and discovers drift only through the server's answers, as in ToolQA-D.
 *
 * Pure: the session's configuration and progress are JSON values; `runKernelStep` is a function of (world,
 * config, progress, input, now). What every session shares (progress, transcript, endings) is `episode.ts`.
 */
import { type StepInput, stepSurface } from '../surfaces/adapter.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import { resolveSchedule } from '../surfaces/schedule.ts';
import { plainJson } from '../util/python-format.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { Gold } from '../world/tasks/types.ts';
import type { World } from '../world/types.ts';
import {
  closeStep,
  type ServerOf,
  type SessionBase,
  SessionFinishedError,
  type SessionProgress,
  type SessionStepResult,
  type StepVia,
  sessionNow,
  surfaceInForce,
  type TranscriptEntry,
} from './episode.ts';

export type ServerSpec = ServerOf<Surface>;

export interface SessionTask {
  id: string;
  question: string;
  dataset: string;
  difficulty: string;
  gold: Gold;
}

export interface KernelSessionConfig extends SessionBase {
  /** Absent on sessions stored before imported APIs existed: those are kernel sessions too. */
  backend?: 'kernel';
  task: SessionTask;
  server: ServerSpec;
  /** The surface whose documentation the agent is given (its prompt docs). */
  promptSurface: Surface;
}

/** The surface the server speaks at `now`, and when that will next change (for MCP list_changed). */
export function serverSurfaceAt(
  server: ServerSpec,
  now: Date,
): { surface: Surface; nextChangeAt: Date | null } {
  return surfaceInForce(server, resolveSchedule, now);
}

/** The tool list the agent's prompt shows (its prompt surface plus the UpdateTool lines of its path). */
export function promptToolList(config: KernelSessionConfig, progress: SessionProgress): string {
  return renderToolList(config.promptSurface, { newTools: progress.env.newTools });
}

/** One agent step on the kernel. Throws SessionFinishedError after the episode ended. */
export async function runKernelStep(
  world: World,
  config: KernelSessionConfig,
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
  const finished = step.outcome.kind === 'finished' ? { reward: step.outcome.correct ? 1 : -1 } : null;
  const { steps, done, reward, ending } = closeStep(progress, config.stepBudget, finished);
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
  if (step.call) entry.call = { ...step.call, args: plainJson(step.call.args) as Record<string, unknown> };
  if (step.kernel) entry.kernel = step.kernel;
  if (step.deprecation) entry.deprecation = step.deprecation;
  if (step.param) entry.param = step.param;
  return { progress: next, entry };
}
