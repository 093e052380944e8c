/**
 * STE exemplars as chat-format SFT records (spec `ste.md`, "Fine-tuning"): as in the authors' format
 * (`llama-recipes/data_proc_format.py`), each exemplar yields two samples — the call, then the final answer after
 * the call's observation. The records have the `{"messages": [system, user, assistant]}` shape of
 * `/v1/exports/sft.jsonl` (the user turn starts with `Question: `, the second record's user turn carries the call
 * and its observation), so gpu-jobs' validator and trainers take them unchanged.
 *
 * The context (paper §2.2: "do not include the API documentation in the context"): by default the system message
 * is `STE_SFT_SYSTEM`, a short tool-mode instruction with no documentation (the authors' `sysmsg_tool.json` plays
 * this part) — the model learns the tools from the examples and is asked without documentation, which is what
 * makes an STE-tuned model cheap to prompt. `documentation: 'agent-prompt'` keeps tooldrift's earlier records:
 * the ToolEvo agent prompt over the documentation surface (tool list, guidelines, worked examples).
 *
 * Deliberate differences from the STE authors' format:
 * - The records pass gpu-jobs' validator: the user turn reads `Question: <query>`, the call is a ReAct step
 *   (`Thought` / `Action` / `Action Input`) with the plain tool name instead of an added tool token (`<tool_X>`),
 *   the final answer is a Finish call, and the answer record carries the call and its observation in the user
 *   turn instead of as an assistant turn and an observation turn.
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

/** What the records' context holds: no documentation (§2.2, default) or the agent prompt over the docs. */
export const STE_SFT_DOCUMENTATION = ['none', 'agent-prompt'] as const;
export type SteSftDocumentation = (typeof STE_SFT_DOCUMENTATION)[number];

/** The system message of records without documentation (tooldrift's wording of the authors' tool-mode message). */
export const STE_SFT_SYSTEM =
  'You are a helpful assistant that answers with tool calls. Answer in steps of Thought, Action and Action Input; call Finish with the answer once you have it.';

export interface SteSftOptions {
  /** Default `none` (§2.2). */
  documentation?: SteSftDocumentation;
  /** The surface the exemplar was explored on: its documentation for `agent-prompt`. */
  docs?: Surface;
}

export function steSftRecords(e: SteExemplar, options: SteSftOptions = {}): [SteSftRecord, SteSftRecord] {
  const system =
    (options.documentation ?? 'none') === 'none' ? STE_SFT_SYSTEM : trainingSystemPrompt(options.docs);
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
