import { describe, expect, it } from 'vitest';
import { CallPolicy, withTimeout } from '../../../core/models/call-policy.ts';
import { Semaphore } from '../../../core/models/concurrency.ts';
import {
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from '../../../core/models/errors.ts';
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  type RetryPolicy,
  retryAfterFromHeaders,
  retryDelayMs,
  withRetry,
} from '../../../core/models/retry.ts';
import { Rng } from '../../../core/util/random.ts';

const policy: RetryPolicy = { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 30_000 };
const serverError = () => new ModelServerError('test', 503, 'unavailable');

/** Runs `withRetry` over scripted outcomes with a fake clock; returns the waits and the result or error. */
async function run(outcomes: Array<Error | string>, seed = 'retry-test', p = policy) {
  const sleeps: number[] = [];
  let attempts = 0;
  const result = await withRetry(
    async () => {
      const outcome = outcomes[attempts++];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    { policy: p, rng: new Rng(seed), sleep: async (ms) => void sleeps.push(ms) },
  ).catch((e: unknown) => e);
  return { sleeps, attempts, result };
}

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-06-01T00:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });
  it('reads an HTTP-date relative to now, never negative', () => {
    expect(parseRetryAfter('Mon, 01 Jun 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 31 May 2026 23:59:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
  it('prefers retry-after-ms over retry-after', () => {
    const headers = new Headers({ 'retry-after-ms': '250', 'retry-after': '9' });
    expect(retryAfterFromHeaders(headers, now)).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '9' }), now)).toBe(9000);
    expect(retryAfterFromHeaders(undefined, now)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles the window each retry, caps it, and keeps waits in the upper half', () => {
    const rng = new Rng('windows');
    for (let retry = 0; retry < 8; retry++) {
      const window = Math.min(1000, 100 * 2 ** retry);
      for (let i = 0; i < 50; i++) {
        const delay = backoffDelayMs(retry, policy, rng);
        expect(delay).toBeGreaterThanOrEqual(window / 2);
        expect(delay).toBeLessThan(window);
      }
    }
  });

  it('honours Retry-After as a lower bound spread by at most one base delay', () => {
    const rng = new Rng('after');
    const limited = new ModelRateLimitError('test', 'slow down', { retryAfterMs: 5000 });
    for (let i = 0; i < 50; i++) {
      const delay = retryDelayMs(limited, 0, policy, rng)!;
      expect(delay).toBeGreaterThanOrEqual(5000);
      expect(delay).toBeLessThan(5100);
    }
    const tooLong = new ModelRateLimitError('test', 'tomorrow', { retryAfterMs: 31_000 });
    expect(retryDelayMs(tooLong, 0, policy, rng)).toBeNull();
  });

  it('never retries errors that cannot succeed on a second try', () => {
    const rng = new Rng('never');
    expect(retryDelayMs(new ModelRequestError('test', 400, 'bad'), 0, policy, rng)).toBeNull();
    expect(retryDelayMs(new ModelResponseError('test', 'garbage'), 0, policy, rng)).toBeNull();
    expect(
      retryDelayMs(new ModelRateLimitError('test', 'quota', { retryable: false }), 0, policy, rng),
    ).toBeNull();
    expect(retryDelayMs(new TypeError('bug'), 0, policy, rng)).toBeNull();
  });
});

describe('withRetry', () => {
  it('retries retryable failures and returns the first success', async () => {
    const { sleeps, attempts, result } = await run([
      serverError(),
      new ModelTimeoutError('test', 10),
      'done',
    ]);
    expect(result).toBe('done');
    expect(attempts).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(50);
    expect(sleeps[0]).toBeLessThan(100);
    expect(sleeps[1]).toBeGreaterThanOrEqual(100);
    expect(sleeps[1]).toBeLessThan(200);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const last = serverError();
    const { attempts, result, sleeps } = await run([
      serverError(),
      serverError(),
      serverError(),
      serverError(),
      last,
    ]);
    expect(attempts).toBe(5);
    expect(sleeps).toHaveLength(4);
    expect(result).toBe(last);
  });

  it('throws a non-retryable error at once', async () => {
    const bad = new ModelRequestError('test', 401, 'no key');
    const { attempts, result, sleeps } = await run([bad, 'unreached']);
    expect(attempts).toBe(1);
    expect(sleeps).toEqual([]);
    expect(result).toBe(bad);
  });

  it('waits the same jittered times for the same seed, and different ones for another', async () => {
    const outcomes = () => [serverError(), serverError(), serverError(), 'ok'];
    const a = await run(outcomes(), 'seed-a');
    const b = await run(outcomes(), 'seed-a');
    const c = await run(outcomes(), 'seed-c');
    expect(a.sleeps).toEqual(b.sleeps);
    expect(a.sleeps).not.toEqual(c.sleeps);
  });

  it('stops waiting when the caller aborts', async () => {
    const controller = new AbortController();
    let attempts = 0;
    const pending = withRetry(
      async () => {
        attempts++;
        throw serverError();
      },
      {
        policy: { ...DEFAULT_RETRY_POLICY, baseDelayMs: 60_000, maxDelayMs: 60_000 },
        rng: new Rng('abort'),
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort(new Error('cancelled')), 20);
    await expect(pending).rejects.toThrow('cancelled');
    expect(attempts).toBe(1);
  });
});

describe('CallPolicy', () => {
  it('times out a task that ignores its signal, then retries it', async () => {
    let attempts = 0;
    const sleeps: number[] = [];
    const policyRun = new CallPolicy({
      provider: 'test',
      timeoutMs: 30,
      retry: { ...policy, maxRetries: 1 },
      rng: new Rng('policy'),
      semaphore: new Semaphore(1),
      sleep: async (ms) => void sleeps.push(ms),
    });
    const result = await policyRun.run(async () => {
      attempts++;
      if (attempts === 1) return new Promise<string>(() => {});
      return 'second';
    });
    expect(result).toBe('second');
    expect(attempts).toBe(2);
    expect(sleeps).toHaveLength(1);
  });

  it('withTimeout passes results and errors through and aborts the task’s signal on timeout', async () => {
    await expect(withTimeout(async () => 7, 1000, 'test')).resolves.toBe(7);
    await expect(
      withTimeout(
        async () => {
          throw new Error('inner');
        },
        1000,
        'test',
      ),
    ).rejects.toThrow('inner');
    let seen: AbortSignal | undefined;
    const error = await withTimeout(
      (signal) => {
        seen = signal;
        return new Promise(() => {});
      },
      20,
      'test',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as Error).message).toBe('test: no response within 20 ms');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(error);
  });
});
