/**
 * The SQLInterpreter sandbox: decides from the tokens alone whether a query is one harmless read over the
 * world's tables, and returns the exact text to run. Nothing is passed to the database that was not analysed,
 * so the database connection itself may be writable and hold other tables: the guard is the boundary.
 *
 * What a query may be:
 * - Exactly one statement (one trailing `;` and trailing comments allowed), starting with `SELECT`, or with
 *   `WITH` (not `RECURSIVE`) followed by a `SELECT`. `VALUES`, `EXPLAIN`, DML and DDL are refused.
 * - No keyword that writes or changes state appears anywhere (`FORBIDDEN_KEYWORDS`), not even inside a CTE
 *   (SQLite accepts `WITH … DELETE`). `replace(` is the string function, so `REPLACE` is allowed before `(`.
 * - Every FROM item — after `FROM`, `JOIN` or a comma in a FROM clause, inside parenthesised joins and in
 *   subqueries at any depth — is a policy table (bare, or qualified by its ToolQA MySQL database name,
 *   `coffee.coffee_data`, which is rewritten to the bare name), a CTE of this statement, or a subquery.
 *   Table-valued functions (`pragma_table_info(…)`, `json_each(…)`, `generate_series(…)`) are refused:
 *   the world's tables hold no JSON and no question needs a row generator, and refusing them keeps "every
 *   FROM item names a world table" a plain name check. `x IN name` (SQLite's table form of IN) is refused too.
 * - No identifier anywhere starts with `sqlite_`, `pragma_`, `d1_` or `_cf_` (SQLite's, D1's and Cloudflare's
 *   internal objects), however it is quoted.
 * - CTEs only in the leading WITH clause (a WITH inside a subquery would scope names differently); a CTE may
 *   read policy tables and CTEs defined *before* it, never itself or later ones — SQLite runs a self-referencing
 *   CTE recursively even without `RECURSIVE`, which would be an unbounded row generator. CTE names may not
 *   shadow policy tables.
 * - Function calls (`name(` — quoted names included, since SQLite accepts `"load_extension"(…)`) only from
 *   `SQL_FUNCTION_ALLOWLIST`. `printf`/`format` need a literal format whose widths and precisions are at most
 *   `MAX_PRINTF_WIDTH` (no `*`), and `replace` needs literal pattern and replacement strings with a replacement
 *   no longer than the pattern: those are the two allowed functions that could build a huge string from a
 *   single call, with no rows involved.
 * - No bind parameters, no NUL or other control characters, no unpaired surrogates, every string, quoted
 *   identifier and comment terminated, parentheses balanced.
 *
 * Bounds (see `SqlPolicy`): the text is at most `maxQueryChars` characters; the statement has at most
 * `maxFromItems` FROM items in total (every table, CTE reference and FROM subquery, across all subqueries,
 * CTE bodies and compound arms — a cross join's cost is the product of its items); parentheses nest at most
 * `maxNesting` deep (this bounds subquery depth, hence correlated-subquery cost). The world policy
 * (`WORLD_SQL_POLICY` in mirror.ts) uses 4096 characters, 4 FROM items and 12 levels. What remains — a slow join
 * within those bounds, string growth across many rows with group_concat — is cut by the run-time limits
 * (`runSqlTool`'s timer and row cap) and by the engine's own caps (D1: 1,000,000-byte strings and rows,
 * 30-second queries, 50-byte LIKE patterns).
 */
import { asciiLower, identifierKey, type SqlToken, tokenizeSql } from './tokenizer.ts';

/** A table a query may read; `schema` is the ToolQA MySQL database name that may qualify it. */
export interface SqlTableGrant {
  table: string;
  schema?: string;
  /** Rows the table holds; the row-visit bound (`SqlPolicy.maxRowVisits`) reads it. */
  rows?: number;
}

export interface SqlPolicy {
  tables: readonly SqlTableGrant[];
  /** Longest accepted query text, in UTF-16 code units. */
  maxQueryChars: number;
  /** Most FROM items (tables, CTE references, FROM subqueries) in the whole statement. */
  maxFromItems: number;
  /** Deepest parenthesis nesting. */
  maxNesting: number;
  /**
   * Most row combinations the statement may make the engine visit, by the estimate of `rowVisitBound`
   * (a grant without `rows` counts as this many rows). Absent: no such bound.
   */
  maxRowVisits?: number;
}

