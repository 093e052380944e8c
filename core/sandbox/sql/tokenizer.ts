/**
 * A tokenizer for SQLite's SQL dialect, written to agree with SQLite's own (`src/tokenize.c`, 3.46+) on every
 * token boundary. The SQL guard reasons about tokens, so any place where this tokenizer and SQLite disagreed
 * would be a place to hide a keyword; where SQLite is lenient (an unterminated block comment is accepted up to
 * the end of the input) this tokenizer refuses instead.
 *
 * Whitespace and comments produce no tokens: the gaps between tokens (`start`/`end` offsets) carry them.
 * Character classes follow SQLite, which works on UTF-8 bytes: every code unit at or above 0x80 is an
 * identifier character, so a Unicode look-alike (`ＳＥＬＥＣＴ`, Cyrillic `ѕ`, a no-break space) is part of an
 * identifier, never a keyword or a separator — exactly as SQLite sees it.
 */

export type SqlTokenKind =
  /** An unquoted name or keyword (`SELECT`, `coffee_data`). */
  | 'word'
  /** A quoted identifier: `"x"`, `[x]` or `` `x` ``. Never a keyword. */
  | 'quoted'
  /** A string literal `'...'`. */
  | 'string'
  /** A blob literal `x'0A1B'`. */
  | 'blob'
  | 'number'
  /** Punctuation and operators: `( ) , ; . + - * / % = == < <= <> << > >= >> != | || & ~ -> ->>`. */
  | 'op';

export interface SqlToken {
  kind: SqlTokenKind;
  /** The token exactly as written. */
  text: string;
  start: number;
  end: number;
  /**
   * `word`: the text in ASCII upper case (SQLite folds only ASCII when matching keywords and names);
   * `quoted`: the identifier with its quotes removed and doubled quotes undone; `string`: the literal's value;
   * otherwise the text.
   */
  value: string;
}

export type TokenizeResult = { ok: true; tokens: SqlToken[] } | { ok: false; reason: string };

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** ASCII-only lower-casing, matching SQLite's case-insensitive comparison of names. */
export function asciiLower(s: string): string {
  // On an ASCII string toLowerCase() changes exactly A-Z; elsewhere it would also fold e.g. the Kelvin sign.
  return ASCII_ONLY.test(s)
    ? s.toLowerCase()
    : s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

function asciiUpper(s: string): string {
  return ASCII_ONLY.test(s)
    ? s.toUpperCase()
    : s.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32));
}

/** The name a word or quoted identifier denotes, folded for comparison (ASCII case-insensitive). */
export function identifierKey(token: SqlToken): string {
  return asciiLower(token.kind === 'quoted' ? token.value : token.text);
}

const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isAlpha = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** SQLite `IdChar`: letters, digits, `_`, `$`, and every non-ASCII unit. */
const isIdChar = (c: number): boolean => isAlpha(c) || isDigit(c) || c === 0x5f || c === 0x24 || c >= 0x80;
/** Characters that can start an identifier (digits start numbers, `$` starts a bind parameter). */
const isIdStart = (c: number): boolean => isAlpha(c) || c === 0x5f || c >= 0x80;

/** Two- and three-character operators, longest first. */
const MULTI_CHAR_OPS = ['->>', '->', '==', '<=', '<>', '<<', '>=', '>>', '!=', '||'];
const MULTI_CHAR_OP_START = new Set(MULTI_CHAR_OPS.map((o) => o[0] as string));
const SINGLE_CHAR_OPS = new Set([
  '(',
  ')',
  ',',
  ';',
  '.',
  '+',
  '-',
  '*',
  '/',
  '%',
  '=',
  '<',
  '>',
  '|',
  '&',
  '~',
]);

