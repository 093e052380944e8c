/**
 * Test doubles for DRAFT: a scripted text model that answers each role from a queue (and records every request),
 * and an embedding model with fixed vectors per text, so that cosine similarities are known by hand.
 */

import type {
  EmbeddingModel,
  GenerateRequest,
  GenerateResponse,
  TextModel,
} from '../../../core/models/types.ts';
import { ROLE_LINES } from '../../../core/prompts/draft.ts';

export type Role = keyof typeof ROLE_LINES;

export interface ScriptedModel extends TextModel {
  requests: { role: Role; request: GenerateRequest; text: string }[];
}

/** Answers each role with the next text of its queue (the last one repeats when the queue runs out). */
export function scriptedModel(script: Partial<Record<Role, string[]>>): ScriptedModel {
  const used: Record<string, number> = {};
  const requests: ScriptedModel['requests'] = [];
  return {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { n: false, logprobs: false, seed: true, embeddings: false, simulated: false },
    requests,
    async generate(request): Promise<GenerateResponse> {
      const system = request.messages[0]?.content ?? '';
      const role = (Object.keys(ROLE_LINES) as Role[]).find((r) => ROLE_LINES[r] === system);
      if (!role) throw new Error(`not a DRAFT prompt: ${system}`);
      const queue = script[role] ?? [];
      const i = used[role] ?? 0;
      used[role] = i + 1;
      const text = queue[Math.min(i, queue.length - 1)] ?? '';
      requests.push({ role, request, text: request.messages.map((m) => m.content).join('\n\n') });
      return {
        candidates: [{ text, finishReason: 'stop' }],
        model: 'scripted',
        usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

/** Fixed vectors per text; any other text embeds as `fallback`. */
export function fixedEmbedder(vectors: Record<string, number[]>, fallback = [0, 0, 1]): EmbeddingModel {
  return {
    provider: 'fixed',
    model: 'fixed',
    dimensions: fallback.length,
    async embed(texts) {
      return texts.map((t) => vectors[t] ?? fallback);
    },
  };
}
