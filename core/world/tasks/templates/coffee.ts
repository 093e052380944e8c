/**
 * Coffee templates (spec §7.3 easy E1–E8, §7.4 hard H11–H23): tooldrift's wording, the original's slots,
 * plans and gold rules.
 *
 * Deliberate differences from ToolQA-D:
 * - Hard ranges span at most MAX_RANGE_ROWS trading days, so that the values a plan reads with GetValue fit in
 *   one observation (1,024 tokens, spec §3.0); the original sampled any range, and long ranges were only
 *   answerable by luck.
 * - Draws whose answer would be ambiguous are resampled: ties for "which date" questions, and days where the
 *   price closed exactly at the open for the bullish/bearish question.
 */
import { pyFloatRepr, pyFormatFixed, pyRound } from '../../../util/python-format.ts';
import { cells, floats, mean } from '../data.ts';
import { filteredRows, getValueColumn, pyFloatList, pyIntList, pyStrList } from '../observations.ts';
import {
  defineTemplate,
  type Gold,
  type PlanCall,
  type SampleContext,
  type Solver,
  type TaskTemplate,
} from '../types.ts';

/**
 * Longest hard range in trading days. GetValue lists one token per value (`"118.5",`) plus one per column
 * name, so a plan reading c columns can read ⌊1000 / c⌋ days within the 1,024-token observation limit.
 */
export const MAX_RANGE_ROWS = 400;

function maxRows(columns: number): number {
  return Math.min(MAX_RANGE_ROWS, Math.floor(1000 / columns));
}

type DateSlots = { date: string };
type RangeSlots = { start: string; end: string };

const load: PlanCall = { tool: 'LoadDB', args: { DBName: 'coffee' } };
const filterDay = (date: string): PlanCall => ({ tool: 'FilterDB', args: { condition: `Date=${date}` } });
const filterRange = (start: string, end: string): PlanCall => ({
  tool: 'FilterDB',
  args: { condition: `Date>=${start}, Date<=${end}` },
});
const getValue = (columns: string): PlanCall => ({ tool: 'GetValue', args: { column_name: columns } });
const python = (code: string): PlanCall => ({ tool: 'PythonInterpreter', args: { Python: code } });

