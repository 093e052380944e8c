import { afterAll, describe, expect, it } from 'vitest';
import { guardSql, type SqlPolicy } from '../../../core/sandbox/sql/guard.ts';
import { WORLD_SQL_POLICY } from '../../../core/sandbox/sql/mirror.ts';
import { runSqlTool, SQL_ERROR_OBSERVATION } from '../../../core/sandbox/sql/run.ts';
import { openFixtureDatabase } from './sqlite-executor.ts';

const guard = (sql: string, policy: SqlPolicy = WORLD_SQL_POLICY) => guardSql(sql, policy);
const accepted = (sql: string, policy?: SqlPolicy): string => {
  const r = guard(sql, policy);
  if (!r.ok) throw new Error(`refused ${JSON.stringify(sql)}: ${r.reason}`);
  return r.sql;
};
const refusal = (sql: string, policy?: SqlPolicy): string => {
  const r = guard(sql, policy);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(sql)}`);
  return r.reason;
};

describe('guardSql output', () => {
  it('rewrites MySQL-qualified world tables to the bare name, at the token level', () => {
    expect(accepted("SELECT Volume FROM coffee.coffee_data WHERE Date = '2000-01-14'")).toBe(
      "SELECT Volume FROM coffee_data WHERE Date = '2000-01-14'",
    );
    expect(accepted('SELECT coffee.coffee_data.Volume FROM coffee . coffee_data')).toBe(
      'SELECT coffee_data.Volume FROM coffee_data',
    );
    expect(accepted('SELECT * FROM "flights".[flights_data] f JOIN (Yelp.YELP_DATA)')).toBe(
      'SELECT * FROM [flights_data] f JOIN (YELP_DATA)',
    );
    // inside a string the same text is data, not a name
    expect(accepted("SELECT 'coffee.coffee_data' FROM coffee_data")).toBe(
      "SELECT 'coffee.coffee_data' FROM coffee_data",
    );
  });

  it('keeps spacing, turns comments into one space, drops the trailing ; and what surrounds the query', () => {
    expect(accepted('  /* lead */ SELECT\n  count(*)/*c*/FROM\tcoffee_data ; -- tail\n')).toBe(
      'SELECT\n  count(*) FROM\tcoffee_data',
    );
    expect(accepted('SELECT 1 -- only a comment after')).toBe('SELECT 1');
  });
});

describe('guardSql accepts the SELECT shapes agents write', () => {
  const fixture = openFixtureDatabase();
  afterAll(() => fixture.close());

  it.each([
    'SELECT DISTINCT(Origin) FROM flights_data',
    "SELECT CAST(replace(price, '$', '') AS DECIMAL(10, 2)) FROM airbnb_data",
    'SELECT * FROM coffee_data WHERE Date IS DISTINCT FROM (SELECT max(Date) FROM coffee_data)',
    'SELECT Date, sum(Volume) OVER w FROM coffee_data WINDOW w AS (ORDER BY Date ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)',
    'SELECT count(*) FILTER (WHERE Volume > 0) FROM coffee_data',
    'SELECT * FROM (coffee_data a JOIN (SELECT * FROM coffee_data) b ON a.Date = b.Date) LEFT JOIN yelp_data y ON y.name = a.Currency',
    'SELECT Date, a.Volume FROM coffee_data a JOIN coffee_data b USING (Date)',
    'SELECT * FROM flights_data a LEFT OUTER JOIN flights_data b ON a.Dest = b.Origin NATURAL JOIN flights_data c',
    'SELECT * FROM flights_data a CROSS JOIN flights_data b, coffee_data c',
    'WITH v(n) AS (VALUES (1), (2)) SELECT n FROM v',
    'WITH a AS NOT MATERIALIZED (SELECT * FROM coffee_data), b AS (SELECT * FROM a) SELECT * FROM b',
    "SELECT like('%a%', name), glob('A*', name), \"abs\"(-1), REPLACE(name, 'a', '') FROM yelp_data",
    'SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2) ORDER BY x',
    'SELECT Date FROM coffee_data WHERE Volume IN (SELECT Volume FROM coffee_data WHERE Volume > 0) AND NOT EXISTS (SELECT 1 FROM coffee_data WHERE 0)',
    "SELECT CASE WHEN stars >= 4 THEN 'good' ELSE 'bad' END AS q FROM yelp_data",
    "SELECT printf('%5.2f%%', stars), format('%-10s|', name) FROM yelp_data",
    'SELECT Date FROM coffee_data LIMIT 2 OFFSET 1',
    'SELECT Date FROM coffee_data ORDER BY Volume DESC NULLS LAST LIMIT 1',
    "SELECT x'00ff', 0x1F, 1_000, .5e3, 'it''s' FROM coffee_data",
    "SELECT strftime('%Y', date(Date, '+1 day')), julianday(Date), datetime(Date), time('12:00') FROM coffee_data",
  ])('%s', async (sql) => {
    expect(accepted(sql)).toBe(sql);
    // and they are real SQLite: the fixture database runs them
    expect(await runSqlTool(sql, fixture.executor)).not.toBe(SQL_ERROR_OBSERVATION);
  });

  it('names the world tables in the default policy', () => {
    expect(WORLD_SQL_POLICY.tables).toEqual([
      { table: 'flights_data', schema: 'flights' },
      { table: 'coffee_data', schema: 'coffee' },
      { table: 'airbnb_data', schema: 'airbnb' },
      { table: 'yelp_data', schema: 'yelp' },
    ]);
  });
});

describe('guardSql bounds are exact', () => {
  it('allows exactly maxFromItems FROM items', () => {
    expect(guard('SELECT 1 FROM coffee_data, coffee_data, (SELECT 1), coffee_data').ok).toBe(true);
    expect(refusal('SELECT 1 FROM coffee_data, coffee_data, (SELECT 1), coffee_data, coffee_data')).toBe(
      'at most 4 tables or subqueries may appear in FROM clauses',
    );
  });

  it('allows exactly maxNesting levels of parentheses', () => {
    expect(guard(`SELECT ${'('.repeat(12)}1${')'.repeat(12)}`).ok).toBe(true);
    expect(refusal(`SELECT ${'('.repeat(13)}1${')'.repeat(13)}`)).toBe(
      'parentheses and subqueries may nest at most 12 deep',
    );
  });

  it('allows exactly maxQueryChars characters', () => {
    const pad = (n: number): string => `SELECT 1${' '.repeat(n - 8)}`;
    expect(guard(pad(4096)).ok).toBe(true);
    expect(refusal(pad(4097))).toBe('the query is longer than 4096 characters');
  });

  it('takes its tables and bounds from the policy', () => {
    const policy: SqlPolicy = {
      tables: [{ table: 'notes' }],
      maxQueryChars: 100,
      maxFromItems: 1,
      maxNesting: 2,
    };
    expect(accepted('SELECT * FROM notes', policy)).toBe('SELECT * FROM notes');
    expect(refusal('SELECT * FROM coffee_data', policy)).toBe(
      "coffee_data is not one of the world's tables (notes)",
    );
    expect(refusal('SELECT * FROM main.notes', policy)).toBe(
      "main.notes is not one of the world's tables (notes)",
    );
    expect(refusal('SELECT * FROM notes, notes', policy)).toBe(
      'at most 1 tables or subqueries may appear in FROM clauses',
    );
  });

  it('allows the replace() and printf() forms that cannot amplify', () => {
    expect(guard("SELECT replace(Date, '-', '/') FROM coffee_data").ok).toBe(true);
    expect(guard("SELECT printf('%100d', 1)").ok).toBe(true);
    expect(refusal("SELECT printf('%101d', 1)")).toBe('printf() widths and precisions may be at most 100');
    expect(refusal("SELECT replace(Date, '-', '--') FROM coffee_data")).toMatch(/no longer than the pattern/);
    // REPLACE before ( is the function; anywhere else it is the statement
    expect(refusal('SELECT 1 FROM coffee_data WHERE REPLACE = 1')).toBe(
      'REPLACE is not allowed: the SQL tool only reads',
    );
  });
});
