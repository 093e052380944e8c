/**
 * Issued user keys (issue 13 item 6) in D1: only the SHA-256 of a secret is stored, the secret itself is returned
 * once by `issueKey`. A key's row id is its owner id (what it creates carries it), its own rate limit and its
 * model-spend quota in model calls, which everything that spends model calls checks before it starts and charges
 * as it runs (edge/metering.ts, through the ledger of edge/stores/spend.ts).
 */
import { and, eq, isNull } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { newestFirstPage, type Page } from './keyset.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** A key as listed: everything but the secret's hash. */
export type ApiKeyInfo = Omit<ApiKeyRow, 'secretHash'>;

const encoder = new TextEncoder();

/** Hex SHA-256 (WebCrypto) of a secret: what is stored and looked up. */
export async function secretHash(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

function info(row: ApiKeyRow): ApiKeyInfo {
  const { secretHash: _hash, ...rest } = row;
  return rest;
}

export interface KeySettings {
  name: string;
  ratePerMinute?: number | undefined;
  rateBurst?: number | undefined;
  modelCallQuota?: number | undefined;
}

/** Issues a user key: 256 random bits, stored hashed; the secret is in the answer and nowhere else. */
export async function issueKey(
  env: Bindings,
  settings: KeySettings,
): Promise<{ key: ApiKeyInfo; secret: string }> {
  const secret = `td_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
  const row: ApiKeyRow = {
    id: `key_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`,
    name: settings.name,
    secretHash: await secretHash(secret),
    prefix: secret.slice(0, 7),
    ratePerMinute: settings.ratePerMinute ?? null,
    rateBurst: settings.rateBurst ?? null,
    modelCallQuota: settings.modelCallQuota ?? null,
    modelCallsUsed: 0,
    createdAt: Date.now(),
    revokedAt: null,
  };
  await database(env.DB).insert(apiKeys).values(row);
  return { key: info(row), secret };
}

/** Every issued key, newest first (revoked ones included, marked). */
/** A page of the issued keys, newest first (keyset on creation time and id). */
export async function listKeys(
  env: Bindings,
  page: { limit: number; cursor?: string },
): Promise<Page<ApiKeyInfo>> {
  const rows = await newestFirstPage(
    { time: apiKeys.createdAt, id: apiKeys.id },
    page,
    (after, order, limit) =>
      database(env.DB)
        .select()
        .from(apiKeys)
        .where(after)
        .orderBy(...order)
        .limit(limit),
  );
  return { items: rows.items.map(info), nextCursor: rows.nextCursor };
}

/** Revokes a key (idempotent); null when there is no such key. */
export async function revokeKey(env: Bindings, id: string): Promise<ApiKeyInfo | null> {
  const db = database(env.DB);
  await db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  return row ? info(row) : null;
}

/** The live (not revoked) key whose secret hashes to `hash`. */
export async function liveKeyByHash(env: Bindings, hash: string): Promise<ApiKeyRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.secretHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row ?? null;
}

/**
 * Model calls an owner may still make: null without a quota (env-configured keys, admin keys, no owner, or an
 * issued key without one), otherwise the quota less what was used (0 or less: exhausted).
 */
export async function modelCallsLeft(env: Bindings, ownerId: string | null): Promise<number | null> {
  if (!ownerId) return null;
  const [row] = await database(env.DB)
    .select({ quota: apiKeys.modelCallQuota, used: apiKeys.modelCallsUsed })
    .from(apiKeys)
    .where(eq(apiKeys.id, ownerId))
    .limit(1);
  if (!row || row.quota === null) return null;
  return row.quota - row.used;
}
