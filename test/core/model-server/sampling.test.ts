import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import {
  choiceRng,
  pickToken,
  stableLength,
  stopIndex,
  tokenLogprob,
  topLogprobs,
} from '../../../scripts/model-server/sampling.ts';

const dist = new Map([
  [7, 0.5],
  [3, 0.3],
  [9, 0.15],
  [4, 0.05],
]);
const plain = { temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0 };
const none = new Map<number, number>();

function frequencies(params: typeof plain, counts = none, draws = 4000): Map<number, number> {
  const rng = new Rng('sampling-test');
  const seen = new Map<number, number>();
  for (let i = 0; i < draws; i++) {
    const t = pickToken(dist, counts, params, rng);
    seen.set(t, (seen.get(t) ?? 0) + 1);
  }
  return new Map([...seen].map(([t, n]) => [t, n / draws]));
}

describe('model server sampling', () => {
  it('temperature 0 takes the most probable token, and the frequency penalty can move it', () => {
    const greedy = { ...plain, temperature: 0 };
    expect(pickToken(dist, none, greedy, new Rng(1))).toBe(7);
    // ln 0.5 − 1.2·1 < ln 0.3: token 7, generated once already, loses to token 3.
    expect(pickToken(dist, new Map([[7, 1]]), { ...greedy, frequencyPenalty: 1.2 }, new Rng(1))).toBe(3);
    // The presence penalty counts presence, not repetitions: one use of 3 and of 7 alike.
    expect(pickToken(dist, new Map([[7, 5]]), { ...greedy, presencePenalty: 0.1 }, new Rng(1))).toBe(7);
  });

  it('temperature 1 draws in proportion to the model’s probabilities', () => {
    const f = frequencies(plain);
    for (const [t, p] of dist) expect(Math.abs((f.get(t) ?? 0) - p)).toBeLessThan(0.03);
  });

  it('top_p keeps the smallest set of tokens whose mass reaches it', () => {
    const f = frequencies({ ...plain, topP: 0.75 });
    expect([...f.keys()].sort()).toEqual([3, 7]);
    expect(Math.abs((f.get(7) ?? 0) - 0.5 / 0.8)).toBeLessThan(0.03);
  });

  it('a low temperature sharpens the distribution', () => {
    const f = frequencies({ ...plain, temperature: 0.25 });
    // (0.5/0.3)^4 ≈ 7.7: token 7 takes ≈ 88 % of the draws against the 50 % of temperature 1.
    expect(f.get(7) ?? 0).toBeGreaterThan(0.8);
  });

  it('the same seed and choice index repeat a draw; another index gives another stream', () => {
    const draw = (rng: Rng) => Array.from({ length: 20 }, () => pickToken(dist, none, plain, rng));
    expect(draw(choiceRng(5, 0))).toEqual(draw(choiceRng(5, 0)));
    expect(draw(choiceRng(5, 0))).not.toEqual(draw(choiceRng(5, 1)));
  });

  it('log-probabilities are the model’s own, before temperature and penalties', () => {
    expect(tokenLogprob(dist, 3)).toBeCloseTo(Math.log(0.3));
    expect(tokenLogprob(dist, 99)).toBe(Number.NEGATIVE_INFINITY);
    expect(topLogprobs(dist, 2)).toEqual([
      { id: 7, logprob: Math.log(0.5) },
      { id: 3, logprob: Math.log(0.3) },
    ]);
    expect(topLogprobs(dist, 0)).toEqual([]);
  });

  it('finds the earliest stop string and holds back text that could still become one', () => {
    expect(stopIndex('Action: Finish\nObservation: x', ['Observation:', '\n'])).toBe(14);
    expect(stopIndex('no stop here', ['Observation:'])).toBe(-1);
    expect(stopIndex('abc', [''])).toBe(-1);
    expect(stableLength('Thought: ok\nObserv', ['Observation:'])).toBe('Thought: ok\n'.length);
    expect(stableLength('Thought: ok', ['Observation:'])).toBe('Thought: ok'.length);
    // A cut multi-byte character is not shown until it is complete.
    expect(stableLength('caf\uFFFD', [])).toBe(3);
  });
});
