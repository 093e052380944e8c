/**
 * Nesting bound for JSON request bodies (issue 13 item 5). `JSON.parse` accepts any depth, but a deeply nested
 * value later overflows the stack of whatever walks it recursively — zod validation, the Durable Object RPC
 * serialiser — and surfaced as a 500. Bodies are checked right after parsing, so every route answers 400.
 *
 * Hand-written: a single pass over text already known to be valid JSON only has to skip strings (with their
 * backslash escapes) and count brackets; no library exposes the depth without building the value.
 */

/** Deepest nesting accepted in a request body; the deepest legitimate body (a Python namespace snapshot in an
 * EnvState) needs about ten levels. */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of valid JSON text: `1` is 0, `[]` is 1, `{"a": [1]}` is 2. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}
