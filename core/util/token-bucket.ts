/** A token bucket as a pure function of its previous state and the current time. */

export interface BucketState {
  tokens: number;
  /** Epoch milliseconds of the last update. */
  updatedAt: number;
}

export interface BucketLimits {
  capacity: number;
  refillPerSecond: number;
}

export interface TakeResult {
  state: BucketState;
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until `cost` tokens are available again; 0 when allowed. */
  retryAfterSeconds: number;
}

export function takeToken(prev: BucketState | null, limits: BucketLimits, now: number, cost = 1): TakeResult {
  const start = prev ?? { tokens: limits.capacity, updatedAt: now };
  const elapsed = Math.max(0, now - start.updatedAt) / 1000;
  const tokens = Math.min(limits.capacity, start.tokens + elapsed * limits.refillPerSecond);
  if (tokens >= cost) {
    const left = tokens - cost;
    return {
      state: { tokens: left, updatedAt: now },
      allowed: true,
      remaining: Math.floor(left),
      retryAfterSeconds: 0,
    };
  }
  const wait =
    limits.refillPerSecond > 0 ? (cost - tokens) / limits.refillPerSecond : Number.POSITIVE_INFINITY;
  return {
    state: { tokens, updatedAt: now },
    allowed: false,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil(wait)),
  };
}
