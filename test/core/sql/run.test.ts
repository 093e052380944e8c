import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORLD_SQL_POLICY } from '../../../core/sandbox/sql/mirror.ts';
import {
  DEFAULT_SQL_RUN_LIMITS,
  pyStrSqlValue,
  renderRow,
  runSqlTool,
  SQL_ERROR_OBSERVATION,
  type SqlExecutor,
} from '../../../core/sandbox/sql/run.ts';
import { type FixtureDatabase, openFixtureDatabase } from './sqlite-executor.ts';

const EXPLAIN = { ...DEFAULT_SQL_RUN_LIMITS, explainErrors: true };

/** Legitimate agent queries over the fixture tables and their exact observations. */
const LEGIT: [sql: string, observation: string][] = [
  // the ToolQA few-shot query, MySQL-qualified as in the original
  ["SELECT Volume FROM coffee.coffee_data WHERE Date = '2000-01-14'", 'Volume: 10115'],
  ["SELECT Volume FROM coffee_data WHERE Date = '2000-01-14'", 'Volume: 10115'],
  [
    "SELECT coffee.coffee_data.Volume FROM coffee.coffee_data WHERE coffee.coffee_data.Date = '2000-01-14'",
    'Volume: 10115',
  ],
  [
    'SELECT Date, Open FROM coffee_data ORDER BY Date LIMIT 2',
    'Date: 2000-01-03, Open: 122.25\nDate: 2000-01-04, Open: 116.25',
  ],
  ['SELECT count(*) FROM coffee_data', 'count(*): 5'],
  ['SELECT avg(Volume) AS v FROM coffee_data', 'v: 12297.8'],
  ['SELECT max(High), min(Low) FROM coffee_data', 'max(High): 243.3, min(Low): 115.75'],
  [
    'SELECT Origin, count(*) AS n FROM flights_data GROUP BY Origin ORDER BY n DESC, Origin',
    'Origin: ATL, n: 2\nOrigin: PHX, n: 1\nOrigin: TPA, n: 1',
  ],
  [
    "SELECT name FROM yelp_data WHERE categories LIKE '%restaurants%' ORDER BY name",
    'name: Pizza Pals\nname: St Honore Pastries',
  ],
  ['SELECT Date FROM coffee_data WHERE Close = (SELECT max(Close) FROM coffee_data)', 'Date: 2022-01-04'],
  [
    'WITH d AS (SELECT Date, High - Low AS spread FROM coffee_data) SELECT Date, round(spread, 2) AS spread FROM d ORDER BY spread DESC LIMIT 1',
    'Date: 2022-01-04, spread: 8.55',
  ],
  [
    "SELECT f.FlightDate, f.Origin, c.Close FROM flights_data f JOIN coffee_data c ON c.Date = f.FlightDate WHERE f.Dest = 'BOS'",
    'FlightDate: 2022-01-05, Origin: ATL, Close: 238.15',
  ],
  [
    'SELECT NAME, price, calculated_host_listings_count FROM airbnb.airbnb_data WHERE latitude > 40.8',
    'NAME: Cozy Harlem Jewel, price: $142 , calculated_host_listings_count: 1',
  ],
  [
    'SELECT latitude, longitude FROM airbnb_data WHERE id = 1001254',
    'latitude: 40.64749, longitude: -73.97237',
  ],
  [
    "SELECT Flight_Number_Marketing_Airline, DepTime FROM flights_data WHERE Cancelled = 'True'",
    'Flight_Number_Marketing_Airline: 403, DepTime: None',
  ],
  ["SELECT DepTime FROM flights_data WHERE Dest = 'BOS'", 'DepTime: 640.5'],
  ["SELECT * FROM coffee_data WHERE Date = '1999-01-01'", ''],
  [
    "SELECT round(avg(CAST(replace(replace(price, '$', ''), ',', '') AS REAL)), 2) AS avg_price FROM airbnb_data",
    'avg_price: 730.33',
  ],
  [
    'SELECT Date, rank() OVER (ORDER BY Volume DESC) AS r FROM coffee_data ORDER BY r LIMIT 2',
    'Date: 2022-01-05, r: 1\nDate: 2022-01-04, r: 2',
  ],
  ['/* count */ SELECT count(*) AS n FROM yelp.yelp_data; -- done', 'n: 5'],
  [
    'SELECT Origin AS code FROM flights_data UNION SELECT Dest FROM flights_data ORDER BY code',
    'code: ATL\ncode: BOS\ncode: FLG\ncode: MYR\ncode: PHX\ncode: TPA',
  ],
  [
    "SELECT strftime('%Y', Date) AS y, count(*) AS n FROM coffee_data GROUP BY y ORDER BY y",
    'y: 2000, n: 3\ny: 2022, n: 2',
  ],
  ["SELECT printf('%.2f', Close) AS c FROM coffee_data WHERE Date = '2000-01-14'", 'c: 118.20'],
  [
    'SELECT "Date", [Volume], `Currency` FROM "coffee_data" WHERE Date = \'2000-01-03\'',
    'Date: 2000-01-03, Volume: 6640, Currency: USD',
  ],
  ['SELECT 1;--', '1: 1'],
  ["SELECT group_concat(Origin, '|') AS o FROM flights_data", 'o: ATL|PHX|TPA|ATL'],
  [
    "SELECT a.Date, b.Date FROM coffee_data a JOIN coffee_data b ON a.Date = b.Date WHERE a.Date = '2000-01-14'",
    'Date: 2000-01-14, Date:1: 2000-01-14',
  ],
  [
    'SELECT name, stars FROM yelp_data WHERE stars >= 4.5 ORDER BY stars',
    'name: Pizza Pals, stars: 4.5\nname: Abby Rappoport, LAC, CMQ, stars: 5',
  ],
  [
    'SELECT name, categories FROM yelp_data WHERE categories IS NULL',
    'name: Sonic Drive-In, categories: None',
  ],
  ['SELECT count(*) AS n FROM yelp_data WHERE categories IS NOT DISTINCT FROM NULL', 'n: 1'],
  ['SELECT count(*) AS n FROM (SELECT DISTINCT Airline FROM flights_data)', 'n: 3'],
  [
    "SELECT Date FROM coffee_data WHERE Date BETWEEN '2000-01-04' AND '2022-01-04' ORDER BY Date DESC",
    'Date: 2022-01-04\nDate: 2000-01-14\nDate: 2000-01-04',
  ],
  [
    "SELECT Origin, CASE WHEN Distance > 500 THEN 'long' ELSE 'short' END AS hop FROM flights_data ORDER BY Distance",
    'Origin: PHX, hop: short\nOrigin: ATL, hop: short\nOrigin: TPA, hop: short\nOrigin: ATL, hop: long',
  ],
  [
    "SELECT iif(is_open = 1, 'open', 'closed') AS s, count(*) AS n FROM yelp_data GROUP BY s ORDER BY s",
    's: closed, n: 1\ns: open, n: 4',
  ],
  ["SELECT x'41ff27' AS b", `b: b"A\\xff'"`],
];

