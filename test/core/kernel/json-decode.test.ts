import { describe, expect, it } from 'vitest';
import { PyDict, PyFloat, PyInt, pyRepr } from '../../../core/util/python-format.ts';
import { decodeActionInput, paramsToRecord, pyJsonLoads } from '../../../core/world/kernel/json-decode.ts';

// Expected texts were produced by CPython 3.11.7: json.loads(text, strict=False).
describe('pyJsonLoads errors (CPython 3.11 messages and positions)', () => {
  it.each([
    ["{'DBName': 'flights'}", 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['{"a": 1 "b": 2}', "Expecting ',' delimiter: line 1 column 9 (char 8)"],
    ['{"a": 1}}', 'Extra data: line 1 column 9 (char 8)'],
    ['{"a": "\\x"}', 'Invalid \\escape: line 1 column 8 (char 7)'],
    ['{"condition": "x"} {"b": 1}', 'Extra data: line 1 column 20 (char 19)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['{"a": }', 'Expecting value: line 1 column 7 (char 6)'],
    ['{"a": 1,}', 'Expecting property name enclosed in double quotes: line 1 column 9 (char 8)'],
    ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['{"a": "abc', 'Unterminated string starting at: line 1 column 7 (char 6)'],
    ['{"a": "abc\\', 'Unterminated string starting at: line 1 column 7 (char 6)'],
    ['{"a": "\\u12G4"}', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
    ['{"a": "\\u123', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
    ['{"a": "\\u0041"', "Expecting ',' delimiter: line 1 column 15 (char 14)"],
    ['{"a": "\\ud83d\\uZZZZ"}', 'Invalid \\uXXXX escape: line 1 column 15 (char 14)'],
    ['{"a": [1, 2,]}', 'Expecting value: line 1 column 13 (char 12)'],
    ['{"a": [1 2]}', "Expecting ',' delimiter: line 1 column 10 (char 9)"],
    ['{"a":\n  "b",\n  c}', 'Expecting property name enclosed in double quotes: line 3 column 3 (char 15)'],
    ['{"é😀": 1, x}', 'Expecting property name enclosed in double quotes: line 1 column 11 (char 10)'],
    ['{"a": -}', 'Expecting value: line 1 column 7 (char 6)'],
    ['{"a": 01}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['{"a": 1.}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['{"a": 1e}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['{"a": tru}', 'Expecting value: line 1 column 7 (char 6)'],
    ['\ufeff{"a": 1}', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['   ', 'Expecting value: line 1 column 4 (char 3)'],
  ])('%j → %s', (text, message) => {
    expect(pyJsonLoads(text)).toEqual({ ok: false, message });
  });

  it('reports RecursionError for absurd nesting instead of overflowing the stack', () => {
    expect(pyJsonLoads(`{"a": ${'['.repeat(5000)}`)).toEqual({
      ok: false,
      message: 'maximum recursion depth exceeded while decoding a JSON array from a unicode string',
    });
  });
});

describe('pyJsonLoads values', () => {
  const repr = (text: string): string => {
    const r = pyJsonLoads(text);
    if (!r.ok) throw new Error(r.message);
    return pyRepr(r.value);
  };

  it.each([
    ['{"a": "line1\nline2\ttab"}', "{'a': 'line1\\nline2\\ttab'}"],
    ['{"a": 1, "b": 2, "a": 3}', "{'a': 3, 'b': 2}"],
    ['{"answer": 12323}', "{'answer': 12323}"],
    ['{"answer": 22.50}', "{'answer': 22.5}"],
    ['{"answer": 1e3}', "{'answer': 1000.0}"],
    ['{"answer": -0}', "{'answer': 0}"],
    ['{"answer": 123456789012345678901234567890}', "{'answer': 123456789012345678901234567890}"],
    ['{"answer": NaN, "b": -Infinity, "c": Infinity}', "{'answer': nan, 'b': -inf, 'c': inf}"],
    ['{"a": "\\ud83d\\ude00 \\u00e9 \\/"}', "{'a': '😀 é /'}"],
    ['{ }', '{}'],
    ['{"a": {"b": [true, false, null]}}', "{'a': {'b': [True, False, None]}}"],
    [' \n{"k": "v"}\r\n ', "{'k': 'v'}"],
  ])('%j', (text, expected) => {
    expect(repr(text)).toBe(expected);
  });

  it('keeps Python number types and key order', () => {
    const r = pyJsonLoads('{"2": 1, "b": 2.0, "1": 3}');
    expect(r.ok && r.value instanceof PyDict).toBe(true);
    const dict = (r as { value: PyDict }).value;
    expect(dict.entries.map(([k]) => k)).toEqual(['2', 'b', '1']);
    expect(dict.entries[0]?.[1]).toBeInstanceOf(PyInt);
    expect(dict.entries[1]?.[1]).toBeInstanceOf(PyFloat);
  });

  it('keeps an unpaired surrogate escape as a lone code unit', () => {
    const r = pyJsonLoads('{"a": "\\ud83d x"}');
    expect(r.ok && (r.value as PyDict).entries[0]?.[1]).toBe('\ud83d x');
  });
});

describe('decodeActionInput', () => {
  it('returns the parameter dict', () => {
    const r = decodeActionInput('{"DBName": "flights"}');
    expect(r.ok).toBe(true);
    expect(r.ok && paramsToRecord(r.params)).toEqual({ DBName: 'flights' });
  });

  it('prefixes decoder errors with "argument error: "', () => {
    expect(decodeActionInput("{'condition': 'date=2022/03/25'}")).toEqual({
      ok: false,
      observation:
        'argument error: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)',
    });
  });

  it('rejects a JSON value that is not an object', () => {
    expect(decodeActionInput('[1, 2]')).toEqual({
      ok: false,
      observation: 'argument error: the action input must be a JSON object, not list',
    });
    expect(decodeActionInput('"s"')).toEqual({
      ok: false,
      observation: 'argument error: the action input must be a JSON object, not str',
    });
  });
});
