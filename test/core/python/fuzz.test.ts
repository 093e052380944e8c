import { describe, expect, it } from 'vitest';
import { runPythonTool } from '../../../core/sandbox/python/tool.ts';
import { Rng } from '../../../core/util/random.ts';
import { PROGRAMS } from './program-table.ts';

const ALPHABET = [
  ...'abcxyzABC_0123456789',
  ...' \t\n\n\n    ',
  ...'()[]{}:;,.=+-*/%<>!&|^~@\\#\'"`$?',
  '\r',
  '\0',
  '\x0b',
  'é',
  '中',
  '😀',
  '\u2028',
  '\ufeff',
];

const TOKENS = [
  'print(',
  ')',
  'def ',
  'f',
  'x',
  'lambda ',
  ':',
  'if ',
  'else',
  'elif ',
  'for ',
  ' in ',
  'while ',
  'return ',
  'yield ',
  'try:',
  'except',
  'finally:',
  'raise ',
  'import ',
  'math',
  'numpy as np',
  'from ',
  'class ',
  'with ',
  'global ',
  'nonlocal ',
  'del ',
  'assert ',
  '=',
  '==',
  '+',
  '**',
  '//',
  '%',
  '[',
  ']',
  '{',
  '}',
  ',',
  '.',
  '*',
  '0',
  '1',
  '2.5',
  '1e308',
  '10**',
  "'s'",
  'f"{x}"',
  '"""',
  'None',
  'True',
  'not ',
  'and ',
  'or ',
  '\n',
  '\n    ',
  '\n        ',
  'range(',
  'len(',
  'sorted(',
  'sum(',
  '.append(',
  '.split(',
  '__class__',
  'continue',
  'break',
];

function randomChars(rng: Rng): string {
  let s = '';
  const n = rng.int(0, 80);
  for (let i = 0; i < n; i++) s += rng.pick(ALPHABET);
  return s;
}

function tokenSoup(rng: Rng): string {
  let s = '';
  const n = rng.int(1, 40);
  for (let i = 0; i < n; i++) s += rng.pick(TOKENS);
  return s;
}

function mutate(rng: Rng, code: string): string {
  let s = code;
  const edits = rng.int(1, 4);
  for (let e = 0; e < edits; e++) {
    const at = rng.int(0, s.length);
    const kind = rng.int(0, 2);
    if (kind === 0) s = s.slice(0, at) + s.slice(at + rng.int(1, 5));
    else if (kind === 1) s = s.slice(0, at) + rng.pick(ALPHABET) + s.slice(at);
    else s = s.slice(0, at) + rng.pick(TOKENS) + s.slice(at);
  }
  return s;
}

describe('fuzzing: runPythonTool never throws', () => {
  const rng = new Rng('python-sandbox-fuzz');
  const inputs: string[] = [];
  for (let i = 0; i < 150; i++) inputs.push(randomChars(rng));
  for (let i = 0; i < 150; i++) inputs.push(tokenSoup(rng));
  for (let i = 0; i < 200; i++)
    inputs.push(mutate(rng, (rng.pick(PROGRAMS) as readonly [string, string])[0]));

  it('returns an observation and a JSON-serialisable namespace for every input', () => {
    const internal: string[] = [];
    for (const code of inputs) {
      const r = runPythonTool(code, null, { maxSteps: 50_000 });
      expect(typeof r.observation).toBe('string');
      expect(r.observation.length).toBeGreaterThan(0);
      expect(() => JSON.stringify(r.namespace)).not.toThrow();
      // A SystemError observation would mean an interpreter bug surfaced as a JS exception.
      if (r.observation.startsWith('SystemError'))
        internal.push(`${JSON.stringify(code)} -> ${r.observation}`);
    }
    expect(internal).toEqual([]);
  });

  it('also survives garbage in place of the namespace and non-string code', () => {
    const garbage: unknown[] = [
      { v: 1, vars: [['x', { r: 5 }]], heap: [] },
      { v: 1, vars: [['x', { i: 'not a number' }]], heap: [] },
      {
        v: 1,
        vars: [[5, 'x']],
        heap: [{ t: 'set', frozen: false, mask: 7, fill: 9, finger: 0, v: [[99, 1]], dummies: [] }],
      },
      {
        v: 1,
        vars: [['s', { r: 0 }]],
        heap: [{ t: 'scope', kind: 'function', locals: 5, globals: [], vars: [], parent: null }],
      },
      { v: 1, vars: [['m', { r: 0 }]], heap: [{ t: 'module', name: 'os' }] },
      { v: 1, vars: [['b', { r: 0 }]], heap: [{ t: 'builtin', ref: { kind: 'builtin', name: 'open' } }] },
    ];
    for (const ns of garbage) {
      const r = runPythonTool('print(1)', ns as never);
      expect(r.observation).toBe('1');
    }
    for (const code of [undefined, null, 42, { a: 1 }] as unknown[]) {
      const r = runPythonTool(code as string, null);
      expect(typeof r.observation).toBe('string');
    }
  });
});
