/**
 * Generated queries: random SELECTs (seeded) that put allowed and forbidden tables and functions in every
 * position the grammar offers — FROM items, joins, FROM subqueries, scalar and EXISTS subqueries, CTEs — with
 * comments and string literals that mention forbidden names. The generator knows what it put in, so the
 * expected verdict is exact; whatever the guard accepts is run on the fixture database and must neither show
 * the secret nor change anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardSql } from '../../../core/sandbox/sql/guard.ts';
import { WORLD_SQL_POLICY } from '../../../core/sandbox/sql/mirror.ts';
import { runSqlTool, SQL_ERROR_OBSERVATION } from '../../../core/sandbox/sql/run.ts';
import { Rng } from '../../../core/util/random.ts';
import { type FixtureDatabase, openFixtureDatabase, SECRET_VALUE } from './sqlite-executor.ts';

const ALLOWED_TABLES = [
  'coffee_data',
  'coffee.coffee_data',
  '"yelp_data"',
  '[flights_data]',
  'AIRBNB.airbnb_data',
];
const FORBIDDEN_TABLES = [
  'secrets',
  '"secrets"',
  '[notes]',
  '`notes`',
  'main.secrets',
  'sqlite_master',
  'pragma_table_list',
];
const ALLOWED_FUNCTIONS = ['abs', 'length', 'upper', 'typeof', '"lower"'];
const FORBIDDEN_FUNCTIONS = ['hex', 'randomblob', '"zeroblob"', 'unicode', 'quote'];
const NOISE = [' ', ' /* secrets; DROP TABLE notes */ ', ' -- FROM secrets\n', '\n\t'];

class Generator {
  forbidden = false;
  fromItems = 0;
  constructor(private readonly rng: Rng) {}

  private gap(): string {
    return this.rng.chance(0.2) ? this.rng.pick(NOISE) : ' ';
  }

  private table(ctes: readonly string[]): string {
    if (this.rng.chance(0.12)) {
      this.forbidden = true;
      return this.rng.pick(FORBIDDEN_TABLES);
    }
    return ctes.length > 0 && this.rng.chance(0.3) ? this.rng.pick(ctes) : this.rng.pick(ALLOWED_TABLES);
  }

  private fn(): string {
    if (this.rng.chance(0.08)) {
      this.forbidden = true;
      return this.rng.pick(FORBIDDEN_FUNCTIONS);
    }
    return this.rng.pick(ALLOWED_FUNCTIONS);
  }

  expr(depth: number, ctes: readonly string[]): string {
    const r = this.rng.next();
    if (depth >= 3 || r < 0.3)
      return this.rng.pick(['1', "'secrets'", "'x; DELETE FROM notes'", 'NULL', '2.5']);
    if (r < 0.6) return `${this.fn()}(${this.expr(depth + 1, ctes)})`;
    if (r < 0.8) return `(${this.select(depth + 1, ctes)})`;
    return `EXISTS${this.gap()}(${this.select(depth + 1, ctes)})`;
  }

  private fromItem(depth: number, ctes: readonly string[], n: number): string {
    this.fromItems++;
    if (depth < 2 && this.rng.chance(0.25)) return `(${this.select(depth + 1, ctes)}) AS s${depth}_${n}`;
    return `${this.table(ctes)} t${depth}_${n}`;
  }

  select(depth: number, ctes: readonly string[]): string {
    const items = this.rng.int(1, 2);
    let from = this.fromItem(depth, ctes, 0);
    for (let k = 1; k < items; k++) {
      const join = this.rng.pick([',', ' JOIN', ' CROSS JOIN', ' LEFT JOIN']);
      from += `${join}${this.gap()}${this.fromItem(depth, ctes, k)}${join === ' LEFT JOIN' ? ' ON 1' : ''}`;
    }
    const where = this.rng.chance(0.3) ? ` WHERE ${this.expr(depth + 1, ctes)} IS NOT NULL` : '';
    return `SELECT${this.gap()}${this.expr(depth + 1, ctes)} AS v FROM${this.gap()}${from}${where} LIMIT 3`;
  }

  statement(): string {
    if (this.rng.chance(0.3)) {
      const body = this.select(1, []);
      return `WITH c1 AS (${body})${this.gap()}${this.select(0, ['c1'])}`;
    }
    return this.select(0, []);
  }
}

describe('generated queries', () => {
  let fixture: FixtureDatabase;
  let before: string;
  beforeAll(() => {
    fixture = openFixtureDatabase();
    before = fixture.snapshot();
  });
  afterAll(() => fixture.close());

  it('are refused exactly when they name something outside the policy or exceed the FROM bound', async () => {
    const rng = new Rng('sql-guard-generated');
    const verdicts = { accepted: 0, ran: 0, refused: 0 };
    for (let n = 0; n < 1500; n++) {
      const gen = new Generator(rng);
      const sql = gen.statement();
      const expectRefusal = gen.forbidden || gen.fromItems > WORLD_SQL_POLICY.maxFromItems;
      const guarded = guardSql(sql, WORLD_SQL_POLICY);
      if (guarded.ok === expectRefusal) {
        throw new Error(`${guarded.ok ? 'accepted' : `refused (${guarded.reason})`}: ${sql}`);
      }
      if (!guarded.ok) {
        verdicts.refused++;
        continue;
      }
      verdicts.accepted++;
      const observation = await runSqlTool(sql, fixture.executor);
      if (observation !== SQL_ERROR_OBSERVATION) verdicts.ran++;
      expect(observation).not.toContain(SECRET_VALUE);
    }
    expect(fixture.snapshot()).toBe(before);
    // the corpus exercises both verdicts, and accepted queries are real SQL that runs
    expect(verdicts.refused).toBeGreaterThan(300);
    expect(verdicts.accepted).toBeGreaterThan(300);
    expect(verdicts.ran).toBe(verdicts.accepted);
  });
});
