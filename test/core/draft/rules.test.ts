/** DRAFT's constants and its two rules: φ with three attempts, τ on Δ = (BLEU + cos) / 2, I iterations. */
import { describe, expect, it } from 'vitest';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { converged, deltaOf, diversityVerdict } from '../../../core/draft/rules.ts';

const base = { phi: 0.9, attempts: 3, enabled: true };

describe('DRAFT settings', () => {
  it('defaults to the paper: I = 5, temperature 0.2, φ = 0.9 with 3 attempts, τ = 0.75, 2,048-character responses', () => {
    const o = resolveDraftOptions();
    expect(o).toMatchObject({
      iterations: 5,
      temperature: 0.2,
      topP: 1,
      maxTokens: 2000,
      phi: 0.9,
      diversityAttempts: 3,
      tau: 0.75,
      responseChars: 2048,
      diversity: true,
      adaptiveTermination: true,
    });
  });

  it('rejects unknown keys and out-of-range values', () => {
    expect(() => resolveDraftOptions({ phi: 1.5 })).toThrow();
    expect(() => resolveDraftOptions({ iterations: 0 })).toThrow();
    expect(() => resolveDraftOptions({ tua: 0.5 } as never)).toThrow();
  });
});

describe('diversity rule (φ)', () => {
  it('accepts a query only when it is below φ against every earlier query', () => {
    expect(diversityVerdict({ ...base, similarities: [0.2, 0.89], attempt: 1, iteration: 2 })).toEqual({
      accept: true,
      reason: 'diverse',
    });
    expect(diversityVerdict({ ...base, similarities: [0.2, 0.9], attempt: 1, iteration: 2 })).toEqual({
      accept: false,
      maxSimilarity: 0.9,
    });
    expect(diversityVerdict({ ...base, similarities: [0.95, 0.1], attempt: 2, iteration: 3 }).accept).toBe(
      false,
    );
  });

  it('accepts the third attempt regardless', () => {
    const sims = [0.99];
    expect(diversityVerdict({ ...base, similarities: sims, attempt: 2, iteration: 2 }).accept).toBe(false);
    expect(diversityVerdict({ ...base, similarities: sims, attempt: 3, iteration: 2 })).toEqual({
      accept: true,
      reason: 'last-attempt',
    });
  });

  it('skips the check in iteration 1 and accepts everything in the w/o-diversity ablation', () => {
    expect(diversityVerdict({ ...base, similarities: [1], attempt: 1, iteration: 1 }).accept).toBe(true);
    expect(
      diversityVerdict({ ...base, enabled: false, similarities: [1], attempt: 1, iteration: 4 }),
    ).toEqual({
      accept: true,
      reason: 'ablation',
    });
  });
});

describe('termination rule (τ)', () => {
  it('averages BLEU and cosine and stops only when Δ is strictly above τ', () => {
    expect(deltaOf(0.5, 1).delta).toBe(0.75);
    expect(converged(deltaOf(0.5, 1).delta, 0.75)).toBe(false);
    expect(converged(deltaOf(0.52, 1).delta, 0.75)).toBe(true);
  });
});
