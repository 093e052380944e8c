/**
 * Runs a template's solver through the kernel tools: each yielded call is executed on the functional
 * environment state and its observation is fed back; the returned answer is submitted with Finish and judged
 * against gold by the answer matcher. The recorded steps are the task's reference plan.
 */

import { callKernel, type KernelDeps } from '../kernel/kernel.ts';
import { type EnvState, initialState } from '../kernel/state.ts';
import { createKernelDeps } from '../kernel-deps.ts';
import type { World } from '../types.ts';
import type { Gold, PlanStep, Slots, TaskTemplate } from './types.ts';

export interface PlanRun {
  steps: PlanStep[];
  answer: unknown;
  correct: boolean;
  state: EnvState;
}

/** Kernel dependencies for reference plans: the Python sandbox, and no SQL (no plan uses SQLInterpreter). */
export function referenceDeps(gold: Gold): KernelDeps {
  return createKernelDeps({ gold });
}

/** Upper bound on solver calls, so a buggy solver cannot loop forever. */
const MAX_PLAN_CALLS = 40;

export async function runReferencePlan<S extends Slots>(
  world: World,
  template: TaskTemplate<S>,
  slots: S,
  gold: Gold,
  deps: KernelDeps = referenceDeps(gold),
): Promise<PlanRun> {
  const solver = template.solve(slots);
  let state = initialState();
  const steps: PlanStep[] = [];
  let next = solver.next();
  while (!next.done) {
    if (steps.length >= MAX_PLAN_CALLS)
      throw new Error(`${template.id}: solver exceeded ${MAX_PLAN_CALLS} calls`);
    const call = next.value;
    const result = await callKernel(world, state, call, deps);
    state = result.state;
    steps.push({ ...call, observation: result.observation });
    next = solver.next(result.observation);
  }
  const answer = next.value;
  const finish = await callKernel(world, state, { tool: 'Finish', args: { answer } }, deps);
  steps.push({ tool: 'Finish', args: { answer }, observation: finish.observation });
  return {
    steps,
    answer,
    correct: finish.outcome.kind === 'finished' && finish.outcome.correct,
    state: finish.state,
  };
}
