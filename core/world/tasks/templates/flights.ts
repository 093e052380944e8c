/**
 * Flights templates (spec §7.1 easy E1–E10, §7.2 hard H11–H20): tooldrift's wording, the original's slots,
 * plans and gold rules. Easy questions name one row (date + marketing flight + airports, which the corpus keeps
 * unique) or, without airports, a (date, flight) that has a single row; hard questions aggregate a group of rows.
 *
 * A flight is written `{carrier}{number}` in one slot (`UA5839`): marketing codes are always two characters, and
 * two adjacent slots could not be matched back from the question text.
 *
 * Deliberate differences from ToolQA-D:
 * - Airline-name slots (E3, H15, H16, H20) never use a name containing `, ` (GoJet, Commutair): FilterDB splits
 *   conditions on `, `, so such questions cannot be answered with the tools (the original's H20 example,
 *   GoJet on 2022-02-01, was unsolvable).
 * - Clock answers (E1, E7, E8) use the spec's hhmm→H:MM rule; times before 01:00 (hhmm < 100, which the rule
 *   would write `:26`) are not asked.
 * - E2 draws a cancelled flight half of the time (the original drew uniform rows, ~97% `No`).
 * - E4 keeps the original's computation on the hhmm numbers, but only for flights where it equals the real
 *   difference in minutes (same hour, no midnight wrap), so the wording can ask for minutes truthfully.
 * - Answers the original would give as `nan` (E5, E6: missing delay) are not asked; nor E10 with a zero taxi-in.
 * - H11: the original asked which share was "delayed" but computed the cancelled share; the wording here asks for
 *   the cancelled share. H11 and H12 need an origin with at least two departures that day.
 * - H12: the original divided the sum of non-missing DepDelayMinutes by the count of all rows, cancelled ones
 *   included; origin-days with a cancellation are not asked, so "average departure delay" has one reading.
 * - H13 dates without a diverted flight are not asked (FilterDB cannot report zero rows).
 * - H14 counts Distance > 500 (EVO fix; ToolQA counted > 300).
 * - H16 asks for the number of distinct flight numbers (what the original computed, under the wording "how many
 *   flights"); routes where two marketing carriers share a number are not asked.
 * - H18 names the weekday (`Monday`) instead of the DayOfWeek digit; ties for the shortest air time between
 *   different flights are resampled.
 * - Groups whose GetValue result would exceed the 1,024-token observation limit are not asked.
 * - Hard answers say "to one decimal" where the gold is formatted with one decimal.
 */

import { pyFloatRepr, pyFormatFixed } from '../../../util/python-format.ts';
import type { Rng } from '../../../util/random.ts';
import type { Table } from '../../table.ts';
import { mean, TableIndex } from '../data.ts';
import {
  type CellValue,
  filteredRows,
  getValueColumn,
  getValueColumns,
  pyFloatList,
  pyIntList,
  pyStrList,
} from '../observations.ts';
import type { Gold, PlanCall, SampleContext, Solver, TaskTemplate } from '../types.ts';

/** Observation limit in whitespace tokens (spec §3.0 step 5). */
export const OBSERVATION_TOKEN_LIMIT = 1024;

/**
 * Whitespace tokens of a GetValue result over `rows` rows and `columns` columns whose cells have no spaces:
 * `{"A": ["x", "y"], "B": [...]}` is one token per column name plus one per cell.
 */
export function getValueTokens(rows: number, columns: number): number {
  return columns * (rows + 1);
}

const fits = (rows: number, columns: number) => getValueTokens(rows, columns) <= OBSERVATION_TOKEN_LIMIT;

/** The spec's hhmm→H:MM: the integer part's digits with `:` before the last two (`751.0` → `7:51`). */
export function hhmmToClock(cell: string): string {
  const digits = String(Math.trunc(Number.parseFloat(cell)));
  return `${digits.slice(0, -2)}:${digits.slice(-2)}`;
}

/** A clock cell the H:MM rule renders well: present and at or after 01:00. */
function clockable(cell: string): boolean {
  const x = Number.parseFloat(cell);
  return !Number.isNaN(x) && x >= 100;
}

/** Python str(float) as the original stored it, with `0.0` written `0`. */
export function floatAnswer(x: number): string {
  return x === 0 ? '0' : pyFloatRepr(x);
}

const fmt1 = (x: number) => pyFormatFixed(x, 1);
const isMissing = (cell: string) => cell === 'nan';

