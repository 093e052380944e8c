import { describe, expect, it } from 'vitest';
import {
  applyFaultToBody,
  decideFaults,
  effectiveFaultSpec,
  type FaultConfig,
  FaultConfigError,
  type FaultConfigInput,
  type FaultDecision,
  type FaultKind,
  NO_FAULTS,
  parseFaultConfig,
  validateFaultConfig,
} from '../../../core/surfaces/faults.ts';

const TOOLS = ['InitializeDatabase', 'Apply_Database_Filters', 'FetchValue_ByKey', 'Finish'];

/** A seeded run: `sessions` sessions of `calls` calls each, cycling through the tools. */
function run(config: FaultConfig | undefined, seed: string, sessions = 20, calls = 300): FaultDecision[] {
  const out: FaultDecision[] = [];
  for (let s = 0; s < sessions; s++) {
    for (let i = 0; i < calls; i++) {
      out.push(
        decideFaults(config, {
          seed,
          sessionId: `session-${s}`,
          callIndex: i,
          tool: TOOLS[i % TOOLS.length] as string,
        }),
      );
    }
  }
  return out;
}

const count = (ds: FaultDecision[], kind: FaultKind) => ds.filter((d) => d.faults.includes(kind)).length;

/**
 * Binomial tolerance: the count of a fault with rate p over n calls has mean n·p and standard deviation
 * sqrt(n·p·(1−p)); a count more than 4 standard deviations away (probability < 1e-4 for a correct sampler) fails.
 */
function expectBinomial(observed: number, n: number, p: number) {
  const sd = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(observed - n * p), `observed ${observed} of ${n} at rate ${p}`).toBeLessThanOrEqual(4 * sd);
}

const mixed = parseFaultConfig({
  surface: {
    fixedDelayMs: 20,
    delayDistribution: { type: 'uniform', minMs: 10, maxMs: 50 },
    rateLimit: { rate: 0.05, retryAfterSeconds: 7 },
    serverError: { rate: 0.1, status: 503, body: '{"error": "unavailable"}' },
    malformedBody: { rate: 0.08 },
    truncatedBody: { rate: 0.12, fraction: { min: 0.2, max: 0.8 } },
  },
});

describe('decideFaults: rates over a seeded run', () => {
  const decisions = run(mixed, 'rates', 20, 300); // 6,000 calls
  const n = decisions.length;

  it('produces each outcome fault at its configured rate (within 4 binomial standard deviations)', () => {
    expect(n).toBe(6000);
    expectBinomial(count(decisions, 'rate-limit'), n, 0.05);
    expectBinomial(count(decisions, 'server-error'), n, 0.1);
    expectBinomial(count(decisions, 'malformed-body'), n, 0.08);
    expectBinomial(count(decisions, 'truncated-body'), n, 0.12);
  });

  it('keeps the outcome faults exclusive and composes the delay with all of them', () => {
    for (const d of decisions) {
      const outcomes = d.faults.filter((k) => k !== 'delay');
      expect(outcomes.length).toBeLessThanOrEqual(1);
      expect(d.faults[0]).toBe('delay');
      expect(d.delayMs).toBeGreaterThanOrEqual(30);
      expect(d.delayMs).toBeLessThanOrEqual(70);
      expect(Number.isInteger(d.delayMs)).toBe(true);
      if (outcomes[0] === 'rate-limit') {
        expect(d.response).toEqual({
          status: 429,
          headers: { 'Retry-After': '7' },
          body: 'Too Many Requests',
        });
        expect(d.body).toBeNull();
      } else if (outcomes[0] === 'server-error') {
        expect(d.response).toEqual({ status: 503, headers: {}, body: '{"error": "unavailable"}' });
        expect(d.body).toBeNull();
      } else if (outcomes[0] === 'truncated-body') {
        expect(d.response).toBeNull();
        expect(d.body?.kind).toBe('truncated');
        const f = d.body?.kind === 'truncated' ? d.body.fraction : Number.NaN;
        expect(f >= 0.2 && f < 0.8).toBe(true);
      } else if (outcomes[0] === 'malformed-body') {
        expect(d.response).toBeNull();
        expect(d.body?.kind).toBe('malformed');
      } else {
        expect(d.response).toBeNull();
        expect(d.body).toBeNull();
      }
    }
  });

  it('draws uniform delays with the right mean and both ends reachable', () => {
    const extra = decisions.map((d) => d.delayMs - 20);
    const mean = extra.reduce((a, b) => a + b, 0) / n;
    // Uniform over the 41 integers 10..50: mean 30, variance (41² − 1) / 12.
    const sdOfMean = Math.sqrt((41 * 41 - 1) / 12 / n);
    expect(Math.abs(mean - 30)).toBeLessThanOrEqual(4 * sdOfMean);
    expect(Math.min(...extra)).toBe(10);
    expect(Math.max(...extra)).toBe(50);
  });

  it('draws lognormal delays around the median and exponential ones around the mean, within their caps', () => {
    const logn = run(
      parseFaultConfig({
        surface: { delayDistribution: { type: 'lognormal', medianMs: 200, sigma: 0.5, maxMs: 2000 } },
      }),
      'logn',
    );
    // Half the draws lie below the median: a binomial count with p = 0.5.
    expectBinomial(logn.filter((d) => d.delayMs < 200).length, logn.length, 0.5);
    expect(Math.max(...logn.map((d) => d.delayMs))).toBeLessThanOrEqual(2000);

    const expo = run(
      parseFaultConfig({ surface: { delayDistribution: { type: 'exponential', meanMs: 100 } } }),
      'expo',
    );
    const mean = expo.reduce((a, d) => a + d.delayMs, 0) / expo.length;
    // Standard deviation of an exponential equals its mean; rounding to whole ms moves the mean by < 0.5.
    expect(Math.abs(mean - 100)).toBeLessThanOrEqual(4 * (100 / Math.sqrt(expo.length)) + 0.5);
  });
});

