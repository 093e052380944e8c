/**
 * The `coffee` table (spec §2.2): daily Coffee "C" futures prices (US cents per pound, labelled `USD`) for every
 * ICE trading day from 2000-01-03 to 2022-09-02, sorted by date. The price path is a random walk in log price
 * bridged through jittered anchor levels that follow the market's real long swings (the 2001–02 lows near
 * 45, the 2011 peak near 300, the 2019 lows, the 2021–22 rally), so each seed gives a different but plausible
 * history. Prices move in 0.05 ticks.
 *
 * Invariants the task generator can rely on:
 * - One row per trading day (weekdays minus US exchange holidays and the special closures of 2001-09-11..14,
 *   2004-06-11, 2007-01-02, 2012-10-29/30, 2018-12-05); Date strictly ascending, unique; the size does not
 *   depend on `scale`.
 * - 41.5 ≤ Low ≤ min(Open, Close) ≤ max(Open, Close) ≤ High ≤ 306.25; all prices are multiples of 0.05 and
 *   render as Python floats (`118.5`, `135.95`, `120.0`).
 * - Volume is an int (`0`, `75`, `10115`); Currency is always `USD`. No value contains `, `.
 * - Some early days (before 2008) did not trade: Open = High = Low = Close and Volume 0, which gives the
 *   `0.0%` change / "bearish" answers of the templates.
 *
 * Deliberate differences from ToolQA-D:
 * - Volume stays in the low hundreds until the end of 2007 and ramps up to the 5,000–40,000 range during
 *   2008 (the original's observations put small volumes both in early 2000 and in 2003).
 * - The table has about 5,700 rows (exchange calendar) rather than the original's 5,746.
 */
import type { Rng } from '../../util/random.ts';
import { type ColumnSpec, type Table, TableBuilder } from '../table.ts';
import { dayNumber, floatCell, isoDateOfDay, isoWeekday } from './cells.ts';

export const COFFEE_COLUMNS: readonly ColumnSpec[] = [
  { name: 'Date', sqlType: 'TEXT', description: 'Trading day, YYYY-MM-DD.' },
  { name: 'Open', sqlType: 'REAL', description: 'Opening price (US cents per pound).' },
  { name: 'High', sqlType: 'REAL', description: 'Highest price of the day.' },
  { name: 'Low', sqlType: 'REAL', description: 'Lowest price of the day.' },
  { name: 'Close', sqlType: 'REAL', description: 'Closing price.' },
  { name: 'Volume', sqlType: 'INTEGER', description: 'Contracts traded.' },
  { name: 'Currency', sqlType: 'TEXT', description: 'Price currency (always USD).' },
];

export const COFFEE_FIRST_DATE = '2000-01-03';
export const COFFEE_LAST_DATE = '2022-09-02';
/** All-time bounds of the price series (spec §2.2). */
export const COFFEE_MIN_PRICE = 41.5;
export const COFFEE_MAX_PRICE = 306.25;

/** Rough real price levels (date, cents/lb) the random walk is bridged through. */
const ANCHORS: readonly (readonly [string, number])[] = [
  ['2000-01-03', 120],
  ['2000-12-15', 65],
  ['2001-10-15', 46],
  ['2002-06-14', 48],
  ['2003-06-16', 62],
  ['2004-12-15', 100],
  ['2005-03-15', 125],
  ['2006-06-15', 100],
  ['2007-06-15', 115],
  ['2008-03-03', 150],
  ['2008-12-15', 110],
  ['2009-09-15', 130],
  ['2010-06-15', 160],
  ['2011-05-02', 295],
  ['2011-12-15', 225],
  ['2012-12-14', 145],
  ['2013-11-15', 105],
  ['2014-03-17', 200],
  ['2014-10-15', 215],
  ['2015-12-15', 120],
  ['2016-10-14', 165],
  ['2017-12-15', 125],
  ['2018-09-14', 100],
  ['2019-05-15', 90],
  ['2019-12-16', 130],
  ['2020-06-15', 97],
  ['2021-02-16', 125],
  ['2021-07-26', 175],
  ['2021-12-15', 235],
  ['2022-02-15', 250],
  ['2022-06-15', 225],
  ['2022-09-02', 235],
];

