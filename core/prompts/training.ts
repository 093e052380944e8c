/**
 * The training prompt of ToolEVO §3.4 (spec §8): what SFT and DPO records (core/search/trajectories.ts) put before
 * the assistant's text. The system message is the agent prompt's instructions over the documentation surface
 * (P_c by default) up to and including the turn marker, without UpdateTool lines (the trajectory itself shows the
 * drift being discovered); the user message is the question, followed for a DPO pair by the shared steps with
 * their observations (what the agent prompt shows after the question at that state).
 */
import type { ChatMessage } from '../messages/chat.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import type { TrajectoryStep } from './react-format.ts';
import { agentInstructions, agentPromptTail, TOOLEVO_AGENT_VERSION, TOOLEVO_HEADER } from './toolevo.ts';
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
 * ToolEvo's SFT prompt (spec §5.1, tooldrift's wording): the system message is the header and the tool list over
 * the documentation surface — no guidelines, no few-shots — and the user message the question. The default system
 * message of SFT records (core/search/trajectories.ts); `toolevo/training` stays for DPO and single-turn records.
 */
export const SFT_PROMPT: PromptTemplate<TrainingPromptInput> = {
  id: 'toolevo/sft',
  family: 'toolevo',
  version: `${TOOLEVO_AGENT_VERSION}+sft.1`,
  description:
    "ToolEvo's SFT prompt (SFT records): the header and the tool list as the system message, the question as the user message.",
  render(input): [ChatMessage, ChatMessage] {
    return [
      { role: 'system', content: `${TOOLEVO_HEADER}\n\n${renderToolList(input.docs)}` },
      { role: 'user', content: `Question: ${input.question.trim()}` },
    ];
  },
};
