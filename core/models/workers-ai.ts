/**
 * The `workers-ai` provider: text generation and embeddings through the Workers AI binding
 * (`env.AI.run(model, inputs, { signal })`). Model names are configuration; what each model accepts comes
 * from the table below, built from the typed input schemas in @cloudflare/workers-types:
 * - `legacy` text-generation models (Llama, Mistral, …) take `{ messages, max_tokens, temperature, top_p,
 *   frequency_penalty, seed }` and answer `{ response, usage }`. They have no `n`, no log-probabilities and no stop sequences,
 *   so k candidates cost k calls, no log-probabilities are reported, and stop sequences are applied here by
 *   cutting the text at the first one (as an OpenAI server would, the stop sequence itself is not kept).
 * - `chat-completions` models (gpt-oss, GLM, Kimi, …) take and answer the OpenAI chat-completions format,
 *   `n`, `logprobs` and `stop` included.
 * A model missing from the table is treated as legacy (no `n`, no log-probabilities) but either answer shape
 * is accepted. Binding failures carry Workers AI's internal error codes in their message (`3040: …`); they
 * are mapped onto the typed errors by the code table from developers.cloudflare.com/workers-ai/platform/errors.
 */
import { z } from 'zod';
import type { CallPolicy } from './call-policy.ts';
import {
  chatCompletionBody,
  describeZodError,
  type ParsedCall,
  parseChatCompletion,
} from './chat-completions.ts';
import { checkEmbeddings } from './embeddings.ts';
import {
  ModelConfigError,
  ModelError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from './errors.ts';
import { candidateCount, sampleCandidates, sampledResponse } from './k-samples.ts';
import type {
  Candidate,
  Capabilities,
  EmbeddingModel,
  GenerateRequest,
  GenerateResponse,
  TextModel,
} from './types.ts';
import { MODEL_PRICES, type PriceTable } from './usage.ts';

/**
 * The part of the Workers AI binding (`Ai` in @cloudflare/workers-types) this module uses; declared here so
 * core stays free of Workers-only types and tests can pass a plain object.
 */
export interface AiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export interface WorkersAiTextModelInfo {
  format: 'legacy' | 'chat-completions';
  n: boolean;
  logprobs: boolean;
  seed: boolean;
  stop: boolean;
  /** JSON-Schema output (`response_format`). */
  structuredOutput: boolean;
}

const LEGACY: WorkersAiTextModelInfo = {
  format: 'legacy',
  n: false,
  logprobs: false,
  seed: true,
  stop: false,
  structuredOutput: false,
};
const LEGACY_JSON: WorkersAiTextModelInfo = { ...LEGACY, structuredOutput: true };
const CHAT: WorkersAiTextModelInfo = {
  format: 'chat-completions',
  n: true,
  logprobs: true,
  seed: true,
  stop: true,
  structuredOutput: true,
};

export const WORKERS_AI_TEXT_MODELS: Readonly<Record<string, WorkersAiTextModelInfo>> = {
  '@cf/meta/llama-3.1-8b-instruct': LEGACY_JSON,
  '@cf/meta/llama-3.1-8b-instruct-fp8': LEGACY,
  '@cf/meta/llama-3.1-8b-instruct-fp8-fast': LEGACY,
  '@cf/meta/llama-3.1-8b-instruct-awq': LEGACY,
  '@cf/meta/llama-3-8b-instruct': LEGACY_JSON,
  '@cf/meta/llama-3.2-1b-instruct': LEGACY,
  '@cf/meta/llama-3.2-3b-instruct': LEGACY,
  '@cf/meta/llama-3.3-70b-instruct-fp8-fast': LEGACY_JSON,
  '@cf/mistral/mistral-7b-instruct-v0.1': LEGACY,
  '@cf/deepseek-ai/deepseek-r1-distill-qwen-32b': LEGACY_JSON,
  '@cf/openai/gpt-oss-120b': CHAT,
  '@cf/openai/gpt-oss-20b': CHAT,
  '@cf/zai-org/glm-4.7-flash': CHAT,
  '@cf/moonshotai/kimi-k2.5': CHAT,
  '@cf/moonshotai/kimi-k2.6': CHAT,
  '@cf/google/gemma-4-26b-a4b-it': CHAT,
  '@cf/nvidia/nemotron-3-120b-a12b': CHAT,
};

export function workersAiModelInfo(model: string): WorkersAiTextModelInfo {
  return WORKERS_AI_TEXT_MODELS[model] ?? LEGACY;
}

/** Workers AI's default `max_tokens` for text generation, used to tell a cut-off answer from a finished one. */
export const WORKERS_AI_DEFAULT_MAX_TOKENS = 256;

const PROVIDER = 'workers-ai';

type ErrorClass = 'request' | 'rate-limit' | 'quota' | 'timeout';

/** Internal error codes (developers.cloudflare.com/workers-ai/platform/errors). */
const ERROR_CODES: Readonly<Record<number, ErrorClass>> = {
  5007: 'request', // No such model
  5004: 'request', // Invalid data
  3039: 'request', // Finetune missing required files
  3003: 'request', // Incomplete request
  5018: 'request', // Account not allowed for private model
  5016: 'request', // Model agreement
  3023: 'request', // Account blocked
  3041: 'request', // Account not allowed for private model
  5019: 'request', // Deprecated SDK version
  5005: 'request', // LoRa unsupported
  3042: 'request', // Invalid model ID
  3006: 'request', // Request too large
  3007: 'timeout', // Request timeout
  3008: 'timeout', // Request was aborted (upstream)
  3036: 'quota', // Daily free allocation used up: waiting minutes will not help
  3040: 'rate-limit', // Out of capacity
};

/** Maps what `AI.run` threw onto the typed errors. */
export function workersAiError(error: unknown, signal: AbortSignal, timeoutMs: number): unknown {
  if (error instanceof ModelError) return error;
  if (signal.aborted) return signal.reason;
  // Mistakes in our own code, not transport failures.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const text = `${PROVIDER}: ${message}`;
  const code = /(?:^|\D)(\d{4}):/.exec(message)?.[1];
  switch (code === undefined ? undefined : ERROR_CODES[Number(code)]) {
    case 'request':
      return new ModelRequestError(PROVIDER, undefined, text, { cause: error });
    case 'timeout':
      return new ModelTimeoutError(PROVIDER, timeoutMs, text, { cause: error });
    case 'rate-limit':
      return new ModelRateLimitError(PROVIDER, text, { cause: error });
    case 'quota':
      return new ModelRateLimitError(PROVIDER, text, { retryable: false, cause: error });
    default:
      return new ModelServerError(PROVIDER, undefined, text, { cause: error });
  }
}

const LegacyOutputSchema = z.object({
  // JSON mode answers with the parsed object rather than its text.
  response: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  usage: z
    .object({ prompt_tokens: z.number().nonnegative(), completion_tokens: z.number().nonnegative() })
    .optional(),
});

/** Cuts `text` before the earliest stop sequence; null when none occurs. */
export function cutAtStop(text: string, stop: readonly string[] | undefined): string | null {
  let cut = -1;
  for (const s of stop ?? []) {
    if (s === '') continue;
    const at = text.indexOf(s);
    if (at >= 0 && (cut < 0 || at < cut)) cut = at;
  }
  return cut < 0 ? null : text.slice(0, cut);
}

export interface WorkersAiTextOptions {
  ai: AiBinding | undefined;
  model: string;
  policy: CallPolicy;
  /** Overrides for the model table (e.g. a new model whose schema gained `n`). */
  capabilities?: Partial<Omit<WorkersAiTextModelInfo, 'format'>> | undefined;
  prices?: PriceTable | undefined;
  now?: (() => number) | undefined;
}

export class WorkersAiTextModel implements TextModel {
  readonly provider = PROVIDER;
  readonly model: string;
  readonly capabilities: Capabilities;
  readonly #ai: AiBinding;
  readonly #options: WorkersAiTextOptions;
  readonly #now: () => number;

  constructor(options: WorkersAiTextOptions) {
    if (!options.ai)
      throw new ModelConfigError(
        'workers-ai: the AI binding is missing (add an "ai" binding to wrangler.toml)',
        PROVIDER,
      );
    this.#ai = options.ai;
    this.model = options.model;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const info = this.#info(options.model);
    this.capabilities = {
      n: info.n,
      logprobs: info.logprobs,
      seed: info.seed,
      structuredOutput: info.structuredOutput,
      embeddings: true,
      simulated: false,
    };
  }

  #info(model: string): WorkersAiTextModelInfo {
    return { ...workersAiModelInfo(model), ...this.#options.capabilities };
  }

  async generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse> {
    const k = candidateCount(PROVIDER, request.n);
    const model = request.model ?? this.model;
    const info = this.#info(model);
    const wantLogprobs = Boolean(request.logprobs) && info.logprobs;
    const started = this.#now();
    const sampled = await sampleCandidates(k, info.n, async (n, index) => {
      const inputs = this.#inputs(request, model, info, n, wantLogprobs, index);
      const parsed = await this.#run(model, inputs, wantLogprobs, signal);
      if (!info.stop) parsed.candidates = parsed.candidates.map((c) => applyStop(c, request.stop));
      return parsed;
    });
    return sampledResponse(sampled, model, this.#now() - started, this.#options.prices ?? MODEL_PRICES);
  }

  #inputs(
    request: GenerateRequest,
    model: string,
    info: WorkersAiTextModelInfo,
    n: number,
    wantLogprobs: boolean,
    index: number,
  ): Record<string, unknown> {
    const seed = info.seed && request.seed !== undefined ? request.seed + index : undefined;
    if (info.format === 'chat-completions') {
      const body = chatCompletionBody(request, model, {
        n,
        logprobs: wantLogprobs,
        seed,
        structuredOutput: info.structuredOutput,
      });
      // The binding names the model in its first argument.
      delete body.model;
      if (!info.stop) delete body.stop;
      return body;
    }
    const inputs: Record<string, unknown> = {
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    };
    if (request.maxTokens !== undefined) inputs.max_tokens = request.maxTokens;
    if (request.temperature !== undefined) inputs.temperature = request.temperature;
    if (request.topP !== undefined) inputs.top_p = request.topP;
    // AiTextGenerationInput takes frequency_penalty (0–2); a negative value is not accepted there.
    if (request.frequencyPenalty !== undefined && request.frequencyPenalty >= 0)
      inputs.frequency_penalty = request.frequencyPenalty;
    if (seed !== undefined) inputs.seed = seed;
    if (info.stop && request.stop && request.stop.length > 0) inputs.stop = request.stop;
    if (info.structuredOutput && request.jsonSchema) {
      inputs.response_format = { type: 'json_schema', json_schema: request.jsonSchema.schema };
    }
    if (n > 1) inputs.n = n;
    if (wantLogprobs) inputs.logprobs = true;
    return inputs;
  }

  #run(
    model: string,
    inputs: Record<string, unknown>,
    wantLogprobs: boolean,
    signal: AbortSignal | undefined,
  ): Promise<ParsedCall> {
    const { policy } = this.#options;
    const maxTokens =
      typeof inputs.max_tokens === 'number' ? inputs.max_tokens : WORKERS_AI_DEFAULT_MAX_TOKENS;
    return policy.run(async (callSignal) => {
      let raw: unknown;
      try {
        raw = await this.#ai.run(model, inputs, { signal: callSignal });
      } catch (error) {
        throw workersAiError(error, callSignal, policy.options.timeoutMs);
      }
      return parseWorkersAiText(raw, wantLogprobs, maxTokens);
    }, signal);
  }
}

