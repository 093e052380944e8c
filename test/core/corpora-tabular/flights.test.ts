import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { FLIGHT_COLUMNS, generateFlights } from '../../../core/world/corpora/flights.ts';
import { AIRLINES } from '../../../core/world/corpora/vocab/us-airlines.ts';
import { US_AIRPORTS } from '../../../core/world/corpora/vocab/us-airports.ts';
import type { Table } from '../../../core/world/table.ts';
import { columnValues, countBy, median, tableHash } from './table-helpers.ts';

const SPEC_COLUMNS = [
  'FlightDate',
  'Airline',
  'Origin',
  'Dest',
  'Cancelled',
  'Diverted',
  'CRSDepTime',
  'DepTime',
  'DepDelayMinutes',
  'DepDelay',
  'ArrTime',
  'ArrDelayMinutes',
  'AirTime',
  'Distance',
  'DayOfWeek',
  'IATA_Code_Marketing_Airline',
  'Flight_Number_Marketing_Airline',
  'Flight_Number_Operating_Airline',
  'TaxiIn',
  'CRSArrTime',
  'ArrDelay',
  'DivAirportLandings',
];

/** Minutes after midnight of an hhmm number (`2400` → 1440). */
const minutesOf = (hhmm: number): number => Math.floor(hhmm / 100) * 60 + (hhmm % 100);

let t: Table;
let col: Record<string, string[]>;

beforeAll(() => {
  t = generateFlights(new Rng('flights-test'), 1);
  col = Object.fromEntries(SPEC_COLUMNS.map((c) => [c, columnValues(t, c)]));
});

describe('flights: schema and determinism', () => {
  it('has the 22 LoadDB columns in spec order with SQL types', () => {
    expect(t.columnNames()).toEqual(SPEC_COLUMNS);
    expect(FLIGHT_COLUMNS.find((c) => c.name === 'Distance')?.sqlType).toBe('REAL');
    expect(FLIGHT_COLUMNS.find((c) => c.name === 'CRSDepTime')?.sqlType).toBe('INTEGER');
    expect(FLIGHT_COLUMNS.every((c) => c.description.length > 0)).toBe(true);
  });

  it('is identical for the same seed and differs for another seed', () => {
    const a = generateFlights(new Rng('det'), 0.2);
    const b = generateFlights(new Rng('det'), 0.2);
    const c = generateFlights(new Rng('det2'), 0.2);
    expect(tableHash(a)).toBe(tableHash(b));
    expect(tableHash(a)).not.toBe(tableHash(c));
  });

  it('has at least 50,000 rows at scale 1 and scales linearly (0.1 and 4 work)', () => {
    expect(t.rowCount).toBeGreaterThanOrEqual(50_000);
    expect(t.rowCount).toBeLessThan(65_000);
    const small = generateFlights(new Rng('flights-test'), 0.1);
    expect(small.rowCount / t.rowCount).toBeGreaterThan(0.07);
    expect(small.rowCount / t.rowCount).toBeLessThan(0.13);
    const half = generateFlights(new Rng('flights-test'), 0.5);
    expect(half.rowCount / t.rowCount).toBeGreaterThan(0.45);
    expect(half.rowCount / t.rowCount).toBeLessThan(0.55);
    const big = generateFlights(new Rng('flights-test'), 4);
    expect(big.rowCount / t.rowCount).toBeGreaterThan(3.7);
    expect(big.rowCount / t.rowCount).toBeLessThan(4.3);
  });
});

