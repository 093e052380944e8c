import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ModelContextLengthError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from '../../../core/models/errors.ts';
import { createEmbeddingModel, createTextModel, type ModelDeps } from '../../../core/models/factory.ts';
import type { GenerateRequest } from '../../../core/models/types.ts';
import { completion, type FakeServer, startFakeOpenAI } from './fake-openai-server.ts';

let server: FakeServer;
let sleeps: number[];
let deps: ModelDeps;

beforeAll(async () => {
  server = await startFakeOpenAI();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.received.length = 0;
  server.fallback = { status: 500, json: { error: { message: 'no reply scripted' } } };
  sleeps = [];
  deps = { sleep: async (ms) => void sleeps.push(ms), seed: 'openai-test' };
});

function model(overrides: Record<string, unknown> = {}) {
  return createTextModel(
    { provider: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'gpt-4o-mini', ...overrides },
    deps,
  );
}

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'Which tool lists flights?' }] };

describe('openai provider: sampling', () => {
  it('asks for k candidates with n and sums each candidate’s token log-probabilities', async () => {
    server.script({
      json: completion(
        [
          { text: 'Action: LoadDB', logprobs: [-0.5, -0.25, -1] },
          { text: 'Action: FilterDB', finish: 'length', logprobs: [-2, -0.125] },
          { text: 'Finish[yes]', finish: 'content_filter', logprobs: [] },
        ],
        { prompt_tokens: 40, completion_tokens: 9 },
      ),
    });
    const response = await model().generate({
      ...ask,
      n: 3,
      logprobs: true,
      seed: 7,
      temperature: 0.8,
      topP: 0.95,
      stop: ['\nObservation:'],
      maxTokens: 64,
    });

    expect(server.received).toHaveLength(1);
    const sent = server.received[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Which tool lists flights?' }],
      n: 3,
      logprobs: true,
      seed: 7,
      temperature: 0.8,
      top_p: 0.95,
      stop: ['\nObservation:'],
      max_tokens: 64,
    });

    expect(response.candidates).toEqual([
      { text: 'Action: LoadDB', finishReason: 'stop', logprob: { sum: -1.75, count: 3 } },
      { text: 'Action: FilterDB', finishReason: 'length', logprob: { sum: -2.125, count: 2 } },
      { text: 'Finish[yes]', finishReason: 'other', logprob: { sum: 0, count: 0 } },
    ]);
    expect(response.model).toBe('fake-model');
    expect(response.usage).toMatchObject({ calls: 1, inputTokens: 40, outputTokens: 9 });
    // gpt-4o-mini: $0.15 per M input, $0.60 per M output.
    expect(response.usage.costUsd).toBeCloseTo((40 * 0.15 + 9 * 0.6) / 1e6, 15);
  });

  it('reports no log-probabilities unless asked, and does not send the parameter', async () => {
    server.script({ json: completion([{ text: 'ok', logprobs: [-1] }]) });
    const response = await model().generate(ask);
    expect(server.received[0]!.body).not.toHaveProperty('logprobs');
    expect(server.received[0]!.body).not.toHaveProperty('n');
    expect(response.candidates).toEqual([{ text: 'ok', finishReason: 'stop' }]);
  });

  it('issues k calls with consecutive seeds when the server has no n', async () => {
    server.script(
      { json: completion([{ text: 'a' }]) },
      { json: completion([{ text: 'b' }]) },
      { json: completion([{ text: 'c' }]) },
    );
    const response = await model({ capabilities: { n: false } }).generate({ ...ask, n: 3, seed: 40 });
    expect(server.received.map((r) => r.body.seed).sort()).toEqual([40, 41, 42]);
    expect(server.received.every((r) => !('n' in r.body))).toBe(true);
    expect(response.candidates.map((c) => c.text).sort()).toEqual(['a', 'b', 'c']);
    expect(response.usage).toMatchObject({ calls: 3, inputTokens: 36, outputTokens: 15 });
  });

  it('sends a JSON Schema as structured output', async () => {
    server.script({ json: completion([{ text: '{"tool":"LoadDB"}' }]) });
    const schema = { type: 'object', properties: { tool: { type: 'string' } }, required: ['tool'] };
    await model().generate({ ...ask, jsonSchema: { name: 'action', schema } });
    expect(server.received[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'action', schema, strict: true },
    });
  });

  it('rejects a non-positive n before calling the server', async () => {
    await expect(model().generate({ ...ask, n: 0 })).rejects.toBeInstanceOf(ModelRequestError);
    expect(server.received).toHaveLength(0);
  });
});

