/**
 * Sessions over any backend: the step, the tool list, the MCP tools and the surface in force, dispatched on the
 * session's backend — the ToolQA-D kernel (`kernel.ts`) or an imported API (`api.ts`). What they share is
 * `episode.ts`. The Durable Object hosting a session calls these and nothing backend-specific.
 */
import { apiMcpTools } from '../apis/surface/docs.ts';
import { retiredByName } from '../apis/surface/tools.ts';
import { kernelOfName, type StepInput } from '../surfaces/adapter.ts';
import { type McpToolDescriptor, mcpTools } from '../surfaces/docs.ts';
import type { KernelDeps } from '../world/kernel/kernel.ts';
import type { World } from '../world/types.ts';
import {
  type ApiSessionConfig,
  type ApiStepDeps,
  apiPromptToolList,
  apiSurfaceAt,
  FINISH,
  runApiStep,
} from './api.ts';
import {
  isHttpInput,
  type SessionInput,
  type SessionProgress,
  type SessionStepResult,
  type StepVia,
} from './episode.ts';
import { type KernelSessionConfig, promptToolList, runKernelStep, serverSurfaceAt } from './kernel.ts';

export type { ApiRef, ApiServerSpec, ApiSessionConfig, ApiSessionQuery, ApiStepDeps } from './api.ts';
export * from './episode.ts';
export type { KernelSessionConfig, ServerSpec, SessionTask } from './kernel.ts';

export type SessionConfig = KernelSessionConfig | ApiSessionConfig;

export function isApiSession(config: SessionConfig): config is ApiSessionConfig {
  return config.backend === 'api';
}

/** Where each backend's step gets what it needs (the kernel's world, an API's catalog and mock), on demand. */
export interface SessionBackends {
  kernel: () => { world: World; deps: KernelDeps };
  api: (config: ApiSessionConfig) => Promise<ApiStepDeps>;
}

/** Thrown for an input the session's backend cannot take (an HTTP request to a kernel session). */
export class UnsupportedInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedInputError';
  }
}

/** One agent step, on the session's backend. */
export async function runSessionStep(
  config: SessionConfig,
  progress: SessionProgress,
  input: SessionInput,
  via: StepVia,
  backends: SessionBackends,
  realNow: Date,
): Promise<SessionStepResult> {
  if (isApiSession(config))
    return runApiStep(config, progress, input, via, await backends.api(config), realNow);
  if (isHttpInput(input)) {
    throw new UnsupportedInputError('A kernel session has no HTTP channel; call its tools by name.');
  }
  const { world, deps } = backends.kernel();
  return runKernelStep(world, config, progress, input as StepInput, via, deps, realNow);
}

/** The id of the surface the server speaks at `now`, and when that will next change. */
export function surfaceAt(
  config: SessionConfig,
  now: Date,
): { surfaceId: string; nextChangeAt: Date | null } {
  const { surface, nextChangeAt } = isApiSession(config)
    ? apiSurfaceAt(config.server, now)
    : serverSurfaceAt(config.server, now);
  return { surfaceId: surface.id, nextChangeAt };
}

/** The tool list of the agent's prompt. */
export function sessionToolList(config: SessionConfig, progress: SessionProgress, now: Date): string {
  return isApiSession(config) ? apiPromptToolList(config, now) : promptToolList(config, progress);
}

/** The served tools as MCP tool descriptors at `now`. */
export function sessionMcpTools(config: SessionConfig, now: Date): McpToolDescriptor[] {
  if (isApiSession(config)) return apiMcpTools(apiSurfaceAt(config.server, now).surface, { now });
  return mcpTools(serverSurfaceAt(config.server, now).surface, { now });
}

/**
 * Whether the server surface at `now` knows a name at all (a tool, a retired or sunset name): MCP answers an
 * unknown name with a JSON-RPC error instead of a tool result.
 */
export function knowsName(config: SessionConfig, name: string, now: Date): boolean {
  if (isApiSession(config)) {
    if (name.trim() === FINISH) return true;
    const { surface } = apiSurfaceAt(config.server, now);
    const n = name.trim();
    return surface.tools.some((t) => t.name === n) || retiredByName(surface, n) !== undefined;
  }
  return kernelOfName(serverSurfaceAt(config.server, now).surface, name) !== undefined;
}
