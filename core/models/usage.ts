/**
 * Usage accounting: what each run and episode spent on models (calls, tokens in and out, latency, estimated
 * cost). Providers fill `GenerateResponse.usage` per call; `meteredModel` wraps a model for one run/episode
 * and adds every response's usage to a shared `UsageMeter`, so attribution never depends on the request.
 *
 * Prices (US dollars per million tokens) are published list prices, copied here so cost estimates need no
 * network:
 * - Workers AI, from developers.cloudflare.com/workers-ai/platform/pricing (billed as neurons at
 *   $0.011 / 1,000; the page states the per-token equivalents used here).
 * - OpenAI, from openai.com/api/pricing (standard tier, no cached-input discount).
 * Local and self-hosted servers (vLLM, Ollama) and the simulator cost 0. A model missing from the table is
 * estimated at 0 as well: `isPriced` tells the two cases apart for reports.
 */
import type { GenerateResponse, TextModel, Usage } from './types.ts';
import { addUsage, emptyUsage } from './types.ts';

export interface ModelPrice {
  inputPerMTokUsd: number;
  outputPerMTokUsd: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

export const MODEL_PRICES: PriceTable = {
  // Workers AI text generation.
  '@cf/meta/llama-3.2-1b-instruct': { inputPerMTokUsd: 0.027, outputPerMTokUsd: 0.201 },
  '@cf/meta/llama-3.2-3b-instruct': { inputPerMTokUsd: 0.051, outputPerMTokUsd: 0.335 },
  '@cf/meta/llama-3.1-8b-instruct': { inputPerMTokUsd: 0.282, outputPerMTokUsd: 0.827 },
  '@cf/meta/llama-3.1-8b-instruct-fp8': { inputPerMTokUsd: 0.152, outputPerMTokUsd: 0.287 },
  '@cf/meta/llama-3.1-8b-instruct-fp8-fast': { inputPerMTokUsd: 0.045, outputPerMTokUsd: 0.384 },
  '@cf/meta/llama-3.1-8b-instruct-awq': { inputPerMTokUsd: 0.123, outputPerMTokUsd: 0.266 },
  '@cf/meta/llama-3-8b-instruct': { inputPerMTokUsd: 0.282, outputPerMTokUsd: 0.827 },
  '@cf/meta/llama-3.3-70b-instruct-fp8-fast': { inputPerMTokUsd: 0.293, outputPerMTokUsd: 2.253 },
  '@cf/mistral/mistral-7b-instruct-v0.1': { inputPerMTokUsd: 0.11, outputPerMTokUsd: 0.19 },
  '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b': { inputPerMTokUsd: 0.497, outputPerMTokUsd: 4.881 },
  // Workers AI embeddings (input tokens only).
  '@cf/baai/bge-small-en-v1.5': { inputPerMTokUsd: 0.02, outputPerMTokUsd: 0 },
  '@cf/baai/bge-base-en-v1.5': { inputPerMTokUsd: 0.067, outputPerMTokUsd: 0 },
  '@cf/baai/bge-large-en-v1.5': { inputPerMTokUsd: 0.204, outputPerMTokUsd: 0 },
  // OpenAI.
  'gpt-4o-mini': { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 },
  'gpt-4o': { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 },
  'gpt-4.1-mini': { inputPerMTokUsd: 0.4, outputPerMTokUsd: 1.6 },
  'gpt-4.1-nano': { inputPerMTokUsd: 0.1, outputPerMTokUsd: 0.4 },
  'text-embedding-3-small': { inputPerMTokUsd: 0.02, outputPerMTokUsd: 0 },
  'text-embedding-3-large': { inputPerMTokUsd: 0.13, outputPerMTokUsd: 0 },
};

/** The price of `model`: an exact entry, else the longest entry it extends with a dash (dated snapshots). */
export function priceOf(model: string, prices: PriceTable = MODEL_PRICES): ModelPrice | undefined {
  const exact = prices[model];
  if (exact) return exact;
  let best: string | undefined;
  for (const name of Object.keys(prices)) {
    if (model.startsWith(`${name}-`) && (best === undefined || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : prices[best];
}

export function isPriced(model: string, prices: PriceTable = MODEL_PRICES): boolean {
  return priceOf(model, prices) !== undefined;
}

export function estimateCostUsd(
  model: string,
  inputTokens: number,
  outputTokens: number,
  prices: PriceTable = MODEL_PRICES,
): number {
  const price = priceOf(model, prices);
  if (!price) return 0;
  return (inputTokens * price.inputPerMTokUsd + outputTokens * price.outputPerMTokUsd) / 1_000_000;
}

/** Who made a call: the run, and within it the episode (absent for run-level work such as tool learning). */
export interface UsageScope {
  runId: string;
  episodeId?: string | undefined;
}

export interface UsageRecord {
  runId: string;
  episodeId: string | null;
  model: string;
  usage: Usage;
}

export class UsageMeter {
  // Keyed by run, episode and model; NUL cannot occur in ids that reach us through URLs and JSON.
  readonly #records = new Map<string, UsageRecord>();

  record(scope: UsageScope, model: string, usage: Usage): void {
    const episodeId = scope.episodeId ?? null;
    const key = `${scope.runId}\u0000${episodeId ?? ''}\u0000${model}`;
    const existing = this.#records.get(key);
    if (existing) existing.usage = addUsage(existing.usage, usage);
    else this.#records.set(key, { runId: scope.runId, episodeId, model, usage: { ...usage } });
  }

  /** Everything a run spent, its episodes included. */
  forRun(runId: string): Usage {
    return this.#sum((r) => r.runId === runId);
  }

  forEpisode(runId: string, episodeId: string): Usage {
    return this.#sum((r) => r.runId === runId && r.episodeId === episodeId);
  }

  total(): Usage {
    return this.#sum(() => true);
  }

  /** Per run, episode and model, sorted by those keys (run-level records before episodes). */
  records(): UsageRecord[] {
    return [...this.#records.values()]
      .map((r) => ({ ...r, usage: { ...r.usage } }))
      .sort(
        (a, b) =>
          compare(a.runId, b.runId) ||
          compare(a.episodeId ?? '', b.episodeId ?? '') ||
          compare(a.model, b.model),
      );
  }

  #sum(keep: (r: UsageRecord) => boolean): Usage {
    let total = emptyUsage();
    for (const r of this.#records.values()) if (keep(r)) total = addUsage(total, r.usage);
    return total;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `model` as seen by one run/episode: every response's usage is added to `meter` under `scope`. */
export function meteredModel(model: TextModel, meter: UsageMeter, scope: UsageScope): TextModel {
  return {
    provider: model.provider,
    model: model.model,
    capabilities: model.capabilities,
    async generate(request, signal): Promise<GenerateResponse> {
      const response = await model.generate(request, signal);
      meter.record(scope, response.model, response.usage);
      return response;
    },
  };
}
