/**
 * Every D1 query of STE (issue 15): runs, their tools' progress rows, and what a finished tool reports —
 * exemplars, long-term-memory entries and trial transcripts, keyed by surface and surface version. Routes, the
 * job handler, the cron launch and the Durable Object call these functions; none of them touches drizzle.
 *
 * Idempotence: report rows have deterministic ids (`${runId}/${tool}/…`, `${runId}/${exemplar id}`) and are
 * inserted with ON CONFLICT DO NOTHING, so a repeated report (a retried alarm, a redelivered message) adds
 * nothing; a run launched with a `trigger` exists at most once.
 */
import { and, asc, eq, gt, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { SteExemplar, SteState } from '../../core/ste/engine.ts';
import { database } from '../../db/client.ts';
import { steExemplars, steMemory, steRuns, steSchedules, steTools, steTrials } from '../../db/schema.ts';
import { exportWindow, newestFirstPage, type Page, pageFrom } from './keyset.ts';
import { type Owner, ownerIdOf, visibleThrough, visibleTo } from './owners.ts';

export type SteRunRow = typeof steRuns.$inferSelect;
export type SteToolRow = typeof steTools.$inferSelect;
export type SteExemplarRow = typeof steExemplars.$inferSelect;
export type SteStatus = SteRunRow['status'];

const OPEN: SteStatus[] = ['queued', 'running'];

/** D1 allows 100 bound parameters per statement. */
function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(100 / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export interface NewSteRun {
  id: string;
  surfaceId: string;
  surfaceVersion: string;
  docsSurfaceId: string;
  sinceSurfaceId: string | null;
  config: unknown;
  tools: string[];
  trialsPerTool: number;
  trigger: string | null;
  /** The launching key; a cron launch passes its schedule's owner. */
  ownerId?: string | null;
}

/** Creates the run and its tool rows; with a trigger that already launched a run, returns that run instead. */
export async function createSteRun(
  d1: D1Database,
  run: NewSteRun,
): Promise<{ id: string; created: boolean }> {
  const db = database(d1);
  const now = Date.now();
  const inserted = await db
    .insert(steRuns)
    .values({
      id: run.id,
      status: 'queued',
      surfaceId: run.surfaceId,
      surfaceVersion: run.surfaceVersion,
      docsSurfaceId: run.docsSurfaceId,
      sinceSurfaceId: run.sinceSurfaceId,
      config: run.config,
      toolsTotal: run.tools.length,
      trigger: run.trigger,
      ownerId: run.ownerId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: steRuns.id });
  if (inserted.length === 0) {
    const existing = run.trigger
      ? await db.select({ id: steRuns.id }).from(steRuns).where(eq(steRuns.trigger, run.trigger)).limit(1)
      : [];
    return { id: existing[0]?.id ?? run.id, created: false };
  }
  const rows = run.tools.map((tool) => ({
    id: `${run.id}/${tool}`,
    runId: run.id,
    tool,
    status: 'queued' as const,
    trialsTotal: run.trialsPerTool,
    updatedAt: now,
  }));
  for (const part of chunks(rows, 14)) await db.insert(steTools).values(part).onConflictDoNothing();
  return { id: run.id, created: true };
}

/** The run, or null when it does not exist or another user key owns it (no owner: the system sees all). */
export async function findSteRun(d1: D1Database, id: string, owner?: Owner): Promise<SteRunRow | null> {
  const rows = await database(d1)
    .select()
    .from(steRuns)
    .where(and(eq(steRuns.id, id), visibleTo(steRuns.ownerId, owner)))
    .limit(1);
  return rows[0] ?? null;
}

export async function steRunByTrigger(d1: D1Database, trigger: string): Promise<SteRunRow | null> {
  const rows = await database(d1).select().from(steRuns).where(eq(steRuns.trigger, trigger)).limit(1);
  return rows[0] ?? null;
}

export async function steToolsOf(d1: D1Database, runId: string): Promise<SteToolRow[]> {
  return database(d1).select().from(steTools).where(eq(steTools.runId, runId)).orderBy(asc(steTools.id));
}

export async function findSteTool(d1: D1Database, runId: string, tool: string): Promise<SteToolRow | null> {
  const rows = await database(d1)
    .select()
    .from(steTools)
    .where(eq(steTools.id, `${runId}/${tool}`))
    .limit(1);
  return rows[0] ?? null;
}

/** Newest first, keyset pages by (createdAt, id). */
export async function listSteRuns(
  d1: D1Database,
  opts: { limit: number; cursor?: string; surface?: string; owner?: Owner },
): Promise<Page<SteRunRow>> {
  return newestFirstPage({ time: steRuns.createdAt, id: steRuns.id }, opts, (after, order, limit) =>
    database(d1)
      .select()
      .from(steRuns)
      .where(
        and(
          opts.surface ? eq(steRuns.surfaceId, opts.surface) : undefined,
          visibleTo(steRuns.ownerId, opts.owner),
          after,
        ),
      )
      .orderBy(...order)
      .limit(limit),
  );
}

/** The job started the tool's object: queued → running, for the tool and its run. */
export async function markSteToolStarted(d1: D1Database, runId: string, tool: string): Promise<void> {
  const db = database(d1);
  const now = Date.now();
  await db
    .update(steTools)
    .set({ status: 'running', updatedAt: now })
    .where(and(eq(steTools.id, `${runId}/${tool}`), eq(steTools.status, 'queued')));
  await db
    .update(steRuns)
    .set({ status: 'running', updatedAt: now })
    .where(and(eq(steRuns.id, runId), eq(steRuns.status, 'queued')));
}

function counters(state: SteState) {
  return {
    phase: state.phase,
    trialsDone: state.trials.length,
    solved: state.trials.filter((t) => t.solved).length,
    kept: state.verdicts.filter((v) => v.kind === 'kept').length,
    dropped: state.verdicts.filter((v) => v.kind !== 'kept').length,
    exemplars: state.exemplars.length,
    modelCalls: state.calls,
  };
}

/** Live counters of a running tool. */
export async function reportSteProgress(d1: D1Database, runId: string, state: SteState): Promise<void> {
  await database(d1)
    .update(steTools)
    .set({ ...counters(state), updatedAt: Date.now() })
    .where(and(eq(steTools.id, `${runId}/${state.options.tool}`), inArray(steTools.status, OPEN)));
}

export interface SteRunKey {
  runId: string;
  surfaceId: string;
  surfaceVersion: string;
}

/**
 * A finished tool: its exemplars, long-term memory and trials (idempotent inserts), its row, and the run's
 * status once no tool of it is open. `status` is the tool's final status.
 */
export async function reportSteOutcome(
  d1: D1Database,
  key: SteRunKey,
  state: SteState,
  status: 'succeeded' | 'failed' | 'cancelled',
  error: string | null,
): Promise<void> {
  const db = database(d1);
  const tool = state.options.tool;
  const now = Date.now();
  const base = { runId: key.runId, surfaceId: key.surfaceId, surfaceVersion: key.surfaceVersion, tool };
  if (status === 'succeeded') {
    const exemplarRows = state.exemplars.map((e) => ({
      ...base,
      id: `${key.runId}/${e.id}`,
      query: e.query,
      action: e.action,
      actionInput: e.actionInput,
      observation: e.observation,
      finalAnswer: e.finalAnswer,
      paraphraseOf: e.paraphraseOf === undefined ? null : `${key.runId}/${e.paraphraseOf}`,
      episode: e.episode,
      trial: e.trial,
      createdAt: now,
    }));
    for (const part of chunks(exemplarRows, 14))
      await db.insert(steExemplars).values(part).onConflictDoNothing();
  }
  const memoryRows = state.memory.map((m, position) => ({
    ...base,
    id: `${key.runId}/${tool}/${position}`,
    position,
    query: m.query,
    // Without self-reflection nothing judged the trial: stored as false (the column is NOT NULL); the memory
    // route answers null for such runs (their config says `selfReflection: false`).
    solved: m.solved === true,
  }));
  for (const part of chunks(memoryRows, 8)) await db.insert(steMemory).values(part).onConflictDoNothing();
  const trialRows = state.trials.map((t, i) => ({
    ...base,
    id: `${key.runId}/${tool}/${t.episode}.${t.trial}`,
    episode: t.episode,
    trial: t.trial,
    query: t.query,
    steps: t.steps,
    finalAnswer: t.finalAnswer,
    reflection: t.reflection,
    solved: t.solved === true,
    // Trials are judged in order, one verdict each.
    verdict: state.verdicts[i] ?? null,
  }));
  for (const part of chunks(trialRows, 13)) await db.insert(steTrials).values(part).onConflictDoNothing();
  await db
    .update(steTools)
    .set({ ...counters(state), status, error, updatedAt: now })
    .where(and(eq(steTools.id, `${key.runId}/${tool}`), inArray(steTools.status, OPEN)));
  await closeSteRunIfDone(d1, key.runId);
}

/**
 * The run's status once none of its tools is open: failed if any tool failed, else cancelled if any was cancelled
 * (a run that stopped by itself: its key's quota ran out), else succeeded.
 */
export async function closeSteRunIfDone(d1: D1Database, runId: string): Promise<void> {
  const db = database(d1);
  const groups = await db
    .select({ status: steTools.status, n: sql<number>`count(*)` })
    .from(steTools)
    .where(eq(steTools.runId, runId))
    .groupBy(steTools.status);
  if (groups.some((g) => OPEN.includes(g.status))) return;
  const ended = (status: SteStatus) => groups.some((g) => g.status === status);
  await db
    .update(steRuns)
    .set({
      status: ended('failed') ? 'failed' : ended('cancelled') ? 'cancelled' : 'succeeded',
      updatedAt: Date.now(),
    })
    .where(and(eq(steRuns.id, runId), inArray(steRuns.status, OPEN)));
}

/** Cancels a run: returns the tools that were running (their objects must be stopped). */
export async function cancelSteRun(d1: D1Database, runId: string): Promise<string[]> {
  const db = database(d1);
  const now = Date.now();
  await db
    .update(steRuns)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(steRuns.id, runId), inArray(steRuns.status, OPEN)));
  const open = await db
    .select({ tool: steTools.tool, status: steTools.status })
    .from(steTools)
    .where(and(eq(steTools.runId, runId), inArray(steTools.status, OPEN)));
  await db
    .update(steTools)
    .set({ status: 'cancelled', updatedAt: now })
    .where(and(eq(steTools.runId, runId), inArray(steTools.status, OPEN)));
  return open.filter((t) => t.status === 'running').map((t) => t.tool);
}

