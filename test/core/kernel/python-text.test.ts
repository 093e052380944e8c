import { describe, expect, it } from 'vitest';
import { convertAgendaTime } from '../../../core/world/kernel/agenda-time.ts';
import {
  isPyWhitespace,
  parsePythonFloat,
  pySplit,
  pyStrCompare,
  pyStrip,
} from '../../../core/world/kernel/python-text.ts';
import { compilePySearch, RegexSyntaxError } from '../../../core/world/kernel/safe-regex.ts';

describe('Python whitespace, strip and split', () => {
  it('matches str.isspace exactly (CPython 3.11 list)', () => {
    const expected = [
      0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002,
      0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
    ];
    const found: number[] = [];
    for (let cp = 0; cp <= 0xffff; cp++) if (isPyWhitespace(cp)) found.push(cp);
    expect(found).toEqual(expected);
  });

  it('strips and splits like Python (no U+FEFF, but U+001F and U+0085)', () => {
    expect(pyStrip('\u001f a b \u0085')).toBe('a b');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa');
    expect(pySplit('  a\u00a0b\n\tc  ')).toEqual(['a', 'b', 'c']);
    expect(pySplit('')).toEqual([]);
    expect(pySplit('a b c d', 2)).toEqual(['a', 'b']);
  });
});

