/**
 * Imported APIs (issue 22) in D1 and R2 — the only module with their queries. The row holds what lists and
 * checks need; the operation catalog and the OpenAPI document are R2 blobs (`BLOBS`), since one document may be
 * 10 MB and a D1 row is limited to 2 MB. Blobs are written before the row and deleted after it, so a row always
 * has its blobs. Query sets keep one row per query (paged reads, batched inserts).
 *
 * Ownership as everywhere (`owners.ts`): a key sees and changes only its own APIs, their query sets and drifted
 * surfaces; admins see all.
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { QueryItem, QuerySet } from '../../core/apis/querysets.ts';
import type { ApiCatalog, ImportWarning, MockMode } from '../../core/apis/types.ts';
import type { ApiRef } from '../../core/sessions/api.ts';
import { database } from '../../db/client.ts';
import { apiQueries, apiQuerySets, apis, surfaces } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { deleteDescriptions } from './api-descriptions.ts';
import { newestFirstPage, type Page } from './keyset.ts';
import { type Owner, ownerIdOf, visibleTo } from './owners.ts';

/** What an import found, kept on the row (the catalog itself is a blob). */
export interface ApiSummary {
  operations: number;
  /** Operations that change state (POST, PUT, PATCH, DELETE). */
  writes: number;
  parameters: number;
  /** Operations with a JSON Schema for their success response. */
  withResponseSchema: number;
  paginated: number;
  warnings: ImportWarning[];
  /** All warnings, when more than the first 200 kept. */
  warningCount: number;
}

export interface ApiRecord {
  id: string;
  ownerId: string | null;
  title: string;
  version: string;
  format: 'openapi' | 'catalog';
  source: string;
  mode: MockMode;
  seed: string;
  worldSize: number;
  upstream: string | null;
  summary: ApiSummary;
  bytes: number;
  sha256: string;
  createdAt: number;
}

const MAX_KEPT_WARNINGS = 200;
/** Query rows per INSERT: 5 columns × 20 = D1's 100 bound parameters per statement. */
const QUERIES_PER_INSERT = 20;

const catalogKey = (id: string) => `apis/${id}/catalog.json`;
const documentKey = (id: string) => `apis/${id}/openapi.json`;

export function summarize(catalog: ApiCatalog): ApiSummary {
  const ops = catalog.operations;
  return {
    operations: ops.length,
    writes: ops.filter(
      (o) => o.method !== undefined && !['get', 'head', 'options', 'trace'].includes(o.method),
    ).length,
    parameters: ops.reduce((n, o) => n + o.params.length, 0),
    withResponseSchema: ops.filter((o) =>
      o.responses.some((r) => /^2/.test(r.status) && r.schema !== undefined),
    ).length,
    paginated: ops.filter((o) => o.pagination !== undefined).length,
    warnings: catalog.warnings.slice(0, MAX_KEPT_WARNINGS),
    warningCount: catalog.warnings.length,
  };
}

/** Stores an imported API: its blobs, then its row. */
export async function insertApi(
  env: Bindings,
  record: Omit<ApiRecord, 'summary' | 'ownerId'>,
  catalog: ApiCatalog,
  document: Record<string, unknown> | null,
  owner: Owner | undefined,
): Promise<ApiRecord> {
  const full: ApiRecord = { ...record, ownerId: ownerIdOf(owner), summary: summarize(catalog) };
  await env.BLOBS.put(catalogKey(record.id), JSON.stringify(catalog), {
    httpMetadata: { contentType: 'application/json' },
  });
  if (document) {
    await env.BLOBS.put(documentKey(record.id), JSON.stringify(document), {
      httpMetadata: { contentType: 'application/json' },
    });
  }
  try {
    await database(env.DB).insert(apis).values(full);
  } catch (err) {
    await env.BLOBS.delete([catalogKey(record.id), documentKey(record.id)]);
    throw err;
  }
  return full;
}

