import type { JobKind } from './types.ts';

/**
 * The canary: a job that does nothing but prove the queue round trip works. The cron handler enqueues one per
 * tick; /health reports the latest one, so a stuck consumer shows up as a stale canary.
 */
export const CANARY = 'canary';

export const canaryJob: JobKind = {
  kind: CANARY,
  run: async (payload) => {
    const enqueuedAt = (payload as { enqueuedAt?: number } | null)?.enqueuedAt ?? Date.now();
    return { roundTripMs: Date.now() - enqueuedAt };
  },
};