export type SqlGuardResult = { ok: true; sql: string } | { ok: false; reason: string };

/** Harmless scalar, aggregate and window functions (lower case). */
export const SQL_FUNCTION_ALLOWLIST: ReadonlySet<string> = new Set([
  // scalar
  'abs',
  'round',
  'length',
  'lower',
  'upper',
  'substr',
  'substring',
  'trim',
  'ltrim',
  'rtrim',
  'replace',
  'instr',
  'coalesce',
  'ifnull',
  'nullif',
  'iif',
  'typeof',
  'like',
  'glob',
  'printf',
  'format',
  'date',
  'time',
  'datetime',
  'julianday',
  'strftime',
  // aggregate (min/max are scalar too)
  'min',
  'max',
  'avg',
  'sum',
  'total',
  'count',
  'group_concat',
  // window functions: rank-style questions need them, and they only reorder/number rows already produced
  'row_number',
  'rank',
  'dense_rank',
  'percent_rank',
  'cume_dist',
  'ntile',
  'lag',
  'lead',
  'first_value',
  'last_value',
  'nth_value',
]);

/** Keywords that write, change schema or connection state, or only occur in such statements. */
export const FORBIDDEN_KEYWORDS: ReadonlySet<string> = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'UPSERT',
  'CONFLICT',
  'DO',
  'SET',
  'RETURNING',
  'INTO',
  'CREATE',
  'DROP',
  'ALTER',
  'RENAME',
  'TABLE',
  'VIEW',
  'INDEX',
  'INDEXED',
  'TRIGGER',
  'VIRTUAL',
  'TEMP',
  'TEMPORARY',
  'ATTACH',
  'DETACH',
  'DATABASE',
  'PRAGMA',
  'VACUUM',
  'REINDEX',
  'ANALYZE',
  'EXPLAIN',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
  'TRANSACTION',
  'DEFERRED',
  'IMMEDIATE',
  'EXCLUSIVE',
  'RAISE',
  'RECURSIVE',
]);

/** Internal objects of SQLite, D1 and Cloudflare, and SQLite's pragma table-valued functions. */
const RESERVED_PREFIXES = ['sqlite_', 'pragma_', 'd1_', '_cf_'];

/** Keywords that may be directly followed by `(` without being a function call. */
const SYNTAX_BEFORE_PAREN = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'EXISTS',
  'CAST',
  'SELECT',
  'DISTINCT',
  'ALL',
  'FROM',
  'JOIN',
  'ON',
  'USING',
  'WHERE',
  'HAVING',
  'BY',
  'AS',
  'WHEN',
  'THEN',
  'ELSE',
  'CASE',
  'BETWEEN',
  'IS',
  'ESCAPE',
  'LIMIT',
  'OFFSET',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'VALUES',
  'OVER',
  'FILTER',
  'MATERIALIZED',
]);

/** Keywords that end a FROM clause. */
const CLAUSE_KEYWORDS = new Set([
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'WINDOW',
  'UNION',
  'INTERSECT',
  'EXCEPT',
]);
/** Join operators that precede JOIN (`LEFT OUTER JOIN`, `NATURAL JOIN`, `CROSS JOIN`, …). */
const JOIN_PREFIXES = new Set(['NATURAL', 'LEFT', 'RIGHT', 'FULL', 'INNER', 'CROSS', 'OUTER']);

/** Largest printf/format width or precision accepted. */
export const MAX_PRINTF_WIDTH = 100;

class Refusal {
  constructor(readonly reason: string) {}
}

const isWord = (t: SqlToken | undefined, upper?: string): boolean =>
  t !== undefined && t.kind === 'word' && (upper === undefined || t.value === upper);
const isOp = (t: SqlToken | undefined, op: string): boolean =>
  t !== undefined && t.kind === 'op' && t.text === op;
const isName = (t: SqlToken | undefined): boolean =>
  t !== undefined && (t.kind === 'word' || t.kind === 'quoted');
const display = (t: SqlToken): string => (t.kind === 'quoted' ? t.value : t.text);

/**
 * Checks `sql` against `policy`. On success returns the query to run: the same text with comments replaced
 * by a space, the trailing `;` and surrounding whitespace removed, and `schema.table` qualifiers of policy
 * tables rewritten to the bare table name.
 */
export function guardSql(sql: unknown, policy: SqlPolicy): SqlGuardResult {
  try {
    return { ok: true, sql: new Analysis(sql, policy).run() };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.reason };
    throw e;
  }
}

