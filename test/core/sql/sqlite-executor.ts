/**
 * An in-process SQLite (node:sqlite, Node 22) standing in for D1 in tests: small fixture tables named like the
 * mirror, plus two tables outside the policy — `notes`, a writable decoy, and `secrets` — on a connection that
 * is deliberately NOT read-only, so that the guard is the only thing between a query and the data.
 */
import { DatabaseSync } from 'node:sqlite';
import { sqlColumnName } from '../../../core/sandbox/sql/mirror.ts';
import type { SqlExecutor } from '../../../core/sandbox/sql/run.ts';

/** Runs a query like D1's `all()`: rows as plain objects, INTEGER and REAL both as JS numbers. */
export function nodeSqliteExecutor(db: DatabaseSync): SqlExecutor {
  return {
    async all(sql: string, maxRows: number): Promise<Record<string, unknown>[]> {
      const rows: Record<string, unknown>[] = [];
      for (const row of db.prepare(sql).iterate()) {
        rows.push({ ...row });
        if (rows.length >= maxRows) break;
      }
      return rows;
    },
  };
}

export const SECRET_VALUE = 'TOP-SECRET-7f3a9c';

const airbnb = (c: string): string => `"${sqlColumnName('airbnb', c)}"`;

const SCHEMA = `
CREATE TABLE coffee_data (Date TEXT, Open REAL, High REAL, Low REAL, Close REAL, Volume INTEGER, Currency TEXT);
INSERT INTO coffee_data VALUES
  ('2000-01-03', 122.25, 124.0, 116.1, 116.5, 6640, 'USD'),
  ('2000-01-04', 116.25, 120.5, 115.75, 116.25, 5492, 'USD'),
  ('2000-01-14', 118.5, 119.0, 115.8, 118.2, 10115, 'USD'),
  ('2022-01-04', 236.0, 240.9, 232.35, 239.45, 18032, 'USD'),
  ('2022-01-05', 239.3, 243.3, 236.15, 238.15, 21210, 'USD');

CREATE TABLE flights_data (FlightDate TEXT, Airline TEXT, Origin TEXT, Dest TEXT, Cancelled TEXT, DepTime REAL,
  DepDelayMinutes REAL, Distance REAL, IATA_Code_Marketing_Airline TEXT, Flight_Number_Marketing_Airline INTEGER);
INSERT INTO flights_data VALUES
  ('2022-01-04', 'Delta Air Lines Inc.', 'ATL', 'MYR', 'False', 1204.0, 0.0, 317.0, 'DL', 2538),
  ('2022-01-04', 'American Airlines Inc.', 'PHX', 'FLG', 'False', 2031.0, 26.0, 119.0, 'AA', 3263),
  ('2022-01-05', 'Southwest Airlines Co.', 'TPA', 'ATL', 'True', NULL, NULL, 406.0, 'WN', 403),
  ('2022-01-05', 'Delta Air Lines Inc.', 'ATL', 'BOS', 'False', 640.5, 5.0, 946.0, 'DL', 1120);

CREATE TABLE airbnb_data (id INTEGER, NAME TEXT, ${airbnb('host id')} INTEGER, ${airbnb('neighbourhood group')} TEXT,
  ${airbnb('lat')} REAL, ${airbnb('long')} REAL, ${airbnb('room type')} TEXT, price TEXT,
  ${airbnb('calculated host listings count')} REAL, cancellation_policy TEXT, ${airbnb('review rate number')} REAL);
INSERT INTO airbnb_data VALUES
  (1001254, 'Clean & quiet apt home by the park', 80014485718, 'Brooklyn', 40.64749, -73.97237, 'Private room',
   '$966 ', 6.0, 'strict', 4.0),
  (1002102, 'Skylit Midtown Castle', 52335172823, 'Manhattan', 40.75362, -73.98377, 'Entire home/apt',
   '$1,083 ', 2.0, 'moderate', 4.0),
  (1003689, 'Cozy Harlem Jewel', 92037596077, 'Manhattan', 40.81231, -73.94367, 'Private room',
   '$142 ', 1.0, 'flexible', 5.0);

CREATE TABLE yelp_data (business_id TEXT, name TEXT, city TEXT, state TEXT, stars REAL, review_count INTEGER,
  is_open INTEGER, categories TEXT);
INSERT INTO yelp_data VALUES
  ('Pns2l4eNsfO8kk83dixA6A', 'Abby Rappoport, LAC, CMQ', 'Santa Barbara', 'CA', 5.0, 7, 0,
   'Doctors, Traditional Chinese Medicine'),
  ('mpf3x-BjTdTEA3yCZrAYPw', 'The UPS Store', 'Affton', 'MO', 3.0, 15, 1, 'Shipping Centers, Local Services'),
  ('MTSW4McQd7CbVtyjqoe9mw', 'St Honore Pastries', 'Philadelphia', 'PA', 4.0, 80, 1,
   'Restaurants, Food, Bubble Tea, Coffee & Tea, Bakeries'),
  ('k0hlBqXX-Bt0vf1op7Jr1w', 'Pizza Pals', 'Philadelphia', 'PA', 4.5, 12, 1, 'Pizza, Restaurants'),
  ('bBDDEgkFA1Otx9Lfe7BZUQ', 'Sonic Drive-In', 'Ashland City', 'TN', 1.5, 6, 1, NULL);

CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);
INSERT INTO notes VALUES (1, 'first note'), (2, 'second note'), (3, 'third note');
CREATE TABLE secrets (name TEXT, secret TEXT);
CREATE INDEX secret_idx ON secrets(name);
INSERT INTO secrets VALUES ('api_key', '${SECRET_VALUE}');
`;

export interface FixtureDatabase {
  db: DatabaseSync;
  executor: SqlExecutor;
  /** Everything a hostile query could change: schema, attached databases, every table's rows, change count. */
  snapshot(): string;
  close(): void;
}

export function openFixtureDatabase(): FixtureDatabase {
  const db = new DatabaseSync(':memory:');
  db.exec(SCHEMA);
  const snapshot = (): string => {
    const objects = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name').all();
    const tables = objects.filter((o) => o.type === 'table').map((o) => String(o.name));
    return JSON.stringify({
      objects,
      rows: tables.map((t) => db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).all()),
      databases: db.prepare('PRAGMA database_list').all(),
      userVersion: db.prepare('PRAGMA user_version').all(),
      changes: db.prepare('SELECT total_changes() AS n').all(),
    });
  };
  return { db, executor: nodeSqliteExecutor(db), snapshot, close: () => db.close() };
}
