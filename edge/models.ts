/**
 * Models at the edge: which providers this deployment can use (from wrangler vars, secrets and bindings), and
 * a text model for a request's model choice, validated against that configuration. Agent endpoints call
 * `textModelFor`; `GET /v1/models` shows `modelCatalog`.
 */
import type { ModelChoice, ModelProvider } from '../core/models/choice.ts';
import { createEmbeddingModel, createTextModel, type ModelDeps } from '../core/models/factory.ts';
import { pacedEmbeddingModel, pacedTextModel } from '../core/models/paced.ts';
import type { Capabilities, EmbeddingModel, TextModel } from '../core/models/types.ts';
import { USE_DIMENSIONS, USE_MODEL } from '../core/models/use-tokenizer.ts';
import { WORKERS_AI_TEXT_MODELS, workersAiModelInfo } from '../core/models/workers-ai.ts';
import { createSimModel } from '../core/sim/index.ts';
import { createPacer } from '../core/util/pacer.ts';
import { type Bindings, type Config, readConfig } from './env.ts';
import { InvalidInputError } from './errors.ts';

export {
  MODEL_PROVIDERS,
  type ModelChoice,
  ModelChoiceSchema,
  type ModelProvider,
} from '../core/models/choice.ts';

interface ProviderStatus {
  provider: ModelProvider | 'replay';
  available: boolean;
  /** Why not, when unavailable. */
  reason?: string;
  models: string[];
  defaultModel: string;
  capabilities: Capabilities;
}

function deps(env: Bindings): ModelDeps {
  return { ai: env.AI, sim: createSimModel };
}

/** Every provider with whether this deployment can use it and what it can do. */
export function modelCatalog(env: Bindings) {
  const config = readConfig(env);
  const sim = createSimModel({ provider: 'sim', model: 'tooldrift-sim-v1' });
  const workersAiModel = config.modelProvider === 'workers-ai' ? config.modelName : config.workersAiModel;
  const workersAiInfo = workersAiModelInfo(workersAiModel);
  const openaiReady = config.openaiBaseUrl !== '';
  const openaiModel = config.modelProvider === 'openai' ? config.modelName : 'model';
  const openai = openaiReady
    ? createTextModel({ provider: 'openai', model: openaiModel, baseUrl: config.openaiBaseUrl }, deps(env))
    : null;
  const providers: ProviderStatus[] = [
    {
      provider: 'sim',
      available: true,
      models: [sim.model],
      defaultModel: sim.model,
      capabilities: sim.capabilities,
    },
    {
      provider: 'workers-ai',
      available: typeof env.AI?.run === 'function',
      ...(typeof env.AI?.run === 'function'
        ? {}
        : { reason: 'no AI binding (declared for the production environment only)' }),
      models: [...new Set([workersAiModel, ...Object.keys(WORKERS_AI_TEXT_MODELS)])],
      defaultModel: workersAiModel,
      capabilities: {
        n: workersAiInfo.n,
        logprobs: workersAiInfo.logprobs,
        seed: workersAiInfo.seed,
        structuredOutput: workersAiInfo.structuredOutput,
        embeddings: true,
        simulated: false,
      },
    },
    {
      provider: 'openai',
      available: openaiReady,
      ...(openaiReady ? {} : { reason: 'OPENAI_BASE_URL is not set' }),
      models: config.modelProvider === 'openai' ? [config.modelName] : [],
      defaultModel: config.modelProvider === 'openai' ? config.modelName : '',
      // Unconfigured: what an OpenAI-compatible server such as vLLM offers.
      capabilities: openai?.capabilities ?? {
        n: true,
        logprobs: true,
        seed: true,
        embeddings: true,
        simulated: false,
      },
    },
    {
      // Cassettes live in files (scripts/lib/cassette-file.ts): replay is a Node-side provider for regression runs
      // of agents on recorded real-model answers; it is listed so the catalogue matches the README's providers.
      provider: 'replay',
      available: false,
      reason:
        'replay runs Node-side only (cassettes in files, scripts/lib/cassette-file.ts); the Worker has no cassette store',
      models: [],
      defaultModel: '',
      // A cassette answers with the recorded model's capabilities; these are ReplayModel's defaults.
      capabilities: { n: true, logprobs: false, seed: false, embeddings: false, simulated: false },
    },
  ];
  return {
    default: { provider: config.modelProvider, model: config.modelName },
    providers,
    embeddings: {
      provider: config.embeddingProvider,
      model:
        config.embeddingProvider === 'lexical'
          ? 'lexical'
          : config.embeddingProvider === 'use'
            ? USE_MODEL
            : config.embeddingModel,
    },
  };
}