describe('runSqlTool over the fixture mirror', () => {
  let fixture: FixtureDatabase;
  let before: string;
  beforeAll(() => {
    fixture = openFixtureDatabase();
    before = fixture.snapshot();
  });
  afterAll(() => fixture.close());

  it('has at least 15 legitimate queries', () => {
    expect(LEGIT.length).toBeGreaterThanOrEqual(15);
  });

  it.each(LEGIT)('%s', async (sql, observation) => {
    expect(await runSqlTool(sql, fixture.executor)).toBe(observation);
    expect(fixture.snapshot()).toBe(before);
  });

  it('sends the guarded query wrapped in a row-capping SELECT', async () => {
    const seen: [string, number][] = [];
    const recorder: SqlExecutor = {
      all: (sql, maxRows) => {
        seen.push([sql, maxRows]);
        return fixture.executor.all(sql, maxRows);
      },
    };
    await runSqlTool(
      "SELECT Volume FROM coffee.coffee_data -- few-shot\nWHERE Date = '2000-01-14';",
      recorder,
    );
    // the comment (with the line break it ends at) became one space; the qualifier and the `;` are gone
    expect(seen).toEqual([
      ["SELECT * FROM (\nSELECT Volume FROM coffee_data WHERE Date = '2000-01-14'\n) LIMIT 1025", 1025],
    ]);
  });

  it('caps the rows and says so', async () => {
    const limits = { ...DEFAULT_SQL_RUN_LIMITS, maxRows: 2 };
    expect(
      await runSqlTool(
        'SELECT Date FROM coffee_data ORDER BY Date',
        fixture.executor,
        WORLD_SQL_POLICY,
        limits,
      ),
    ).toBe(
      'Date: 2000-01-03\nDate: 2000-01-04\n[truncated: the result has more than 2 rows; only the first 2 are shown]',
    );
    // the outer cap wins over a larger inner LIMIT; exactly maxRows rows are not reported as truncated
    expect(
      await runSqlTool(
        'SELECT Date FROM coffee_data ORDER BY Date DESC LIMIT 100',
        fixture.executor,
        WORLD_SQL_POLICY,
        limits,
      ),
    ).toBe(
      'Date: 2022-01-05\nDate: 2022-01-04\n[truncated: the result has more than 2 rows; only the first 2 are shown]',
    );
    expect(
      await runSqlTool(
        'SELECT Date FROM coffee_data ORDER BY Date LIMIT 2',
        fixture.executor,
        WORLD_SQL_POLICY,
        limits,
      ),
    ).toBe('Date: 2000-01-03\nDate: 2000-01-04');
  });

  it('reports engine errors with the spec string, and the engine message only when asked', async () => {
    const sql = 'SELECT nosuchcolumn FROM coffee_data';
    expect(await runSqlTool(sql, fixture.executor)).toBe(SQL_ERROR_OBSERVATION);
    expect(await runSqlTool(sql, fixture.executor, WORLD_SQL_POLICY, EXPLAIN)).toBe(
      `${SQL_ERROR_OBSERVATION} (no such column: nosuchcolumn)`,
    );
    // syntax the guard lets through but SQLite rejects
    expect(await runSqlTool('SELECT FROM coffee_data', fixture.executor)).toBe(SQL_ERROR_OBSERVATION);
  });

  it('explains guard refusals only when asked', async () => {
    expect(await runSqlTool('SELECT * FROM secrets', fixture.executor, WORLD_SQL_POLICY, EXPLAIN)).toBe(
      `${SQL_ERROR_OBSERVATION} (secrets is not one of the world's tables (flights_data, coffee_data, airbnb_data, yelp_data))`,
    );
  });
});

