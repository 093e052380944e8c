/**
 * The untrained rankers by id over one pool (bm25, char, dense, hybrid); `cotools` needs trained weights and is
 * built by cotools/ranker.ts. Dense rankers take the pool's frozen vectors when the caller already has them.
 */
import type { EmbeddingModel } from '../models/types.ts';
import { Bm25Ranker } from './bm25.ts';
import { CharRanker } from './char.ts';
import { embedAll, normalise, VectorRanker } from './dense.ts';
import { HybridRanker } from './hybrid.ts';
import { toolText } from './text.ts';
import type { OnProgress, Ranker, Tool } from './types.ts';

export const UNTRAINED_RANKERS = ['bm25', 'char', 'dense', 'hybrid'] as const;
export type UntrainedRankerId = (typeof UNTRAINED_RANKERS)[number];

export interface RankerContext {
  encoder: EmbeddingModel;
  /** The pool's frozen vectors (toolText of each tool through `encoder`); embedded on demand otherwise. */
  features?: readonly Float32Array[];
  batchSize?: number;
  onProgress?: OnProgress;
  /** Rankers built so far, so `hybrid` reuses `bm25` and `dense`. */
  built?: Map<string, Ranker>;
}

export async function createRanker(
  id: UntrainedRankerId,
  tools: readonly Tool[],
  ctx: RankerContext,
): Promise<Ranker> {
  const cached = ctx.built?.get(id);
  if (cached) return cached;
  let ranker: Ranker;
  switch (id) {
    case 'bm25':
      ranker = new Bm25Ranker(tools);
      break;
    case 'char':
      ranker = new CharRanker(tools);
      break;
    case 'dense': {
      const features =
        ctx.features ??
        (await embedAll(ctx.encoder, tools.map(toolText), {
          batchSize: ctx.batchSize,
          onProgress: ctx.onProgress,
        }));
      ranker = new VectorRanker(
        'dense',
        features.map((f) => normalise(Float32Array.from(f))),
        ctx.encoder.dimensions,
        async (qs) => (await embedAll(ctx.encoder, qs, { batchSize: ctx.batchSize })).map(normalise),
      );
      break;
    }
    case 'hybrid':
      ranker = new HybridRanker([
        await createRanker('bm25', tools, ctx),
        await createRanker('dense', tools, ctx),
      ]);
      break;
  }
  ctx.built?.set(id, ranker);
  return ranker;
}