/** Splits `UA5839` into its marketing code and number. */
export function splitFlight(flight: string): { carrier: string; number: string } {
  const m = /^([A-Z0-9]{2})(\d+)$/.exec(flight);
  if (!m) throw new Error(`not a flight designator: ${flight}`);
  return { carrier: m[1] as string, number: m[2] as string };
}

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

// ---------------------------------------------------------------------------------------------------------
// Reading the table for gold answers.

type FlightColumn =
  | 'FlightDate'
  | 'Airline'
  | 'Origin'
  | 'Dest'
  | 'Cancelled'
  | 'Diverted'
  | 'CRSDepTime'
  | 'DepTime'
  | 'DepDelayMinutes'
  | 'DepDelay'
  | 'ArrTime'
  | 'ArrDelayMinutes'
  | 'AirTime'
  | 'Distance'
  | 'DayOfWeek'
  | 'IATA_Code_Marketing_Airline'
  | 'Flight_Number_Marketing_Airline'
  | 'TaxiIn'
  | 'CRSArrTime'
  | 'ArrDelay';

/** Lazily materialised columns and row groups of one flights table (gold computation only). */
class FlightsIndex extends TableIndex<FlightColumn> {
  private readonly choiceLists = new Map<string, Map<string, string[]>>();

  /** Distinct values of `next` among rows with the given values of `by`, in first-appearance order. */
  choices(by: readonly FlightColumn[], values: readonly string[], next: FlightColumn): string[] {
    const name = `${by.join('\u0000')}\u0001${next}`;
    let lists = this.choiceLists.get(name);
    if (!lists) {
      lists = new Map();
      const seen = new Map<string, Set<string>>();
      const cols = by.map((c) => this.col(c));
      const nextCol = this.col(next);
      for (let i = 0; i < this.rowCount; i++) {
        const key = cols.map((c) => c[i]).join('\u0000');
        const v = nextCol[i] as string;
        let s = seen.get(key);
        if (!s) {
          s = new Set();
          seen.set(key, s);
          lists.set(key, []);
        }
        if (!s.has(v)) {
          s.add(v);
          lists.get(key)?.push(v);
        }
      }
      this.choiceLists.set(name, lists);
    }
    return lists.get(values.join('\u0000')) ?? [];
  }
}

const indexes = new WeakMap<Table, FlightsIndex>();
function data(ctx: SampleContext): FlightsIndex {
  const t = ctx.world.tables.flights;
  let d = indexes.get(t);
  if (!d) {
    d = new FlightsIndex(t);
    indexes.set(t, d);
  }
  return d;
}

/** Airline names FilterDB can match (no `, `). */
function filterableAirlines(d: FlightsIndex): string[] {
  return d.choices([], [], 'Airline').filter((a) => !a.includes(', '));
}

function pickOrNull<T>(rng: Rng, items: readonly T[]): T | null {
  return items.length === 0 ? null : rng.pick(items);
}

// ---------------------------------------------------------------------------------------------------------
// Plan steps.

const load: PlanCall = { tool: 'LoadDB', args: { DBName: 'flights' } };
const filter = (condition: string): PlanCall => ({ tool: 'FilterDB', args: { condition } });
const getValue = (columns: string): PlanCall => ({ tool: 'GetValue', args: { column_name: columns } });
const python = (code: string): PlanCall => ({ tool: 'PythonInterpreter', args: { Python: code } });

const isMissingValue = (v: CellValue | undefined) => (typeof v === 'number' ? Number.isNaN(v) : v === 'nan');

/** Values of a column read from an observation, without the missing ones. */
const present = (values: readonly CellValue[]) => values.filter((v) => !isMissingValue(v));

/** Positions of the non-missing values of a column read from an observation. */
const presentIndices = (values: readonly CellValue[]) =>
  values.flatMap((v, i) => (isMissingValue(v) ? [] : [i]));

/** The values at the given positions. */
const at = (values: readonly CellValue[] | undefined, indices: readonly number[]) =>
  indices.map((i) => (values ?? [])[i] as CellValue);

// ---------------------------------------------------------------------------------------------------------
// Easy: one flight on one day.

type RouteFlightSlots = { flight: string; origin: string; dest: string; date: string };
type DayFlightSlots = { flight: string; date: string };

/** Cells of the one row a plan reads, by column. */
type RowCells = Record<string, string>;

