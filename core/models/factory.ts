/**
 * Builds text and embedding models from a validated provider configuration. Everything that touches the
 * outside world comes in through `ModelDeps` (the AI binding, `fetch`, the cassette store, the simulated
 * policy's factory, timers), so the same call works in a Worker, in Node scripts and in tests.
 *
 * One `Semaphore` should be shared by every model a Worker invocation uses (pass it as `deps.semaphore`):
 * the six-connection limit is per invocation, not per model.
 */
import { z } from 'zod';
import { Rng } from '../util/random.ts';
import { CallPolicy } from './call-policy.ts';
import { Semaphore, WORKER_CONNECTION_LIMIT } from './concurrency.ts';
import { CachedEmbeddingModel, type EmbeddingCache } from './embeddings.ts';
import { ModelConfigError } from './errors.ts';
import { LEXICAL_DEFAULT_DIMENSIONS, LexicalEmbeddingModel } from './lexical.ts';
import { type FetchLike, OpenAICompatibleModel, OpenAIEmbeddingModel } from './openai.ts';
import { type CassetteStore, ReplayModel } from './replay.ts';
import { DEFAULT_RETRY_POLICY, type RetryEvent, type Sleep } from './retry.ts';
import type { EmbeddingModel, TextModel } from './types.ts';
import type { PriceTable } from './usage.ts';
import {
  type AiBinding,
  WORKERS_AI_EMBEDDING_BATCH,
  WorkersAiEmbeddingModel,
  WorkersAiTextModel,
} from './workers-ai.ts';

const callSettings = {
  /** Per-call deadline, from when a connection slot is held. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Retries after the first attempt, for 429, 5xx, timeouts and dropped connections. */
  maxRetries: z.number().int().min(0).max(10).default(DEFAULT_RETRY_POLICY.maxRetries),
  /** Simultaneous requests, when no shared semaphore is passed in. */
  concurrency: z.number().int().min(1).max(64).default(WORKER_CONNECTION_LIMIT),
};

const capabilityOverrides = z
  .object({ n: z.boolean(), logprobs: z.boolean(), seed: z.boolean(), structuredOutput: z.boolean() })
  .partial()
  .strict();

/** The simulated policy; options beyond `model` and `seed` are passed to its factory untouched. */
export const SimConfigSchema = z.looseObject({
  provider: z.literal('sim'),
  model: z.string().min(1).default('tooldrift-sim-v1'),
  seed: z.string().optional(),
});

export const WorkersAiTextConfigSchema = z
  .object({
    provider: z.literal('workers-ai'),
    model: z.string().min(1).default('@cf/meta/llama-3.1-8b-instruct'),
    capabilities: capabilityOverrides.extend({ stop: z.boolean().optional() }).optional(),
    ...callSettings,
  })
  .strict();

export const OpenAITextConfigSchema = z
  .object({
    provider: z.literal('openai'),
    model: z.string().min(1),
    baseUrl: z.url({ protocol: /^https?$/ }),
    apiKey: z.string().optional(),
    capabilities: capabilityOverrides.optional(),
    ...callSettings,
  })
  .strict();

const RecordableConfigSchema = z.discriminatedUnion('provider', [
  SimConfigSchema,
  WorkersAiTextConfigSchema,
  OpenAITextConfigSchema,
]);

export const ReplayConfigSchema = z
  .object({
    provider: z.literal('replay'),
    mode: z.enum(['record', 'replay', 'record-missing']).default('replay'),
    /** The model the cassette was recorded from (defaults to `inner`'s). */
    model: z.string().min(1).optional(),
    /** The provider to record from (`record`, `record-missing`). */
    inner: RecordableConfigSchema.optional(),
    /** Replaying alone: what the recording model could do (see `ReplayOptions.capabilities`). */
    capabilities: capabilityOverrides.extend({ simulated: z.boolean().optional() }).optional(),
  })
  .strict();

export const TextModelConfigSchema = z.discriminatedUnion('provider', [
  SimConfigSchema,
  WorkersAiTextConfigSchema,
  OpenAITextConfigSchema,
  ReplayConfigSchema,
]);

export type SimConfig = z.infer<typeof SimConfigSchema>;
export type TextModelConfig = z.input<typeof TextModelConfigSchema>;

export const EmbeddingConfigSchema = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('lexical'),
      dimensions: z.number().int().min(16).max(65_536).default(LEXICAL_DEFAULT_DIMENSIONS),
    })
    .strict(),
  z
    .object({
      provider: z.literal('workers-ai'),
      model: z.string().min(1).default('@cf/baai/bge-base-en-v1.5'),
      dimensions: z.number().int().positive().optional(),
      batchSize: z.number().int().min(1).max(WORKERS_AI_EMBEDDING_BATCH).default(WORKERS_AI_EMBEDDING_BATCH),
      ...callSettings,
    })
    .strict(),
  z
    .object({
      provider: z.literal('openai'),
      model: z.string().min(1),
      baseUrl: z.url({ protocol: /^https?$/ }),
      apiKey: z.string().optional(),
      dimensions: z.number().int().positive().optional(),
      batchSize: z.number().int().min(1).max(2048).default(256),
      ...callSettings,
    })
    .strict(),
]);

