/**
 * Bearer-key authentication. Keys come from the API_KEYS / ADMIN_API_KEYS secrets; a request's key is compared
 * against every configured key in constant time (SHA-256 digests compared with `timingSafeEqual`, no early
 * exit), so response timing reveals neither which key matched nor how much of a key was right.
 * Only a short digest of the key (`keyId`) is ever logged or used to name a rate-limit bucket.
 */
import type { MiddlewareHandler } from 'hono';
import { readConfig } from '../../edge/env.ts';
import type { AppEnv } from '../app-env.ts';
import { ProblemError } from './problem.ts';

export type Role = 'user' | 'admin';

export interface Principal {
  role: Role;
  /** First 16 hex digits of SHA-256(key): safe to log and to key rate limits with. */
  keyId: string;
}

const encoder = new TextEncoder();

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', encoder.encode(text));
}

function hex(buf: ArrayBuffer): string {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function matchesAny(candidate: ArrayBuffer, keys: readonly string[]): Promise<boolean> {
  let matched = false;
  for (const key of keys) {
    const digest = await sha256(key);
    // Evaluate every key: `||` would skip the comparison after the first match.
    const equal = crypto.subtle.timingSafeEqual(candidate, digest);
    matched = matched || equal;
  }
  return matched;
}

/** Resolves the principal for a request, or null when no valid key is presented. */
export async function authenticate(
  header: string | undefined,
  apiKeys: readonly string[],
  adminKeys: readonly string[],
): Promise<Principal | null> {
  const m = header ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  const digest = await sha256(m[1] as string);
  const isAdmin = await matchesAny(digest, adminKeys);
  const isUser = await matchesAny(digest, apiKeys);
  if (!isAdmin && !isUser) return null;
  return { role: isAdmin ? 'admin' : 'user', keyId: hex(digest).slice(0, 16) };
}

/** The middleware `requireKey('admin')` returned, so the OpenAPI document can mark admin-only routes. */
const ADMIN_GATES = new WeakSet<object>();

export function isAdminGate(middleware: unknown): boolean {
  return typeof middleware === 'function' && ADMIN_GATES.has(middleware);
}

/** Requires a valid key; `admin` routes require an admin key. Sets `principal` on the context. */
export function requireKey(role: Role = 'user'): MiddlewareHandler<AppEnv> {
  const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const config = readConfig(c.env);
    const header = c.req.header('authorization');
    const principal = await authenticate(header, config.apiKeys, config.adminKeys);
    if (!principal) {
      throw new ProblemError('unauthorized', {
        detail: header
          ? 'The bearer key is not valid.'
          : 'This route requires an API key: send `Authorization: Bearer <key>`.',
        headers: { 'www-authenticate': 'Bearer realm="tooldrift"' },
      });
    }
    if (role === 'admin' && principal.role !== 'admin') {
      throw new ProblemError('forbidden', { detail: 'This route requires an admin key.' });
    }
    c.set('principal', principal);
    await next();
  };
  if (role === 'admin') ADMIN_GATES.add(gate);
  return gate;
}

/**
 * For public routes that show more to key holders (e.g. gold answers to admins): no header → null; a header
 * with an invalid key is still a 401, so a caller never silently gets the public view by mistake.
 */
export async function optionalPrincipal(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
): Promise<Principal | null> {
  const header = c.req.header('authorization');
  if (header === undefined) return null;
  const config = readConfig(c.env);
  const principal = await authenticate(header, config.apiKeys, config.adminKeys);
  if (!principal) {
    throw new ProblemError('unauthorized', {
      detail: 'The bearer key is not valid.',
      headers: { 'www-authenticate': 'Bearer realm="tooldrift"' },
    });
  }
  return principal;
}