const DAILY_VOLATILITY = 0.019;
const TICKS_PER_UNIT = 20; // prices move in 0.05 steps
const MIN_TICK = Math.round(COFFEE_MIN_PRICE * TICKS_PER_UNIT);
const MAX_TICK = Math.round(COFFEE_MAX_PRICE * TICKS_PER_UNIT);
const LOW_VOLUME_UNTIL = dayNumber(2008, 1, 1);
const FULL_VOLUME_FROM = dayNumber(2009, 1, 1);

export function generateCoffee(rng: Rng, _scale?: number): Table {
  const days = tradingDays();
  const closes = closingPath(rng.fork('path'), days);
  const r = rng.fork('days');
  const builder = new TableBuilder('coffee', COFFEE_COLUMNS, days.length);
  let previousClose = closes[0] as number;
  for (let i = 0; i < days.length; i++) {
    const day = days[i] as number;
    const early = day < LOW_VOLUME_UNTIL;
    let open: number;
    let close: number;
    let high: number;
    let low: number;
    let volume: number;
    if (early && r.chance(0.04)) {
      // No trade that day: the quote repeats the previous settlement.
      open = high = low = close = previousClose;
      volume = 0;
    } else {
      close = closes[i] as number;
      open = clampTick(Math.round(previousClose * Math.exp(r.normal(0, 0.006))));
      const top = Math.max(open, close);
      const bottom = Math.min(open, close);
      high = clampTick(Math.max(top, Math.ceil(top * (1 + Math.abs(r.normal(0, 0.009))))));
      low = clampTick(Math.min(bottom, Math.floor(bottom * (1 - Math.abs(r.normal(0, 0.009))))));
      volume = tradedVolume(r, day);
    }
    previousClose = close;
    builder.add([
      isoDateOfDay(day),
      floatCell(open / TICKS_PER_UNIT),
      floatCell(high / TICKS_PER_UNIT),
      floatCell(low / TICKS_PER_UNIT),
      floatCell(close / TICKS_PER_UNIT),
      String(volume),
      'USD',
    ]);
  }
  return builder.build();
}

/** Closing prices in ticks: a log-price Brownian bridge between jittered anchors, kept inside the bounds. */
function closingPath(rng: Rng, days: readonly number[]): number[] {
  const anchorDays = ANCHORS.map(([iso]) => isoToDay(iso));
  const anchorLogs = ANCHORS.map(([, price]) => reflect(Math.log(price) + rng.normal(0, 0.08)));
  const out = new Array<number>(days.length);
  let i = 0;
  for (let a = 0; a + 1 < ANCHORS.length; a++) {
    const endDay = anchorDays[a + 1] as number;
    const from = anchorLogs[a] as number;
    const to = anchorLogs[a + 1] as number;
    // Indices of the trading days in [startDay, endDay) (the last segment also takes endDay).
    const first = i;
    const last = a + 2 === ANCHORS.length ? days.length : days.findIndex((d) => d >= endDay);
    const n = last - first;
    if (n <= 0) continue;
    const walk = new Float64Array(n + 1);
    for (let k = 1; k <= n; k++) walk[k] = (walk[k - 1] as number) + rng.normal(0, DAILY_VOLATILITY);
    for (let k = 0; k < n; k++) {
      const t = k / n;
      const bridge = (walk[k] as number) - t * (walk[n] as number);
      const logPrice = reflect(from + t * (to - from) + bridge);
      out[first + k] = clampTick(Math.round(Math.exp(logPrice) * TICKS_PER_UNIT));
    }
    i = last;
  }
  return out;
}

function clampTick(tick: number): number {
  return Math.min(MAX_TICK, Math.max(MIN_TICK, tick));
}