interface RowTemplateSpec {
  label: string;
  question: string;
  goldRule: string;
  /** Whether the question names the airports (E5 and E10 do not). */
  airports: boolean;
  /** The row to ask about (default: uniform). */
  pick?(d: FlightsIndex, rng: Rng): number;
  /** Gold from the row; null to resample. */
  gold(d: FlightsIndex, row: number): Gold | null;
  /** Columns the plan reads. */
  columns: FlightColumn[];
  /** The answer read off the cells, or Python code that prints it. */
  answer(cells: RowCells): string | { python: string };
}

function rowTemplate(spec: RowTemplateSpec): TaskTemplate {
  const template: TaskTemplate<RouteFlightSlots | DayFlightSlots> = {
    id: `flights-easy-${spec.label}`,
    dataset: 'flights',
    difficulty: 'easy',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const row = spec.pick ? spec.pick(d, ctx.rng) : ctx.rng.int(0, d.rowCount - 1);
      const date = d.cell('FlightDate', row);
      const carrier = d.cell('IATA_Code_Marketing_Airline', row);
      const number = d.cell('Flight_Number_Marketing_Airline', row);
      // Without airports the (date, flight) must name one row: through flights have one row per leg.
      if (!spec.airports && d.rows(DAY_FLIGHT, [date, carrier, number]).length !== 1) return null;
      const gold = spec.gold(d, row);
      if (gold === null) return null;
      const flight = `${carrier}${number}`;
      const slots = spec.airports
        ? { flight, origin: d.cell('Origin', row), dest: d.cell('Dest', row), date }
        : { flight, date };
      return { slots, gold };
    },
    *solve(slots): Solver {
      const { carrier, number } = splitFlight(slots.flight);
      const conditions = [`FlightDate=${slots.date}`];
      if ('origin' in slots) conditions.push(`Origin=${slots.origin}`, `Dest=${slots.dest}`);
      conditions.push(`IATA_Code_Marketing_Airline=${carrier}`, `Flight_Number_Marketing_Airline=${number}`);
      yield load;
      if (filteredRows(yield filter(conditions.join(', '))) !== 1)
        throw new Error(`${spec.label}: not one row`);
      const obs = yield getValue(spec.columns.join(', '));
      const columns = getValueColumns(obs);
      const row: RowCells = {};
      for (const c of spec.columns) row[c] = String(columns[c]?.[0]);
      const answer = spec.answer(row);
      if (typeof answer === 'string') return answer;
      const out = yield python(answer.python);
      return out.trim();
    },
  };
  return template;
}

const DAY_FLIGHT: FlightColumn[] = [
  'FlightDate',
  'IATA_Code_Marketing_Airline',
  'Flight_Number_Marketing_Airline',
];

function clockTemplate(
  label: string,
  question: string,
  column: 'DepTime' | 'ArrTime' | 'CRSArrTime',
): TaskTemplate {
  return rowTemplate({
    label,
    question,
    goldRule: `${column} as H:MM (the hhmm digits with a colon before the last two; times before 01:00 are not asked).`,
    airports: true,
    gold: (d, row) => {
      const cell = d.cell(column, row);
      return clockable(cell) ? hhmmToClock(cell) : null;
    },
    columns: [column],
    answer: (c) => hhmmToClock(c[column] as string),
  });
}

