import { describe, expect, it } from 'vitest';
import { guardSql, type SqlPolicy } from '../../../core/sandbox/sql/guard.ts';
import { WORLD_SQL_ROW_VISITS, worldSqlPolicy } from '../../../core/sandbox/sql/mirror.ts';
import { runSqlTool, SQL_ERROR_OBSERVATION, type SqlExecutor } from '../../../core/sandbox/sql/run.ts';
import { loadWorld } from '../../../core/world/world.ts';

// Issue 13 item 1: every query's work is bounded before it reaches the database.
const world = loadWorld({ seed: 'tooldrift', scale: 1 });
const policy = worldSqlPolicy(world);
const refused = (sql: string, p: SqlPolicy = policy) => {
  const r = guardSql(sql, p);
  return r.ok ? undefined : r.reason;
};

describe('SQL row-visit bound (issue 13 item 1)', () => {
  it('takes the row counts from the world and a budget of at least three scans of the largest table', () => {
    const flights = policy.tables.find((t) => t.table === 'flights_data');
    expect(flights?.rows).toBe(world.tables.flights.rowCount);
    expect(policy.maxRowVisits).toBe(Math.max(WORLD_SQL_ROW_VISITS, 3 * world.tables.flights.rowCount));
  });

  it('refuses the cross joins that froze the server, before the executor is called', async () => {
    let calls = 0;
    const spy: SqlExecutor = {
      async all() {
        calls++;
        return [];
      },
    };
    for (const sql of [
      'SELECT count(*) FROM flights_data a, flights_data b',
      'SELECT count(*) FROM flights_data a, flights_data b, flights_data c',
      'SELECT count(*) FROM yelp_data a JOIN yelp_data b ON a.stars = b.stars',
      'SELECT count(*) FROM coffee.coffee_data a CROSS JOIN airbnb.airbnb_data b',
      'WITH c AS (SELECT * FROM flights_data) SELECT count(*) FROM c a, c b',
      'SELECT count(*) FROM (SELECT * FROM yelp_data) a, (SELECT * FROM yelp_data) b',
    ]) {
      expect(refused(sql), sql).toMatch(/row combinations/);
      expect(await runSqlTool(sql, spy, policy)).toBe(SQL_ERROR_OBSERVATION);
    }
    expect(calls).toBe(0);
  });

  it('multiplies a correlated subquery by the rows of its outer query', () => {
    // qualified reference to the outer alias
    expect(
      refused(
        'SELECT count(*) FROM flights_data a WHERE EXISTS (SELECT 1 FROM flights_data b WHERE b.DepDelay > a.DepDelay)',
      ),
    ).toMatch(/row combinations/);
    // an unqualified column of another table resolves outward
    expect(
      refused(
        'SELECT count(*) FROM yelp_data WHERE stars > (SELECT count(*) FROM coffee_data WHERE Open > review_count)',
      ),
    ).toMatch(/row combinations/);
  });

  it('adds an uncorrelated subquery, which SQLite runs once', () => {
    for (const sql of [
      'SELECT * FROM flights_data WHERE DepDelay = (SELECT max(DepDelay) FROM flights_data)',
      'SELECT Origin FROM flights_data WHERE Dest IN (SELECT Origin FROM flights_data WHERE Cancelled = 1)',
      "SELECT * FROM flights.flights_data f WHERE f.DepDelay > (SELECT avg(g.DepDelay) FROM flights_data g WHERE g.Origin = 'ATL')",
      'SELECT Origin FROM flights_data UNION SELECT Dest FROM flights_data',
      'WITH d AS (SELECT Origin FROM flights_data) SELECT count(*) FROM d',
      'SELECT count(*) FROM coffee_data',
    ]) {
      expect(refused(sql), sql).toBeUndefined();
    }
  });

  it('allows a join when the product of the row counts is within the budget', () => {
    const small: SqlPolicy = {
      ...policy,
      tables: [
        { table: 'coffee_data', rows: 1000 },
        { table: 'yelp_data', rows: 1000 },
      ],
      maxRowVisits: 2_000_000,
    };
    expect(refused('SELECT count(*) FROM coffee_data a, yelp_data b', small)).toBeUndefined();
    expect(refused('SELECT count(*) FROM coffee_data a, yelp_data b, coffee_data c', small)).toMatch(
      /at most 2,000,000/,
    );
  });

  it('is off for a policy without a budget', () => {
    const { maxRowVisits: _, ...unbounded } = policy;
    expect(refused('SELECT count(*) FROM flights_data a, flights_data b', unbounded)).toBeUndefined();
  });
});
