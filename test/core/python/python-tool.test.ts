import { describe, expect, it } from 'vitest';
import {
  extractLabel,
  PRINT_HINT,
  runPythonCode,
  runPythonTool,
  sanitize,
  TIMEOUT_OBSERVATION,
} from '../../../core/sandbox/python/tool.ts';

const obs = (code: string) => runPythonTool(code, null).observation;

describe('§3.10 step 1: sanitising', () => {
  it('strips fences, a leading `python` word and surrounding whitespace/backticks', () => {
    expect(sanitize("```python\nprint('fenced')\n```")).toBe("print('fenced')");
    expect(sanitize("PYTHON   print('upper')")).toBe("print('upper')");
    expect(sanitize('  `x = 1` \n')).toBe('x = 1');
    expect(obs("```python\nprint('fenced')\n```")).toBe('fenced');
    expect(obs("\n\n   print('indented first line')")).toBe('indented first line');
  });

  it('removes `python` even when it starts an identifier, as the original regex does', () => {
    expect(obs('pythonic = 5\nprint(pythonic)')).toBe("NameError: name 'pythonic' is not defined");
  });
});

describe('§3.10 steps 2–4: print statements, capture and labels', () => {
  const cases: [string, string][] = [
    ['print (1)\nprint (2)', '1\n 2'],
    ["for i in range(2):\n    print(i)\nprint('end')", "i: 0\n1\n'end': end"],
    ["if True:\n    x = 1\nelse:\n    print('never')\nprint(x)", '1'],
    ["def f():\n    print('x')\nprint('a')\nf()", "'x': 'a': a"],
    ["print('a')\nprint('b')\nz = 1\nz", "'a': a\n'b': b"],
    ["print('x', end='')\nprint('y', end='')", "'x', end='': x'y', end='': y"],
    ["print('a'); print('b')", "'a': a\n'b': b"],
    ["print(print('inner'))", 'inner\nNone'],
    ["print(len('a)b'))\nprint(2)", "len('a: 3\n2: 2"],
    ["print('%d)' % 5)\nprint(3)", "'%d: 5)\n3: 3"],
    ["print(1/3)\nprint('x')", "1/3: 0.3333\n'x': x"],
    ['import math\nprint(math.pi)\nprint(math.e)', 'math.pi: 3.1416\nmath.e: 2.7183'],
    ['x = [1, 2]\nx.append(3)', PRINT_HINT],
    ['print()', PRINT_HINT],
    ["print('   ')", PRINT_HINT],
  ];
  it.each(cases)('%j', (code, expected) => {
    expect(obs(code)).toBe(expected);
  });

  it('an error in any segment replaces the whole observation', () => {
    expect(obs("a = 1\nprint(a)\nprint(b)\nprint('c')")).toBe("NameError: name 'b' is not defined");
  });

  it('never runs code after the last print statement', () => {
    const r = runPythonTool("print('a')\nprint('b')\nafter = 1", null);
    expect(r.observation).toBe("'a': a\n'b': b");
    expect(r.namespace.vars.map(([n]) => n)).not.toContain('after');
  });

  it('re-runs a failing last expression (eval, then exec), as the original does', () => {
    // First evaluation pops 2 and fails on + 'a'; the retry pops 1 and fails the same way; the list is empty.
    const r1 = runPythonTool('lst = [1, 2]', null);
    const r2 = runPythonTool("lst.pop() + 'a'", r1.namespace);
    expect(r2.observation).toBe("TypeError: unsupported operand type(s) for +: 'int' and 'str'");
    expect(runPythonTool('print(lst)', r2.namespace).observation).toBe('[]');
  });

  it('extracts labels with the non-greedy single-line regex', () => {
    expect(extractLabel('print(a)')).toBe('a:');
    expect(extractLabel('print(round(x, 2))')).toBe('round(x, 2:');
    expect(extractLabel('for i in x:\n    print(i)\n    print(i*2)')).toBe('i i*2:');
    expect(extractLabel('print (x)')).toBe('');
  });
});

describe('§3.10 step 5: float rounding and the 500-character cut', () => {
  const cases: [string, string][] = [
    ['print(123456789012345678901234567890)', '1.2345678901234568e+29'],
    ['2**100', '1.2676506002282294e+30'],
    ["print('1e-05')", '0.0'],
    ["print(' 3.14159 ')", '3.1416'],
    ["'0.33333333333'", '0.3333'],
    ['print(100000.0)', '100000.0'],
    ["print('1_000')", '1_000'],
    ["print('nan')", 'nan'],
  ];
  it.each(cases)('%j', (code, expected) => {
    expect(obs(code)).toBe(expected);
  });

  it('keeps results up to 500 characters and cuts longer ones to 250 + ... + 250', () => {
    expect(obs("'q' * 500")).toBe('q'.repeat(500));
    expect(obs("'q' * 501")).toBe(`${'q'.repeat(250)}...${'q'.repeat(250)}`);
    expect(obs("print('x' * 300 + 'y' * 300)")).toBe(`${'x'.repeat(250)}...${'y'.repeat(249)}`);
  });

  it('counts code points, not UTF-16 units, when cutting', () => {
    expect(obs("'😀' * 501")).toBe(`${'😀'.repeat(250)}...${'😀'.repeat(250)}`);
  });

  it('cuts huge captured output the same way when only its head and tail are kept', () => {
    const code = "for i in range(30000):\n    print('line', i)";
    for (const limits of [{}, { maxOutputChars: 1000 }]) {
      const out = runPythonTool(code, null, limits).observation;
      expect(out.startsWith('line 0\nline 1\n')).toBe(true);
      expect(out.endsWith('line 29998\nline 29999')).toBe(true);
      expect(out.length).toBe(250 + 3 + 249);
    }
  });
});

