/**
 * Planning by replay: the simulated policy runs its task template's solver over the steps already taken, feeding
 * it the observations of the steps that did what the solver asked, and finds either the next P_c call to make,
 * the answer to give, or that the observations do not fit its plan.
 *
 * A solver call is matched by the first later step that called the same kernel tool and was not rejected
 * (deprecation, unknown tool, parameter or JSON error, unreadable output). A step whose arguments differ from the
 * call (a wrong value written by mistake) still counts — the policy believes it did what it meant — unless its
 * observation reads like an error message, in which case the policy notices and makes the call again.
 */

import { writeJsonEntries } from '../prompts/react-format.ts';
import type { KernelCall } from '../world/kernel/kernel.ts';
import type { Solver } from '../world/tasks/types.ts';
import type { History, HistoryStep } from './knowledge.ts';
import { inferShape, renderCall } from './shapes.ts';

export type Replay =
  | { kind: 'call'; call: KernelCall; executed: number }
  | { kind: 'done'; answer: unknown; executed: number }
  /** The observations did not fit the plan (the solver could not read them). */
  | { kind: 'stuck'; executed: number };

/** Upper bound on solver calls, as in reference plans. */
const MAX_CALLS = 60;

/** Whether a step wrote exactly this call (in the shape its own arguments show). */
export function stepMatchesCall(step: HistoryStep, call: KernelCall): boolean {
  if (step.args === null || step.action === null || step.kernel !== call.tool) return false;
  const shape = inferShape(step.action, call.tool, step.args);
  return writeJsonEntries(renderCall(shape, call)) === writeJsonEntries(step.args);
}

/** Replays a fresh run of the plan (`solve()` starts the solver: a task template's, or an imagined query's). */
export function replaySolver(solve: () => Solver, history: History): Replay {
  const solver = solve();
  const steps = history.steps;
  let cursor = 0;
  let executed = 0;
  let next: IteratorResult<KernelCall, unknown>;
  try {
    next = solver.next();
    while (!next.done) {
      if (executed >= MAX_CALLS) return { kind: 'stuck', executed };
      const call = next.value;
      let found: HistoryStep | null = null;
      for (let j = cursor; j < steps.length; j++) {
        const s = steps[j] as HistoryStep;
        if (s.rejected || s.kernel !== call.tool) continue;
        const isError = s.observation.kind === 'result' && s.observation.error;
        if (stepMatchesCall(s, call) || !isError) {
          found = s;
          break;
        }
      }
      if (!found) return { kind: 'call', call, executed };
      cursor = found.index + 1;
      executed++;
      next = solver.next(found.content);
    }
  } catch {
    return { kind: 'stuck', executed };
  }
  return { kind: 'done', answer: next.value, executed };
}
