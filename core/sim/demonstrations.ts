/**
 * How the simulated policy reads in-context demonstrations (STE's demonstrations aid): each demonstration is a
 * query with the action and action input that answered it. The policy attributes a demonstration to a kernel
 * tool by reading its query — it must be a query it understands (one of its own query kinds, ste-queries.ts),
 * the way a model relates an example to its task by meaning — and learns the call's name and argument shape
 * from the action input. The first demonstration of each kernel tool counts; the policy then follows it with
 * probability `pDemo` (policy.ts). It never checks a demonstration against the server.
 */
import type { KernelToolName } from '../world/kernel/kernel.ts';
import type { Knowledge } from './knowledge.ts';
import { readJsonObject } from './observations.ts';
import type { PromptDemonstration } from './prompt-reader.ts';
import { inferShape } from './shapes.ts';
import { recogniseQuery } from './ste-queries.ts';

/** The kernel tool a demonstration's query is about, or null for a query the policy does not understand. */
export function demonstrationKernel(query: string): KernelToolName | null {
  return recogniseQuery(query)?.kind.kernel ?? null;
}

export function addDemonstrations(k: Knowledge, demos: readonly PromptDemonstration[]): void {
  for (const demo of demos) {
    const kernel = demonstrationKernel(demo.query);
    if (kernel === null || k.demonstrated.has(kernel)) continue;
    const entries = readJsonObject(demo.actionInput);
    if (!entries || entries.length === 0) continue;
    k.demonstrated.set(kernel, inferShape(demo.action, kernel, entries));
    if (!k.nameToKernel.has(demo.action)) k.nameToKernel.set(demo.action, kernel);
  }
}
