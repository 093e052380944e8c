/** The D1 call journal: one row per session call (written by the session's Durable Object), read by admins. */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { database } from '../../db/client.ts';
import { journal, sessions } from '../../db/schema.ts';
import type { Bindings } from '../env.ts';
import { nextCursor, olderThanSql, type Page, pageFrom } from './keyset.ts';
import type { Owner } from './owners.ts';

export type JournalRow = typeof journal.$inferSelect;
export type NewJournalRow = typeof journal.$inferInsert;

export interface JournalFilter {
  session?: string;
  surface?: string;
  via?: JournalRow['via'];
  outcome?: JournalRow['outcome'];
}

function where(f: JournalFilter) {
  return and(
    f.session ? eq(journal.sessionId, f.session) : undefined,
    f.surface ? eq(journal.surfaceId, f.surface) : undefined,
    f.via ? eq(journal.via, f.via) : undefined,
    f.outcome ? eq(journal.outcome, f.outcome) : undefined,
  );
}

/**
 * Appends rows in the given order: one statement with one parameter, the rows' JSON array, whatever their number.
 * `rowsJson` is the JSON text of the array (the session's outbox keeps each row's JSON, so a flush joins them
 * without parsing or building a statement per row). Written as SQL over `json_each` rather than a drizzle insert:
 * D1 binds at most 100 parameters per statement (7 journal rows), and a batch of one insert per row cost the
 * session's Durable Object about 3 ms of CPU per step in `bench:world` (issue 24 item 5). JSON columns take the
 * value's JSON text (`->`), a JSON null or a missing key is SQL NULL as drizzle writes it.
 */
export async function appendJournalJson(env: Bindings, rowsJson: string): Promise<void> {
  await env.DB.prepare(APPEND_SQL).bind(rowsJson).run();
}

const APPEND_SQL = `INSERT INTO journal (session_id, at, surface_id, via, action, input, call, observation, outcome, http_status, latency_ms, fault)
SELECT value ->> '$.sessionId', value ->> '$.at', value ->> '$.surfaceId', value ->> '$.via', value ->> '$.action',
  value -> '$.input', nullif(value -> '$.call', 'null'), value ->> '$.observation', value ->> '$.outcome',
  value ->> '$.httpStatus', value ->> '$.latencyMs', nullif(value -> '$.fault', 'null')
FROM json_each(?) ORDER BY key`;

/** Appends rows in the given order, in one D1 round trip. */
export async function appendJournal(env: Bindings, rows: readonly NewJournalRow[]): Promise<void> {
  if (rows.length > 0) await appendJournalJson(env, JSON.stringify(rows));
}

/**
 * A page of the entries matching the filter, newest first. The entries' order is their id's (the order they were
 * written in), so the keyset cursor `{time}_{id}` carries the id in both places.
 */
export async function listJournal(
  env: Bindings,
  filter: JournalFilter,
  page: { limit: number; cursor?: string },
): Promise<Page<JournalRow>> {
  const last = page.cursor === undefined ? undefined : Number(/^(\d+)_/.exec(page.cursor)?.[1]);
  const rows = await database(env.DB)
    .select()
    .from(journal)
    .where(and(where(filter), last === undefined ? undefined : lt(journal.id, last)))
    .orderBy(desc(journal.id))
    .limit(page.limit + 1);
  const { items, next } = pageFrom(rows, page.limit, (r) => `${r.id}_${r.id}`);
  return { items, nextCursor: next };
}

/** Deletes the entries matching the filter (all without one); how many there were. */
export async function deleteJournal(env: Bindings, filter: JournalFilter): Promise<number> {
  const db = database(env.DB);
  const [counted] = await db.select({ n: sql<number>`count(*)` }).from(journal).where(where(filter));
  await db.delete(journal).where(where(filter));
  return counted?.n ?? 0;
}

export interface JournalSession {
  id: string;
  calls: number;
  firstAt: number;
  lastAt: number;
  /** Over all the session's calls (whatever the filter): surfaces in first-use order and calls per outcome. */
  details: { surfaces: string[]; outcomes: Record<string, number>; calls: number };
}

/**
 * Sessions from the journal (a session's object cannot be enumerated; its calls can), by last call newest first,
 * keyset-paginated on (last call time, session id).
 */
export async function listJournalSessions(
  env: Bindings,
  q: { surface?: string; limit: number; cursor?: string; owner?: Owner },
): Promise<Page<JournalSession>> {
  const db = database(env.DB);
  const lastAt = sql<number>`max(${journal.at})`;
  const groups = await db
    .select({
      id: journal.sessionId,
      calls: sql<number>`count(*)`,
      firstAt: sql<number>`min(${journal.at})`,
      lastAt,
    })
    .from(journal)
    .where(
      and(
        q.surface ? eq(journal.surfaceId, q.surface) : undefined,
        // A user key lists only sessions it started (a session without a `sessions` row has no owner to match).
        q.owner && !q.owner.admin
          ? sql`${journal.sessionId} in (select ${sessions.id} from ${sessions} where ${sessions.ownerId} = ${q.owner.id})`
          : undefined,
      ),
    )
    .groupBy(journal.sessionId)
    .having(olderThanSql(lastAt, journal.sessionId, q.cursor))
    .orderBy(desc(lastAt), desc(journal.sessionId))
    .limit(q.limit + 1);
  const page = groups.slice(0, q.limit);
  // Per-outcome and per-surface counts of the page's sessions (all their calls, whatever the filter).
  const details = new Map<string, { surfaces: string[]; outcomes: Record<string, number>; calls: number }>();
  for (let i = 0; i < page.length; i += 50) {
    const ids = page.slice(i, i + 50).map((g) => g.id);
    const rows = await db
      .select({
        id: journal.sessionId,
        surface: journal.surfaceId,
        outcome: journal.outcome,
        n: sql<number>`count(*)`,
        first: sql<number>`min(${journal.id})`,
      })
      .from(journal)
      .where(inArray(journal.sessionId, ids))
      .groupBy(journal.sessionId, journal.surfaceId, journal.outcome)
      .orderBy(sql`min(${journal.id})`);
    for (const r of rows) {
      const d = details.get(r.id) ?? { surfaces: [], outcomes: {}, calls: 0 };
      if (!d.surfaces.includes(r.surface)) d.surfaces.push(r.surface);
      d.outcomes[r.outcome] = (d.outcomes[r.outcome] ?? 0) + r.n;
      d.calls += r.n;
      details.set(r.id, d);
    }
  }
  return {
    items: page.map((g) => ({
      ...g,
      details: details.get(g.id) ?? { surfaces: [], outcomes: {}, calls: g.calls },
    })),
    nextCursor: nextCursor(groups, q.limit, (g) => [g.lastAt, g.id]),
  };
}