const easy: TaskTemplate[] = [
  clockTemplate(
    'E1',
    'What was the actual departure time (H:MM, 24-hour clock) of flight {flight} from {origin} to {dest} on {date}?',
    'DepTime',
  ),
  rowTemplate({
    label: 'E2',
    question: 'Was flight {flight} from {origin} to {dest} on {date} cancelled?',
    goldRule: '`Yes` if the flight was cancelled, else `No`.',
    airports: true,
    pick: (d, rng) => {
      const cancelled = d.rows(['Cancelled'], ['True']);
      return rng.chance(0.5) && cancelled.length > 0 ? rng.pick(cancelled) : rng.int(0, d.rowCount - 1);
    },
    gold: (d, row) => (d.cell('Cancelled', row) === 'True' ? 'Yes' : 'No'),
    columns: ['Cancelled'],
    answer: (c) => (c.Cancelled === 'True' ? 'Yes' : 'No'),
  }),
  {
    id: 'flights-easy-E3',
    dataset: 'flights',
    difficulty: 'easy',
    label: 'E3',
    question: 'Which flight numbers did {airline} fly from {origin} to {dest} on {date}?',
    goldRule:
      'The distinct Flight_Number_Marketing_Airline values of the airline’s rows on that route and day, in row order, joined with `, `.',
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const airline = d.cell('Airline', row);
      if (airline.includes(', ')) return null;
      const slots = {
        airline,
        origin: d.cell('Origin', row),
        dest: d.cell('Dest', row),
        date: d.cell('FlightDate', row),
      };
      const rows = d.rows(AIRLINE_ROUTE_DAY, [slots.airline, slots.origin, slots.dest, slots.date]);
      if (!fits(rows.length, 1)) return null;
      const numbers = [...new Set(rows.map((r) => d.cell('Flight_Number_Marketing_Airline', r)))];
      return { slots, gold: numbers.join(', ') };
    },
    *solve({ airline, origin, dest, date }) {
      yield load;
      filteredRows(yield filter(`Airline=${airline}, Origin=${origin}, Dest=${dest}, FlightDate=${date}`));
      const obs = yield getValue('Flight_Number_Marketing_Airline');
      const numbers = getValueColumn(obs, 'Flight_Number_Marketing_Airline').map(String);
      return [...new Set(numbers)].join(', ');
    },
  } satisfies TaskTemplate<{ airline: string; origin: string; dest: string; date: string }>,
  rowTemplate({
    label: 'E4',
    question:
      'How many minutes apart were the scheduled (CRS) and actual departure times of flight {flight} from {origin} to {dest} on {date}?',
    goldRule:
      'int(|DepTime − CRSDepTime|) on the hhmm numbers, asked only when it is non-zero and equals |DepDelay| (no hour boundary crossed).',
    airports: true,
    gold: (d, row) => {
      const dep = Number.parseFloat(d.cell('DepTime', row));
      const crs = Number.parseFloat(d.cell('CRSDepTime', row));
      const delay = Number.parseFloat(d.cell('DepDelay', row));
      const diff = Math.trunc(Math.abs(dep - crs));
      if (Number.isNaN(diff) || diff === 0 || diff !== Math.abs(delay)) return null;
      return String(diff);
    },
    columns: ['CRSDepTime', 'DepTime'],
    answer: (c) => ({ python: `crs = ${c.CRSDepTime}\ndep = ${c.DepTime}\nprint(int(abs(dep - crs)))` }),
  }),
  rowTemplate({
    label: 'E5',
    question: 'How many minutes late did flight {flight} arrive on {date}?',
    goldRule:
      'ArrDelayMinutes as Python str(float) (`15.0`), `0.0` written `0`; flights without a value are not asked.',
    airports: false,
    gold: (d, row) => {
      const cell = d.cell('ArrDelayMinutes', row);
      return isMissing(cell) ? null : floatAnswer(Number.parseFloat(cell));
    },
    columns: ['ArrDelayMinutes'],
    answer: (c) => c.ArrDelayMinutes as string,
  }),
  rowTemplate({
    label: 'E6',
    question:
      'What was the arrival delay minus the departure delay, in minutes, of flight {flight} from {origin} to {dest} on {date}?',
    goldRule:
      'ArrDelay − DepDelay as Python str(float) (`-10.0`), `0.0` written `0`; flights without both are not asked.',
    airports: true,
    gold: (d, row) => {
      const x = Number.parseFloat(d.cell('ArrDelay', row)) - Number.parseFloat(d.cell('DepDelay', row));
      return Number.isNaN(x) ? null : floatAnswer(x);
    },
    columns: ['DepDelay', 'ArrDelay'],
    answer: (c) => ({ python: `dep = ${c.DepDelay}\narr = ${c.ArrDelay}\nprint(arr - dep)` }),
  }),
  clockTemplate(
    'E7',
    'What was the actual local arrival time (H:MM, 24-hour clock) of flight {flight} from {origin} to {dest} on {date}?',
    'ArrTime',
  ),
  clockTemplate(
    'E8',
    'What was the scheduled (CRS) arrival time (H:MM, 24-hour clock) of flight {flight} from {origin} to {dest} on {date}?',
    'CRSArrTime',
  ),
  rowTemplate({
    label: 'E9',
    question: 'For how many minutes was flight {flight} from {origin} to {dest} in the air on {date}?',
    goldRule: 'The integer part of AirTime; flights without one are not asked.',
    airports: true,
    gold: (d, row) => {
      const cell = d.cell('AirTime', row);
      return isMissing(cell) ? null : String(Math.trunc(Number.parseFloat(cell)));
    },
    columns: ['AirTime'],
    answer: (c) => String(Math.trunc(Number.parseFloat(c.AirTime as string))),
  }),
  rowTemplate({
    label: 'E10',
    question: 'How many minutes did flight {flight} spend taxiing in on {date}?',
    goldRule: 'The integer part of TaxiIn; flights without one or with 0 are not asked.',
    airports: false,
    gold: (d, row) => {
      const x = Math.trunc(Number.parseFloat(d.cell('TaxiIn', row)));
      return Number.isNaN(x) || x === 0 ? null : String(x);
    },
    columns: ['TaxiIn'],
    answer: (c) => String(Math.trunc(Number.parseFloat(c.TaxiIn as string))),
  }),
];

