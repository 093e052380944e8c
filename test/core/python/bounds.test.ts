import { describe, expect, it } from 'vitest';
import { CAUGHT_EXCEPTION_STEPS, Interpreter } from '../../../core/sandbox/python/interpreter.ts';
import { parseModule } from '../../../core/sandbox/python/parser.ts';
import { PySyntaxError } from '../../../core/sandbox/python/syntax-error.ts';
import {
  DEFAULT_LIMITS,
  type PyNamespaceSnapshot,
  runPythonCode,
  TIMEOUT_OBSERVATION,
} from '../../../core/sandbox/python/tool.ts';

// Issue 13 items 2–4: program size, exception-catching loops and client-sent namespaces are bounded.

describe('program size (issue 13 item 2)', () => {
  it('refuses a program longer than the limit before parsing it', () => {
    const huge = 'pass\n'.repeat(120_000);
    expect(runPythonCode(huge, null).observation).toBe(
      `MemoryError: the program is longer than ${DEFAULT_LIMITS.maxProgramChars} characters`,
    );
    expect(runPythonCode(`${huge}x = (`, null).observation).toMatch(/^MemoryError: the program is longer/);
    expect(
      runPythonCode('pass\n'.repeat(10).concat('print(1)'), null, { maxProgramChars: 20 }).observation,
    ).toMatch(/^MemoryError/);
  });

  it('still accepts a program at the limit, with line numbers counted right at every statement', () => {
    const lines = Math.floor(DEFAULT_LIMITS.maxProgramChars / 5) - 2;
    const body = 'pass\n'.repeat(lines);
    expect(runPythonCode(`${body}print(7)`, null).observation).toBe('7\n');
    expect(runPythonCode(`${body}x = (`, null).observation).toBe(
      `SyntaxError: '(' was never closed (<unknown>, line ${lines + 1})`,
    );
    const module = parseModule('a = 1\nif a:\n    b = 2\n    c = 3\nd = 4\r\ne = 5\n');
    expect(module.body.map((s) => [s.line, s.endLine])).toEqual([
      [1, 1],
      [2, 4],
      [5, 5],
      [6, 6],
    ]);
    expect(() => parseModule(`${'x = 1\n'.repeat(3000)}def`)).toThrow(PySyntaxError);
  });
});

describe('exceptions cost steps (issue 13 item 3)', () => {
  const loop = (body: string) =>
    `for i in range(1000):\n  try:\n    ${body}\n  except Exception:\n    pass\nprint('done')`;

  it('times out a RecursionError caught and retried at the recursion limit', () => {
    const code = 'def f(n):\n try:\n  return f(n + 1)\n except Exception:\n  return f(n + 1)\nf(0)';
    expect(runPythonCode(code, null).observation).toBe(TIMEOUT_OBSERVATION);
  });

  it('charges each caught exception, so the same loop fits the budget only without raising', () => {
    const budget = 1000 * CAUGHT_EXCEPTION_STEPS;
    expect(runPythonCode(loop('x = i + 1'), null, { maxSteps: budget }).observation).toBe('done\n');
    expect(runPythonCode(loop('x = 1 / 0'), null, { maxSteps: budget }).observation).toBe(
      TIMEOUT_OBSERVATION,
    );
    expect(runPythonCode(loop('x = 1 / 0'), null, { maxSteps: 2 * budget }).observation).toBe('done\n');
  });

  it('charges the calls an exception unwinds', () => {
    const deep = 'def g(n):\n  return g(n + 1)\n';
    const code = `${deep}${loop('g(0)')}`;
    // 1000 RecursionErrors, each unwinding 200 calls: far beyond a budget the same calls fit in without raising.
    const plain = `def h(n):\n  return 0 if n >= 199 else h(n + 1)\nfor i in range(1000):\n  h(0)\nprint('done')`;
    const steps = 4_000_000;
    expect(runPythonCode(plain, null, { maxSteps: steps }).observation).toBe('done\n');
    expect(runPythonCode(code, null, { maxSteps: steps }).observation).toBe(TIMEOUT_OBSERVATION);
  });
});

describe('client-sent namespace (issue 13 item 4)', () => {
  const run = (code: string, namespace: unknown) =>
    runPythonCode(code, namespace as PyNamespaceSnapshot).observation;

  it('never resolves a heap reference to a JavaScript value', () => {
    for (const r of ['constructor', '__proto__', 'toString', 'length', -1, 1.5, 99]) {
      const ns = { v: 1, vars: [['x', { r }]], heap: [{ t: 'list', v: [] }] };
      expect(run('print(type(x).__name__ if False else x)', ns), String(r)).toMatch(/^NameError|^None/);
    }
    // the writer's own snapshot still restores
    const ns = runPythonCode('x = [1, 2]\ny = x', null).namespace;
    expect(run('y.append(3)\nprint(x)', ns)).toBe('[1, 2, 3]\n');
  });

  it('rejects a set table no CPython set can have, so add() stays cheap', () => {
    const forged = {
      v: 1,
      vars: [['s', { r: 0 }]],
      heap: [
        { t: 'set', frozen: false, mask: 2 ** 28 - 1, fill: 1, finger: 0, v: [[1, { i: '1' }]], dummies: [] },
      ],
    };
    expect(run('s.add(9)\nprint(s)', forged)).toBe("NameError: name 's' is not defined");
    const real = runPythonCode('s = {1, 2, 3}\ns.discard(2)', null).namespace;
    expect(run('s.add(9)\nprint(sorted(s))', real)).toBe('[1, 3, 9]\n');
  });

  it('rejects snapshots past the size bound and with unknown fields or kinds', () => {
    const many = { v: 1, vars: [['x', { r: 0 }]], heap: [{ t: 'list', v: new Array(500_000).fill(null) }] };
    expect(run('print(len(x))', many)).toBe("NameError: name 'x' is not defined");
    const bigInt = { v: 1, vars: [['x', { i: '9'.repeat(400_000) }]], heap: [] };
    expect(run('print(x > 0)', bigInt)).toBe("NameError: name 'x' is not defined");
    const extra = { v: 1, vars: [['x', { i: '1' }]], heap: [], extra: true };
    expect(run('print(x)', extra)).toBe("NameError: name 'x' is not defined");
    const { extra: _, ...plain } = extra;
    expect(run('print(x)', plain)).toBe('1\n');
    const badKind = {
      v: 1,
      vars: [['x', { r: 0 }]],
      heap: [{ t: 'scope', kind: 'constructor', locals: [], globals: [], vars: [], parent: null }],
    };
    expect(run('print(x)', badKind)).toBe("NameError: name 'x' is not defined");
  });

  it('restores through a fresh interpreter without touching Object.prototype', () => {
    const ns = { v: 1, vars: [['__proto__', { i: '5' }]], heap: [] };
    expect(run('print(1)', ns)).toBe('1\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(new Interpreter(DEFAULT_LIMITS).globals.get('constructor')).toBeUndefined();
  });
});
