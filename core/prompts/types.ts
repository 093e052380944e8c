/**
 * Prompt templates as versioned units: every prompt an agent sends is produced by a template with an id and a
 * version (recorded with runs, so that results can be traced to the exact wording), from a typed input.
 */
import type { ChatMessage } from '../messages/chat.ts';

export { promptText } from '../messages/chat.ts';

/**
 * The version of the prompt set as a whole. Bump it whenever any template's wording, few-shot examples or
 * layout changes; runs record it next to the template id.
 */
export const PROMPT_VERSION = 'tooldrift-prompts/3';

export type PromptFamily = 'toolevo' | 'ste' | 'draft' | 'session';

export interface PromptTemplate<I> {
  /** `{family}/{name}`, e.g. `toolevo/agent`. */
  id: string;
  family: PromptFamily;
  /** The template's own version (changes with its wording). */
  version: string;
  description: string;
  render(input: I): ChatMessage[];
}
