/**
 * Continual learning's rehearsal (spec `ste.md`, "Continual learning"; paper §4.4, Table 3): each round's training
 * set adds a replay sample of 10 % of each earlier round's exemplars, sampled with the earlier round's id as the
 * seed. The authors' `llama-recipes/data_proc_format.py` seeds numpy with the batch id and draws
 * `round(0.1 × len)` exemplars without replacement (Python's `round`: halves to even, so 45 exemplars give 4 and
 * 55 give 6); tooldrift's seeded generator replaces numpy's, the count is the same. Each drawn exemplar brings
 * both of its records (the call and the answer). Without rehearsal only the current round's exemplars are used.
 */
import { pyRound } from '../util/python-format.ts';
import { Rng } from '../util/random.ts';
import { STE_REHEARSAL_FRACTION } from './constants.ts';

export interface SteRound<T> {
  /** The round (batch) id: the seed of its replay sample. */
  id: string;
  exemplars: readonly T[];
}

/** How many of an earlier round's n exemplars are replayed: Python's `round(fraction × n)`. */
export function rehearsalCount(n: number, fraction = STE_REHEARSAL_FRACTION): number {
  if (!(fraction >= 0 && fraction <= 1))
    throw new RangeError(`rehearsal fraction must be in [0, 1], got ${fraction}`);
  return Math.min(n, pyRound(fraction * n, 0));
}

/** The replay sample of one earlier round: `rehearsalCount(n)` exemplars drawn with the round id as seed. */
export function rehearsalSample<T>(round: SteRound<T>, fraction = STE_REHEARSAL_FRACTION): T[] {
  const count = rehearsalCount(round.exemplars.length, fraction);
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
