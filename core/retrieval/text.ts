/**
 * Texts and tokens the rankers read. Tool names are split on camelCase, underscores, dots, dashes and digit
 * boundaries (`getFlightStatus_v2` → get flight status v 2) so a query's words can meet a name's parts.
 */
import type { Tool } from './types.ts';

/**
 * How a tool is written for a frozen encoder.
 * - `paper`: the spec's text for a frozen LLM, `tool name: <name>, tool description: <description>` (the vector
 *   is the LLM's hidden state at the end of that prompt).
 * - `sentence` (default, tooldrift's): `<split name>: <description>` — what a sentence encoder reads best. The
 *   paper's frame costs a sentence encoder 6 points of top-1 on SimpleToolQuestions dev with USE lite (34.1 vs
 *   40.5, untrained cosine, `retrieve bench --rankers dense --encoder use --tool-text paper|sentence`): every
 *   tool text starts with the same four words, and an identifier such as
 *   `people/person/place_of_birth` reaches the word-piece vocabulary unsplit.
 */
export const TOOL_TEXT_FORMATS = ['sentence', 'paper'] as const;
export type ToolTextFormat = (typeof TOOL_TEXT_FORMATS)[number];

type ToolLike = Pick<Tool, 'name' | 'description'>;

/** Each format's writer. */
export const TOOL_TEXT: Record<ToolTextFormat, (tool: ToolLike) => string> = {
  sentence: (tool) => `${splitIdentifier(tool.name)}: ${tool.description}`,
  paper: (tool) => `tool name: ${tool.name}, tool description: ${tool.description}`,
};

/** The tool text fed to a frozen encoder, in the default format (`sentence`; see `TOOL_TEXT_FORMATS`). */
export function toolText(tool: ToolLike): string {
  return TOOL_TEXT.sentence(tool);
}

/** `getFlightStatusByID_v2` → `get Flight Status By ID v2` (then lower-cased by `wordTokens`). */
export function splitIdentifier(name: string): string {
  return name
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/[_.\-/:]+/g, ' ');
}

/** Lower-cased runs of letters and digits, identifiers split first. */
export function wordTokens(text: string): string[] {
  return (
    splitIdentifier(text.normalize('NFKC'))
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Words of a tool for lexical rankers: its split name, then its description. */
export function toolWords(tool: Pick<Tool, 'name' | 'description'>): string[] {
  return [...wordTokens(tool.name), ...wordTokens(tool.description)];
}