type FrameState =
  /** Expressions and clauses other than FROM. */
  | 'expr'
  /** A FROM item is expected. */
  | 'fromItem'
  /** Just inside `(` where a FROM item was expected: a subquery or a parenthesised join follows. */
  | 'fromOpen'
  /** After a FROM item: alias, join operator, ON/USING, comma or the next clause. */
  | 'afterItem'
  /** In a join's ON expression. */
  | 'onExpr'
  /** The `(10, 2)` of a type name in CAST. */
  | 'typeArgs';

interface Frame {
  state: FrameState;
  /** The state the enclosing frame takes when this one closes. */
  resume: FrameState;
  /** Opened by CAST: words after its AS are a type name. */
  cast: boolean;
  castType: boolean;
}

class Analysis {
  private readonly tokens: SqlToken[] = [];
  private readonly source: string;
  private readonly tableKeys: Map<string, SqlTableGrant>;
  /** Token indexes to drop from the output (schema qualifiers and their dots, the trailing `;`). */
  private readonly dropped = new Set<number>();
  private fromItems = 0;
  /** FROM items naming a table or CTE, at the index of their name token. */
  private readonly items: { at: number; key: string; cte: boolean }[] = [];
  /** Aliases given to FROM items, at their token index. */
  private readonly aliases: { at: number; key: string }[] = [];
  /** Every parenthesised SELECT/VALUES (`from`: a FROM item; `expr`: inside an expression) and CTE body. */
  private readonly blocks: QueryBlock[] = [];
  /** Every CTE name of the statement (for a precise refusal when a CTE reads itself or a later one). */
  private cteNames: ReadonlySet<string> = new Set();

  constructor(
    sql: unknown,
    private readonly policy: SqlPolicy,
  ) {
    if (typeof sql !== 'string') throw new Refusal('the query must be a string');
    this.source = sql;
    this.tableKeys = new Map(policy.tables.map((g) => [asciiLower(g.table), g]));
  }

  run(): string {
    const sql = this.source;
    if (sql.length > this.policy.maxQueryChars) {
      throw new Refusal(`the query is longer than ${this.policy.maxQueryChars} characters`);
    }
    checkCharacters(sql);
    const tokenized = tokenizeSql(sql);
    if (!tokenized.ok) throw new Refusal(tokenized.reason);
    this.tokens.push(...tokenized.tokens);
    const tokens = this.tokens;

    let end = tokens.length;
    if (end > 0 && isOp(tokens[end - 1], ';')) {
      end--;
      this.dropped.add(end);
    }
    if (end === 0) throw new Refusal('the query is empty');
    for (let i = 0; i < end; i++) this.checkToken(i, end);
    this.checkNesting(end);

    const first = tokens[0] as SqlToken;
    let main = 0;
    if (isWord(first, 'SELECT')) {
      this.scan(0, end, new Set());
    } else if (isWord(first, 'WITH')) {
      main = this.scanWith(end);
    } else {
      throw new Refusal('only a SELECT query (or WITH … SELECT) is allowed');
    }
    this.checkRowVisits(main, end);
    this.markQualifierRewrites(end);
    return this.render(end);
  }

  /** Checks that hold for a token wherever it appears. */
  private checkToken(i: number, end: number): void {
    const t = this.tokens[i] as SqlToken;
    const next = this.tokens[i + 1];
    if (isOp(t, ';')) throw new Refusal('only one statement is allowed');
    if (t.kind === 'word') {
      if (FORBIDDEN_KEYWORDS.has(t.value) && !(t.value === 'REPLACE' && isOp(next, '('))) {
        throw new Refusal(`${t.value} is not allowed: the SQL tool only reads`);
      }
      if (t.value === 'WITH' && i > 0) throw new Refusal('WITH is only allowed at the start of the query');
    }
    if (isName(t)) {
      const key = identifierKey(t);
      const prefix = RESERVED_PREFIXES.find((p) => key.startsWith(p));
      if (prefix)
        throw new Refusal(
          `${display(t)} is an internal object (names starting with ${prefix} are not allowed)`,
        );
    }
    // SQLite never calls a string, but it does read a quoted string as a name in some places: keep strings
    // out of every position where a name followed by ( would matter.
    if (t.kind === 'string' && isOp(next, '(')) throw new Refusal('unexpected ( after a string literal');
    if (isWord(t, 'IN') && i + 1 < end && !isOp(next, '(')) {
      throw new Refusal('IN must be followed by a parenthesised list or subquery');
    }
  }

