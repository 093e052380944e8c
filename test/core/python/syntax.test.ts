import { describe, expect, it } from 'vitest';
import { parseModule } from '../../../core/sandbox/python/parser.ts';
import { AstTooDeep, PySyntaxError } from '../../../core/sandbox/python/syntax-error.ts';
import { runPythonTool } from '../../../core/sandbox/python/tool.ts';

/** [source, what CPython 3.11's ast.parse raises] — checked with a local python3 while writing the table. */
const SYNTAX_ERRORS: readonly (readonly [string, string])[] = [
  ['x = (1,\ny = 2', "SyntaxError: '(' was never closed (<unknown>, line 1)"],
  ['print("a"\nx = 5', "SyntaxError: '(' was never closed (<unknown>, line 1)"],
  ['print(a b)', 'SyntaxError: invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)'],
  ['x = [1, 2\nprint(x)', "SyntaxError: '[' was never closed (<unknown>, line 1)"],
  [
    'if x:\nprint(1)',
    "IndentationError: expected an indented block after 'if' statement on line 1 (<unknown>, line 2)",
  ],
  [
    'if x:',
    "IndentationError: expected an indented block after 'if' statement on line 1 (<unknown>, line 1)",
  ],
  [
    'for i in range(3):\n\nprint(i)',
    "IndentationError: expected an indented block after 'for' statement on line 1 (<unknown>, line 3)",
  ],
  [
    'def f():\nreturn 1',
    'IndentationError: expected an indented block after function definition on line 1 (<unknown>, line 2)',
  ],
  [
    'while True:\npass',
    "IndentationError: expected an indented block after 'while' statement on line 1 (<unknown>, line 2)",
  ],
  ['x = 1\n  y = 2', 'IndentationError: unexpected indent (<unknown>, line 2)'],
  [
    'if x:\n    a=1\n  b=2',
    'IndentationError: unindent does not match any outer indentation level (<unknown>, line 3)',
  ],
  ['x = )', "SyntaxError: unmatched ')' (<unknown>, line 1)"],
  [
    'x = (]',
    "SyntaxError: closing parenthesis ']' does not match opening parenthesis '(' (<unknown>, line 1)",
  ],
  [
    'x = (\n]',
    "SyntaxError: closing parenthesis ']' does not match opening parenthesis '(' on line 1 (<unknown>, line 2)",
  ],
  ["x = 'abc", 'SyntaxError: unterminated string literal (detected at line 1) (<unknown>, line 1)'],
  [
    "x = '''abc\n\n",
    'SyntaxError: unterminated triple-quoted string literal (detected at line 2) (<unknown>, line 1)',
  ],
  ['x = 5 +', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['a = 1\nb = 2\nc = = 3', 'SyntaxError: invalid syntax (<unknown>, line 3)'],
  ['for x in y\n  pass', "SyntaxError: expected ':' (<unknown>, line 1)"],
  [
    'if x = 5:\n  pass',
    "SyntaxError: invalid syntax. Maybe you meant '==' or ':=' instead of '='? (<unknown>, line 1)",
  ],
  [
    '1 = x',
    "SyntaxError: cannot assign to literal here. Maybe you meant '==' instead of '='? (<unknown>, line 1)",
  ],
  [
    'f() = 3',
    "SyntaxError: cannot assign to function call here. Maybe you meant '==' instead of '='? (<unknown>, line 1)",
  ],
  [
    "print 'hello'",
    "SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)? (<unknown>, line 1)",
  ],
  [
    'x = 01',
    'SyntaxError: leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers (<unknown>, line 1)',
  ],
  ['x = 1abc', 'SyntaxError: invalid decimal literal (<unknown>, line 1)'],
  ['x = 3 €', "SyntaxError: invalid character '€' (U+20AC) (<unknown>, line 1)"],
  ['def f(:\n  pass', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ["x = {'a': 1, 'b' 2}", "SyntaxError: ':' expected after dictionary key (<unknown>, line 1)"],
  ['x = [1 2 3]', 'SyntaxError: invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)'],
  ['f(a=1, 2)', 'SyntaxError: positional argument follows keyword argument (<unknown>, line 1)'],
  ['x = 5\nelse:\n  pass', 'SyntaxError: invalid syntax (<unknown>, line 2)'],
  ['try:\n  x=1\nprint(2)', "SyntaxError: expected 'except' or 'finally' block (<unknown>, line 3)"],
  ['else', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['x = 1 if y', "SyntaxError: expected 'else' after 'if' expression (<unknown>, line 1)"],
  [
    'class A:\n',
    'IndentationError: expected an indented block after class definition on line 1 (<unknown>, line 1)',
  ],
  [
    'def f(x):\n    return x\n  y',
    'IndentationError: unindent does not match any outer indentation level (<unknown>, line 3)',
  ],
  ['a\u0000b', 'SyntaxError: source code string cannot contain null bytes'],
  [
    'x = (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1',
    'SyntaxError: too many nested parentheses (<unknown>, line 1)',
  ],
  ['lambda x: yield', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ["f'{x'", "SyntaxError: f-string: expecting '}' (<unknown>, line 1)"],
  ["f'{}'", 'SyntaxError: f-string: empty expression not allowed (<unknown>, line 1)'],
  [
    'x = 1 +\\\n 2\\ x',
    'SyntaxError: unexpected character after line continuation character (<unknown>, line 2)',
  ],
  ['\tif x:\n  pass', 'IndentationError: unexpected indent (<unknown>, line 1)'],
  [
    'if x:\n\tpass\n        pass',
    'TabError: inconsistent use of tabs and spaces in indentation (<unknown>, line 3)',
  ],
  ['x += 1 = 2', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['del f()', 'SyntaxError: cannot delete function call (<unknown>, line 1)'],
  ['x = [i for i in range(3) if]', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['a, b += 1', "SyntaxError: 'tuple' is an illegal expression for augmented assignment (<unknown>, line 1)"],
  ['x = 1e', 'SyntaxError: invalid decimal literal (<unknown>, line 1)'],
  ['x = 0x', 'SyntaxError: invalid hexadecimal literal (<unknown>, line 1)'],
  ['x = 1_', 'SyntaxError: invalid decimal literal (<unknown>, line 1)'],
  [
    "x = '\\N{foo}'",
    "SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position 0-6: unknown Unicode character name (<unknown>, line 1)",
  ],
  [
    "print(f'{a!x}')",
    "SyntaxError: f-string: invalid conversion character: expected 's', 'r', or 'a' (<unknown>, line 1)",
  ],
  ['x = (1 for x in y, 2)', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  [
    'f(**a, *b)',
    'SyntaxError: iterable argument unpacking follows keyword argument unpacking (<unknown>, line 1)',
  ],
  ['f(x for x in y, 1)', 'SyntaxError: Generator expression must be parenthesized (<unknown>, line 1)'],
  [
    'def f(a=1, b):\n  pass',
    'SyntaxError: non-default argument follows default argument (<unknown>, line 1)',
  ],
  ['import', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['from x import', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['from math import (sqrt', "SyntaxError: '(' was never closed (<unknown>, line 1)"],
  ['x.1', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['x = not', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['@', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['x ==== y', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['x = 5 5', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['a = b = ', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ["'abc' 'def' x", 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['elif x:\n pass', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['if x:\n pass\nelse x:\n pass', "SyntaxError: expected ':' (<unknown>, line 3)"],
  ['if x:\n pass\n else:\n pass', 'SyntaxError: invalid syntax (<unknown>, line 3)'],
  [
    'try:\n pass\nexcept ValueError, e:\n pass',
    'SyntaxError: multiple exception types must be parenthesized (<unknown>, line 3)',
  ],
  ['print(1))', "SyntaxError: unmatched ')' (<unknown>, line 1)"],
  ['x = {1: 2, 3}', "SyntaxError: ':' expected after dictionary key (<unknown>, line 1)"],
  ['[x for x in]', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['async', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ["x = 'a' + \n'b'", 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  [
    "def f():\n    '''doc\n",
    'SyntaxError: unterminated triple-quoted string literal (detected at line 2) (<unknown>, line 2)',
  ],
  ['\n\n\nx = (', "SyntaxError: '(' was never closed (<unknown>, line 4)"],
  ["{'a' 1}", 'SyntaxError: invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)'],
  ["x = {'a': 1,\n 'b' 2}", "SyntaxError: ':' expected after dictionary key (<unknown>, line 2)"],
  ['[1, 2\n', "SyntaxError: '[' was never closed (<unknown>, line 1)"],
  [
    'f(a.b=1)',
    'SyntaxError: expression cannot contain assignment, perhaps you meant "=="? (<unknown>, line 1)',
  ],
  [
    'if True:\n    x = 1\n   y = 2',
    'IndentationError: unindent does not match any outer indentation level (<unknown>, line 3)',
  ],
  ['x = 1__0', 'SyntaxError: invalid decimal literal (<unknown>, line 1)'],
  ["x = b'a' 'b'", 'SyntaxError: cannot mix bytes and nonbytes literals (<unknown>, line 1)'],
  ['x = 5 if True else', 'SyntaxError: invalid syntax (<unknown>, line 1)'],
  ['def f(**k, a): pass', 'SyntaxError: arguments cannot follow var-keyword argument (<unknown>, line 1)'],
  ['def f(*): pass', 'SyntaxError: named arguments must follow bare * (<unknown>, line 1)'],
  ["x = f'{x}}'", "SyntaxError: f-string: single '}' is not allowed (<unknown>, line 1)"],
  ["x = f'{x:{'", "SyntaxError: f-string: expecting '}' (<unknown>, line 1)"],
  ["x = f'{lambda x: 1}'", 'SyntaxError: f-string: invalid syntax (<unknown>, line 1)'],
  ['x = a if b', "SyntaxError: expected 'else' after 'if' expression (<unknown>, line 1)"],
  ['f(x, y for y in z)', 'SyntaxError: Generator expression must be parenthesized (<unknown>, line 1)'],
  ['x = [1, 2\n3]', 'SyntaxError: invalid syntax. Perhaps you forgot a comma? (<unknown>, line 1)'],
];

/** Sources CPython parses without error (some only fail later, at compile or run time). */
const VALID: readonly string[] = [
  'return 5',
  'break',
  'nonlocal x',
  'def f():\n  global x\n  x = 1\n  global x',
  'def f(a, a):\n  pass',
  'x = yield',
  "with open('f') as f:\n  pass",
  'x = 1\nreturn 5',
  'def f():\n    x = 1\n\n\n\n    return x\nprint(f())',
  'x = [\n1,\n2,\n]\n',
  "s = '''a\nb'''\nprint(s)",
  "x = f'{a:{w}.{p}f}'",
  "print(f'{x=}')",
  'print(f"{d[\'a\']}")',
  'a = b = c = 1',
  'x = lambda: 0',
  'x = lambda a, *b, c=1, **d: a',
  'def f(a, /, b, *, c): pass',
  'x = [*a, *b]',
  "x = {**a, 'b': 1}",
  'a, *b = [1,2,3]',
  "print(*xs, sep=', ')",
  'x = 1 if a else 2 if b else 3',
  'x = not a == b',
  'x = a if not b else c',
  'for i, (a, b) in enumerate(xs): pass',
  'x = y[1:2, ::3]',
  'x = (yield)',
  'import a.b.c as d',
  'from . import x',
  'from .. x import y',
  'global x, y',
  'x: int = 5',
  'x: int',
  'del a[0], b.c',
  "assert x, 'm'",
  "raise ValueError('x') from None",
  'try:\n pass\nexcept (A, B) as e:\n pass\nelse:\n pass\nfinally:\n pass',
  'while x:\n pass\nelse:\n pass',
  'x = 0x_1f',
  'x = 1.5e-3j',
  "x = 'a' 'b' f'c{d}'",
  "x = r'\\d+'",
  '@dec\n@dec2(1)\ndef f(): pass',
  'class A(B):\n    x = 1',
  'with a as b, c:\n    pass',
  'async def f(): pass',
  'x = [i for i in range(3) for j in range(i) if j if i]',
  'x = {k: v for k, v in d.items()}',
  'x = {v for v in s}',
  'x = (v for v in s)',
  'f(x for x in y)',
  'x = a[1:]',
  'x = a[:-1]',
  'x = a[::-1]',
  'x = a[...]',
  'if (n := 10) > 5: pass',
  "print('a' if x else 'b')",
  'x = -2 ** 2',
  'x = 2 ** -1',
  'x = ~x',
  'x = a < b < c',
  'x = a is not b',
  'x = a not in b',
  'x = [1,2,3,]',
  'x = (1,)',
  'x = ()',
  'x = {}',
  'x = {1}',
  'x = a.b.c(d)[e].f',
  'x = 1; y = 2;',
  'if x: pass\nelif y: pass\nelse: pass',
  'f(**kw)',
  'f(*a, *b, c=1, **d)',
  'def f(*, a=1, b): pass',
  'lambda *a: 0',
  "x = 'abc\\\ndef'",
  'x = 1 + \\\n 2',
  'x = [1,\n  2]',
  'if x:\n\n    # comment\n    pass',
  'x = 1 # comment',
  'def f():\n\tpass',
  "x = f'{x!r:>10}'",
  "x = f'{{x}}'",
  "x = f'{ x = }'",
  "x = f'''{\nx\n}'''",
  'x = f\'{a["b"]}\'',
  'nonlocal_ = 1',
  'match = 1',
  'case = 2',
  'print(match)',
  '_ = 5',
  'x = 1e5',
  'x = .5',
  'x = 5.',
  'x = 1_000_000',
  'x = 0',
  'x = 00',
  'x = 0.0',
  'x = 0e0',
  'x = 1if 1else 2',
  'x = [1 for x in y if a if b]',
  'f(a, *b)',
  'x = (1\n, 2)',
];

function parseOutcome(src: string): string {
  try {
    parseModule(src);
    return 'OK';
  } catch (e) {
    if (e instanceof PySyntaxError) return `${e.kind}: ${e.pyMessage}`;
    if (e instanceof AstTooDeep) return `RecursionError: ${e.message}`;
    throw e;
  }
}

describe('syntax errors match CPython 3.11', () => {
  it.each(SYNTAX_ERRORS)('%j', (src, expected) => {
    expect(parseOutcome(src)).toBe(expected);
  });

  it.each(VALID)('parses %j', (src) => {
    expect(parseOutcome(src)).toBe('OK');
  });

  it('reports them through the tool in the error form', () => {
    expect(runPythonTool('a = 1\nb = 2\nc = = 3', null).observation).toBe(
      'SyntaxError: invalid syntax (<unknown>, line 3)',
    );
    expect(runPythonTool('if x:\nprint(1)', null).observation).toBe(
      "IndentationError: expected an indented block after 'if' statement on line 1 (<unknown>, line 2)",
    );
  });
});