export interface SteExemplarFilter {
  surface?: string;
  surfaceVersion?: string;
  tool?: string;
  run?: string;
  /** Exemplars belong to their run's key. */
  owner?: Owner;
}

function exemplarWhere(f: SteExemplarFilter) {
  return and(
    visibleThrough(steExemplars.runId, { table: steRuns, id: steRuns.id, ownerId: steRuns.ownerId }, f.owner),
    f.surface ? eq(steExemplars.surfaceId, f.surface) : undefined,
    f.surfaceVersion ? eq(steExemplars.surfaceVersion, f.surfaceVersion) : undefined,
    f.tool ? eq(steExemplars.tool, f.tool) : undefined,
    f.run ? eq(steExemplars.runId, f.run) : undefined,
  );
}

/** Newest first, keyset pages by (createdAt, id). */
export async function listSteExemplars(
  d1: D1Database,
  f: SteExemplarFilter & { limit: number; cursor?: string },
): Promise<Page<SteExemplarRow>> {
  return newestFirstPage({ time: steExemplars.createdAt, id: steExemplars.id }, f, (after, order, limit) =>
    database(d1)
      .select()
      .from(steExemplars)
      .where(and(exemplarWhere(f), after))
      .orderBy(...order)
      .limit(limit),
  );
}

