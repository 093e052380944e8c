/**
 * The ToolEvo agent prompt (the structure of spec §5.1, tooldrift's own wording): a header with the tool list
 * rendered from the documentation surface (P_c in the ToolQA-D setting) followed by the UpdateTool lines of the
 * current path, numbered guidelines including the UpdateTool rule, worked examples in the documented API, the
 * question, then the trajectory so far.
 *
 * Examples: with `fewShots` (the default of every caller: the search and the ReAct methods, as in ToolEvo's MCTS
 * and its baselines, spec §5.1) one UpdateTool example and two examples of the task's dataset, drawn for every
 * generation call with a stream seeded by the caller (the tree's seed and the expanded state; the episode's seed
 * and the step), so the prompt is still a function of its input; without it, three fixed examples (tooldrift's
 * variant, `fewShots: 'fixed'`).
 *
 * Guidelines: ToolEvo's prompts give no hint that tools drift (App. B.1): its guideline 4 is only the UpdateTool
 * rule — after a deprecated tool's replacement first works, describe it with UpdateTool. That is the default
 * (`TOOLEVO_GUIDELINES`). `driftHint` (tooldrift's earlier guideline 4, an option) also tells the agent that tools
 * change and to switch to the tool a deprecation message names (`DRIFT_HINT_GUIDELINE`).
 *
 * Layout (one system message with the role, one user message with everything else):
 *
 * ```text
 * {header}\n\n{tool list}\n\n{guidelines}\n\nHere are some examples:\n\n{example 1}\n\n{example 2}\n\n{example 3}
 * \n\nNow it is your turn.\n\nQuestion: {question}      ← trimmed, then
 * \n\n{steps joined by \n\n}\n\n                          ← or just \n\n when there is no step yet
 * ```
 *
 * Deliberate differences from ToolQA-D's prompt:
 * - The tool list appears once (the MCTS copy doubled it, §4.10 item 19).
 * - The examples are valid JSON (the original UpdateTool examples used single quotes, item 18).
 * - The UpdateTool examples use invented tool names, not a surface's real replacements (the original showed
 *   P_s_in's names).
 * - The dataset pools hold tooldrift's examples: two or more for each of flights, coffee, airbnb, yelp, agenda,
 *   scirex, dblp and gsm8k (the original has 3–20 per dataset and level); an unknown dataset is served from the
 *   other datasets' examples. One pool per dataset whose examples mix the easy and hard kinds of tool use (the
 *   original keeps one file per dataset and level, spec §1.3), and the pool is chosen by dataset only.
 * - The three fixed examples and the recorded pool examples are tooldrift's, recorded on a small generated world
 *   (core/prompts/few-shots.ts), not the original's examples on the real corpora.
 * - The option `fewShots: 'fixed'` shows three fixed examples and no UpdateTool example; `driftHint` adds the
 *   drift hint to guideline 4 (both tooldrift's earlier prompt, off by default).
 * - Documentation chosen by retrieval (the toolPool aid, `docs.retrieved`) shows only the examples whose calls
 *   it documents — worked examples that need a tool retrieval did not find, and an UpdateTool example whose
 *   deprecated tool is undocumented, are left out (with no example left, so is the examples heading).
 */
import type { ApiDocTool } from '../apis/surface/docs.ts';
import type { ChatMessage } from '../messages/chat.ts';
import type { ResolveOptions } from '../surfaces/adapter.ts';
import { renderToolList } from '../surfaces/docs.ts';
import type { Surface } from '../surfaces/model.ts';
import { Rng } from '../util/random.ts';
import { pyStrip } from '../world/kernel/python-text.ts';
import {
  drawFewShots,
  FEW_SHOTS_VERSION,
  type FewShotExample,
  renderFewShot,
  TOOLEVO_FIXED_FEW_SHOTS,
  undocumentedActions,
  usesDocumentedTools,
} from './few-shots.ts';
import { type TrajectoryStep, trajectoryText } from './react-format.ts';
import { renderDemonstrations, type SteDemonstration } from './ste.ts';
import type { PromptTemplate } from './types.ts';

export const TOOLEVO_AGENT_VERSION = `2+examples.${FEW_SHOTS_VERSION}`;

/** Where a prompt's worked examples come from: ToolEvo's per-call draw, or tooldrift's three fixed examples. */
export const FEW_SHOT_MODES = ['per-call', 'fixed'] as const;
export type FewShotMode = (typeof FEW_SHOT_MODES)[number];