describe('decideFaults: determinism', () => {
  it('reproduces exactly the same decisions from the same seed, in any call order', () => {
    const first = run(mixed, 'replay', 5, 200);
    expect(run(mixed, 'replay', 5, 200)).toEqual(first);
    // Sessions interleaved in another order still meet the same faults: nothing depends on timing or history.
    const reversed: FaultDecision[] = [];
    for (let s = 4; s >= 0; s--) {
      for (let i = 199; i >= 0; i--) {
        reversed[s * 200 + i] = decideFaults(mixed, {
          seed: 'replay',
          sessionId: `session-${s}`,
          callIndex: i,
          tool: TOOLS[i % TOOLS.length] as string,
        });
      }
    }
    expect(reversed).toEqual(first);
  });

  it('gives different faults for different seeds, sessions and tools', () => {
    const a = run(mixed, 'seed-a', 5, 200).map((d) => d.faults.join('+'));
    const b = run(mixed, 'seed-b', 5, 200).map((d) => d.faults.join('+'));
    const differing = a.filter((x, i) => x !== b[i]).length;
    // Two independent runs disagree on about 1 − Σp² ≈ 53% of calls; far more than a handful must differ.
    expect(differing).toBeGreaterThan(300);

    const ctx = { seed: 's', sessionId: 'x', callIndex: 3, tool: 'Finish' };
    const delays = (vary: Partial<typeof ctx>) =>
      Array.from(
        { length: 20 },
        (_, k) => decideFaults(mixed, { ...ctx, ...vary, callIndex: k }).delayMs,
      ).join();
    expect(delays({})).not.toBe(delays({ sessionId: 'y' }));
    expect(delays({})).not.toBe(delays({ tool: 'FetchValue_ByKey' }));
  });

  it('does not move which calls fail when only the delay settings change', () => {
    const withoutDelay = parseFaultConfig({
      surface: { ...mixed.surface, fixedDelayMs: null, delayDistribution: null },
    });
    const outcomes = (ds: FaultDecision[]) => ds.map((d) => d.faults.filter((k) => k !== 'delay').join());
    expect(outcomes(run(withoutDelay, 'stable', 3, 200))).toEqual(outcomes(run(mixed, 'stable', 3, 200)));
  });

  it('rejects a call index that is not a position', () => {
    expect(() => decideFaults(mixed, { seed: 1, sessionId: 's', callIndex: -1, tool: 'Finish' })).toThrow(
      RangeError,
    );
    expect(() => decideFaults(mixed, { seed: 1, sessionId: 's', callIndex: 1.5, tool: 'Finish' })).toThrow(
      RangeError,
    );
  });
});