  private checkNesting(end: number): void {
    let depth = 0;
    for (let i = 0; i < end; i++) {
      const t = this.tokens[i] as SqlToken;
      if (isOp(t, '(')) {
        depth++;
        if (depth > this.policy.maxNesting) {
          throw new Refusal(`parentheses and subqueries may nest at most ${this.policy.maxNesting} deep`);
        }
      } else if (isOp(t, ')')) {
        depth--;
        if (depth < 0) throw new Refusal('unbalanced parentheses');
      }
    }
    if (depth !== 0) throw new Refusal('unbalanced parentheses');
  }

  /** Index of the `)` matching the `(` at `open` (parentheses are known to be balanced). */
  private matching(open: number): number {
    let depth = 0;
    for (let i = open; ; i++) {
      const t = this.tokens[i] as SqlToken;
      if (isOp(t, '(')) depth++;
      else if (isOp(t, ')') && --depth === 0) return i;
    }
  }

  /** `WITH name [(cols)] AS [NOT] [MATERIALIZED] (body), … SELECT …`; returns the main SELECT's index. */
  private scanWith(end: number): number {
    const tokens = this.tokens;
    const ctes: { key: string; body: number; close: number }[] = [];
    let i = 1;
    for (;;) {
      const name = tokens[i] as SqlToken;
      if (!isName(name) || isWord(name, 'SELECT')) {
        throw new Refusal('expected a CTE name after WITH');
      }
      const key = identifierKey(name);
      if (this.tableKeys.has(key))
        throw new Refusal(`the CTE name ${display(name)} would hide a world table`);
      if (ctes.some((c) => c.key === key))
        throw new Refusal(`the CTE name ${display(name)} is defined twice`);
      i++;
      if (isOp(tokens[i], '(')) {
        const close = this.matching(i);
        for (let k = i + 1; k < close; k++) {
          const t = tokens[k] as SqlToken;
          const expectName = (k - i) % 2 === 1;
          if (expectName ? !isName(t) : !isOp(t, ',')) throw new Refusal('malformed CTE column list');
        }
        i = close + 1;
      }
      if (!isWord(tokens[i], 'AS')) throw new Refusal('expected AS after the CTE name');
      i++;
      if (isWord(tokens[i], 'NOT')) i++;
      if (isWord(tokens[i], 'MATERIALIZED')) i++;
      if (!isOp(tokens[i], '(')) throw new Refusal('expected ( after AS in WITH');
      const close = this.matching(i);
      if (!isWord(tokens[i + 1], 'SELECT') && !isWord(tokens[i + 1], 'VALUES')) {
        throw new Refusal('a CTE body must be a SELECT');
      }
      ctes.push({ key, body: i + 1, close });
      i = close + 1;
      if (!isOp(tokens[i], ',')) break;
      i++;
    }
    if (!isWord(tokens[i], 'SELECT')) throw new Refusal('the query after WITH must be a SELECT');
    this.cteNames = new Set(ctes.map((c) => c.key));
    // A CTE sees only the CTEs defined before it: no self-reference, hence no recursion.
    ctes.forEach((c, k) => {
      this.blocks.push({ open: c.body - 1, close: c.close, kind: 'cte', cte: c.key });
      this.scan(c.body, c.close, new Set(ctes.slice(0, k).map((d) => d.key)));
    });
    this.scan(i, end, this.cteNames);
    return i;
  }