/** Export pages in id order after `after`. */
export async function steExemplarsAfter(
  d1: D1Database,
  f: SteExemplarFilter,
  after: string,
  limit: number,
  upTo?: string,
): Promise<SteExemplarRow[]> {
  return database(d1)
    .select()
    .from(steExemplars)
    .where(
      and(
        exemplarWhere(f),
        gt(steExemplars.id, after),
        upTo === undefined ? undefined : lte(steExemplars.id, upTo),
      ),
    )
    .orderBy(asc(steExemplars.id))
    .limit(limit);
}

/** The STE SFT export's size in exemplars and the window of its page after `after` (`exportWindow`). */
export function steExemplarWindow(d1: D1Database, f: SteExemplarFilter, after: string, limit: number) {
  return exportWindow(database(d1), steExemplars, steExemplars.id, exemplarWhere(f), after, limit);
}

/**
 * A page of a run's long-term memory by tool then position (optionally one tool's); the cursor is the last entry's
 * `{position}_{tool}` (the shared keyset format).
 */
export async function steMemoryOf(
  d1: D1Database,
  runId: string,
  page: { limit: number; cursor?: string; tool?: string },
): Promise<Page<{ tool: string; position: number; query: string; solved: boolean }>> {
  const m = page.cursor === undefined ? null : /^(\d+)_(.*)$/s.exec(page.cursor);
  const after = m
    ? or(
        gt(steMemory.tool, m[2] as string),
        and(eq(steMemory.tool, m[2] as string), gt(steMemory.position, Number(m[1]))),
      )
    : undefined;
  const rows = await database(d1)
    .select({
      tool: steMemory.tool,
      position: steMemory.position,
      query: steMemory.query,
      solved: steMemory.solved,
    })
    .from(steMemory)
    .where(and(eq(steMemory.runId, runId), page.tool ? eq(steMemory.tool, page.tool) : undefined, after))
    .orderBy(asc(steMemory.tool), asc(steMemory.position))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => `${r.position}_${r.tool}`);
  return { items, nextCursor: next };
}

