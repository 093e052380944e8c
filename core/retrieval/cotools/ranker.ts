/**
 * The `cotools` ranker: trained retriever encoders (retriever.ts) over a frozen encoder's vectors; tool vectors
 * E_T(h_t) go to the sharded int8 index once, a query is E_Q(h_q) and the score is their dot product (eq. 10).
 */
import type { EmbeddingModel } from '../../models/types.ts';
import { embedAll, VectorRanker } from '../dense.ts';
import type { OnProgress } from '../types.ts';
import { encode, type RetrieverWeights } from './retriever.ts';

export function cotoolsRanker(
  weights: RetrieverWeights,
  toolFeatures: readonly ArrayLike<number>[],
  encoder: EmbeddingModel,
  onProgress?: OnProgress,
): VectorRanker {
  const vectors: Float32Array[] = [];
  for (const [i, h] of toolFeatures.entries()) {
    vectors.push(Float32Array.from(encode(weights, 'tool', h)));
    if (onProgress && (i % 1000 === 999 || i === toolFeatures.length - 1))
      onProgress(i + 1, toolFeatures.length);
  }
  return new VectorRanker('cotools', vectors, weights.hidden, async (queries) =>
    (await embedAll(encoder, queries)).map((h) => Float32Array.from(encode(weights, 'query', h))),
  );
}
