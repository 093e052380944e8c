/**
 * Evaluation summaries as the API shows them, shared by the evaluation routes and the schedule routes (a
 * schedule shows its last run): the `EvalSummary` schema and how a stored evaluation becomes one.
 */
import { z } from '@hono/zod-openapi';
import type { Bindings } from '../../edge/env.ts';
import { type EvalProgress, type EvalRow, listEvals } from '../../edge/stores/evaluations.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import { component } from '../http/openapi.ts';

const Iso = z.string().openapi({ description: 'Time (ISO 8601, UTC).' });

export const EvalSummary = component('EvalSummary', {
  id: z.string(),
  name: z.string().nullable(),
  status: z.enum(['running', 'done', 'cancelled']),
  createdAt: Iso,
  finishedAt: Iso.nullable(),
  scheduleId: z.string().nullable(),
  dueTime: Iso.nullable().openapi({ description: "The schedule's due time this run is for." }),
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  successRate: z.number().nullable().openapi({ description: 'Correct / finished task runs so far.' }),
  flagged: z
    .boolean()
    .openapi({ description: 'A drop beyond the schedule threshold against the previous run.' }),
  stoppedFor: z.string().nullable().openapi({
    description:
      "Why a cancelled evaluation stopped by itself: `quota-exhausted` when its key's model-call quota ran out (null otherwise).",
  }),
  links: z.record(z.string(), z.string()),
});

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A summary from the row and the progress of an evaluation that is not done (done ones carry their totals). */
export function summaryWithProgress(row: EvalRow, progress: EvalProgress | undefined) {
  if (row.status === 'done') return evalSummary(row, row.total, row.successRate);
  const done = progress?.done ?? 0;
  return evalSummary(row, done, done > 0 ? (progress?.correct ?? 0) / done : null);
}

export function evalSummary(
  row: EvalRow,
  done: number,
  successRate: number | null,
): z.infer<typeof EvalSummary> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    createdAt: new Date(row.createdAt).toISOString(),
    finishedAt: iso(row.finishedAt),
    scheduleId: row.scheduleId,
    dueTime: iso(row.dueTime),
    progress: { done, total: row.total },
    successRate: row.status === 'done' ? row.successRate : successRate,
    flagged: row.flagged,
    stoppedFor: row.stoppedFor,
    links: { self: `/v1/evals/${row.id}`, results: `/v1/evals/${row.id}/results` },
  };
}

/** Summaries of evaluations (newest first), with their progress. */
export async function listEvalSummaries(
  env: Bindings,
  opts: { limit: number; scheduleId?: string; cursor?: string; owner?: Owner },
): Promise<{ items: z.infer<typeof EvalSummary>[]; nextCursor: string | null }> {
  const page = await listEvals(env, opts);
  return {
    items: page.items.map(({ row, progress }) => summaryWithProgress(row, progress)),
    nextCursor: page.nextCursor,
  };
}
