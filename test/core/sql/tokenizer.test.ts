import { describe, expect, it } from 'vitest';
import { identifierKey, type SqlToken, tokenizeSql } from '../../../core/sandbox/sql/tokenizer.ts';

const tokens = (sql: string): SqlToken[] => {
  const r = tokenizeSql(sql);
  if (!r.ok) throw new Error(r.reason);
  return r.tokens;
};
const kinds = (sql: string): string[] => tokens(sql).map((t) => `${t.kind}:${t.value}`);
const failure = (sql: string): string => {
  const r = tokenizeSql(sql);
  if (r.ok) throw new Error(`tokenized ${JSON.stringify(sql)}`);
  return r.reason;
};

describe('tokenizeSql', () => {
  it('reads literals and quoted identifiers with their escapes', () => {
    expect(kinds("select 'it''s', \"a\"\"b\", [x y], `c``d`, x'0aFF', X''")).toEqual([
      'word:SELECT',
      "string:it's",
      'op:,',
      'quoted:a"b',
      'op:,',
      'quoted:x y',
      'op:,',
      'quoted:c`d',
      'op:,',
      "blob:x'0aFF'",
      'op:,',
      "blob:X''",
    ]);
  });

  it('reads numbers the way SQLite does', () => {
    expect(kinds('1 1.5e-3 .5 0x1F 1_000 2E5 7.')).toEqual([
      'number:1',
      'number:1.5e-3',
      'number:.5',
      'number:0x1F',
      'number:1_000',
      'number:2E5',
      'number:7.',
    ]);
    expect(failure('SELECT 1abc')).toBe('malformed number at offset 7');
    expect(failure('SELECT 1__0')).toBe('malformed number at offset 7');
  });

  it('reads the longest operator', () => {
    expect(
      kinds("a->>'$' || b <> c == d != e <= f >= g << h >> i -> j").filter((k) => k.startsWith('op')),
    ).toEqual(['op:->>', 'op:||', 'op:<>', 'op:==', 'op:!=', 'op:<=', 'op:>=', 'op:<<', 'op:>>', 'op:->']);
    expect(failure('SELECT 1 ! 2')).toBe('unexpected character "!" at offset 9');
  });

  it('drops comments and whitespace but keeps offsets into the source', () => {
    const sql = 'SELECT/* a */1 -- b\n,\v2';
    const ts = tokens(sql);
    expect(ts.map((t) => t.text)).toEqual(['SELECT', '1', ',', '2']);
    for (const t of ts) expect(sql.slice(t.start, t.end)).toBe(t.text);
    expect(kinds('SELECT 1 -- unterminated line comment is fine')).toEqual(['word:SELECT', 'number:1']);
    expect(failure('SELECT 1 /* never closed')).toBe('unterminated /* comment at offset 9');
  });

  it('treats every non-ASCII character as part of an identifier, as SQLite does', () => {
    expect(kinds('ＳＥＬＥＣＴ 1')).toEqual(['word:ＳＥＬＥＣＴ', 'number:1']);
    expect(kinds('SELECT\u00a0x')).toEqual(['word:SELECT\u00a0X']);
    expect(kinds('sеlect')).toEqual(['word:SеLECT']); // Cyrillic е is not folded
    expect(identifierKey(tokens('"CoFFee_DATA"')[0] as SqlToken)).toBe('coffee_data');
    expect(identifierKey(tokens('\u212Aey')[0] as SqlToken)).toBe('\u212Aey'); // Kelvin sign is not folded to k
  });

  it('reads x followed by a quote as a blob and other words followed by a quote as word + string', () => {
    expect(kinds("x'41' xy'41'")).toEqual(["blob:x'41'", 'word:XY', 'string:41']);
  });

  it('refuses bind parameters, unterminated literals and malformed blobs', () => {
    for (const p of ['?', '?1', ':x', '@x', '$x', '#x'])
      expect(failure(`SELECT ${p}`)).toMatch(/^bind parameters/);
    expect(failure("SELECT 'a")).toBe('unterminated string literal at offset 7');
    expect(failure('SELECT "a')).toBe('unterminated quoted identifier at offset 7');
    expect(failure('SELECT `a')).toBe('unterminated quoted identifier at offset 7');
    expect(failure('SELECT [a')).toBe('unterminated [identifier] at offset 7');
    expect(failure("SELECT x'4'")).toBe('malformed blob literal at offset 7');
    expect(failure("SELECT x'4G'")).toBe('malformed blob literal at offset 7');
  });
});
