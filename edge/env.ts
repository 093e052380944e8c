/**
 * Bindings and configuration of the Worker. Vars come from wrangler.toml (`vars`), secrets from `.dev.vars`
 * locally or `wrangler secret put` in production. `readConfig` validates them once per isolate and never logs
 * secret values.
 */
import { z } from 'zod';

/** Secrets are not declared in wrangler.toml, so `wrangler types` cannot see them. */
export interface Secrets {
  /** Comma-separated bearer keys allowed to run agents and change state. */
  API_KEYS?: string;
  /** Comma-separated bearer keys with admin rights (gold answers, surfaces, journals). */
  ADMIN_API_KEYS?: string;
  /** Key for an OpenAI-compatible server (MODEL_PROVIDER=openai). */
  OPENAI_API_KEY?: string;
}

/**
 * Optional vars, not declared in wrangler.toml (their defaults suit a deployment); set them in `.dev.vars`, an
 * `--env-file` or the dashboard to tune how slow or failing model providers are handled.
 */
export interface OptionalVars {
  /** Per-call deadline of openai/workers-ai model requests, in ms (default 60000). */
  MODEL_TIMEOUT_MS?: string;
  /** Retries of a failed model call (429, 5xx, timeout) before the call fails (default 3). */
  MODEL_MAX_RETRIES?: string;
  /** Task runs one `eval-group` job runs before it hands the rest to its continuation (default 8). */
  EVAL_CHUNK_TASKS?: string;
  /** Wall time after which an `eval-group` job starts no further task run (default 120000 ms). */
  EVAL_CHUNK_MS?: string;
  /** Wall time after which a `train-toolset` chunk checkpoints and hands over to its continuation (default 25000 ms). */
  TRAIN_CHUNK_MS?: string;
  /**
   * Wall time after which one queue invocation starts no further message of its batch and hands the rest back
   * to the queue as new messages (default 600000 ms: a batch of 10 chunks of up to EVAL_CHUNK_MS each would
   * otherwise outlast a consumer invocation's 15-minute wall-clock limit).
   */
  JOB_BATCH_MS?: string;
  /**
   * Upstreams a proxy-mode imported API may forward to, with the secret each one gets (edge/apis.ts): e.g.
   * `https://staging.example.com=UPSTREAM_STAGING_TOKEN, http://127.0.0.1:*`. Empty: no proxy mode.
   */
  API_PROXY_ORIGINS?: string;
  /** Largest API document `POST /v1/apis` takes, in bytes (default 10485760: 10 MiB). */
  MAX_IMPORT_BYTES?: string;
  /** Jobs of one key in flight (queued or running) at most; its further jobs wait their turn (default 4). */
  JOB_SHARE?: string;
  /**
   * A job in flight whose row has not changed for this long (no heartbeat from a runner, no delivery) has lost its
   * message or its runner; the cron tick's sweeper sends it again (default 300000 ms). Durable Object work (trees,
   * STE and DRAFT tools) whose progress row has not changed for this long gets its alarm set again.
   */
  JOB_STALE_MS?: string;
  /**
   * Evaluation steps one PythonInterpreter call may take on the server (default 100000: a few tens of ms of CPU),
   * so a heavy program cannot hold an isolate (the sandbox's own default, 2000000, is for Node).
   */
  PYTHON_MAX_STEPS?: string;
  /** Python or SQL tool calls one key may have running at once (default 2); beyond it a call is a 429. */
  TOOL_CALLS_PER_KEY?: string;
  /**
   * Python evaluation steps a second one key's calls may take in an isolate on average (default 200000, about a
   * tenth of its CPU); a key that took more waits (429 with `Retry-After`) until its allowance has caught up. Two
   * calls of up to PYTHON_MAX_STEPS always run from rest.
   */
  PYTHON_STEPS_PER_SECOND?: string;
  /** Trainings one key may have queued or running at once (default 2); beyond it `POST …/train` is a 429. */
  TRAININGS_PER_KEY?: string;
}