export type EmbeddingConfig = z.input<typeof EmbeddingConfigSchema>;

export type SimFactory = (config: SimConfig) => TextModel;

export interface ModelDeps {
  /** The Workers AI binding (`env.AI`). */
  ai?: AiBinding | undefined;
  /** Transport for the `openai` provider; the global fetch when absent. */
  fetch?: FetchLike | undefined;
  /** Where `replay` reads and writes cassettes. */
  cassettes?: CassetteStore | undefined;
  /** `createSimModel` from core/sim, for `provider: 'sim'`. */
  sim?: SimFactory | undefined;
  /** Shared connection cap; otherwise each model gets its own of `concurrency` slots. */
  semaphore?: Semaphore | undefined;
  /** Backoff waits (tests pass a fake). */
  sleep?: Sleep | undefined;
  /** Wall clock for latency and Retry-After dates. */
  now?: (() => number) | undefined;
  /** Seeds the backoff jitter, so a run's retry timing is reproducible. */
  seed?: string | undefined;
  prices?: PriceTable | undefined;
  embeddingCache?: EmbeddingCache | undefined;
  onRetry?: ((event: RetryEvent & { provider: string; model: string }) => void) | undefined;
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new ModelConfigError(`invalid ${what} configuration: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

function callPolicy(
  provider: string,
  model: string,
  settings: { timeoutMs: number; maxRetries: number; concurrency: number },
  deps: ModelDeps,
): CallPolicy {
  const onRetry = deps.onRetry;
  return new CallPolicy({
    provider,
    timeoutMs: settings.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, maxRetries: settings.maxRetries },
    rng: new Rng(`${deps.seed ?? 'tooldrift'}/model-retry/${provider}/${model}`),
    semaphore: deps.semaphore ?? new Semaphore(settings.concurrency),
    sleep: deps.sleep,
    onRetry: onRetry && ((event) => onRetry({ ...event, provider, model })),
  });
}

export function createTextModel(config: unknown, deps: ModelDeps = {}): TextModel {
  const parsed = parse(TextModelConfigSchema, config, 'text model');
  return build(parsed, deps);
}

function build(config: z.infer<typeof TextModelConfigSchema>, deps: ModelDeps): TextModel {
  switch (config.provider) {
    case 'sim':
      if (!deps.sim)
        throw new ModelConfigError('provider sim needs deps.sim (createSimModel from core/sim)', 'sim');
      return deps.sim(config);
    case 'workers-ai':
      return new WorkersAiTextModel({
        ai: deps.ai,
        model: config.model,
        capabilities: config.capabilities,
        policy: callPolicy('workers-ai', config.model, config, deps),
        prices: deps.prices,
        now: deps.now,
      });
    case 'openai':
      return new OpenAICompatibleModel({
        baseUrl: config.baseUrl,
        apiKey: config.apiKey,
        model: config.model,
        capabilities: config.capabilities,
        policy: callPolicy('openai', config.model, config, deps),
        fetch: deps.fetch,
        prices: deps.prices,
        now: deps.now,
      });
    case 'replay': {
      if (!deps.cassettes)
        throw new ModelConfigError('provider replay needs deps.cassettes (a CassetteStore)', 'replay');
      return new ReplayModel({
        mode: config.mode,
        store: deps.cassettes,
        model: config.model,
        capabilities: config.capabilities,
        inner: config.inner ? build(config.inner, deps) : undefined,
      });
    }
  }
}

export function createEmbeddingModel(config: unknown, deps: ModelDeps = {}): EmbeddingModel {
  const parsed = parse(EmbeddingConfigSchema, config, 'embedding model');
  switch (parsed.provider) {
    // Cheaper to recompute than to hash for a cache lookup.
    case 'lexical':
      return new LexicalEmbeddingModel({ dimensions: parsed.dimensions });
    case 'workers-ai':
      return new CachedEmbeddingModel(
        new WorkersAiEmbeddingModel({
          ai: deps.ai,
          model: parsed.model,
          dimensions: parsed.dimensions,
          policy: callPolicy('workers-ai', parsed.model, parsed, deps),
        }),
        { batchSize: parsed.batchSize, cache: deps.embeddingCache },
      );
    case 'openai':
      return new CachedEmbeddingModel(
        new OpenAIEmbeddingModel({
          baseUrl: parsed.baseUrl,
          apiKey: parsed.apiKey,
          model: parsed.model,
          dimensions: parsed.dimensions,
          policy: callPolicy('openai', parsed.model, parsed, deps),
          fetch: deps.fetch,
          now: deps.now,
        }),
        { batchSize: parsed.batchSize, cache: deps.embeddingCache },
      );
  }
}
