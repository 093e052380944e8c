/**
 * `dense`: a frozen encoder's vectors, cosine score, served from the sharded int8 index (vector-index.ts) — the
 * untrained neural baseline. `embedAll` is also how `cotools` gets its frozen features h.
 */
import type { EmbeddingModel } from '../models/types.ts';
import { toolText } from './text.ts';
import type { Hit, OnProgress, Ranker, Tool } from './types.ts';
import { ShardedVectorIndex } from './vector-index.ts';

export interface EmbedAllOptions {
  /** Texts per `embed` call (default 256). */
  batchSize?: number;
  onProgress?: OnProgress | undefined;
}

/** Embeds `texts` batch by batch into float32 rows. */
export async function embedAll(
  model: EmbeddingModel,
  texts: readonly string[],
  options: EmbedAllOptions = {},
): Promise<Float32Array[]> {
  const batchSize = options.batchSize ?? 256;
  const out: Float32Array[] = [];
  for (let at = 0; at < texts.length; at += batchSize) {
    const vectors = await model.embed(texts.slice(at, at + batchSize));
    for (const v of vectors) out.push(Float32Array.from(v));
    options.onProgress?.(Math.min(texts.length, at + batchSize), texts.length);
  }
  return out;
}

/** Scales `v` to unit length in place (the zero vector stays zero). */
export function normalise(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) * inv;
  return v;
}

/** A ranker over precomputed unit tool vectors; queries are turned into vectors by `encodeQueries`. */
export class VectorRanker implements Ranker {
  readonly index: ShardedVectorIndex;

  constructor(
    readonly id: string,
    toolVectors: readonly Float32Array[],
    dimensions: number,
    private readonly encodeQueries: (queries: string[]) => Promise<Float32Array[]>,
    shardSize?: number,
  ) {
    this.index = new ShardedVectorIndex(dimensions, shardSize ? { shardSize } : {});
    for (const v of toolVectors) this.index.add(v);
  }

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    const vectors = await this.encodeQueries(queries);
    return Promise.all(vectors.map((v) => this.index.query(v, k)));
  }
}

/** The `dense` ranker: tool text and query through the same frozen encoder, cosine. */
export async function denseRanker(
  tools: readonly Tool[],
  model: EmbeddingModel,
  options: EmbedAllOptions = {},
): Promise<VectorRanker> {
  const vectors = (await embedAll(model, tools.map(toolText), options)).map(normalise);
  return new VectorRanker('dense', vectors, model.dimensions, async (queries) =>
    (await embedAll(model, queries)).map(normalise),
  );
}