describe('off by default', () => {
  it('injects nothing without a config, with an empty config, or with zero rates', () => {
    const zero = parseFaultConfig({
      surface: {
        fixedDelayMs: 0,
        serverError: { rate: 0 },
        rateLimit: { rate: 0 },
        truncatedBody: { rate: 0 },
      },
    });
    for (const config of [undefined, parseFaultConfig(undefined), parseFaultConfig({}), zero]) {
      for (const d of run(config, 'quiet', 2, 300)) expect(d).toEqual(NO_FAULTS);
    }
    expect(applyFaultToBody(NO_FAULTS, '{"a": 1}')).toBe('{"a": 1}');
  });
});

describe('per-tool settings', () => {
  const config = parseFaultConfig({
    surface: { fixedDelayMs: 100, serverError: { rate: 1 } },
    tools: {
      Finish: { serverError: null },
      InitializeDatabase: { serverError: { rate: 1, status: 502, body: 'bad gateway' }, fixedDelayMs: 5 },
      FetchValue_ByKey: { rateLimit: { rate: 1, retryAfterSeconds: 30 }, serverError: { rate: 0 } },
    },
  });
  const decide = (tool: string, callIndex = 0) =>
    decideFaults(config, { seed: 'tools', sessionId: 's', callIndex, tool });

  it('overrides the surface key by key and inherits the rest', () => {
    expect(decide('Apply_Database_Filters')).toEqual({
      faults: ['delay', 'server-error'],
      delayMs: 100,
      response: { status: 500, headers: {}, body: 'Internal Server Error' },
      body: null,
    });
    expect(decide('InitializeDatabase')).toEqual({
      faults: ['delay', 'server-error'],
      delayMs: 5,
      response: { status: 502, headers: {}, body: 'bad gateway' },
      body: null,
    });
    expect(decide('FetchValue_ByKey').response).toEqual({
      status: 429,
      headers: { 'Retry-After': '30' },
      body: 'Too Many Requests',
    });
    for (let i = 0; i < 200; i++)
      expect(decide('Finish', i)).toEqual({ faults: ['delay'], delayMs: 100, response: null, body: null });
    expect(effectiveFaultSpec(config, 'Finish')).toEqual({ fixedDelayMs: 100, serverError: null });
  });

  it('applies a tool setting without any surface setting', () => {
    const only = parseFaultConfig({ tools: { Finish: { malformedBody: { rate: 1 } } } });
    expect(decideFaults(only, { seed: 1, sessionId: 's', callIndex: 0, tool: 'Finish' }).faults).toEqual([
      'malformed-body',
    ]);
    expect(decideFaults(only, { seed: 1, sessionId: 's', callIndex: 0, tool: 'LoadDB' })).toEqual(NO_FAULTS);
    // Names are matched exactly, never through the prototype chain.
    expect(decideFaults(only, { seed: 1, sessionId: 's', callIndex: 0, tool: 'toString' })).toEqual(
      NO_FAULTS,
    );
  });
});

describe('applyFaultToBody', () => {
  const body = JSON.stringify({
    State: 'Success',
    Message: 'We have successfully loaded the flights database.',
  });
  const bodies = run(
    parseFaultConfig({
      surface: { malformedBody: { rate: 0.5 }, truncatedBody: { rate: 0.5, fraction: 0.25 } },
    }),
    'bodies',
    2,
    200,
  );

  it('splices garbage into a malformed body, which no longer parses as JSON', () => {
    const malformed = bodies.filter((d) => d.body?.kind === 'malformed');
    expect(malformed.length).toBeGreaterThan(100);
    for (const d of malformed) {
      const out = applyFaultToBody(d, body);
      const fault = d.body?.kind === 'malformed' ? d.body : null;
      const at = Math.floor((fault?.at ?? 0) * body.length);
      expect(out).toBe(body.slice(0, at) + fault?.garbage + body.slice(at));
      expect(fault?.garbage.length).toBeGreaterThanOrEqual(8);
      expect(() => JSON.parse(out)).toThrow();
      expect(applyFaultToBody(d, '')).toBe(fault?.garbage);
    }
  });

  it('cuts a truncated body at its fraction, never inside a surrogate pair', () => {
    const truncated = bodies.find((d) => d.body?.kind === 'truncated') as FaultDecision;
    expect(applyFaultToBody(truncated, body)).toBe(body.slice(0, Math.floor(body.length / 4)));
    expect(applyFaultToBody(truncated, '')).toBe('');
    // 'ab😀cd': the cut at 0.25 · 6 = 1 is safe; at 0.5 · 6 = 3 it would split the emoji.
    expect(applyFaultToBody(truncated, 'ab😀cd')).toBe('a');
    expect(applyFaultToBody({ ...truncated, body: { kind: 'truncated', fraction: 0.5 } }, 'ab😀cd')).toBe(
      'ab',
    );
  });

  it('leaves the body alone when the answer is replaced or only delayed', () => {
    const replaced = decideFaults(parseFaultConfig({ surface: { serverError: { rate: 1 } } }), {
      seed: 1,
      sessionId: 's',
      callIndex: 0,
      tool: 'Finish',
    });
    expect(applyFaultToBody(replaced, body)).toBe(body);
  });
});

