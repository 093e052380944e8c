/**
 * A minimal Worker around the workerd USE lite encoder (edge/use-encoder.ts) for `npm run bench:use:workerd`:
 * `POST /embed` takes `{"texts": [...]}` and answers the vectors' count and first components (the vectors
 * themselves stay in the Worker: the figure is encoding, not JSON transfer); `GET /stats` reports the wasm
 * backend's linear memory and tfjs's tensor count. The model loads on the first `/embed`, from the ASSETS binding.
 */
import { memory } from '@tensorflow/tfjs-core';
import { loadIsolateUseModel, USE_BATCH, WorkerdUseModel } from '../../edge/use-encoder.ts';

interface BenchEnv {
  ASSETS: Fetcher;
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/embed' && request.method === 'POST') {
      const { texts } = (await request.json()) as { texts: string[] };
      const vectors = await (await loadIsolateUseModel(env.ASSETS)).embed(texts);
      return Response.json({ count: vectors.length, head: vectors[0]?.slice(0, 4) ?? [] });
    }
    if (url.pathname === '/stats') {
      const wasmBytes = WorkerdUseModel.wasmMemoryBytes();
      if (wasmBytes === 0) return Response.json({ wasmBytes, tensors: 0, tensorBytes: 0 }); // not loaded yet
      const m = memory();
      return Response.json({
        wasmBytes,
        batch: USE_BATCH,
        tensors: m.numTensors,
        tensorBytes: m.numBytes,
      });
    }
    return new Response('not found', { status: 404 });
  },
};