describe('parsePythonFloat (values checked against CPython 3.11 float())', () => {
  it.each([
    ['1699 ', 1699],
    [' 42 ', 42],
    ['+1.5', 1.5],
    ['-2', -2],
    ['1e3', 1000],
    ['1E+05', 100000],
    ['1_000', 1000],
    ['1.', 1],
    ['.5', 0.5],
    ['inf', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['iNfInItY', Number.POSITIVE_INFINITY],
    ['1e1_0', 1e10],
    ['١٢٣', 123],
    ['１２.５', 12.5],
    ['\u00a012\u2003', 12],
  ])('%j → %d', (s, want) => {
    expect(parsePythonFloat(s)).toBe(want);
  });

  it('parses nan in any case and sign', () => {
    expect(parsePythonFloat('NaN')).toBeNaN();
    expect(parsePythonFloat('+nan')).toBeNaN();
  });

  it.each([
    '1__000',
    '_1',
    '1_',
    '1_.5',
    '1._5',
    '.',
    '',
    ' ',
    '0x10',
    '10%',
    'infinit',
    '1e_10',
    '1 2',
    '1e',
    'e1',
    '--1',
    '1.5.2',
    '1,000',
    '\u200b1',
  ])('rejects %j', (s) => {
    expect(parsePythonFloat(s)).toBeNull();
  });
});

describe('pyStrCompare', () => {
  it('orders by code point, also beyond the BMP', () => {
    expect(pyStrCompare('9.0', '10')).toBeGreaterThan(0);
    expect(pyStrCompare('nan', '99')).toBeGreaterThan(0);
    expect(pyStrCompare('12:00:00', '12:00')).toBeGreaterThan(0);
    expect(pyStrCompare('abc', 'abc')).toBe(0);
    // U+1F600 > U+FF5E in Python; UTF-16 code units would say the opposite.
    expect(pyStrCompare('😀', '～')).toBeGreaterThan(0);
    expect('😀' < '～').toBe(true);
  });
});

describe('convertAgendaTime (strptime %I:%M %p, then %I %p)', () => {
  it.each([
    ['9:00 AM', '09:00:00'],
    ['6 PM', '18:00:00'],
    ['12:00 PM', '12:00:00'],
    ['12 AM', '00:00:00'],
    ['11:30 pm', '23:30:00'],
    ['07:05  AM', '07:05:00'],
    ['1:5 PM', '13:05:00'],
  ])('%s → %s', (raw, want) => {
    expect(convertAgendaTime(raw)).toBe(want);
  });

  it.each(['12:00 PM (day 1)', '13:00 PM', '9:00', '9:00 AM ', ' 9:00 AM', '0 AM', '9:60 AM', '09:00:00'])(
    'keeps %j',
    (raw) => {
      expect(convertAgendaTime(raw)).toBeNull();
    },
  );
});

describe('compilePySearch (re.search semantics, checked against CPython 3.11)', () => {
  const texts = [
    'Restaurants, Spanish, Tapas',
    'Nightlife, Pubs, Bars, American (Traditional), Restaurants',
    'None',
    'Café, Coffee & Tea',
    'Bars\nPubs',
    `${'a'.repeat(40)}!`,
  ];
  it.each([
    ['Spanish', [true, false, false, false, false, false]],
    ['spanish', [false, false, false, false, false, false]],
    ['American (Traditional)', [false, false, false, false, false, false]],
    ['American \\(Traditional\\)', [false, true, false, false, false, false]],
    ['(?i)spanish', [true, false, false, false, false, false]],
    ['^Restaurants', [true, false, false, false, false, false]],
    ['Tapas$', [true, false, false, false, false, false]],
    ['Pubs$', [false, false, false, false, true, false]],
    ['\\bBar\\b', [false, false, false, false, false, false]],
    ['\\bBars\\b', [false, true, false, false, true, false]],
    ['Caf.', [false, false, false, true, false, false]],
    ['[Cc]offee', [false, false, false, true, false, false]],
    ['[^a-zA-Z ,]', [false, true, false, true, true, true]],
    ['Tea|Tapas', [true, false, false, true, false, false]],
    ['a{3,}', [false, false, false, false, false, true]],
    ['x{2', [false, false, false, false, false, false]],
    ['Bars.Pubs', [false, false, false, false, false, false]],
    ['(?s)Bars.Pubs', [false, false, false, false, true, false]],
    ['(?i:SPAN)ish', [true, false, false, false, false, false]],
    ['', [true, true, true, true, true, true]],
    ['\\d', [false, false, false, false, false, false]],
    ['A{,2}m', [false, true, false, false, false, false]],
    ['\\w+\\s\\(', [false, true, false, false, false, false]],
    ['(?P<x>Pub)s', [false, true, false, false, true, false]],
    ['Caf\\u00e9', [false, false, false, true, false, false]],
    ['\\x41merican', [false, true, false, false, false, false]],
    ['[]a]', [true, true, false, true, true, true]],
    ['[^]]', [true, true, true, true, true, true]],
    ['\\AResta', [true, false, false, false, false, false]],
    ['Tapas\\Z', [true, false, false, false, false, false]],
    ['N.ne', [false, false, true, false, false, false]],
    ['Bars(?#comment)', [false, true, false, false, true, false]],
    ['^(Pubs)$', [false, false, false, false, false, false]],
    ['(?m)^Pubs$', [false, false, false, false, true, false]],
    ['(a+)+$', [false, false, false, true, false, false]],
    ['(a|a)*b', [false, true, false, false, true, false]],
    ['(.*)*x', [false, false, false, false, false, false]],
  ])('%j', (pattern, want) => {
    const re = compilePySearch(pattern);
    expect(texts.map((t) => re.search(t))).toEqual(want);
  });

  it.each(['[', '(', ')', '*a', 'a**', '\\q', 'a{3,2}', '[a-', '[z-a]'])('rejects invalid %j', (pattern) => {
    expect(() => compilePySearch(pattern)).toThrow(RegexSyntaxError);
  });

  it.each(['(\\w)\\1', '(?=Bar)', '(?x)a b', 'a*+', '(?>a)'])('rejects unsupported %j', (pattern) => {
    expect(() => compilePySearch(pattern)).toThrow(RegexSyntaxError);
  });

  it('stays linear on patterns that make backtracking engines explode', () => {
    const text = `${'a'.repeat(5000)}!`;
    const started = performance.now();
    expect(compilePySearch('(a+)+$').search(text)).toBe(false);
    expect(compilePySearch('(a|aa)*(a|aa)*b').search(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses counted repetitions that would blow up the program', () => {
    expect(() => compilePySearch('(abc){10000}')).toThrow(RegexSyntaxError);
    expect(compilePySearch('a{2,4}b').search('xaab')).toBe(true);
    expect(compilePySearch('a{2,4}b').search('xab')).toBe(false);
  });
});
