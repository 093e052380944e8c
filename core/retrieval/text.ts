/**
 * Texts and tokens the rankers read. Tool names are split on camelCase, underscores, dots, dashes and digit
 * boundaries (`getFlightStatus_v2` → get flight status v 2) so a query's words can meet a name's parts.
 */
import type { Tool } from './types.ts';

/** The tool text fed to a frozen encoder (spec "Tool text fed to the frozen model"). */
export function toolText(tool: Pick<Tool, 'name' | 'description'>): string {
  return `tool name: ${tool.name}, tool description: ${tool.description}`;
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
