import { describe, expect, it } from 'vitest';
import { CachedEmbeddingModel } from '../../../core/models/embeddings.ts';
import { ModelConfigError } from '../../../core/models/errors.ts';
import { createEmbeddingModel, createTextModel, type SimConfig } from '../../../core/models/factory.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { OpenAICompatibleModel } from '../../../core/models/openai.ts';
import type { TextModel } from '../../../core/models/types.ts';
import { WorkersAiTextModel } from '../../../core/models/workers-ai.ts';

const ai = { run: async () => ({ response: 'ok' }) };

describe('createTextModel', () => {
  it('builds each provider with its defaults', () => {
    const workers = createTextModel({ provider: 'workers-ai' }, { ai });
    expect(workers).toBeInstanceOf(WorkersAiTextModel);
    expect(workers.model).toBe('@cf/meta/llama-3.1-8b-instruct');

    const openai = createTextModel({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'Qwen/Qwen2.5-7B',
    });
    expect(openai).toBeInstanceOf(OpenAICompatibleModel);
    expect(openai.capabilities).toMatchObject({
      n: true,
      logprobs: true,
      seed: true,
      structuredOutput: true,
    });
  });

  it('hands sim configurations, extra options included, to the simulated policy’s factory', () => {
    const seen: SimConfig[] = [];
    const simModel: TextModel = {
      provider: 'sim',
      model: 'tooldrift-sim-v1',
      capabilities: { n: true, logprobs: true, seed: true, embeddings: false, simulated: true },
      generate: async () => ({
        candidates: [],
        model: 'tooldrift-sim-v1',
        usage: { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
      }),
    };
    const model = createTextModel(
      { provider: 'sim', seed: 's1', skill: 0.8 },
      {
        sim: (c) => {
          seen.push(c);
          return simModel;
        },
      },
    );
    expect(model).toBe(simModel);
    expect(seen).toEqual([{ provider: 'sim', model: 'tooldrift-sim-v1', seed: 's1', skill: 0.8 }]);
    expect(() => createTextModel({ provider: 'sim' })).toThrow('provider sim needs deps.sim');
  });

  it('rejects invalid configurations with a ModelConfigError that says what is wrong', () => {
    const bad = (config: unknown) => {
      try {
        createTextModel(config, { ai });
      } catch (error) {
        expect(error).toBeInstanceOf(ModelConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a ModelConfigError');
    };
    expect(bad({ provider: 'gemini' })).toMatch(/^invalid text model configuration: /);
    expect(bad({ provider: 'openai', model: 'm' })).toContain('baseUrl');
    expect(bad({ provider: 'openai', model: 'm', baseUrl: 'ftp://host/v1' })).toContain('baseUrl');
    expect(bad({ provider: 'workers-ai', timeoutMs: 0 })).toContain('timeoutMs');
    expect(bad({ provider: 'workers-ai', maxRetries: -1 })).toContain('maxRetries');
    expect(bad({ provider: 'workers-ai', concurrency: 1.5 })).toContain('concurrency');
    expect(bad({ provider: 'workers-ai', modle: 'typo' })).toContain('modle');
    expect(bad({ provider: 'replay', mode: 'rewind' })).toContain('mode');
  });
});

describe('createEmbeddingModel', () => {
  it('defaults nothing: the provider must be named', () => {
    expect(() => createEmbeddingModel({})).toThrow(ModelConfigError);
  });

  it('builds lexical bare and remote providers behind the cache', () => {
    expect(createEmbeddingModel({ provider: 'lexical' })).toBeInstanceOf(LexicalEmbeddingModel);
    const bge = createEmbeddingModel({ provider: 'workers-ai', model: '@cf/baai/bge-small-en-v1.5' }, { ai });
    expect(bge).toBeInstanceOf(CachedEmbeddingModel);
    expect(bge.dimensions).toBe(384);
    expect((bge as CachedEmbeddingModel).batchSize).toBe(100);
    expect(() => createEmbeddingModel({ provider: 'workers-ai', batchSize: 101 }, { ai })).toThrow(
      'batchSize',
    );
    expect(() =>
      createEmbeddingModel({ provider: 'workers-ai', model: '@cf/unknown/embedder' }, { ai }),
    ).toThrow('unknown embedding model @cf/unknown/embedder: set dimensions');
  });
});
