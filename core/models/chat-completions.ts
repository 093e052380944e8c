/**
 * The OpenAI chat-completions wire format, shared by the `openai` provider (OpenAI, vLLM, Ollama, …) and the
 * Workers AI models whose schema is OpenAI-compatible. Responses are validated with zod before use: a server
 * that omits or mistypes a field produces a `ModelResponseError` naming the field, never a TypeError later.
 */
import { type ZodError, z } from 'zod';
import { ModelResponseError } from './errors.ts';
import type { Candidate, GenerateRequest } from './types.ts';

export interface ChatCompletionFeatures {
  /** Candidates to ask for in this call (sent as `n` only when above 1). */
  n: number;
  logprobs: boolean;
  seed: number | undefined;
  structuredOutput: boolean;
}

/** The request body for one chat-completions call. */
export function chatCompletionBody(
  request: GenerateRequest,
  model: string,
  features: ChatCompletionFeatures,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
  };
  if (features.n > 1) body.n = features.n;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  if (features.seed !== undefined) body.seed = features.seed;
  if (features.logprobs) body.logprobs = true;
  if (features.structuredOutput && request.jsonSchema) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: request.jsonSchema.name, schema: request.jsonSchema.schema, strict: true },
    };
  }
  return body;
}

const ChoiceSchema = z.object({
  index: z.number().int().nonnegative().optional(),
  // `null` is legal (e.g. a refusal or tool call); the key itself must be there.
  message: z.object({ content: z.string().nullable() }),
  finish_reason: z.string().nullable().optional(),
  logprobs: z
    .object({
      content: z
        .array(z.object({ logprob: z.number() }))
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

const TokenUsageSchema = z.object({
  prompt_tokens: z.number().nonnegative(),
  completion_tokens: z.number().nonnegative(),
});

const ChatCompletionSchema = z.object({
  model: z.string().optional(),
  choices: z.array(ChoiceSchema).min(1),
  usage: TokenUsageSchema.nullable().optional(),
});

export interface ParsedCall {
  candidates: Candidate[];
  inputTokens: number;
  outputTokens: number;
  /** The model the server says answered, when it says. */
  model: string | undefined;
}

/** `choices[0].message.content: Invalid input: expected string, received undefined` */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  let path = '';
  for (const key of issue.path)
    path += typeof key === 'number' ? `[${key}]` : path === '' ? String(key) : `.${String(key)}`;
  return `${path === '' ? '(root)' : path}: ${issue.message}`;
}

export function mapFinishReason(reason: string | null | undefined): Candidate['finishReason'] {
  if (reason === 'stop' || reason === 'length') return reason;
  return 'other';
}

/** Validates a chat-completions response and turns its choices into candidates (in `index` order). */
export function parseChatCompletion(provider: string, raw: unknown, wantLogprobs: boolean): ParsedCall {
  if (typeof raw === 'string') {
    throw new ModelResponseError(
      provider,
      `expected a JSON object, got text ${JSON.stringify(raw.slice(0, 80))}`,
    );
  }
  const parsed = ChatCompletionSchema.safeParse(raw);
  if (!parsed.success) throw new ModelResponseError(provider, describeZodError(parsed.error));
  const completion = parsed.data;
  const choices = completion.choices
    .map((choice, position) => ({ choice, order: choice.index ?? position }))
    .sort((a, b) => a.order - b.order);
  const candidates = choices.map(({ choice }): Candidate => {
    const candidate: Candidate = {
      text: choice.message.content ?? '',
      finishReason: mapFinishReason(choice.finish_reason),
    };
    const tokens = choice.logprobs?.content;
    if (wantLogprobs && tokens) {
      let sum = 0;
      for (const token of tokens) sum += token.logprob;
      candidate.logprob = { sum, count: tokens.length };
    }
    return candidate;
  });
  return {
    candidates,
    inputTokens: completion.usage?.prompt_tokens ?? 0,
    outputTokens: completion.usage?.completion_tokens ?? 0,
    model: completion.model,
  };
}