describe('flights: rendering', () => {
  it('covers every date 2022-01-01..2022-07-31 in ascending order with the right weekday', () => {
    const dates = col.FlightDate as string[];
    const distinct = [...new Set(dates)];
    expect(distinct.length).toBe(212);
    expect(distinct[0]).toBe('2022-01-01');
    expect(distinct[211]).toBe('2022-07-31');
    expect(dates.findIndex((d, i) => i > 0 && d < (dates[i - 1] as string))).toBe(-1);
    const dow = col.DayOfWeek as string[];
    for (let i = 0; i < dates.length; i += 97) {
      const jsDay = new Date(`${dates[i]}T00:00:00Z`).getUTCDay(); // 0 = Sunday
      expect(dow[i]).toBe(String(jsDay === 0 ? 7 : jsDay));
    }
    expect(dow[0]).toBe('6'); // 2022-01-01 was a Saturday
  });

  it('renders ints, floats, nan and bools as pandas astype(str) does', () => {
    const patterns: Record<string, RegExp> = {
      Cancelled: /^(True|False)$/,
      Diverted: /^(True|False)$/,
      CRSDepTime: /^[1-9]\d{0,3}$/,
      CRSArrTime: /^[1-9]\d{0,3}$/,
      Distance: /^\d+\.0$/,
      DayOfWeek: /^[1-7]$/,
      Flight_Number_Marketing_Airline: /^[1-9]\d{0,3}$/,
      Flight_Number_Operating_Airline: /^[1-9]\d{0,3}$/,
      DivAirportLandings: /^[0-2]$/,
      IATA_Code_Marketing_Airline: /^[A-Z0-9]{2}$/,
      Origin: /^[A-Z]{3}$/,
      Dest: /^[A-Z]{3}$/,
    };
    for (const c of [
      'DepTime',
      'ArrTime',
      'DepDelay',
      'ArrDelay',
      'DepDelayMinutes',
      'ArrDelayMinutes',
      'AirTime',
      'TaxiIn',
    ]) {
      patterns[c] = /^(-?\d+\.0|nan)$/;
    }
    for (const [c, re] of Object.entries(patterns)) {
      // Checking the distinct values covers every cell.
      const bad = t.column(c).values.filter((v) => !re.test(v));
      expect(bad, c).toEqual([]);
    }
    expect(t.column('DepTime').values).toContain('2031.0');
    expect(t.column('DepDelay').values).toContain('-5.0');
  });

  it('keeps clock times valid and delays consistent with them', () => {
    const wrong: string[] = [];
    const check = (ok: boolean, i: number, what: string): void => {
      if (!ok && wrong.length < 5) wrong.push(`${what}: ${t.row(i).join(' | ')}`);
    };
    for (let i = 0; i < t.rowCount; i++) {
      const crsDep = Number(col.CRSDepTime?.[i]);
      const crsArr = Number(col.CRSArrTime?.[i]);
      check(crsDep % 100 < 60 && crsDep <= 2359 && crsArr % 100 < 60 && crsArr <= 2359, i, 'CRS clock');
      if (col.DepTime?.[i] !== 'nan') {
        const dep = Number(col.DepTime?.[i]);
        const delay = Number(col.DepDelay?.[i]);
        check(dep >= 1 && dep <= 2400 && dep % 100 < 60, i, 'DepTime clock');
        check((((minutesOf(crsDep) + delay - minutesOf(dep)) % 1440) + 1440) % 1440 === 0, i, 'DepDelay');
        check(Number(col.DepDelayMinutes?.[i]) === Math.max(0, delay), i, 'DepDelayMinutes');
      }
      if (col.ArrTime?.[i] !== 'nan') {
        const arr = Number(col.ArrTime?.[i]);
        const delay = Number(col.ArrDelay?.[i]);
        check(arr >= 1 && arr <= 2400 && arr % 100 < 60, i, 'ArrTime clock');
        check((((minutesOf(crsArr) + delay - minutesOf(arr)) % 1440) + 1440) % 1440 === 0, i, 'ArrDelay');
        check(Number(col.ArrDelayMinutes?.[i]) === Math.max(0, delay), i, 'ArrDelayMinutes');
      }
    }
    expect(wrong).toEqual([]);
  });

  it('blanks the right fields of cancelled and diverted flights', () => {
    const depSide = ['DepTime', 'DepDelay', 'DepDelayMinutes'];
    const arrSide = ['ArrTime', 'ArrDelay', 'ArrDelayMinutes', 'AirTime', 'TaxiIn'];
    const wrong: number[] = [];
    for (let i = 0; i < t.rowCount; i++) {
      const cancelled = col.Cancelled?.[i] === 'True';
      const diverted = col.Diverted?.[i] === 'True';
      const ok =
        depSide.every((c) => (col[c]?.[i] === 'nan') === cancelled) &&
        arrSide.every((c) => (col[c]?.[i] === 'nan') === (cancelled || diverted)) &&
        (col.DivAirportLandings?.[i] !== '0') === diverted;
      if (!ok) wrong.push(i);
    }
    expect(wrong.map((i) => t.row(i))).toEqual([]);
  });
});

