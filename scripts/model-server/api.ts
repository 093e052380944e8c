/**
 * The OpenAI wire format of the local model server: request validation (zod) with OpenAI-style errors, and the
 * response bodies of `/v1/chat/completions` and `/v1/completions`, whole or as stream chunks.
 *
 * Errors are `{"error": {"message", "type", "param", "code"}}` with the status OpenAI uses: 400
 * `invalid_request_error` naming the field (`param`), 404 for an unknown model or route, 405 for a wrong method,
 * 413 for an oversized body, 415 for a body that is not JSON. Parameters this server cannot honour (tools,
 * response_format, logit_bias, echo, best_of, suffix) are refused with 400, never silently ignored; unknown
 * fields are ignored, as OpenAI-compatible servers do.
 */
import { z } from 'zod';
import type { ChoiceResult, Delta, TokenRecord } from './engine.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly param: string | null;
  readonly code: string | null;
  constructor(
    status: number,
    message: string,
    init: { type?: string; param?: string | null; code?: string | null } = {},
  ) {
    super(message);
    this.status = status;
    this.type = init.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
    this.param = init.param ?? null;
    this.code = init.code ?? null;
  }

  body() {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

/** Most choices one request may ask for. */
export const MAX_N = 16;
/** Most alternatives per token (OpenAI's limit for chat). */
export const MAX_TOP_LOGPROBS = 20;

const stop = z.union([z.string(), z.array(z.string()).max(4)]).nullish();

const sampling = {
  model: z.string().min(1),
  n: z.number().int().min(1).max(MAX_N).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().gt(0).max(1).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  seed: z.number().int().nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  stop,
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
};

/** Parameters that would change the answer in ways this server does not implement. */
const REFUSED = [
  'tools',
  'tool_choice',
  'functions',
  'function_call',
  'response_format',
  'logit_bias',
  'echo',
  'best_of',
  'suffix',
] as const;

const ChatRequestSchema = z.object({
  ...sampling,
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'developer', 'user', 'assistant']),
        content: z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() }))]),
      }),
    )
    .min(1),
  max_completion_tokens: z.number().int().min(1).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(MAX_TOP_LOGPROBS).nullish(),
});

const CompletionRequestSchema = z.object({
  ...sampling,
  prompt: z.union([z.string(), z.array(z.string()).min(1).max(MAX_N)]),
  logprobs: z.number().int().min(0).max(5).nullish(),
});

export interface ParsedRequest {
  model: string;
  n: number;
  temperature: number;
  topP: number;
  frequencyPenalty: number;
  presencePenalty: number;
  seed: number | undefined;
  maxTokens: number | undefined;
  stop: string[];
  stream: boolean;
  includeUsage: boolean;
  logprobs: boolean;
  topLogprobs: number;
}

export interface ParsedChat extends ParsedRequest {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
}

export interface ParsedCompletion extends ParsedRequest {
  prompts: string[];
}

/** `messages[1].content` from a zod issue path. */
function paramOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path)
    out += typeof key === 'number' ? `[${key}]` : out === '' ? String(key) : `.${String(key)}`;
  return out;
}

function validate<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError(400, 'The request body must be a JSON object.');
  for (const key of REFUSED) {
    const value = (body as Record<string, unknown>)[key];
    if (value !== undefined && value !== null && value !== false)
      throw new ApiError(400, `\`${key}\` is not supported by this server.`, {
        param: key,
        code: 'unsupported_parameter',
      });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const param = paramOf(issue.path);
    throw new ApiError(400, `Invalid value for '${param}': ${issue.message}`, {
      param,
      code: 'invalid_value',
    });
  }
  return parsed.data;
}

function common(
  d: z.infer<typeof ChatRequestSchema> | z.infer<typeof CompletionRequestSchema>,
): Omit<ParsedRequest, 'logprobs' | 'topLogprobs'> {
  return {
    model: d.model,
    n: d.n ?? 1,
    temperature: d.temperature ?? 1,
    topP: d.top_p ?? 1,
    frequencyPenalty: d.frequency_penalty ?? 0,
    presencePenalty: d.presence_penalty ?? 0,
    seed: d.seed ?? undefined,
    maxTokens: d.max_tokens ?? undefined,
    stop: d.stop == null ? [] : typeof d.stop === 'string' ? [d.stop] : d.stop,
    stream: d.stream === true,
    includeUsage: d.stream_options?.include_usage === true,
  };
}

