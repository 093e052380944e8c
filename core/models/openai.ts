/**
 * The `openai` provider: any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp, LiteLLM, …) at a base
 * URL, through the official `openai` client, which runs in Node and workerd alike. The client is built with
 * `maxRetries: 0` so that retries, deadlines and the connection cap live in one place (`CallPolicy`), and
 * with an injectable `fetch` so tests and Workers decide how requests leave.
 *
 * vLLM honours `n`, `logprobs` (summed per candidate), `seed` and JSON-Schema structured output; servers that
 * do not (Ollama ignores `n`) are configured with `capabilities: { n: false, … }`, which switches to k calls.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { z } from 'zod';
import type { CallPolicy } from './call-policy.ts';
import { chatCompletionBody, describeZodError, parseChatCompletion } from './chat-completions.ts';
import { checkEmbeddings } from './embeddings.ts';
import {
  isContextLengthError,
  ModelConfigError,
  ModelContextLengthError,
  ModelError,
  ModelRateLimitError,
  ModelRequestError,
  ModelResponseError,
  ModelServerError,
  ModelTimeoutError,
} from './errors.ts';
import { candidateCount, type SampleCall, sampleCandidates, sampledResponse } from './k-samples.ts';
import { retryAfterFromHeaders } from './retry.ts';
import type { Capabilities, EmbeddingModel, GenerateRequest, GenerateResponse, TextModel } from './types.ts';
import { MODEL_PRICES, type PriceTable } from './usage.ts';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface OpenAIConnection {
  /** e.g. `http://localhost:8000/v1` (vLLM) or `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Bearer key; local servers that need none get a placeholder (the client insists on one). */
  apiKey?: string | undefined;
  policy: CallPolicy;
  /** The transport; defaults to the global fetch (called unbound, as workerd requires). */
  fetch?: FetchLike | undefined;
  /** Wall clock for latency and Retry-After dates. */
  now?: (() => number) | undefined;
}

export interface OpenAITextOptions extends OpenAIConnection {
  model: string;
  /** What the server supports; defaults to everything vLLM offers. */
  capabilities?: Partial<Pick<Capabilities, 'n' | 'logprobs' | 'seed' | 'structuredOutput'>> | undefined;
  prices?: PriceTable | undefined;
}

const PROVIDER = 'openai';

export function createOpenAIClient(connection: OpenAIConnection): OpenAI {
  const transport: FetchLike = connection.fetch ?? ((input, init) => fetch(input, init));
  return new OpenAI({
    baseURL: connection.baseUrl,
    apiKey: connection.apiKey || 'unused',
    maxRetries: 0,
    timeout: connection.policy.options.timeoutMs,
    fetch: transport,
  });
}