export type SteScheduleRow = typeof steSchedules.$inferSelect;

export async function createSteSchedule(
  d1: D1Database,
  row: { id: string; schedule: unknown; run: unknown },
  owner?: Owner,
): Promise<SteScheduleRow> {
  const [created] = await database(d1)
    .insert(steSchedules)
    .values({ ...row, enabled: true, ownerId: ownerIdOf(owner), createdAt: Date.now() })
    .returning();
  return created as SteScheduleRow;
}

export async function findSteSchedule(
  d1: D1Database,
  id: string,
  owner?: Owner,
): Promise<SteScheduleRow | null> {
  const rows = await database(d1)
    .select()
    .from(steSchedules)
    .where(and(eq(steSchedules.id, id), visibleTo(steSchedules.ownerId, owner)))
    .limit(1);
  return rows[0] ?? null;
}

export async function enabledSteSchedules(d1: D1Database): Promise<SteScheduleRow[]> {
  return database(d1)
    .select()
    .from(steSchedules)
    .where(eq(steSchedules.enabled, true))
    .orderBy(asc(steSchedules.id));
}

export async function deleteSteSchedule(d1: D1Database, id: string): Promise<void> {
  await database(d1).delete(steSchedules).where(eq(steSchedules.id, id));
}

/** The runs a schedule's stage changes launched (their trigger starts with `ste-schedule:<id>:`). */
export async function steRunsOfSchedule(d1: D1Database, id: string): Promise<SteRunRow[]> {
  return (
    database(d1)
      .select()
      .from(steRuns)
      // A prefix range on the unique trigger index (`:` + 1 is `;`).
      .where(and(gte(steRuns.trigger, `ste-schedule:${id}:`), lt(steRuns.trigger, `ste-schedule:${id};`)))
      .orderBy(asc(steRuns.createdAt))
  );
}

/** Every exemplar of a run (an exemplar set of the demonstrations aid), oldest first, at most `limit`. */
export async function steExemplarsOfRun(
  d1: D1Database,
  runId: string,
  limit: number,
  owner?: Owner,
): Promise<SteExemplarRow[]> {
  return database(d1)
    .select()
    .from(steExemplars)
    .where(and(eq(steExemplars.runId, runId), exemplarWhere({ owner })))
    .orderBy(asc(steExemplars.id))
    .limit(limit);
}

/** A stored exemplar as the engine's exemplar (its id is the stored `${runId}/…` id). */
export function exemplarOfRow(r: SteExemplarRow): SteExemplar {
  const e: SteExemplar = {
    id: r.id,
    tool: r.tool,
    query: r.query,
    action: r.action,
    actionInput: r.actionInput,
    observation: r.observation,
    finalAnswer: r.finalAnswer,
    episode: r.episode,
    trial: r.trial,
  };
  if (r.paraphraseOf !== null) e.paraphraseOf = r.paraphraseOf;
  return e;
}

/**
 * Running tools whose row has not changed since `before` (no chunk reported: the object's alarm may be lost), each
 * claimed for one wake-up (see `claimStalledTrees` in explorations.ts).
 */
export async function claimStalledSteTools(
  d1: D1Database,
  before: number,
  limit: number,
): Promise<{ runId: string; tool: string }[]> {
  const db = database(d1);
  const stalled = await db
    .select({ id: steTools.id, runId: steTools.runId, tool: steTools.tool, updatedAt: steTools.updatedAt })
    .from(steTools)
    .where(and(eq(steTools.status, 'running'), lt(steTools.updatedAt, before)))
    .limit(limit);
  const claimed: { runId: string; tool: string }[] = [];
  for (const t of stalled) {
    const won = await db
      .update(steTools)
      .set({ updatedAt: Date.now() })
      .where(and(eq(steTools.id, t.id), eq(steTools.updatedAt, t.updatedAt), eq(steTools.status, 'running')))
      .returning({ id: steTools.id });
    if (won.length > 0) claimed.push({ runId: t.runId, tool: t.tool });
  }
  return claimed;
}
