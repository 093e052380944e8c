/**
 * The token bucket behind per-key rate limits (core/util/token-bucket.ts): one token per request, and leases of
 * several tokens at once that the Worker spends request by request (functions/http/rate-limit.ts).
 */
import { describe, expect, it } from 'vitest';
import { type BucketState, leaseTokens, takeToken } from '../../core/util/token-bucket.ts';

const limits = { capacity: 10, refillPerSecond: 2 };

describe('takeToken', () => {
  it('starts full, spends one token a request and refuses with the wait for the next one', () => {
    let state: BucketState | null = null;
    for (let i = 0; i < 10; i++) {
      const r = takeToken(state, limits, 0);
      expect(r).toMatchObject({ allowed: true, remaining: 9 - i });
      state = r.state;
    }
    const refused = takeToken(state, limits, 0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    // Half a second refills one token (2 per second).
    expect(takeToken(refused.state, limits, 500).allowed).toBe(true);
  });
});

describe('leaseTokens', () => {
  it('hands out what was asked while the bucket holds it, then what is left, then nothing', () => {
    const first = leaseTokens(null, limits, 0, 4);
    expect(first).toMatchObject({ granted: 4, remaining: 6 });
    const second = leaseTokens(first.state, limits, 0, 4);
    expect(second).toMatchObject({ granted: 4, remaining: 2 });
    const third = leaseTokens(second.state, limits, 0, 4);
    expect(third).toMatchObject({ granted: 2, remaining: 0 });
    const fourth = leaseTokens(third.state, limits, 0, 4);
    expect(fourth).toMatchObject({ granted: 0, remaining: 0, retryAfterSeconds: 1 });
  });

  it('never grants more in total than the bucket held plus its refill, however the leases are cut', () => {
    for (const want of [1, 3, 7, 16]) {
      let state: BucketState | null = null;
      let granted = 0;
      // 5 seconds at 2 per second refill 10 tokens on top of the 10 the bucket starts with.
      for (let now = 0; now <= 5000; now += 100) {
        const r = leaseTokens(state, limits, now, want);
        granted += r.granted;
        state = r.state;
      }
      expect(granted).toBeLessThanOrEqual(20);
      expect(granted).toBeGreaterThanOrEqual(19);
    }
  });

  it('takes back unused tokens, but never beyond the capacity', () => {
    const lease = leaseTokens(null, limits, 0, 8);
    expect(lease.remaining).toBe(2);
    // 5 tokens of the lease were not used: the bucket holds 7 again.
    const after = leaseTokens(lease.state, limits, 0, 1, 5);
    expect(after).toMatchObject({ granted: 1, remaining: 6 });
    // A refund to a full bucket is capped: it never holds more than its capacity.
    const full = leaseTokens({ tokens: 10, updatedAt: 0 }, limits, 0, 1, 8);
    expect(full.remaining).toBe(9);
  });
});
