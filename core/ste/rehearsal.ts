/**
 * Continual learning's rehearsal (spec `ste.md`, "Continual learning"): each round's training set adds a replay
 * sample of 10 % of each earlier round's exemplars, sampled with the earlier round's id as the seed (the authors'
 * code seeds Python's `random` with the batch id and takes `int(len × 0.1)` items; tooldrift's seeded generator
 * replaces Python's, the count is the same floor). Without rehearsal only the current round's exemplars are used.
 */
import { Rng } from '../util/random.ts';
import { STE_REHEARSAL_FRACTION } from './constants.ts';

export interface SteRound<T> {
  /** The round (batch) id: the seed of its replay sample. */
  id: string;
  exemplars: readonly T[];
}

/** The replay sample of one earlier round: `floor(n × fraction)` exemplars drawn with the round id as seed. */
export function rehearsalSample<T>(round: SteRound<T>, fraction = STE_REHEARSAL_FRACTION): T[] {
  if (!(fraction >= 0 && fraction <= 1))
    throw new RangeError(`rehearsal fraction must be in [0, 1], got ${fraction}`);
  const count = Math.floor(round.exemplars.length * fraction);
  return new Rng(`ste-rehearsal/${round.id}`).sample(round.exemplars, count);
}

/** The exemplars of the current round plus, with rehearsal, the replay samples of every earlier round. */
export function roundTrainingSet<T>(
  current: SteRound<T>,
  earlier: readonly SteRound<T>[],
  opts: { rehearsal: boolean; fraction?: number },
): T[] {
  const out = [...current.exemplars];
  if (opts.rehearsal) for (const r of earlier) out.push(...rehearsalSample(r, opts.fraction));
  return out;
}
