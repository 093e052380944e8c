/**
 * The one retry policy of the model layer: retryable failures (429, 5xx, timeouts, dropped connections) are
 * sent again after an exponential backoff with jitter, or after the server's Retry-After when it gave one.
 * Jitter comes from a seeded `Rng`, so a run's waits are reproducible; `sleep` is injectable, so tests check
 * the timing without waiting. Provider clients are configured never to retry on their own.
 */
import type { Rng } from '../util/random.ts';
import { isRetryable, retryAfterOf } from './errors.ts';

export interface RetryPolicy {
  /** Retries after the first attempt (0 = a single attempt). */
  maxRetries: number;
  /** The first backoff window; window n is baseDelayMs · 2^n, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown at once. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 16_000,
  maxRetryAfterMs: 60_000,
};

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Waits `ms` milliseconds (setTimeout exists in Node and workerd); rejects with the signal's reason on abort. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Parses an HTTP Retry-After value, either delta-seconds (`120`, fractions tolerated) or an HTTP-date
 * (`Wed, 21 Oct 2015 07:28:00 GMT`), into milliseconds from `nowMs`. Unparseable values give undefined; a
 * date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP-date form names its month; without the check Date.parse reads "-5" as a year.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The wait a response's headers ask for: `retry-after-ms` (sent by OpenAI and some gateways) wins over
 * `retry-after`.
 */
export function retryAfterFromHeaders(
  headers: { get(name: string): string | null } | undefined,
  nowMs: number,
): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms != null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.round(Number(ms));
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}

/**
 * Backoff before retry number `retry` (0-based): "equal jitter", half the window fixed and half drawn from
 * the Rng, so waits never collapse to zero (as full jitter allows) yet concurrent callers still spread out.
 */
export function backoffDelayMs(retry: number, policy: RetryPolicy, rng: Rng): number {
  const window = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry);
  return window / 2 + rng.float(0, window / 2);
}

/**
 * The wait before retrying after `error`, or null when it must not be retried: not retryable, or the server
 * asked for a wait longer than `maxRetryAfterMs`. A Retry-After is honoured as a lower bound and spread by up
 * to one base delay, so callers released at the same instant do not return together.
 */
export function retryDelayMs(error: unknown, retry: number, policy: RetryPolicy, rng: Rng): number | null {
  if (!isRetryable(error)) return null;
  const after = retryAfterOf(error);
  if (after !== undefined) {
    if (after > policy.maxRetryAfterMs) return null;
    return after + rng.float(0, policy.baseDelayMs);
  }
  return backoffDelayMs(retry, policy, rng);
}

export interface RetryEvent {
  /** 0-based number of the retry about to happen. */
  retry: number;
  delayMs: number;
  error: unknown;
}

export interface RetryOptions {
  policy: RetryPolicy;
  rng: Rng;
  sleep?: Sleep;
  signal?: AbortSignal | undefined;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Runs `attempt` until it succeeds, throws something not worth retrying, or the retries are used up (then the
 * last error is thrown as it is). The caller's abort signal stops the wait between attempts.
 */
export async function withRetry<T>(
  attempt: (index: number) => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const sleep = options.sleep ?? realSleep;
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (error) {
      if (options.signal?.aborted || index >= options.policy.maxRetries) throw error;
      const delayMs = retryDelayMs(error, index, options.policy, options.rng);
      if (delayMs === null) throw error;
      options.onRetry?.({ retry: index, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }
}