interface CoffeeData {
  dates: string[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
  raw: Record<'Open' | 'High' | 'Low' | 'Close' | 'Volume', string[]>;
}

const cache = new WeakMap<object, CoffeeData>();
function data(ctx: SampleContext): CoffeeData {
  const t = ctx.world.tables.coffee;
  let d = cache.get(t);
  if (!d) {
    d = {
      dates: cells(t, 'Date'),
      open: floats(t, 'Open'),
      high: floats(t, 'High'),
      low: floats(t, 'Low'),
      close: floats(t, 'Close'),
      volume: floats(t, 'Volume'),
      raw: {
        Open: cells(t, 'Open'),
        High: cells(t, 'High'),
        Low: cells(t, 'Low'),
        Close: cells(t, 'Close'),
        Volume: cells(t, 'Volume'),
      },
    };
    cache.set(t, d);
  }
  return d;
}

/** A random trading day. */
function day(ctx: SampleContext): number {
  return ctx.rng.int(0, data(ctx).dates.length - 1);
}

/** A random range [i, j] of 2..`longest` trading days; `fromFirst` pins i to the first day. */
function range(ctx: SampleContext, longest: number, fromFirst = false): [number, number] {
  const n = data(ctx).dates.length;
  const i = fromFirst ? 0 : ctx.rng.int(0, n - 2);
  const j = ctx.rng.int(i + 1, Math.min(n - 1, i + longest - 1));
  return [i, j];
}

const str = (v: string): Gold => v;

// ---------------------------------------------------------------------------------------------------------
// Easy: one day.

function singleValue(
  label: string,
  question: string,
  column: 'Open' | 'High' | 'Low' | 'Close' | 'Volume',
  goldRule: string,
): TaskTemplate<DateSlots> {
  return {
    id: `coffee-easy-${label}`,
    dataset: 'coffee',
    difficulty: 'easy',
    label,
    question,
    goldRule,
    sample(ctx) {
      const i = day(ctx);
      const d = data(ctx);
      return { slots: { date: d.dates[i] as string }, gold: str(d.raw[column][i] as string) };
    },
    *solve({ date }) {
      yield load;
      yield filterDay(date);
      const obs = yield getValue(column);
      return String(getValueColumn(obs, column)[0]);
    },
  };
}

const easy: TaskTemplate[] = [
  singleValue(
    'E1',
    'At what price did coffee open on {date}?',
    'Open',
    'The Open price of that day, as stored.',
  ),
  singleValue(
    'E2',
    'What was the intraday low of the coffee price on {date}?',
    'Low',
    'The Low price of that day.',
  ),
  singleValue(
    'E3',
    'What was the intraday high of the coffee price on {date}?',
    'High',
    'The High price of that day.',
  ),
  singleValue('E4', 'At what price did coffee close on {date}?', 'Close', 'The Close price of that day.'),
  singleValue(
    'E5',
    'How many coffee contracts changed hands on {date}?',
    'Volume',
    'The Volume of that day.',
  ),
  defineTemplate<DateSlots>({
    id: 'coffee-easy-E6',
    dataset: 'coffee',
    difficulty: 'easy',
    label: 'E6',
    question: 'By what percentage did the coffee price move between the open and the close on {date}?',
    goldRule: 'round((Close − Open) / Open × 100, 2) followed by %.',
    sample(ctx) {
      const i = day(ctx);
      const d = data(ctx);
      const o = d.open[i] as number;
      const c = d.close[i] as number;
      return {
        slots: { date: d.dates[i] as string },
        gold: `${pyFloatRepr(pyRound(((c - o) / o) * 100, 2))}%`,
      };
    },
    *solve({ date }) {
      yield load;
      yield filterDay(date);
      const obs = yield getValue('Open, Close');
      const o = getValueColumn(obs, 'Open')[0];
      const c = getValueColumn(obs, 'Close')[0];
      const out = yield python(`o = ${o}\nc = ${c}\nprint(str(round((c - o) / o * 100, 2)) + '%')`);
      return out.trim();
    },
  }),
  defineTemplate<DateSlots>({
    id: 'coffee-easy-E7',
    dataset: 'coffee',
    difficulty: 'easy',
    label: 'E7',
    question: 'Was {date} a bullish or a bearish day for coffee?',
    goldRule:
      '`bullish` when Close > Open, `bearish` when Close < Open (days that closed at the open are not asked).',
    sample(ctx) {
      const i = day(ctx);
      const d = data(ctx);
      const o = d.open[i] as number;
      const c = d.close[i] as number;
      if (o === c) return null;
      return { slots: { date: d.dates[i] as string }, gold: c > o ? 'bullish' : 'bearish' };
    },
    *solve({ date }) {
      yield load;
      yield filterDay(date);
      const obs = yield getValue('Open, Close');
      const o = Number(getValueColumn(obs, 'Open')[0]);
      const c = Number(getValueColumn(obs, 'Close')[0]);
      return c > o ? 'bullish' : 'bearish';
    },
  }),
  defineTemplate<DateSlots>({
    id: 'coffee-easy-E8',
    dataset: 'coffee',
    difficulty: 'easy',
    label: 'E8',
    question: 'How wide was the coffee trading range (high minus low) on {date}?',
    goldRule: 'round(High − Low, 2).',
    sample(ctx) {
      const i = day(ctx);
      const d = data(ctx);
      return {
        slots: { date: d.dates[i] as string },
        gold: pyFloatRepr(pyRound((d.high[i] as number) - (d.low[i] as number), 2)),
      };
    },
    *solve({ date }) {
      yield load;
      yield filterDay(date);
      const obs = yield getValue('High, Low');
      const h = getValueColumn(obs, 'High')[0];
      const l = getValueColumn(obs, 'Low')[0];
      const out = yield python(`print(round(${h} - ${l}, 2))`);
      return out.trim();
    },
  }),
];

// ---------------------------------------------------------------------------------------------------------
// Hard: a range of days.

interface RangeTemplateSpec {
  label: string;
  question: string;
  goldRule: string;
  fromFirst?: boolean;
  /** Gold from the range rows [i, j]; null to resample. */
  gold(d: CoffeeData, i: number, j: number): Gold | null;
  /** Columns the plan reads. */
  columns: string[];
  /** Python code computing the answer from the read columns (bound to the names in VARIABLE). */
  code: string;
}

/** Python variable holding each column's values in the hard plans. */
const VARIABLE: Record<string, string> = {
  Date: 'dates',
  Open: 'opens',
  High: 'highs',
  Low: 'lows',
  Close: 'closes',
  Volume: 'volumes',
};

function rangeTemplate(spec: RangeTemplateSpec): TaskTemplate<RangeSlots> {
  return {
    id: `coffee-hard-${spec.label}`,
    dataset: 'coffee',
    difficulty: 'hard',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const [i, j] = range(ctx, maxRows(spec.columns.length), spec.fromFirst);
      const gold = spec.gold(d, i, j);
      if (gold === null) return null;
      return { slots: { start: d.dates[i] as string, end: d.dates[j] as string }, gold };
    },
    *solve({ start, end }): Solver {
      yield load;
      filteredRows(yield filterRange(start, end));
      const obs = yield getValue(spec.columns.join(', '));
      const bindings = spec.columns.map((col) => {
        const values = getValueColumn(obs, col);
        const literal =
          col === 'Date' ? pyStrList(values) : col === 'Volume' ? pyIntList(values) : pyFloatList(values);
        return `${VARIABLE[col]} = ${literal}`;
      });
      const out = yield python(`${bindings.join('\n')}\n${spec.code}`);
      return out.trim();
    },
  };
}

