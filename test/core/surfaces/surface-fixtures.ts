/**
 * Shared pieces of the surface tests: a kernel with recording fake interpreters, the two ways a step reaches a
 * surface (ReAct text and {action, actionInput}), and a JSON rendering of argument objects for Action Inputs.
 */
import { type SurfaceStep, stepSurface } from '../../../core/surfaces/adapter.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { PyFloat, PyInt, type PyJson, pyJsonDumps } from '../../../core/util/python-format.ts';
import { callKernel, type KernelCall, type KernelDeps } from '../../../core/world/kernel/kernel.ts';
import { type EnvState, initialState } from '../../../core/world/kernel/state.ts';
import type { World } from '../../../core/world/types.ts';

/** SQL and Python that echo what reached them, so a test sees the exact code after prefix removal. */
export const echoDeps: KernelDeps = {
  sql: async (q) => `sql:${q}`,
  python: (code, namespace) => ({ observation: `python:${code}`, namespace }),
  gold: '20:31',
};

/** A generated step in the ReAct format of spec §5.2. */
export function reactText(action: string, actionInput: string): string {
  return `Thought: I call the tool.\n\nAction: ${action}\n\nAction Input: ${actionInput}\n\n`;
}

export type Path = 'react' | 'direct';
export const PATHS: Path[] = ['react', 'direct'];

/** One step through either path, with the Action Input given as JSON text. */
export function step(
  world: World,
  surface: Surface,
  state: EnvState,
  path: Path,
  action: string,
  actionInput: string,
  deps: KernelDeps = echoDeps,
  now?: Date,
): Promise<SurfaceStep> {
  const input = path === 'react' ? reactText(action, actionInput) : { action, actionInput };
  return stepSurface(world, surface, state, input, deps, now ? { now } : {});
}

/** Runs kernel calls from the initial state and returns the final state. */
export async function stateAfter(
  world: World,
  calls: KernelCall[],
  deps: KernelDeps = echoDeps,
): Promise<EnvState> {
  let state = initialState();
  for (const c of calls) state = (await callKernel(world, state, c, deps)).state;
  return state;
}

function toPyJson(v: unknown): PyJson {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? new PyInt(v) : new PyFloat(v);
  if (v instanceof PyInt || v instanceof PyFloat) return v;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toPyJson);
  const out: { [k: string]: PyJson } = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = toPyJson(x);
  return out;
}

/** An argument object as the JSON text an agent would write (key order kept). */
export function jsonText(args: Record<string, unknown>): string {
  return pyJsonDumps(toPyJson(args));
}
