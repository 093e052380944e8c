/** The shape of a queue job kind (edge/jobs/kinds.ts lists them). */
import type { Bindings } from '../env.ts';
import type { Logger } from '../log.ts';

/** The queue message: only the job id and kind; the D1 `jobs` row holds the payload and status. */
export interface JobMessage {
  jobId: string;
  kind: string;
}

export interface JobContext {
  env: Bindings;
  jobId: string;
  attempt: number;
  log: Logger;
}

export type JobHandler = (payload: unknown, ctx: JobContext) => Promise<unknown>;

/** One kind of background job: its id (the `kind` of its rows and messages) and how to run one. */
export interface JobKind {
  kind: string;
  run: JobHandler;
}

/** Attempts before a failing job is marked failed (matches the consumer's max_retries + 1). */
export const MAX_ATTEMPTS = 4;