export type Bindings = Env & Secrets & OptionalVars;

// Misconfigured numbers fall back to their defaults instead of taking the Worker down; /health shows the result.
const positiveInt = (fallback: number) => z.coerce.number().int().positive().catch(fallback);

const ConfigSchema = z.object({
  environment: z.string().default('development'),
  logLevel: z.enum(['debug', 'info', 'warn', 'error']).catch('info'),
  modelProvider: z.enum(['sim', 'workers-ai', 'openai', 'replay']).catch('sim'),
  modelName: z.string().default('tooldrift-sim-v1'),
  openaiBaseUrl: z.string().default(''),
  embeddingProvider: z.enum(['lexical', 'use', 'workers-ai', 'openai']).catch('lexical'),
  embeddingModel: z.string().default('@cf/baai/bge-base-en-v1.5'),
  workersAiModel: z.string().default('@cf/meta/llama-3.1-8b-instruct'),
  rateLimitPerMinute: positiveInt(120),
  rateLimitBurst: positiveInt(30),
  maxBodyBytes: positiveInt(1_048_576),
  worldSeed: z.string().min(1).default('tooldrift'),
  worldScale: z.coerce.number().positive().max(64).catch(1),
  modelTimeoutMs: positiveInt(60_000),
  modelMaxRetries: z.coerce.number().int().min(0).max(10).catch(3),
  evalChunkTasks: positiveInt(8),
  evalChunkMs: positiveInt(120_000),
  trainChunkMs: positiveInt(25_000),
  jobBatchMs: positiveInt(600_000),
  maxImportBytes: positiveInt(10 * 1024 * 1024),
  jobShare: positiveInt(4),
  jobStaleMs: positiveInt(300_000),
  pythonMaxSteps: positiveInt(100_000),
  toolCallsPerKey: positiveInt(2),
  pythonStepsPerSecond: positiveInt(200_000),
  trainingsPerKey: positiveInt(2),
});

export type Config = z.infer<typeof ConfigSchema> & { apiKeys: string[]; adminKeys: string[] };

function splitKeys(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
}

const cache = new WeakMap<object, Config>();

export function readConfig(env: Bindings): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const config: Config = {
    ...ConfigSchema.parse({
      environment: env.ENVIRONMENT,
      logLevel: env.LOG_LEVEL,
      modelProvider: env.MODEL_PROVIDER,
      modelName: env.MODEL_NAME,
      openaiBaseUrl: env.OPENAI_BASE_URL,
      embeddingProvider: env.EMBEDDING_PROVIDER,
      embeddingModel: env.EMBEDDING_MODEL,
      workersAiModel: env.WORKERS_AI_MODEL,
      rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
      rateLimitBurst: env.RATE_LIMIT_BURST,
      maxBodyBytes: env.MAX_BODY_BYTES,
      worldSeed: env.WORLD_SEED,
      worldScale: env.WORLD_SCALE,
      modelTimeoutMs: env.MODEL_TIMEOUT_MS,
      modelMaxRetries: env.MODEL_MAX_RETRIES,
      evalChunkTasks: env.EVAL_CHUNK_TASKS,
      evalChunkMs: env.EVAL_CHUNK_MS,
      trainChunkMs: env.TRAIN_CHUNK_MS,
      jobBatchMs: env.JOB_BATCH_MS,
      maxImportBytes: env.MAX_IMPORT_BYTES,
      jobShare: env.JOB_SHARE,
      jobStaleMs: env.JOB_STALE_MS,
      pythonMaxSteps: env.PYTHON_MAX_STEPS,
      toolCallsPerKey: env.TOOL_CALLS_PER_KEY,
      pythonStepsPerSecond: env.PYTHON_STEPS_PER_SECOND,
      trainingsPerKey: env.TRAININGS_PER_KEY,
    }),
    apiKeys: splitKeys(env.API_KEYS),
    adminKeys: splitKeys(env.ADMIN_API_KEYS),
  };
  cache.set(env, config);
  return config;
}