describe('runSqlTool never throws', () => {
  const rows = (r: unknown): SqlExecutor => ({ all: async () => r as Record<string, unknown>[] });

  it('times out a query that does not finish', async () => {
    const hang: SqlExecutor = { all: () => new Promise(() => {}) };
    const limits = { maxRows: 10, timeoutMs: 20, explainErrors: true };
    expect(await runSqlTool('SELECT 1', hang, WORLD_SQL_POLICY, limits)).toBe(
      `${SQL_ERROR_OBSERVATION} (the query did not finish within 20 ms)`,
    );
  });

  it('survives executors that throw, reject or return garbage', async () => {
    const throwing: SqlExecutor = {
      all: () => {
        throw new Error('D1_ERROR: boom');
      },
    };
    const rejecting: SqlExecutor = { all: () => Promise.reject('not an Error') };
    expect(await runSqlTool('SELECT 1', throwing, WORLD_SQL_POLICY, EXPLAIN)).toBe(
      `${SQL_ERROR_OBSERVATION} (D1_ERROR: boom)`,
    );
    expect(await runSqlTool('SELECT 1', rejecting, WORLD_SQL_POLICY, EXPLAIN)).toBe(
      `${SQL_ERROR_OBSERVATION} (not an Error)`,
    );
    for (const bad of [null, 'rows', [1, 2], [null]]) {
      expect(await runSqlTool('SELECT 1', rows(bad))).toBe(SQL_ERROR_OBSERVATION);
    }
  });

  it('answers a non-string query with the error observation', async () => {
    for (const sql of [42, null, undefined, { sql: 'SELECT 1' }, ['SELECT 1']]) {
      expect(await runSqlTool(sql, rows([{ x: 1 }]))).toBe(SQL_ERROR_OBSERVATION);
    }
  });
});

describe('rendering (spec §3.9, Python str rules)', () => {
  it('renders values as Python str() would', () => {
    expect(pyStrSqlValue(null)).toBe('None');
    expect(pyStrSqlValue(undefined)).toBe('None');
    expect(pyStrSqlValue('$1,083 ')).toBe('$1,083 ');
    expect(pyStrSqlValue(10115)).toBe('10115');
    expect(pyStrSqlValue(-27)).toBe('-27');
    expect(pyStrSqlValue(0.08)).toBe('0.08');
    expect(pyStrSqlValue(1e-5)).toBe('1e-05');
    expect(pyStrSqlValue(1e16)).toBe('1e+16');
    expect(pyStrSqlValue(12345678901234567890n)).toBe('12345678901234567890');
    expect(pyStrSqlValue(true)).toBe('True');
    expect(pyStrSqlValue(Number.POSITIVE_INFINITY)).toBe('inf');
  });

  it('renders blobs as Python bytes, whatever container the driver uses', () => {
    expect(pyStrSqlValue(new Uint8Array([0x41, 0x00, 0x0a, 0x5c]))).toBe("b'A\\x00\\n\\\\'");
    expect(pyStrSqlValue(new Uint8Array([0x27, 0x22]))).toBe("b'\\'\"'");
    expect(pyStrSqlValue([0x68, 0x69, 0x27])).toBe(`b"hi'"`);
    expect(pyStrSqlValue(new Uint8Array([0xff]).buffer)).toBe("b'\\xff'");
  });

  it('joins columns with ", " and keeps the row object order', () => {
    expect(renderRow({ Date: '2000-01-14', Open: 118.5, Volume: 10115, Note: null })).toBe(
      'Date: 2000-01-14, Open: 118.5, Volume: 10115, Note: None',
    );
  });
});
