/**
 * The D1 call journal's writer (edge/stores/journal.ts): rows appended as one JSON array in one statement read back
 * through drizzle exactly as written — in order, JSON columns with their values (a ReAct text input stays a string,
 * an object stays an object), a null call or fault as SQL NULL —, and the batch of a busy session (more rows than
 * D1's 100 bound parameters would allow as one insert) goes in one call.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  appendJournal,
  appendJournalJson,
  listJournal,
  type NewJournalRow,
} from '../../edge/stores/journal.ts';

const row = (sessionId: string, i: number, extra: Partial<NewJournalRow> = {}): NewJournalRow => ({
  sessionId,
  at: 1_700_000_000_000 + i,
  surfaceId: 'pc',
  via: 'action',
  action: 'LoadDB',
  input: { action: 'LoadDB', actionInput: { DBName: 'coffee', n: i } },
  call: { tool: 'LoadDB', args: { DBName: 'coffee' } },
  observation: `observation ${i} with "quotes", a \\ and ünïcode 🙂`,
  outcome: 'ok',
  httpStatus: 200,
  latencyMs: i,
  fault: null,
  ...extra,
});

describe('journal store', () => {
  it('appends rows in order and reads every column back as written', async () => {
    const id = crypto.randomUUID();
    const rows = [
      row(id, 0, { via: 'react', input: 'Thought: x\nAction: LoadDB\nAction Input: {"DBName": "coffee"}' }),
      row(id, 1, { call: null, action: null, observation: null, outcome: 'fault', httpStatus: 503 }),
      row(id, 2, {
        fault: { faults: ['server-error'], delayMs: 0, response: { status: 503, body: 'x', headers: {} } },
      }),
      row(id, 3, { input: 42, via: 'rest', httpStatus: 404, outcome: 'rejected' }),
    ];
    await appendJournal(env, rows);
    const page = await listJournal(env, { session: id }, { limit: 10 });
    const got = page.items.reverse().map(({ id: _id, ...rest }) => rest);
    expect(got).toEqual(rows);
    // A null call or fault is SQL NULL (as drizzle writes it), not the JSON text "null".
    const raw = await env.DB.prepare(
      'SELECT call IS NULL AS c, fault IS NULL AS f FROM journal WHERE session_id = ? ORDER BY id',
    )
      .bind(id)
      .all<{ c: number; f: number }>();
    expect(raw.results).toEqual([
      { c: 0, f: 1 },
      { c: 1, f: 1 },
      { c: 0, f: 0 },
      { c: 0, f: 1 },
    ]);
  });

  it('takes a busy session’s batch (rows joined from their JSON) in one statement', async () => {
    const id = crypto.randomUUID();
    const rows = Array.from({ length: 60 }, (_, i) => row(id, i));
    await appendJournalJson(env, `[${rows.map((r) => JSON.stringify(r)).join(',')}]`);
    const page = await listJournal(env, { session: id }, { limit: 100 });
    expect(page.items.map((r) => r.latencyMs)).toEqual(rows.map((_, i) => 59 - i));
  });

  it('appends nothing for no rows', async () => {
    await expect(appendJournal(env, [])).resolves.toBeUndefined();
  });
});
