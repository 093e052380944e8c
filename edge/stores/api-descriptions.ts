/**
 * Description files of an imported API (issue 23 §1, the documentation aid's "uploaded description file", such as
 * DRAFT's `TMDB_Initial.json` / `TMDB_DRAFT.json`) — the only module with their storage. A file is kept as read
 * against the API (core/aids/api-docs.ts `readDescriptionFile`: its descriptions by base operation and the tools
 * that matched none), one R2 blob per file under the API's prefix, with what a listing shows as custom metadata:
 * no D1 table, and ownership is the API's (its routes check the API first). Ids sort newest first, so a prefix
 * listing pages newest first with R2's own cursor.
 */
import type { DescriptionFile } from '../../core/aids/api-docs.ts';
import type { Bindings } from '../env.ts';

export interface DescriptionRecord {
  id: string;
  apiId: string;
  name: string;
  /** Tools in the file, and how many documented an operation of the API. */
  tools: number;
  matched: number;
  unmatched: string[];
  createdAt: number;
}

export interface StoredDescription extends DescriptionRecord {
  descriptions: Record<string, string>;
}

const prefix = (apiId: string) => `apis/${apiId}/descriptions/`;
const key = (apiId: string, id: string) => `${prefix(apiId)}${id}.json`;

/** Largest epoch-ms a description id counts down from (year 2255), so later uploads sort first. */
const ID_CLOCK = 9e12;

function newId(now: number): string {
  return `${Math.max(0, ID_CLOCK - now)
    .toString(36)
    .padStart(9, '0')}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function insertDescription(
  env: Bindings,
  apiId: string,
  name: string,
  file: DescriptionFile,
): Promise<StoredDescription> {
  const createdAt = Date.now();
  const record: StoredDescription = {
    id: newId(createdAt),
    apiId,
    name,
    tools: file.tools,
    matched: Object.keys(file.descriptions).length,
    unmatched: file.unmatched.slice(0, 200),
    createdAt,
    descriptions: file.descriptions,
  };
  await env.BLOBS.put(key(apiId, record.id), JSON.stringify(record), {
    httpMetadata: { contentType: 'application/json' },
    customMetadata: {
      name,
      tools: String(record.tools),
      matched: String(record.matched),
      createdAt: String(createdAt),
    },
  });
  return record;
}

/** A stored description file of the API, or null. */
export async function findDescription(
  env: Bindings,
  apiId: string,
  id: string,
): Promise<StoredDescription | null> {
  if (!/^[a-z0-9-]{1,100}$/.test(id)) return null;
  const object = await env.BLOBS.get(key(apiId, id));
  return object ? ((await object.json()) as StoredDescription) : null;
}

/** A page of the API's description files, newest first (without their descriptions). */
export async function listDescriptions(
  env: Bindings,
  apiId: string,
  page: { limit: number; cursor?: string },
): Promise<{ items: Omit<DescriptionRecord, 'unmatched'>[]; nextCursor: string | null }> {
  const listed = await env.BLOBS.list({
    prefix: prefix(apiId),
    limit: page.limit,
    include: ['customMetadata'],
    ...(page.cursor ? { cursor: page.cursor } : {}),
  });
  return {
    items: listed.objects.map((o) => ({
      id: o.key.slice(prefix(apiId).length, -'.json'.length),
      apiId,
      name: o.customMetadata?.name ?? '',
      tools: Number(o.customMetadata?.tools ?? 0),
      matched: Number(o.customMetadata?.matched ?? 0),
      createdAt: Number(o.customMetadata?.createdAt ?? o.uploaded.getTime()),
    })),
    nextCursor: listed.truncated ? listed.cursor : null,
  };
}

/** Deletes one description file; false when there was none. */
export async function deleteDescription(env: Bindings, apiId: string, id: string): Promise<boolean> {
  if (!(await findDescription(env, apiId, id))) return false;
  await env.BLOBS.delete(key(apiId, id));
  return true;
}

/** Deletes every description file of an API (when the API is deleted). */
export async function deleteDescriptions(env: Bindings, apiId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await env.BLOBS.list({ prefix: prefix(apiId), ...(cursor ? { cursor } : {}) });
    if (listed.objects.length > 0) await env.BLOBS.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}