function applyStop(candidate: Candidate, stop: readonly string[] | undefined): Candidate {
  const cut = cutAtStop(candidate.text, stop);
  return cut === null ? candidate : { ...candidate, text: cut, finishReason: 'stop' };
}

/** Either answer shape: OpenAI `choices`, or the legacy `{ response, usage }`. */
export function parseWorkersAiText(raw: unknown, wantLogprobs: boolean, maxTokens: number): ParsedCall {
  if (raw !== null && typeof raw === 'object' && 'choices' in raw)
    return parseChatCompletion(PROVIDER, raw, wantLogprobs);
  const parsed = LegacyOutputSchema.safeParse(raw);
  if (!parsed.success) throw new ModelResponseError(PROVIDER, describeZodError(parsed.error));
  const { response, usage } = parsed.data;
  const outputTokens = usage?.completion_tokens ?? 0;
  return {
    candidates: [
      {
        text: typeof response === 'string' ? response : JSON.stringify(response),
        // The legacy format reports no finish reason: an answer that used every allowed token was cut off.
        finishReason: usage && outputTokens >= maxTokens ? 'length' : 'stop',
      },
    ],
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens,
    model: undefined,
  };
}

/** Output widths of the Workers AI embedding models. */
export const WORKERS_AI_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  '@cf/baai/bge-small-en-v1.5': 384,
  '@cf/baai/bge-base-en-v1.5': 768,
  '@cf/baai/bge-large-en-v1.5': 1024,
  '@cf/baai/bge-m3': 1024,
  '@cf/google/embeddinggemma-300m': 768,
  '@cf/qwen/qwen3-embedding-0.6b': 1024,
};

