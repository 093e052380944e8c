/** A test double for STE: a text model that answers every call with the next scripted text and records requests. */
import type { GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';

export interface ScriptedTexts extends TextModel {
  requests: GenerateRequest[];
}

/** Answers every call with the next scripted text, in order, and records the requests. */
export function scripted(texts: string[]): ScriptedTexts {
  const queue = [...texts];
  const requests: GenerateRequest[] = [];
  return {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { n: false, logprobs: false, seed: true, embeddings: false, simulated: false },
    requests,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      requests.push(structuredClone(request));
      const text = queue.shift();
      if (text === undefined) throw new Error(`no scripted text left for call ${requests.length}`);
      return {
        candidates: [{ text, finishReason: 'stop' }],
        model: 'scripted',
        usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

/** A ReAct step's text. */
export const step = (action: string, input: string) =>
  `Thought: next.\nAction: ${action}\nAction Input: ${input}`;
