/**
 * A scripted TextModel for search tests: the answer to a prompt is looked up by the tag of the last step on the
 * path (`Thought: <tag> …`, or `root` before the first step); every call and its prompt are recorded.
 */
import type { Candidate, GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import { promptText } from '../../../core/prompts/types.ts';

export interface ScriptedCandidate {
  tag: string;
  action: string;
  input: string;
  /** Geometric-mean probability; omitted → no log-probabilities. */
  p?: number;
}

export interface ScriptedModel extends TextModel {
  calls: { key: string; prompt: string; request: GenerateRequest }[];
}

export function stepText(c: ScriptedCandidate): string {
  return `Thought: ${c.tag} step.\n\nAction: ${c.action}\n\nAction Input: ${c.input}`;
}

export function scriptedModel(question: string, script: Record<string, ScriptedCandidate[]>): ScriptedModel {
  const calls: ScriptedModel['calls'] = [];
  return {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { n: true, logprobs: true, seed: true, embeddings: false, simulated: true },
    calls,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      const prompt = promptText(request.messages);
      const tail = prompt.slice(prompt.lastIndexOf(`Question: ${question}`));
      const tags = [...tail.matchAll(/Thought: (\S+) step\./g)].map((m) => m[1] as string);
      const key = tags.at(-1) ?? 'root';
      calls.push({ key, prompt, request });
      const candidates: Candidate[] = (script[key] ?? []).map((c) => {
        const cand: Candidate = { text: stepText(c), finishReason: 'stop' };
        if (c.p !== undefined) cand.logprob = { sum: 4 * Math.log(c.p), count: 4 };
        return cand;
      });
      return {
        candidates,
        model: 'scripted',
        usage: { calls: 1, inputTokens: 10, outputTokens: 5, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}
