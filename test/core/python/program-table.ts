// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are Python source, where ${...} is plain text.
/**
 * Programs with the observation the original PythonInterpreter tool gives for them: the expected strings are
 * what CPython 3.11 printed when each program was run through the tool's logic (spec §3.10: sanitising, print
 * segments and labels, last-expression capture, float rounding, 250+250 cut, error form), checked with a local
 * python3 while the table was written. Programs whose behaviour the sandbox deliberately changes are in
 * python-tool.test.ts instead.
 */

/** [code, expected observation] */
export const PROGRAMS: readonly (readonly [string, string])[] = [
  ['x = 5', 'You should print the variable you want to obtain the python result.'],
  ['print(5)\ny = 2', 'You should print the variable you want to obtain the python result.'],
  ["def f():\n    print('in f')\n    return 3\nf()", '3'],
  ['a=3\nprint(a)\nb=4\nprint(a+b)', 'a: 3\na+b: 7'],
  ['x=3.14159\nprint(round(x, 2))\nprint(x)', 'round(x, 2: 3.14\nx: 3.1416'],
  ['print(22.493333333333333)', '22.4933'],
  ['print(1e-05)', '0.0'],
  ['0.12345', '0.1235'],
  ['27', '27'],
  ['2.5', '2.5'],
  ['0.85', '0.85'],
  ['print(-0.9375)', '-0.9375'],
  ["from datetime import datetime\nt = datetime(2022, 1, 6, 6, 40)\nprint(t.strftime('%H:%M'))", '06:40'],
  ["print((127, 'The Serenity Room in Historic BKLYN'))", "(127, 'The Serenity Room in Historic BKLYN')"],
  ["print(('2018-10-29', 8.849999999999994))", "('2018-10-29', 8.849999999999994)"],
  [
    "lat = 40.81230982405\nlon = -73.85535\nd = 0.0592\nla_max, la_min = lat + 0.045, lat - 0.045\nlo_max, lo_min = lon + 0.05926, lon - 0.05926\nprint(f'lo_max: {lo_max}; lo_min: {lo_min}; la_max: {la_max}; la_min: {la_min}')",
    'lo_max: -73.79609; lo_min: -73.91461; la_max: 40.85730982405; la_min: 40.767309824049995',
  ],
  ['```python\nx = [1, 2, 3]\nprint(sum(x))\n```', '6'],
  ["Python\nprint('hi')", 'hi'],
  ["   \n\n`print('ticks')`  \n", 'ticks'],
  ['', 'You should print the variable you want to obtain the python result.'],
  ['# just a comment', 'You should print the variable you want to obtain the python result.'],
  ['2**100', '1.2676506002282294e+30'],
  ['print(2**100)', '1.2676506002282294e+30'],
  ['10**20 // 3', '33333333333333333333'],
  ['print(10**20)', '1e+20'],
  ['print(12345678901234567890)', '12345678901234567890'],
  ['7/2', '3.5'],
  ['print(7//2, 6/2, -7//2, -7 % 3, 7 % -3, 2**-1)', '3 3.0 -4 2 -2 0.5'],
  [
    'print(round(2.5), round(3.5), round(-2.5), round(2.675, 2), round(1234.5678, -2), round(1250, -2))',
    '2 4 -2 2.67 1200.0 1200',
  ],
  [
    'print(round(5), round(7.0), type(round(7.0)), round(0.125, 2), round(1.5, 0))',
    "5 7 <class 'int'> 0.12 2.0",
  ],
  [
    "print(0.1 + 0.2, 1/3, 2/3, 1e16, 1e-5, 123456789.0*1000000, -0.0, float('inf'), float('nan'))",
    '0.30000000000000004 0.3333333333333333 0.6666666666666666 1e+16 1e-05 123456789000000.0 -0.0 inf nan',
  ],
  ["print(True + 1, True and 5, 0 or 'x', None or [], [] and 3, not 0)", '2 5 x [] [] True'],
  ["x = 5\nprint(1 < x < 10, 1 < x > 7, x == 5.0, 'a' < 'b' <= 'b')", 'True False True True'],
  [
    "print(int('42'), int(' -7 '), int('1_000'), int(3.99), int(-3.99), int('ff', 16), int('0x1f', 0), float('1e3'), float(' 2.5 '), float('-inf'))",
    '42 -7 1000 3 -3 255 31 1000.0 2.5 -inf',
  ],
  [
    "print(str(1.0), str(10), repr('a\\'b'), repr(\"it's\"), str(None), bool(''), bool([0]))",
    '1.0 10 "a\'b" "it\'s" None False True',
  ],
  [
    "print(abs(-3), abs(-2.5), min(3, 1, 2), max([4, 9, 2]), min('bca'), max([], default=0), max([1, 5, 3], key=lambda v: -v))",
    '3 2.5 1 9 a 0 1',
  ],
  [
    'print(sum([1, 2, 3]), sum([0.1]*10), sum([1, 2.5]), sum([[1], [2]], []), divmod(17, 5), divmod(-17, 5), divmod(7.5, 2), pow(2, 10), pow(2, 10, 1000), pow(2, -1))',
    '6 0.9999999999999999 3.5 [1, 2] (3, 2) (-4, 3) (3.0, 1.5) 1024 24 0.5',
  ],
  [
    "print(sorted([3, 1, 2]), sorted(['b', 'A', 'c']), sorted([3, 1, 2], reverse=True), sorted(['aa', 'b', 'ccc'], key=len), list(reversed([1, 2, 3])))",
    "[1, 2, 3] ['A', 'b', 'c'] [3, 2, 1] ['b', 'aa', 'ccc'] [3, 2, 1]",
  ],
  [
    "print(list(enumerate('ab')), list(enumerate('ab', 1)), list(zip([1, 2, 3], 'ab')), list(map(str, [1, 2])), list(filter(None, [0, 1, 2, '', 'a'])))",
    "[(0, 'a'), (1, 'b')] [(1, 'a'), (2, 'b')] [(1, 'a'), (2, 'b')] ['1', '2'] [1, 2, 'a']",
  ],
  [
    "print(any([0, 0, 1]), all([1, 2, 0]), any([]), all([]), isinstance(3, int), isinstance(True, int), isinstance(3.0, (int, float)), type(3), type('x'), type([]) == list)",
    "True False False True True True True <class 'int'> <class 'str'> True",
  ],
  [
    "print(len('héllo'), len([1, 2]), len({'a': 1}), len(range(10)), len(range(0, 10, 3)), list(range(10, 0, -3)))",
    '5 2 1 10 4 [10, 7, 4, 1]',
  ],
  [
    "print(chr(65), ord('a'), hex(255), oct(8), bin(5), bin(-5), repr(1.5), ascii('é'))",
    "A 97 0xff 0o10 0b101 -0b101 1.5 '\\xe9'",
  ],
  [
    "s = '  Hello, World  '\nprint(s.strip(), s.lstrip(), s.rstrip(), sep='|')",
    'Hello, World|Hello, World  |  Hello, World',
  ],
  [
    "s = 'a,b,,c'\nprint(s.split(','), s.split(',', 1), 'a b  c'.split(), '  x '.split(), 'a-b-c'.rsplit('-', 1))",
    "['a', 'b', '', 'c'] ['a', 'b,,c'] ['a', 'b', 'c'] ['x'] ['a-b', 'c']",
  ],
  [
    "print('-'.join(['a', 'b', 'c']), ''.join(str(i) for i in range(5)), 'abc'.upper(), 'ABC'.lower(), 'hello world'.title(), \"they're bill's\".title(), 'hello'.capitalize())",
    "a-b-c 01234 ABC abc Hello World They'Re Bill'S Hello",
  ],
  [
    "s = 'hello world'\nprint(s.startswith('he'), s.endswith(('x', 'ld')), s.find('o'), s.rfind('o'), s.find('z'), s.index('w'), s.count('l'), s.count(''), s.replace('l', 'L'), s.replace('l', 'L', 2))",
    'True True 4 7 -1 6 3 12 heLLo worLd heLLo world',
  ],
  [
    "print('{} + {} = {}'.format(1, 2, 3), '{0}{1}{0}'.format('a', 'b'), '{name} is {age}'.format(name='Bob', age=30), '{:>6}|{:<6}|{:^6}|'.format('r', 'l', 'c'), '{:.3f}'.format(2/3))",
    '1 + 2 = 3 aba Bob is 30      r|l     |  c   | 0.667',
  ],
  [
    "x = 1234567.891\nprint(f'{x:.2f} {x:,} {x:,.1f} {42:>5} {42:<5}| {42:05d} {0.5:.0%} {3:b} {255:x} {1e-7:.2e} {x=}')",
    '1234567.89 1,234,567.891 1,234,567.9    42 42   | 00042 50% 11 ff 1.00e-07 x=1234567.891',
  ],
  [
    "name = 'Ann'\nn = 3\nprint(f\"{name!r} has {n} item{'s' if n != 1 else ''} {{braces}} {n*2:03} {name:>{n+4}}\")",
    "'Ann' has 3 items {braces} 006     Ann",
  ],
  [
    "print('%d items cost %.2f (%s) %5.1f%% %x %r %-4d|' % (3, 9.5, 'ok', 12.345, 255, 'a', 7))",
    "3 items cost 9.50 (ok)  12.3% ff 'a' 7   |",
  ],
  [
    "print('%(a)s-%(b)d' % {'a': 'x', 'b': 2}, '%s' % [1, 2], '%05.1f' % 3.14159, '%e' % 12345.678, '%g' % 0.0001)",
    'x-2 [1, 2] 003.1 1.234568e+04 0.0001',
  ],
  [
    "s = 'abcdef'\nprint(s[1:4], s[::-1], s[::2], s[-2:], s[:-2], s[10:], s[1:5:2], s[5:1:-2])",
    'bcd fedcba ace ef abcd  bd fd',
  ],
  [
    "print('ab' * 3, 'a' + 'b', 'x' in 'xyz', 'ab' not in 'xyz', 'abc' < 'abd', 'Z' < 'a')",
    'ababab ab True True True True',
  ],
  [
    "print('a1'.isalnum(), '12'.isdigit(), 'ab'.isalpha(), '  '.isspace(), 'Ab'.istitle(), 'AB'.isupper(), 'ab'.islower(), '3.5'.isdigit())",
    'True True True True True True True False',
  ],
  [
    "print('x'.center(7, '*'), 'x'.ljust(3, '.'), 'x'.rjust(3), '42'.zfill(5), '-42'.zfill(5), 'a,b'.partition(','), 'a,b,c'.rpartition(','), 'line1\\nline2\\r\\nline3'.splitlines())",
    "***x*** x..   x 00042 -0042 ('a', ',', 'b') ('a,b', ',', 'c') ['line1', 'line2', 'line3']",
  ],
  [
    "print('Mr. Smith'.removeprefix('Mr. '), 'file.txt'.removesuffix('.txt'), 'tab\\there'.expandtabs(4), 'A'.casefold(), 'aBc'.swapcase())",
    'Smith file tab here a AbC',
  ],
  [
    'xs = [3, 1, 4, 1, 5, 9, 2, 6]\nxs.append(5)\nxs.extend([3, 5])\nxs.insert(0, 0)\nprint(xs, xs.pop(), xs.pop(0), xs.index(4), xs.count(1))\nxs.remove(1)\nxs.sort()\nprint(xs)\nxs.sort(key=lambda v: -v)\nprint(xs)\nxs.reverse()\nprint(xs, xs.copy() == xs, xs.copy() is xs)',
    'xs, xs.pop(: [3, 1, 4, 1, 5, 9, 2, 6, 5, 3] 5 0 2 2\nxs: [1, 2, 3, 3, 4, 5, 5, 6, 9]\nxs: [9, 6, 5, 5, 4, 3, 3, 2, 1]\nxs, xs.copy(: [1, 2, 3, 3, 4, 5, 5, 6, 9] True False',
  ],
  [
    'a = [1, 2, 3]\nb = a\nb.append(4)\nc = a[:]\nc.append(5)\nprint(a, b, c, a is b, a == c[:4])',
    '[1, 2, 3, 4] [1, 2, 3, 4] [1, 2, 3, 4, 5] True True',
  ],
  [
    "xs = list(range(10))\nprint(xs[2:8:2], xs[::-3], xs[-3:], xs[:0])\nxs[1:3] = ['a', 'b', 'c']\ndel xs[0]\nprint(xs)\ndel xs[::2]\nprint(xs)",
    "xs[2:8:2], xs[::-3], xs[-3:], xs[:0]: [2, 4, 6] [9, 6, 3, 0] [7, 8, 9] []\nxs: ['a', 'b', 'c', 3, 4, 5, 6, 7, 8, 9]\nxs: ['b', 3, 5, 7, 9]",
  ],
  [
    'm = [[1, 2], [3, 4]]\nprint([row[1] for row in m], [x for row in m for x in row], [[c * 2 for c in r] for r in m], [x for x in range(10) if x % 3 == 0])',
    '[2, 4] [1, 2, 3, 4] [[2, 4], [6, 8]] [0, 3, 6, 9]',
  ],
  [
    'print([1, [2, 3]] == [1, [2, 3]], [1, 2] < [1, 3], (1, 2) < (1, 2, 0), [] == (), [0] * 3, [[0] * 2] * 2)',
    'True True True False [0, 0, 0] [[0, 0], [0, 0]]',
  ],
  [
    "words = ['apple', 'Banana', 'cherry', 'date']\nprint(sorted(words), sorted(words, key=str.lower), sorted(words, key=lambda w: (len(w), w)), max(words, key=len))",
    "['Banana', 'apple', 'cherry', 'date'] ['apple', 'Banana', 'cherry', 'date'] ['date', 'apple', 'Banana', 'cherry'] Banana",
  ],
  [
    "d = {'a': 1, 'b': 2}\nd['c'] = 3\nprint(d, d.get('a'), d.get('z'), d.get('z', 0), list(d.keys()), list(d.values()), list(d.items()))",
    "{'a': 1, 'b': 2, 'c': 3} 1 None 0 ['a', 'b', 'c'] [1, 2, 3] [('a', 1), ('b', 2), ('c', 3)]",
  ],
  [
    "d = {'x': 1}\nd.update({'y': 2}, z=3)\nprint(d.pop('x'), d.pop('q', None), d.setdefault('w', 9), d.setdefault('y', 0), d)\nprint(len(d), 'y' in d, 2 in d, d.keys(), d.items())",
    "d.pop('x': 1 None 9 2 {'y': 2, 'z': 3, 'w': 9}\nlen(d: 3 True False dict_keys(['y', 'z', 'w']) dict_items([('y', 2), ('z', 3), ('w', 9)])",
  ],
  [
    "counts = {}\nfor w in 'the cat the dog the end'.split():\n    counts[w] = counts.get(w, 0) + 1\nprint(counts, max(counts, key=counts.get), sorted(counts.items(), key=lambda kv: -kv[1])[0])",
    "{'the': 3, 'cat': 1, 'dog': 1, 'end': 1} the ('the', 3)",
  ],
  [
    "sq = {n: n * n for n in range(5)}\nprint(sq, {k: v for k, v in sq.items() if v > 4}, dict(zip('abc', range(3))), dict([('k', 1)]), dict(a=1), {**sq, 0: 'z'})",
    "{0: 0, 1: 1, 2: 4, 3: 9, 4: 16} {3: 9, 4: 16} {'a': 0, 'b': 1, 'c': 2} {'k': 1} {'a': 1} {0: 'z', 1: 1, 2: 4, 3: 9, 4: 16}",
  ],
  [
    "d = {1: 'int', 1.0: 'float', True: 'bool'}\nprint(d, {(1, 2): 'tuple'}[(1, 2)], dict.fromkeys(['a', 'b'], 0))",
    "{1: 'bool'} tuple {'a': 0, 'b': 0}",
  ],
  [
    "d = {'b': 1, 'a': 2}\nfor k in d:\n    print(k)\nfor k, v in sorted(d.items()):\n    print(k, v)",
    'k: b\na\nk, v: a 2\nb 1',
  ],
  [
    's = {3, 1, 2}\ns.add(10)\ns.discard(3)\nprint(s, len(s), 2 in s, sorted(s), {1, 2} | {2, 3}, {1, 2} & {2, 3}, {1, 2} - {2}, {1, 2} ^ {2, 3})',
    '{10, 1, 2} 3 True [1, 2, 10] {1, 2, 3} {2} {1} {1, 3}',
  ],
  [
    'print(set([5, 3, 5, 1]), set(), {x % 3 for x in range(10)}, frozenset([2, 1]), {1, 2} <= {1, 2, 3}, {100, 2, 37, 8, 64})',
    '{1, 3, 5} set() {0, 1, 2} frozenset({1, 2}) True {64, 2, 100, 37, 8}',
  ],
  [
    's = set(range(20))\nfor i in range(0, 20, 3):\n    s.discard(i)\ns.update([40, 33, 17])\nprint(s)',
    '{1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 33, 40}',
  ],
  [
    'print(set([2019, 2020, 2021, 2019]), list({-1, -2, 5, 2**40}), {0.5, 1.5, 2.5})',
    '{2019, 2020, 2021} [1099511627776, 5, -1, -2] {0.5, 1.5, 2.5}',
  ],
  [
    "t = (1, 2, 3)\na, b, c = t\nx, *rest = [1, 2, 3, 4]\n*init, last = 'abc'\n(p, q), r = (1, 2), 3\nprint(a, b, c, x, rest, init, last, p, q, r, t.count(2), t.index(3), (1,), ())",
    "1 2 3 1 [2, 3, 4] ['a', 'b'] c 1 2 3 1 2 (1,) ()",
  ],
  ['a, b = 1, 2\na, b = b, a\nprint(a, b)', '2 1'],
  ['for i in range(3):\n    print(i)', '0\n1\n2'],
  [
    'total = 0\nfor i in range(10):\n    if i == 7:\n        break\n    if i % 2:\n        continue\n    total += i\nelse:\n    total = -1\nprint(total)',
    '12',
  ],
  ["n = 0\nwhile n < 5:\n    n += 1\nelse:\n    print('done', n)", 'done 5'],
  [
    "x = 15\nif x > 20:\n    print('big')\nelif x > 10:\n    print('medium')\nelse:\n    print('small')",
    'medium',
  ],
  [
    'for x in [1, 2]:\n    for y in [3, 4]:\n        if y == 4:\n            break\n        print(x, y)',
    '1 3\n2 3',
  ],
  [
    'def area(w, h=2, *args, scale=1, **kw):\n    return w * h * scale + sum(args) + len(kw)\nprint(area(3), area(3, 4), area(3, 4, 5, 6), area(3, scale=10), area(w=1, h=1, extra=1))',
    '6 12 23 60 2',
  ],
  ['def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\nfact(30)', '2.6525285981219107e+32'],
  [
    "def make(k):\n    def add(x):\n        return x + k\n    return add\nadd5 = make(5)\nprint(add5(10), (lambda x, y=2: x ** y)(3), list(map(lambda s: s.upper(), ['a'])))",
    "15 9 ['A']",
  ],
  [
    'def counter():\n    count = 0\n    def inc():\n        nonlocal count\n        count += 1\n        return count\n    return inc\nc = counter()\nc()\nc()\nprint(c())',
    '3',
  ],
  ['total = 0\ndef bump(n):\n    global total\n    total += n\nbump(3)\nbump(4)\nprint(total)', '7'],
  [
    "def f(a, b):\n    return a - b\nargs = [10, 3]\nkw = {'b': 1, 'a': 5}\nprint(f(*args), f(**kw), f(*[1], **{'b': 2}))",
    '7 4 -1',
  ],
  ['def g():\n    pass\nprint(g())', 'None'],
  [
    'def stats(nums):\n    mean = sum(nums) / len(nums)\n    var = sum((x - mean) ** 2 for x in nums) / len(nums)\n    return mean, var\nstats([2, 4, 4, 4, 5, 5, 7, 9])',
    '(5.0, 4.0)',
  ],
  [
    'fib = [0, 1]\nwhile len(fib) < 15:\n    fib.append(fib[-1] + fib[-2])\nprint(fib[-1], fib)',
    '377 [0, 1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377]',
  ],
  [
    "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print('caught', e)\nfinally:\n    print('cleanup')",
    'caught division by zero\ncleanup',
  ],
  [
    "try:\n    int('x')\nexcept (TypeError, ValueError) as e:\n    print(type(e), e.args)\nelse:\n    print('no')",
    "<class 'ValueError'> (\"invalid literal for int() with base 10: 'x'\",)",
  ],
  [
    "def check(v):\n    if v < 0:\n        raise ValueError('negative: ' + str(v))\n    return v\ntry:\n    check(-2)\nexcept Exception as err:\n    print(repr(err))",
    "ValueError('negative: -2')",
  ],
  ["try:\n    {}['missing']\nexcept KeyError as e:\n    print('KeyError', e)", "KeyError 'missing'"],
  [
    "try:\n    try:\n        raise IndexError('inner')\n    except IndexError:\n        raise\nexcept LookupError as e:\n    print('outer', e)",
    'outer inner',
  ],
  [
    "def f():\n    try:\n        return 'try'\n    finally:\n        print('finally runs')\nprint(f())",
    'finally runs\ntry',
  ],
  [
    'x = 0\nfor i in range(3):\n    try:\n        if i == 1:\n            continue\n        x += 10\n    finally:\n        x += 1\nprint(x)',
    '23',
  ],
  ['print(undefined_name)', "NameError: name 'undefined_name' is not defined"],
  ['x = 1\ny = 0\nprint(x / y)', 'ZeroDivisionError: division by zero'],
  ['1.0 / 0', 'ZeroDivisionError: float division by zero'],
  ['5 // 0', 'ZeroDivisionError: integer division or modulo by zero'],
  ['5 % 0', 'ZeroDivisionError: integer modulo by zero'],
  ["1 + 'a'", "TypeError: unsupported operand type(s) for +: 'int' and 'str'"],
  ["'a' + 1", 'TypeError: can only concatenate str (not "int") to str'],
  ['[1, 2][5]', 'IndexError: list index out of range'],
  ["d = {'k': 1}\nd['z']", "KeyError: 'z'"],
  ['[].foo()', "AttributeError: 'list' object has no attribute 'foo'"],
  ["int('abc')", "ValueError: invalid literal for int() with base 10: 'abc'"],
  ["float('x')", "ValueError: could not convert string to float: 'x'"],
  ['len(5)', "TypeError: object of type 'int' has no len()"],
  ['None + 1', "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"],
  ['x = [1, 2, 3]\nprint(x.index(7))', 'ValueError: 7 is not in list'],
  ['a, b = [1, 2, 3]', 'ValueError: too many values to unpack (expected 2)'],
  ["'abc'.split('')", 'ValueError: empty separator'],
  ["sorted([1, 'a'])", "TypeError: '<' not supported between instances of 'str' and 'int'"],
  ['def f(a, b):\n    return a\nf(1)', "TypeError: f() missing 1 required positional argument: 'b'"],
  ['def f(a):\n    return a\nf(1, 2)', 'TypeError: f() takes 1 positional argument but 2 were given'],
  ['def f(a):\n    return a\nf(1, b=2)', "TypeError: f() got an unexpected keyword argument 'b'"],
  ["raise ValueError('custom message')", 'ValueError: custom message'],
  ["raise KeyError('k')", "KeyError: 'k'"],
  ["assert 1 > 2, 'assertion text'", 'AssertionError: assertion text'],
  [
    'def f():\n    print(zz)\n    zz = 1\nf()',
    "UnboundLocalError: cannot access local variable 'zz' where it is not associated with a value",
  ],
  ['import geopy', "ModuleNotFoundError: No module named 'geopy'"],
  [
    'from geopy.distance import geodesic\nprint(geodesic((1, 2), (3, 4)).miles)',
    "ModuleNotFoundError: No module named 'geopy'",
  ],
  ['x = (1,\ny = 2', "SyntaxError: '(' was never closed (<unknown>, line 1)"],
  ['a = 1\nb = 2\nc = = 3', 'SyntaxError: invalid syntax (<unknown>, line 3)'],
  [
    'if True:\nprint(1)',
    "IndentationError: expected an indented block after 'if' statement on line 1 (<unknown>, line 2)",
  ],
  ['for i in range(3)\n    print(i)', "SyntaxError: expected ':' (<unknown>, line 1)"],
  [
    "print('unterminated)",
    'SyntaxError: unterminated string literal (detected at line 1) (<unknown>, line 1)',
  ],
  ['x = 1\n  y = 2', 'IndentationError: unexpected indent (<unknown>, line 2)'],
  ['print(1))', "SyntaxError: unmatched ')' (<unknown>, line 1)"],
  ['x = 1\nreturn x', "SyntaxError: 'return' outside function (<string>, line 1)"],
  ['break', "SyntaxError: 'break' outside loop (<string>, line 1)"],
  ["{'a': 1}.items()[0]", "TypeError: 'dict_items' object is not subscriptable"],
  ['x = 5\nx()', "TypeError: 'int' object is not callable"],
  ['max([])', 'ValueError: max() arg is an empty sequence'],
  ["'abc'[10]", 'IndexError: string index out of range'],
  ['import math\nmath.sqrt(-1)', 'ValueError: math domain error'],
  ['import math\nmath.log(0)', 'ValueError: math domain error'],
  ['[1, 2, 3].pop(10)', 'IndexError: pop index out of range'],
  [
    'int(None)',
    "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
  ],
  ['print(10.0 ** 400)', "OverflowError: (34, 'Numerical result out of range')"],
  [
    "print(int('9' * 5000))",
    'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit',
  ],
  ['print(None.attr)', "AttributeError: 'NoneType' object has no attribute 'attr'"],
  ["print('%d' % 'x')", 'TypeError: %d format: a real number is required, not str'],
  ["print('{} {}'.format(1))", 'IndexError: Replacement index 1 out of range for positional args tuple'],
  ["print(f'{3.5:d}')", "ValueError: Unknown format code 'd' for object of type 'float'"],
  ["x = {'a': 1}\nfor k in x:\n    x['b'] = 2", 'RuntimeError: dictionary changed size during iteration'],
  ['l = [1, 2]\nl[5] = 3', 'IndexError: list assignment index out of range'],
  ['t = (1, 2)\nt[0] = 3', "TypeError: 'tuple' object does not support item assignment"],
  ["s = 'abc'\ns[0] = 'x'", "TypeError: 'str' object does not support item assignment"],
  ["print(1 < 'a')", "TypeError: '<' not supported between instances of 'int' and 'str'"],
  ['hash([1])', "TypeError: unhashable type: 'list'"],
  ['{[1]: 2}', "TypeError: unhashable type: 'list'"],
  ['next(iter([]))', 'StopIteration:'],
  ["print(abs('x'))", "TypeError: bad operand type for abs(): 'str'"],
  ['print(chr(-1))', 'ValueError: chr() arg not in range(0x110000)'],
  ['range(0, 10, 0)', 'ValueError: range() arg 3 must not be zero'],
  ["print(round(float('inf')))", 'OverflowError: cannot convert float infinity to integer'],
  ["'a' * 'b'", "TypeError: can't multiply sequence by non-int of type 'str'"],
  ["print(5 in 'abc')", "TypeError: 'in <string>' requires string as left operand, not int"],
  ['print(unknown.attr)', "NameError: name 'unknown' is not defined"],
  ['import statistics\nstatistics.mean([])', 'StatisticsError: mean requires at least one data point'],
  ['import statistics\nstatistics.stdev([1])', 'StatisticsError: stdev requires at least two data points'],
  [
    "from datetime import datetime\ndatetime.strptime('2020-13-01', '%Y-%m-%d')",
    "ValueError: time data '2020-13-01' does not match format '%Y-%m-%d'",
  ],
  [
    "from datetime import datetime\ndatetime.strptime('2020-01-01 9', '%Y-%m-%d')",
    'ValueError: unconverted data remains:  9',
  ],
  [
    'import math\nprint(math.sqrt(16), math.floor(2.7), math.ceil(2.1), math.floor(-2.5), math.pow(2, 10), math.exp(1), math.log(100, 10), math.log10(1000), math.log2(8), math.log(math.e))',
    '4.0 2 3 -3 1024.0 2.718281828459045 2.0 3.0 3.0 1.0',
  ],
  [
    'import math\nprint(math.fabs(-3), math.pi, math.e, math.inf, math.isclose(0.1 + 0.2, 0.3), math.fsum([0.1] * 10), math.factorial(20), math.gcd(12, 18), math.hypot(3, 4))',
    '3.0 3.141592653589793 2.718281828459045 inf True 1.0 2432902008176640000 6 5.0',
  ],
  [
    'import math\nprint(math.radians(180), math.degrees(math.pi / 2), round(math.sin(math.pi / 6), 10), math.cos(0), math.tan(0), math.atan2(1, 1), math.isqrt(17), math.comb(5, 2), math.perm(5, 2), math.trunc(-3.7))',
    '3.141592653589793 90.0 0.5 1.0 0.0 0.7853981633974483 4 10 20 -3',
  ],
  ['from math import sqrt, pi\nprint(sqrt(2) * pi)', '4.4429'],
  ['from math import *\nprint(floor(sqrt(50)), ceil(log(1000, 10)))', '7 3'],
  [
    'import math\nlat1, lon1, lat2, lon2 = map(math.radians, [40.7128, -74.0060, 34.0522, -118.2437])\ndlat = lat2 - lat1\ndlon = lon2 - lon1\na = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2\nprint(round(2 * 3958.8 * math.asin(math.sqrt(a)), 2))',
    '2445.59',
  ],
  [
    'import math\nprint(math.log(10**400), math.fsum([1e100, 1.0, -1e100]), math.prod([1, 2, 3, 4]), math.lcm(4, 6), math.copysign(3, -0.0), math.fmod(-7, 3), math.modf(3.5), math.frexp(8.0), math.ldexp(0.5, 4), math.isfinite(1e308))',
    '921.0340371976182 1.0 24 12 -3.0 -1.0 (0.5, 3.0) (0.5, 4) 8.0 True',
  ],
  [
    'import statistics\nprint(statistics.mean([1, 2, 3, 4]), statistics.mean([1, 2, 3]), statistics.mean([1.5, 2.5]), statistics.median([3, 1, 2]), statistics.median([1, 2, 3, 4]), statistics.mode([1, 1, 2, 3, 3, 3]))',
    '2.5 2 2.0 2 2.5 3',
  ],
  [
    'import statistics as st\ndata = [2.75, 1.75, 1.25, 0.25, 0.5, 1.25, 3.5]\nprint(st.variance(data), st.stdev(data), st.pvariance(data), st.pstdev(data))',
    '1.3720238095238095 1.171334200612195 1.1760204081632653 1.084444746477784',
  ],
  [
    'import statistics\nprint(statistics.stdev([1, 2, 3, 4, 5]), statistics.pstdev([2, 4, 4, 4, 5, 5, 7, 9]), statistics.variance([1, 2, 3, 4]), statistics.mean([0.1, 0.2, 0.3]), statistics.fmean([1, 2, 3, 4]), statistics.median_low([1, 2, 3, 4]), statistics.median_high([1, 2, 3, 4]))',
    '1.5811388300841898 2.0 1.6666666666666667 0.2 2.5 2 3',
  ],
  [
    "import statistics\nprint(statistics.mode(['a', 'b', 'b', 'a']), statistics.multimode([1, 1, 2, 2, 3]), statistics.mean([True, False, True]))",
    'a [1, 2] 0.6666666666666666',
  ],
  [
    "from statistics import mean, median\nprices = [627.0, 1021.5, 88.25, 540.0]\nprint(f'${mean(prices):.1f}', median(prices))",
    '$569.2 583.5',
  ],
  ['import statistics\nstatistics.median([])', 'StatisticsError: no median for empty data'],
  ['import statistics\nstatistics.mode([])', 'StatisticsError: no mode for empty data'],
  [
    'import statistics\nstatistics.variance([5])',
    'StatisticsError: variance requires at least two data points',
  ],
  [
    'import numpy as np\nprint(np.mean([1, 2, 3, 4]), np.median([3, 1, 2]), np.median([1, 2, 3, 4]), np.std([1, 2, 3, 4]), np.std([1, 2, 3, 4], ddof=1), np.sum([1, 2, 3]), np.sum([0.1] * 10), np.max([3, 7, 2]), np.min([3.5, 1.5]))',
    '2.5 2.0 2.5 1.118033988749895 1.2909944487358056 6 1.0 7 1.5',
  ],
  [
    'import numpy as np\narr = np.array([1.0, 2.5, 3.0])\nprint(arr)\nprint(arr * 2)\nprint(arr.mean(), arr.sum(), arr.max(), len(arr), arr[1], arr[-1], arr.tolist())',
    'arr: [1.  2.5 3. ]\narr * 2: [2. 5. 6.]\narr.mean(: 2.1666666666666665 6.5 3.0 3 2.5 3.0 [1.0, 2.5, 3.0]',
  ],
  [
    'import numpy as np\na = np.array([1, 10, 100])\nprint(a, a + 1, a / 10, a > 5, a[a > 5], a.argmax(), np.argmin(a), a.dtype, a.shape)',
    '[  1  10 100] [  2  11 101] [ 0.1  1.  10. ] [False  True  True] [ 10 100] 2 0 int64 (3,)',
  ],
  [
    'import numpy as np\nprint(np.percentile([1, 2, 3, 4], 40), np.percentile([10, 20, 30, 40, 50], [25, 50, 75]), np.round(2.5), np.round(3.14159, 2), np.round([1.234, 5.678], 1), np.cumsum([1, 2, 3]), np.var([1, 2, 3, 4]))',
    '2.2 [20. 30. 40.] 2.0 3.14 [1.2 5.7] [1 3 6] 1.25',
  ],
  [
    "import numpy as np\nprint(np.array([True, False]), np.array(['a', 'bc']), np.array([1e-5, 1.0]), np.array([0.1 + 0.2, 1/3]), np.array([]), np.arange(5), np.arange(0, 1, 0.25), np.linspace(0, 1, 5), np.zeros(3), np.ones(2))",
    "[ True False] ['a' 'bc'] [1.e-05 1.e+00] [0.3        0.33333333] [] [0 1 2 3 4] [0.   0.25 0.5  0.75] [0.   0.25 0.5  0.75 1.  ] [0. 0. 0.] [1. 1.]",
  ],
  [
    'import numpy as np\nprint(np.arange(40) * 1.5)',
    '[ 0.   1.5  3.   4.5  6.   7.5  9.  10.5 12.  13.5 15.  16.5 18.  19.5\n 21.  22.5 24.  25.5 27.  28.5 30.  31.5 33.  34.5 36.  37.5 39.  40.5\n 42.  43.5 45.  46.5 48.  49.5 51.  52.5 54.  55.5 57.  58.5]',
  ],
  [
    'import numpy as np\nprint(np.arange(30))',
    '[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n 24 25 26 27 28 29]',
  ],
  [
    'import numpy as np\nprint(np.array([np.nan, 1.5, -np.inf]), np.array([123456789.0, 1.0]), np.array([-1.5, 2.25]), np.array([1.123456789, 2.0]))',
    '[ nan  1.5 -inf] [1.23456789e+08 1.00000000e+00] [-1.5   2.25] [1.12345679 2.        ]',
  ],
  [
    'import numpy as np\nvals = [3.2, 4.8, 5.1, 2.2, 9.9, 7.7, 1.1, 6.6, 5.5, 4.4, 8.8, 3.3, 2.9]\nprint(np.mean(vals), np.std(vals), np.median(vals), np.percentile(vals, 90), np.sum(vals))',
    '5.038461538461538 2.519627097421198 4.8 8.580000000000002 65.5',
  ],
  [
    'import numpy as np\nx = np.array([4, 8, 15, 16, 23, 42])\nprint(x.mean(), x.std(), x.var(), x.sum(), x.min(), x.cumsum(), np.unique([3, 1, 3, 2]), np.diff([1, 4, 9]), np.sqrt([4, 9]), np.abs([-1, 2]))',
    '18.0 12.315302134607444 151.66666666666666 108 4 [  4  12  27  43  66 108] [1 2 3] [3 5] [2. 3.] [1 2]',
  ],
  ['import numpy as np\nnp.mean([1, 2, 3])', '2.0'],
  ['import numpy as np\nnp.array([1, 2, 3])', '[1 2 3]'],
  ['import numpy as np\nx = np.array([1.5, 2.5])\nx', '[1.5 2.5]'],
  [
    "import numpy as np\nprices = np.array([120, 85, 240, 99])\nnames = ['a', 'b', 'c', 'd']\nprint(names[int(np.argmin(prices))], names[prices.argmax()], prices[prices < 100], (prices * 1.1).round(1))",
    'b c [85 99] [132.   93.5 264.  108.9]',
  ],
  [
    'import numpy as np\nnp.max([])',
    'ValueError: zero-size array to reduction operation maximum which has no identity',
  ],
  [
    'import numpy as np\nprint(np.average([1, 2, 3], weights=[3, 2, 1]), np.where(np.array([1, 5, 2]) > 1), np.where([True, False], 1, 0), np.count_nonzero([0, 1, 2]), np.clip([1, 5, 9], 2, 8), np.sort([3, 1, 2]), np.argsort([3, 1, 2]))',
    '1.6666666666666667 (array([1, 2]),) [1 0] 2 [2 5 8] [1 2 3] [1 2 0]',
  ],
  [
    "from datetime import datetime, timedelta\nstart = datetime.strptime('9:00 AM', '%I:%M %p')\nend = datetime.strptime('11:30 AM', '%I:%M %p')\nprint(end - start)",
    '2:30:00',
  ],
  [
    "from datetime import datetime\nd = datetime(2022, 1, 1)\nprint(d, repr(d), d.year, d.weekday(), d.strftime('%Y/%m/%d %A'), d.isoformat())",
    '2022-01-01 00:00:00 datetime.datetime(2022, 1, 1, 0, 0) 2022 5 2022/01/01 Saturday 2022-01-01T00:00:00',
  ],
  [
    'from datetime import datetime, timedelta\na = datetime(2022, 3, 1, 18, 0)\nb = datetime(2022, 3, 2, 9, 30)\ndelta = b - a\nprint(delta, delta.days, delta.seconds, delta.total_seconds(), delta.total_seconds() / 3600)',
    '15:30:00 0 55800 55800.0 15.5',
  ],
  [
    'from datetime import timedelta\nprint(timedelta(days=1), timedelta(hours=2, minutes=30), timedelta(days=-1, hours=3), timedelta(seconds=-1), timedelta(days=2, microseconds=5), timedelta(weeks=1, minutes=90), repr(timedelta(days=1, seconds=3600)), repr(timedelta()))',
    '1 day, 0:00:00 2:30:00 -1 day, 3:00:00 -1 day, 23:59:59 2 days, 0:00:00.000005 7 days, 1:30:00 datetime.timedelta(days=1, seconds=3600) datetime.timedelta(0)',
  ],
  [
    'from datetime import datetime, timedelta\nd = datetime(2022, 12, 31, 23, 0) + timedelta(hours=2)\nprint(d, d - timedelta(days=365), d > datetime(2022, 1, 1), min(d, datetime(2000, 1, 1)))',
    '2023-01-01 01:00:00 2022-01-01 01:00:00 True 2000-01-01 00:00:00',
  ],
  [
    "import datetime\nd = datetime.date(2020, 2, 28) + datetime.timedelta(days=1)\nprint(d, d.isoformat(), (datetime.date(2020, 3, 1) - datetime.date(2020, 1, 1)).days, datetime.date(2024, 1, 1).strftime('%j %a %b'), datetime.time(9, 30))",
    '2020-02-29 2020-02-29 60 001 Mon Jan 09:30:00',
  ],
  [
    "from datetime import datetime\nfmt = '%Y/%m/%d'\nprint(datetime.strptime('2022/01/06', fmt).strftime('%B %d, %Y'), datetime.strptime('Jan 5 2020', '%b %d %Y').date(), datetime.strptime('3/4/21 5:06:07 pm', '%m/%d/%y %I:%M:%S %p'))",
    'January 06, 2022 2020-01-05 2021-03-04 17:06:07',
  ],
  [
    "from datetime import datetime\nevents = [('9:00 AM', '1:00 PM'), ('3:00 PM', '6:00 PM')]\nfor s, e in events:\n    t1 = datetime.strptime(s, '%I:%M %p')\n    t2 = datetime.strptime(e, '%I:%M %p')\n    print(s, e, t2 - t1, (t2 - t1).seconds // 60)",
    '9:00 AM 1:00 PM 4:00:00 240\n3:00 PM 6:00 PM 3:00:00 180',
  ],
  [
    'from datetime import datetime, timedelta\nprint(timedelta(hours=1) * 2, timedelta(days=1) / 3, timedelta(minutes=90) // timedelta(hours=1), timedelta(hours=1) / timedelta(minutes=7), abs(timedelta(-1)), -timedelta(hours=1), timedelta(days=1) * 1.5)',
    '2:00:00 8:00:00 1 8.571428571428571 1 day, 0:00:00 -1 day, 23:00:00 1 day, 12:00:00',
  ],
  [
    'from datetime import datetime, date\nprint(datetime(2020, 1, 1) == date(2020, 1, 1), date(2020, 1, 1) < date(2020, 1, 2), datetime(2020, 5, 17, 1, 2, 3, 4), datetime.combine(date(2020, 1, 1), datetime(1900, 1, 1, 5, 30).time()))',
    'False True 2020-05-17 01:02:03.000004 2020-01-01 05:30:00',
  ],
  [
    'from datetime import datetime\nprint(f"{datetime(2022, 7, 4):%d %b %Y}", format(datetime(2020, 1, 1), \'%Y\'), str(datetime(2022, 1, 1, 0, 0, 0)), datetime(2022, 1, 1).date() == datetime(2022, 1, 1, 5).date())',
    '04 Jul 2022 2020 2022-01-01 00:00:00 True',
  ],
  ['from datetime import datetime\ndatetime(2020, 2, 30)', 'ValueError: day is out of range for month'],
  [
    'from datetime import datetime\ndatetime(2020, 1, 1) - 5',
    "TypeError: unsupported operand type(s) for -: 'datetime.datetime' and 'int'",
  ],
  [
    'from datetime import timedelta\ntimedelta(days=1) / 0',
    'ZeroDivisionError: integer division or modulo by zero',
  ],
  [
    "print(format(1234.5, ','), format(0.5, '%'), format(1e100, 'g'), format(12, 'b'), format(-3.14159, '+.2f'), format('x', '*^5'), format(True, '>5'), format(1.0, '.0f'), format(2.5, '.0f'), format(3.5, '.0f'))",
    '1,234.5 50.000000% 1e+100 1100 -3.14 **x**     1 1 2 4',
  ],
  [
    "print('{:010,}'.format(1234), '{:=+8.2f}'.format(-3.14159), '{:#x}'.format(255), '{:_b}'.format(255), '{:.3}'.format(12.0), '{:.2}'.format(1234.5), '{:g}'.format(123456789), '{:e}'.format(0.0))",
    '00,001,234 -   3.14 0xff 1111_1111 12.0 1.2e+03 1.23457e+08 0.000000e+00',
  ],
  [
    "print('%.3s|%5s|%-5s|%c|%i|%+d|% d' % ('abcdef', 'ab', 'ab', 65, 3.9, 5, 5))",
    'abc|   ab|ab   |A|3|+5| 5',
  ],
  [
    "v = 3.14159\nw = 10\nprint(f'{v:{w}.{2}f}|', f'{v!s:>10}', f'{\"q\"!r}', f'{v:.0f}', f'{-0.0:z.1f}')",
    "3.14|    3.14159 'q' 3 0.0",
  ],
  [
    'x = [1, 2, 3]\ny = x\ny += [4]\nprint(x)\nt = (1, 2)\nu = t\nu += (3,)\nprint(t, u)',
    'x: [1, 2, 3, 4]\nt, u: (1, 2) (1, 2, 3)',
  ],
  [
    "items = [('a', 3), ('b', 1), ('c', 2)]\nitems.sort(key=lambda p: p[1])\nprint(items, sorted(items, key=lambda p: p[1], reverse=True)[0][0])",
    "[('b', 1), ('c', 2), ('a', 3)] a",
  ],
  [
    "prices = {'AAPL': 150.2, 'GOOG': 2800.5, 'MSFT': 299.99}\nbest = max(prices.items(), key=lambda kv: kv[1])\nprint(best, f'{best[0]}: ${best[1]:,.2f}')",
    "('GOOG', 2800.5) GOOG: $2,800.50",
  ],
  [
    'nums = [12, 7, 3, 19, 8]\nevens = [n for n in nums if n % 2 == 0]\nodds = list(filter(lambda n: n % 2, nums))\nprint(evens, odds, sum(evens) / len(evens), [n ** 2 for n in odds][:2])',
    '[12, 8] [7, 3, 19] 10.0 [49, 9]',
  ],
  [
    "s = 'Claire O\\'Shea'\nprint(repr(s), [s], {'name': s}, repr('a\"b\\'c'), repr('tab\\t'), ['é', '中'])",
    "\"Claire O'Shea\" [\"Claire O'Shea\"] {'name': \"Claire O'Shea\"} 'a\"b\\'c' 'tab\\t' ['é', '中']",
  ],
  ['x = 0.1 * 3\nx', '0.3'],
  ['x = 100.0\nx', '100.0'],
  ['y = 1/3\nprint(y)', '0.3333'],
  ['print(1/3)\nprint(2/3)', '1/3: 0.3333\n2/3: 0.6667'],
  ["print('a')\nprint('b')\nz = 5", "'a': a\n'b': b"],
  ["for i in range(2):\n    print('loop', i)\nprint('after')", "'loop', i: loop 0\nloop 1\n'after': after"],
  ["def show():\n    print('x')\nprint('defined')\nshow()", "'x': 'defined': defined"],
  ["if True:\n    print('in if')\nprint(print)", "'in if': in if\nprint: <built-in function print>"],
  ['print (5)\nprint(6)', '5\n6: 6'],
  ["print('a', 'b', sep='-', end='!\\n')\nprint()", "'a', 'b', sep='-', end='!\\n': a-b!\n:"],
  [
    "print('x' * 600)",
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  ],
  [
    "'y' * 600",
    'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy',
  ],
  [
    'print(list(range(200)))',
    '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64,...150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 192, 193, 194, 195, 196, 197, 198, 199]',
  ],
  ["print('   padded   ')", 'padded'],
  ["print('1_000')", '1_000'],
  ["print('nan')", 'nan'],
  ["print(' 2.50 ')", '2.5'],
  ['print(0.99999999)', '1.0'],
  ['print(True)', 'True'],
  ['import math\nmath.pi', '3.1416'],
  ['x = 5\nx > 3', 'True'],
  ['None', 'You should print the variable you want to obtain the python result.'],
  ['[]', '[]'],
  ['print(None)', 'None'],
  [
    "print([1, 2] + [3], (1,) * 3, {'a': [1, {'b': (2, None)}]})",
    "[1, 2, 3] (1, 1, 1) {'a': [1, {'b': (2, None)}]}",
  ],
  ['a = [1]\na.append(a)\nprint(a)', '[1, [...]]'],
  [
    'print(type(None), type(len), type(print), callable(len), type(type), isinstance(int, type))',
    "<class 'NoneType'> <class 'builtin_function_or_method'> <class 'builtin_function_or_method'> True <class 'type'> True",
  ],
  [
    "print(list(map(int, '1 2 3'.split())), list(zip(*[(1, 'a'), (2, 'b')])), dict(enumerate('xy')))",
    "[1, 2, 3] [(1, 2), ('a', 'b')] {0: 'x', 1: 'y'}",
  ],
  [
    "g = (i * i for i in range(4))\nprint(next(g), next(g), list(g), sum(i for i in range(101)), max((len(w), w) for w in 'a bbb cc'.split()))",
    "0 1 [4, 9] 5050 (3, 'bbb')",
  ],
  ["it = iter([1, 2, 3])\nprint(next(it), list(it), next(it, 'done'))", '1 [2, 3] done'],
  [
    'print(1_000_000, 0x10, 0o17, 0b101, 1e3, .5, 5., 10 ** -2, 2 ** 0.5)',
    '1000000 16 15 5 1000.0 0.5 5.0 0.01 1.4142135623730951',
  ],
  [
    'print(-7 // 2, -7 % 2, 7.5 // 2, -7.5 % 2, 2 ** 63, -2 ** 2, (-2) ** 2, 5 ^ 3, 5 & 3, 5 | 3, 1 << 10, 1024 >> 3, ~5)',
    '-4 1 3.0 0.5 9223372036854775808 -4 4 6 1 7 1024 128 -6',
  ],
  [
    "print(3 * 'ab', [None] * 2, 10 / 4, 10 // 4, 10 % 4, 2 ** 3 ** 2, 1 + 2 * 3 - 4 / 2)",
    'ababab [None, None] 2.5 2 2 512 5.0',
  ],
  ['x = 10\nx += 5\nx -= 3\nx *= 2\nx /= 4\nx **= 2\nx //= 2\nprint(x)', '18.0'],
  [
    "print(int(True), float(False), str(True), 1 == 1.0, 1 is 1, 'a' is 'a', None is None, [] is [])",
    '1 0.0 True True True True True False',
  ],
  [
    "print(max(1, 2.5), min(-1, -1.0), max('apple', 'banana'), sorted([2, 1.5, True]))",
    '2.5 -1 banana [True, 1.5, 2]',
  ],
  ["print(bool(0.0), bool('False'), bool(None), bool({}), bool(range(0)))", 'False True False False False'],
  ['a = b = c = 7\nprint(a, b, c)', '7 7 7'],
  ["x = 5\ny = x if x > 3 else -x\nprint(y, 'big' if x > 10 else 'small')", '5 small'],
  ['n = 10\nprint([i for i in range(n) if (sq := i * i) > 20][:2], sq)', '[5, 6] 81'],
  ["print('%s and %s' % ('a', 'b'), 'x%sy' % 5, '%%')", 'a and b x5y %%'],
  [
    "data = '2022-01-06,45.5\\n2022-01-07,46.25'\nrows = [line.split(',') for line in data.splitlines()]\nprint(rows, sum(float(r[1]) for r in rows) / len(rows))",
    "[['2022-01-06', '45.5'], ['2022-01-07', '46.25']] 45.875",
  ],
  [
    "text = 'The quick brown fox'\nprint(len(text.split()), text.lower().count('o'), text[::-1], ' '.join(w[::-1] for w in text.split()))",
    '4 2 xof nworb kciuq ehT ehT kciuq nworb xof',
  ],
  ['import math\nprint(math.floor(-0.5), round(-0.5), round(0.5), round(1.5), int(-0.5))', '-1 0 0 2 0'],
  [
    "from datetime import datetime\nprint(datetime.strptime('2022-01-06', '%Y-%m-%d') < datetime.strptime('2022-01-07', '%Y-%m-%d'))",
    'True',
  ],
  [
    "values = ['1,234', '$56.78', '90']\nclean = [float(v.replace(',', '').replace('$', '')) for v in values]\nprint(clean, sum(clean))",
    '[1234.0, 56.78, 90.0] 1380.78',
  ],
  [
    "print(sorted({'b': 2, 'a': 1}), sorted([(2, 'b'), (1, 'z'), (1, 'a')]), sorted('bca'))",
    "['a', 'b'] [(1, 'a'), (1, 'z'), (2, 'b')] ['a', 'b', 'c']",
  ],
  ['x = [5, 3, 8]\nprint(x.sort(), x, sorted(x, key=None))', 'None [3, 5, 8] [3, 5, 8]'],
  ['def f(*args, **kwargs):\n    return args, kwargs\nprint(f(1, 2, a=3))', "((1, 2), {'a': 3})"],
  [
    'def f(a, *, b):\n    return a + b\nprint(f(1, b=2))\nf(1, 2)',
    'TypeError: f() takes 1 positional argument but 2 were given',
  ],
  [
    'def outer():\n    x = 1\n    def inner():\n        return x + 1\n    x = 10\n    return inner()\nprint(outer())',
    '11',
  ],
  ['funcs = [lambda: i for i in range(3)]\nprint([f() for f in funcs])', '[2, 2, 2]'],
  ['def rec(n):\n    return rec(n + 1)\nrec(0)', 'RecursionError: maximum recursion depth exceeded'],
  [
    "print('caf\\u00e9', '\\x41\\t|', r'\\n', b'x' if False else 'y', len('😀'), '😀'[0], 'a😀b'[1:], '😀' < '\\uffff')",
    'café A\t| \\n y 1 😀 😀b False',
  ],
  ["print(\"\"\"multi\nline\"\"\", '''x\\'y''')", "multi\nline x'y"],
  [
    "x = 'It\\'s'\nprint(x, repr(x), f\"{x!r}\", f'{x:>8}', f'{x[0]}{x[-1]}')",
    'It\'s "It\'s" "It\'s"     It\'s Is',
  ],
  [
    "d = {'a': 1}\nprint(f\"{d['a']}\", f'{d[\"a\"] + 1}', f'{len(d)=}', f'{ 1 + 1 }', f'{3!r:>4}')",
    '1 2 len(d)=1 2    3',
  ],
  [
    "width = 10\nprecision = 3\nvalue = 12.34567\nprint(f'result: {value:{width}.{precision}}')",
    'result:       12.3',
  ],
  [
    "print(f'{1e21}', f'{1e-7}', f'{123.0}', f'{-0.0}', f'{2**0.5:.10f}', f'{1/7:.20f}')",
    '1e+21 1e-07 123.0 -0.0 1.4142135624 0.14285714285714284921',
  ],
  [
    "print(format(0.1, '.17f'), format(2.675, '.2f'), format(1.005, '.2f'), '%.2f' % 0.125, '%.0f' % 0.5, '%.1f' % 0.25, round(0.375, 2), round(2.5e-5, 5))",
    '0.10000000000000001 2.67 1.00 0.12 0 0.2 0.38 3e-05',
  ],
  [
    "print(3.0 == 3, hash(3.0) == hash(3), 0.1 + 0.2 == 0.3, abs(-0.0), -0.0 == 0.0, float('1e309'), 1e308 * 10)",
    'True True False 0.0 True inf inf',
  ],
  [
    'print(1 // 0.5, 7 % 2.5, -7 % 2.5, 2 ** 0.5 ** 2, 10 ** -1, 0 ** 0, 0.0 ** 0, (-8) ** 2, 9 ** 0.5)',
    '2.0 2.0 0.5 1.189207115002721 0.1 1 1.0 64 3.0',
  ],
  [
    "print(int('  12  '), int('-0'), int('+5'), int(1e10), int(-1.5), float('  .5'), float('1_0'), float('INF'), float('-nan'), int(True))",
    '12 0 5 10000000000 -1 0.5 10.0 inf nan 1',
  ],
  [
    'print(100 / 3, 2 / 3 * 3, 1e16 + 1, 9007199254740993, 0.1 * 3, 1 - 0.9, 4.35 * 100, 1.1 + 2.2)',
    '33.333333333333336 2.0 1e+16 9007199254740993 0.30000000000000004 0.09999999999999998 434.99999999999994 3.3000000000000003',
  ],
  [
    'print(sum([1e100, 1.0, -1e100]), sum(range(1, 101)) / 100, max(0.1 + 0.2, 0.3), 3 * 1.1, 0.7 + 0.1)',
    '0.0 50.5 0.30000000000000004 3.3000000000000003 0.7999999999999999',
  ],
  ["def gen():\n    yield 1\nprint('x')", 'x'],
  [
    "print([x * y for x in range(3) for y in range(x)], {k: [v] for k, v in zip('ab', (1, 2))}, [[j for j in range(i)] for i in range(3)])",
    "[0, 0, 2] {'a': [1], 'b': [2]} [[], [0], [0, 1]]",
  ],
  [
    "vals = [5, 2, 8]\nidx = sorted(range(len(vals)), key=lambda i: vals[i])\nprint(idx, [vals[i] for i in idx], list(zip(*sorted(zip(vals, 'abc')))))",
    "[1, 0, 2] [2, 5, 8] [(2, 5, 8), ('b', 'a', 'c')]",
  ],
  ['xs = [1, 2, 3]\nys = xs\nxs = xs + [4]\nprint(xs, ys)', '[1, 2, 3, 4] [1, 2, 3]'],
  [
    'def f(x, acc=None):\n    if acc is None:\n        acc = []\n    acc.append(x)\n    return acc\nprint(f(1), f(2))',
    '[1] [2]',
  ],
  [
    'try:\n    [1, 2, 3][3]\nexcept IndexError as e:\n    msg = str(e)\nprint(msg, type(msg))',
    "list index out of range <class 'str'>",
  ],
  ["try:\n    x = 1 / 0\nexcept Exception as e:\n    print(f'Error: {e}')\nprint('continues')", 'continues'],
  [
    "try:\n    raise ValueError\nexcept ValueError as e:\n    print(repr(e), str(e) == '')",
    'ValueError() True',
  ],
  [
    "def safe_div(a, b):\n    try:\n        return a / b\n    except ZeroDivisionError:\n        return float('inf')\n    finally:\n        pass\nprint(safe_div(1, 0), safe_div(6, 3))",
    'inf 2.0',
  ],
  [
    "errors = []\nfor v in ['1', 'x', '3.5']:\n    try:\n        errors.append(int(v))\n    except ValueError as e:\n        errors.append(str(e))\nprint(errors)",
    '[1, "invalid literal for int() with base 10: \'x\'", "invalid literal for int() with base 10: \'3.5\'"]',
  ],
  ['print(__name__)', 'tools.code.tool'],
  [
    "if __name__ == '__main__':\n    print('main')",
    'You should print the variable you want to obtain the python result.',
  ],
  ['x = 5\ndel x\nprint(x)', "NameError: name 'x' is not defined"],
  ["lst = [1, 2, 3]\ndel lst[1]\nd = {'a': 1, 'b': 2}\ndel d['a']\nprint(lst, d)", "[1, 3] {'b': 2}"],
  [
    "print(sorted([3, 1, 2], key=lambda x: -x)[0], sorted(['b', 'a'], reverse=True), sorted([[2, 'b'], [1, 'a']]))",
    "3 ['b', 'a'] [[1, 'a'], [2, 'b']]",
  ],
  ['a = [3, 1, 2]\nb = sorted(a)\nprint(a, b, a.sort(), a)', '[1, 2, 3] [1, 2, 3] None [1, 2, 3]'],
  [
    "print(list(range(5))[::-1], list(reversed(range(5))), list(reversed('abc')), list(reversed({'x': 1, 'y': 2})))",
    "[4, 3, 2, 1, 0] [4, 3, 2, 1, 0] ['c', 'b', 'a'] ['y', 'x']",
  ],
  ["print(' '.join(map(str, [1, 2, 3])), ','.join(['a']), ''.join([]), '-'.join('abc'))", '1 2 3 a  a-b-c'],
  [
    "nested = {'a': {'b': {'c': 42}}}\nprint(nested['a']['b']['c'], nested.get('x', {}).get('y'), list(nested['a']))",
    "42 None ['b']",
  ],
  [
    "rows = [{'name': 'x', 'v': 3}, {'name': 'y', 'v': 1}]\nprint(max(rows, key=lambda r: r['v'])['name'], sorted(rows, key=lambda r: r['v'])[0], sum(r['v'] for r in rows))",
    "x {'name': 'y', 'v': 1} 4",
  ],
  [
    "from datetime import datetime\ndates = ['2022-01-05', '2021-12-31', '2022-03-01']\nparsed = sorted(datetime.strptime(d, '%Y-%m-%d') for d in dates)\nprint(parsed[0], (parsed[-1] - parsed[0]).days, [d.strftime('%b %d') for d in parsed])",
    "2021-12-31 00:00:00 60 ['Dec 31', 'Jan 05', 'Mar 01']",
  ],
  [
    "from datetime import datetime, timedelta\nt = datetime.strptime('23:30', '%H:%M')\nprint((t + timedelta(minutes=45)).strftime('%H:%M'), (t + timedelta(minutes=45)).day)",
    '00:15 2',
  ],
  [
    "import datetime as dt\nprint(dt.datetime(2022, 5, 1).strftime('%A'), dt.date(2022, 5, 1).isoweekday(), dt.timedelta(hours=36))",
    'Sunday 7 1 day, 12:00:00',
  ],
  [
    'import numpy as np\nprint(np.round(2.675, 2), np.round(0.125, 2), np.round(-1.5), np.round(1234.5678, -2), round(np.mean([0.1, 0.2, 0.3]), 3))',
    '2.68 0.12 -2.0 1200.0 0.2',
  ],
  [
    'import numpy as np\nx = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nprint(np.percentile(x, 25), np.percentile(x, 50), np.percentile(x, 99), np.quantile(x, 0.1), np.median(x))',
    '3.25 5.5 9.91 1.9 5.5',
  ],
  [
    'import numpy as np\na = np.array([2, 4, 6])\nb = np.array([1, 2, 3])\nprint(a + b, a * b, a / b, a - 1, 10 - a, a ** 2, a // 4, a % 4, -a, abs(-a), a == b * 2, (a > 3) & (a < 6))',
    '[3 6 9] [ 2  8 18] [2. 2. 2.] [1 3 5] [8 6 4] [ 4 16 36] [0 1 1] [2 0 2] [-2 -4 -6] [2 4 6] [ True  True  True] [False  True False]',
  ],
  [
    'import numpy as np\na = np.array([1.5, 2.5, 3.5])\na[0] = 10\nprint(a, a[1:], a[[0, 2]], len(a), list(a), sum(a), max(a), sorted(a, reverse=True))',
    '[10.   2.5  3.5] [2.5 3.5] [10.   3.5] 3 [10.0, 2.5, 3.5] 16.0 10.0 [10.0, 3.5, 2.5]',
  ],
  [
    'import numpy as np\nprint(np.mean([]), np.std([5.0]), np.var([1, 2, 3, 4], ddof=1))',
    'nan 0.0 1.6666666666666667',
  ],
  [
    'import numpy as np\nprint(np.array([1, 2]) + np.array([1, 2, 3]))',
    'ValueError: operands could not be broadcast together with shapes (2,) (3,)',
  ],
  [
    'import statistics\nprint(statistics.mean([1.1, 2.2, 3.3]), statistics.median([1.5, 2.5, 3.5, 4.5]), statistics.pstdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]), statistics.stdev([1.5, 2.5, 2.5, 2.75, 3.25, 4.75]))',
    '2.2 3.0 0.986893273527251 1.0810874155219827',
  ],
  [
    'import statistics\nprint(statistics.mean([1, 2]), statistics.mean([2, 2]), statistics.variance([1, 2, 3]), statistics.variance([1.0, 2.0, 3.0]), statistics.median([1, 3]), statistics.mean(x / 10 for x in range(5)))',
    '1.5 2 1 1.0 2.0 0.2',
  ],
  [
    "import math\nprint(math.floor(3.999999999999999999), math.ceil(-0.5), math.sqrt(10**20), math.log(8, 2), math.exp(710) if False else 'ok', math.inf > 10**400)",
    '4 0 10000000000.0 3.0 ok True',
  ],
  ['import math\nmath.exp(1000)', 'OverflowError: math range error'],
  ['import math\nmath.factorial(-1)', 'ValueError: factorial() not defined for negative values'],
  [
    'print((1).bit_length(), (255).bit_length(), (3.5).is_integer(), (4.0).is_integer(), (0.25).as_integer_ratio(), True.real)',
    '1 8 False True (1, 4) 1',
  ],
  [
    'r = range(2, 20, 3)\nprint(r, r[2], r[-1], r[1:3], 5 in r, 8 in r, r.index(8), len(r), list(r[::-1]))',
    'range(2, 20, 3) 8 17 range(5, 11, 3) True True 2 6 [17, 14, 11, 8, 5, 2]',
  ],
  [
    "print(all(c.isdigit() for c in '123'), any(w.startswith('b') for w in ['ab', 'bc']), sum(1 for _ in range(7)))",
    'True True 7',
  ],
  [
    "import math\nitems = [('a', 3.14159), ('b', 2.71828)]\nfor name, val in items:\n    print(f'{name}: {val:.2f} {math.floor(val)}')",
    'a: 3.14 3\nb: 2.72 2',
  ],
  ['total = 0\nfor i in range(1, 6):\n    total += i\n    print(total)', '1\n3\n6\n10\n15'],
  [
    "def describe(n):\n    if n < 0:\n        return 'neg'\n    elif n == 0:\n        return 'zero'\n    return 'pos'\nprint([describe(v) for v in (-1, 0, 1)])",
    "['neg', 'zero', 'pos']",
  ],
  ['print(max([]))', 'ValueError: max() arg is an empty sequence'],
  [
    "print(min([3, 1, 2], key=lambda v: v % 3), max(['a', 'bb'], key=len, default=None), min(5, 2, key=abs))",
    '3 bb 2',
  ],
  ['a = [1, 2, 3]\na[1:2] = []\na[:0] = [0]\na[len(a):] = [9]\nprint(a)', '[0, 1, 3, 9]'],
  [
    'matrix = [[1, 2, 3], [4, 5, 6]]\ntransposed = list(map(list, zip(*matrix)))\nprint(transposed, [sum(c) for c in zip(*matrix)])',
    '[[1, 4], [2, 5], [3, 6]] [5, 7, 9]',
  ],
  [
    "s = 'Hello'\nprint(s * 0, s * -1, [1] * 0, s.find(''), s.rfind(''), 'abc'.index('c', 1), 'aaa'.replace('a', 'b', 0))",
    '[] 0 5 2 aaa',
  ],
  [
    'x = None\nprint(x is None, x == None, x is not None, not x, [x] * 2)',
    'True True False True [None, None]',
  ],
  [
    "counts = {}\nfor ch in 'mississippi':\n    counts[ch] = counts.get(ch, 0) + 1\nprint(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))",
    "[('i', 4), ('s', 4), ('p', 2), ('m', 1)]",
  ],
  [
    "print('%5.2f%%' % 45.678, '%-10s|' % 'hi', '%+.3e' % 123456, '%o' % 8, '%X' % 255, '%#x' % 255, '%3d|%-3d|' % (5, 5))",
    '45.68% hi        | +1.235e+05 10 FF 0xff   5|5  |',
  ],
  [
    "print('{:>10}'.format('right'), '{:*<10}'.format('left'), '{:^10.3}'.format('center'), '{0:.2%}'.format(0.256), '{:,.2f}'.format(-1234567.891))",
    'right left******    cen     25.60% -1,234,567.89',
  ],
  [
    "price = 1234.5\nprint(f'${price:,.2f}', f'{price:e}', f'{price:g}', f'{price:10.1f}|', f'{int(price):d}', f'{price:.0f}')",
    '$1,234.50 1.234500e+03 1234.5     1234.5| 1234 1234',
  ],
  // Set iteration order (CPython's hash table: ints hash to themselves; removals leave dummies).
  [
    's = set([0, 33, -44, -41, 18, -38, -4, 24, -43, 14, -23, -46, -39, 5, 3, -42, -20, -39, 20, 4, -43])\nfor r in [-41, 24, 20, 33]:\n    s.discard(r)\nfor e in [24, 0, -44, -22, -45, 21, -33, -13, 3]:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([0, 33, -44, -41, 18]), s - {0}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: {0, 3, 4, 5, 14, 18, 21, 24, -46, -45, -44, -43, -42, -39, -38, -33, -23, -22, -20, -13, -4}\nlist(s.copy(: [0, 3, 4, 5, 14, 18, -46, -45, 21, -44, -43, 24, -42, -39, -38, -33, -23, -22, -20, -13, -4] {0, 1, 2, 3, 4, 5, 14, 18, -46, -45, 21, -44, -43, 24, -42, -39, -38, -33, -23, -22, -20, -13, -4} {0, 18, -44} {3, 4, 5, 14, 18, -46, -45, 21, -44, -43, 24, -42, -39, -38, -33, -23, -22, -20, -13, -4} {0, 3, 4, 5, 7, 8, 14, 18, 21, 24, -46, -45, -44, -43, -42, -39, -38, -33, -23, -22, -20, -13, -4}\ns.pop(: 0 {3, 4, 5, 14, 18, 21, 24, -46, -45, -44, -43, -42, -39, -38, -33, -23, -22, -20, -13, -4}',
  ],
  [
    's = set([2003, 2018, 2009, 2017, 2026, 2021, 2005, 2003, 2018, 2018])\nfor r in [2017, 2021, 2018, 2026, 2018]:\n    s.discard(r)\nfor e in [2018]:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([2003, 2018, 2009, 2017, 2026]), s - {2003}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: {2018, 2003, 2005, 2009}\nlist(s.copy(: [2009, 2018, 2003, 2005] {1, 2018, 2003, 2, 2005, 3, 2009} {2009, 2018, 2003} {2009, 2018, 2005} {2018, 7, 8, 2003, 2005, 2009}\ns.pop(: 2018 {2003, 2005, 2009}',
  ],
  [
    's = set([2006, 2015, 2021, 2017])\nfor r in [2021, 2015, 2017]:\n    s.discard(r)\nfor e in [2009, 2007, 2025, 2005, 2022]:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([2006, 2015, 2021, 2017]), s - {2006}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: {2022, 2025, 2005, 2006, 2007, 2009}\nlist(s.copy(: [2007, 2005, 2022, 2006, 2025, 2009] {1, 2, 3, 2022, 2025, 2005, 2006, 2007, 2009} {2006} {2022, 2025, 2005, 2007, 2009} {2022, 7, 8, 2025, 2005, 2006, 2007, 2009}\ns.pop(: 2022 {2025, 2005, 2006, 2007, 2009}',
  ],
  [
    's = set([18, 9, 16, 15, 10, 14, 9, 19, 2, 3, 16, 13, 5, 10, 4, 15])\nfor r in [9, 16, 15]:\n    s.discard(r)\nfor e in [18, 10, 10, 11, 19, 15, 18, 14]:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([18, 9, 16, 15, 10]), s - {18}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: {2, 3, 4, 5, 10, 11, 13, 14, 15, 18, 19}\nlist(s.copy(: [2, 3, 4, 5, 10, 11, 13, 14, 15, 18, 19] {1, 2, 3, 4, 5, 10, 11, 13, 14, 15, 18, 19} {10, 18, 15} {2, 3, 4, 5, 10, 11, 13, 14, 15, 19} {2, 3, 4, 5, 7, 8, 10, 11, 13, 14, 15, 18, 19}\ns.pop(: 2 {3, 4, 5, 10, 11, 13, 14, 15, 18, 19}',
  ],
  [
    's = set([8, 15, 2, 1, 9])\nfor r in [9, 1, 15, 2, 8]:\n    s.discard(r)\nfor e in []:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([8, 15, 2, 1, 9]), s - {8}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: set()\nlist(s.copy(: [] {1, 2, 3} set() set() {8, 7}\ns.pop(: None set()',
  ],
  [
    's = set([176211, 640595, 122783, 517674, 61818, 228807, 805550, 301394, 135623, 774230, 259642, 417225, 409940, 961351, 913752, 520625, 84495, 174447, 471007, 421154, 576129, 291335, 926295, 143577, 859077, 451434, 905953, 576947, 291945, 740710])\nfor r in [417225, 291335, 291945]:\n    s.discard(r)\nfor e in [241960, 158252, 87015, 184777, 158647, 243224]:\n    s.add(e)\nprint(s)\nprint(list(s.copy()), s | {1, 2, 3}, s & set([176211, 640595, 122783, 517674, 61818]), s - {176211}, s ^ {7, 8})\nprint(s.pop() if s else None, s)',
    's: {576129, 84495, 243224, 122783, 421154, 241960, 517674, 158252, 805550, 520625, 576947, 158647, 259642, 859077, 228807, 135623, 184777, 961351, 301394, 640595, 176211, 409940, 774230, 926295, 913752, 143577, 471007, 905953, 740710, 87015, 451434, 174447, 61818}\nlist(s.copy(: [576129, 84495, 243224, 122783, 421154, 241960, 517674, 158252, 805550, 520625, 576947, 158647, 259642, 859077, 228807, 135623, 184777, 961351, 301394, 640595, 176211, 409940, 774230, 926295, 913752, 143577, 471007, 905953, 740710, 87015, 451434, 174...95, 243224, 122783, 421154, 241960, 517674, 158252, 805550, 520625, 576947, 158647, 259642, 859077, 228807, 135623, 184777, 961351, 301394, 640595, 176211, 409940, 774230, 926295, 913752, 143577, 471007, 905953, 740710, 87015, 451434, 174447, 61818}\ns.pop(: 576129 {84495, 243224, 122783, 421154, 241960, 517674, 158252, 805550, 520625, 576947, 158647, 259642, 859077, 228807, 135623, 184777, 961351, 301394, 640595, 176211, 409940, 774230, 926295, 913752, 143577, 471007, 905953, 740710, 87015, 451434, 174447, 61818}',
  ],
  [
    'print(set([(2, 1), (5, 2), (6, 7), (6, 7), (4, 9), (5, 4)]))',
    '{(2, 1), (4, 9), (5, 4), (6, 7), (5, 2)}',
  ],
  ['print(set([2.0, 0.5, 3.0, 0.5, -3.75]))', '{0.5, 2.0, 3.0, -3.75}'],
  [
    'print(set([(4, 9), (6, 3), (6, 6), (6, 9), (3, 7), (4, 0), (5, 4), (4, 6), (2, 9), (0, 4), (2, 9), (2, 4), (8, 7), (5, 8), (1, 8), (8, 7), (6, 3), (3, 4), (9, 0), (6, 7)]))',
    '{(2, 4), (4, 0), (0, 4), (3, 4), (9, 0), (5, 8), (4, 9), (3, 7), (5, 4), (4, 6), (8, 7), (1, 8), (2, 9), (6, 7), (6, 6), (6, 3), (6, 9)}',
  ],
  ['print(set([10000000000.0, 2.0, 0.5, 0.001, 0.1]))', '{10000000000.0, 0.5, 2.0, 0.1, 0.001}'],
  ['print({True, 1, 1.0, 0, False, None})', '{0, True, None}'],
  ["print(set('aaaa'), {None}, {(1, 'a')} == {(1, 'a')})", "{'a'} {None} True"],
  [
    'print({x for x in range(100) if x % 7 == 0}, set(range(50, 0, -3)), {2**31, 2**32, 2**61 - 1, 2**61, -1, -2})',
    '{0, 98, 35, 70, 7, 42, 77, 14, 49, 84, 21, 56, 91, 28, 63} {32, 2, 35, 5, 38, 8, 41, 11, 44, 14, 47, 17, 50, 20, 23, 26, 29} {2147483648, 4294967296, 2305843009213693951, 2305843009213693952, -2, -1}',
  ],
  [
    's = set()\nfor i in range(100):\n    s.add(i * 37 % 101)\n    if i % 3 == 0:\n        s.discard(i)\nprint(s)',
    '{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 34, 35, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 58, 59, 61, 62, 65, 67, 68, 70, 71, 73, 74, 76, 77, 78, 79, 80, 81, 82, 83, 85, 86, 88, 89, 91, 92, 94, 95, 97, 98, 100}',
  ],
  [
    "d = {5: 'a', 3: 'b', 9: 'c'}\nprint(set(d), set(d.keys()), set(d.values()) == {'a', 'b', 'c'})",
    '{9, 3, 5} {9, 3, 5} True',
  ],
  // Method arguments, error messages of calls, formatting corners, numpy printing, datetime parsing.
  [
    "from datetime import date\nd = date(2022, 3, 4)\nprint('{0.year}-{0.month}'.format(d), '{:%Y/%m}'.format(d), f'{d:%d.%m.%Y}', '{d.day}'.format(d=d))",
    '2022-3 2022/03 04.03.2022 4',
  ],
  [
    "print('{0[1]} {1[k]}'.format([1, 2], {'k': 'v'}), '{!r:>6}'.format('a'), '{:{}}'.format(5, 3), '{:{w}.{p}f}'.format(3.14159, w=8, p=2))",
    "2 v    'a'   5     3.14",
  ],
  [
    "print('a\\tb\\\\c\\'d\"', repr('a\\tb\\\\c\\'d\"'), repr('\\x00\\x7f\\u200b'), repr('línea'), str(['x\\ny']))",
    "a\tb\\c'd\" 'a\\tb\\\\c\\'d\"' '\\x00\\x7f\\u200b' 'línea' ['x\\ny']",
  ],
  [
    "print([float('nan'), float('inf')], {'k': -0.0}, (1e-7, 1e22, 1.5e300), [0.1 + 0.7, 3 * 0.1])",
    "[nan, inf] {'k': -0.0} (1e-07, 1e+22, 1.5e+300) [0.7999999999999999, 0.30000000000000004]",
  ],
  [
    "print(sorted([(1, 'b'), (1, 'a'), (0, 'z')], key=lambda t: t[0]), sorted(['b', 'a', 'B', 'A']), sorted([3, 1, 2], key=lambda x: 0))",
    "[(0, 'z'), (1, 'b'), (1, 'a')] ['A', 'B', 'a', 'b'] [3, 1, 2]",
  ],
  ['sorted([(1, None), (1, 2)])', "TypeError: '<' not supported between instances of 'int' and 'NoneType'"],
  [
    'print(min([1, 2.0, True]), max(True, 0.5), sum([True, True]), sum([1.5, 2], 10), sum(x * 0.1 for x in range(10)))',
    '1 True 2 13.5 4.500000000000001',
  ],
  [
    "lst = [0, 1, 2, 3, 4, 5]\nlst[1:5:2] = ['a', 'b']\nprint(lst)\nlst[::2] = [9]",
    'ValueError: attempt to assign sequence of size 1 to extended slice of size 3',
  ],
  [
    "s = 'hello world'\nprint(s.split('o'), s.split(' ', maxsplit=1), s.rsplit(maxsplit=1), s.partition('x'), s.center(15, '-'), s.count('o', 5), s.find('o', 5, 7))",
    "['hell', ' w', 'rld'] ['hello', 'world'] ['hello', 'world'] ('hello world', '', '') --hello world-- 1 -1",
  ],
  [
    "print('a,b'.split(','), ''.split(','), ''.split(), '  '.split(' '), 'a  b'.split(' '), '\\ta\\nb  '.split(), 'abc'.split('abc'))",
    "['a', 'b'] [''] [] ['', '', ''] ['a', '', 'b'] ['a', 'b'] ['', '']",
  ],
  [
    "print('x'.join('abc'), ', '.join(map(str, range(3))), 'AbC'.swapcase(), 'hello'.replace('', '-'), 'aaa'.replace('a', 'b', 2), '%'.join(['a', 'b']))",
    'axbxc 0, 1, 2 aBc -h-e-l-l-o- bba a%b',
  ],
  [
    "print('Hello World'.lower().count('l'), 'ab' * 2 + 'c', 'abc'[::-1] == 'cba', 'Python'[1:-1], 'Python'[-3:], 'x' < 'y' < 'z')",
    '3 ababc True ytho hon True',
  ],
  [
    "d = {'a': 1, 'b': 2, 'c': 3}\nprint(d.popitem(), d, list(reversed(list(d))), {k: v for k, v in d.items() if v > 1}, d | {'z': 0})",
    "('c', 3) {'a': 1, 'b': 2} ['b', 'a'] {'b': 2} {'a': 1, 'b': 2, 'z': 0}",
  ],
  [
    "d = dict(a=1)\nd.update([('b', 2)])\nd.update(c=3)\nprint(d, dict(d, e=5), len(d), list(d.items())[0], 'a' in d.keys(), 1 in d.values())",
    "{'a': 1, 'b': 2, 'c': 3} {'a': 1, 'b': 2, 'c': 3, 'e': 5} 3 ('a', 1) True True",
  ],
  [
    's = {1, 2, 3}\nprint(s.issubset({1, 2, 3, 4}), s.issuperset({1}), s.isdisjoint({9}), s.union([4], (5,)), s.intersection([2, 3, 9]), s.difference({1}), s.symmetric_difference({3, 4}))',
    'True True True {1, 2, 3, 4, 5} {2, 3} {2, 3} {1, 2, 4}',
  ],
  ['s = {1, 2}\ns.remove(3)', 'KeyError: 3'],
  ['s = set()\ns.pop()', "KeyError: 'pop from an empty set'"],
  ["{}.pop('x')", "KeyError: 'x'"],
  ['[].index(1)', 'ValueError: 1 is not in list'],
  ["'abc'.index('d')", 'ValueError: substring not found'],
  ['[1, 2].insert()', 'TypeError: insert expected 2 arguments, got 0'],
  ["'abc'.upper(1)", 'TypeError: str.upper() takes no arguments (1 given)'],
  ['len()', 'TypeError: len() takes exactly one argument (0 given)'],
  ['print(1, 2, sep=3)', 'TypeError: sep must be None or a string, not int'],
  [
    'x = [1, 2, 3]\nx.sort(reverse=True, key=abs)\nprint(x)\nx.sort(foo=1)',
    "TypeError: 'foo' is an invalid keyword argument for sort()",
  ],
  ['def f(*, a):\n    return a\nf(b=1)', "TypeError: f() got an unexpected keyword argument 'b'"],
  ['def f(a, b, c):\n    pass\nf(1)', "TypeError: f() missing 2 required positional arguments: 'b' and 'c'"],
  [
    'def f(a, b=1):\n    pass\nf(1, 2, 3)',
    'TypeError: f() takes from 1 to 2 positional arguments but 3 were given',
  ],
  ['def f():\n    pass\nf(1)', 'TypeError: f() takes 0 positional arguments but 1 was given'],
  ['def f(a):\n    pass\nf(a=1, a=2)', 'SyntaxError: keyword argument repeated: a (<string>, line 1)'],
  ['def f(a):\n    pass\nf(1, a=2)', "TypeError: f() got multiple values for argument 'a'"],
  ['f = lambda: 1\nf(1)', 'TypeError: <lambda>() takes 0 positional arguments but 1 was given'],
  ["int('12', base=2)", "ValueError: invalid literal for int() with base 2: '12'"],
  ["int('z', 36)", '35'],
  [
    "print(int('101', 2), int('  0x_ff  ', 16), int('0o17', 0), int('-0b11', 0), int('00'), int('1_2_3'))",
    '5 255 15 -3 0 123',
  ],
  ["int('1__2')", "ValueError: invalid literal for int() with base 10: '1__2'"],
  ["int('0x10')", "ValueError: invalid literal for int() with base 10: '0x10'"],
  ["float('1.2.3')", "ValueError: could not convert string to float: '1.2.3'"],
  ["float('1e')", "ValueError: could not convert string to float: '1e'"],
  [
    "print(float('1_000.5'), float('.5e1'), float('+1E2'), float('-.0'), float('infinity'), float(' nan '))",
    '1000.5 5.0 100.0 -0.0 inf nan',
  ],
  [
    'x = 10\ndef f():\n    x += 1\nf()',
    "UnboundLocalError: cannot access local variable 'x' where it is not associated with a value",
  ],
  [
    'def outer():\n    def inner():\n        return y\n    return inner()\n    y = 1\nouter()',
    "NameError: cannot access free variable 'y' where it is not associated with a value in enclosing scope",
  ],
  ['def f():\n    global g\n    g = 5\nf()\nprint(g)', '5'],
  ['def f(n):\n    if n:\n        return f(n - 1) + [n]\n    return []\nprint(f(5))', '[1, 2, 3, 4, 5]'],
  [
    'def deco(fn):\n    def wrapper(*a):\n        return fn(*a) * 2\n    return wrapper\n@deco\ndef three():\n    return 3\nprint(three())',
    '6',
  ],
  ['def f(a, /, b, *, c=3):\n    return a + b + c\nprint(f(1, 2), f(1, b=2, c=0))', '6 3'],
  [
    "def f(**kw):\n    return sorted(kw.items())\nprint(f(b=2, a=1), f(**{'x': 1}))",
    "[('a', 1), ('b', 2)] [('x', 1)]",
  ],
  [
    "try:\n    raise TypeError('bad type')\nexcept (ValueError, TypeError) as e:\n    print(type(e).__name__ if False else 'caught', e)",
    'caught bad type',
  ],
  [
    "try:\n    assert False\nexcept AssertionError as e:\n    print('assert', repr(e))",
    'assert AssertionError()',
  ],
  [
    "try:\n    raise Exception('a', 'b')\nexcept Exception as e:\n    print(e, e.args, str(e), repr(e))",
    "('a', 'b') ('a', 'b') ('a', 'b') Exception('a', 'b')",
  ],
  ['def f():\n    try:\n        return 1\n    finally:\n        return 2\nprint(f())', '2'],
  [
    "for i in range(3):\n    try:\n        if i == 1:\n            break\n    finally:\n        print('fin', i)",
    'fin 0\nfin 1',
  ],
  ["try:\n    int('x')\nexcept ValueError:\n    raise KeyError('converted')", "KeyError: 'converted'"],
  ['try:\n    pass\nfinally:\n    x = 1\nprint(x)', '1'],
  ["try:\n    1/0\nexcept:\n    print('bare except')", 'bare except'],
  [
    'e = None\ntry:\n    1/0\nexcept ZeroDivisionError as e:\n    pass\nprint(e)',
    "NameError: name 'e' is not defined",
  ],
  ['x = [i for i in range(3)]\nprint(i)', "NameError: name 'i' is not defined"],
  ["print([(x, y) for x in range(3) if x for y in 'ab' if y != 'a'])", "[(1, 'b'), (2, 'b')]"],
  [
    "print(list(map(lambda x, y: x + y, [1, 2], [10, 20])), list(filter(lambda s: len(s) > 1, ['a', 'bb'])), list(zip('abc', range(2))))",
    "[11, 22] ['bb'] [('a', 0), ('b', 1)]",
  ],
  [
    "print(list(enumerate(['a', 'b'], start=10)), dict(zip(['a', 'b'], [1, 2])), list(zip()))",
    "[(10, 'a'), (11, 'b')] {'a': 1, 'b': 2} []",
  ],
  [
    "print(any(x > 2 for x in [1, 2, 3]), all(x > 0 for x in []), next(x for x in range(10) if x > 5), next(iter([]), 'empty'))",
    'True True 6 empty',
  ],
  ["it = map(int, ['1', 'x'])\nprint(next(it))\nprint(next(it))", 'StopIteration:'],
  [
    'print(round(1.23456, 3), round(-1.5), round(-0.5), round(0.5), round(1e300, 2), round(123, -1), round(125, -1), round(135, -1), round(5.5e-5, 5))',
    '1.235 -2 0 0 1e+300 120 120 140 6e-05',
  ],
  ["print(round(float('nan'), 2), round(2.5, None), round(True), type(round(2.0)))", "nan 2 1 <class 'int'>"],
  [
    'print(divmod(-7, 2), divmod(7, -2), divmod(-7.5, 2), pow(3, 4, 5), pow(2, 0.5), pow(-2, 2), pow(0, 0), abs(-7.25), abs(True))',
    '(-4, 1) (-4, -1) (-4.0, 0.5) 1 1.4142135623730951 4 1 7.25 1',
  ],
  [
    'print(10 / 2.5, 10 // 2.5, 10 % 2.5, -10 // 3, -10 % 3, 10 ** 20 % 7, (-3) ** 3, 2 ** -2, 7 // -2.0)',
    '4.0 4.0 0.0 -4 2 2 -27 0.25 -4.0',
  ],
  [
    'print(1 == 1.0 == True, 2 > 1.5, 10**20 == 1e20, 10**20 + 1 == 1e20, 2**53 + 1 == 2.0**53, 0.1 + 0.2 > 0.3)',
    'True True True False False True',
  ],
  [
    "print(0 < float('nan'), float('nan') == float('nan'), float('inf') > 10**400, -float('inf') < -10**400, 1 < 2 < 3 > 2)",
    'False False True True True',
  ],
  [
    "print(bool(float('nan')), not None, not [], [] or {} or 0 or 'x', 1 and 2 and 3, 0 and 1/0, 1 or 1/0)",
    'True True True x 3 0 1',
  ],
  [
    'x = 5\nx //= 2\ny = 2\ny **= 10\nz = 7\nz %= 3\nw = 6\nw >>= 1\nv = 1\nv <<= 4\nu = 6\nu &= 3\nt = 6\nt |= 1\ns = 6\ns ^= 3\nprint(x, y, z, w, v, u, t, s)',
    '2 1024 1 3 16 2 7 5',
  ],
  [
    "a = [1, 2]\na *= 2\nb = 'ab'\nb *= 2\nc = {1}\nc |= {2}\nd = {'a': 1}\nd |= {'b': 2}\nprint(a, b, c, d)",
    "[1, 2, 1, 2] abab {1, 2} {'a': 1, 'b': 2}",
  ],
  [
    "print(hex(-255), oct(0), bin(0), chr(8364), ord('€'), '%c' % 65, '%5.1s|' % 'abc', '%-5d|' % -3, '%+.2e' % 0.0001234)",
    '-0xff 0o0 0b0 € 8364 A     a| -3   | +1.23e-04',
  ],
  [
    'print(str(2**64), repr(2**-10), 1e15, 1e16, 123456789012.5, 0.000123, 1.0e-4, 12345678901234567890.0)',
    '18446744073709551616 0.0009765625 1000000000000000.0 1e+16 123456789012.5 0.000123 0.0001 1.2345678901234567e+19',
  ],
  [
    "print(format(1e16, ','), format(123456789, '_'), format(-1234.5678, ',.2f'), format(0, '08.3f'), format(-0.0, '.1f'), format(1e-10, '.3g'), format(12345, 'e'))",
    '1e+16 123_456_789 -1,234.57 0000.000 -0.0 1e-10 1.234500e+04',
  ],
  [
    "print(f'{1000000:,d}', f'{0.1234:.1%}', f'{255:08b}', f'{-42:+}', f'{42:=+6}', f'{3.0:g}', f'{1e20:.2e}', f'{7:^7}|')",
    '1,000,000 12.3% 11111111 -42 +   42 3 1.00e+20    7   |',
  ],
  [
    'import math\nprint(math.floor(1e20), math.ceil(1.5e15), math.trunc(1e16 + 0.5), math.isqrt(10**20), math.gcd(0, 0), math.gcd(-12, 18), math.lcm(0, 5))',
    '100000000000000000000 1500000000000000 10000000000000000 10000000000 0 6 0',
  ],
  [
    'import math\nprint(math.sqrt(2) ** 2, math.exp(0), math.log1p(0), math.expm1(0), math.hypot(5, 12), math.dist((0, 0), (3, 4)), math.cos(math.pi), math.atan(1) * 4)',
    '2.0000000000000004 1.0 0.0 0.0 13.0 5.0 -1.0 3.141592653589793',
  ],
  [
    'import statistics\nprint(statistics.mean([1, 2, 3, 4, 100]), statistics.median([5, 1, 3, 2]), statistics.mode([3, 3, 1, 1]), statistics.stdev([10, 12, 23, 23, 16, 23, 21, 16]))',
    '22 2.5 3 5.237229365663818',
  ],
  [
    'import statistics\nprint(statistics.mean([0.1, 0.1, 0.1]), statistics.mean([1e16, 1, -1e16]), statistics.pvariance([1, 2, 3, 4, 5]), statistics.variance([1.5, 2.5, 3.5]))',
    '0.1 0.3333333333333333 2 1.0',
  ],
  [
    "import statistics\nstatistics.mean(['a'])",
    "TypeError: can't convert type 'str' to numerator/denominator",
  ],
  [
    'import numpy as np\nprint(np.std([2, 4, 4, 4, 5, 5, 7, 9]), np.mean([1e16, 1, -1e16]), np.sum([1e16, 1, -1e16]), np.median([1, 2, np.nan]), np.max([1, np.nan, 3]))',
    '2.0 0.0 0.0 nan nan',
  ],
  [
    'import numpy as np\na = np.array([3, 1, 2])\na.sort()\nprint(a, a[::-1], a[a % 2 == 1], a.mean(), (a * 2).tolist(), a.astype(float), np.array([1.5, 2.7]).astype(int))',
    '[1 2 3] [3 2 1] [1 3] 2.0 [2, 4, 6] [1. 2. 3.] [1 2]',
  ],
  [
    'import numpy as np\nprint(np.array([0.5, 1e-9]), np.array([1e8, 1.0]), np.array([100.0, 0.5]), np.array([1, 2.5, 3]), np.array([-0.0, 1.0]), np.array([1/3, 2/3, 1.0]))',
    '[5.e-01 1.e-09] [1.e+08 1.e+00] [100.    0.5] [1.  2.5 3. ] [-0.  1.] [0.33333333 0.66666667 1.        ]',
  ],
  [
    "import numpy as np\nprint(np.array([10**5, 1, -3]), np.array([True, True]), np.array(['ab', 'c', 'def']), np.array([]), np.array([7]), np.linspace(0, 1, 4))",
    "[100000      1     -3] [ True  True] ['ab' 'c' 'def'] [] [7] [0.         0.33333333 0.66666667 1.        ]",
  ],
  [
    "import numpy as np\nprint(repr(np.array([1, 2])), repr(np.array([1.5, 2.0])), repr(np.array(['x'])), repr(np.array([True])), [np.array([1, 2])])",
    "array([1, 2]) array([1.5, 2. ]) array(['x'], dtype='<U1') array([ True]) [array([1, 2])]",
  ],
  [
    "from datetime import datetime, timedelta\ns = datetime(2022, 1, 31)\nprint(s + timedelta(days=1), s.replace(day=1), s.weekday(), s.isoweekday(), s.strftime('%U %W %j %y %p %I'), s.timestamp())",
    '2022-02-01 00:00:00 2022-01-01 00:00:00 0 1 05 05 031 22 AM 12 1643587200.0',
  ],
  [
    "from datetime import datetime\nprint(datetime.strptime('2022-01-06 10:00:00', '%Y-%m-%d %H:%M:%S'), datetime.strptime('06/01/2022', '%d/%m/%Y'), datetime.strptime('2022-W1', '%Y-W%w'))",
    '2022-01-06 10:00:00 2022-01-06 00:00:00 2022-01-01 00:00:00',
  ],
  [
    "from datetime import datetime\nprint(datetime.strptime('10:30 pm', '%I:%M %p').time(), datetime.strptime('JANUARY 5, 2022', '%B %d, %Y').date(), datetime.strptime('Wed Jan 05 2022', '%a %b %d %Y').day)",
    '22:30:00 2022-01-05 5',
  ],
  [
    "from datetime import datetime\ndatetime.strptime('2022-01-06', '%Y-%m-%d %H:%M')",
    "ValueError: time data '2022-01-06' does not match format '%Y-%m-%d %H:%M'",
  ],
  [
    'from datetime import timedelta\nt = timedelta(hours=25, minutes=30, seconds=5)\nprint(t, t.days, t.seconds, t.total_seconds(), t // timedelta(minutes=1), t % timedelta(hours=1), str(timedelta(microseconds=1)), timedelta(0.5))',
    '1 day, 1:30:05 1 5405 91805.0 1530 0:30:05 0:00:00.000001 12:00:00',
  ],
  [
    'from datetime import date, timedelta\nstart = date(2022, 1, 1)\ndays = [start + timedelta(days=i) for i in range(0, 60, 15)]\nprint([d.isoformat() for d in days], max(days) - min(days), sorted(days, reverse=True)[0])',
    "['2022-01-01', '2022-01-16', '2022-01-31', '2022-02-15'] 45 days, 0:00:00 2022-02-15",
  ],
];