const AIRLINE_ROUTE_DAY: FlightColumn[] = ['Airline', 'Origin', 'Dest', 'FlightDate'];

// ---------------------------------------------------------------------------------------------------------
// Hard: groups of flights.

type OriginDaySlots = { origin: string; date: string };
type DateSlots = { date: string };
type AirlineRouteSlots = { airline: string; origin: string; dest: string };
type FlightSlots = { flight: string };
type RouteWeekdaySlots = { origin: string; dest: string; weekday: string };
type RouteFlightOnlySlots = { flight: string; origin: string; dest: string };
type AirlineDaySlots = { airline: string; date: string };

const ORIGIN_DAY: FlightColumn[] = ['Origin', 'FlightDate'];
const AIRLINE_ROUTE: FlightColumn[] = ['Airline', 'Origin', 'Dest'];
const FLIGHT: FlightColumn[] = ['IATA_Code_Marketing_Airline', 'Flight_Number_Marketing_Airline'];
const ROUTE_WEEKDAY: FlightColumn[] = ['Origin', 'Dest', 'DayOfWeek'];
const FLIGHT_ROUTE: FlightColumn[] = [
  'IATA_Code_Marketing_Airline',
  'Flight_Number_Marketing_Airline',
  'Origin',
  'Dest',
];

/** Air times of the rows that have one. */
function airTimes(d: FlightsIndex, rows: readonly number[]): number[] {
  return rows
    .filter((r) => !isMissing(d.cell('AirTime', r)))
    .map((r) => Number.parseFloat(d.cell('AirTime', r)));
}

/** A random airline FilterDB can match, a random origin of it, a random destination it flies from there. */
function sampleAirlineRoute(ctx: SampleContext): AirlineRouteSlots | null {
  const d = data(ctx);
  const airline = pickOrNull(ctx.rng, filterableAirlines(d));
  if (airline === null) return null;
  const origin = pickOrNull(ctx.rng, d.choices(['Airline'], [airline], 'Origin'));
  if (origin === null) return null;
  const dest = pickOrNull(ctx.rng, d.choices(['Airline', 'Origin'], [airline, origin], 'Dest'));
  return dest === null ? null : { airline, origin, dest };
}

function* meanMinutes(values: readonly CellValue[]): Generator<PlanCall, unknown, string> {
  const out = yield python(
    `times = ${pyFloatList(present(values))}\nprint(f'{sum(times) / len(times):.1f} minutes')`,
  );
  return out.trim();
}

