/**
 * The explicit list of queue job kinds. A new kind is one module exporting a `JobKind` and one entry here; the
 * consumer (edge/jobs/consumer.ts) runs a message's job with the handler of its kind. Nothing registers itself
 * by being imported.
 */
import { apiEvalGroupJob } from './api-eval-group.ts';
import { canaryJob } from './canary.ts';
import { draftFinalizeJob, draftToolJob } from './draft.ts';
import { evalGroupJob } from './eval-group.ts';
import { exploreTreeJob } from './explore-tree.ts';
import { steToolJob } from './ste-tool.ts';
import { streamAdvanceJob } from './stream-advance.ts';
import { streamEvaluateJob, streamMaintainJob } from './stream-living.ts';
import { trainToolsetJob } from './train-toolset.ts';
import type { JobHandler, JobKind } from './types.ts';

export const JOB_KINDS: readonly JobKind[] = [
  canaryJob,
  evalGroupJob,
  apiEvalGroupJob,
  exploreTreeJob,
  draftToolJob,
  draftFinalizeJob,
  steToolJob,
  trainToolsetJob,
  streamAdvanceJob,
  streamMaintainJob,
  streamEvaluateJob,
];

/** Kinds added at run time (tests add throwaway kinds); the listed kinds cannot be replaced. */
const extraKinds = new Map<string, JobHandler>();

export function registerJobKind(kind: string, handler: JobHandler): void {
  if (JOB_KINDS.some((k) => k.kind === kind)) throw new Error(`job kind ${kind} is in JOB_KINDS already`);
  extraKinds.set(kind, handler);
}

export function jobHandler(kind: string): JobHandler | undefined {
  return JOB_KINDS.find((k) => k.kind === kind)?.run ?? extraKinds.get(kind);
}

export function jobKinds(): string[] {
  return [...JOB_KINDS.map((k) => k.kind), ...extraKinds.keys()].sort();
}