export function tokenizeSql(sql: string): TokenizeResult {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  const code = (i: number): number => (i < n ? sql.charCodeAt(i) : -1);
  const fail = (reason: string, at: number): TokenizeResult => ({
    ok: false,
    reason: `${reason} at offset ${at}`,
  });
  const push = (kind: SqlTokenKind, start: number, end: number, value?: string): void => {
    const text = sql.slice(start, end);
    tokens.push({ kind, text, start, end, value: value ?? (kind === 'word' ? asciiUpper(text) : text) });
  };

  let i = 0;
  while (i < n) {
    const c = code(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === 0x2d && code(i + 1) === 0x2d) {
      // `--` comment, to the end of the line (or of the input).
      i += 2;
      while (i < n && code(i) !== 0x0a) i++;
      continue;
    }
    if (c === 0x2f && code(i + 1) === 0x2a) {
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) return fail('unterminated /* comment', i);
      i = close + 2;
      continue;
    }
    const start = i;
    if (c === 0x27 || c === 0x22 || c === 0x60) {
      // '...' string, "..." or `...` identifier; the delimiter is escaped by doubling it.
      const quote = sql[i] as string;
      let value = '';
      i++;
      for (;;) {
        if (i >= n)
          return fail(
            quote === "'" ? 'unterminated string literal' : 'unterminated quoted identifier',
            start,
          );
        if (sql[i] === quote) {
          if (sql[i + 1] === quote) {
            value += quote;
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += sql[i];
        i++;
      }
      push(quote === "'" ? 'string' : 'quoted', start, i, value);
      continue;
    }
    if (c === 0x5b) {
      const close = sql.indexOf(']', i + 1);
      if (close < 0) return fail('unterminated [identifier]', i);
      i = close + 1;
      push('quoted', start, i, sql.slice(start + 1, close));
      continue;
    }
    if ((c === 0x78 || c === 0x58) && code(i + 1) === 0x27) {
      // x'..' blob: an even number of hex digits, then the closing quote.
      let j = i + 2;
      while (isHexDigit(code(j))) j++;
      if (code(j) !== 0x27 || (j - i - 2) % 2 !== 0) return fail('malformed blob literal', i);
      i = j + 1;
      push('blob', start, i);
      continue;
    }
    if (isDigit(c) || (c === 0x2e && isDigit(code(i + 1)))) {
      i = scanNumber(sql, i);
      if (isIdChar(code(i))) return fail('malformed number', start);
      push('number', start, i);
      continue;
    }
    if (isIdStart(c)) {
      while (i < n && isIdChar(code(i))) i++;
      push('word', start, i);
      continue;
    }
    if (c === 0x3f || c === 0x3a || c === 0x40 || c === 0x24 || c === 0x23) {
      return fail('bind parameters are not supported', i);
    }
    const op = MULTI_CHAR_OP_START.has(sql[i] as string)
      ? MULTI_CHAR_OPS.find((o) => sql.startsWith(o, i))
      : undefined;
    if (op) {
      i += op.length;
      push('op', start, i);
      continue;
    }
    if (SINGLE_CHAR_OPS.has(sql[i] as string)) {
      i++;
      push('op', start, i);
      continue;
    }
    return fail(`unexpected character ${JSON.stringify(sql[i])}`, i);
  }
  return { ok: true, tokens };
}

/** SQLite's number scanner: hex integers, decimals with fraction/exponent, `_` digit separators. */
function scanNumber(sql: string, i: number): number {
  const code = (k: number): number => (k < sql.length ? sql.charCodeAt(k) : -1);
  const digitsFrom = (k: number, digit: (c: number) => boolean): number => {
    while (digit(code(k)) || (code(k) === 0x5f && digit(code(k + 1)))) k++;
    return k;
  };
  if (code(i) === 0x30 && (code(i + 1) === 0x78 || code(i + 1) === 0x58) && isHexDigit(code(i + 2))) {
    return digitsFrom(i + 2, isHexDigit);
  }
  i = digitsFrom(i, isDigit);
  if (code(i) === 0x2e) i = digitsFrom(i + 1, isDigit);
  if (
    (code(i) === 0x65 || code(i) === 0x45) &&
    (isDigit(code(i + 1)) || ((code(i + 1) === 0x2b || code(i + 1) === 0x2d) && isDigit(code(i + 2))))
  ) {
    i = digitsFrom(i + 2, isDigit);
  }
  return i;
}
