/**
 * Toolsets in D1 (the only module with their drizzle queries). Uploaded and surface tools are written to
 * `toolset_tools` in batches of 20 rows per INSERT (5 columns × 20 = D1's 100 bound parameters per statement);
 * a synthetic toolset keeps only its catalog options and is regenerated on read.
 */
import { and, asc, eq } from 'drizzle-orm';
import { type CatalogOptions, syntheticCatalog } from '../../core/retrieval/catalog.ts';
import type { Tool } from '../../core/retrieval/types.ts';
import { database } from '../../db/client.ts';
import { toolsets, toolsetTools } from '../../db/schema.ts';
import { newestFirstPage, type Page } from './keyset.ts';
import { type Owner, ownerIdOf, visibleTo } from './owners.ts';

export type ToolsetSource = 'upload' | 'surface' | 'synthetic';

export interface ToolsetRecord {
  id: string;
  name: string;
  source: ToolsetSource;
  spec: unknown;
  toolCount: number;
  ownerId?: string | null;
  createdAt: number;
}

const ROWS_PER_INSERT = 20;

export async function createToolset(
  db: D1Database,
  input: { name: string; source: ToolsetSource; spec?: unknown; tools: readonly Tool[] | number },
  owner?: Owner,
): Promise<ToolsetRecord> {
  const d = database(db);
  const record: ToolsetRecord = {
    id: crypto.randomUUID(),
    name: input.name,
    source: input.source,
    spec: input.spec ?? null,
    toolCount: typeof input.tools === 'number' ? input.tools : input.tools.length,
    ownerId: ownerIdOf(owner),
    createdAt: Date.now(),
  };
  const header = d.insert(toolsets).values(record);
  if (typeof input.tools === 'number') {
    await header;
    return record;
  }
  const rows = input.tools.map((t, position) => ({
    toolsetId: record.id,
    position,
    name: t.name,
    description: t.description,
    parameters: t.parameters ?? null,
  }));
  const inserts = [];
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT)
    inserts.push(d.insert(toolsetTools).values(rows.slice(at, at + ROWS_PER_INSERT)));
  // One batch: the toolset and all its tools are written atomically.
  await d.batch([header, ...inserts]);
  return record;
}

/** A page of the toolsets the owner may see, newest first (keyset on creation time and id). */
export async function listToolsets(
  db: D1Database,
  page: { limit: number; cursor?: string },
  owner?: Owner,
): Promise<Page<ToolsetRecord>> {
  return newestFirstPage({ time: toolsets.createdAt, id: toolsets.id }, page, (after, order, limit) =>
    database(db)
      .select()
      .from(toolsets)
      .where(and(visibleTo(toolsets.ownerId, owner), after))
      .orderBy(...order)
      .limit(limit),
  );
}

/** The toolset, or null when it does not exist or another user key owns it. */
export async function findToolset(db: D1Database, id: string, owner?: Owner): Promise<ToolsetRecord | null> {
  const [row] = await database(db)
    .select()
    .from(toolsets)
    .where(and(eq(toolsets.id, id), visibleTo(toolsets.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

/** The toolset's tools in pool order (regenerated for a synthetic toolset). */
export async function loadToolsetTools(db: D1Database, record: ToolsetRecord): Promise<Tool[]> {
  if (record.source === 'synthetic')
    return syntheticCatalog(record.spec as CatalogOptions).tools.map(({ name, description, parameters }) => ({
      name,
      description,
      ...(parameters ? { parameters } : {}),
    }));
  const rows = await database(db)
    .select()
    .from(toolsetTools)
    .where(eq(toolsetTools.toolsetId, record.id))
    .orderBy(asc(toolsetTools.position));
  return rows.map((r) => ({
    name: r.name,
    description: r.description,
    ...(r.parameters ? { parameters: r.parameters } : {}),
  }));
}