export function parseChatRequest(body: unknown): ParsedChat {
  const d = validate(ChatRequestSchema, body);
  if (d.top_logprobs != null && d.top_logprobs > 0 && d.logprobs !== true)
    throw new ApiError(400, '`top_logprobs` requires `logprobs` to be true.', {
      param: 'top_logprobs',
      code: 'invalid_value',
    });
  return {
    ...common(d),
    maxTokens: d.max_completion_tokens ?? d.max_tokens ?? undefined,
    logprobs: d.logprobs === true,
    topLogprobs: d.top_logprobs ?? 0,
    messages: d.messages.map((m) => ({
      role: m.role === 'developer' ? 'system' : m.role,
      content: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
    })),
  };
}

export function parseCompletionRequest(body: unknown): ParsedCompletion {
  const d = validate(CompletionRequestSchema, body);
  return {
    ...common(d),
    logprobs: d.logprobs != null,
    topLogprobs: d.logprobs ?? 0,
    prompts: typeof d.prompt === 'string' ? [d.prompt] : d.prompt,
  };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usage(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

const bytesOf = (text: string) => [...new TextEncoder().encode(text)];

function chatLogprobs(tokens: readonly TokenRecord[]) {
  return {
    content: tokens.map((t) => ({
      token: t.text,
      logprob: t.logprob,
      bytes: bytesOf(t.text),
      top_logprobs: t.top.map((a) => ({ token: a.text, logprob: a.logprob, bytes: bytesOf(a.text) })),
    })),
    refusal: null,
  };
}

function completionLogprobs(tokens: readonly TokenRecord[], offset: number) {
  const textOffset: number[] = [];
  let at = offset;
  for (const t of tokens) {
    textOffset.push(at);
    at += t.text.length;
  }
  return {
    tokens: tokens.map((t) => t.text),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map((t) => Object.fromEntries(t.top.map((a) => [a.text, a.logprob]))),
    text_offset: textOffset,
  };
}

export interface ResponseHead {
  id: string;
  created: number;
  model: string;
  fingerprint: string;
}

export function chatCompletion(
  head: ResponseHead,
  choices: readonly ChoiceResult[],
  logprobs: boolean,
  u: Usage,
) {
  return {
    id: head.id,
    object: 'chat.completion',
    created: head.created,
    model: head.model,
    system_fingerprint: head.fingerprint,
    choices: choices.map((c) => ({
      index: c.index,
      message: { role: 'assistant', content: c.text, refusal: null },
      logprobs: logprobs ? chatLogprobs(c.tokens) : null,
      finish_reason: c.finishReason,
    })),
    usage: u,
  };
}

export function chatChunk(
  head: ResponseHead,
  part: { index: number; role?: boolean; delta?: Delta; finishReason?: string },
  logprobs: boolean,
) {
  const delta: Record<string, unknown> = {};
  if (part.role) {
    delta.role = 'assistant';
    delta.content = '';
  }
  if (part.delta) delta.content = part.delta.text;
  return {
    id: head.id,
    object: 'chat.completion.chunk',
    created: head.created,
    model: head.model,
    system_fingerprint: head.fingerprint,
    choices: [
      {
        index: part.index,
        delta,
        logprobs: logprobs && part.delta ? chatLogprobs(part.delta.tokens) : null,
        finish_reason: part.finishReason ?? null,
      },
    ],
  };
}

export function completion(
  head: ResponseHead,
  choices: readonly (ChoiceResult & { index: number })[],
  logprobs: boolean,
  u: Usage,
) {
  return {
    id: head.id,
    object: 'text_completion',
    created: head.created,
    model: head.model,
    system_fingerprint: head.fingerprint,
    choices: choices.map((c) => ({
      index: c.index,
      text: c.text,
      logprobs: logprobs ? completionLogprobs(c.tokens, 0) : null,
      finish_reason: c.finishReason,
    })),
    usage: u,
  };
}

export function completionChunk(
  head: ResponseHead,
  part: { index: number; delta?: Delta; offset?: number; finishReason?: string },
  logprobs: boolean,
) {
  return {
    id: head.id,
    object: 'text_completion',
    created: head.created,
    model: head.model,
    system_fingerprint: head.fingerprint,
    choices: [
      {
        index: part.index,
        text: part.delta?.text ?? '',
        logprobs: logprobs && part.delta ? completionLogprobs(part.delta.tokens, part.offset ?? 0) : null,
        finish_reason: part.finishReason ?? null,
      },
    ],
  };
}

/** The last stream chunk when `stream_options.include_usage` is set: no choices, the usage. */
export function usageChunk(head: ResponseHead, object: string, u: Usage) {
  return {
    id: head.id,
    object,
    created: head.created,
    model: head.model,
    system_fingerprint: head.fingerprint,
    choices: [],
    usage: u,
  };
}
