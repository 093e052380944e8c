/**
 * DRAFT's prompt templates (spec draft.md, "Loop"): the Explorer, the Analyzer, the Rewriter and the final
 * tool-level rewrite ("Summarizer"), in tooldrift's own wording with the paper's inputs and outputs. Each answer is
 * one JSON object; core/draft/parse.ts reads it leniently.
 *
 * Every prompt is one system message naming the role (ROLE_LINES, which the simulated policy also reads to
 * tell the roles apart) and one user message made of `## ` sections:
 *
 * - explorer: `## Tool` (category, name, description, required and optional parameters, call form),
 *   `## Other tools` (tooldrift: the other documented tools, for preparatory calls), from iteration 2
 *   `## Explored so far` (queries, parameters and the responses — the paper's H_i includes results; the
 *   authors' code dropped them) and `## Suggestions for exploring` (the Rewriter's last direction), and after a
 *   rejected attempt `## Too similar` with the rejected queries. Answer: `{"query", "setup", "parameters"}`.
 * - analyzer: `## Tool`, `## Exploration` (query, preparatory calls, parameters, response), from iteration 2
 *   `## Earlier versions` (the documentation history). It judges the documentation on the paper's three criteria
 *   (App. Table 6): consistency with what the tool really did, completeness, and conciseness (no information
 *   irrelevant to using the tool). Answer: `{"suggestions": [...]}`. (The authors' code never filled the
 *   analyzer's current-description slot; here it is filled.)
 * - rewriter: the analyzer's input plus `## Analyzer suggestions`; it keeps to the tool's functionality and
 *   omits irrelevant details (App. Table 6). Answer: `{"name", "parameters", "description", "explore_next"}` — in
 *   tooldrift a tool's documentation is its call form and description, so the rewriter may rename the tool and its
 *   parameters (a drifted API renames them).
 * - summarizer: `## Category` and `## Tools` (every tool's final documentation). Answer: `{"description"}`.
 */
import type { ChatMessage } from '../messages/chat.ts';
import type { PromptTemplate } from './types.ts';

export const DRAFT_PROMPT_VERSION = 'draft.2';

export const ROLE_LINES = {
  explore: 'DRAFT role: Explorer. You try a tool out so that its documentation can be checked.',
  analyze: 'DRAFT role: Analyzer. You compare a tool documentation with what the tool really did.',
  rewrite: 'DRAFT role: Rewriter. You write the next version of a tool documentation.',
  summarize: 'DRAFT role: Summarizer. You describe a group of tools as a whole.',
} as const;

export type DraftRole = keyof typeof ROLE_LINES;

/** One parameter as the documentation lists it. */
export interface DraftParamText {
  name: string;
  required: boolean;
  description?: string;
}

/** A tool's documentation as the prompts show it. */
export interface DraftToolText {
  category: string;
  name: string;
  description: string;
  params: readonly DraftParamText[];
}

/** One call as an exploration made it. */
export interface DraftCallText {
  tool: string;
  /** The parameters as a JSON object text. */
  parameters: string;
  /** The tool's response, already truncated. */
  response: string;
}

export interface DraftExplorationText {
  query: string;
  setup: readonly DraftCallText[];
  call: DraftCallText;
}

export interface DraftExploreInput {
  tool: DraftToolText;
  /** Other documented tools, one `Name[params], description` line each. */
  otherTools: readonly string[];
  /** How many preparatory calls the answer may list (0: none). */
  setupCalls: number;
  explored: readonly DraftExplorationText[];
  /** The Rewriter's suggestions for the next exploration ('' in iteration 1). */
  suggestions: string;
  /** Queries of this iteration rejected as too similar to earlier ones. */
  rejected: readonly string[];
}

export interface DraftAnalyzeInput {
  tool: DraftToolText;
  exploration: DraftExplorationText;
  /** Earlier documentation versions, oldest first, as call-form lines (empty in iteration 1). */
  history: readonly string[];
}

export interface DraftRewriteInput extends DraftAnalyzeInput {
  suggestions: readonly string[];
}

export interface DraftSummarizeInput {
  category: string;
  /** Every tool's final documentation line. */
  tools: readonly string[];
}

/** `Name[a, b, ...]`. */
export function callForm(tool: { name: string; params: readonly { name: string }[] }): string {
  return `${tool.name}[${tool.params.map((p) => p.name).join(', ')}]`;
}

/** The one-line documentation `Name[a, b], description`. */
export function docLine(tool: {
  name: string;
  params: readonly { name: string }[];
  description: string;
  /** An API operation's route (`GET /movie/{movie_id}`), shown after the call form. */
  route?: string;
}): string {
  return `${callForm(tool)}${tool.route ? ` (${tool.route})` : ''}, ${tool.description}`.trim();
}

function paramList(params: readonly DraftParamText[]): string {
  if (params.length === 0) return '(none)';
  return params.map((p) => (p.description ? `${p.name} (${p.description})` : p.name)).join('; ');
}

export function toolSection(tool: DraftToolText): string {
  return [
    '## Tool',
    `Category: ${tool.category}`,
    `Name: ${tool.name}`,
    `Call form: ${docLine(tool)}`,
    `Description: ${tool.description}`,
    `Required parameters: ${paramList(tool.params.filter((p) => p.required))}`,
    `Optional parameters: ${paramList(tool.params.filter((p) => !p.required))}`,
  ].join('\n');
}

function callText(c: DraftCallText): string {
  return `Call: ${c.tool} ${c.parameters}\nResponse: ${c.response}`;
}

export function explorationText(e: DraftExplorationText): string {
  const lines = [`Query: ${e.query}`];
  for (const s of e.setup) lines.push(`Preparatory ${callText(s)}`);
  lines.push(callText(e.call));
  return lines.join('\n');
}