/**
 * The text model for a request's choice; an InvalidInputError naming what this deployment cannot do. It paces its
 * caller (core/models/paced.ts): whatever loop drives it — a job, an alarm, a solve — yields to the isolate's
 * other requests about every slice of CPU.
 */
export function textModelFor(env: Bindings, choice: ModelChoice = {}): TextModel {
  return pacedTextModel(unpacedTextModel(env, choice), createPacer());
}

function unpacedTextModel(env: Bindings, choice: ModelChoice): TextModel {
  const config = readConfig(env);
  const provider = choice.provider ?? (config.modelProvider === 'replay' ? 'sim' : config.modelProvider);
  const status = modelCatalog(env).providers.find((p) => p.provider === provider);
  if (!status?.available) {
    throw new InvalidInputError(
      `Model provider ${provider} is not available here: ${status?.reason ?? 'unknown provider'}.`,
      [{ in: 'body', field: 'model.provider', pointer: '/model/provider', message: 'not configured' }],
    );
  }
  const model = choice.model ?? status.defaultModel;
  const calls = { timeoutMs: config.modelTimeoutMs, maxRetries: config.modelMaxRetries };
  switch (provider) {
    case 'sim':
      return createTextModel({ provider: 'sim', model }, deps(env));
    case 'workers-ai':
      return createTextModel({ provider: 'workers-ai', model, ...calls }, deps(env));
    case 'openai':
      return createTextModel(
        { provider: 'openai', model, baseUrl: config.openaiBaseUrl, apiKey: env.OPENAI_API_KEY, ...calls },
        deps(env),
      );
  }
}

/**
 * `use`: the Universal Sentence Encoder lite running in this isolate (edge/use-encoder.ts). Its module — tfjs and
 * the wasm backend — is imported on the first `embed`, so Workers that never embed with it do not evaluate it
 * at startup, and the model loads from the ASSETS binding on that first call (then stays for the isolate).
 */
class IsolateUseModel implements EmbeddingModel {
  readonly provider = 'use';
  readonly model = USE_MODEL;
  readonly dimensions = USE_DIMENSIONS;
  constructor(private readonly assets: Bindings['ASSETS']) {}
  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const { useEmbeddingModel } = await import('./use-encoder.ts');
    return useEmbeddingModel(this.assets).embed(texts, signal);
  }
}

/**
 * The deployment's embedding model (`EMBEDDING_PROVIDER`), or the one of `provider` when a caller names it, pacing
 * its caller (core/models/paced.ts); the encoders that run on this isolate's CPU (lexical, USE lite) embed a long
 * list in small groups with a pace between them.
 */
export function embeddingModelFor(
  env: Bindings,
  provider: Config['embeddingProvider'] = readConfig(env).embeddingProvider,
): EmbeddingModel {
  const local = provider === 'lexical' || provider === 'use';
  return pacedEmbeddingModel(unpacedEmbeddingModel(env, provider), createPacer(), {
    local,
    ...(provider === 'use' ? { localGroup: 8 } : {}),
  });
}

function unpacedEmbeddingModel(env: Bindings, provider: Config['embeddingProvider']): EmbeddingModel {
  const config = readConfig(env);
  switch (provider) {
    case 'lexical':
      return createEmbeddingModel({ provider: 'lexical' });
    case 'use':
      return new IsolateUseModel(env.ASSETS);
    case 'workers-ai':
      return createEmbeddingModel({ provider: 'workers-ai', model: config.embeddingModel }, deps(env));
    case 'openai':
      return createEmbeddingModel(
        {
          provider: 'openai',
          model: config.embeddingModel,
          baseUrl: config.openaiBaseUrl,
          apiKey: env.OPENAI_API_KEY,
        },
        deps(env),
      );
  }
}
