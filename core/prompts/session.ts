/**
 * The instructions an MCP client receives when it connects to an episode session (the `instructions` of the MCP
 * `initialize` result): which session, the question, how to answer and the step budget.
 */
import type { ChatMessage } from '../messages/chat.ts';
import type { PromptTemplate } from './types.ts';

export interface McpInstructionsInput {
  sessionId: string;
  dataset: string;
  difficulty: string;
  question: string;
  stepBudget: number;
}

export const MCP_INSTRUCTIONS_PROMPT: PromptTemplate<McpInstructionsInput> = {
  id: 'session/mcp-instructions',
  family: 'session',
  version: '1',
  description:
    'MCP instructions of an episode session: the session, its question, how to finish, the step budget.',
  render(input): ChatMessage[] {
    return [
      {
        role: 'system',
        content: [
          `tooldrift session ${input.sessionId} (${input.dataset}, ${input.difficulty}).`,
          `Question: ${input.question}`,
          `Answer it by calling the tools; call Finish with your answer to end the episode. Every call is one step of a budget of ${input.stepBudget}.`,
        ].join('\n'),
      },
    ];
  },
};
