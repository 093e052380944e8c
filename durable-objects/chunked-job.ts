/**
 * What the alarm-driven Durable Objects (`search-tree.ts`, `ste-explorer.ts`, `draft-tool.ts`) share: the retry
 * rule of a chunk that failed. A chunk that throws stores nothing of its work; the job's meta counts the failure
 * and keeps the error, the job fails for good at MAX_CHUNK_FAILURES, and otherwise its alarm fires again after an
 * exponential back-off (2 s, 4 s, 8 s, … at most a minute) and redoes the chunk.
 */

/** Failed chunks (provider errors) before the job is marked failed. */
export const MAX_CHUNK_FAILURES = 5;

/** The part of a chunked job's stored meta that the retry rule reads and writes. */
export interface ChunkedJobMeta {
  status: string;
  failures: number;
  error: string | null;
  /** The outcome has been written to D1. */
  reported: boolean;
}

/** The meta after a failed chunk: one failure more, the error's message, and `failed` at the limit. */
export function afterFailedChunk<M extends ChunkedJobMeta>(meta: M, err: unknown): M {
  const failures = meta.failures + 1;
  const error = err instanceof Error ? err.message : String(err);
  return { ...meta, failures, error, ...(failures >= MAX_CHUNK_FAILURES ? { status: 'failed' } : {}) };
}

/** When the alarm of a job whose chunks failed `failures` times in a row runs the chunk again. */
export function retryAt(failures: number): number {
  return Date.now() + Math.min(60_000, 1000 * 2 ** failures);
}
