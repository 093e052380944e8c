/**
 * Token choice and text bookkeeping of the local model server, kept pure (no engine, no I/O) so it is tested
 * directly: sampling from the model's next-token distribution with OpenAI's parameters, the log-probabilities
 * reported for each token, and stop strings.
 *
 * Semantics (what an OpenAI client can rely on):
 * - The reported `logprob` of a token is the log of the model's own probability for it — before temperature,
 *   top_p and the penalties — as vLLM reports by default. These are what tooldrift's MCTS turns into priors.
 * - Sampling: logits ln p(t) − frequency_penalty · count(t) − presence_penalty · [count(t) > 0] over the tokens
 *   generated so far in this choice (OpenAI's definition), divided by the temperature, softmax, nucleus top_p,
 *   then one draw from a seeded stream. Temperature 0 takes the highest penalised logit (ties: the token the
 *   engine lists first).
 * - Stop strings: generation ends when the text contains one; the text returned ends before it (OpenAI's rule),
 *   and tokens that only spell the stop string are left out of the log-probabilities.
 */
import { Rng } from '../../core/util/random.ts';

export interface SamplingParams {
  temperature: number;
  topP: number;
  frequencyPenalty: number;
  presencePenalty: number;
}

/** A next-token distribution: token id → probability, as the engine gives it (sorted high to low). */
export type Distribution = ReadonlyMap<number, number>;

/** Picks the next token. `counts` holds how often each token was generated so far in this choice. */
export function pickToken(
  dist: Distribution,
  counts: ReadonlyMap<number, number>,
  params: SamplingParams,
  rng: Rng,
): number {
  const ids: number[] = [];
  const logits: number[] = [];
  for (const [id, p] of dist) {
    if (!(p > 0)) continue;
    const n = counts.get(id) ?? 0;
    ids.push(id);
    logits.push(Math.log(p) - params.frequencyPenalty * n - (n > 0 ? params.presencePenalty : 0));
  }
  if (ids.length === 0) throw new Error('empty next-token distribution');
  if (params.temperature === 0) {
    let best = 0;
    for (let i = 1; i < logits.length; i++) if ((logits[i] as number) > (logits[best] as number)) best = i;
    return ids[best] as number;
  }
  const scaled = logits.map((l) => l / params.temperature);
  // A loop, not Math.max(...scaled): a 128k-token vocabulary is more arguments than a call may take.
  let max = Number.NEGATIVE_INFINITY;
  for (const l of scaled) if (l > max) max = l;
  const weights = scaled.map((l) => Math.exp(l - max));
  const order = weights.map((_, i) => i).sort((a, b) => (weights[b] as number) - (weights[a] as number));
  const total = weights.reduce((s, w) => s + w, 0);
  // Nucleus: the smallest prefix of the sorted tokens whose mass reaches top_p (at least one token).
  const kept: number[] = [];
  let mass = 0;
  for (const i of order) {
    kept.push(i);
    mass += (weights[i] as number) / total;
    if (mass >= params.topP) break;
  }
  const keptTotal = kept.reduce((s, i) => s + (weights[i] as number), 0);
  let r = rng.next() * keptTotal;
  for (const i of kept) {
    r -= weights[i] as number;
    if (r < 0) return ids[i] as number;
  }
  return ids[kept.at(-1) as number] as number;
}

/** ln p(token) under the model's distribution (−Infinity for a token it gives no mass, which sampling never picks). */
export function tokenLogprob(dist: Distribution, token: number): number {
  const p = dist.get(token) ?? 0;
  return p > 0 ? Math.log(p) : Number.NEGATIVE_INFINITY;
}

/** The `n` most probable tokens with their log-probabilities. */
export function topLogprobs(dist: Distribution, n: number): { id: number; logprob: number }[] {
  if (n <= 0) return [];
  const out: { id: number; logprob: number }[] = [];
  for (const [id, p] of [...dist].sort((a, b) => b[1] - a[1])) {
    if (out.length >= n) break;
    out.push({ id, logprob: Math.log(p) });
  }
  return out;
}

/** The stream of a choice: seeded from the request's seed and the choice index, or fresh without a seed. */
export function choiceRng(seed: number | undefined, index: number): Rng {
  return new Rng(
    seed === undefined ? `unseeded/${Math.random()}/${Date.now()}` : `seed/${seed}/choice/${index}`,
  );
}

/** Where the first stop string starts in `text`, or -1. */
export function stopIndex(text: string, stop: readonly string[]): number {
  let at = -1;
  for (const s of stop) {
    if (s === '') continue;
    const i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/**
 * How much of `text` can be shown while generation goes on: everything except a trailing incomplete character
 * (U+FFFD from a cut multi-byte sequence) and a tail that could still grow into a stop string.
 */
export function stableLength(text: string, stop: readonly string[]): number {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0xfffd) end--;
  let hold = 0;
  for (const s of stop) {
    for (let k = Math.min(s.length - 1, end); k > hold; k--) {
      if (text.endsWith(s.slice(0, k), end)) {
        hold = k;
        break;
      }
    }
  }
  return end - hold;
}
