/**
 * Per-key rate limiting for authenticated routes through the RateLimiter Durable Object (one bucket per key
 * digest). Answers 429 problem+json with `Retry-After`; successful responses carry `RateLimit-Remaining`.
 *
 * Tokens are leased, not fetched one by one: an isolate takes up to `leaseSize(burst)` tokens from the key's
 * bucket at once (the object's `lease`) and spends them on that key's next requests for at most `LEASE_MS`,
 * handing back what it did not use with its next lease. A Durable Object round trip per request was a tenth of
 * a kernel call's cost (issue 24 item 5); the bucket still never admits more than it holds — a lease only moves
 * tokens it took into an isolate's hands, where another isolate cannot use them until they are handed back.
 * Concurrent requests of one key share one lease request: the others wait for it on timers of their own and then
 * read the lease it left (`leases` is plain data). They never await the leasing request's promise: that is I/O of
 * another request, and workerd fails such an await ("Cannot perform I/O on behalf of a different request", a 500
 * under sustained load). A request that waited LEASE_WAIT_MS leases by itself.
 */
import type { MiddlewareHandler } from 'hono';
import { SingleFlight, sleep } from '../../core/util/single-flight.ts';
import { readConfig } from '../../edge/env.ts';
import type { AppEnv } from '../app-env.ts';
import { ProblemError } from './problem.ts';

/** How long an isolate keeps leased tokens before handing the rest back. */
export const LEASE_MS = 1_000;

/** Tokens one lease asks for: an eighth of the burst, between 1 and 16 (a burst of 30 leases 3). */
export function leaseSize(burst: number): number {
  return Math.max(1, Math.min(16, Math.floor(burst / 8)));
}

interface Lease {
  tokens: number;
  until: number;
  /** What the bucket held after the lease (for RateLimit-Remaining). */
  remaining: number;
}

/** The longest a request waits for another request's lease before leasing itself. */
export const LEASE_WAIT_MS = 250;

/** This isolate's leases by bucket name, and the lease requests in flight. */
const leases = new Map<string, Lease>();
const leasing = new SingleFlight(LEASE_WAIT_MS);

type Bucket = Pick<AppEnv['Bindings'], 'RATE_LIMITER'>;

/** Asks the bucket for a lease (handing back an expired one's tokens); null when granted, else the wait. */
async function renew(
  env: Bucket,
  name: string,
  burst: number,
  perMinute: number,
): Promise<{ retryAfterSeconds: number } | null> {
  const old = leases.get(name);
  const refund = old ? old.tokens : 0;
  leases.delete(name);
  const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(name));
  const result = await stub.lease(burst, perMinute, leaseSize(burst), refund);
  if (result.granted === 0) return { retryAfterSeconds: result.retryAfterSeconds };
  leases.set(name, { tokens: result.granted, until: Date.now() + LEASE_MS, remaining: result.remaining });
  return null;
}

/** Takes one token for `name`: from this isolate's lease, or from a new one; the wait when none is left. */
export async function takeLeased(
  env: Bucket,
  name: string,
  burst: number,
  perMinute: number,
): Promise<{ allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number }> {
  for (;;) {
    const lease = leases.get(name);
    if (lease && lease.tokens >= 1 && Date.now() < lease.until) {
      lease.tokens -= 1;
      return { allowed: true, remaining: lease.remaining + lease.tokens };
    }
    if (leasing.busy(name)) {
      // Another request of this key is leasing: share its lease (or lease again when it is spent).
      await sleep(1);
      continue;
    }
    const refused = await leasing.run(name, () => renew(env, name, burst, perMinute));
    if (refused) return { allowed: false, ...refused };
  }
}

export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) throw new Error('rateLimit() must run after requireKey()');
    const config = readConfig(c.env);
    // An issued key may carry its own limit (POST /v1/keys); otherwise the deployment's applies.
    const perMinute = principal.rate?.perMinute ?? config.rateLimitPerMinute;
    const burst = principal.rate?.burst ?? config.rateLimitBurst;
    const decision = await takeLeased(c.env, `key:${principal.keyId}`, burst, perMinute);
    if (!decision.allowed) {
      throw new ProblemError('rate-limited', {
        detail: `Rate limit of ${perMinute} requests per minute (burst ${burst}) exceeded for this key.`,
        headers: { 'retry-after': String(decision.retryAfterSeconds) },
        extensions: { retryAfterSeconds: decision.retryAfterSeconds },
      });
    }
    await next();
    c.res.headers.set('ratelimit-remaining', String(decision.remaining));
  };
}
