/**
 * A toolset's dense index sharded over Durable Objects (durable-objects/tool-index-shard.ts; issue 14 §2): the
 * fan-out + merge client behind the `VectorIndex` interface, and the build that fills the shards.
 *
 * Index name: `<toolset id>/<embedding provider>:<model>:<dimensions>` — vectors from another encoder are another
 * index. Shard n holds pool positions n · shardSize … (n + 1) · shardSize − 1; a query goes to every shard at once
 * (each answers its own top k from its own isolate) and the lists are merged (`mergeTopK`).
 */
import type { EmbeddingModel } from '../../core/models/types.ts';
import { normalise } from '../../core/retrieval/dense.ts';
import type { Hit, Ranker } from '../../core/retrieval/types.ts';
import {
  checkDimensions,
  mergeTopK,
  type SearchOptions,
  type VectorIndex,
} from '../../core/retrieval/vector-index.ts';
import type { BuildStatus } from '../../durable-objects/tool-index-shard.ts';
import type { Bindings } from '../env.ts';
import type { ToolsetRecord } from '../stores/toolsets.ts';
import { toolIndexStub } from '../stubs.ts';

/** Rows per shard: 25,000 × 512-d is 12.8 MB of int8 codes + 1.6 MB of sign bits per object. */
export const DO_SHARD_SIZE = 25_000;
/** Tools embedded per builder alarm. */
export const DO_BUILD_CHUNK = 2_000;
/** How long a failed build stays failed before the next start resumes it from its last stored chunk. */
export const RETRY_FAILED_BUILD_MS = 60_000;

export function doIndexName(toolsetId: string, encoder: EmbeddingModel): string {
  return `${toolsetId}/${encoder.provider}:${encoder.model}:${encoder.dimensions}`;
}

export class DurableObjectIndex implements VectorIndex {
  constructor(
    readonly env: Bindings,
    readonly name: string,
    readonly dimensions: number,
    readonly size: number,
    readonly shardSize: number = DO_SHARD_SIZE,
    readonly search: SearchOptions = {},
  ) {}

  get shards(): number {
    return Math.ceil(this.size / this.shardSize);
  }

  async query(vector: ArrayLike<number>, k: number, options: SearchOptions = {}): Promise<Hit[]> {
    checkDimensions(vector.length, this.dimensions, 'query');
    const q = Float32Array.from(vector);
    const search = { ...this.search, ...options };
    const lists = await Promise.all(
      Array.from({ length: this.shards }, (_, n) =>
        toolIndexStub(this.env, `${this.name}/shard/${n}`).query(q, k, search),
      ),
    );
    return mergeTopK(lists, k);
  }
}

/** Starts (once) or reads the build of a toolset's index for `encoder`. */
export async function ensureDoIndexBuild(
  env: Bindings,
  record: ToolsetRecord,
  encoder: EmbeddingModel,
  options: { shardSize?: number; chunk?: number } = {},
): Promise<BuildStatus> {
  const name = doIndexName(record.id, encoder);
  const builder = toolIndexStub(env, `${name}/build`);
  const status = await builder.buildStatus();
  // A building or ready index answers as it is; none yet starts one, a failed one resumes once its wait is over.
  if (status && status.state !== 'failed') return status;
  return builder.startBuild({
    name,
    toolset: record,
    shardSize: options.shardSize ?? DO_SHARD_SIZE,
    chunk: options.chunk ?? DO_BUILD_CHUNK,
  });
}

/** A ranker over a built index: each query through `encoder`, normalised, then the index's top k. */
export class IndexRanker implements Ranker {
  constructor(
    readonly id: string,
    readonly index: VectorIndex,
    readonly encoder: EmbeddingModel,
  ) {}

  async rank(queries: string[], k: number): Promise<Hit[][]> {
    const vectors = await this.encoder.embed(queries);
    return Promise.all(vectors.map((v) => this.index.query(normalise(Float32Array.from(v)), k)));
  }
}
