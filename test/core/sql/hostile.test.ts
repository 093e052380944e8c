import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardSql } from '../../../core/sandbox/sql/guard.ts';
import { WORLD_SQL_POLICY } from '../../../core/sandbox/sql/mirror.ts';
import { runSqlTool, SQL_ERROR_OBSERVATION, type SqlExecutor } from '../../../core/sandbox/sql/run.ts';
import { type FixtureDatabase, openFixtureDatabase, SECRET_VALUE } from './sqlite-executor.ts';

interface HostileCase {
  name: string;
  sql: string;
  /** What the refusal must be about (so a case cannot pass by failing for an unrelated reason). */
  reason: RegExp;
}

const MULTI = /only one statement/;
const READ_ONLY = /is not allowed: the SQL tool only reads/;
const NOT_WORLD = /is not one of the world's tables/;
const INTERNAL = /is an internal object/;
const FUNCTION = /the function .* is not allowed/;
const SELECT_ONLY = /only a SELECT query/;

const nested = (n: number): string => `SELECT ${'(SELECT '.repeat(n)}1${')'.repeat(n)}`;

const CASES: HostileCase[] = [
  // stacked statements and comment tricks
  { name: 'stacked DROP', sql: 'SELECT 1; DROP TABLE notes', reason: MULTI },
  {
    name: 'stacked DELETE after a world query',
    sql: 'SELECT * FROM coffee_data; DELETE FROM notes',
    reason: MULTI,
  },
  { name: 'line comment then DELETE', sql: 'SELECT 1;--\nDELETE FROM notes', reason: MULTI },
  {
    name: 'semicolon hidden next to a block comment',
    sql: "SELECT 1 /* ; */ ; UPDATE notes SET body = 'x'",
    reason: MULTI,
  },
  {
    name: 'comment ending before the separator',
    sql: 'SELECT 1 -- harmless\n; DROP TABLE notes',
    reason: MULTI,
  },
  { name: 'double semicolon', sql: 'SELECT 1;;', reason: MULTI },
  { name: 'second SELECT after the separator', sql: 'SELECT 1; SELECT secret FROM secrets', reason: MULTI },
  { name: 'empty comment glued to DROP', sql: '/**/DROP TABLE notes', reason: READ_ONLY },
  { name: 'comment inside DROP TABLE', sql: 'DROP/**/TABLE notes', reason: READ_ONLY },
  {
    name: 'unterminated block comment',
    sql: 'SELECT 1 /* DROP TABLE notes',
    reason: /unterminated \/\* comment/,
  },
  { name: 'comment-only text', sql: '-- SELECT 1', reason: /empty/ },
  { name: 'empty text', sql: '', reason: /empty/ },
  { name: 'whitespace only', sql: ' \n\t ', reason: /empty/ },
  // string-literal and quoting tricks
  {
    name: 'quote closed to stack a statement',
    sql: "SELECT 'a'; DELETE FROM notes; SELECT ''",
    reason: MULTI,
  },
  { name: 'doubled-quote escape then stacked', sql: "SELECT 'it''s'; DELETE FROM notes --'", reason: MULTI },
  { name: 'quoted identifier then stacked', sql: 'SELECT "x"; DELETE FROM notes; --"', reason: MULTI },
  { name: 'unterminated string', sql: "SELECT 'abc", reason: /unterminated string literal/ },
  { name: 'unterminated quoted identifier', sql: 'SELECT "abc', reason: /unterminated quoted identifier/ },
  { name: 'unterminated bracket identifier', sql: 'SELECT [abc', reason: /unterminated \[identifier\]/ },
  {
    name: 'string literal used as a table name',
    sql: "SELECT * FROM 'secrets'",
    reason: /expected a table name/,
  },
  {
    name: 'string literal called as a function',
    sql: "SELECT 'load_extension'('x')",
    reason: /after a string literal/,
  },
  { name: 'double-quoted secret table', sql: 'SELECT * FROM "secrets"', reason: NOT_WORLD },
  { name: 'bracketed secret table', sql: 'SELECT * FROM [secrets]', reason: NOT_WORLD },
  { name: 'backticked decoy table', sql: 'SELECT * FROM `notes`', reason: NOT_WORLD },
  { name: 'quoted keyword as the statement', sql: '"DELETE" FROM notes', reason: SELECT_ONLY },
  { name: 'odd-length blob literal', sql: "SELECT x'abc'", reason: /malformed blob literal/ },
  // case and Unicode tricks
  { name: 'mixed-case secret read', sql: 'sElEcT * FrOm SeCrEtS', reason: NOT_WORLD },
  { name: 'mixed-case DELETE', sql: 'dElEtE FROM notes', reason: READ_ONLY },
  { name: 'full-width SELECT', sql: 'ＳＥＬＥＣＴ * FROM coffee_data', reason: SELECT_ONLY },
  { name: 'Cyrillic a in a world table name', sql: 'SELECT * FROM coffee_dаta', reason: NOT_WORLD },
  { name: 'Cyrillic s in secrets', sql: 'SELECT * FROM ѕecrets', reason: NOT_WORLD },
  { name: 'full-width DROP after a separator', sql: 'SELECT 1; ＤＲＯＰ TABLE notes', reason: MULTI },
  { name: 'no-break space instead of a space', sql: 'SELECT\u00a0* FROM secrets', reason: SELECT_ONLY },
  {
    name: 'null byte before a stacked statement',
    sql: 'SELECT 1\u0000; DROP TABLE notes',
    reason: /control character U\+0000/,
  },
  { name: 'null byte inside a string', sql: "SELECT 'a\u0000b'", reason: /control character U\+0000/ },
  { name: 'unpaired surrogate', sql: "SELECT '\ud800'", reason: /unpaired surrogate/ },
  { name: 'backslash is not an operator', sql: 'SELECT 1 \\ 2', reason: /unexpected character/ },
  {
    name: 'number glued to a name',
    sql: 'SELECT 1union SELECT secret FROM secrets',
    reason: /malformed number/,
  },
  // writes in every disguise
  {
    name: 'WITH wrapping a DELETE',
    sql: 'WITH x AS (DELETE FROM notes RETURNING *) SELECT * FROM x',
    reason: READ_ONLY,
  },
  { name: 'WITH prefixing a DELETE', sql: 'WITH x AS (SELECT 1) DELETE FROM notes', reason: READ_ONLY },
  {
    name: 'WITH prefixing an INSERT',
    sql: 'WITH x AS (SELECT 1) INSERT INTO notes(body) SELECT * FROM x',
    reason: READ_ONLY,
  },
  { name: 'INSERT … SELECT', sql: 'INSERT INTO notes(body) SELECT Date FROM coffee_data', reason: READ_ONLY },
  { name: 'INSERT VALUES', sql: "INSERT INTO notes(body) VALUES ('x')", reason: READ_ONLY },
  { name: 'REPLACE INTO', sql: "REPLACE INTO notes(id, body) VALUES (1, 'x')", reason: READ_ONLY },
  { name: 'UPDATE', sql: "UPDATE notes SET body = 'x'", reason: READ_ONLY },
  {
    name: 'UPSERT via ON CONFLICT',
    sql: "INSERT INTO notes(id, body) VALUES (1, 'x') ON CONFLICT(id) DO UPDATE SET body = 'y'",
    reason: READ_ONLY,
  },
  { name: 'RETURNING clause on a SELECT', sql: 'SELECT 1 RETURNING *', reason: READ_ONLY },
  { name: 'DELETE … RETURNING', sql: 'DELETE FROM notes RETURNING *', reason: READ_ONLY },
  {
    name: 'CREATE TABLE AS SELECT',
    sql: 'CREATE TABLE copy AS SELECT * FROM coffee_data',
    reason: READ_ONLY,
  },
  { name: 'CREATE TEMP VIEW', sql: 'CREATE TEMP VIEW v AS SELECT * FROM secrets', reason: READ_ONLY },
  {
    name: 'CREATE TRIGGER',
    sql: 'CREATE TRIGGER t AFTER INSERT ON notes BEGIN DELETE FROM notes; END',
    reason: READ_ONLY,
  },
  { name: 'DROP TABLE', sql: 'DROP TABLE notes', reason: READ_ONLY },
  { name: 'ALTER TABLE RENAME', sql: 'ALTER TABLE notes RENAME TO gone', reason: READ_ONLY },
  // databases, pragmas, maintenance, transactions
  { name: 'ATTACH DATABASE', sql: "ATTACH DATABASE ':memory:' AS evil", reason: READ_ONLY },
  { name: 'ATTACH without DATABASE', sql: "ATTACH 'file:evil.db' AS evil", reason: READ_ONLY },
  { name: 'DETACH', sql: 'DETACH DATABASE main', reason: READ_ONLY },
  { name: 'PRAGMA assignment', sql: 'PRAGMA writable_schema = 1', reason: READ_ONLY },
  { name: 'PRAGMA call form', sql: 'pragma table_info(secrets)', reason: READ_ONLY },
  { name: 'schema-qualified PRAGMA', sql: 'PRAGMA main.user_version = 7', reason: READ_ONLY },
  { name: 'PRAGMA after a SELECT', sql: 'SELECT 1; PRAGMA query_only = 0', reason: MULTI },
  {
    name: 'pragma table-valued function',
    sql: "SELECT * FROM pragma_table_info('secrets')",
    reason: INTERNAL,
  },
  {
    name: 'pragma eponymous table without parentheses',
    sql: 'SELECT * FROM pragma_database_list',
    reason: INTERNAL,
  },
  { name: 'upper-case PRAGMA_ table', sql: 'SELECT name FROM PRAGMA_TABLE_LIST', reason: INTERNAL },
  { name: 'VACUUM INTO a file', sql: "VACUUM INTO '/tmp/stolen.db'", reason: READ_ONLY },
  { name: 'REINDEX', sql: 'REINDEX', reason: READ_ONLY },
  { name: 'ANALYZE', sql: 'ANALYZE', reason: READ_ONLY },
  { name: 'transaction around a DELETE', sql: 'BEGIN; DELETE FROM notes; COMMIT', reason: READ_ONLY },
  { name: 'COMMIT alone', sql: 'COMMIT', reason: READ_ONLY },
  { name: 'SAVEPOINT', sql: 'SAVEPOINT a', reason: READ_ONLY },
  { name: 'RELEASE', sql: 'RELEASE a', reason: READ_ONLY },
  { name: 'EXPLAIN', sql: 'EXPLAIN SELECT * FROM coffee_data', reason: READ_ONLY },
  { name: 'VALUES-only statement', sql: 'VALUES (1), (2)', reason: SELECT_ONLY },
  { name: 'parenthesised SELECT', sql: '(SELECT 1)', reason: SELECT_ONLY },
  // internal objects
  { name: 'sqlite_master', sql: 'SELECT * FROM sqlite_master', reason: INTERNAL },
  { name: 'schema-qualified sqlite_schema', sql: 'SELECT sql FROM main.sqlite_schema', reason: INTERNAL },
  { name: 'quoted sqlite_master', sql: 'SELECT * FROM "sqlite_master"', reason: INTERNAL },
  { name: 'sqlite_temp_master', sql: 'SELECT * FROM sqlite_temp_master', reason: INTERNAL },
  {
    name: 'sqlite_master in a subquery',
    sql: 'SELECT * FROM coffee_data WHERE Date IN (SELECT name FROM sqlite_master)',
    reason: INTERNAL,
  },
  { name: 'Cloudflare internal table', sql: 'SELECT * FROM _cf_KV', reason: INTERNAL },
  { name: 'D1 migrations table', sql: 'SELECT * FROM d1_migrations', reason: INTERNAL },
  { name: 'reserved name as an alias', sql: 'SELECT 1 AS sqlite_x', reason: INTERNAL },
  // functions
  { name: 'load_extension', sql: "SELECT load_extension('/tmp/evil.so')", reason: FUNCTION },
  { name: 'quoted load_extension', sql: `SELECT "load_extension"('/tmp/evil.so')`, reason: FUNCTION },
  {
    name: 'load_extension with a comment before (',
    sql: "SELECT LOAD_EXTENSION /* x */ ('a')",
    reason: FUNCTION,
  },
  { name: 'randomblob(1e9)', sql: 'SELECT randomblob(1000000000)', reason: FUNCTION },
  { name: 'hex(randomblob(1e9))', sql: 'SELECT hex(randomblob(1e9))', reason: FUNCTION },
  { name: 'zeroblob', sql: 'SELECT length(zeroblob(1000000000))', reason: FUNCTION },
  { name: 'readfile', sql: "SELECT readfile('/etc/passwd')", reason: FUNCTION },
  { name: 'writefile', sql: "SELECT writefile('/tmp/x', 'y')", reason: FUNCTION },
  { name: 'edit', sql: "SELECT edit('x')", reason: FUNCTION },
  { name: 'fts3_tokenizer', sql: "SELECT fts3_tokenizer('simple')", reason: FUNCTION },
  { name: 'sqlite_version', sql: 'SELECT sqlite_version()', reason: INTERNAL },
  { name: 'json function outside the allowlist', sql: "SELECT json_extract('{}', '$')", reason: FUNCTION },
  {
    name: 'MATCH operator written as a call',
    sql: "SELECT * FROM coffee_data WHERE Date MATCH ('x')",
    reason: FUNCTION,
  },
  {
    name: 'printf with a * width',
    sql: "SELECT printf('%.*c', 1000000000, 'x')",
    reason: /does not accept \* widths/,
  },
  { name: 'printf with a huge width', sql: "SELECT printf('%1000000000d', 1)", reason: /at most 100/ },
  { name: 'format with a huge precision', sql: "SELECT format('%.5000f', 1.5)", reason: /at most 100/ },
  {
    name: 'printf with a column as format',
    sql: 'SELECT printf(Date, 1) FROM coffee_data',
    reason: /literal format/,
  },
  {
    name: 'growing nested replace',
    sql: "SELECT replace(replace(replace('aaaaaaaaaa','a','aaaaaaaaaa'),'a','aaaaaaaaaa'),'a','aaaaaaaaaa')",
    reason: /replace\(\) needs literal/,
  },
  {
    name: 'replace with a computed replacement',
    sql: "SELECT replace(Date, '-', Date) FROM coffee_data",
    reason: /replace\(\) needs literal/,
  },
  { name: 'RAISE outside a trigger', sql: "SELECT raise(ABORT, 'x')", reason: READ_ONLY },
  // table-valued functions and other row sources
  { name: 'json_each', sql: "SELECT * FROM json_each('[1,2]')", reason: /table-valued functions/ },
  {
    name: 'json_tree in a join',
    sql: "SELECT * FROM coffee_data JOIN json_tree('{}')",
    reason: /table-valued functions/,
  },
  {
    name: 'generate_series',
    sql: 'SELECT * FROM generate_series(1, 1000000000)',
    reason: /table-valued functions/,
  },
  { name: 'dbstat virtual table', sql: 'SELECT * FROM dbstat', reason: NOT_WORLD },
  {
    name: 'IN with a bare table name',
    sql: "SELECT 1 WHERE 'api_key' IN secrets",
    reason: /IN must be followed/,
  },
  // tables outside the policy, every way they can be named
  { name: 'secret table', sql: 'SELECT * FROM secrets', reason: NOT_WORLD },
  { name: 'comma join with the secret table', sql: 'SELECT * FROM coffee_data, secrets', reason: NOT_WORLD },
  {
    name: 'JOIN … ON with the secret table',
    sql: 'SELECT * FROM coffee_data JOIN secrets ON 1',
    reason: NOT_WORLD,
  },
  {
    name: 'LEFT OUTER JOIN … USING',
    sql: 'SELECT * FROM coffee_data LEFT OUTER JOIN secrets USING (name)',
    reason: NOT_WORLD,
  },
  {
    name: 'NATURAL JOIN with the decoy',
    sql: 'SELECT * FROM coffee_data NATURAL JOIN notes',
    reason: NOT_WORLD,
  },
  {
    name: 'EXISTS subquery',
    sql: 'SELECT * FROM coffee_data WHERE EXISTS (SELECT 1 FROM secrets)',
    reason: NOT_WORLD,
  },
  { name: 'FROM subquery', sql: 'SELECT * FROM (SELECT * FROM notes)', reason: NOT_WORLD },
  { name: 'parenthesised join', sql: 'SELECT * FROM (coffee_data JOIN (secrets))', reason: NOT_WORLD },
  {
    name: 'UNION arm',
    sql: 'SELECT Date, Currency FROM coffee_data UNION SELECT * FROM secrets',
    reason: NOT_WORLD,
  },
  {
    name: 'scalar subquery in the select list',
    sql: 'SELECT (SELECT secret FROM secrets)',
    reason: NOT_WORLD,
  },
  {
    name: 'subquery inside coalesce',
    sql: 'SELECT coalesce((SELECT body FROM notes), 1)',
    reason: NOT_WORLD,
  },
  {
    name: 'subquery after IS NOT DISTINCT FROM',
    sql: 'SELECT * FROM coffee_data WHERE Date IS NOT DISTINCT FROM (SELECT body FROM notes)',
    reason: NOT_WORLD,
  },
  {
    name: 'subquery inside a WINDOW definition',
    sql: 'SELECT rank() OVER w FROM coffee_data WINDOW w AS (ORDER BY (SELECT body FROM notes))',
    reason: NOT_WORLD,
  },
  { name: 'schema-qualified secret table', sql: 'SELECT * FROM "main"."secrets"', reason: NOT_WORLD },
  { name: 'world table under another schema', sql: 'SELECT * FROM main.coffee_data', reason: NOT_WORLD },
  { name: 'TEMP schema', sql: 'SELECT * FROM temp.secrets', reason: READ_ONLY },
  {
    name: 'world table under the wrong dataset',
    sql: 'SELECT * FROM coffee.flights_data',
    reason: NOT_WORLD,
  },
  { name: 'alias reused as a table', sql: 'SELECT * FROM coffee_data AS c, c', reason: NOT_WORLD },
  {
    name: 'second FROM after a FROM item',
    sql: 'SELECT * FROM coffee_data FROM secrets',
    reason: /unexpected "FROM"/,
  },
  {
    name: 'call after a FROM item',
    sql: "SELECT * FROM coffee_data load_extension('x')",
    reason: /unexpected \(/,
  },
  {
    name: 'subquery in a CAST type size',
    sql: 'SELECT CAST(1 AS DECIMAL((SELECT secret FROM secrets)))',
    reason: /unexpected \(/,
  },
  {
    name: 'INDEXED BY hint',
    sql: "SELECT * FROM coffee_data INDEXED BY secret_idx WHERE Date = 'x'",
    reason: READ_ONLY,
  },
  { name: 'bind parameter', sql: 'SELECT * FROM coffee_data WHERE Date = ?', reason: /bind parameters/ },
  {
    name: 'named bind parameter',
    sql: 'SELECT * FROM coffee_data WHERE Date = :d',
    reason: /bind parameters/,
  },
  {
    name: 'closing the wrapper parenthesis early',
    sql: 'SELECT Date FROM coffee_data) UNION SELECT secret FROM (secrets',
    reason: /unbalanced parentheses/,
  },
  // CTE tricks
  {
    name: 'recursive CTE',
    sql: 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c',
    reason: READ_ONLY,
  },
  {
    name: 'implicitly recursive CTE (SQLite needs no RECURSIVE)',
    sql: 'WITH c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c',
    reason: /recursion is not allowed/,
  },
  {
    name: 'mutually referencing CTEs',
    sql: 'WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a',
    reason: /recursion is not allowed/,
  },
  {
    name: 'CTE shadowing a world table',
    sql: 'WITH coffee_data AS (SELECT * FROM secrets) SELECT * FROM coffee_data',
    reason: /would hide a world table/,
  },
  {
    name: 'CTE reading the secret table',
    sql: 'WITH x AS MATERIALIZED (SELECT * FROM secrets) SELECT * FROM x',
    reason: NOT_WORLD,
  },
  {
    name: 'CTE name next to a real table',
    sql: 'WITH x AS (SELECT 1) SELECT * FROM x, secrets',
    reason: NOT_WORLD,
  },
  {
    name: 'nested WITH scoping a name away',
    sql: 'SELECT * FROM (WITH secrets AS (SELECT 1) SELECT * FROM secrets), secrets',
    reason: /WITH is only allowed at the start/,
  },
  {
    name: 'CTE with a reserved name',
    sql: 'WITH sqlite_x AS (SELECT 1) SELECT * FROM sqlite_x',
    reason: INTERNAL,
  },
  // size bounds
  {
    name: 'five-way comma cross join',
    sql: 'SELECT * FROM flights_data, flights_data, flights_data, flights_data, flights_data',
    reason: /at most 4 tables or subqueries/,
  },
  {
    name: 'five-way JOIN chain',
    sql: 'SELECT count(*) FROM coffee_data a JOIN coffee_data b JOIN coffee_data c JOIN coffee_data d JOIN coffee_data e',
    reason: /at most 4 tables or subqueries/,
  },
  {
    name: 'cross join spread over scalar subqueries',
    sql: 'SELECT (SELECT count(*) FROM coffee_data), (SELECT count(*) FROM coffee_data) FROM coffee_data, coffee_data, coffee_data',
    reason: /at most 4 tables or subqueries/,
  },
  {
    name: 'cross join spread over CTEs',
    sql: 'WITH a AS (SELECT * FROM yelp_data, yelp_data) SELECT count(*) FROM a, a, a',
    reason: /at most 4 tables or subqueries/,
  },
  { name: 'deeply nested subqueries', sql: nested(20), reason: /nest at most 12 deep/ },
  {
    name: 'deeply nested parentheses',
    sql: `SELECT ${'('.repeat(40)}1${')'.repeat(40)}`,
    reason: /nest at most 12 deep/,
  },
  {
    name: '1 MB of query text',
    sql: `SELECT ${'1+'.repeat(500_000)}1`,
    reason: /longer than 4096 characters/,
  },
];

describe('SQL sandbox: hostile corpus', () => {
  let fixture: FixtureDatabase;
  let before: string;
  let calls = 0;
  let spy: SqlExecutor;

  beforeAll(() => {
    fixture = openFixtureDatabase();
    before = fixture.snapshot();
    spy = {
      all: (sql, maxRows) => {
        calls++;
        return fixture.executor.all(sql, maxRows);
      },
    };
  });
  afterAll(() => fixture.close());

  it('has at least 50 distinct cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CASES.map((c) => c.sql)).size).toBe(CASES.length);
  });

  it.each(CASES)('refuses $name', async ({ sql, reason }) => {
    const guarded = guardSql(sql, WORLD_SQL_POLICY);
    expect(guarded.ok).toBe(false);
    if (!guarded.ok) expect(guarded.reason).toMatch(reason);

    calls = 0;
    const observation = await runSqlTool(sql, spy);
    expect(observation).toBe(SQL_ERROR_OBSERVATION);
    const explained = await runSqlTool(sql, spy, WORLD_SQL_POLICY, {
      maxRows: 1024,
      timeoutMs: 5000,
      explainErrors: true,
    });
    expect(explained.startsWith(`${SQL_ERROR_OBSERVATION} (`)).toBe(true);
    expect(explained).not.toContain(SECRET_VALUE);
    expect(calls).toBe(0);
    expect(fixture.snapshot()).toBe(before);
  });

  it('the decoy check can fail: the same connection does write when the guard is bypassed', async () => {
    const other = openFixtureDatabase();
    const initial = other.snapshot();
    await other.executor.all('DELETE FROM notes RETURNING id', 10);
    expect(other.snapshot()).not.toBe(initial);
    expect(await other.executor.all('SELECT secret FROM secrets', 10)).toEqual([{ secret: SECRET_VALUE }]);
    other.close();
  });
});
