/**
 * Frozen encoders the Node tools (CLI, benchmark) can use without a server: `use` (Universal Sentence Encoder
 * lite, bundled weights) and `lexical` (weight-free, IDF fitted on the tool pool). Both are wrapped in the
 * content-hash embedding cache (core/models/embeddings.ts), so a text repeated across query sets is embedded once.
 */
import { CachedEmbeddingModel, MemoryEmbeddingCache } from '../../core/models/embeddings.ts';
import { LexicalEmbeddingModel, LexicalIdf } from '../../core/models/lexical.ts';
import type { EmbeddingModel } from '../../core/models/types.ts';
import { toolText } from '../../core/retrieval/text.ts';
import type { Tool } from '../../core/retrieval/types.ts';
import { UseEmbeddingModel } from './use-encoder.ts';

export const ENCODER_IDS = ['use', 'lexical'] as const;
export type EncoderId = (typeof ENCODER_IDS)[number];
/**
 * The encoder `retrieve bench` and the public-data benchmark use unless told otherwise: `lexical`. On the papers'
 * public data it gives both the better untrained `dense` ranker and the better trained `cotools` retriever than
 * USE lite (README "Chain-of-Tools retrieval": KAMEL held out, dense 77.0 vs 54.5 top-1, cotools 89.5 vs 67.5), and
 * it encodes a pool in seconds where USE takes minutes.
 */
export const DEFAULT_ENCODER: EncoderId = 'lexical';

export interface EncoderOptions {
  /** Lexical vector size (default 512, the size of a USE vector). */
  lexicalDimensions?: number;
  /** Most cached vectors (default 20,000: queries; pool vectors are computed once and kept by the caller). */
  cacheEntries?: number;
}

export async function loadEncoder(
  id: EncoderId,
  tools: readonly Tool[],
  options: EncoderOptions = {},
): Promise<EmbeddingModel> {
  const inner =
    id === 'use'
      ? await UseEmbeddingModel.load()
      : new LexicalEmbeddingModel({
          dimensions: options.lexicalDimensions ?? 512,
          idf: LexicalIdf.fit(tools.map(toolText)),
        });
  return new CachedEmbeddingModel(inner, {
    batchSize: 256,
    cache: new MemoryEmbeddingCache(options.cacheEntries ?? 20_000),
  });
}
