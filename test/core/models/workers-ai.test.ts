import { beforeEach, describe, expect, it } from 'vitest';
import {
  ModelConfigError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from '../../../core/models/errors.ts';
import { createEmbeddingModel, createTextModel, type ModelDeps } from '../../../core/models/factory.ts';
import type { GenerateRequest } from '../../../core/models/types.ts';
import { type AiBinding, cutAtStop } from '../../../core/models/workers-ai.ts';

interface Call {
  model: string;
  inputs: Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A stand-in for `env.AI`: records calls and answers with `respond`. */
function mockAi(
  respond: (call: Call, index: number) => unknown | Promise<unknown>,
): AiBinding & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async run(model, inputs, options) {
      const call = { model, inputs, signal: options?.signal };
      calls.push(call);
      const answer = await respond(call, calls.length - 1);
      return structuredClone(answer);
    },
  };
}

let sleeps: number[];
let deps: ModelDeps;
beforeEach(() => {
  sleeps = [];
  deps = { sleep: async (ms) => void sleeps.push(ms), seed: 'workers-ai-test' };
});

const ask: GenerateRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hi' },
  ],
};

function llama(ai: AiBinding, extra: Record<string, unknown> = {}) {
  return createTextModel(
    { provider: 'workers-ai', model: '@cf/meta/llama-3.1-8b-instruct', ...extra },
    { ...deps, ai },
  );
}

describe('workers-ai text generation on a model without n (legacy schema)', () => {
  it('issues k calls with consecutive seeds and reports no log-probabilities', async () => {
    const ai = mockAi((call) => ({
      response: `answer with seed ${call.inputs.seed}`,
      usage: { prompt_tokens: 20, completion_tokens: 4, total_tokens: 24 },
    }));
    const model = llama(ai);
    expect(model.capabilities).toMatchObject({ n: false, logprobs: false, seed: true, simulated: false });

    const response = await model.generate({
      ...ask,
      n: 3,
      seed: 42,
      logprobs: true,
      temperature: 0.7,
      maxTokens: 50,
    });

    expect(ai.calls).toHaveLength(3);
    for (const call of ai.calls) {
      expect(call.model).toBe('@cf/meta/llama-3.1-8b-instruct');
      expect(call.inputs).not.toHaveProperty('n');
      expect(call.inputs).not.toHaveProperty('logprobs');
      expect(call.inputs).toMatchObject({ messages: ask.messages, temperature: 0.7, max_tokens: 50 });
      expect(call.signal).toBeInstanceOf(AbortSignal);
    }
    expect(ai.calls.map((c) => c.inputs.seed)).toEqual([42, 43, 44]);
    expect(response.candidates).toEqual([
      { text: 'answer with seed 42', finishReason: 'stop' },
      { text: 'answer with seed 43', finishReason: 'stop' },
      { text: 'answer with seed 44', finishReason: 'stop' },
    ]);
    expect(response.model).toBe('@cf/meta/llama-3.1-8b-instruct');
    expect(response.usage).toMatchObject({ calls: 3, inputTokens: 60, outputTokens: 12 });
    // $0.282 per M input, $0.827 per M output.
    expect(response.usage.costUsd).toBeCloseTo((60 * 0.282 + 12 * 0.827) / 1e6, 15);
  });

  it('applies stop sequences itself, dropping the sequence', async () => {
    const ai = mockAi(() => ({
      response: 'Thought: look it up\nAction: LoadDB[flights]\nObservation: invented',
      usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
    }));
    const response = await llama(ai).generate({ ...ask, stop: ['\nObservation:', 'Finish['] });
    expect(ai.calls[0]!.inputs).not.toHaveProperty('stop');
    expect(response.candidates).toEqual([
      { text: 'Thought: look it up\nAction: LoadDB[flights]', finishReason: 'stop' },
    ]);
  });

  it('reports length when the answer used every allowed token', async () => {
    const ai = mockAi(() => ({
      response: 'cut',
      usage: { prompt_tokens: 5, completion_tokens: 16, total_tokens: 21 },
    }));
    const cut = await llama(ai).generate({ ...ask, maxTokens: 16 });
    expect(cut.candidates[0]!.finishReason).toBe('length');
    // Without max_tokens the binding's default of 256 applies.
    const done = await llama(ai).generate(ask);
    expect(done.candidates[0]!.finishReason).toBe('stop');
  });

  it('keeps the other candidates when one of k calls keeps failing', async () => {
    const ai = mockAi((call) => {
      if (call.inputs.seed === 2) throw new Error('InferenceUpstreamError: 3040: Out of capacity');
      return {
        response: `ok ${call.inputs.seed}`,
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      };
    });
    const response = await llama(ai, { maxRetries: 1 }).generate({ ...ask, n: 3, seed: 1 });
    expect(response.candidates).toEqual([
      { text: 'ok 1', finishReason: 'stop' },
      { text: '', finishReason: 'error' },
      { text: 'ok 3', finishReason: 'stop' },
    ]);
    expect(response.usage.calls).toBe(2);
    // The failing call was retried once before giving up.
    expect(ai.calls.filter((c) => c.inputs.seed === 2)).toHaveLength(2);
  });

  it('throws when every one of the k calls fails', async () => {
    const ai = mockAi(() => {
      throw new Error('3040: Out of capacity');
    });
    await expect(llama(ai, { maxRetries: 0 }).generate({ ...ask, n: 2 })).rejects.toBeInstanceOf(
      ModelRateLimitError,
    );
  });

  it('answers JSON mode objects as JSON text', async () => {
    const ai = mockAi(() => ({
      response: { tool: 'LoadDB' },
      usage: { prompt_tokens: 1, completion_tokens: 6, total_tokens: 7 },
    }));
    const schema = { type: 'object', properties: { tool: { type: 'string' } } };
    const response = await llama(ai).generate({ ...ask, jsonSchema: { name: 'action', schema } });
    expect(ai.calls[0]!.inputs.response_format).toEqual({ type: 'json_schema', json_schema: schema });
    expect(response.candidates[0]!.text).toBe('{"tool":"LoadDB"}');
  });

  it('turns a malformed answer into ModelResponseError', async () => {
    const ai = mockAi(() => ({ result: 'wrong shape' }));
    await expect(llama(ai).generate(ask)).rejects.toThrow(/^workers-ai: malformed response: response: /);
    expect(ai.calls).toHaveLength(1);
  });
});

