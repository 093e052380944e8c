import { describe, expect, it } from 'vitest';
import { type PyNamespaceSnapshot, runPythonTool } from '../../../core/sandbox/python/tool.ts';

/** Runs calls in sequence, passing each namespace through JSON as a trajectory store would. */
function session(calls: readonly string[]): string[] {
  let ns: PyNamespaceSnapshot | null = null;
  return calls.map((code) => {
    const r = runPythonTool(code, ns);
    ns = JSON.parse(JSON.stringify(r.namespace)) as PyNamespaceSnapshot;
    return r.observation;
  });
}

const HINT = 'You should print the variable you want to obtain the python result.';

describe('namespace snapshots carry state between calls', () => {
  const cases: [string, readonly string[], readonly string[]][] = [
    ['variables', ['x = 5', 'print(x * 2)'], [HINT, '10']],
    ['functions', ['def sq(v):\n    return v * v', 'sq(12)', 'print(sq(3) + 1)'], [HINT, '144', '10']],
    [
      'recursion through the global name',
      ['def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)', 'print(fact(15))'],
      [HINT, '1307674368000'],
    ],
    [
      'a function using a global defined later',
      ['def total():\n    return base + 1', 'base = 41', 'total()'],
      [HINT, HINT, '42'],
    ],
    ['lambdas', ['f = lambda a, b=2: a + b', 'print(f(1), f(1, 5))'], [HINT, '3 6']],
    [
      'closures keep their cells',
      [
        'def counter():\n    count = 0\n    def inc():\n        nonlocal count\n        count += 1\n        return count\n    return inc\nc = counter()',
        'c()',
        'c()\nc()',
      ],
      [HINT, '1', '3'],
    ],
    [
      'mutable defaults keep accumulating',
      ['def add(x, acc=[]):\n    acc.append(x)\n    return acc', 'add(1)', 'print(add(2))'],
      [HINT, '[1]', '[1, 2]'],
    ],
    [
      'globals updated by functions',
      ['n = 0\ndef bump():\n    global n\n    n += 1', 'bump()\nbump()', 'n'],
      [HINT, HINT, '2'],
    ],
    [
      'aliasing survives',
      ['a = [1, 2]\nb = a', 'b.append(3)', 'print(a, a is b)'],
      [HINT, HINT, '[1, 2, 3] True'],
    ],
    ['cycles survive', ['a = [1]\na.append(a)', 'print(a, a[1] is a)'], [HINT, '[1, [...]] True']],
    [
      'dict keyed by tuples and frozensets',
      ["d = {(1, 2): 'a', frozenset([3]): 'b'}", 'print(d[(1, 2)], d[frozenset([3])], d)'],
      [HINT, "a b {(1, 2): 'a', frozenset({3}): 'b'}"],
    ],
    [
      'set order including removals',
      [
        's = set(range(20))\nfor i in range(0, 20, 3):\n    s.discard(i)',
        's.update([40, 33, 17, 0])',
        'print(s)',
      ],
      // 0 was removed, so CPython re-inserts it past the dummies left in its probe sequence.
      [HINT, HINT, '{1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 0, 16, 17, 19, 33, 40}'],
    ],
    [
      'numbers of every kind',
      [
        "big = 10**30\nneg = -0.0\nnan = float('nan')\ninf = float('-inf')\nf = 0.1",
        'print(big, neg, nan, inf, f + 0.2)',
      ],
      [HINT, '1000000000000000000000000000000 -0.0 nan -inf 0.30000000000000004'],
    ],
    [
      'datetime values',
      [
        'from datetime import date, datetime, time, timedelta\nd = date(2021, 5, 6)\nt = time(7, 8)\ntd = timedelta(days=2, hours=3)\ndt = datetime(2022, 1, 1, 9)',
        'print(d, t, td, dt + td, datetime.strptime("2022", "%Y"))',
      ],
      [HINT, '2021-05-06 07:08:00 2 days, 3:00:00 2022-01-03 12:00:00 2022-01-01 00:00:00'],
    ],
    [
      'numpy arrays and the module alias',
      ['import numpy as np\narr = np.array([1.5, 2.5, 4.0])', 'print(arr.sum(), arr, np.mean(arr))'],
      [HINT, '8.0 [1.5 2.5 4. ] 2.6666666666666665'],
    ],
    [
      'builtins, module functions, bound and unbound methods',
      [
        'import math\nsq = math.sqrt\nup = str.upper\nitems = []\nadd = items.append\nL = len\nT = int',
        'add(3)\nprint(sq(81), up("ab"), items, L(items), T("7"))',
      ],
      [HINT, '9.0 AB [3] 1 7'],
    ],
    [
      'iterators keep their remaining items',
      [
        'it = iter([1, 2, 3])\nnext(it)\nz = zip("ab", [1, 2])\ng = (i * i for i in range(4))\nnext(g)',
        'print(list(it), list(z), list(g))',
      ],
      ['0', "[2, 3] [('a', 1), ('b', 2)] [1, 4, 9]"],
    ],
    [
      'ranges and slices',
      ['r = range(2, 20, 3)\nsl = slice(1, None, 2)', 'print(r, list(r)[sl])'],
      [HINT, 'range(2, 20, 3) [5, 11, 17]'],
    ],
    [
      'exceptions and exception classes',
      ["e = ValueError('bad', 2)\nE = KeyError", 'print(repr(e), e.args)\nprint(E("k"), E)'],
      [HINT, "repr(e: ValueError('bad', 2) ('bad', 2)\nE(\"k\": 'k' <class 'KeyError'>"],
    ],
    ['dict views', ["d = {'a': 1}\nk = d.keys()", "d['b'] = 2\nprint(k)"], [HINT, "dict_keys(['a', 'b'])"]],
    [
      'state before an error is kept',
      ['x = 1\ny = 1 / 0\nz = 2', 'print(x)', 'print(z)'],
      ['ZeroDivisionError: division by zero', '1', "NameError: name 'z' is not defined"],
    ],
    [
      'a syntax error changes nothing',
      ['x = 1', 'x = (', 'print(x)'],
      [HINT, "SyntaxError: '(' was never closed (<unknown>, line 1)", '1'],
    ],
    [
      'comprehension closures',
      [
        'fs = [lambda k=i: k * 10 for i in range(3)]\ngs = [lambda: i for i in range(3)]',
        'print([f() for f in fs], [g() for g in gs])',
      ],
      [HINT, '[0, 10, 20] [2, 2, 2]'],
    ],
  ];
  it.each(cases)('%s', (_name, calls, expected) => {
    expect(session(calls)).toEqual(expected);
  });
});

