/**
 * Typed failures of the model layer. Providers turn every transport or payload problem into one of these, so
 * agents can tell "try again later" (`retryable`) from "this request can never succeed" without parsing
 * messages, and a malformed server answer never surfaces as a TypeError deep inside an agent.
 */

export abstract class ModelError extends Error {
  /** Whether the same request may succeed if sent again (the retry loop only repeats these). */
  abstract readonly retryable: boolean;
  /** The provider that failed (`openai`, `workers-ai`, `replay`, …). */
  readonly provider: string;

  constructor(provider: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.provider = provider;
    this.name = new.target.name;
  }
}

/** No answer within the per-call timeout (or the server reported a timeout itself). */
export class ModelTimeoutError extends ModelError {
  readonly retryable = true;
  readonly timeoutMs: number | undefined;

  constructor(
    provider: string,
    timeoutMs: number | undefined,
    message?: string,
    options?: { cause?: unknown },
  ) {
    super(provider, message ?? `${provider}: no response within ${timeoutMs} ms`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** HTTP 429 or an equivalent quota/capacity signal. */
export class ModelRateLimitError extends ModelError {
  readonly retryable: boolean;
  /** The server's Retry-After, converted to milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    provider: string,
    message: string,
    init: { retryAfterMs?: number | undefined; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(provider, message, { cause: init.cause });
    this.retryAfterMs = init.retryAfterMs;
    // A daily allocation that is used up will not come back within a retry window.
    this.retryable = init.retryable ?? true;
  }
}

/** HTTP 5xx, or the connection failed before any response (status undefined). */
export class ModelServerError extends ModelError {
  readonly retryable = true;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    provider: string,
    status: number | undefined,
    message: string,
    init: { retryAfterMs?: number | undefined; cause?: unknown } = {},
  ) {
    super(provider, message, { cause: init.cause });
    this.status = status;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The server rejected the request itself (HTTP 4xx other than 408/429): bad parameters, unknown model, auth. */
export class ModelRequestError extends ModelError {
  readonly retryable = false;
  readonly status: number | undefined;

  constructor(provider: string, status: number | undefined, message: string, options?: { cause?: unknown }) {
    super(provider, message, options);
    this.status = status;
  }
}

/**
 * The server refused the prompt as longer than the model's context (OpenAI's 400 `context_length_exceeded`; vLLM,
 * llama.cpp and `npm run model:serve` say "maximum context length"). Agents treat it as ToolQA-D treats a prompt
 * over its length limit: no generation, an empty sample that ends the path (spec §5.3, §8.1 "prompt length limit").
 */
export class ModelContextLengthError extends ModelRequestError {}

/** Whether an OpenAI-style error (its `code` and message) says the prompt does not fit the model's context. */
export function isContextLengthError(code: unknown, message: string): boolean {
  return code === 'context_length_exceeded' || /maximum context length/i.test(message);
}

/** The server answered, but not with something we can use: invalid JSON, missing or mistyped fields. */
export class ModelResponseError extends ModelError {
  readonly retryable = false;
  /** What was wrong, e.g. `choices[0].message.content: expected string`. */
  readonly detail: string;

  constructor(provider: string, detail: string, options?: { cause?: unknown }) {
    super(provider, `${provider}: malformed response: ${detail}`, options);
    this.detail = detail;
  }
}

/** Replay mode was asked for a request that no cassette holds. */
export class CassetteMissError extends ModelError {
  readonly retryable = false;
  readonly requestHash: string;
  readonly model: string;

  constructor(requestHash: string, model: string, detail: string) {
    super('replay', `replay: no recorded response for request ${requestHash} (model ${model}): ${detail}`);
    this.requestHash = requestHash;
    this.model = model;
  }
}

/** The model layer was configured in a way that cannot work (missing binding, key, base URL, bad values). */
export class ModelConfigError extends ModelError {
  readonly retryable = false;

  constructor(message: string, provider = 'config') {
    super(provider, message);
  }
}

export function isRetryable(error: unknown): boolean {
  return error instanceof ModelError && error.retryable;
}

/** The wait the server asked for, if the error carries one. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof ModelRateLimitError || error instanceof ModelServerError) return error.retryAfterMs;
  return undefined;
}
