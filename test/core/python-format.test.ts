import { describe, expect, it } from 'vitest';
import {
  PyDict,
  PyFloat,
  PyInt,
  PyTuple,
  pyFloatRepr,
  pyFormatFixed,
  pyJsonDumps,
  pyRepr,
  pyRound,
  pyStrRepr,
} from '../../core/util/python-format.ts';

describe('pyFloatRepr (CPython 3.11 repr(float))', () => {
  it.each([
    [2031, '2031.0'],
    [0.08, '0.08'],
    [-73.85535, '-73.85535'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [1e16, '1e+16'],
    [1234567890123456, '1234567890123456.0'],
    [1.5e300, '1.5e+300'],
    [-0, '-0.0'],
    [0, '0.0'],
    [Number.NaN, 'nan'],
    [Number.POSITIVE_INFINITY, 'inf'],
    [8.849999999999994, '8.849999999999994'],
    [0.1 + 0.2, '0.30000000000000004'],
    [123.456e-10, '1.23456e-08'],
  ])('%s → %s', (x, want) => {
    expect(pyFloatRepr(x)).toBe(want);
  });
});

describe('pyStrRepr', () => {
  it('chooses quotes like Python', () => {
    expect(pyStrRepr('abc')).toBe("'abc'");
    expect(pyStrRepr("Claire O'Shea")).toBe('"Claire O\'Shea"');
    expect(pyStrRepr(`it's "x"`)).toBe(`'it\\'s "x"'`);
  });
  it('escapes control characters and keeps printable non-ASCII', () => {
    expect(pyStrRepr('a\nb\t\\')).toBe("'a\\nb\\t\\\\'");
    expect(pyStrRepr('\u0001é中')).toBe("'\\x01é中'");
  });
});

describe('pyRepr', () => {
  it('renders containers', () => {
    const v = new PyDict([
      ['weight', new PyInt(1)],
      ['papers', ['A']],
      ['n_citation', [new PyInt(0)]],
    ]);
    expect(pyRepr(v)).toBe("{'weight': 1, 'papers': ['A'], 'n_citation': [0]}");
    expect(pyRepr(new PyTuple(['2018-10-29', new PyFloat(8.849999999999994)]))).toBe(
      "('2018-10-29', 8.849999999999994)",
    );
    expect(pyRepr(new PyTuple([new PyInt(1)]))).toBe('(1,)');
    expect(pyRepr([null, true, false])).toBe('[None, True, False]');
  });
});

describe('pyJsonDumps', () => {
  it('uses Python separators and escapes non-ASCII', () => {
    expect(pyJsonDumps({ Close: ['69.55', '71.15'] })).toBe('{"Close": ["69.55", "71.15"]}');
    expect(pyJsonDumps({ name: 'Café 😀' })).toBe('{"name": "Caf\\u00e9 \\ud83d\\ude00"}');
    expect(pyJsonDumps([1235, Number.NaN, new PyInt(3)])).toBe('[1235.0, NaN, 3]');
  });
});

describe('pyFormatFixed / pyRound (Python format(x, ".Nf") and round(x, N))', () => {
  it.each([
    [0.25, 1, '0.2'],
    [0.35, 1, '0.3'], // 0.35 is 0.34999… in binary
    [0.45, 1, '0.5'], // 0.45 is 0.450000000000000011… in binary
    [2.675, 2, '2.67'],
    [1.5, 0, '2'],
    [2.5, 0, '2'],
    [-0.04, 1, '-0.0'],
    [106.65, 1, '106.7'],
    [9.995, 2, '9.99'],
    [123456.789, 2, '123456.79'],
    [0, 1, '0.0'],
    [1e-20, 3, '0.000'],
  ])('format(%s, ".%sf") = %s', (x, d, want) => {
    expect(pyFormatFixed(x, d)).toBe(want);
  });
  it('round() returns floats that render like Python', () => {
    expect(pyFloatRepr(pyRound(0.30000000000000004, 2))).toBe('0.3');
    expect(pyFloatRepr(pyRound(-0.0849, 2))).toBe('-0.08');
    expect(pyFloatRepr(pyRound(2.0, 2))).toBe('2.0');
    expect(pyRound(2.675, 2)).toBe(2.67);
  });
});