  /** Walks tokens [start, end) of one SELECT, checking FROM items and function calls. */
  private scan(start: number, end: number, ctes: ReadonlySet<string>): void {
    const tokens = this.tokens;
    const stack: Frame[] = [{ state: 'expr', resume: 'expr', cast: false, castType: false }];
    for (let i = start; i < end; i++) {
      const t = tokens[i] as SqlToken;
      const frame = stack[stack.length - 1] as Frame;

      if (frame.state === 'fromOpen' && !isOp(t, '(')) {
        if (isWord(t, 'SELECT') || isWord(t, 'VALUES')) {
          this.countFromItem();
          frame.state = 'expr';
        } else {
          frame.state = 'fromItem';
        }
      }

      if (isOp(t, '(')) {
        const prev = tokens[i - 1];
        if (frame.state === 'typeArgs' || (frame.state === 'afterItem' && !isWord(prev, 'USING'))) {
          throw new Refusal(`unexpected ( after ${JSON.stringify(prev?.text ?? '')}`);
        }
        const inFrom = frame.state === 'fromItem' || frame.state === 'fromOpen';
        if (isWord(tokens[i + 1], 'SELECT') || isWord(tokens[i + 1], 'VALUES')) {
          this.blocks.push({ open: i, close: this.matching(i), kind: inFrom ? 'from' : 'expr' });
        }
        if (inFrom) {
          stack.push({ state: 'fromOpen', resume: 'afterItem', cast: false, castType: false });
        } else if (frame.castType && isName(prev)) {
          stack.push({ state: 'typeArgs', resume: frame.state, cast: false, castType: false });
        } else {
          stack.push({ state: 'expr', resume: frame.state, cast: isWord(prev, 'CAST'), castType: false });
        }
        continue;
      }
      if (isOp(t, ')')) {
        const closed = stack.pop() as Frame;
        (stack[stack.length - 1] as Frame).state = closed.resume;
        continue;
      }

      switch (frame.state) {
        case 'fromItem':
          i = this.fromItem(i, ctes);
          frame.state = 'afterItem';
          break;
        case 'afterItem':
          if (isOp(t, ',') || isWord(t, 'JOIN')) frame.state = 'fromItem';
          else if (isWord(t) && JOIN_PREFIXES.has(t.value)) {
            // stays: JOIN follows
          } else if (isWord(t, 'ON')) frame.state = 'onExpr';
          else if (isWord(t, 'USING')) {
            if (!isOp(tokens[i + 1], '(')) throw new Refusal('USING must be followed by a column list');
          } else if (isWord(t) && CLAUSE_KEYWORDS.has(t.value)) frame.state = 'expr';
          else if (isWord(t, 'AS')) {
            if (!isName(tokens[i + 1])) throw new Refusal('expected an alias after AS');
            i++;
            this.aliases.push({ at: i, key: identifierKey(tokens[i] as SqlToken) });
          } else if (!isName(t) || isWord(t, 'FROM') || isWord(t, 'SELECT') || isWord(t, 'VALUES')) {
            throw new Refusal(`unexpected ${JSON.stringify(t.text)} after a FROM item`);
          } else {
            this.aliases.push({ at: i, key: identifierKey(t) }); // a bare alias
          }
          break;
        case 'onExpr':
          if (isOp(t, ',') || isWord(t, 'JOIN')) frame.state = 'fromItem';
          else if (isWord(t) && JOIN_PREFIXES.has(t.value)) frame.state = 'afterItem';
          else if (isWord(t) && CLAUSE_KEYWORDS.has(t.value)) frame.state = 'expr';
          else this.expression(i, frame);
          break;
        case 'typeArgs':
          if (t.kind !== 'number' && !isOp(t, ',') && !isOp(t, '+') && !isOp(t, '-')) {
            throw new Refusal('a type size may only contain numbers');
          }
          break;
        default:
          this.expression(i, frame);
      }
    }
  }

  /** One token in expression context. */
  private expression(i: number, frame: Frame): void {
    const tokens = this.tokens;
    const t = tokens[i] as SqlToken;
    if (isWord(t, 'FROM')) {
      // `a IS [NOT] DISTINCT FROM b` is a comparison, not a FROM clause.
      const isDistinctFrom =
        isWord(tokens[i - 1], 'DISTINCT') &&
        (isWord(tokens[i - 2], 'IS') || (isWord(tokens[i - 2], 'NOT') && isWord(tokens[i - 3], 'IS')));
      if (!isDistinctFrom) frame.state = 'fromItem';
      return;
    }
    if (isWord(t, 'JOIN')) {
      frame.state = 'fromItem';
      return;
    }
    if (frame.cast && isWord(t, 'AS')) {
      frame.castType = true;
      return;
    }
    if (isName(t) && isOp(tokens[i + 1], '(')) {
      if (t.kind === 'word' && SYNTAX_BEFORE_PAREN.has(t.value)) return;
      if (frame.castType) return; // a type name such as DECIMAL(10, 2)
      this.functionCall(i);
    }
  }

