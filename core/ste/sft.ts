/**
 * STE exemplars as chat-format SFT records (spec `ste.md`, "Fine-tuning"): as in the authors' format, each
 * exemplar yields two samples — the call, then the final answer after the call's observation. The records have
 * the `{"messages": [system, user, assistant]}` shape of `/v1/exports/sft.jsonl` (the system prompt is the
 * training prompt over the given documentation; the user turn starts with `Question: `), so gpu-jobs'
 * validator and trainers take them unchanged.
 */

import type { ChatMessage } from '../messages/chat.ts';
import { reactStepText, writeActionInput } from '../prompts/react-format.ts';
import { type SftRecord, trainingSystemPrompt } from '../search/trajectories.ts';
import type { Surface } from '../surfaces/model.ts';
import { formatStep } from '../world/react-parse.ts';
import type { SteExemplar } from './engine.ts';

/** An STE sample: always one (system, user, assistant) exchange, a single-turn `SftRecord`. */
export interface SteSftRecord extends SftRecord {
  messages: [ChatMessage, ChatMessage, ChatMessage];
}

export function steSftRecords(e: SteExemplar, docs?: Surface): [SteSftRecord, SteSftRecord] {
  const system = trainingSystemPrompt(docs);
  const question = `Question: ${e.query.trim()}`;
  const call = reactStepText(`I use ${e.action} for this query.`, e.action, e.actionInput);
  const finish = reactStepText(
    'The observation answers the query.',
    'Finish',
    writeActionInput({ answer: e.finalAnswer }),
  );
  return [
    {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: question },
        { role: 'assistant', content: call },
      ],
    },
    {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: `${question}\n\n${formatStep(call, e.observation)}` },
        { role: 'assistant', content: finish },
      ],
    },
  ];
}