/** Turns whatever the client threw into a typed model error (errors that are not transport errors pass). */
export function toModelError(error: unknown, signal: AbortSignal, timeoutMs: number, nowMs: number): unknown {
  if (error instanceof ModelError) return error;
  // Our own deadline or the caller aborted: the signal's reason says which.
  if (error instanceof APIUserAbortError) return signal.aborted ? signal.reason : error;
  if (error instanceof APIConnectionTimeoutError)
    return new ModelTimeoutError(PROVIDER, timeoutMs, undefined, { cause: error });
  if (error instanceof APIConnectionError) {
    return new ModelServerError(PROVIDER, undefined, `${PROVIDER}: connection failed: ${error.message}`, {
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const status = error.status;
    const retryAfterMs = retryAfterFromHeaders(error.headers, nowMs);
    const message = `${PROVIDER}: HTTP ${status ?? '?'}: ${error.message}`;
    if (status === 429) return new ModelRateLimitError(PROVIDER, message, { retryAfterMs, cause: error });
    if (status === 408) return new ModelTimeoutError(PROVIDER, timeoutMs, message, { cause: error });
    if (status === undefined || status >= 500)
      return new ModelServerError(PROVIDER, status, message, { retryAfterMs, cause: error });
    if (isContextLengthError(error.code, error.message))
      return new ModelContextLengthError(PROVIDER, status, message, { cause: error });
    return new ModelRequestError(PROVIDER, status, message, { cause: error });
  }
  // A 2xx body announced as JSON that does not parse.
  if (error instanceof SyntaxError)
    return new ModelResponseError(PROVIDER, `invalid JSON: ${error.message}`, { cause: error });
  return error;
}

export class OpenAICompatibleModel implements TextModel {
  readonly provider = PROVIDER;
  readonly model: string;
  readonly capabilities: Capabilities;
  readonly #client: OpenAI;
  readonly #options: OpenAITextOptions;
  readonly #now: () => number;

  constructor(options: OpenAITextOptions) {
    this.model = options.model;
    this.#options = options;
    this.#client = createOpenAIClient(options);
    this.#now = options.now ?? Date.now;
    this.capabilities = {
      n: options.capabilities?.n ?? true,
      logprobs: options.capabilities?.logprobs ?? true,
      seed: options.capabilities?.seed ?? true,
      structuredOutput: options.capabilities?.structuredOutput ?? true,
      embeddings: true,
      simulated: false,
    };
  }

  async generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse> {
    const k = candidateCount(PROVIDER, request.n);
    const model = request.model ?? this.model;
    const caps = this.capabilities;
    const wantLogprobs = Boolean(request.logprobs) && caps.logprobs;
    const started = this.#now();
    const sampled = await sampleCandidates(k, caps.n, (n, index) => {
      const body = chatCompletionBody(request, model, {
        n,
        logprobs: wantLogprobs,
        // Separate calls need distinct seeds, or a seeded server returns k copies of one sample.
        seed: caps.seed && request.seed !== undefined ? request.seed + index : undefined,
        structuredOutput: Boolean(caps.structuredOutput),
      });
      return this.#call(body, wantLogprobs, signal);
    });
    // Cost is estimated under the requested model's price; the answering model is reported as the server says.
    const response = sampledResponse(
      sampled,
      model,
      this.#now() - started,
      this.#options.prices ?? MODEL_PRICES,
    );
    return { ...response, model: sampled.model ?? model };
  }

  #call(
    body: Record<string, unknown>,
    wantLogprobs: boolean,
    signal: AbortSignal | undefined,
  ): Promise<SampleCall> {
    const { policy } = this.#options;
    return policy.run(async (callSignal) => {
      let raw: unknown;
      try {
        raw = await this.#client.chat.completions.create(
          body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
          { signal: callSignal },
        );
      } catch (error) {
        throw toModelError(error, callSignal, policy.options.timeoutMs, this.#now());
      }
      return parseChatCompletion(PROVIDER, raw, wantLogprobs);
    }, signal);
  }
}

const EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const EmbeddingResponseSchema = z.object({
  data: z.array(
    z.object({ index: z.number().int().nonnegative().optional(), embedding: z.array(z.number()) }),
  ),
});

export interface OpenAIEmbeddingOptions extends OpenAIConnection {
  model: string;
  /** Needed for models outside the built-in table (e.g. a bge model served by vLLM). */
  dimensions?: number | undefined;
}

/** `/v1/embeddings`; one request per `embed` call (batching and caching are `CachedEmbeddingModel`'s job). */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly provider = PROVIDER;
  readonly model: string;
  readonly dimensions: number;
  readonly #client: OpenAI;
  readonly #options: OpenAIEmbeddingOptions;

  constructor(options: OpenAIEmbeddingOptions) {
    const dimensions = options.dimensions ?? EMBEDDING_DIMENSIONS[options.model];
    if (dimensions === undefined) {
      throw new ModelConfigError(
        `${PROVIDER}: unknown embedding model ${options.model}: set dimensions`,
        PROVIDER,
      );
    }
    this.model = options.model;
    this.dimensions = dimensions;
    this.#options = options;
    this.#client = createOpenAIClient(options);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    const { policy } = this.#options;
    const now = this.#options.now ?? Date.now;
    const raw = await policy.run(async (callSignal) => {
      try {
        return await this.#client.embeddings.create(
          { model: this.model, input: texts, encoding_format: 'float' },
          { signal: callSignal },
        );
      } catch (error) {
        throw toModelError(error, callSignal, policy.options.timeoutMs, now());
      }
    }, signal);
    return checkEmbeddings(PROVIDER, raw, texts.length, this.dimensions, (value) => {
      const parsed = EmbeddingResponseSchema.safeParse(value);
      if (!parsed.success) throw new ModelResponseError(PROVIDER, describeZodError(parsed.error));
      return parsed.data.data
        .map((item, position) => ({ order: item.index ?? position, vector: item.embedding }))
        .sort((a, b) => a.order - b.order)
        .map((item) => item.vector);
    });
  }
}