describe('openai provider: retries and timeouts', () => {
  it('waits out a 429 Retry-After given in seconds, then succeeds', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '2' }, json: { error: { message: 'slow down' } } },
      { json: completion([{ text: 'after the wait' }]) },
    );
    const response = await model().generate(ask);
    expect(response.candidates[0]!.text).toBe('after the wait');
    expect(server.received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(sleeps[0]).toBeLessThan(2500);
  });

  it('waits out a 429 Retry-After given as an HTTP date', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    deps.now = () => now;
    server.script(
      {
        status: 429,
        headers: { 'retry-after': 'Sun, 01 Mar 2026 12:00:03 GMT' },
        json: { error: { message: 'later' } },
      },
      { json: completion([{ text: 'ok' }]) },
    );
    await model().generate(ask);
    expect(sleeps[0]).toBeGreaterThanOrEqual(3000);
    expect(sleeps[0]).toBeLessThan(3500);
  });

  it('gives up at once when Retry-After is longer than the policy waits', async () => {
    server.script({
      status: 429,
      headers: { 'retry-after': '3600' },
      json: { error: { message: 'tomorrow' } },
    });
    const error = await model()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRateLimitError);
    expect((error as ModelRateLimitError).retryAfterMs).toBe(3_600_000);
    expect(server.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 500 after a jittered backoff', async () => {
    server.script(
      { status: 500, json: { error: { message: 'boom' } } },
      { json: completion([{ text: 'recovered' }]) },
    );
    const response = await model().generate(ask);
    expect(response.candidates[0]!.text).toBe('recovered');
    expect(server.received).toHaveLength(2);
    // First backoff window is 500 ms; equal jitter keeps the wait in its upper half.
    expect(sleeps[0]).toBeGreaterThanOrEqual(250);
    expect(sleeps[0]).toBeLessThan(500);
  });

  it('throws ModelServerError after the last retry of a persistent 503', async () => {
    server.fallback = { status: 503, json: { error: { message: 'down' } } };
    const error = await model({ maxRetries: 2 })
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelServerError);
    expect((error as ModelServerError).status).toBe(503);
    expect(server.received).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    // Second window is 1,000 ms.
    expect(sleeps[1]).toBeGreaterThanOrEqual(500);
    expect(sleeps[1]).toBeLessThan(1000);
  });

  it('does not retry a 400', async () => {
    server.script({ status: 400, json: { error: { message: 'n is not supported' } } });
    const error = await model()
      .generate({ ...ask, n: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect((error as ModelRequestError).status).toBe(400);
    expect((error as Error).message).toContain('n is not supported');
    expect(server.received).toHaveLength(1);
  });

  it('a prompt over the context is a ModelContextLengthError, by OpenAI’s code or vLLM’s message, never retried', async () => {
    server.script(
      { status: 400, json: { error: { message: 'too long', code: 'context_length_exceeded' } } },
      {
        status: 400,
        json: {
          error: {
            message: "This model's maximum context length is 2048 tokens. However, you requested 2100 tokens",
          },
        },
      },
    );
    for (let i = 0; i < 2; i++) {
      const error = await model({ maxRetries: 2 })
        .generate(ask)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelContextLengthError);
      expect((error as ModelContextLengthError).status).toBe(400);
    }
    expect(server.received).toHaveLength(2);
    // Another 400 stays a plain request error.
    server.script({ status: 400, json: { error: { message: 'bad n', code: 'invalid_value' } } });
    const other = await model()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(ModelRequestError);
    expect(other).not.toBeInstanceOf(ModelContextLengthError);
  });

  it('enforces the per-call timeout on a server that never answers', async () => {
    server.script({ hang: true });
    const started = performance.now();
    const error = await model({ timeoutMs: 150, maxRetries: 0 })
      .generate(ask)
      .catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ModelTimeoutError);
    expect((error as ModelTimeoutError).timeoutMs).toBe(150);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(2000);
  });

  it('retries a timed-out call', async () => {
    server.script({ hang: true }, { json: completion([{ text: 'second try' }]) });
    const response = await model({ timeoutMs: 150, maxRetries: 1 }).generate(ask);
    expect(response.candidates[0]!.text).toBe('second try');
    expect(server.received).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('stops when the caller aborts, without retrying', async () => {
    server.script({ hang: true });
    const controller = new AbortController();
    const pending = model({ timeoutMs: 10_000 }).generate(ask, controller.signal);
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    await expect(pending).rejects.toThrow('user cancelled');
    expect(server.received).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('treats a refused connection as a retryable server error', async () => {
    const closed = await startFakeOpenAI();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const error = await createTextModel({ provider: 'openai', baseUrl, model: 'm', maxRetries: 1 }, deps)
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelServerError);
    expect((error as ModelServerError).status).toBeUndefined();
    expect(sleeps).toHaveLength(1);
  });
});

describe('openai provider: malformed responses become typed errors', () => {
  async function failure(reply: Parameters<FakeServer['script']>[0]): Promise<ModelResponseError> {
    server.script(reply);
    const error = await model()
      .generate(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelResponseError);
    expect(server.received).toHaveLength(1);
    return error as ModelResponseError;
  }

  it('invalid JSON', async () => {
    const error = await failure({ text: '{"choices": [' });
    expect(error.detail).toMatch(/^invalid JSON: /);
    expect(error.message).toMatch(/^openai: malformed response: invalid JSON/);
  });

  it('no choices', async () => {
    const error = await failure({ json: { id: 'x', usage: { prompt_tokens: 1, completion_tokens: 1 } } });
    expect(error.detail).toMatch(/^choices: /);
  });

  it('empty choices', async () => {
    const error = await failure({ json: { choices: [] } });
    expect(error.detail).toMatch(/^choices: /);
  });

  it('a choice without message content', async () => {
    const error = await failure({ json: { choices: [{ index: 0, message: { role: 'assistant' } }] } });
    expect(error.detail).toMatch(/^choices\[0\]\.message\.content: /);
  });

  it('a log-probability that is not a number', async () => {
    const error = await failure({
      json: {
        choices: [
          { index: 0, message: { content: 'x' }, logprobs: { content: [{ token: 'x', logprob: 'low' }] } },
        ],
      },
    });
    expect(error.detail).toMatch(/^choices\[0\]\.logprobs\.content\[0\]\.logprob: /);
  });

  it('a body that is not JSON at all', async () => {
    const error = await failure({ text: '<html>Bad gateway</html>', contentType: 'text/html' });
    expect(error.detail).toBe('expected a JSON object, got text "<html>Bad gateway</html>"');
  });
});

describe('openai embeddings', () => {
  function embedder(overrides: Record<string, unknown> = {}) {
    return createEmbeddingModel(
      {
        provider: 'openai',
        baseUrl: server.baseUrl,
        apiKey: 'sk-test',
        model: 'local-bge',
        dimensions: 3,
        ...overrides,
      },
      deps,
    );
  }

  it('posts to /v1/embeddings as floats and orders vectors by index', async () => {
    server.script({
      json: {
        object: 'list',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1, 0] },
          { object: 'embedding', index: 0, embedding: [1, 0, 0] },
        ],
        usage: { prompt_tokens: 4, total_tokens: 4 },
      },
    });
    const vectors = await embedder().embed(['first', 'second']);
    expect(vectors).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
    expect(server.received[0]!.path).toBe('/v1/embeddings');
    expect(server.received[0]!.body).toEqual({
      model: 'local-bge',
      input: ['first', 'second'],
      encoding_format: 'float',
    });
  });

  it('splits into batches and serves repeats from the cache', async () => {
    server.fallback = { json: { data: [{ index: 0, embedding: [1, 1, 1] }] } };
    const model = embedder({ batchSize: 1 });
    await model.embed(['a', 'b', 'a']);
    expect(server.received.map((r) => r.body.input)).toEqual([['a'], ['b']]);
    await model.embed(['b', 'a']);
    expect(server.received).toHaveLength(2);
  });

  it('rejects a vector of the wrong width', async () => {
    server.script({ json: { data: [{ index: 0, embedding: [1, 0] }] } });
    await expect(embedder().embed(['x'])).rejects.toThrow(
      'openai: malformed response: embedding 0 has 2 dimensions, expected 3',
    );
  });

  it('needs dimensions for a model it does not know', () => {
    expect(() => embedder({ dimensions: undefined })).toThrow(
      'unknown embedding model local-bge: set dimensions',
    );
  });
});
