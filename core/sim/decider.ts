/**
 * Where the simulated policy's choices come from, and how probable the chosen path was.
 *
 * - Greedy (temperature 0): a behavioural choice in a situation is fixed by the situation — the uniform number
 *   it is compared with comes from a hash of (policy seed, prompt text, choice label), not from the request seed
 *   or the candidate index. So greedy output is a function of the prompt alone (repeatable, identical for every
 *   candidate and seed), and a knob p means "the policy's most likely step is right in a fraction p of the
 *   situations" — which keeps greedy success graded in p instead of jumping at p = 0.5. Stylistic choices
 *   (which of several equivalent wordings) take the first option.
 * - Sampling (temperature > 0): every choice draws from one stream seeded by (request seed, prompt hash,
 *   candidate index), so candidates differ and the same seed repeats them.
 *
 * The decider adds up the log-probability of every choice it makes (p or 1 − p for a chance, w/Σw for a
 * weighted pick, 1/m for a wording): the log-probability of the step under the simulator's own sampling process
 * (a lower bound on the text's probability, since different choice paths could write the same text).
 */
import { Rng } from '../util/random.ts';

export type DecisionSource = { kind: 'greedy'; key: string } | { kind: 'sample'; rng: Rng };

export class Decider {
  /** Sum of the natural-log probabilities of the choices made so far. */
  logprob = 0;
  /** Number of choices made (for diagnostics). */
  choices = 0;

  constructor(private readonly source: DecisionSource) {}

  get greedy(): boolean {
    return this.source.kind === 'greedy';
  }

  private uniform(label: string): number {
    return this.source.kind === 'greedy'
      ? new Rng(`${this.source.key}/${label}`).next()
      : this.source.rng.next();
  }

  /** True with probability p (a behavioural choice; `label` names the situation, unique within one step). */
  chance(label: string, p: number): boolean {
    this.choices++;
    if (p <= 0) return false;
    if (p >= 1) return true;
    const yes = this.uniform(label) < p;
    this.logprob += Math.log(yes ? p : 1 - p);
    return yes;
  }

  /** One item, with probability proportional to its weight (a behavioural choice). */
  weighted<T>(label: string, items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (const w of weights) total += w;
    if (items.length === 0 || total <= 0) throw new RangeError(`Decider.weighted(${label}): nothing to pick`);
    this.choices++;
    let r = this.uniform(label) * total;
    for (let i = 0; i < items.length; i++) {
      const w = weights[i] as number;
      r -= w;
      if (r < 0 && w > 0) {
        this.logprob += Math.log(w / total);
        return items[i] as T;
      }
    }
    const last = weights.findLastIndex((w) => w > 0);
    this.logprob += Math.log((weights[last] as number) / total);
    return items[last] as T;
  }

  /** One of several equivalent wordings: the first when greedy, a uniform pick when sampling. */
  style<T>(label: string, options: readonly T[]): T {
    if (options.length === 0) throw new RangeError(`Decider.style(${label}): no options`);
    this.choices++;
    this.logprob += Math.log(1 / options.length);
    if (this.source.kind === 'greedy') return options[0] as T;
    return options[Math.floor(this.uniform(label) * options.length)] as T;
  }
}
