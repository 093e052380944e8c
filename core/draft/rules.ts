/**
 * DRAFT's two rules as small functions of numbers and texts (spec draft.md):
 *
 * - diversity (Algorithm 1, "diversity-promoting exploration"): a candidate query is accepted when its cosine
 *   similarity to **every** earlier query of the tool is below φ; the attempt numbered `attempts` (3 by default)
 *   is accepted regardless; iteration 1 is not checked; with the ablation every query is accepted;
 * - termination (eq. 3–4): Δ = (BLEU(t_{i−1}, t_i) + cos(e_{i−1}, e_i)) / 2 between consecutive descriptions,
 *   stop when Δ > τ (strictly), checked after every rewrite including the first.
 */
import { cosineSimilarity } from '../models/embeddings.ts';
import type { EmbeddingModel } from '../models/types.ts';
import { sentenceBleu } from './bleu.ts';

export interface DiversityInput {
  /** Cosine similarity of the candidate to each earlier query of the tool. */
  similarities: readonly number[];
  /** 1-based attempt within the iteration. */
  attempt: number;
  /** 1-based iteration. */
  iteration: number;
  phi: number;
  attempts: number;
  /** false: the w/o-diversity ablation. */
  enabled: boolean;
}

export type DiversityVerdict =
  | { accept: true; reason: 'first-iteration' | 'diverse' | 'last-attempt' | 'ablation' }
  | { accept: false; maxSimilarity: number };

export function diversityVerdict(input: DiversityInput): DiversityVerdict {
  if (!input.enabled) return { accept: true, reason: 'ablation' };
  if (input.iteration <= 1) return { accept: true, reason: 'first-iteration' };
  const max = input.similarities.reduce((m, s) => Math.max(m, s), Number.NEGATIVE_INFINITY);
  if (input.similarities.every((s) => s < input.phi)) return { accept: true, reason: 'diverse' };
  if (input.attempt >= input.attempts) return { accept: true, reason: 'last-attempt' };
  return { accept: false, maxSimilarity: max };
}

export interface Delta {
  bleu: number;
  cos: number;
  /** (bleu + cos) / 2 */
  delta: number;
}

/** Δ from its two parts (eq. 3). */
export function deltaOf(bleu: number, cos: number): Delta {
  return { bleu, cos, delta: (bleu + cos) / 2 };
}

/** Eq. 4: converged when Δ > τ. */
export function converged(delta: number, tau: number): boolean {
  return delta > tau;
}

/** Δ between the previous and the new description, embedding both with the configured encoder. */
export async function descriptionDelta(
  previous: string,
  next: string,
  embedder: EmbeddingModel,
  signal?: AbortSignal,
): Promise<Delta> {
  const [a, b] = await embedder.embed([previous, next], signal);
  return deltaOf(sentenceBleu(previous, next), cosineSimilarity(a!, b!));
}
