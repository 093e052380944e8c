/**
 * Every D1 query of DRAFT (issue 16): runs, their per-tool rows, documentation sets and their revisions. Routes,
 * jobs and the tool Durable Object call these functions and never build queries themselves.
 */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { DocFlag, DocSet, DocVersion, StopReason, ToolDoc } from '../../core/draft/docset.ts';
import { database } from '../../db/client.ts';
import { docsetRevisions, docsets, draftRuns, draftRunTools, draftWatches } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { newestFirstPage, type Page } from './keyset.ts';
import { type Owner, ownerIdOf, visibleTo } from './owners.ts';

export type DraftRunStatus = (typeof draftRuns.$inferSelect)['status'];
export type DraftToolStatus = (typeof draftRunTools.$inferSelect)['status'];
export type DraftRunRow = typeof draftRuns.$inferSelect;
export type DraftToolRow = typeof draftRunTools.$inferSelect;

/** A finished tool as its Durable Object reports it. */
export interface DraftToolResult {
  doc: ToolDoc;
  versions: DocVersion[];
  stop: StopReason;
  /** `rewrite-failed` / `no-success` as the loop ended (absent in results stored before flags existed). */
  flags?: DocFlag[];
  modelCalls: number;
  toolCalls: number;
  model: string | null;
}

export interface DeltaPoint {
  iteration: number;
  bleu: number | null;
  cos: number | null;
  delta: number | null;
}

export interface NewDraftRun {
  id: string;
  docsSurface: string;
  serverSurface: string;
  parentDocset: string | null;
  config: unknown;
  trigger?: string;
  tools: string[];
  /** The launching key; a watch's run inherits the watch's owner. */
  ownerId?: string | null;
}

/**
 * Records a run and its tool rows. With a `trigger` the insert is idempotent on it: a second run for the same
 * trigger is not created, and the existing run's id comes back with `created: false`.
 */
export async function createDraftRun(
  env: Pick<Bindings, 'DB'>,
  run: NewDraftRun,
): Promise<{ id: string; created: boolean }> {
  const db = database(env.DB);
  const now = Date.now();
  const inserted = await db
    .insert(draftRuns)
    .values({
      id: run.id,
      status: 'queued',
      docsSurface: run.docsSurface,
      serverSurface: run.serverSurface,
      parentDocset: run.parentDocset,
      config: run.config,
      trigger: run.trigger ?? null,
      ownerId: run.ownerId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: draftRuns.id });
  if (inserted.length === 0) {
    const [existing] = run.trigger
      ? await db
          .select({ id: draftRuns.id })
          .from(draftRuns)
          .where(eq(draftRuns.trigger, run.trigger))
          .limit(1)
      : [];
    return { id: existing?.id ?? run.id, created: false };
  }
  // 12 bound parameters per row (defaults included): 8 rows stay under D1's 100 per statement.
  const rows = run.tools.map((toolKey) => ({
    runId: run.id,
    toolKey,
    status: 'queued' as const,
    deltas: [],
    updatedAt: now,
  }));
  for (let i = 0; i < rows.length; i += 8) await db.insert(draftRunTools).values(rows.slice(i, i + 8));
  return { id: run.id, created: true };
}

export async function getDraftRun(
  env: Pick<Bindings, 'DB'>,
  id: string,
  owner?: Owner,
): Promise<{ run: DraftRunRow; tools: DraftToolRow[] } | null> {
  const db = database(env.DB);
  const [run] = await db
    .select()
    .from(draftRuns)
    .where(and(eq(draftRuns.id, id), visibleTo(draftRuns.ownerId, owner)))
    .limit(1);
  if (!run) return null;
  const tools = await db.select().from(draftRunTools).where(eq(draftRunTools.runId, id)).orderBy(sql`rowid`);
  return { run, tools };
}

/** Runs newest first; `before` is the createdAt of the last run of the previous page. */
/** The key a run works for (null: none, or no such run). */
export async function draftRunOwner(env: Pick<Bindings, 'DB'>, id: string): Promise<string | null> {
  const [row] = await database(env.DB)
    .select({ ownerId: draftRuns.ownerId })
    .from(draftRuns)
    .where(eq(draftRuns.id, id))
    .limit(1);
  return row?.ownerId ?? null;
}