function messages(role: DraftRole, sections: string[]): ChatMessage[] {
  return [
    { role: 'system', content: ROLE_LINES[role] },
    { role: 'user', content: sections.filter((s) => s !== '').join('\n\n') },
  ];
}

/** The analyzer's and the rewriter's shared sections: the task, the tool, the exploration, earlier versions. */
function evidenceSections(task: string, input: DraftAnalyzeInput): string[] {
  const sections = [task, toolSection(input.tool), `## Exploration\n${explorationText(input.exploration)}`];
  if (input.history.length > 0) {
    sections.push(`## Earlier versions\n${input.history.map((h, i) => `v${i}: ${h}`).join('\n')}`);
  }
  return sections;
}

const EXPLORE_TASK =
  'Invent one realistic request a user could make that this tool serves, and the parameters of one call of the tool for it. Aim at what the documentation leaves unclear or may get wrong, and choose a request unlike the ones explored before.';

export const DRAFT_EXPLORE_PROMPT: PromptTemplate<DraftExploreInput> = {
  id: 'draft/explore',
  family: 'draft',
  version: DRAFT_PROMPT_VERSION,
  description:
    'DRAFT explorer: a user query and the parameters of one call, diverse from earlier explorations.',
  render(input) {
    const sections = [EXPLORE_TASK, toolSection(input.tool)];
    if (input.setupCalls > 0 && input.otherTools.length > 0) {
      sections.push(
        `## Other tools\nIf the call needs something done first (for example data loaded), list up to ${input.setupCalls} preparatory calls of these tools under "setup".\n${input.otherTools.map((t) => `- ${t}`).join('\n')}`,
      );
    }
    if (input.explored.length > 0) {
      sections.push(
        `## Explored so far\n${input.explored.map((e, i) => `(${i + 1}) ${explorationText(e)}`).join('\n\n')}`,
      );
    }
    if (input.suggestions.trim() !== '')
      sections.push(`## Suggestions for exploring\n${input.suggestions.trim()}`);
    if (input.rejected.length > 0) {
      sections.push(
        `## Too similar\nYour last query was too similar to the earlier ones; write a different one.\n${input.rejected.map((q) => `- ${q}`).join('\n')}`,
      );
    }
    sections.push(
      'Answer with one JSON object and nothing else: {"query": "<the user request>", "setup": [{"tool": "<name>", "parameters": {}}], "parameters": {<parameter name>: <value>}}',
    );
    return messages('explore', sections);
  },
};

/** The analyzer's three criteria (DRAFT App. Table 6), in tooldrift's wording. */
export const DRAFT_ANALYZE_CRITERIA: readonly string[] = [
  'Consistency: does the documentation agree with what the tool really did — its name, parameters, formats and behaviour?',
  'Completeness: does it leave out anything a user needs to call the tool and read its result?',
  'Conciseness: does it contain information that is irrelevant to using the tool?',
];

/** What the rewriter must keep to (DRAFT App. Table 6). */
export const DRAFT_REWRITE_SCOPE =
  "Keep to the tool's functionality — what it does, its parameters and their formats, what it returns — and omit details that do not help a user call it.";

export const DRAFT_ANALYZE_PROMPT: PromptTemplate<DraftAnalyzeInput> = {
  id: 'draft/analyze',
  family: 'draft',
  version: DRAFT_PROMPT_VERSION,
  description:
    'DRAFT analyzer: judged from one real call, where the documentation fails consistency, completeness or conciseness.',
  render(input) {
    const sections = evidenceSections(
      `Read the documentation and the real call below, and check the documentation on three criteria:\n${DRAFT_ANALYZE_CRITERIA.map((c, i) => `${i + 1}. ${c}`).join('\n')}\nError messages, deprecation notices and the shape of the result are evidence. Suggest a change for every criterion the documentation fails.`,
      input,
    );
    sections.push('Answer with one JSON object and nothing else: {"suggestions": ["<one suggestion>", ...]}');
    return messages('analyze', sections);
  },
};

export const DRAFT_REWRITE_PROMPT: PromptTemplate<DraftRewriteInput> = {
  id: 'draft/rewrite',
  family: 'draft',
  version: DRAFT_PROMPT_VERSION,
  description: 'DRAFT rewriter: the next documentation version and a direction for the next exploration.',
  render(input) {
    const sections = evidenceSections(
      `Rewrite the documentation so that it is correct, complete and concise, using the exploration and the suggestions. ${DRAFT_REWRITE_SCOPE} Keep what is right; change only what the evidence supports. Then say what the next exploration should try.`,
      input,
    );
    sections.push(
      `## Analyzer suggestions\n${input.suggestions.length > 0 ? input.suggestions.map((s) => `- ${s}`).join('\n') : '(none)'}`,
    );
    sections.push(
      'Answer with one JSON object and nothing else: {"name": "<tool name>", "parameters": [{"name": "<name>", "required": true, "description": "<text>"}], "description": "<the description that follows the call form>", "explore_next": "<what to try next>"}',
    );
    return messages('rewrite', sections);
  },
};

export const DRAFT_SUMMARIZE_PROMPT: PromptTemplate<DraftSummarizeInput> = {
  id: 'draft/summarize',
  family: 'draft',
  version: DRAFT_PROMPT_VERSION,
  description:
    'DRAFT tool-level rewrite: one description of a whole group of tools from their final documentation.',
  render(input) {
    return messages('summarize', [
      'Describe this group of tools in a few sentences: what it is for, which tool does what, and in which order they are used.',
      `## Category\n${input.category}`,
      `## Tools\n${input.tools.map((t) => `- ${t}`).join('\n')}`,
      'Answer with one JSON object and nothing else: {"description": "<text>"}',
    ]);
  },
};