const slice = (xs: number[], i: number, j: number) => xs.slice(i, j + 1);
const fmt1 = (x: number) => pyFormatFixed(x, 1);

/** Index (within the range) of the strictly greatest value; null when the maximum is shared. */
function uniqueArgmax(xs: readonly number[]): number | null {
  let best = 0;
  let tie = false;
  for (let k = 1; k < xs.length; k++) {
    if ((xs[k] as number) > (xs[best] as number)) {
      best = k;
      tie = false;
    } else if (xs[k] === xs[best]) tie = true;
  }
  return tie ? null : best;
}

const hard: TaskTemplate[] = [
  rangeTemplate({
    label: 'H11',
    question: 'What was the highest coffee price between {start} and {end}?',
    goldRule: 'The largest High in the range, followed by ` USD`.',
    gold: (d, i, j) => `${pyFloatRepr(Math.max(...slice(d.high, i, j)))} USD`,
    columns: ['High'],
    code: "print(str(max(highs)) + ' USD')",
  }),
  rangeTemplate({
    label: 'H12',
    question: 'What was the lowest coffee price between {start} and {end}?',
    goldRule: 'The smallest Low in the range, followed by ` USD`.',
    gold: (d, i, j) => `${pyFloatRepr(Math.min(...slice(d.low, i, j)))} USD`,
    columns: ['Low'],
    code: "print(str(min(lows)) + ' USD')",
  }),
  rangeTemplate({
    label: 'H13',
    question: 'What was the mean closing price of coffee between {start} and {end}?',
    goldRule: 'Mean Close over the range, one decimal, followed by ` USD`.',
    gold: (d, i, j) => `${fmt1(mean(slice(d.close, i, j)))} USD`,
    columns: ['Close'],
    code: "print(f'{sum(closes) / len(closes):.1f} USD')",
  }),
  rangeTemplate({
    label: 'H14',
    question: 'By how much did the coffee price change from the open on {start} to the close on {end}?',
    goldRule: 'Close of the last day − Open of the first day, one decimal, followed by ` USD`.',
    gold: (d, i, j) => `${fmt1((d.close[j] as number) - (d.open[i] as number))} USD`,
    columns: ['Open', 'Close'],
    code: "print(f'{closes[-1] - opens[0]:.1f} USD')",
  }),
  defineTemplate<DateSlots>({
    id: 'coffee-hard-H15',
    dataset: 'coffee',
    difficulty: 'hard',
    label: 'H15',
    question:
      'By what percentage did the coffee close on {date} differ from the previous trading day’s close?',
    goldRule: '(Close − previous Close) / previous Close × 100, one decimal, followed by %.',
    sample(ctx) {
      const d = data(ctx);
      const i = ctx.rng.int(1, d.dates.length - 1);
      const prev = d.close[i - 1] as number;
      return {
        slots: { date: d.dates[i] as string },
        gold: `${fmt1((((d.close[i] as number) - prev) / prev) * 100)}%`,
      };
    },
    *solve({ date }) {
      // The previous trading day is unknown: read a window of days before the date and take the last two.
      yield load;
      const year = Number(date.slice(0, 4));
      const from = `${year - 1}${date.slice(4)}`;
      yield filterRange(from, date);
      const obs = yield getValue('Close');
      const closes = getValueColumn(obs, 'Close').slice(-2);
      const out = yield python(
        `closes = ${pyFloatList(closes)}\nprint(f'{(closes[1] - closes[0]) / closes[0] * 100:.1f}%')`,
      );
      return out.trim();
    },
  }),
  rangeTemplate({
    label: 'H16',
    question:
      'On which day between {start} and {end} was the gap between the high and the low coffee price widest?',
    goldRule: 'The Date of the row with the strictly largest High − Low (ranges with a tie are not asked).',
    gold: (d, i, j) => {
      const spans = slice(d.high, i, j).map((h, k) => h - (d.low[i + k] as number));
      const k = uniqueArgmax(spans);
      return k === null ? null : (d.dates[i + k] as string);
    },
    columns: ['Date', 'High', 'Low'],
    code: 'spans = [h - l for h, l in zip(highs, lows)]\nprint(dates[spans.index(max(spans))])',
  }),
  rangeTemplate({
    label: 'H17',
    question: 'What was the mean daily coffee trading volume between {start} and {end}?',
    goldRule: 'Mean Volume over the range, one decimal.',
    gold: (d, i, j) => fmt1(mean(slice(d.volume, i, j))),
    columns: ['Volume'],
    code: "print(f'{sum(volumes) / len(volumes):.1f}')",
  }),
  rangeTemplate({
    label: 'H18',
    question:
      'On which day between {start} and {end} did the coffee close rise the most over the previous day’s close?',
    goldRule:
      'Over consecutive days of the range, the Date with the strictly largest positive Close increase (ranges with a tie or no increase are not asked).',
    gold: (d, i, j) => {
      const ups = slice(d.close, i + 1, j).map((c, k) => c - (d.close[i + k] as number));
      const k = uniqueArgmax(ups);
      return k === null || (ups[k] as number) <= 0 ? null : (d.dates[i + 1 + k] as string);
    },
    columns: ['Date', 'Close'],
    code: 'ups = [closes[k] - closes[k - 1] for k in range(1, len(closes))]\nprint(dates[1 + ups.index(max(ups))])',
  }),
  rangeTemplate({
    label: 'H19',
    question:
      'On how many trading days between {start} and {end} did coffee close above the previous day’s close?',
    goldRule: 'Count of consecutive pairs in the range with Close(t) > Close(t−1).',
    gold: (d, i, j) =>
      String(slice(d.close, i + 1, j).filter((c, k) => c > (d.close[i + k] as number)).length),
    columns: ['Close'],
    code: 'print(sum(1 for k in range(1, len(closes)) if closes[k] > closes[k - 1]))',
  }),
  rangeTemplate({
    label: 'H20',
    question:
      'What was the percentage change of the coffee price from the open on {start} to the close on {end}?',
    goldRule: '(last Close − first Open) / first Open × 100, one decimal, followed by %.',
    gold: (d, i, j) =>
      `${fmt1((((d.close[j] as number) - (d.open[i] as number)) / (d.open[i] as number)) * 100)}%`,
    columns: ['Open', 'Close'],
    code: "print(f'{(closes[-1] - opens[0]) / opens[0] * 100:.1f}%')",
  }),
  rangeTemplate({
    label: 'H21',
    question: 'How far apart were the highest and the lowest coffee prices from {start} to {end}?',
    goldRule:
      'max High − min Low over the range, one decimal, followed by ` USD` (the range starts on the first day).',
    fromFirst: true,
    gold: (d, i, j) => `${fmt1(Math.max(...slice(d.high, i, j)) - Math.min(...slice(d.low, i, j)))} USD`,
    columns: ['High', 'Low'],
    code: "print(f'{max(highs) - min(lows):.1f} USD')",
  }),
  rangeTemplate({
    label: 'H22',
    question: 'On how many days between {start} and {end} did coffee close above its opening price?',
    goldRule: 'Count of rows in the range with Close > Open.',
    fromFirst: true,
    gold: (d, i, j) => String(slice(d.close, i, j).filter((c, k) => c > (d.open[i + k] as number)).length),
    columns: ['Open', 'Close'],
    code: 'print(sum(1 for o, c in zip(opens, closes) if c > o))',
  }),
  rangeTemplate({
    label: 'H23',
    question: 'What was the mean open-to-close percentage change of coffee between {start} and {end}?',
    goldRule: 'Mean over the range of (Close − Open) / Open × 100, one decimal, followed by %.',
    gold: (d, i, j) =>
      `${fmt1(mean(slice(d.close, i, j).map((c, k) => ((c - (d.open[i + k] as number)) / (d.open[i + k] as number)) * 100)))}%`,
    columns: ['Open', 'Close'],
    code: "changes = [(c - o) / o * 100 for o, c in zip(opens, closes)]\nprint(f'{sum(changes) / len(changes):.1f}%')",
  }),
];

export const COFFEE_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
