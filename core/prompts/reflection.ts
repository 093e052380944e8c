/**
 * The self-reflection variant of the ToolEvo agent prompt, used when the last step failed (a deprecated tool,
 * wrong parameters, an unknown tool, unparsable output or a tool error): the same prompt, followed after the
 * trajectory by a `Reflection:` paragraph that asks the agent to read the failing observation and to correct its
 * next step. The agent then continues with its next Thought.
 *
 * The paragraph is separated from the last observation by a blank line and starts with REFLECTION_LABEL, so a
 * reader of the prompt (e.g. the simulated policy) can tell it from the observation.
 */
import type { ChatMessage } from '../messages/chat.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import { trajectoryText } from './react-format.ts';
import { type AgentPromptInput, agentPromptHead, TOOLEVO_AGENT_VERSION, TOOLEVO_SYSTEM } from './toolevo.ts';
import type { PromptTemplate } from './types.ts';

export const REFLECTION_LABEL = 'Reflection:';

export const REFLECTION_TEXT =
  'The last step did not work. Before you continue, read its observation again and find out why. If it says that the tool is deprecated, switch to the tool it names and shape the parameters like its param example. If it says that the parameters are wrong, compare your Action Input with the error message, the tool description and any example, and correct the parameter names and values. If the tool name was not accepted, pick a tool from the list. If your output could not be read, write Thought, Action and Action Input again in the required format.';

/** The same input as the agent prompt; the caller decides that the last step failed. */
export type ReflectionPromptInput = AgentPromptInput;

export function renderReflectionPrompt(input: ReflectionPromptInput): string {
  const steps = input.steps ?? [];
  const trajectory = steps.length === 0 ? '' : `\n\n${pyStrip(trajectoryText(steps))}`;
  return `${agentPromptHead(input)}${trajectory}\n\n${REFLECTION_LABEL} ${REFLECTION_TEXT}\n\n`;
}

export const TOOLEVO_REFLECTION_PROMPT: PromptTemplate<ReflectionPromptInput> = {
  id: 'toolevo/reflection',
  family: 'toolevo',
  version: `${TOOLEVO_AGENT_VERSION}+reflection.1`,
  description:
    'ToolEvo agent prompt with a self-reflection paragraph after the trajectory, for the step after a failed one.',
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: TOOLEVO_SYSTEM },
      { role: 'user', content: renderReflectionPrompt(input) },
    ];
  },
};
