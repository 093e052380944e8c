/**
 * One token bucket per API key (the object's name is the key's digest, never the key). SQLite-backed: the
 * bucket survives eviction and restarts, so a client cannot reset its allowance by waiting for the object to
 * be evicted. The bucket logic itself is `takeToken` in core and knows nothing of Durable Objects.
 */
import { DurableObject } from 'cloudflare:workers';
import { type BucketState, type LeaseResult, leaseTokens, takeToken } from '../core/util/token-bucket.ts';

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until one token is available (0 when allowed). */
  retryAfterSeconds: number;
}

const STATE_KEY = 'bucket';

export class RateLimiter extends DurableObject {
  /** Takes `cost` tokens from a bucket of `capacity` refilled at `perMinute` tokens per minute. */
  async take(capacity: number, perMinute: number, cost = 1): Promise<RateDecision> {
    const now = Date.now();
    const state = (await this.ctx.storage.get<BucketState>(STATE_KEY)) ?? null;
    const result = takeToken(state, { capacity, refillPerSecond: perMinute / 60 }, now, cost);
    await this.ctx.storage.put(STATE_KEY, result.state);
    return {
      allowed: result.allowed,
      remaining: result.remaining,
      retryAfterSeconds: result.retryAfterSeconds,
    };
  }

  /**
   * Hands out up to `want` tokens at once (a lease the Worker spends request by request, functions/http/rate-limit.ts),
   * after taking back `refund` tokens of an earlier lease that were not used.
   */
  async lease(
    capacity: number,
    perMinute: number,
    want: number,
    refund = 0,
  ): Promise<Omit<LeaseResult, 'state'>> {
    const state = (await this.ctx.storage.get<BucketState>(STATE_KEY)) ?? null;
    const { state: next, ...result } = leaseTokens(
      state,
      { capacity, refillPerSecond: perMinute / 60 },
      Date.now(),
      want,
      refund,
    );
    await this.ctx.storage.put(STATE_KEY, next);
    return result;
  }

  /** Current bucket without taking a token (for diagnostics and tests). */
  async peek(): Promise<BucketState | null> {
    return (await this.ctx.storage.get<BucketState>(STATE_KEY)) ?? null;
  }

  /** Liveness probe used by /health: proves the object runs and its storage answers. */
  async ping(): Promise<{ ok: true; storage: 'sqlite' }> {
    this.ctx.storage.sql.exec('SELECT 1');
    return { ok: true, storage: 'sqlite' };
  }
}
