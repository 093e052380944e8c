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

/** The tokens the bucket holds at `now` (a new bucket is full), refilled since its last update. */
function refilled(prev: BucketState | null, limits: BucketLimits, now: number): number {
  const start = prev ?? { tokens: limits.capacity, updatedAt: now };
  const elapsed = Math.max(0, now - start.updatedAt) / 1000;
  return Math.min(limits.capacity, start.tokens + elapsed * limits.refillPerSecond);
}

/** Seconds until the bucket holds `cost` tokens again (at least 1). */
function waitFor(tokens: number, cost: number, limits: BucketLimits): number {
  const wait =
    limits.refillPerSecond > 0 ? (cost - tokens) / limits.refillPerSecond : Number.POSITIVE_INFINITY;
  return Math.max(1, Math.ceil(wait));
}

export function takeToken(prev: BucketState | null, limits: BucketLimits, now: number, cost = 1): TakeResult {
  const tokens = refilled(prev, limits, now);
  if (tokens >= cost) {
    const left = tokens - cost;
    return {
      state: { tokens: left, updatedAt: now },
      allowed: true,
      remaining: Math.floor(left),
      retryAfterSeconds: 0,
    };
  }
  return {
    state: { tokens, updatedAt: now },
    allowed: false,
    remaining: 0,
    retryAfterSeconds: waitFor(tokens, cost, limits),
  };
}

export interface LeaseResult {
  state: BucketState;
  /** Tokens handed out now (0: none available; the caller is rate limited). */
  granted: number;
  /** Whole tokens left in the bucket after this lease. */
  remaining: number;
  /** Seconds until one token is available again; 0 when some were granted. */
  retryAfterSeconds: number;
}

/**
 * Takes up to `want` whole tokens at once (at least one, or none), after returning `refund` tokens a previous
 * lease did not use (the bucket never holds more than its capacity). A caller that serves many requests keeps
 * the granted tokens and spends them without asking again, so the bucket is consulted once per lease instead of
 * once per request; it never admits more than the bucket held.
 */
export function leaseTokens(
  prev: BucketState | null,
  limits: BucketLimits,
  now: number,
  want: number,
  refund = 0,
): LeaseResult {
  const tokens = Math.min(limits.capacity, refilled(prev, limits, now) + Math.max(0, refund));
  const granted = Math.min(Math.max(1, Math.floor(want)), Math.floor(tokens));
  if (granted >= 1) {
    const left = tokens - granted;
    return {
      state: { tokens: left, updatedAt: now },
      granted,
      remaining: Math.floor(left),
      retryAfterSeconds: 0,
    };
  }
  return {
    state: { tokens, updatedAt: now },
    granted: 0,
    remaining: 0,
    retryAfterSeconds: waitFor(tokens, 1, limits),
  };
}