describe('workers-ai text generation on a chat-completions model', () => {
  it('uses n and logprobs in one call', async () => {
    const ai = mockAi(() => ({
      id: 'x',
      object: 'chat.completion',
      created: 0,
      model: '@cf/openai/gpt-oss-120b',
      choices: [
        {
          index: 1,
          message: { role: 'assistant', content: 'second' },
          finish_reason: 'length',
          logprobs: { content: [{ logprob: -0.5 }] },
        },
        {
          index: 0,
          message: { role: 'assistant', content: 'first' },
          finish_reason: 'stop',
          logprobs: { content: [{ logprob: -0.25 }, { logprob: -0.25 }] },
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 3, total_tokens: 33 },
    }));
    const model = createTextModel(
      { provider: 'workers-ai', model: '@cf/openai/gpt-oss-120b' },
      { ...deps, ai },
    );
    expect(model.capabilities).toMatchObject({ n: true, logprobs: true });
    const response = await model.generate({ ...ask, n: 2, logprobs: true, stop: ['END'], seed: 5 });
    expect(ai.calls).toHaveLength(1);
    expect(ai.calls[0]!.inputs).toMatchObject({ n: 2, logprobs: true, stop: ['END'], seed: 5 });
    expect(ai.calls[0]!.inputs).not.toHaveProperty('model');
    expect(response.candidates).toEqual([
      { text: 'first', finishReason: 'stop', logprob: { sum: -0.5, count: 2 } },
      { text: 'second', finishReason: 'length', logprob: { sum: -0.5, count: 1 } },
    ]);
    expect(response.usage).toMatchObject({ calls: 1, inputTokens: 30, outputTokens: 3 });
  });

  it('falls back to k calls when the configuration says n is unsupported', async () => {
    const ai = mockAi(() => ({ choices: [{ message: { content: 'one' }, finish_reason: 'stop' }] }));
    const model = createTextModel(
      { provider: 'workers-ai', model: '@cf/openai/gpt-oss-20b', capabilities: { n: false } },
      { ...deps, ai },
    );
    const response = await model.generate({ ...ask, n: 2 });
    expect(ai.calls).toHaveLength(2);
    expect(ai.calls.every((c) => !('n' in c.inputs))).toBe(true);
    expect(response.candidates).toHaveLength(2);
  });
});

describe('workers-ai errors', () => {
  it('retries capacity errors (3040) and succeeds', async () => {
    const ai = mockAi((_, index) => {
      if (index === 0) throw new Error('3040: Out of capacity');
      return { response: 'fine' };
    });
    const response = await llama(ai).generate(ask);
    expect(response.candidates[0]!.text).toBe('fine');
    expect(ai.calls).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('does not retry an unknown model (5007) or a used-up daily allocation (3036)', async () => {
    const unknown = mockAi(() => {
      throw new Error('5007: No such model @cf/meta/nope or task');
    });
    const error = await llama(unknown)
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as Error).message).toBe('workers-ai: 5007: No such model @cf/meta/nope or task');
    expect(unknown.calls).toHaveLength(1);

    const quota = mockAi(() => {
      throw new Error('AiError: 3036: You have used up your daily free allocation of 10,000 neurons.');
    });
    const quotaError = await llama(quota)
      .generate(ask)
      .catch((e: unknown) => e);
    expect(quotaError).toBeInstanceOf(ModelRateLimitError);
    expect((quotaError as ModelRateLimitError).retryable).toBe(false);
    expect(quota.calls).toHaveLength(1);
  });

  it('treats upstream timeouts (3007) as timeouts and unknown failures as server errors', async () => {
    const timeouts = mockAi(() => {
      throw new Error('3007: Request timeout');
    });
    await expect(llama(timeouts, { maxRetries: 1 }).generate(ask)).rejects.toBeInstanceOf(ModelTimeoutError);
    expect(timeouts.calls).toHaveLength(2);

    const odd = mockAi(() => {
      throw new Error('InferenceUpstreamError: upstream connect error');
    });
    await expect(llama(odd, { maxRetries: 0 }).generate(ask)).rejects.toBeInstanceOf(ModelServerError);
  });

  it('times out a binding call that never settles and aborts its signal', async () => {
    const ai = mockAi(() => new Promise(() => {}));
    const error = await llama(ai, { timeoutMs: 50, maxRetries: 0 })
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect(ai.calls[0]!.signal?.aborted).toBe(true);
  });

  it('needs the AI binding', () => {
    expect(() => createTextModel({ provider: 'workers-ai' }, deps)).toThrow(ModelConfigError);
    expect(() => createTextModel({ provider: 'workers-ai' }, deps)).toThrow('the AI binding is missing');
  });
});

describe('workers-ai embeddings', () => {
  it('embeds with a bge model in batches of at most 100 and caches by content', async () => {
    const ai = mockAi((call) => {
      const texts = call.inputs.text as string[];
      return {
        shape: [texts.length, 768],
        data: texts.map((t) => Array.from({ length: 768 }, () => t.length)),
      };
    });
    const model = createEmbeddingModel({ provider: 'workers-ai' }, { ...deps, ai });
    expect(model).toMatchObject({
      provider: 'workers-ai',
      model: '@cf/baai/bge-base-en-v1.5',
      dimensions: 768,
    });
    const texts = Array.from({ length: 250 }, (_, i) => `text number ${i}`);
    const vectors = await model.embed(texts);
    expect(ai.calls.map((c) => (c.inputs.text as string[]).length)).toEqual([100, 100, 50]);
    expect(ai.calls[0]!.model).toBe('@cf/baai/bge-base-en-v1.5');
    expect(vectors[7]![0]).toBe('text number 7'.length);
    expect(vectors[249]![767]).toBe('text number 249'.length);

    await model.embed(['text number 3', 'something new', 'something new']);
    expect(ai.calls).toHaveLength(4);
    expect(ai.calls[3]!.inputs.text).toEqual(['something new']);
  });

  it('rejects an answer with the wrong number of vectors', async () => {
    const ai = mockAi(() => ({ shape: [1, 384], data: [Array(384).fill(0)] }));
    const model = createEmbeddingModel(
      { provider: 'workers-ai', model: '@cf/baai/bge-small-en-v1.5' },
      { ...deps, ai },
    );
    await expect(model.embed(['a', 'b'])).rejects.toThrow(ModelResponseError);
    await expect(model.embed(['c', 'd'])).rejects.toThrow('expected 2 embeddings, got 1');
  });
});

describe('cutAtStop', () => {
  it('cuts at the earliest of several stop sequences', () => {
    expect(cutAtStop('abcXdefY', ['Y', 'X'])).toBe('abc');
    expect(cutAtStop('abc', ['Z'])).toBeNull();
    expect(cutAtStop('abc', ['', 'c'])).toBe('ab');
    expect(cutAtStop('abc', undefined)).toBeNull();
  });
});
