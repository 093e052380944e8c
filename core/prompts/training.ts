/**
 * The training prompt of ToolEVO §3.4 (spec §8): what SFT and DPO records (core/search/trajectories.ts) put before
 * the assistant's text. The system message is the agent prompt's instructions over the documentation surface
 * (P_c by default) up to and including the turn marker, without UpdateTool lines (the trajectory itself shows the
 * drift being discovered); the user message is the question, followed for a DPO pair by the shared steps with
 * their observations (what the agent prompt shows after the question at that state).
 */
import type { ChatMessage } from '../messages/chat.ts';
import type { Surface } from '../surfaces/model.ts';
import type { TrajectoryStep } from './react-format.ts';
import {
  type AgentPromptInput,
  agentInstructions,
  agentPromptTail,
  docsToolList,
  TOOLEVO_AGENT_VERSION,
  TOOLEVO_HEADER,
} from './toolevo.ts';
import type { PromptTemplate } from './types.ts';

export interface TrainingPromptInput {
  question: string;
  /** The documentation surface of the system message. */
  docs: Surface;
  /** Steps already taken (a DPO pair's shared prefix); none for SFT. */
  prefix?: readonly TrajectoryStep[];
}

export const TRAINING_PROMPT: PromptTemplate<TrainingPromptInput> = {
  id: 'toolevo/training',
  family: 'toolevo',
  version: `${TOOLEVO_AGENT_VERSION}+training.1`,
  description:
    'Training prompt (SFT/DPO records): the agent instructions over the documentation as the system message, the question and any shared steps as the user message.',
  render(input): [ChatMessage, ChatMessage] {
    const prefix = input.prefix ?? [];
    const tail = prefix.length === 0 ? '' : agentPromptTail(prefix).trimEnd();
    return [
      { role: 'system', content: agentInstructions({ docs: input.docs }) },
      { role: 'user', content: `Question: ${input.question.trim()}${tail}` },
    ];
  },
};

/**
 * What the SFT prompt is rendered from: the agent prompt's question, documentation, UpdateTool lines (listed after
 * the tools, as ToolEvo's `{tool_desc}`, spec §3.12), steps (an assistant turn each, its observation the next user
 * turn) and clock — no examples, no guidelines.
 */
export type SftPromptInput = Pick<AgentPromptInput, 'question' | 'docs' | 'newTools' | 'steps' | 'now'>;

/**
 * ToolEvo's SFT prompt (spec §5.1, the prompt of its fine-tuned models in `inference/`; tooldrift's wording): the
 * system message is the header and the tool list over the documentation surface — no guidelines, no few-shots —
 * followed by the path's UpdateTool lines; the user message is the question. Steps taken so far follow as turns:
 * the step text as an assistant turn, `Observation: …` as a user turn (tooldrift's multi-turn layout of the
 * original's single user message, spec §5.1 — the layout of the SFT export's records, core/search/trajectories.ts,
 * so a model trained on them is evaluated on the prompt it was trained on). It is the system message of SFT
 * records, and a step prompt of the ReAct methods (`prompt: "sft"`); `toolevo/training` stays for DPO records.
 */
export const SFT_PROMPT: PromptTemplate<SftPromptInput> = {
  id: 'toolevo/sft',
  family: 'toolevo',
  version: `${TOOLEVO_AGENT_VERSION}+sft.2`,
  description:
    'ToolEvo\'s SFT prompt (SFT records; the ReAct methods\' prompt: "sft"): the header and the tool list as the system message, the question as the user message, then each step as an assistant turn and its observation as a user turn.',
  render(input): ChatMessage[] {
    const tools = docsToolList(input.docs, { newTools: input.newTools ?? [], now: input.now });
    const turns: ChatMessage[] = [];
    for (const step of input.steps ?? [])
      turns.push({ role: 'assistant', content: step.text }, observationTurn(step.observation));
    return [
      { role: 'system', content: `${TOOLEVO_HEADER}\n\n${tools}` },
      { role: 'user', content: `Question: ${input.question.trim()}` },
      ...turns,
    ];
  },
};

/** The observation turn of a multi-turn conversation. */
export function observationTurn(observation: string): ChatMessage {
  return { role: 'user', content: `Observation: ${observation}` };
}