describe('fault config validation', () => {
  const problems = (value: FaultConfigInput | Record<string, unknown>) => {
    const r = validateFaultConfig(value);
    return r.ok ? [] : r.problems;
  };

  it('fills in defaults', () => {
    expect(
      parseFaultConfig({
        surface: { serverError: { rate: 0.1 }, rateLimit: { rate: 0.1 }, truncatedBody: { rate: 0.1 } },
      }),
    ).toEqual({
      surface: {
        serverError: { rate: 0.1, status: 500, body: 'Internal Server Error' },
        rateLimit: { rate: 0.1, retryAfterSeconds: 1, body: 'Too Many Requests' },
        truncatedBody: { rate: 0.1, fraction: 0.5 },
      },
    });
  });

  it('names every bad value', () => {
    expect(
      problems({
        surface: {
          fixedDelayMs: -5,
          serverError: { rate: 1.5, status: 404 },
          delayDistribution: { type: 'uniform', minMs: 50, maxMs: 10 },
        },
        tools: { Finish: { truncatedBody: { rate: 0.1, fraction: 1 }, retries: 3 } },
      }),
    ).toEqual([
      'surface.fixedDelayMs: Too small: expected number to be >=0',
      'surface.delayDistribution.maxMs: minMs must not exceed maxMs',
      'surface.serverError.rate: a rate is a probability in [0, 1]',
      'surface.serverError.status: a server error has a 5xx status',
      'tools.Finish.truncatedBody.fraction: a cut fraction lies strictly between 0 and 1',
      'tools.Finish: Unrecognized key: "retries"',
    ]);
    expect(problems({ surface: { delayDistribution: { type: 'gamma', shape: 2 } } })).toEqual([
      "surface.delayDistribution.type: Invalid discriminator value. Expected 'uniform' | 'lognormal' | 'exponential'",
    ]);
    expect(problems({ surface: { rateLimit: { rate: 0.1, retryAfterSeconds: 1.5 } } })).toEqual([
      'surface.rateLimit.retryAfterSeconds: Invalid input: expected int, received number',
    ]);
    expect(problems({ surface: { fixedDelayMs: 120_001 } })).toEqual([
      'surface.fixedDelayMs: Too big: expected number to be <=120000',
    ]);
  });

  it('rejects exclusive rates that add up to more than 1, for the surface and for each tool', () => {
    expect(
      problems({
        surface: { rateLimit: { rate: 0.1 }, serverError: { rate: 0.2 }, truncatedBody: { rate: 0.7 } },
      }),
    ).toEqual([]);
    expect(
      problems({
        surface: { rateLimit: { rate: 0.6 }, serverError: { rate: 0.3 } },
        tools: {
          Finish: { malformedBody: { rate: 0.2 } },
          LoadDB: { rateLimit: null, malformedBody: { rate: 0.2 } },
        },
      }),
    ).toEqual([
      'tools.Finish: the rates of rateLimit, serverError, malformedBody and truncatedBody for tool Finish add up to 1.1; they exclude each other, so at most 1',
    ]);
  });

  it('throws a FaultConfigError carrying the problems', () => {
    expect(() => parseFaultConfig({ surface: { malformedBody: { rate: -1 } } })).toThrow(
      new FaultConfigError(['surface.malformedBody.rate: a rate is a probability in [0, 1]']),
    );
    expect(() => parseFaultConfig({ everything: true })).toThrow(/Unrecognized key: "everything"/);
  });
});
