import { describe, expect, it } from 'vitest';
import type { GenerateResponse, TextModel, Usage } from '../../../core/models/types.ts';
import {
  estimateCostUsd,
  isPriced,
  MODEL_PRICES,
  meteredModel,
  priceOf,
  UsageMeter,
} from '../../../core/models/usage.ts';

const usage = (
  calls: number,
  inputTokens: number,
  outputTokens: number,
  latencyMs = 10,
  costUsd = 0,
): Usage => ({
  calls,
  inputTokens,
  outputTokens,
  latencyMs,
  costUsd,
});

describe('cost estimate', () => {
  it('prices Workers AI and OpenAI models per million tokens', () => {
    expect(estimateCostUsd('@cf/meta/llama-3.1-8b-instruct', 1_000_000, 1_000_000)).toBeCloseTo(
      0.282 + 0.827,
      12,
    );
    expect(estimateCostUsd('gpt-4o-mini', 2_000, 500)).toBeCloseTo((2000 * 0.15 + 500 * 0.6) / 1e6, 15);
    expect(estimateCostUsd('@cf/baai/bge-base-en-v1.5', 1_000_000, 0)).toBeCloseTo(0.067, 12);
  });

  it('prices dated snapshots by their base model and leaves unknown models at 0', () => {
    // Both gpt-4o and gpt-4o-mini prefix it; the longest entry wins.
    expect(priceOf('gpt-4o-mini-2024-07-18')).toBe(MODEL_PRICES['gpt-4o-mini']);
    expect(priceOf('gpt-4o-2024-08-06')).toBe(MODEL_PRICES['gpt-4o']);
    expect(isPriced('Qwen/Qwen2.5-7B-Instruct')).toBe(false);
    expect(estimateCostUsd('Qwen/Qwen2.5-7B-Instruct', 10_000, 10_000)).toBe(0);
    expect(
      estimateCostUsd('custom', 1_000_000, 0, { custom: { inputPerMTokUsd: 2, outputPerMTokUsd: 0 } }),
    ).toBe(2);
  });
});

describe('UsageMeter', () => {
  it('attributes usage to runs and episodes and sums it', () => {
    const meter = new UsageMeter();
    meter.record({ runId: 'run-1', episodeId: 'ep-1' }, 'm', usage(1, 100, 10, 50, 0.01));
    meter.record({ runId: 'run-1', episodeId: 'ep-1' }, 'm', usage(2, 200, 20, 70, 0.02));
    meter.record({ runId: 'run-1', episodeId: 'ep-2' }, 'm', usage(1, 10, 1));
    meter.record({ runId: 'run-1' }, 'embedder', usage(1, 5, 0));
    meter.record({ runId: 'run-2', episodeId: 'ep-1' }, 'm', usage(4, 40, 4));

    expect(meter.forEpisode('run-1', 'ep-1')).toEqual({
      calls: 3,
      inputTokens: 300,
      outputTokens: 30,
      latencyMs: 120,
      costUsd: 0.03,
    });
    expect(meter.forRun('run-1')).toMatchObject({ calls: 5, inputTokens: 315, outputTokens: 31 });
    expect(meter.forRun('run-3')).toEqual(usage(0, 0, 0, 0, 0));
    expect(meter.total()).toMatchObject({ calls: 9, inputTokens: 355 });
    expect(meter.records().map((r) => [r.runId, r.episodeId, r.model, r.usage.calls])).toEqual([
      ['run-1', null, 'embedder', 1],
      ['run-1', 'ep-1', 'm', 3],
      ['run-1', 'ep-2', 'm', 1],
      ['run-2', 'ep-1', 'm', 4],
    ]);
  });

  it('meters a model for one run and episode', async () => {
    const inner: TextModel = {
      provider: 'fake',
      model: 'fake-1',
      capabilities: { n: true, logprobs: false, seed: true, embeddings: false, simulated: false },
      async generate(): Promise<GenerateResponse> {
        return { candidates: [{ text: 'x', finishReason: 'stop' }], model: 'fake-1', usage: usage(1, 7, 3) };
      },
    };
    const meter = new UsageMeter();
    const episode = meteredModel(inner, meter, { runId: 'r', episodeId: 'e' });
    expect(episode.model).toBe('fake-1');
    await episode.generate({ messages: [{ role: 'user', content: 'q' }] });
    await episode.generate({ messages: [{ role: 'user', content: 'q' }] });
    expect(meter.forEpisode('r', 'e')).toMatchObject({ calls: 2, inputTokens: 14, outputTokens: 6 });
    expect(meter.forEpisode('r', 'other')).toMatchObject({ calls: 0 });
  });
});