/** The line that separates the examples from the question being asked. */
export const TURN_MARKER = 'Now it is your turn.';

export const TOOLEVO_SYSTEM = 'You are an agent that answers questions by calling tools.';

export const TOOLEVO_HEADER =
  'Answer the question below by working with tools, one step at a time. These tools are available:';

/** Guideline 4 as ToolEvo has it (spec §5.1): the UpdateTool rule alone, no hint that tools drift (App. B.1). */
export const UPDATE_TOOL_GUIDELINE =
  'When you find that a tool has been deprecated and you call its new tool successfully for the first time, call UpdateTool with a description of the new tool.';

/** tooldrift's earlier guideline 4 (the `driftHint` option): the UpdateTool rule after a hint that tools drift. */
export const DRIFT_HINT_GUIDELINE =
  'Tools change over time. If an observation says that a tool is deprecated, use the tool it names instead. The first time such a new tool works for you, call UpdateTool with a one-line description of it (its name, its parameters and an example of them), so that it is listed among your tools from then on.';

/** The guidelines; number 4 is ToolEvo's UpdateTool rule. */
export const TOOLEVO_GUIDELINES: readonly string[] = [
  'Solve the problem in steps. A step is a Thought (your reasoning), an Action (the name of exactly one tool) and an Action Input (the parameters of that tool as one JSON object); the environment then adds an Observation with the result.',
  'Spell tool names and parameter names exactly as documented, and give every parameter a value.',
  'When the answer needs exact arithmetic, write Python code and run it instead of calculating in your head.',
  UPDATE_TOOL_GUIDELINE,
  'When you know the answer, give it with Finish.',
  'Write every step in this format:',
];

/** The guidelines a prompt shows: ToolEvo's, or with tooldrift's drift hint as guideline 4. */
export function guidelines(driftHint = false): readonly string[] {
  return driftHint
    ? TOOLEVO_GUIDELINES.map((g) => (g === UPDATE_TOOL_GUIDELINE ? DRIFT_HINT_GUIDELINE : g))
    : TOOLEVO_GUIDELINES;
}

const FORMAT_BLOCK = [
  'Question: the question you must answer',
  'Thought: your reasoning',
  'Action: the tool to use, exactly one of the tool names above',
  'Action Input: the parameters of the tool as a JSON object',
  'Observation: the result of the tool call',
  '... (Thought, Action, Action Input and Observation repeat as often as needed)',
].join('\n\n');

/**
 * The documentation of an imported API as the agent prompt shows it: its numbered tool list (the API's own docs, a
 * drifted version's, a DRAFT docset's or an uploaded description file), Finish included. The ToolQA worked
 * examples are in the kernel's tools and are not shown with it.
 */
export interface ApiPromptDocs {
  kind: 'api';
  toolList: string;
  /**
   * The documented tools one by one, in list order (what the toolPool aid retrieves over and lists a subset of;
   * core/aids/api-docs.ts). Absent for a list given as text only.
   */
  tools?: readonly ApiDocTool[];
  /** Documentation chosen by retrieval (the toolPool aid): the pool's size. */
  retrieved?: { pool: number };
}

export interface AgentPromptInput {
  question: string;
  /** The surface whose documentation the agent reads (P_c in the ToolQA-D setting), or an API's tool list. */
  docs: Surface | ApiPromptDocs;
  /** The UpdateTool lines of the current path (`EnvState.newTools`), listed after the tools. */
  newTools?: readonly string[];
  /** The steps taken so far on this path. */
  steps?: readonly TrajectoryStep[];
  /** For documentation of surfaces whose tools have sunset dates. */
  now?: ResolveOptions['now'];
  /**
   * ToolEvo's per-call few-shots (spec §5.1): one UpdateTool example and two examples of `dataset`, drawn with a
   * stream seeded by `seed`. Without it the three fixed examples are shown (tooldrift's variant, `fewShots:
   * 'fixed'` of the search and the ReAct methods).
   */
  fewShots?: { dataset?: string | undefined; seed: string };
  /** tooldrift's drift hint in guideline 4 (off: ToolEvo's guideline, no hint of drift, App. B.1). */
  driftHint?: boolean;
  /**
   * false: Table 5's "w/o tool update" — the prompt neither lists UpdateTool nor gives its guideline or its
   * example (spec §10: no summary and no update of P_c). Default true.
   */
  toolUpdate?: boolean;
  /**
   * STE demonstrations (the demonstrations aid): retrieved exemplars placed after the worked examples and
   * before the turn marker (`ste/demonstrations` layout). Absent or empty → the prompt is unchanged.
   */
  demonstrations?: readonly SteDemonstration[];
}