/** A page of the DRAFT runs the owner may see, newest first (keyset on creation time and id). */
export async function listDraftRuns(
  env: Pick<Bindings, 'DB'>,
  page: { limit: number; cursor?: string },
  owner?: Owner,
): Promise<Page<DraftRunRow>> {
  return newestFirstPage({ time: draftRuns.createdAt, id: draftRuns.id }, page, (after, order, limit) =>
    database(env.DB)
      .select()
      .from(draftRuns)
      .where(and(visibleTo(draftRuns.ownerId, owner), after))
      .orderBy(...order)
      .limit(limit),
  );
}

/** Moves a run to `status` when it is in one of `from` (all statuses when omitted). */
export async function setDraftRunStatus(
  env: Pick<Bindings, 'DB'>,
  id: string,
  status: DraftRunStatus,
  from?: DraftRunStatus[],
  extra: { docsetId?: string; error?: string } = {},
): Promise<boolean> {
  const updated = await database(env.DB)
    .update(draftRuns)
    .set({ status, updatedAt: Date.now(), ...extra })
    .where(and(eq(draftRuns.id, id), from ? inArray(draftRuns.status, from) : undefined))
    .returning({ id: draftRuns.id });
  return updated.length > 0;
}

/**
 * Cancels a run and its unfinished tools (`error`: why, when nobody asked, e.g. `quota-exhausted`); false when the
 * run had already ended.
 */
export async function cancelDraftRun(
  env: Pick<Bindings, 'DB'>,
  id: string,
  error?: string,
): Promise<boolean> {
  const cancelled = await setDraftRunStatus(
    env,
    id,
    'cancelled',
    ['queued', 'running'],
    error !== undefined ? { error } : {},
  );
  if (cancelled) {
    await database(env.DB)
      .update(draftRunTools)
      .set({ status: 'cancelled', updatedAt: Date.now() })
      .where(and(eq(draftRunTools.runId, id), inArray(draftRunTools.status, ['queued', 'running'])));
  }
  return cancelled;
}

/** Live progress of a running tool (ignored once the tool row has ended, e.g. cancelled). */
export async function reportDraftToolProgress(
  env: Pick<Bindings, 'DB'>,
  runId: string,
  toolKey: string,
  p: { phase: string; iteration: number; modelCalls: number; toolCalls: number; deltas: DeltaPoint[] },
): Promise<void> {
  const db = database(env.DB);
  await db
    .update(draftRunTools)
    .set({ status: 'running', ...p, updatedAt: Date.now() })
    .where(
      and(
        eq(draftRunTools.runId, runId),
        eq(draftRunTools.toolKey, toolKey),
        inArray(draftRunTools.status, ['queued', 'running']),
      ),
    );
  await setDraftRunStatus(env, runId, 'running', ['queued']);
}

/** A tool's end (succeeded with its result, or failed); returns how many tools of the run are still open. */
export async function finishDraftTool(
  env: Pick<Bindings, 'DB'>,
  runId: string,
  toolKey: string,
  end:
    | { status: 'succeeded'; result: DraftToolResult; deltas: DeltaPoint[] }
    | { status: 'failed'; error: string },
): Promise<number> {
  const db = database(env.DB);
  const set =
    end.status === 'succeeded'
      ? {
          status: end.status,
          result: end.result,
          deltas: end.deltas,
          stop: end.result.stop,
          modelCalls: end.result.modelCalls,
          toolCalls: end.result.toolCalls,
          phase: 'done',
          error: null,
        }
      : { status: end.status, error: end.error };
  await db
    .update(draftRunTools)
    .set({ ...set, updatedAt: Date.now() })
    .where(
      and(
        eq(draftRunTools.runId, runId),
        eq(draftRunTools.toolKey, toolKey),
        inArray(draftRunTools.status, ['queued', 'running']),
      ),
    );
  const [open] = await db
    .select({ n: sql<number>`count(*)` })
    .from(draftRunTools)
    .where(and(eq(draftRunTools.runId, runId), inArray(draftRunTools.status, ['queued', 'running'])));
  return open?.n ?? 0;
}

