/**
 * The model layer's one interface for text generation and embeddings. Agents (MCTS, greedy ReAct, later STE,
 * DRAFT, retrieval) call models only through it; providers adapt Workers AI, OpenAI-compatible servers
 * (vLLM, Ollama, OpenAI), recorded cassettes, and the offline simulated policy.
 */

import type { ChatMessage } from '../messages/chat.ts';

export type { ChatMessage } from '../messages/chat.ts';

export interface GenerateRequest {
  messages: ChatMessage[];
  /** Number of candidates (k); providers without `n` issue k calls. */
  n?: number;
  temperature?: number;
  topP?: number;
  /**
   * OpenAI-style frequency penalty (ToolEvo's batched search uses 1.2, spec §8.1). Sent to providers that accept
   * it (OpenAI-compatible servers, Workers AI); the simulator ignores it.
   */
  frequencyPenalty?: number;
  stop?: string[];
  maxTokens?: number;
  /** Makes sampling repeatable where the provider supports it (and always for `sim`). */
  seed?: number;
  /** Ask for per-token log-probabilities (MCTS priors). */
  logprobs?: boolean;
  /** Model name; the provider's default when absent. */
  model?: string;
  /**
   * Constrain the output to JSON matching this JSON Schema (structured output), on providers whose
   * capabilities say `structuredOutput`; others ignore it.
   */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

export interface Candidate {
  text: string;
  finishReason: 'stop' | 'length' | 'error' | 'other';
  /** Sum and count of the generated tokens' log-probabilities, when the provider gives them. */
  logprob?: { sum: number; count: number };
}

export interface Usage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** Estimated cost in US dollars (0 for local and simulated models). */
  costUsd: number;
}

export interface GenerateResponse {
  candidates: Candidate[];
  /** The model that answered (e.g. `tooldrift-sim-v1 (simulator)`). */
  model: string;
  usage: Usage;
}

export interface Capabilities {
  /** Several candidates in one call. */
  n: boolean;
  logprobs: boolean;
  seed: boolean;
  embeddings: boolean;
  /** True for the simulated policy: results must be labelled as a simulator wherever they appear. */
  simulated: boolean;
  /** Honours `GenerateRequest.jsonSchema` (absent = false). */
  structuredOutput?: boolean;
}

export interface TextModel {
  readonly provider: string;
  readonly model: string;
  readonly capabilities: Capabilities;
  generate(request: GenerateRequest, signal?: AbortSignal): Promise<GenerateResponse>;
}

export interface EmbeddingModel {
  readonly provider: string;
  readonly model: string;
  readonly dimensions: number;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

/** Geometric-mean token probability of a candidate (MCTS prior), or null without log-probabilities. */
export function candidateProbability(c: Candidate): number | null {
  if (!c.logprob || c.logprob.count === 0) return null;
  return Math.exp(c.logprob.sum / c.logprob.count);
}

export function emptyUsage(): Usage {
  return { calls: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    latencyMs: a.latencyMs + b.latencyMs,
    costUsd: a.costUsd + b.costUsd,
  };
}
