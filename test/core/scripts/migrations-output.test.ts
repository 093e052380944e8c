import { describe, expect, it } from 'vitest';
import { summariseMigrations } from '../../../scripts/lib/migrations-output.ts';

// Issue 13 item 10: `npm start` prints one line for the migrations instead of wrangler's repeated tables.
const TABLE = (status: string) => `
┌──────────────────────────┬────────┐
│ name                     │ status │
├──────────────────────────┼────────┤
│ 0000_initial.sql         │ ${status} │
├──────────────────────────┼────────┤
│ 0001_sessions.sql        │ ${status} │
├──────────────────────────┼────────┤
│ 0002_explorations.sql    │ ${status} │
└──────────────────────────┴────────┘`;

describe('summariseMigrations', () => {
  it('names the first and last of the migrations applied, once, however often wrangler printed the table', () => {
    const output = `Migrations to be applied:${TABLE('🕒')}${TABLE('✅')}${TABLE('✅')}${TABLE('✅')}`;
    expect(summariseMigrations(output)).toBe(
      'D1 migrations: applied 3 (0000_initial.sql … 0002_explorations.sql).',
    );
    expect(summariseMigrations('│ 0004_x.sql │ ✅ │')).toBe('D1 migrations: applied 0004_x.sql.');
  });

  it('says up to date when nothing was pending', () => {
    expect(summariseMigrations('✅ No migrations to apply!')).toBe('D1 migrations: up to date.');
  });
});
