import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedEmbeddingModel } from '../../core/models/embeddings.ts';
import { USE_DIMENSIONS, USE_MODEL } from '../../core/models/use-tokenizer.ts';
import { embeddingModelFor, modelCatalog } from '../../edge/models.ts';
import { loadIsolateUseModel, useEmbeddingModel, WorkerdUseModel } from '../../edge/use-encoder.ts';
import worker from '../../functions/index.ts';
import recorded from '../fixtures/use-node-vectors.json';
import { call, expectProblem, USER_KEY } from './helpers.ts';

// The Universal Sentence Encoder lite inside workerd (issue 14 item 1): stock tfjs + the precompiled wasm
// backend, weights from the ASSETS binding (copied by vitest.config.ts). Its vectors must be the Node encoder's.

const dot = (x: readonly number[], y: readonly number[]) => x.reduce((s, xi, i) => s + xi * (y[i] ?? 0), 0);

describe('USE lite in workerd', () => {
  let model: WorkerdUseModel;
  beforeAll(async () => {
    model = await loadIsolateUseModel(env.ASSETS);
  });

  it('gives the Node encoder’s vectors (recorded fixture), one by one and in a batch', async () => {
    const texts = recorded.vectors.map((r) => r.text);
    const batch = await model.embed(texts);
    for (const [i, r] of recorded.vectors.entries()) {
      const [alone] = await model.embed([r.text]);
      for (const v of [alone, batch[i]]) {
        expect(v).toHaveLength(USE_DIMENSIONS);
        const worst = Math.max(...r.vector.map((x, j) => Math.abs(x - (v?.[j] ?? Number.NaN))));
        expect(worst).toBeLessThan(1e-5);
        expect(Math.hypot(...(v ?? []))).toBeCloseTo(1, 4);
      }
    }
    // The first components recorded by test/core/retrieval/use.test.ts, for the same sentence.
    const [first] = await model.embed(['Find the cheapest flight from Berlin to Tokyo.']);
    expect(first?.slice(0, 3).map((x) => Number(x.toFixed(5)))).toEqual([0.05641, 0.02406, 0.02628]);
  });

  it('places paraphrases closer than unrelated sentences', async () => {
    const [a, b, c] = await model.embed(['book a plane ticket', 'reserve a flight', 'bake a chocolate cake']);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!) + 0.2);
    expect(await model.embed([])).toEqual([]);
  });

  it('gives a text without tokens the zero vector, alone or beside others, and the others their own vectors', async () => {
    // A DRAFT explorer answer without a query is embedded as "" (φ): the graph refuses a batch without any token.
    const zero = new Array<number>(USE_DIMENSIONS).fill(0);
    expect(await model.embed(['', ''])).toEqual([zero, zero]);
    const texts = ['book a plane ticket', '', 'reserve a flight', ''];
    const mixed = await model.embed(texts);
    expect(mixed[1]).toEqual(zero);
    expect(mixed[3]).toEqual(zero);
    const [a, b] = await model.embed(['book a plane ticket', 'reserve a flight']);
    for (const [k, v] of [a, b].entries()) {
      const got = mixed[2 * k] as number[];
      expect(Math.max(...got.map((x, j) => Math.abs(x - (v?.[j] ?? Number.NaN))))).toBeLessThan(1e-6);
    }
  });

  it('releases its tensors after each call and keeps the weights in wasm memory', async () => {
    await model.embed(['warm']);
    const before = (await import('@tensorflow/tfjs-core')).memory().numTensors;
    await model.embed(['one sentence', 'and another one']);
    expect((await import('@tensorflow/tfjs-core')).memory().numTensors).toBe(before);
    expect(WorkerdUseModel.wasmMemoryBytes()).toBeGreaterThan(27_000_000);
  });

  it('is the `use` embedding provider, cached by content hash', async () => {
    // wrangler.toml declares only lexical and workers-ai, so the generated Env type names only those two.
    const useEnv = { ...env, EMBEDDING_PROVIDER: 'use' } as unknown as typeof env;
    const provider = embeddingModelFor(useEnv);
    expect([provider.provider, provider.model, provider.dimensions]).toEqual(['use', USE_MODEL, 512]);
    expect(modelCatalog(useEnv).embeddings).toEqual({
      provider: 'use',
      model: USE_MODEL,
    });
    const text = recorded.vectors[1]!.text;
    const [v] = await provider.embed([text]);
    const cached = useEmbeddingModel(env.ASSETS) as CachedEmbeddingModel;
    expect(await cached.cache.get(await cached.contentKey(text))).toEqual(v);
    // The local default stays lexical (README "Chain-of-Tools": the reason).
    expect(embeddingModelFor(env).provider).toBe('lexical');
  });

  it('serves dense toolset search when the deployment selects it (EMBEDDING_PROVIDER=use)', async () => {
    const useEnv = { ...env, EMBEDDING_PROVIDER: 'use' } as unknown as typeof env;
    const send = async (path: string, body: unknown) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(
        new Request(`https://tooldrift.test${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${USER_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
        useEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return res;
    };
    const tools = [
      { name: 'getWeatherForecast', description: 'Weather forecast for a city' },
      { name: 'book_flight', description: 'Books a plane ticket between two airports' },
      { name: 'convertCurrency', description: 'Converts money from one currency to another' },
    ];
    const created = await send('/v1/toolsets', {
      source: 'upload',
      name: 'use-dense',
      jsonl: tools.map((t) => JSON.stringify(t)).join('\n'),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // No word in common with the right tool's text; the lexical encoder ranks convertCurrency first here.
    const res = await send(`/v1/toolsets/${id}/search`, {
      query: 'I need to fly to Rome',
      k: 3,
      ranker: 'dense',
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { results: { tool: { name: string } }[] };
    expect(out.results[0]?.tool.name).toBe('book_flight');
  });

  it('does not serve the weights as public static files', async () => {
    for (const path of [
      '/models/use-lite/model.json',
      '/%6Dodels/use-lite/vocab.json',
      '//models/use-lite/LICENSE',
    ])
      await expectProblem(await call(path), 404, 'not-found');
    const direct = await env.ASSETS.fetch('https://assets.local/models/use-lite/model.json');
    expect(direct.status).toBe(200);
    await direct.body?.cancel();
  });
});
