/**
 * Stable content hashes for cassettes and embedding caches: canonical JSON (object keys sorted, `undefined`
 * members dropped, as JSON.stringify drops them) hashed with SHA-256 through Web Crypto, which Node and
 * workerd both provide as `crypto.subtle`.
 */

/** JSON with object keys in code-unit order at every depth; the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = sortKeys(member);
    }
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`canonicalJson: ${value} has no JSON form`);
  }
  return value;
}

/** Lower-case hex SHA-256 of the UTF-8 encoding of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