/** The set, or null when it does not exist or another user key owns it (no owner: the system sees all). */
export async function getDocset(
  env: Pick<Bindings, 'DB'>,
  id: string,
  owner?: Owner,
): Promise<DocSet | null> {
  const [row] = await database(env.DB)
    .select({ body: docsets.body })
    .from(docsets)
    .where(and(eq(docsets.id, id), visibleTo(docsets.ownerId, owner)))
    .limit(1);
  return (row?.body as DocSet | undefined) ?? null;
}

/** The newest documentation set explored on `serverSurface` (any when null), or null. */
export async function latestDocset(
  env: Pick<Bindings, 'DB'>,
  serverSurface: string | null,
): Promise<{ id: string; set: DocSet } | null> {
  const [row] = await database(env.DB)
    .select({ id: docsets.id, body: docsets.body })
    .from(docsets)
    .where(serverSurface ? eq(docsets.serverSurface, serverSurface) : undefined)
    .orderBy(desc(docsets.createdAt), desc(docsets.id))
    .limit(1);
  return row ? { id: row.id, set: row.body as DocSet } : null;
}

/** Stores a documentation set and every revision of every tool; idempotent on the set's id. */
export async function saveDocset(
  env: Pick<Bindings, 'DB'>,
  id: string,
  runId: string,
  set: DocSet,
  ownerId: string | null = null,
): Promise<void> {
  const db = database(env.DB);
  await db
    .insert(docsets)
    .values({
      id,
      runId,
      parentId: set.parent,
      docsSurface: set.source.docs,
      serverSurface: set.source.server,
      model: set.model,
      simulated: set.simulated,
      body: set,
      ownerId,
      createdAt: Date.now(),
    })
    .onConflictDoNothing();
  const rows = set.tools.flatMap((t) =>
    t.versions.map((v, version) => ({
      docsetId: id,
      toolKey: t.key,
      version,
      iteration: v.iteration,
      doc: v.doc,
      bleu: v.bleu,
      cos: v.cos,
      delta: v.delta,
    })),
  );
  // 8 bound parameters per row: 12 rows per statement.
  for (let i = 0; i < rows.length; i += 12) {
    await db
      .insert(docsetRevisions)
      .values(rows.slice(i, i + 12))
      .onConflictDoNothing();
  }
}

/** The revisions of one set (in tool and version order). */
export async function docsetRevisionRows(env: Pick<Bindings, 'DB'>, id: string) {
  return database(env.DB)
    .select()
    .from(docsetRevisions)
    .where(eq(docsetRevisions.docsetId, id))
    .orderBy(docsetRevisions.toolKey, docsetRevisions.version);
}

export type DraftWatchRow = typeof draftWatches.$inferSelect;