// Closing prices bounce off soft limits a little inside the all-time bounds, which leaves room for the
// intraday range and avoids flat stretches pinned at a bound.
const LOG_FLOOR = Math.log(COFFEE_MIN_PRICE * 1.03);
const LOG_CEILING = Math.log(COFFEE_MAX_PRICE * 0.97);

function reflect(logPrice: number): number {
  let x = logPrice;
  if (x > LOG_CEILING) x = LOG_CEILING - (x - LOG_CEILING);
  if (x < LOG_FLOOR) x = LOG_FLOOR + (LOG_FLOOR - x);
  return Math.min(LOG_CEILING, Math.max(LOG_FLOOR, x));
}

function tradedVolume(rng: Rng, day: number): number {
  const small = Math.max(0, Math.round(Math.exp(rng.normal(Math.log(90), 0.9))));
  if (day < LOW_VOLUME_UNTIL) return Math.min(small, 2500);
  const full = Math.min(60_000, Math.max(800, Math.round(Math.exp(rng.normal(Math.log(15_000), 0.5)))));
  if (day >= FULL_VOLUME_FROM) return rng.chance(0.002) ? 0 : full;
  // 2008: the electronic market takes over gradually.
  const t = (day - LOW_VOLUME_UNTIL) / (FULL_VOLUME_FROM - LOW_VOLUME_UNTIL);
  return rng.chance(t) ? full : small;
}

function isoToDay(iso: string): number {
  return dayNumber(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)), Number(iso.slice(8, 10)));
}

/** ICE US softs trading days (UTC day numbers) from 2000-01-03 to 2022-09-02. */
export function tradingDays(): number[] {
  const first = isoToDay(COFFEE_FIRST_DATE);
  const last = isoToDay(COFFEE_LAST_DATE);
  const closed = new Set<number>(SPECIAL_CLOSURES.map(isoToDay));
  for (let y = 2000; y <= 2022; y++) for (const d of holidays(y)) closed.add(d);
  const out: number[] = [];
  for (let d = first; d <= last; d++) {
    if (isoWeekday(d) <= 5 && !closed.has(d)) out.push(d);
  }
  return out;
}

const SPECIAL_CLOSURES = [
  '2001-09-11',
  '2001-09-12',
  '2001-09-13',
  '2001-09-14',
  '2004-06-11',
  '2007-01-02',
  '2012-10-29',
  '2012-10-30',
  '2018-12-05',
];

/** US exchange holidays of a year (observed dates), as UTC day numbers. */
function holidays(year: number): number[] {
  const out: number[] = [];
  // Fixed-date holidays move to Friday/Monday when they fall on a weekend; New Year's Day on a Saturday is
  // not observed (the exchange does not close on the last trading day of the previous year).
  const observed = (month: number, day: number, skipSaturday = false): void => {
    const d = dayNumber(year, month, day);
    const wd = isoWeekday(d);
    if (wd === 6) {
      if (!skipSaturday) out.push(d - 1);
    } else if (wd === 7) out.push(d + 1);
    else out.push(d);
  };
  observed(1, 1, true);
  out.push(nthWeekday(year, 1, 1, 3)); // Martin Luther King Jr. Day
  out.push(nthWeekday(year, 2, 1, 3)); // Presidents' Day
  out.push(easter(year) - 2); // Good Friday
  out.push(lastWeekday(year, 5, 1)); // Memorial Day
  if (year >= 2022) observed(6, 19); // Juneteenth
  observed(7, 4);
  out.push(nthWeekday(year, 9, 1, 1)); // Labor Day
  out.push(nthWeekday(year, 11, 4, 4)); // Thanksgiving
  observed(12, 25);
  return out;
}

/** The n-th given ISO weekday of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  const first = dayNumber(year, month, 1);
  const offset = (weekday - isoWeekday(first) + 7) % 7;
  return first + offset + 7 * (n - 1);
}

function lastWeekday(year: number, month: number, weekday: number): number {
  const last = dayNumber(year, month + 1, 1) - 1;
  return last - ((isoWeekday(last) - weekday + 7) % 7);
}

/** Easter Sunday (anonymous Gregorian algorithm). */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayNumber(year, month, day);
}