/** What a session or a query run needs of a stored API (core/sessions/api.ts `ApiRef`). */
export function apiRefOf(api: ApiRecord): ApiRef {
  return {
    id: api.id,
    title: api.title,
    mode: api.mode,
    seed: api.seed,
    worldSize: api.worldSize,
    upstream: api.upstream,
  };
}

/** The API, or null when it does not exist or another user key owns it. */
export async function findApi(
  env: Bindings,
  id: string,
  owner: Owner | undefined,
): Promise<ApiRecord | null> {
  const [row] = await database(env.DB)
    .select()
    .from(apis)
    .where(and(eq(apis.id, id), visibleTo(apis.ownerId, owner)))
    .limit(1);
  return (row as ApiRecord | undefined) ?? null;
}

export async function listApis(
  env: Bindings,
  query: { owner: Owner; limit: number; cursor?: string },
): Promise<Page<ApiRecord>> {
  return newestFirstPage(
    { time: apis.createdAt, id: apis.id },
    query,
    (after, order, limit) =>
      database(env.DB)
        .select()
        .from(apis)
        .where(and(visibleTo(apis.ownerId, query.owner), after))
        .orderBy(...order)
        .limit(limit) as Promise<ApiRecord[]>,
  );
}

/** The stored operation catalog (null if its blob is missing). */
export async function readCatalog(env: Bindings, id: string): Promise<ApiCatalog | null> {
  const object = await env.BLOBS.get(catalogKey(id));
  return object ? ((await object.json()) as ApiCatalog) : null;
}

/** The stored OpenAPI 3.1 document of an OpenAPI import (null for a function catalog). */
export async function readDocument(env: Bindings, id: string): Promise<Record<string, unknown> | null> {
  const object = await env.BLOBS.get(documentKey(id));
  return object ? ((await object.json()) as Record<string, unknown>) : null;
}

/** Deletes the API with its query sets and drifted surfaces, then its blobs and description files; false when there was none. */
export async function deleteApi(env: Bindings, id: string, owner: Owner | undefined): Promise<boolean> {
  const d = database(env.DB);
  const found = await findApi(env, id, owner);
  if (!found) return false;
  const sets = await d.select({ id: apiQuerySets.id }).from(apiQuerySets).where(eq(apiQuerySets.apiId, id));
  await d.batch([
    d.delete(apis).where(eq(apis.id, id)),
    d.delete(surfaces).where(eq(surfaces.apiId, id)),
    d.delete(apiQuerySets).where(eq(apiQuerySets.apiId, id)),
    ...(sets.length > 0
      ? [
          d.delete(apiQueries).where(
            inArray(
              apiQueries.querysetId,
              sets.map((s) => s.id),
            ),
          ),
        ]
      : []),
  ]);
  await env.BLOBS.delete([catalogKey(id), documentKey(id)]);
  await deleteDescriptions(env, id);
  return true;
}

// ---------------------------------------------------------------------------------------------------------------
// Query sets

export interface QuerySetRecord {
  id: string;
  apiId: string;
  ownerId: string | null;
  name: string;
  format: string;
  items: number;
  warnings: ImportWarning[];
  createdAt: number;
}

export async function insertQuerySet(
  env: Bindings,
  apiId: string,
  name: string,
  set: QuerySet,
  owner: Owner | undefined,
): Promise<QuerySetRecord> {
  const d = database(env.DB);
  const record: QuerySetRecord = {
    id: crypto.randomUUID(),
    apiId,
    ownerId: ownerIdOf(owner),
    name,
    format: set.format,
    items: set.items.length,
    warnings: set.warnings.slice(0, MAX_KEPT_WARNINGS),
    createdAt: Date.now(),
  };
  const rows = set.items.map((item) => ({
    querysetId: record.id,
    idx: item.index,
    query: item.query,
    gold: item.gold,
    meta: item.meta ?? null,
  }));
  const inserts = [];
  for (let at = 0; at < rows.length; at += QUERIES_PER_INSERT) {
    inserts.push(d.insert(apiQueries).values(rows.slice(at, at + QUERIES_PER_INSERT)));
  }
  // One batch: the set and all its queries are written atomically.
  await d.batch([d.insert(apiQuerySets).values(record), ...inserts]);
  return record;
}

