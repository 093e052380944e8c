import { beforeAll, describe, expect, it } from 'vitest';
import { pyFloatRepr } from '../../../core/util/python-format.ts';
import { Rng } from '../../../core/util/random.ts';
import { COFFEE_MAX_PRICE, COFFEE_MIN_PRICE, generateCoffee } from '../../../core/world/corpora/coffee.ts';
import type { Table } from '../../../core/world/table.ts';
import { columnValues, median, tableHash } from './table-helpers.ts';

let t: Table;
let date: string[];
let open: number[];
let high: number[];
let low: number[];
let close: number[];

beforeAll(() => {
  t = generateCoffee(new Rng('coffee-test'), 1);
  date = columnValues(t, 'Date');
  [open, high, low, close] = ['Open', 'High', 'Low', 'Close'].map((c) => columnValues(t, c).map(Number)) as [
    number[],
    number[],
    number[],
    number[],
  ];
});

describe('coffee: schema, size and determinism', () => {
  it('has the LoadDB columns in spec order', () => {
    expect(t.columnNames()).toEqual(['Date', 'Open', 'High', 'Low', 'Close', 'Volume', 'Currency']);
    expect(t.columns.map((c) => c.sqlType)).toEqual([
      'TEXT',
      'REAL',
      'REAL',
      'REAL',
      'REAL',
      'INTEGER',
      'TEXT',
    ]);
  });

  it('is identical for the same seed, differs for another, and ignores scale', () => {
    const h = tableHash(t);
    expect(tableHash(generateCoffee(new Rng('coffee-test'), 0.1))).toBe(h);
    expect(tableHash(generateCoffee(new Rng('coffee-test'), 4))).toBe(h);
    expect(tableHash(generateCoffee(new Rng('coffee-test-2'), 1))).not.toBe(h);
  });

  it('has one row per trading day from 2000-01-03 to 2022-09-02, strictly ascending', () => {
    expect(t.rowCount).toBeGreaterThan(5650);
    expect(t.rowCount).toBeLessThan(5760);
    expect(date[0]).toBe('2000-01-03');
    expect(date[date.length - 1]).toBe('2022-09-02');
    expect(date.findIndex((d, i) => i > 0 && d <= (date[i - 1] as string))).toBe(-1);
    expect(date.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    const weekend = date.filter((d) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay()));
    expect(weekend).toEqual([]);
    const days = new Set(date);
    for (const closed of [
      '2001-09-11',
      '2001-09-14',
      '2019-07-04',
      '2020-12-25',
      '2021-04-02',
      '2022-06-20',
      '2022-01-17',
    ]) {
      expect(days.has(closed), closed).toBe(false);
    }
    for (const trading of [
      '2000-01-04',
      '2016-12-23',
      '2018-07-06',
      '2021-05-28',
      '2022-07-01',
      '2003-09-15',
    ]) {
      expect(days.has(trading), trading).toBe(true);
    }
  });
});

describe('coffee: prices', () => {
  it('keeps Low ≤ Open, Close ≤ High inside the all-time bounds', () => {
    for (let i = 0; i < t.rowCount; i++) {
      const lo = low[i] as number;
      const hi = high[i] as number;
      if (
        !(
          lo <= Math.min(open[i] as number, close[i] as number) &&
          Math.max(open[i] as number, close[i] as number) <= hi
        )
      ) {
        throw new Error(`row ${i} breaks Low ≤ Open,Close ≤ High: ${t.row(i).join(' ')}`);
      }
    }
    expect(Math.min(...low)).toBeGreaterThanOrEqual(COFFEE_MIN_PRICE);
    expect(Math.max(...high)).toBeLessThanOrEqual(COFFEE_MAX_PRICE);
    expect(COFFEE_MIN_PRICE).toBe(41.5);
    expect(COFFEE_MAX_PRICE).toBe(306.25);
  });

  it('renders prices as Python floats on a 0.05 grid', () => {
    for (const c of ['Open', 'High', 'Low', 'Close']) {
      const bad = t.column(c).values.filter((v) => {
        const x = Number(v);
        return pyFloatRepr(x) !== v || Math.abs(x * 20 - Math.round(x * 20)) > 1e-9;
      });
      expect(bad, c).toEqual([]);
    }
    expect(t.column('Close').values.some((v) => v.endsWith('.0'))).toBe(true);
  });

  it('moves like the real market: small daily ranges, long swings, some untraded days', () => {
    const ranges = high.map((h, i) => h - (low[i] as number));
    expect(median(ranges)).toBeGreaterThan(1);
    expect(median(ranges)).toBeLessThan(8);
    const dailyMoves = close.slice(1).map((c, i) => Math.abs(Math.log(c / (close[i] as number))));
    expect(Math.max(...dailyMoves)).toBeLessThan(0.25);
    const mean = (from: string, to: string): number => {
      const xs = close.filter((_, i) => (date[i] as string) >= from && (date[i] as string) <= to);
      return xs.reduce((s, x) => s + x, 0) / xs.length;
    };
    expect(mean('2001-06-01', '2002-12-31')).toBeLessThan(75);
    expect(mean('2011-01-01', '2011-12-31')).toBeGreaterThan(170);
    expect(mean('2022-01-01', '2022-09-02')).toBeGreaterThan(150);
    // Flat (untraded) days give the templates' 0.0% change and "bearish" on equality.
    const flat = open.filter((o, i) => o === close[i] && o === high[i] && o === low[i]).length;
    expect(flat).toBeGreaterThan(10);
    expect(close.filter((c, i) => c > (open[i] as number)).length / t.rowCount).toBeGreaterThan(0.35);
  });

  it('has integer volumes (small early, thousands later) and USD currency', () => {
    const vol = columnValues(t, 'Volume');
    expect(vol.every((v) => /^\d+$/.test(v))).toBe(true);
    const early = vol.filter((_, i) => (date[i] as string) < '2001-01-01').map(Number);
    const late = vol.filter((_, i) => (date[i] as string) >= '2015-01-01').map(Number);
    expect(median(early)).toBeLessThan(300);
    expect(median(late)).toBeGreaterThan(5000);
    expect(median(late)).toBeLessThan(40_000);
    expect(Math.max(...late)).toBeLessThanOrEqual(60_000);
    expect(t.column('Currency').values).toEqual(['USD']);
  });
});