  private functionCall(i: number): void {
    const t = this.tokens[i] as SqlToken;
    const name = identifierKey(t);
    if (!SQL_FUNCTION_ALLOWLIST.has(name)) throw new Refusal(`the function ${display(t)}() is not allowed`);
    if (name === 'printf' || name === 'format') {
      const args = this.callArguments(i + 1);
      const fmt = args[0];
      if (fmt?.length !== 1 || (fmt[0] as SqlToken).kind !== 'string') {
        throw new Refusal(`${name}() needs a literal format string`);
      }
      checkPrintfFormat((fmt[0] as SqlToken).value, name);
    } else if (name === 'replace') {
      const args = this.callArguments(i + 1);
      const pattern = args[1];
      const replacement = args[2];
      const literal = (a: SqlToken[] | undefined): SqlToken | undefined =>
        a?.length === 1 && (a[0] as SqlToken).kind === 'string' ? a[0] : undefined;
      const p = literal(pattern);
      const r = literal(replacement);
      if (args.length !== 3 || !p || !r || r.value.length > p.value.length) {
        throw new Refusal(
          'replace() needs literal pattern and replacement strings, the replacement no longer than the pattern',
        );
      }
    }
  }

  /** The argument token lists of the call whose `(` is at `open`. */
  private callArguments(open: number): SqlToken[][] {
    const close = this.matching(open);
    const args: SqlToken[][] = [];
    let current: SqlToken[] = [];
    let depth = 0;
    for (let k = open + 1; k < close; k++) {
      const t = this.tokens[k] as SqlToken;
      if (isOp(t, '(')) depth++;
      else if (isOp(t, ')')) depth--;
      if (depth === 0 && isOp(t, ',')) {
        args.push(current);
        current = [];
      } else {
        current.push(t);
      }
    }
    if (current.length > 0 || args.length > 0) args.push(current);
    return args;
  }

  /** A table reference at `i`: `name` or `schema . name`; returns the index of its last token. */
  private fromItem(i: number, ctes: ReadonlySet<string>): number {
    const tokens = this.tokens;
    const first = tokens[i] as SqlToken;
    if (!isName(first)) throw new Refusal(`expected a table name, found ${JSON.stringify(first.text)}`);
    let last = i;
    let schema: SqlToken | undefined;
    let table = first;
    if (isOp(tokens[i + 1], '.')) {
      const t = tokens[i + 2] as SqlToken;
      if (!isName(t)) throw new Refusal('expected a table name after the schema name');
      schema = first;
      table = t;
      last = i + 2;
    }
    if (isOp(tokens[last + 1], '(')) {
      throw new Refusal(`table-valued functions such as ${display(table)}() are not allowed`);
    }
    const key = identifierKey(table);
    const grant = this.tableKeys.get(key);
    if (schema) {
      if (!grant || grant.schema === undefined || asciiLower(grant.schema) !== identifierKey(schema)) {
        throw new Refusal(
          `${display(schema)}.${display(table)} is not one of the world's tables (${this.tableList()})`,
        );
      }
    } else if (!grant && !ctes.has(key)) {
      if (this.cteNames.has(key)) {
        throw new Refusal(
          `a CTE may only read CTEs defined before it (${display(table)} is not; recursion is not allowed)`,
        );
      }
      throw new Refusal(`${display(table)} is not one of the world's tables (${this.tableList()})`);
    }
    this.countFromItem();
    this.items.push({ at: last, key, cte: !grant });
    return last;
  }

  private countFromItem(): void {
    this.fromItems++;
    if (this.fromItems > this.policy.maxFromItems) {
      throw new Refusal(
        `at most ${this.policy.maxFromItems} tables or subqueries may appear in FROM clauses`,
      );
    }
  }

