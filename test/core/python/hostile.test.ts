import { describe, expect, it } from 'vitest';
import { runPythonTool, TIMEOUT_OBSERVATION } from '../../../core/sandbox/python/tool.ts';

const TIMEOUT = TIMEOUT_OBSERVATION;

/** [program, the observation it must produce] — each must finish quickly and never throw. */
const HOSTILE: readonly (readonly [string, string])[] = [
  // Runaway loops and work: the step budget stands in for the 15 s wall-clock timeout.
  ['while True: pass', TIMEOUT],
  ['x = 0\nwhile True:\n    x += 1', TIMEOUT],
  ['while True:\n    try:\n        pass\n    except BaseException:\n        pass', TIMEOUT],
  ["try:\n    while True:\n        pass\nfinally:\n    print('finally')", TIMEOUT],
  ['for i in range(10**10):\n    pass', TIMEOUT],
  ['sum(range(10**12))', TIMEOUT],
  ['list(range(10**9))', TIMEOUT],
  ['sorted(range(10**8))', TIMEOUT],
  ["'x'.join(str(i) for i in range(10**8))", TIMEOUT],
  ['d = {}\ni = 0\nwhile True:\n    d[i] = i\n    i += 1', TIMEOUT],
  ['def spin():\n    while True:\n        yield_ = 1\nspin()', TIMEOUT],
  // Huge allocations.
  ['[0] * 10**9', 'MemoryError:'],
  ["'a' * 10**9", 'MemoryError:'],
  ['[0] * (10**20)', "OverflowError: cannot fit 'int' into an index-sized integer"],
  ['x = [1]\nwhile True:\n    x = x + x', 'MemoryError:'],
  ["s = 'a'\nwhile True:\n    s += s", 'MemoryError:'],
  ['a = []\nwhile True:\n    a.append([0] * 1000)', 'MemoryError:'],
  ['2 ** 10 ** 9', 'MemoryError:'],
  ['10 ** 10 ** 10', 'MemoryError:'],
  ['1 << 10**10', 'MemoryError:'],
  ['import numpy as np\nnp.zeros(10**9)', 'MemoryError:'],
  [
    'import math\nmath.factorial(10**6)',
    'OverflowError: factorial() argument should not exceed 20000 in this sandbox',
  ],
  // Deep recursion, in Python code, in repr and in the parser.
  ['def f(): return f()\nf()', 'RecursionError: maximum recursion depth exceeded'],
  [
    'def f(n):\n    return f(n + 1) if n < 10**6 else n\nf(0)',
    'RecursionError: maximum recursion depth exceeded',
  ],
  ['f = lambda n: f(n + 1)\nf(0)', 'RecursionError: maximum recursion depth exceeded'],
  [
    'a = []\nfor i in range(1000):\n    a = [a]\nprint(a)',
    'RecursionError: maximum recursion depth exceeded while getting the repr of an object',
  ],
  [
    `x = ${'('.repeat(300)}1${')'.repeat(300)}`,
    'SyntaxError: too many nested parentheses (<unknown>, line 1)',
  ],
  [`x = ${'-'.repeat(5000)}1`, 'RecursionError: maximum recursion depth exceeded during ast construction'],
  [`x = 1${'+1'.repeat(5000)}`, 'RecursionError: maximum recursion depth exceeded during ast construction'],
  // No way from Python to host objects: dunder attributes, prototype names, introspection.
  ['().__class__.__bases__', "AttributeError: 'tuple' object has no attribute '__class__'"],
  ['"".__class__', "AttributeError: 'str' object has no attribute '__class__'"],
  ['x = 5\nx.constructor', "AttributeError: 'int' object has no attribute 'constructor'"],
  ['[].__class__.__base__.__subclasses__()', "AttributeError: 'list' object has no attribute '__class__'"],
  ['(lambda: 0).__globals__', "AttributeError: 'function' object has no attribute '__globals__'"],
  ['print.__self__', "AttributeError: 'builtin_function_or_method' object has no attribute '__self__'"],
  ["getattr(1, '__class__')", "AttributeError: 'int' object has no attribute '__class__'"],
  ["getattr(print, '__globals__', 'blocked')", 'blocked'],
  ['type(1).__subclasses__()', "AttributeError: type object 'int' has no attribute '__subclasses__'"],
  ["'abc'.prototype", "AttributeError: 'str' object has no attribute 'prototype'"],
  ['import math\nmath.__dict__', "AttributeError: module 'math' has no attribute '__dict__'"],
  ['import numpy as np\nnp.__builtins__', "AttributeError: module 'numpy' has no attribute '__builtins__'"],
  ["f'{().__class__}'", "AttributeError: 'tuple' object has no attribute '__class__'"],
  ["'{0.__class__}'.format(1)", "AttributeError: 'int' object has no attribute '__class__'"],
  [
    "x = {}\nx['__proto__'] = 1\nx['constructor'] = 2\nprint(x, x['__proto__'])",
    "{'__proto__': 1, 'constructor': 2} 1",
  ],
  ['print(constructor)', "NameError: name 'constructor' is not defined"],
  ['print(toString, hasOwnProperty)', "NameError: name 'toString' is not defined"],
  // Forbidden builtins and modules.
  ["open('/etc/passwd').read()", "NameError: name 'open' is not defined"],
  ["__import__('os').system('ls')", "NameError: name '__import__' is not defined"],
  ["eval('1 + 1')", "NameError: name 'eval' is not defined"],
  ["exec('x = 1')", "NameError: name 'exec' is not defined"],
  ["compile('1', 'f', 'eval')", "NameError: name 'compile' is not defined"],
  ['globals()', "NameError: name 'globals' is not defined"],
  ['vars()', "NameError: name 'vars' is not defined"],
  ['__builtins__', "NameError: name '__builtins__' is not defined"],
  ['import os', "ModuleNotFoundError: No module named 'os'"],
  ['import sys\nsys.exit(0)', "ModuleNotFoundError: No module named 'sys'"],
  ['import subprocess', "ModuleNotFoundError: No module named 'subprocess'"],
  ['from os import system', "ModuleNotFoundError: No module named 'os'"],
  ['import importlib', "ModuleNotFoundError: No module named 'importlib'"],
  ['import builtins', "ModuleNotFoundError: No module named 'builtins'"],
  ['input()', 'EOFError: EOF when reading a line'],
  // Shared objects stay read-only.
  ['import math\nmath.pi = 3', "AttributeError: module 'math' attribute 'pi' is read-only in this sandbox"],
  ['str.upper = None', "AttributeError: 'type' object attribute 'upper' is read-only"],
  ['f = lambda: 0\nf.x = 1', "AttributeError: 'function' object has no attribute 'x'"],
];

describe('hostile programs', () => {
  it('covers at least 30 programs', () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
  });

  it.each(HOSTILE.map(([code, expected], i) => [i, code, expected] as const))(
    // How fast they end is measured by `npm run hostile` (a benchmark), not by a wall-clock assertion here: the
    // sandbox's own step and size budgets are what make them end, and the observations below name those budgets.
    '#%i ends with the expected observation',
    (_i, code, expected) => {
      const r = runPythonTool(code, null);
      expect(r.observation).toBe(expected);
      expect(() => JSON.stringify(r.namespace)).not.toThrow();
    },
  );

  it('leaves shared modules untouched for later runs', () => {
    runPythonTool('import math\ntry:\n    math.pi = 3\nexcept AttributeError:\n    pass', null);
    expect(runPythonTool('import math\nmath.pi', null).observation).toBe('3.1416');
  });

  it('keeps snapshots bounded when a program builds huge values', () => {
    const r = runPythonTool("small = 1\nbig = 'x' * 5_000_000\nlst = list(range(300_000))", null);
    expect(r.namespace.vars.map(([n]) => n)).toEqual(['small']);
    expect(JSON.stringify(r.namespace).length).toBeLessThan(10_000);
  });
});