const hard: TaskTemplate[] = [
  {
    id: 'flights-hard-H11',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H11',
    question: 'What percentage of the flights departing {origin} on {date} were cancelled (to one decimal)?',
    goldRule: 'Cancelled rows ÷ all rows of that origin and day × 100, one decimal, followed by %.',
    sample(ctx) {
      const d = data(ctx);
      const row = pickOrNull(ctx.rng, d.rows(['Cancelled'], ['True']));
      if (row === null) return null;
      const slots = { origin: d.cell('Origin', row), date: d.cell('FlightDate', row) };
      const rows = d.rows(ORIGIN_DAY, [slots.origin, slots.date]);
      if (rows.length < 2) return null;
      const k = rows.filter((r) => d.cell('Cancelled', r) === 'True').length;
      return { slots, gold: `${fmt1((k / rows.length) * 100)}%` };
    },
    *solve({ origin, date }) {
      yield load;
      const n = filteredRows(yield filter(`Origin=${origin}, FlightDate=${date}`));
      const k = filteredRows(yield filter('Cancelled=True'));
      const out = yield python(`k = ${k}\nn = ${n}\nprint(f'{k / n * 100:.1f}%')`);
      return out.trim();
    },
  } satisfies TaskTemplate<OriginDaySlots>,
  {
    id: 'flights-hard-H12',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H12',
    question:
      'What was the average departure delay in minutes (early departures count as 0) of the flights leaving {origin} on {date}, to one decimal?',
    goldRule:
      'Mean DepDelayMinutes of that origin and day, one decimal (origin-days with a cancelled flight or a single flight are not asked).',
    sample(ctx) {
      const d = data(ctx);
      const origin = ctx.rng.pick(d.choices([], [], 'Origin'));
      const date = ctx.rng.pick(d.choices([], [], 'FlightDate'));
      const rows = d.rows(ORIGIN_DAY, [origin, date]);
      if (rows.length < 2 || !fits(rows.length, 1)) return null;
      if (rows.some((r) => d.cell('Cancelled', r) === 'True')) return null;
      const delays = rows.map((r) => Number.parseFloat(d.cell('DepDelayMinutes', r)));
      return { slots: { origin, date }, gold: fmt1(mean(delays)) };
    },
    *solve({ origin, date }) {
      yield load;
      filteredRows(yield filter(`Origin=${origin}, FlightDate=${date}`));
      const delays = present(getValueColumn(yield getValue('DepDelayMinutes'), 'DepDelayMinutes'));
      const out = yield python(`delays = ${pyFloatList(delays)}\nprint(f'{sum(delays) / len(delays):.1f}')`);
      return out.trim();
    },
  } satisfies TaskTemplate<OriginDaySlots>,
  {
    id: 'flights-hard-H13',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H13',
    question: 'On {date}, how many flights had to divert to another airport?',
    goldRule: 'Number of rows of that day with Diverted = True (days without a diversion are not asked).',
    sample(ctx) {
      const d = data(ctx);
      const date = ctx.rng.pick(d.choices([], [], 'FlightDate'));
      const k = d.rows(['FlightDate', 'Diverted'], [date, 'True']).length;
      return k === 0 ? null : { slots: { date }, gold: String(k) };
    },
    *solve({ date }) {
      yield load;
      return String(filteredRows(yield filter(`FlightDate=${date}, Diverted=True`)));
    },
  } satisfies TaskTemplate<DateSlots>,
  {
    id: 'flights-hard-H14',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H14',
    question: 'How many of the flights on {date} covered a distance of more than 500 miles?',
    goldRule: 'Number of rows of that day with Distance > 500 (EVO fix; ToolQA counted > 300).',
    sample(ctx) {
      const d = data(ctx);
      const date = ctx.rng.pick(d.choices([], [], 'FlightDate'));
      const k = d
        .rows(['FlightDate'], [date])
        .filter((r) => Number.parseFloat(d.cell('Distance', r)) > 500).length;
      return k === 0 ? null : { slots: { date }, gold: String(k) };
    },
    *solve({ date }) {
      yield load;
      return String(filteredRows(yield filter(`FlightDate=${date}, Distance>500`)));
    },
  } satisfies TaskTemplate<DateSlots>,
  {
    id: 'flights-hard-H15',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H15',
    question:
      'On average, how many minutes were {airline} flights from {origin} to {dest} in the air (to one decimal)?',
    goldRule:
      'Mean of the non-missing AirTime of the airline’s rows on the route, one decimal, followed by ` minutes`.',
    sample(ctx) {
      const d = data(ctx);
      const slots = sampleAirlineRoute(ctx);
      if (slots === null) return null;
      const rows = d.rows(AIRLINE_ROUTE, [slots.airline, slots.origin, slots.dest]);
      const times = airTimes(d, rows);
      if (times.length === 0 || !fits(rows.length, 1)) return null;
      return { slots, gold: `${fmt1(mean(times))} minutes` };
    },
    *solve({ airline, origin, dest }) {
      yield load;
      filteredRows(yield filter(`Airline=${airline}, Origin=${origin}, Dest=${dest}`));
      return yield* meanMinutes(getValueColumn(yield getValue('AirTime'), 'AirTime'));
    },
  } satisfies TaskTemplate<AirlineRouteSlots>,
  {
    id: 'flights-hard-H16',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H16',
    question: 'How many distinct flight numbers did {airline} fly from {origin} to {dest}?',
    goldRule:
      'Number of distinct Flight_Number_Marketing_Airline values of the airline’s rows on the route (an int).',
    sample(ctx) {
      const d = data(ctx);
      const slots = sampleAirlineRoute(ctx);
      if (slots === null) return null;
      const rows = d.rows(AIRLINE_ROUTE, [slots.airline, slots.origin, slots.dest]);
      if (!fits(rows.length, 1)) return null;
      const numbers = new Set(rows.map((r) => d.cell('Flight_Number_Marketing_Airline', r)));
      const flights = new Set(
        rows.map(
          (r) => `${d.cell('IATA_Code_Marketing_Airline', r)}${d.cell('Flight_Number_Marketing_Airline', r)}`,
        ),
      );
      // The same number under two marketing codes would make "flight numbers" and "flights" disagree.
      if (flights.size !== numbers.size) return null;
      return { slots, gold: { type: 'int', value: numbers.size } };
    },
    *solve({ airline, origin, dest }) {
      yield load;
      filteredRows(yield filter(`Airline=${airline}, Origin=${origin}, Dest=${dest}`));
      const numbers = getValueColumn(
        yield getValue('Flight_Number_Marketing_Airline'),
        'Flight_Number_Marketing_Airline',
      );
      const out = yield python(`numbers = ${pyIntList(numbers)}\nprint(len(set(numbers)))`);
      return out.trim();
    },
  } satisfies TaskTemplate<AirlineRouteSlots>,
  {
    id: 'flights-hard-H17',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H17',
    question:
      'On average, how many minutes was flight {flight} in the air over the whole period (to one decimal)?',
    goldRule:
      'Mean of the non-missing AirTime of every row of the flight (all dates and legs), one decimal, followed by ` minutes`.',
    sample(ctx) {
      const d = data(ctx);
      const number = ctx.rng.pick(d.choices([], [], 'Flight_Number_Marketing_Airline'));
      const carrier = ctx.rng.pick(
        d.choices(['Flight_Number_Marketing_Airline'], [number], 'IATA_Code_Marketing_Airline'),
      );
      const rows = d.rows(FLIGHT, [carrier, number]);
      const times = airTimes(d, rows);
      if (times.length === 0 || !fits(rows.length, 1)) return null;
      return { slots: { flight: `${carrier}${number}` }, gold: `${fmt1(mean(times))} minutes` };
    },
    *solve({ flight }) {
      const { carrier, number } = splitFlight(flight);
      yield load;
      filteredRows(
        yield filter(`IATA_Code_Marketing_Airline=${carrier}, Flight_Number_Marketing_Airline=${number}`),
      );
      return yield* meanMinutes(getValueColumn(yield getValue('AirTime'), 'AirTime'));
    },
  } satisfies TaskTemplate<FlightSlots>,
  {
    id: 'flights-hard-H18',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H18',
    question:
      'Which flight (carrier code and number) had the shortest air time from {origin} to {dest} on a {weekday}?',
    goldRule:
      '`{carrier}{number}` of the first row with the smallest non-missing AirTime among the route’s rows on that weekday (ties between different flights are not asked).',
    sample(ctx) {
      const d = data(ctx);
      const origin = ctx.rng.pick(d.choices([], [], 'Origin'));
      const dest = ctx.rng.pick(d.choices(['Origin'], [origin], 'Dest'));
      const dow = ctx.rng.pick(d.choices(['Origin', 'Dest'], [origin, dest], 'DayOfWeek'));
      const rows = d.rows(ROUTE_WEEKDAY, [origin, dest, dow]);
      if (!fits(rows.length, 3)) return null;
      const timed = rows.filter((r) => !isMissing(d.cell('AirTime', r)));
      if (timed.length === 0) return null;
      const best = Math.min(...timed.map((r) => Number.parseFloat(d.cell('AirTime', r))));
      const winners = new Set(
        timed
          .filter((r) => Number.parseFloat(d.cell('AirTime', r)) === best)
          .map(
            (r) =>
              `${d.cell('IATA_Code_Marketing_Airline', r)}${d.cell('Flight_Number_Marketing_Airline', r)}`,
          ),
      );
      if (winners.size !== 1) return null;
      const weekday = WEEKDAYS[Number(dow) - 1] as string;
      return { slots: { origin, dest, weekday }, gold: [...winners][0] as string };
    },
    *solve({ origin, dest, weekday }) {
      const dow = WEEKDAYS.indexOf(weekday as (typeof WEEKDAYS)[number]) + 1;
      yield load;
      filteredRows(yield filter(`Origin=${origin}, Dest=${dest}, DayOfWeek=${dow}`));
      const cols = getValueColumns(
        yield getValue('AirTime, IATA_Code_Marketing_Airline, Flight_Number_Marketing_Airline'),
      );
      const keep = presentIndices(cols.AirTime ?? []);
      const out = yield python(
        [
          `times = ${pyFloatList(at(cols.AirTime, keep))}`,
          `carriers = ${pyStrList(at(cols.IATA_Code_Marketing_Airline, keep))}`,
          `numbers = ${pyIntList(at(cols.Flight_Number_Marketing_Airline, keep))}`,
          'i = times.index(min(times))',
          'print(carriers[i] + str(numbers[i]))',
        ].join('\n'),
      );
      return out.trim();
    },
  } satisfies TaskTemplate<RouteWeekdaySlots>,
  {
    id: 'flights-hard-H19',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H19',
    question:
      'What was the average speed of flight {flight} from {origin} to {dest}, in miles per minute (to one decimal)?',
    goldRule:
      'Mean of Distance ÷ AirTime over the flight’s rows on the route that have an AirTime, one decimal.',
    sample(ctx) {
      const d = data(ctx);
      const origin = ctx.rng.pick(d.choices([], [], 'Origin'));
      const dest = ctx.rng.pick(d.choices(['Origin'], [origin], 'Dest'));
      const number = ctx.rng.pick(
        d.choices(['Origin', 'Dest'], [origin, dest], 'Flight_Number_Marketing_Airline'),
      );
      const carrier = ctx.rng.pick(
        d.choices(
          ['Origin', 'Dest', 'Flight_Number_Marketing_Airline'],
          [origin, dest, number],
          'IATA_Code_Marketing_Airline',
        ),
      );
      const rows = d.rows(FLIGHT_ROUTE, [carrier, number, origin, dest]);
      if (!fits(rows.length, 2)) return null;
      const timed = rows.filter((r) => !isMissing(d.cell('AirTime', r)));
      if (timed.length === 0) return null;
      const speeds = timed.map(
        (r) => Number.parseFloat(d.cell('Distance', r)) / Number.parseFloat(d.cell('AirTime', r)),
      );
      return { slots: { flight: `${carrier}${number}`, origin, dest }, gold: fmt1(mean(speeds)) };
    },
    *solve({ flight, origin, dest }) {
      const { carrier, number } = splitFlight(flight);
      yield load;
      filteredRows(
        yield filter(
          `IATA_Code_Marketing_Airline=${carrier}, Flight_Number_Marketing_Airline=${number}, Origin=${origin}, Dest=${dest}`,
        ),
      );
      const cols = getValueColumns(yield getValue('AirTime, Distance'));
      const keep = presentIndices(cols.AirTime ?? []);
      const out = yield python(
        [
          `times = ${pyFloatList(at(cols.AirTime, keep))}`,
          `distances = ${pyFloatList(at(cols.Distance, keep))}`,
          'speeds = [d / t for t, d in zip(times, distances)]',
          "print(f'{sum(speeds) / len(speeds):.1f}')",
        ].join('\n'),
      );
      return out.trim();
    },
  } satisfies TaskTemplate<RouteFlightOnlySlots>,
  {
    id: 'flights-hard-H20',
    dataset: 'flights',
    difficulty: 'hard',
    label: 'H20',
    question: 'How many flights did {airline} operate on {date}?',
    goldRule: 'Number of rows with that operating Airline on that day.',
    sample(ctx) {
      const d = data(ctx);
      const airline = pickOrNull(ctx.rng, filterableAirlines(d));
      if (airline === null) return null;
      const date = ctx.rng.pick(d.choices(['Airline'], [airline], 'FlightDate'));
      return {
        slots: { airline, date },
        gold: String(d.rows(['Airline', 'FlightDate'], [airline, date]).length),
      };
    },
    *solve({ airline, date }) {
      yield load;
      return String(filteredRows(yield filter(`Airline=${airline}, FlightDate=${date}`)));
    },
  } satisfies TaskTemplate<AirlineDaySlots>,
];

export const FLIGHTS_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