describe('§3.10 steps 6–7: errors and the raw output', () => {
  it('formats compile-time errors as the original exec() reports them', () => {
    expect(obs('x = 1\nreturn x')).toBe("SyntaxError: 'return' outside function (<string>, line 1)");
    expect(obs('x = 1\nif x:\n    break')).toBe("SyntaxError: 'break' outside loop (<string>, line 2)");
    expect(obs('def f():\n    continue')).toBe(
      "SyntaxError: 'continue' not properly in loop (<string>, line 2)",
    );
  });

  it('runPythonCode gives the output before the environment strips it', () => {
    expect(runPythonCode('print(5)', null).observation).toBe('5\n');
    expect(runPythonCode('x = 1', null).observation).toBe('');
    expect(runPythonCode('[0] * 10**10', null).observation).toBe('MemoryError: ');
    expect(runPythonTool('[0] * 10**10', null).observation).toBe('MemoryError:');
  });

  it('reports SystemExit as an error observation instead of escaping', () => {
    expect(obs('raise SystemExit(3)')).toBe('SystemExit: 3');
  });
});

describe('deliberate differences from the original environment', () => {
  const cases: [string, string][] = [
    ['import os', "ModuleNotFoundError: No module named 'os'"],
    ['import json', "ModuleNotFoundError: No module named 'json'"],
    ['import numpy.linalg', "ModuleNotFoundError: No module named 'numpy.linalg'"],
    ['from math import foo', "ImportError: cannot import name 'foo' from 'math' (unknown location)"],
    ["print(eval('1 + 1'))", "NameError: name 'eval' is not defined"],
    ["open('x.txt')", "NameError: name 'open' is not defined"],
    ['print(globals())', "NameError: name 'globals' is not defined"],
    ['class Foo:\n    pass', 'NotImplementedError: class definitions are not supported in this sandbox'],
    [
      "with open('f') as fh:\n    pass",
      "NotImplementedError: 'with' statements are not supported in this sandbox",
    ],
    ['x = 3 + 4j', 'NotImplementedError: complex numbers are not supported in this sandbox'],
    [
      'def gen():\n    yield 1\ngen()',
      'NotImplementedError: generator functions (yield) are not supported in this sandbox',
    ],
    ['print(type(1.5).__name__)', "AttributeError: type object 'float' has no attribute '__name__'"],
    ['print(__name__)', 'tools.code.tool'],
    ['import numpy as np\nprint(type(np.mean([1, 2])))', "<class 'float'>"],
    ['from datetime import datetime\nprint(datetime.now())', '2024-01-01 00:00:00'],
  ];
  it.each(cases)('%j', (code, expected) => {
    expect(obs(code)).toBe(expected);
  });
});

describe('limits are configurable', () => {
  it('stops at the step budget with the spec timeout text', () => {
    const r = runPythonTool('total = 0\nfor i in range(10000):\n    total += i\nprint(total)', null, {
      maxSteps: 1000,
    });
    expect(r.observation).toBe(TIMEOUT_OBSERVATION);
    expect(
      runPythonTool('total = 0\nfor i in range(10000):\n    total += i\nprint(total)', null).observation,
    ).toBe('49995000');
  });

  it('applies the recursion limit', () => {
    const code = 'def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\nprint(depth(150))';
    expect(runPythonTool(code, null).observation).toBe('150');
    expect(runPythonTool(code, null, { maxRecursion: 100 }).observation).toBe(
      'RecursionError: maximum recursion depth exceeded',
    );
  });

  it('applies the memory budget', () => {
    expect(runPythonTool('x = [0] * 5000\nprint(len(x))', null).observation).toBe('5000');
    expect(runPythonTool('x = [0] * 5000', null, { maxMemory: 1000 }).observation).toBe('MemoryError:');
  });

  it('uses the configured clock for now()', () => {
    const code = 'import datetime\nprint(datetime.date.today(), datetime.datetime.now().hour)';
    expect(runPythonTool(code, null, { now: '2022-03-04T05:06:07' }).observation).toBe('2022-03-04 5');
  });
});
