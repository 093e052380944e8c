/**
 * Per-key rate limiting for authenticated routes through the RateLimiter Durable Object (one bucket per key
 * digest). Answers 429 problem+json with `Retry-After`; successful responses carry `RateLimit-Remaining`.
 */
import type { MiddlewareHandler } from 'hono';
import { readConfig } from '../../edge/env.ts';
import type { AppEnv } from '../app-env.ts';
import { ProblemError } from './problem.ts';

export function rateLimit(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) throw new Error('rateLimit() must run after requireKey()');
    const config = readConfig(c.env);
    // An issued key may carry its own limit (POST /v1/keys); otherwise the deployment's applies.
    const perMinute = principal.rate?.perMinute ?? config.rateLimitPerMinute;
    const burst = principal.rate?.burst ?? config.rateLimitBurst;
    const stub = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(`key:${principal.keyId}`));
    const decision = await stub.take(burst, perMinute);
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
