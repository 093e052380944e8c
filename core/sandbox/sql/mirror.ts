/**
 * Names of the SQL mirror of the world's tables (spec §2.10), shared by whoever creates the mirror tables and
 * by the SQL guard's policy.
 *
 * ToolQA's MySQL mirror had one database per dataset holding one table (`coffee.coffee_data`); the SQLite
 * mirror (D1 in production) has the four tables side by side: `flights_data`, `coffee_data`, `airbnb_data`,
 * `yelp_data`. There is no agenda table, as in the original. Queries may still write the MySQL form
 * `coffee.coffee_data`: the guard rewrites it to the bare name.
 *
 * Deliberate differences from ToolQA-D:
 * - Airbnb column renaming. The original replaced spaces by `_` and then every *substring* `lat` → `latitude`
 *   and `long` → `longitude`, which also mangled `calculated host listings count` into
 *   `calculatitudeed_host_listings_count` and `cancellation_policy` into `cancellatitudeion_policy`. Here only
 *   the whole names `lat` and `long` become `latitude` and `longitude`; every other name just has its spaces
 *   replaced (`calculated_host_listings_count`, `cancellation_policy`). The mangled names could only be
 *   discovered through schema introspection, which the sandbox refuses (sqlite_master, PRAGMA), so reproducing
 *   them would make those two columns unreachable rather than quirky.
 */
import type { DatabaseName, World } from '../../world/types.ts';
import type { SqlPolicy } from './guard.ts';

/** The datasets that have a SQL table (every LoadDB database except agenda). */
export type SqlDatasetName = Exclude<DatabaseName, 'agenda'>;

export const SQL_DATASETS: readonly SqlDatasetName[] = ['flights', 'coffee', 'airbnb', 'yelp'];

/** `coffee` → `coffee_data`. */
export function sqlTableName(dataset: SqlDatasetName): string {
  return `${dataset}_data`;
}

/**
 * The SQL column name of a table column as LoadDB reports it (spec §2.1–2.4): spaces become `_`; airbnb's
 * `lat`/`long` become `latitude`/`longitude`. Flights, coffee and yelp names contain no spaces and are kept.
 * Airbnb: `host id` → `host_id`, `host name` → `host_name`, `neighbourhood group` → `neighbourhood_group`, `lat` → `latitude`,
 * `long` → `longitude`, `country code` → `country_code`, `room type` → `room_type`,
 * `Construction year` → `Construction_year`, `service fee` → `service_fee`, `minimum nights` →
 * `minimum_nights`, `number of reviews` → `number_of_reviews`, `last review` → `last_review`,
 * `reviews per month` → `reviews_per_month`, `review rate number` → `review_rate_number`,
 * `calculated host listings count` → `calculated_host_listings_count`, `availability 365` →
 * `availability_365`; `id`, `NAME`, `host_identity_verified`, `neighbourhood`,
 * `country`, `instant_bookable`, `cancellation_policy`, `price`, `house_rules`, `license` keep their spelling.
 */
export function sqlColumnName(dataset: SqlDatasetName, column: string): string {
  const name = column.replaceAll(' ', '_');
  if (dataset === 'airbnb') {
    if (name === 'lat') return 'latitude';
    if (name === 'long') return 'longitude';
  }
  return name;
}

/** Guard bounds for agent queries; ToolQA-D's SQL questions need one table and rarely a self-join or subquery. */
export const WORLD_SQL_BOUNDS = { maxQueryChars: 4096, maxFromItems: 4, maxNesting: 12 } as const;

/** The SQLInterpreter policy: the four mirror tables, each also reachable as `dataset.table`. */
export const WORLD_SQL_POLICY: SqlPolicy = {
  tables: SQL_DATASETS.map((d) => ({ table: sqlTableName(d), schema: d })),
  ...WORLD_SQL_BOUNDS,
};

/**
 * Row-visit budget of an agent query (guard.ts `checkRowVisits`): 4,000,000 row combinations — a fraction of a
 * second for SQLite on simple rows — and never less than three scans of the largest table, so that a query over
 * one table with uncorrelated subqueries over it stays allowed at any world scale.
 */
export const WORLD_SQL_ROW_VISITS = 4_000_000;

const policies = new WeakMap<World, SqlPolicy>();

/**
 * `WORLD_SQL_POLICY` with the world's row counts and the row-visit budget: what SQLInterpreter enforces. One object
 * per world, built once (a session step asks for it on every call; callers only read it).
 */
export function worldSqlPolicy(world: World): SqlPolicy {
  const known = policies.get(world);
  if (known) return known;
  const policy = buildWorldSqlPolicy(world);
  policies.set(world, policy);
  return policy;
}

function buildWorldSqlPolicy(world: World): SqlPolicy {
  const rows = SQL_DATASETS.map((d) => world.tables[d].rowCount);
  return {
    ...WORLD_SQL_POLICY,
    tables: SQL_DATASETS.map((d) => ({
      table: sqlTableName(d),
      schema: d,
      rows: world.tables[d].rowCount,
    })),
    maxRowVisits: Math.max(WORLD_SQL_ROW_VISITS, 3 * Math.max(...rows)),
  };
}
