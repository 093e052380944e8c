/**
 * The world in D1, as SQL text: the SQL mirror of the four tabular corpora (what SQLInterpreter queries),
 * the text passages with an FTS5 index, the generated tasks, and a `meta` row recording which world
 * (seed, scale, content hashes) the database holds. Pure: the same world and tasks give the same SQL, which
 * `scripts/seed.ts` feeds to `wrangler d1 execute` (local or remote) and tests feed to a D1 binding.
 *
 * Deliberate differences from ToolQA-D's MySQL mirror (spec §2.10): columns are typed (INTEGER/REAL/TEXT, as
 * each corpus declares) instead of all varchar, missing values are NULL instead of `---`, booleans stay the
 * text `True`/`False`, cells are not truncated to 250 characters, and airbnb/yelp text compares
 * case-sensitively (SQLite's default) rather than with MySQL's case-insensitive collation.
 */
import { SQL_DATASETS, sqlColumnName, sqlTableName } from '../core/sandbox/sql/mirror.ts';
import type { Table } from '../core/world/table.ts';
import type { Task } from '../core/world/tasks/types.ts';
import type { World } from '../core/world/types.ts';

/** D1 rejects statements over 100 KB; stay well below. */
const MAX_STATEMENT_BYTES = 90_000;

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function quoteText(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The SQL literal of a rendered cell in a column of the given type. */
export function cellLiteral(cell: string, sqlType: 'INTEGER' | 'REAL' | 'TEXT'): string {
  if (cell === 'nan' || cell === 'None') return 'NULL';
  if (sqlType === 'TEXT') return quoteText(cell);
  if (cell === 'True') return '1';
  if (cell === 'False') return '0';
  const x = Number(cell);
  if (!Number.isFinite(x)) return 'NULL';
  return sqlType === 'INTEGER' && Number.isInteger(x) ? String(x) : cell;
}

/** Multi-row INSERTs of `rows` (already rendered as `(…)` tuples), each statement below the size limit. */
function* chunkedInsert(head: string, tuples: Iterable<string>): Generator<string> {
  let batch: string[] = [];
  let size = head.length;
  for (const t of tuples) {
    if (batch.length > 0 && size + t.length + 2 > MAX_STATEMENT_BYTES) {
      yield `${head}${batch.join(',\n')};`;
      batch = [];
      size = head.length;
    }
    batch.push(t);
    size += t.length + 2;
  }
  if (batch.length > 0) yield `${head}${batch.join(',\n')};`;
}

function* mirrorTable(dataset: (typeof SQL_DATASETS)[number], table: Table): Generator<string> {
  const name = quoteIdent(sqlTableName(dataset));
  const cols = table.columns.map((c) => `${quoteIdent(sqlColumnName(dataset, c.name))} ${c.sqlType}`);
  yield `DROP TABLE IF EXISTS ${name};`;
  yield `CREATE TABLE ${name} (\n  ${cols.join(',\n  ')}\n);`;
  function* tuples() {
    for (let r = 0; r < table.rowCount; r++) {
      const row = table.row(r);
      yield `(${row.map((cell, i) => cellLiteral(cell, (table.columns[i] as Table['columns'][number]).sqlType)).join(',')})`;
    }
  }
  yield* chunkedInsert(`INSERT INTO ${name} VALUES\n`, tuples());
}

function* passages(world: World): Generator<string> {
  yield 'DROP TABLE IF EXISTS world_passages_fts;';
  yield 'DROP TABLE IF EXISTS world_passages;';
  yield 'CREATE TABLE world_passages (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, corpus TEXT NOT NULL, text TEXT NOT NULL);';
  yield "CREATE VIRTUAL TABLE world_passages_fts USING fts5(text, content='world_passages', content_rowid='rowid');";
  let rowid = 0;
  function* tuples() {
    for (const [corpus, list] of [
      ['agenda', world.agendaPassages],
      ['scirex', world.scirex.passages],
    ] as const) {
      for (const p of list) yield `(${++rowid},${quoteText(p.id)},'${corpus}',${quoteText(p.text)})`;
    }
  }
  yield* chunkedInsert('INSERT INTO world_passages (rowid, id, corpus, text) VALUES\n', tuples());
  yield "INSERT INTO world_passages_fts (world_passages_fts) VALUES ('rebuild');";
}

function* taskRows(world: World, tasks: readonly Task[]): Generator<string> {
  yield 'DELETE FROM tasks;';
  const seed = quoteText(world.config.seed);
  const scale = String(world.config.scale);
  function* tuples() {
    for (const t of tasks) {
      yield `(${[
        quoteText(t.id),
        quoteText(t.split),
        quoteText(t.dataset),
        quoteText(t.difficulty),
        quoteText(t.templateId),
        quoteText(t.question),
        quoteText(JSON.stringify(t.slots)),
        quoteText(JSON.stringify(t.gold)),
        quoteText(JSON.stringify(t.plan)),
        seed,
        scale,
      ].join(',')})`;
    }
  }
  yield* chunkedInsert(
    'INSERT INTO tasks (id, split, dataset, difficulty, template_id, question, slots, gold, plan, world_seed, world_scale) VALUES\n',
    tuples(),
  );
}

/** What the `meta` row `world` records about the seeded world. */
export interface SeededWorld {
  seed: string;
  scale: number;
  /** Content hashes of each corpus (core/world/world.ts `hashWorld`). */
  hashes: Record<string, string>;
  /** Sizes of each dataset (core/world/catalog.ts `worldSizes`). */
  sizes: Record<string, Record<string, number>>;
  tasks: number;
  tasksHash: string;
  /** Hash of the generator sources that produced it (seeding is skipped while it matches). */
  source?: string;
}

/** The SQL mirror alone (what SQLInterpreter queries): for D1 and for an in-process SQLite in Node. */
export function* mirrorStatements(world: World): Generator<string> {
  for (const dataset of SQL_DATASETS) yield* mirrorTable(dataset, world.tables[dataset]);
}

/** Every statement that (re)seeds D1 with the world and its tasks, in order. */
export function* worldSeedStatements(
  world: World,
  tasks: readonly Task[],
  meta: SeededWorld,
): Generator<string> {
  yield "DELETE FROM meta WHERE key = 'world';";
  yield* mirrorStatements(world);
  yield* passages(world);
  yield* taskRows(world, tasks);
  // Written last: a seed interrupted halfway leaves no `world` row, so the next start seeds again.
  yield `INSERT INTO meta (key, value) VALUES ('world', ${quoteText(JSON.stringify(meta))});`;
}