/** The most texts one bge request takes. */
export const WORKERS_AI_EMBEDDING_BATCH = 100;

const EmbeddingOutputSchema = z.object({ data: z.array(z.array(z.number())) });

export interface WorkersAiEmbeddingOptions {
  ai: AiBinding | undefined;
  model: string;
  policy: CallPolicy;
  dimensions?: number | undefined;
}

/** `AI.run('@cf/baai/bge-…', { text: [...] })` → `{ shape, data }`; one request per `embed` call. */
export class WorkersAiEmbeddingModel implements EmbeddingModel {
  readonly provider = PROVIDER;
  readonly model: string;
  readonly dimensions: number;
  readonly #ai: AiBinding;
  readonly #policy: CallPolicy;

  constructor(options: WorkersAiEmbeddingOptions) {
    if (!options.ai)
      throw new ModelConfigError(
        'workers-ai: the AI binding is missing (add an "ai" binding to wrangler.toml)',
        PROVIDER,
      );
    const dimensions = options.dimensions ?? WORKERS_AI_EMBEDDING_DIMENSIONS[options.model];
    if (dimensions === undefined) {
      throw new ModelConfigError(
        `workers-ai: unknown embedding model ${options.model}: set dimensions`,
        PROVIDER,
      );
    }
    this.#ai = options.ai;
    this.model = options.model;
    this.dimensions = dimensions;
    this.#policy = options.policy;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    const policy = this.#policy;
    const raw = await policy.run(async (callSignal) => {
      try {
        return await this.#ai.run(this.model, { text: texts }, { signal: callSignal });
      } catch (error) {
        throw workersAiError(error, callSignal, policy.options.timeoutMs);
      }
    }, signal);
    return checkEmbeddings(PROVIDER, raw, texts.length, this.dimensions, (value) => {
      const parsed = EmbeddingOutputSchema.safeParse(value);
      if (!parsed.success) throw new ModelResponseError(PROVIDER, describeZodError(parsed.error));
      return parsed.data.data;
    });
  }
}