/**
 * The examples block: ToolEvo's per-call draw when `fewShots` is given, else the three fixed examples; no UpdateTool
 * example under `toolUpdate: false`. Under documentation chosen by retrieval (`docs.retrieved`) only the examples
 * that call documented tools are shown.
 */
function renderExamples(
  input: Pick<AgentPromptInput, 'fewShots' | 'toolUpdate'> & { docs: Surface },
): string {
  const { docs } = input;
  const shown = (e: FewShotExample) => !docs.retrieved || usesDocumentedTools(e, docs);
  if (!input.fewShots)
    return TOOLEVO_FIXED_FEW_SHOTS.filter(shown)
      .map((e) => renderFewShot(e, docs))
      .join('\n\n');
  const drawn = drawFewShots(input.fewShots.dataset, new Rng(`few-shots/${input.fewShots.seed}`));
  const update =
    input.toolUpdate !== false && (!docs.retrieved || undocumentedActions(drawn.update, docs).length === 0)
      ? [drawn.update]
      : [];
  return [...update, ...drawn.examples.filter(shown).map((e) => renderFewShot(e, docs))].join('\n\n');
}

/** The documentation surface without UpdateTool (Table 5's "w/o tool update", `toolUpdate: false`). */
export function withoutUpdateTool(surface: Surface): Surface {
  return { ...surface, tools: surface.tools.filter((t) => t.kernel !== 'UpdateTool') };
}

function isApiDocs(docs: AgentPromptInput['docs']): docs is ApiPromptDocs {
  return (docs as ApiPromptDocs).kind === 'api';
}

/** The documentation's tool list: a surface's rendered, an imported API's as given; UpdateTool lines after it. */
export function docsToolList(
  docs: Surface | ApiPromptDocs,
  opts: { newTools?: readonly string[]; now?: ResolveOptions['now'] } = {},
): string {
  const newTools = opts.newTools ?? [];
  if (!isApiDocs(docs)) return renderToolList(docs, { newTools, now: opts.now });
  return newTools.length > 0 ? `${docs.toolList}\n${newTools.join('\n')}` : docs.toolList;
}

/**
 * The instructions of the agent prompt: tool list, guidelines, format and examples, ending with TURN_MARKER (no
 * question). The training prompt (training.ts) uses it as its system message.
 */
export function agentInstructions(input: Omit<AgentPromptInput, 'question' | 'steps'>): string {
  const noUpdate = input.toolUpdate === false;
  const newTools = input.newTools ?? [];
  let tools: string;
  let examples: string;
  if (isApiDocs(input.docs)) {
    // An imported API's tool list as given; ToolQA's worked examples are in the kernel's tools: none shown.
    tools = docsToolList(input.docs, { newTools });
    examples = '';
  } else {
    const docs = noUpdate ? withoutUpdateTool(input.docs) : input.docs;
    tools = docsToolList(docs, { newTools, now: input.now });
    examples = renderExamples({ ...input, docs: input.docs });
  }
  const shown = guidelines(input.driftHint).filter(
    (g) => !noUpdate || (g !== UPDATE_TOOL_GUIDELINE && g !== DRIFT_HINT_GUIDELINE),
  );
  const numbered = shown.map((g, i) => `${i + 1}. ${g}`).join('\n');
  const demos = renderDemonstrations(input.demonstrations ?? [], false);
  const block = demos === '' ? '' : `${demos}\n\n`;
  // Retrieved documentation (or an API's) may leave no example to show: then the examples heading goes too.
  const exampleBlock = examples === '' ? '' : `Here are some examples:\n\n${examples}\n\n`;
  return `${TOOLEVO_HEADER}\n\n${tools}\n\n${numbered}\n\n${FORMAT_BLOCK}\n\n${exampleBlock}${block}${TURN_MARKER}`;
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
    "ToolEvo agent prompt: documented tool list with UpdateTool lines, guidelines with the UpdateTool rule (no hint of drift), one UpdateTool example and two of the task's dataset drawn per call, in the documented API, the question and the trajectory.",
  render(input): ChatMessage[] {
    return [
      { role: 'system', content: TOOLEVO_SYSTEM },
      { role: 'user', content: renderToolEvoPrompt(input) },
    ];
  },
};
