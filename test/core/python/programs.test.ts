import { describe, expect, it } from 'vitest';
import { runPythonTool } from '../../../core/sandbox/python/tool.ts';
import { PROGRAMS } from './program-table.ts';

describe('PythonInterpreter program table (expected = CPython 3.11 through the original tool)', () => {
  it('has a broad table', () => {
    expect(PROGRAMS.length).toBeGreaterThanOrEqual(120);
  });

  it.each(PROGRAMS.map(([code, expected], i) => [i, code, expected] as const))(
    '#%i',
    (_i, code, expected) => {
      expect(runPythonTool(code, null).observation).toBe(expected);
    },
  );
});

describe('observations quoted in spec §3.10', () => {
  const cases: [string, string][] = [
    ['a=3\nprint(a)\nb=4\nprint(a+b)', 'a: 3\na+b: 7'],
    ['x=3.14159\nprint(round(x, 2))\nprint(x)', 'round(x, 2: 3.14\nx: 3.1416'],
    ['x = 5', 'You should print the variable you want to obtain the python result.'],
    ['print(5)\ny = 2', 'You should print the variable you want to obtain the python result.'],
    ["def f():\n    print('in f')\n    return 3\nf()", '3'],
    ['print(22.493333333333333)', '22.4933'],
    ['print(1e-05)', '0.0'],
    ['0.12345', '0.1235'],
    ['27', '27'],
    ['2.5', '2.5'],
    ['0.85', '0.85'],
    ['x = -15 / 16\nx', '-0.9375'],
    [
      "from datetime import datetime\nprint(datetime.strptime('6:40 AM', '%I:%M %p').strftime('%H:%M'))",
      '06:40',
    ],
    ['print(round(2.5))', '2'],
    [
      "row = (127, 'The Serenity Room in Historic BKLYN')\nrow",
      "(127, 'The Serenity Room in Historic BKLYN')",
    ],
    ["best = ('2018-10-29', 8.849999999999994)\nprint(best)", "('2018-10-29', 8.849999999999994)"],
    ['print(undefined_x)', "NameError: name 'undefined_x' is not defined"],
    ['1 / 0', 'ZeroDivisionError: division by zero'],
    ['print((1 + 2', "SyntaxError: '(' was never closed (<unknown>, line 1)"],
    ['from geopy.distance import geodesic', "ModuleNotFoundError: No module named 'geopy'"],
  ];
  it.each(cases)('%j', (code, expected) => {
    expect(runPythonTool(code, null).observation).toBe(expected);
  });
});