describe('flights: realistic distributions', () => {
  it('cancels about 3% and diverts about 0.2% of flights', () => {
    const cancelled = (col.Cancelled as string[]).filter((v) => v === 'True').length / t.rowCount;
    const diverted = (col.Diverted as string[]).filter((v) => v === 'True').length / t.rowCount;
    expect(cancelled).toBeGreaterThan(0.022);
    expect(cancelled).toBeLessThan(0.04);
    expect(diverted).toBeGreaterThan(0.0008);
    expect(diverted).toBeLessThan(0.004);
  });

  it('has 60–65% of flights over 500 miles on the whole and on a typical day', () => {
    const far = (col.Distance as string[]).filter((v) => Number(v) > 500).length / t.rowCount;
    expect(far).toBeGreaterThanOrEqual(0.6);
    expect(far).toBeLessThanOrEqual(0.65);
    const distances = (col.Distance as string[]).map(Number);
    expect(Math.min(...distances)).toBeGreaterThanOrEqual(30);
    expect(Math.max(...distances)).toBeLessThanOrEqual(5100);
  });

  it('skews delays: median departure delay near −2, a long late tail', () => {
    const delays = (col.DepDelay as string[]).filter((v) => v !== 'nan').map(Number);
    expect(median(delays)).toBeGreaterThanOrEqual(-4);
    expect(median(delays)).toBeLessThanOrEqual(0);
    expect(delays.filter((d) => d >= 60).length / delays.length).toBeGreaterThan(0.03);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1500);
    const taxi = (col.TaxiIn as string[]).filter((v) => v !== 'nan').map(Number);
    expect(median(taxi)).toBeGreaterThanOrEqual(4);
    expect(median(taxi)).toBeLessThanOrEqual(12);
  });

  it('uses real airports, busy hubs and many small fields', () => {
    const known = new Set(US_AIRPORTS.map((a) => a.code));
    const departures = countBy(col.Origin as string[]);
    for (const code of departures.keys()) expect(known.has(code)).toBe(true);
    for (const code of new Set(col.Dest)) expect(known.has(code)).toBe(true);
    expect(departures.size).toBeGreaterThanOrEqual(100);
    const counts = [...departures.values()].sort((a, b) => b - a);
    expect((counts[0] as number) / median(counts)).toBeGreaterThan(5);
    const busiest = [...departures.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([c]) => c);
    const hubs = [
      'ATL',
      'ORD',
      'DFW',
      'DEN',
      'CLT',
      'LAX',
      'SEA',
      'DTW',
      'MSP',
      'IAH',
      'EWR',
      'SFO',
      'PHX',
      'LAS',
    ];
    expect(busiest.filter((c) => hubs.includes(c)).length).toBeGreaterThanOrEqual(6);
  });

  it('flies all 21 carriers, with few flights on the two whose names contain ", "', () => {
    const airlines = countBy(col.Airline as string[]);
    expect([...airlines.keys()].sort()).toEqual(AIRLINES.map((a) => a.name).sort());
    const comma = [...airlines.entries()]
      .filter(([name]) => name.includes(', '))
      .reduce((s, [, n]) => s + n, 0);
    expect(comma / t.rowCount).toBeGreaterThan(0);
    expect(comma / t.rowCount).toBeLessThan(0.04);
    for (const c of SPEC_COLUMNS.filter((c) => c !== 'Airline')) {
      expect((col[c] as string[]).some((v) => v.includes(', '))).toBe(false);
    }
  });
});

describe('flights: invariants the question templates rely on', () => {
  it('identifies a flight uniquely by date, carrier, number, origin and destination', () => {
    const keys = new Set<string>();
    for (let i = 0; i < t.rowCount; i++) {
      keys.add(
        `${col.FlightDate?.[i]}|${col.IATA_Code_Marketing_Airline?.[i]}|${col.Flight_Number_Marketing_Airline?.[i]}|${col.Origin?.[i]}|${col.Dest?.[i]}`,
      );
    }
    expect(keys.size).toBe(t.rowCount);
  });

  it('keeps each flight number on its route on most days (recurring schedules)', () => {
    const legsByNumber = new Map<string, Set<string>>();
    const daysByLeg = new Map<string, number>();
    for (let i = 0; i < t.rowCount; i++) {
      const flight = `${col.IATA_Code_Marketing_Airline?.[i]}${col.Flight_Number_Marketing_Airline?.[i]}`;
      const leg = `${col.Origin?.[i]}-${col.Dest?.[i]}`;
      const legs = legsByNumber.get(flight) ?? new Set<string>();
      legsByNumber.set(flight, legs);
      legs.add(leg);
      daysByLeg.set(`${flight}|${leg}`, (daysByLeg.get(`${flight}|${leg}`) ?? 0) + 1);
    }
    // A number always flies the same legs (a through flight has up to 4).
    for (const legs of legsByNumber.values()) expect(legs.size).toBeLessThanOrEqual(4);
    expect(median([...daysByLeg.values()])).toBeGreaterThanOrEqual(150);
    // Most (date, carrier, number) triples name one leg, so templates without airports have many candidates.
    const triples = countBy(
      (col.FlightDate as string[]).map(
        (d, i) => `${d}|${col.IATA_Code_Marketing_Airline?.[i]}|${col.Flight_Number_Marketing_Airline?.[i]}`,
      ),
    );
    const single = [...triples.values()].filter((n) => n === 1).length;
    expect(single / triples.size).toBeGreaterThan(0.8);
    expect([...triples.values()].some((n) => n > 1)).toBe(true);
  });

  it('has cancelled flights on most dates (percentage-cancelled questions)', () => {
    const datesWithCancel = new Set(
      (col.FlightDate as string[]).filter((_, i) => col.Cancelled?.[i] === 'True'),
    );
    expect(datesWithCancel.size).toBeGreaterThan(150);
    const datesWithDiversion = new Set(
      (col.FlightDate as string[]).filter((_, i) => col.Diverted?.[i] === 'True'),
    );
    expect(datesWithDiversion.size).toBeGreaterThan(30);
  });
});
