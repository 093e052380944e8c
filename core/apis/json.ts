/** Small helpers for the JSON values imported APIs are made of: object test and JSON pointers (RFC 6901). */

export type JsonObject = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from its tokens: `jsonPointer('paths', '/a/{id}', 'get')` → `/paths/~1a~1{id}/get`. */
export function jsonPointer(...tokens: (string | number)[]): string {
  return tokens.map((t) => `/${pointerToken(t)}`).join('');
}