  /**
   * The row-visit bound (issue 13 item 1). D1 can neither cancel a running statement nor count its steps, and
   * SQLite runs it to the end on the database's only thread (locally: the thread serving every request), so a
   * bound must be decided before the query runs, from its shape. The estimate is an upper bound on the row
   * combinations a nested-loop plan visits, computed per query block (the main SELECT, each parenthesised
   * SELECT, each CTE body):
   * - a block's join visits the product of its FROM items' rows (a table: its `rows`; a CTE: the CTE body's
   *   bound; a FROM subquery: its own bound), summed over compound arms (UNION/INTERSECT/EXCEPT);
   * - a subquery inside an expression runs once when it cannot refer to an outer row (SQLite evaluates such a
   *   subquery once) and adds its bound; otherwise it runs once per joined row and multiplies. It is taken as
   *   uncorrelated only when every qualifier it uses (`a.col`) names one of its own tables or aliases, and every
   *   table of the enclosing blocks is one of its own direct FROM tables — so an unqualified column always
   *   resolves inside it — and no enclosing block reads a FROM subquery (whose column names are unknown here).
   * Indexes, automatic indexes and selective join conditions can only make the real work smaller, never larger.
   * Refusing by a static bound, rather than counting steps where the query runs, also keeps the database free
   * for every other request. The cost: joins of two large tables are refused even when a join condition would
   * make them cheap (ToolQA-D's SQL questions are single-table; see docs/toolqa-d-differences.md).
   */
  private checkRowVisits(main: number, end: number): void {
    const limit = this.policy.maxRowVisits;
    if (limit === undefined) return;
    const root: QueryBlock = { open: main - 1, close: end, kind: 'root' };
    const bound = rowVisitBound(root, this.blocks, this.items, this.aliases, this.tokens, (key) => {
      const grant = this.tableKeys.get(key);
      return grant?.rows ?? limit;
    });
    if (!(bound <= limit)) {
      throw new Refusal(
        `the query could visit up to ${formatCount(bound)} row combinations (at most ${formatCount(limit)} allowed): join fewer or smaller tables, or query one table at a time`,
      );
    }
  }

  private tableList(): string {
    return this.policy.tables.map((g) => g.table).join(', ');
  }

  /** Drops `schema .` before a policy table wherever it appears (FROM items and `schema.table.column`). */
  private markQualifierRewrites(end: number): void {
    const tokens = this.tokens;
    for (let i = 0; i + 2 < end; i++) {
      const schema = tokens[i] as SqlToken;
      const table = tokens[i + 2] as SqlToken;
      if (!isName(schema) || !isOp(tokens[i + 1], '.') || !isName(table) || isOp(tokens[i - 1], '.'))
        continue;
      const grant = this.tableKeys.get(identifierKey(table));
      if (grant?.schema !== undefined && asciiLower(grant.schema) === identifierKey(schema)) {
        this.dropped.add(i);
        this.dropped.add(i + 1);
      }
    }
  }

  /** The kept tokens with their original spacing; comments become one space; dropped runs take no space. */
  private render(end: number): string {
    const tokens = this.tokens;
    let out = '';
    let gapBeforeDroppedRun: string | undefined;
    for (let i = 0; i < end; i++) {
      const t = tokens[i] as SqlToken;
      const gap = i === 0 ? '' : this.source.slice((tokens[i - 1] as SqlToken).end, t.start);
      if (this.dropped.has(i)) {
        if (gapBeforeDroppedRun === undefined) gapBeforeDroppedRun = gap;
        continue;
      }
      const g = gapBeforeDroppedRun ?? gap;
      gapBeforeDroppedRun = undefined;
      if (out.length > 0 && g.length > 0) out += /^[\t\n\v\f\r ]*$/.test(g) ? g : ' ';
      out += t.text;
    }
    return out;
  }
}

/** Refuses NUL and other control characters (SQLite may stop reading at NUL) and unpaired surrogates. */
function checkCharacters(sql: string): void {
  for (let i = 0; i < sql.length; i++) {
    const c = sql.charCodeAt(i);
    if ((c < 0x20 && !(c >= 0x09 && c <= 0x0d)) || c === 0x7f) {
      throw new Refusal(
        `control character U+${c.toString(16).padStart(4, '0').toUpperCase()} at offset ${i}`,
      );
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = sql.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      throw new Refusal(`unpaired surrogate at offset ${i}`);
    }
    if (c >= 0xdc00 && c <= 0xdfff) throw new Refusal(`unpaired surrogate at offset ${i}`);
  }
}

