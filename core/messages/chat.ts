/**
 * The neutral message type shared by prompts (which render messages) and models (which send them). It lives
 * here, depending on nothing, so that `core/prompts` and `core/models` do not import each other.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The text a completion model reads: the messages' contents joined by blank lines. */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages.map((m) => m.content).join('\n\n');
}