export async function createDraftWatch(
  env: Pick<Bindings, 'DB'>,
  w: { id: string; docsSurface: string; target: unknown; config: unknown },
  owner?: Owner,
): Promise<DraftWatchRow> {
  const now = Date.now();
  const [row] = await database(env.DB)
    .insert(draftWatches)
    .values({ ...w, enabled: true, ownerId: ownerIdOf(owner), createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function getDraftWatch(
  env: Pick<Bindings, 'DB'>,
  id: string,
  owner?: Owner,
): Promise<DraftWatchRow | null> {
  const [row] = await database(env.DB)
    .select()
    .from(draftWatches)
    .where(and(eq(draftWatches.id, id), visibleTo(draftWatches.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

/** Every enabled watch (the cron tick's). */
export async function enabledDraftWatches(env: Pick<Bindings, 'DB'>): Promise<DraftWatchRow[]> {
  return database(env.DB)
    .select()
    .from(draftWatches)
    .where(eq(draftWatches.enabled, true))
    .orderBy(desc(draftWatches.createdAt));
}

/** A page of the watches the owner may see, newest first (keyset on creation time and id). */
export async function listDraftWatches(
  env: Pick<Bindings, 'DB'>,
  page: { limit: number; cursor?: string },
  owner?: Owner,
): Promise<Page<DraftWatchRow>> {
  return newestFirstPage({ time: draftWatches.createdAt, id: draftWatches.id }, page, (after, order, limit) =>
    database(env.DB)
      .select()
      .from(draftWatches)
      .where(and(visibleTo(draftWatches.ownerId, owner), after))
      .orderBy(...order)
      .limit(limit),
  );
}

export async function deleteDraftWatch(
  env: Pick<Bindings, 'DB'>,
  id: string,
  owner?: Owner,
): Promise<boolean> {
  const deleted = await database(env.DB)
    .delete(draftWatches)
    .where(and(eq(draftWatches.id, id), visibleTo(draftWatches.ownerId, owner)))
    .returning({ id: draftWatches.id });
  return deleted.length > 0;
}

/** After a launch for a change: the fingerprint it was launched for, and the run. */
export async function markDraftWatchLaunched(
  env: Pick<Bindings, 'DB'>,
  id: string,
  fingerprint: unknown,
  runId: string | null,
): Promise<void> {
  await database(env.DB)
    .update(draftWatches)
    .set({ fingerprint, ...(runId ? { lastRun: runId } : {}), updatedAt: Date.now() })
    .where(eq(draftWatches.id, id));
}

/** A watch's run produced a documentation set: later changes start from it. */
export async function setDraftWatchDocset(
  env: Pick<Bindings, 'DB'>,
  id: string,
  docsetId: string,
): Promise<void> {
  await database(env.DB)
    .update(draftWatches)
    .set({ lastDocset: docsetId, updatedAt: Date.now() })
    .where(eq(draftWatches.id, id));
}

/**
 * Running tools whose row has not changed since `before` (no chunk reported: the object's alarm may be lost), each
 * claimed for one wake-up (see `claimStalledTrees` in explorations.ts).
 */
export async function claimStalledDraftTools(
  env: Pick<Bindings, 'DB'>,
  before: number,
  limit: number,
): Promise<{ runId: string; toolKey: string }[]> {
  const d = database(env.DB);
  const stalled = await d
    .select({
      runId: draftRunTools.runId,
      toolKey: draftRunTools.toolKey,
      updatedAt: draftRunTools.updatedAt,
    })
    .from(draftRunTools)
    .where(and(eq(draftRunTools.status, 'running'), lt(draftRunTools.updatedAt, before)))
    .limit(limit);
  const claimed: { runId: string; toolKey: string }[] = [];
  for (const t of stalled) {
    const won = await d
      .update(draftRunTools)
      .set({ updatedAt: Date.now() })
      .where(
        and(
          eq(draftRunTools.runId, t.runId),
          eq(draftRunTools.toolKey, t.toolKey),
          eq(draftRunTools.updatedAt, t.updatedAt),
          eq(draftRunTools.status, 'running'),
        ),
      )
      .returning({ runId: draftRunTools.runId });
    if (won.length > 0) claimed.push({ runId: t.runId, toolKey: t.toolKey });
  }
  return claimed;
}

/**
 * Unfinished runs (queued, running, finalizing) unchanged since `before` whose tools have all ended: their
 * finalisation is due (the last tool's report may have been cut off before it enqueued it).
 */
export async function draftRunsAwaitingFinalize(
  env: Pick<Bindings, 'DB'>,
  before: number,
  limit: number,
): Promise<string[]> {
  const rows = await database(env.DB)
    .select({ id: draftRuns.id })
    .from(draftRuns)
    .where(
      and(
        inArray(draftRuns.status, ['queued', 'running', 'finalizing']),
        lt(draftRuns.updatedAt, before),
        sql`not exists (select 1 from ${draftRunTools} where ${draftRunTools.runId} = ${draftRuns.id} and ${draftRunTools.status} in ('queued', 'running'))`,
      ),
    )
    .limit(limit);
  return rows.map((r) => r.id);
}
