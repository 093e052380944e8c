/**
 * The ToolEvo agent prompt (the structure of spec §5.1, tooldrift's own wording): a header with the tool list
 * rendered from the documentation surface (P_c in the ToolQA-D setting) followed by the UpdateTool lines of the
 * current path, numbered guidelines including the UpdateTool rule, three worked examples in the documented API,
 * the question, then the trajectory so far.
 *
 * Layout (one system message with the role, one user message with everything else):
 *
 * ```text
 * {header}\n\n{tool list}\n\n{guidelines}\n\nHere are some examples:\n\n{example 1}\n\n{example 2}\n\n{example 3}
 * \n\nNow it is your turn.\n\nQuestion: {question}      ← trimmed, then
 * \n\n{steps joined by \n\n}\n\n                          ← or just \n\n when there is no step yet
 * ```
 *
 * Differences from the ToolQA-D prompt (on purpose): the tool list appears once (the MCTS copy doubled it,
 * §4.10 item 19); the examples are fixed (not resampled per call) so that the prompt is a function of its input;
 * they are valid JSON (the original UpdateTool examples used single quotes, item 18); no example shows a drifted
 * API — drift is discovered through the environment's answers, as the guidelines say.
 */
import type { ChatMessage } from '../messages/chat.ts';
import type { ResolveOptions } from '../surfaces/adapter.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import { FEW_SHOTS_VERSION, renderFewShot, TOOLEVO_FEW_SHOTS } from './few-shots.ts';
import { type TrajectoryStep, trajectoryText } from './react-format.ts';
import { renderDemonstrations, type SteDemonstration } from './ste.ts';
import type { PromptTemplate } from './types.ts';

export const TOOLEVO_AGENT_VERSION = `1+examples.${FEW_SHOTS_VERSION}`;

/** The line that separates the examples from the question being asked. */
export const TURN_MARKER = 'Now it is your turn.';

export const TOOLEVO_SYSTEM = 'You are an agent that answers questions by calling tools.';

const HEADER =
  'Answer the question below by working with tools, one step at a time. These tools are available:';

/** The guidelines; number 4 is ToolEvo's UpdateTool rule. */
export const TOOLEVO_GUIDELINES: readonly string[] = [
  'Solve the problem in steps. A step is a Thought (your reasoning), an Action (the name of exactly one tool) and an Action Input (the parameters of that tool as one JSON object); the environment then adds an Observation with the result.',
  'Spell tool names and parameter names exactly as documented, and give every parameter a value.',
  'When the answer needs exact arithmetic, write Python code and run it instead of calculating in your head.',
  'Tools change over time. If an observation says that a tool is deprecated, use the tool it names instead. The first time such a new tool works for you, call UpdateTool with a one-line description of it (its name, its parameters and an example of them), so that it is listed among your tools from then on.',
  'When you know the answer, give it with Finish.',
  'Write every step in this format:',
];

const FORMAT_BLOCK = [
  'Question: the question you must answer',
  'Thought: your reasoning',
  'Action: the tool to use, exactly one of the tool names above',
  'Action Input: the parameters of the tool as a JSON object',
  'Observation: the result of the tool call',
  '... (Thought, Action, Action Input and Observation repeat as often as needed)',
].join('\n\n');

export interface AgentPromptInput {
  question: string;
  /** The surface whose documentation the agent reads (P_c in the ToolQA-D setting). */
  docs: Surface;
  /** The UpdateTool lines of the current path (`EnvState.newTools`), listed after the tools. */
  newTools?: readonly string[];
  /** The steps taken so far on this path. */
  steps?: readonly TrajectoryStep[];
  /** For documentation of surfaces whose tools have sunset dates. */
  now?: ResolveOptions['now'];
  /**
   * STE demonstrations (the demonstrations aid): retrieved exemplars placed after the worked examples and
   * before the turn marker (`ste/demonstrations` layout). Absent or empty → the prompt is unchanged.
   */
  demonstrations?: readonly SteDemonstration[];
}

/**
 * The instructions of the agent prompt: tool list, guidelines, format and examples, ending with TURN_MARKER (no
 * question). The training prompt (training.ts) uses it as its system message.
 */
export function agentInstructions(input: Omit<AgentPromptInput, 'question' | 'steps'>): string {
  const tools = renderToolList(input.docs, { newTools: input.newTools ?? [], now: input.now });
  const guidelines = TOOLEVO_GUIDELINES.map((g, i) => `${i + 1}. ${g}`).join('\n');
  const examples = TOOLEVO_FEW_SHOTS.map((e) => renderFewShot(e, input.docs)).join('\n\n');
  const demos = renderDemonstrations(input.demonstrations ?? [], false);
  const block = demos === '' ? '' : `${demos}\n\n`;
  return `${HEADER}\n\n${tools}\n\n${guidelines}\n\n${FORMAT_BLOCK}\n\nHere are some examples:\n\n${examples}\n\n${block}${TURN_MARKER}`;
}

/** Everything up to and including the question (trimmed), shared by the agent and reflection prompts. */
export function agentPromptHead(input: AgentPromptInput): string {
  return pyStrip(`${agentInstructions(input)}\n\nQuestion: ${input.question}`);
}

/** The trajectory part: `\n\n` + steps + `\n\n`, or `\n\n` alone (spec §5.1 assembly). */
export function agentPromptTail(steps: readonly TrajectoryStep[] = []): string {
  return steps.length === 0 ? '\n\n' : `\n\n${pyStrip(trajectoryText(steps))}\n\n`;
}

/** The agent prompt as one text (the user message). */
export function renderToolEvoPrompt(input: AgentPromptInput): string {
  return `${agentPromptHead(input)}${agentPromptTail(input.steps)}`;
}

export const TOOLEVO_AGENT_PROMPT: PromptTemplate<AgentPromptInput> = {
  id: 'toolevo/agent',
  family: 'toolevo',
  version: TOOLEVO_AGENT_VERSION,
  description:
    'ToolEvo agent prompt: documented tool list with UpdateTool lines, guidelines with the UpdateTool rule, three worked examples in the documented API, the question and the trajectory.',
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: TOOLEVO_SYSTEM },
      { role: 'user', content: renderToolEvoPrompt(input) },
    ];
  },
};
