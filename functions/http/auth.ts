/**
 * Bearer-key authentication. Keys come from the API_KEYS / ADMIN_API_KEYS secrets, or are user keys issued
 * through `POST /v1/keys` (stored hashed in D1, looked up by their SHA-256). A request's key is compared
 * against every configured key in constant time (SHA-256 digests compared with `timingSafeEqual`, no early
 * exit), so response timing reveals neither which key matched nor how much of a key was right.
 * Only a short digest of the key (`keyId`) is ever logged or used to name a rate-limit bucket.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { type Bindings, readConfig } from '../../edge/env.ts';
import { liveKeyByHash } from '../../edge/stores/api-keys.ts';
import type { Owner } from '../../edge/stores/owners.ts';
import type { AppEnv } from '../app-env.ts';
import { ProblemError } from './problem.ts';

export type Role = 'user' | 'admin';

export interface Principal {
  role: Role;
  /** First 16 hex digits of SHA-256(key): safe to log and to key rate limits with. */
  keyId: string;
  /**
   * Whose objects this key creates and sees: for an env-configured key its `keyId` (stable: derived from the
   * key), for an issued key its row id in `api_keys`.
   */
  ownerId: string;
  /** An issued key's own rate limit, when it has one (otherwise the deployment's). */
  rate?: { perMinute: number | null; burst: number | null };
}

const encoder = new TextEncoder();

async function sha256(text: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest('SHA-256', encoder.encode(text));
}

function hex(buf: ArrayBuffer): string {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The digests of the configured keys, computed once per configuration (readConfig caches it per environment):
 * hashing every configured key again on every request cost as much as the rest of the key check.
 */
const keyDigests = new WeakMap<readonly string[], ArrayBuffer[]>();

/** The digests themselves are kept, never a promise another request may still be resolving (rate-limit.ts). */
async function digestsOf(keys: readonly string[]): Promise<ArrayBuffer[]> {
  const known = keyDigests.get(keys);
  if (known) return known;
  const digests = await Promise.all(keys.map(sha256));
  keyDigests.set(keys, digests);
  return digests;
}

async function matchesAny(candidate: ArrayBuffer, keys: readonly string[]): Promise<boolean> {
  let matched = false;
  for (const digest of await digestsOf(keys)) {
    // Evaluate every key: `||` would skip the comparison after the first match.
    const equal = crypto.subtle.timingSafeEqual(candidate, digest);
    matched = matched || equal;
  }
  return matched;
}

/**
 * Resolves the principal for a request, or null when no valid key is presented (revoked issued keys included).
 * Env-configured keys are checked first (constant time); otherwise the key's SHA-256 is looked up among the
 * issued keys (an index lookup of a hash reveals nothing about the secret).
 */
export async function authenticate(header: string | undefined, env: Bindings): Promise<Principal | null> {
  const { apiKeys, adminKeys } = readConfig(env);
  const m = header ? /^Bearer[ ]+([^\s]+)\s*$/i.exec(header) : null;
  if (!m) return null;
  const digest = await sha256(m[1] as string);
  const keyId = hex(digest).slice(0, 16);
  const isAdmin = await matchesAny(digest, adminKeys);
  const isUser = await matchesAny(digest, apiKeys);
  if (isAdmin || isUser) return { role: isAdmin ? 'admin' : 'user', keyId, ownerId: keyId };
  const issued = await liveKeyByHash(env, hex(digest));
  if (!issued) return null;
  return {
    role: 'user',
    keyId,
    ownerId: issued.id,
    rate: { perMinute: issued.ratePerMinute, burst: issued.rateBurst },
  };
}

/** The owner the current request acts for (set by requireKey). */
export function ownerOf(c: Context<AppEnv>): Owner {
  const principal = c.get('principal');
  if (!principal) throw new Error('ownerOf() needs requireKey() to have run');
  return { id: principal.ownerId, admin: principal.role === 'admin' };
}

/** The middleware `requireKey('admin')` returned, so the OpenAPI document can mark admin-only routes. */
const ADMIN_GATES = new WeakSet<object>();

export function isAdminGate(middleware: unknown): boolean {
  return typeof middleware === 'function' && ADMIN_GATES.has(middleware);
}

/** Requires a valid key; `admin` routes require an admin key. Sets `principal` on the context. */
export function requireKey(role: Role = 'user'): MiddlewareHandler<AppEnv> {
  const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
    const header = c.req.header('authorization');
    const principal = await authenticate(header, c.env);
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
  const principal = await authenticate(header, c.env);
  if (!principal) {
    throw new ProblemError('unauthorized', {
      detail: 'The bearer key is not valid.',
      headers: { 'www-authenticate': 'Bearer realm="tooldrift"' },
    });
  }
  return principal;
}