export async function findQuerySet(
  env: Bindings,
  apiId: string,
  id: string,
  owner: Owner | undefined,
): Promise<QuerySetRecord | null> {
  const [row] = await database(env.DB)
    .select()
    .from(apiQuerySets)
    .where(
      and(eq(apiQuerySets.id, id), eq(apiQuerySets.apiId, apiId), visibleTo(apiQuerySets.ownerId, owner)),
    )
    .limit(1);
  return (row as QuerySetRecord | undefined) ?? null;
}

export async function listQuerySets(
  env: Bindings,
  apiId: string,
  query: { owner: Owner; limit: number; cursor?: string },
): Promise<Page<QuerySetRecord>> {
  return newestFirstPage(
    { time: apiQuerySets.createdAt, id: apiQuerySets.id },
    query,
    (after, order, limit) =>
      database(env.DB)
        .select()
        .from(apiQuerySets)
        .where(and(eq(apiQuerySets.apiId, apiId), visibleTo(apiQuerySets.ownerId, query.owner), after))
        .orderBy(...order)
        .limit(limit) as Promise<QuerySetRecord[]>,
  );
}

/** A page of a set's queries in index order, after index `after` (-1 for the first page). */
export async function queryItems(
  env: Bindings,
  querysetId: string,
  page: { after: number; limit: number },
): Promise<{ items: QueryItem[]; next: number | null }> {
  const rows = await database(env.DB)
    .select()
    .from(apiQueries)
    .where(and(eq(apiQueries.querysetId, querysetId), gt(apiQueries.idx, page.after)))
    .orderBy(asc(apiQueries.idx))
    .limit(page.limit + 1);
  const items = rows.slice(0, page.limit).map(toItem);
  return { items, next: rows.length > page.limit ? (items.at(-1)?.index ?? null) : null };
}

export async function queryItem(env: Bindings, querysetId: string, index: number): Promise<QueryItem | null> {
  const [row] = await database(env.DB)
    .select()
    .from(apiQueries)
    .where(and(eq(apiQueries.querysetId, querysetId), eq(apiQueries.idx, index)))
    .limit(1);
  return row ? toItem(row) : null;
}

function toItem(row: typeof apiQueries.$inferSelect): QueryItem {
  return {
    index: row.idx,
    query: row.query,
    gold: row.gold as QueryItem['gold'],
    ...(row.meta ? { meta: row.meta as Record<string, unknown> } : {}),
  };
}

export async function deleteQuerySet(
  env: Bindings,
  apiId: string,
  id: string,
  owner: Owner | undefined,
): Promise<boolean> {
  const found = await findQuerySet(env, apiId, id, owner);
  if (!found) return false;
  const d = database(env.DB);
  await d.batch([
    d.delete(apiQuerySets).where(eq(apiQuerySets.id, id)),
    d.delete(apiQueries).where(eq(apiQueries.querysetId, id)),
  ]);
  return true;
}

/** The query texts of every query set of an API the owner may see (its evaluation queries), in set and index order. */
export async function apiQueryTexts(
  env: Bindings,
  apiId: string,
  owner: Owner | undefined,
): Promise<string[]> {
  const rows = await database(env.DB)
    .select({ query: apiQueries.query })
    .from(apiQueries)
    .innerJoin(apiQuerySets, eq(apiQuerySets.id, apiQueries.querysetId))
    .where(and(eq(apiQuerySets.apiId, apiId), visibleTo(apiQuerySets.ownerId, owner)))
    .orderBy(asc(apiQuerySets.createdAt), asc(apiQueries.querysetId), asc(apiQueries.idx));
  return rows.map((r) => r.query);
}
