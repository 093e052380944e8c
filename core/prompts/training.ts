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
import {
  type AgentPromptInput,
  agentInstructions,
  agentPromptTail,
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

/**
 * The steps of a multi-turn SFT conversation: per step an assistant turn (the step's text) and a user turn
 * `Observation: …`; with `lastObservation: false` the final step's observation is left out (an SFT record's
 * Finish verdict). One definition for the records (core/search/trajectories.ts) and the inference prompt below.
 */
export function sftTurns(steps: readonly TrajectoryStep[], lastObservation = true): ChatMessage[] {
  const turns: ChatMessage[] = [];
  steps.forEach((step, i) => {
    turns.push({ role: 'assistant', content: step.text });
    if (lastObservation || i < steps.length - 1)
      turns.push({ role: 'user', content: `Observation: ${step.observation}` });
  });
  return turns;
}

/**
 * ToolEvo's SFT prompt at inference (spec §5.1, §8.3: the fine-tuned models of the paper's `inference/` are asked
 * with the SFT prompt, not the few-shot one), in the multi-turn layout of tooldrift's SFT records: the SFT system
 * message and question, then the steps so far as assistant/observation turns, so a model trained on the exports
 * is asked exactly as it was trained. UpdateTool lines reach it through the conversation (the UpdateTool step
 * and its observation), as in the records, not through the system message. Used by the micro recipe's
 * evaluation (gpu-jobs/micro/demo-loop.ts).
 */
export const SFT_CHAT_PROMPT: PromptTemplate<AgentPromptInput> = {
  id: 'toolevo/sft-chat',
  family: 'toolevo',
  version: `${TOOLEVO_AGENT_VERSION}+sft-chat.1`,
  description:
    "ToolEvo's SFT prompt for a fine-tuned model's steps: the SFT system message and question, then each step so far as an assistant turn and its observation as a user turn (the SFT records' layout).",
  render(input): ChatMessage[] {
    return [
      ...SFT_PROMPT.render({ question: input.question, docs: input.docs }),
      ...sftTurns(input.steps ?? []),
    ];
  },
};