describe('snapshot properties', () => {
  const program = [
    'import math, statistics',
    'import numpy as np',
    'from datetime import datetime, timedelta',
    'data = {"a": [1, 2.5, (3, None)], "b": {4, 5}}',
    'def f(x, *, k=2):\n    return x ** k',
    'g = lambda s: s.upper()',
    'when = datetime(2022, 1, 6) + timedelta(hours=6, minutes=40)',
    'arr = np.array([1, 2, 3])',
    'print(f(3), g("x"), when.strftime("%H:%M"))',
  ].join('\n');

  it('is JSON-serialisable and survives a JSON round trip unchanged', () => {
    const r = runPythonTool(program, null);
    expect(r.observation).toBe('9 X 06:40');
    const json = JSON.stringify(r.namespace);
    expect(JSON.parse(json)).toEqual(r.namespace);
    const again = runPythonTool('print(f(2, k=3), data["a"][2], arr.tolist())', JSON.parse(json));
    expect(again.observation).toBe('8 (3, None) [1, 2, 3]');
  });

  it('is deterministic: same code and snapshot give the same observation and snapshot', () => {
    const base = runPythonTool(program, null).namespace;
    const code = 's = {x * 7 % 11 for x in range(30)}\nh = {f: 1, g: 2}\nprint(sorted(s), len(h), f)';
    const a = runPythonTool(code, base);
    const b = runPythonTool(code, JSON.parse(JSON.stringify(base)));
    expect(a.observation).toBe(b.observation);
    expect(JSON.stringify(a.namespace)).toBe(JSON.stringify(b.namespace));
    expect(a.observation).toMatch(/^\[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10\] 2 <function f at 0x[0-9a-f]+>$/);
  });

  it('never mutates the snapshot it was given', () => {
    const base = runPythonTool('xs = [1, 2]\nd = {"k": 0}', null).namespace;
    const before = JSON.stringify(base);
    runPythonTool('xs.append(3)\nd["k"] += 1\ndel xs[0]', base);
    expect(JSON.stringify(base)).toBe(before);
    expect(runPythonTool('print(xs, d)', base).observation).toBe("[1, 2] {'k': 0}");
  });

  it('stores user functions by their source text', () => {
    const r = runPythonTool('def area(w, h=2):\n    return w * h\nsquare = lambda s: s * s', null);
    const sources = r.namespace.heap.flatMap((h) => (h.t === 'function' ? [h.src] : []));
    expect(sources).toEqual(['def area(w, h=2):\n    return w * h', 'lambda s: s * s']);
  });

  it('treats anything that is not a snapshot as an empty namespace', () => {
    for (const bad of [
      undefined,
      null,
      {},
      'abc',
      5,
      [],
      { v: 1, vars: 'x', heap: [] },
      { v: 2, vars: [], heap: [] },
    ]) {
      const r = runPythonTool('print(1 + 1)', bad as never);
      expect(r.observation).toBe('2');
      expect(r.namespace.vars).toEqual([]);
    }
  });

  it('skips malformed entries instead of failing', () => {
    const ns = {
      v: 1,
      vars: [
        ['ok', { i: '7' }],
        ['broken_fn', { r: 0 }],
        ['dangling', { r: 99 }],
      ],
      heap: [{ t: 'function', src: 'def (:', lambda: false, defaults: [], kwdefaults: [], scope: null }],
    };
    const r = runPythonTool('print(ok, broken_fn, dangling)', ns as unknown as PyNamespaceSnapshot);
    expect(r.observation).toBe('7 None None');
  });
});