/** printf conversions: `%[flags][width][.precision][l|ll]type`; widths and precisions must be small literals. */
function checkPrintfFormat(fmt: string, name: string): void {
  const spec = /%([-+ 0#!,]*)(\*|\d+)?(?:\.(\*|\d+))?(?:ll|l)?(.|$)/gs;
  for (const m of fmt.matchAll(spec)) {
    const width = m[2];
    const precision = m[3];
    for (const n of [width, precision]) {
      if (n === '*') throw new Refusal(`${name}() does not accept * widths`);
      if (n !== undefined && Number(n) > MAX_PRINTF_WIDTH) {
        throw new Refusal(`${name}() widths and precisions may be at most ${MAX_PRINTF_WIDTH}`);
      }
    }
  }
}

/** A parenthesised SELECT/VALUES, a CTE body, or the main SELECT: tokens strictly between `open` and `close`. */
interface QueryBlock {
  open: number;
  close: number;
  kind: 'root' | 'cte' | 'from' | 'expr';
  cte?: string;
}

const COMPOUND_KEYWORDS = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

/** See `Analysis.checkRowVisits`. */
function rowVisitBound(
  root: QueryBlock,
  blocks: readonly QueryBlock[],
  items: readonly { at: number; key: string; cte: boolean }[],
  aliases: readonly { at: number; key: string }[],
  tokens: readonly SqlToken[],
  tableRows: (key: string) => number,
): number {
  const all = [root, ...blocks];
  const inside = (b: QueryBlock, at: number) => at > b.open && at < b.close;
  /** The innermost block holding token `at` (blocks nest properly). */
  const owner = (at: number): QueryBlock | undefined => {
    let best: QueryBlock | undefined;
    for (const b of all) if (inside(b, at) && (!best || b.open > best.open)) best = b;
    return best;
  };
  const parent = new Map<QueryBlock, QueryBlock | undefined>(blocks.map((b) => [b, owner(b.open)]));
  const children = (b: QueryBlock) => blocks.filter((c) => parent.get(c) === b);
  const directItems = (b: QueryBlock) => items.filter((it) => owner(it.at) === b);
  const cteBlocks = new Map(blocks.filter((b) => b.kind === 'cte').map((b) => [b.cte as string, b]));
  const memo = new Map<QueryBlock, number>();

  /** Compound arm of token `at` within block `b`: compound keywords of `b` itself before it. */
  const armOf = (b: QueryBlock, at: number): number => {
    let arm = 0;
    for (let k = b.open + 1; k < at; k++) {
      const t = tokens[k] as SqlToken;
      if (t.kind === 'word' && COMPOUND_KEYWORDS.has(t.value) && owner(k) === b) arm++;
    }
    return arm;
  };

  const correlated = (s: QueryBlock): boolean => {
    const ownNames = new Set<string>();
    for (const it of items) if (inside(s, it.at)) ownNames.add(it.key);
    for (const a of aliases) if (inside(s, a.at)) ownNames.add(a.key);
    for (let k = s.open + 1; k < s.close; k++) {
      const t = tokens[k] as SqlToken;
      if (!isName(t) || !isOp(tokens[k + 1], '.') || isOp(tokens[k - 1], '.')) continue;
      const key = identifierKey(t);
      // `schema.table.column`: the qualifier that matters is the table.
      const table = isName(tokens[k + 2]) && isOp(tokens[k + 3], '.') ? tokens[k + 2] : undefined;
      if (!ownNames.has(key) && !(table && ownNames.has(identifierKey(table)))) return true;
    }
    const direct = new Set(directItems(s).map((it) => it.key));
    for (let p = parent.get(s); p; p = p.kind === 'root' ? undefined : parent.get(p)) {
      if (children(p).some((c) => c.kind === 'from')) return true;
      if (directItems(p).some((it) => !direct.has(it.key))) return true;
    }
    return false;
  };

  const bound = (b: QueryBlock): number => {
    const known = memo.get(b);
    if (known !== undefined) return known;
    const arms: { join: number; once: number; perRow: number }[] = [];
    const arm = (at: number) => {
      const n = armOf(b, at);
      while (arms.length <= n) arms.push({ join: 1, once: 0, perRow: 0 });
      return arms[n] as { join: number; once: number; perRow: number };
    };
    arm(b.close);
    for (const it of directItems(b)) {
      const cte = it.cte ? cteBlocks.get(it.key) : undefined;
      arm(it.at).join *= cte ? bound(cte) : tableRows(it.key);
    }
    for (const c of children(b)) {
      if (c.kind === 'from') arm(c.open).join *= bound(c);
      else if (c.kind === 'expr') {
        if (correlated(c)) arm(c.open).perRow += bound(c);
        else arm(c.open).once += bound(c);
      }
    }
    const total = arms.reduce((sum, a) => sum + a.join * (1 + a.perRow) + a.once, 0);
    memo.set(b, total);
    return total;
  };
  return bound(root);
}

function formatCount(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'unboundedly many';
}
