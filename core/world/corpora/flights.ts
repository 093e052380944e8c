/**
 * The `flights` table (spec §2.1): US domestic flights 2022-01-01 … 2022-07-31 in the 22-column layout LoadDB
 * reports. The data is a scaled-down airline network flown every day: carriers build itineraries out of their
 * bases (hub-and-spoke for legacy and regional carriers, point-to-point with multi-stop through flights for
 * Southwest, a few days a week for Allegiant), each itinerary keeps its flight number and route for the whole
 * period (with monthly retiming and some seasonal starts/ends), and daily operations add weather, delays,
 * cancellations and diversions.
 *
 * Invariants the task generator can rely on:
 * - (FlightDate, IATA_Code_Marketing_Airline, Flight_Number_Marketing_Airline, Origin, Dest) is unique.
 * - A (marketing code, flight number) always flies the same ordered legs. Multi-stop through flights (mostly
 *   WN, like the real WN403 with 4 rows on 2022-01-02) give several rows per (date, code, number) with
 *   different Origin/Dest; templates without airports (E5, E10) must check that (date, code, number) is unique.
 * - FilterDB-safe values: every value contains no `, ` except the Airline names
 *   `GoJet Airlines, LLC d/b/a United Express` and `Commutair Aka Champlain Enterprises, Inc.` (about 3% of
 *   rows together), which the real data has and which FilterDB cannot match.
 * - Cancelled rows have `nan` in DepTime, DepDelay, DepDelayMinutes, ArrTime, ArrDelay, ArrDelayMinutes,
 *   AirTime and TaxiIn. Diverted rows have DepTime/DepDelay but `nan` in ArrTime, ArrDelay, ArrDelayMinutes,
 *   AirTime and TaxiIn, and DivAirportLandings ≥ 1. All other rows have every value.
 * - DepDelay = DepTime − CRSDepTime and ArrDelay = ArrTime − CRSArrTime in clock minutes (modulo one day);
 *   DepDelayMinutes = max(0, DepDelay), ArrDelayMinutes = max(0, ArrDelay). Times are local clock times.
 * - Rows are ordered by FlightDate ascending (then by carrier); every date of the period has rows; DayOfWeek
 *   is the ISO weekday of FlightDate. All 21 carriers fly from scale ≈ 0.6 up (smaller ones drop out below).
 * - Distance is the same for every flight of an (Origin, Dest) pair; about 60–65% of flights exceed 500 miles.
 *
 * Deliberate differences from ToolQA-D:
 * - Far fewer rows (≈56,000 × scale instead of 4,078,318) and file order by date rather than the monthly
 *   carrier blocks of the original CSV.
 * - DivAirportLandings is rendered as an integer (`0`, `1`); the original rendering is unverified (§9).
 * - Cancelled flights never carry a DepTime (the original has a few cancelled-after-pushback rows).
 */
import type { Rng } from '../../util/random.ts';
import { type ColumnSpec, type Table, TableBuilder } from '../table.ts';
import { boolCell, dayNumber, intFloatCell, isoDateOfDay, isoWeekday, NAN } from './cells.ts';
import { AIRLINES, type AirlineBrand, type AirlineProfile } from './vocab/us-airlines.ts';
import { type Airport, greatCircleMiles, US_AIRPORTS, ZONE_OFFSET } from './vocab/us-airports.ts';

export const FLIGHT_COLUMNS: readonly ColumnSpec[] = [
  { name: 'FlightDate', sqlType: 'TEXT', description: 'Flight date, YYYY-MM-DD (2022-01-01 to 2022-07-31).' },
  { name: 'Airline', sqlType: 'TEXT', description: 'Operating carrier name.' },
  { name: 'Origin', sqlType: 'TEXT', description: 'Origin airport IATA code.' },
  { name: 'Dest', sqlType: 'TEXT', description: 'Destination airport IATA code.' },
  { name: 'Cancelled', sqlType: 'TEXT', description: 'True if the flight was cancelled.' },
  { name: 'Diverted', sqlType: 'TEXT', description: 'True if the flight was diverted.' },
  { name: 'CRSDepTime', sqlType: 'INTEGER', description: 'Scheduled local departure time, hhmm.' },
  { name: 'DepTime', sqlType: 'REAL', description: 'Actual local departure time, hhmm (nan if cancelled).' },
  {
    name: 'DepDelayMinutes',
    sqlType: 'REAL',
    description: 'Departure delay in minutes, early departures as 0.',
  },
  { name: 'DepDelay', sqlType: 'REAL', description: 'Departure delay in minutes (negative = early).' },
  { name: 'ArrTime', sqlType: 'REAL', description: 'Actual local arrival time, hhmm.' },
  { name: 'ArrDelayMinutes', sqlType: 'REAL', description: 'Arrival delay in minutes, early arrivals as 0.' },
  { name: 'AirTime', sqlType: 'REAL', description: 'Minutes in the air.' },
  { name: 'Distance', sqlType: 'REAL', description: 'Distance between the airports in miles.' },
  { name: 'DayOfWeek', sqlType: 'INTEGER', description: 'Day of week, 1 = Monday to 7 = Sunday.' },
  { name: 'IATA_Code_Marketing_Airline', sqlType: 'TEXT', description: 'Marketing carrier IATA code.' },
  { name: 'Flight_Number_Marketing_Airline', sqlType: 'INTEGER', description: 'Marketing flight number.' },
  { name: 'Flight_Number_Operating_Airline', sqlType: 'INTEGER', description: 'Operating flight number.' },
  { name: 'TaxiIn', sqlType: 'REAL', description: 'Taxi-in time in minutes.' },
  { name: 'CRSArrTime', sqlType: 'INTEGER', description: 'Scheduled local arrival time, hhmm.' },
  { name: 'ArrDelay', sqlType: 'REAL', description: 'Arrival delay in minutes (negative = early).' },
  { name: 'DivAirportLandings', sqlType: 'INTEGER', description: 'Number of diversion airport landings.' },
];

/** First and last day of the period, as UTC day numbers. */
const FIRST_DAY = dayNumber(2022, 1, 1);
const DAYS = dayNumber(2022, 7, 31) - FIRST_DAY + 1; // 212
/** DST started on 2022-03-13 (day index 71). */
const DST_START = dayNumber(2022, 3, 13) - FIRST_DAY;
/** Flight-days (one leg flown on one date) per unit of scale, before random day-to-day gaps. */
const LEG_DAYS_PER_SCALE = 57_000;
const DAY_SKIP = 0.012;

/** Route-choice weight of an airport by size tier (index = tier). */
const SIZE_WEIGHT = [0, 1, 2.2, 4, 6.5, 10] as const;
/** Longest stage to a tier-1 field (small aircraft, short hops). */
const SMALL_FIELD_MAX_MILES = 800;
/** A carrier needs at least this many flight-days of share to be in the network (about one round trip). */
const MIN_CARRIER_LEG_DAYS = 150;
/** Target share of flight-days with Distance > 500. */
const LONG_STAGE_SHARE = 0.62;

interface Leg {
  origin: number;
  dest: number;
  miles: number;
  /** Scheduled local departure, minutes after midnight (before the month's retiming). */
  dep: number;
  /** Scheduled gate-to-gate minutes. */
  block: number;
  air: number;
  taxiOut: number;
  taxiIn: number;
}

interface Itinerary {
  airline: number;
  code: string;
  number: number;
  opNumber: number;
  legs: Leg[];
  /** Bit (dow − 1) set when it flies on that ISO weekday. */
  weekdays: number;
  firstDay: number;
  lastDay: number;
  /** Minutes added to every scheduled departure, per month (Jan … Jul). */
  retime: number[];
}

export function generateFlights(rng: Rng, scale: number): Table {
  if (!(scale > 0)) throw new RangeError(`generateFlights: scale must be positive, got ${scale}`);
  const airports = US_AIRPORTS;
  const itineraries = buildSchedule(rng.fork('schedule'), scale);
  return flySchedule(rng.fork('operations'), airports, itineraries);
}

// ---------------------------------------------------------------------------------------------------------
// Schedule

function buildSchedule(rng: Rng, scale: number): Itinerary[] {
  const byCode = new Map(US_AIRPORTS.map((a, i) => [a.code, i]));
  const totalShare = AIRLINES.reduce((s, a) => s + a.share, 0);
  const usedNumbers = new Map<string, Set<number>>();
  // How often each airport has been chosen as a spoke: repeated picks get less likely, which spreads service
  // over many small airports the way essential-air-service routes do.
  const spokeUse = new Uint16Array(US_AIRPORTS.length);
  const itineraries: Itinerary[] = [];
  const mix = { long: 0, total: 0 };

  const target = LEG_DAYS_PER_SCALE * scale;
  const legDays = new Float64Array(AIRLINES.length);
  let total = 0;
  for (let guard = 0; total < target && guard < 100_000; guard++) {
    // The carrier furthest below its share (relatively) flies the next itinerary, so every scale keeps the
    // carrier mix and the total stays within one itinerary pair of the target. Carriers whose share is less
    // than about one daily round trip are left out (they appear from scale ≈ 0.6 up).
    let airlineIndex = -1;
    let deficit = Number.NEGATIVE_INFINITY;
    AIRLINES.forEach((a, i) => {
      const share = (target * a.share) / totalShare;
      if (share < MIN_CARRIER_LEG_DAYS) return;
      const d = 1 - (legDays[i] as number) / share;
      if (d > deficit) {
        deficit = d;
        airlineIndex = i;
      }
    });
    if (airlineIndex < 0) break;
    const airline = AIRLINES[airlineIndex] as AirlineProfile;
    const brand = rng.weighted(
      airline.brands,
      airline.brands.map((b) => b.weight),
    );
    // Steer the network's stage-length mix towards the real one (≈62% of flights over 500 miles, spec §2.1):
    // with only a few hundred itineraries, unsteered draws wander several points either way.
    const longShare = mix.total === 0 ? LONG_STAGE_SHARE : mix.long / mix.total;
    const shortBias =
      longShare > LONG_STAGE_SHARE + 0.005 ? 3 : longShare < LONG_STAGE_SHARE - 0.005 ? 0.33 : 1;
    const built = buildItineraryPair(
      rng,
      airline,
      airlineIndex,
      brand,
      byCode,
      usedNumbers,
      spokeUse,
      shortBias,
    );
    if (built.length === 0) legDays[airlineIndex] = (legDays[airlineIndex] as number) + 100;
    for (const it of built) {
      itineraries.push(it);
      const days = it.legs.length * operatingDays(it);
      legDays[airlineIndex] = (legDays[airlineIndex] as number) + days;
      total += days;
      mix.total += days;
      mix.long += (it.legs.filter((l) => l.miles > 500).length / it.legs.length) * days;
    }
  }
  // File order within a day groups flights by carrier.
  itineraries.sort((a, b) => a.airline - b.airline);
  return itineraries;
}

/** An outbound itinerary from a base and the matching return (two itineraries, different numbers). */
function buildItineraryPair(
  rng: Rng,
  airline: AirlineProfile,
  airlineIndex: number,
  brand: AirlineBrand,
  byCode: ReadonlyMap<string, number>,
  usedNumbers: Map<string, Set<number>>,
  spokeUse: Uint16Array,
  shortBias: number,
): Itinerary[] {
  const baseCodes = Object.keys(brand.bases);
  const baseCode = rng.weighted(
    baseCodes,
    baseCodes.map((c) => brand.bases[c] as number),
  );
  const base = byCode.get(baseCode);
  if (base === undefined) throw new Error(`unknown base airport ${baseCode}`);

  const stops = [base];
  const stopCount = rng.chance(airline.throughFlights) ? rng.int(2, 4) : 1;
  for (let i = 0; i < stopCount; i++) {
    const next = pickSpoke(
      rng,
      airline,
      stops[stops.length - 1] as number,
      stops,
      byCode,
      spokeUse,
      shortBias,
    );
    if (next === undefined) break;
    stops.push(next);
  }
  if (stops.length < 2) return [];

  const weekdays = pickWeekdays(rng, airline);
  const [firstDay, lastDay] = pickSeason(rng);
  const outDep = pickDeparture(rng, US_AIRPORTS[base] as Airport, US_AIRPORTS[stops[1] as number] as Airport);
  const out = makeItinerary(
    rng,
    airlineIndex,
    brand,
    usedNumbers,
    stops,
    outDep,
    weekdays,
    firstDay,
    lastDay,
  );
  const outArrival = lastArrival(out);

  const back = stops.slice().reverse();
  // The aircraft turns around for the return when it can; otherwise it overnights and returns next morning.
  let backDep = outArrival + rng.int(35, 75);
  if (backDep > 22 * 60 + 30 || outArrival < outDep) backDep = rng.int(5 * 60 + 30, 8 * 60);
  const ret = makeItinerary(
    rng,
    airlineIndex,
    brand,
    usedNumbers,
    back,
    backDep,
    weekdays,
    firstDay,
    lastDay,
  );
  return [out, ret];
}

function pickSpoke(
  rng: Rng,
  airline: AirlineProfile,
  from: number,
  visited: readonly number[],
  byCode: ReadonlyMap<string, number>,
  spokeUse: Uint16Array,
  shortBias: number,
): number | undefined {
  const origin = US_AIRPORTS[from] as Airport;
  const candidates: number[] = [];
  const weights: number[] = [];
  const allowed = airline.only ? new Set(airline.only.map((c) => byCode.get(c))) : undefined;
  for (let i = 0; i < US_AIRPORTS.length; i++) {
    if (visited.includes(i)) continue;
    if (allowed && !allowed.has(i)) continue;
    const a = US_AIRPORTS[i] as Airport;
    if (a.size < (airline.spokeSizes[0] as number) || a.size > (airline.spokeSizes[1] as number)) continue;
    const remote = a.zone === 'HI' || a.zone === 'AK' || a.zone === 'AST';
    if (remote && !airline.remote.includes(a.zone)) continue;
    const miles = greatCircleMiles(origin, a);
    if (miles < (airline.distance[0] as number) || miles > (airline.distance[1] as number)) continue;
    if (a.size === 1 && miles > SMALL_FIELD_MAX_MILES) continue;
    let w = SIZE_WEIGHT[a.size] as number;
    // Demand falls off with distance; some carriers still prefer long stages (shortStage < 1).
    w /= (1 + (miles / 1200) ** 2) * (1 + (spokeUse[i] as number));
    if (miles < 500) w *= airline.shortStage * shortBias;
    candidates.push(i);
    weights.push(w);
  }
  if (candidates.length === 0) return undefined;
  const chosen = rng.weighted(candidates, weights);
  spokeUse[chosen] = (spokeUse[chosen] as number) + 1;
  return chosen;
}

function pickWeekdays(rng: Rng, airline: AirlineProfile): number {
  if (!rng.chance(airline.partialWeek)) return 0b1111111;
  const r = rng.next();
  if (airline.partialWeek >= 1 || r < 0.35) {
    // Leisure pattern: a few days a week, always including a Thursday/Friday or Sunday peak day.
    const days = new Set<number>([rng.pick([4, 5, 7])]);
    const want = rng.int(2, 4);
    while (days.size < want) days.add(rng.int(1, 7));
    let mask = 0;
    for (const d of days) mask |= 1 << (d - 1);
    return mask;
  }
  if (r < 0.75) return 0b1011111; // no Saturday
  return 0b1011101; // no Tuesday, no Saturday
}

function pickSeason(rng: Rng): [number, number] {
  const r = rng.next();
  if (r < 0.06) return [rng.int(20, 150), DAYS - 1]; // new route
  if (r < 0.12) return [0, rng.int(60, 190)]; // route dropped (or winter-seasonal)
  return [0, DAYS - 1];
}

/** Scheduled departure from `origin`: banks through the day, red-eyes on long eastbound stages. */
function pickDeparture(rng: Rng, origin: Airport, dest: Airport): number {
  const miles = greatCircleMiles(origin, dest);
  const westOrigin = origin.zone === 'PT' || origin.zone === 'HI' || origin.zone === 'AK';
  if (westOrigin && miles > 1700 && dest.lon > origin.lon + 20 && rng.chance(0.3))
    return rng.int(21 * 60, 23 * 60 + 50);
  const r = rng.next();
  let m: number;
  if (r < 0.42) m = rng.int(5 * 60 + 30, 10 * 60);
  else if (r < 0.77) m = rng.int(10 * 60, 17 * 60);
  else m = rng.int(17 * 60, 22 * 60);
  return rng.chance(0.6) ? Math.round(m / 5) * 5 : m;
}

function makeItinerary(
  rng: Rng,
  airlineIndex: number,
  brand: AirlineBrand,
  usedNumbers: Map<string, Set<number>>,
  stops: readonly number[],
  firstDep: number,
  weekdays: number,
  firstDay: number,
  lastDay: number,
): Itinerary {
  // `stops` has at least two airports, so the first leg is always scheduled.
  const legs: Leg[] = [];
  let dep = firstDep;
  for (let i = 0; i + 1 < stops.length; i++) {
    const o = US_AIRPORTS[stops[i] as number] as Airport;
    const d = US_AIRPORTS[stops[i + 1] as number] as Airport;
    const leg = scheduleLeg(rng, stops[i] as number, stops[i + 1] as number, o, d, dep);
    legs.push(leg);
    const arrival = dep + leg.block + 60 * (standardOffset(d) - standardOffset(o));
    dep = arrival + rng.int(35, 60);
    // A through flight ends when the next leg would leave after 22:30 local.
    if (dep > 22 * 60 + 30) break;
  }
  const number = allocateNumber(rng, brand, usedNumbers);
  const retime = Array.from({ length: 7 }, () => (rng.chance(0.25) ? rng.int(-6, 6) * 5 : 0));
  return {
    airline: airlineIndex,
    code: brand.code,
    number,
    opNumber: rng.chance(0.01) ? rng.int(1000, 9999) : number,
    legs,
    weekdays,
    firstDay,
    lastDay,
    retime,
  };
}

function scheduleLeg(rng: Rng, origin: number, dest: number, o: Airport, d: Airport, dep: number): Leg {
  const miles = Math.round(greatCircleMiles(o, d));
  // Cruise speed grows with stage length; westbound stages fight the jet stream.
  const eastbound = d.lon > o.lon;
  const still = 12 + miles / (6 + 2.2 * Math.min(1, miles / 1200));
  const air = Math.max(15, Math.round(still * (miles > 300 ? (eastbound ? 0.95 : 1.05) : 1)));
  const taxiOut = 8 + 2 * o.size;
  const taxiIn = 3 + d.size;
  const padding = Math.round(air * 0.02) + rng.int(0, 8);
  const block = Math.round((taxiOut + air + taxiIn + padding) / 5) * 5;
  return { origin, dest, miles, dep, block, air, taxiOut, taxiIn };
}

function allocateNumber(rng: Rng, brand: AirlineBrand, used: Map<string, Set<number>>): number {
  let set = used.get(brand.code);
  if (!set) {
    set = new Set();
    used.set(brand.code, set);
  }
  const [lo, hi] = brand.numbers;
  for (let tries = 0; tries < 50; tries++) {
    const n = rng.int(lo, hi);
    if (!set.has(n)) {
      set.add(n);
      return n;
    }
  }
  for (let n = lo; n <= hi; n++) {
    if (!set.has(n)) {
      set.add(n);
      return n;
    }
  }
  throw new Error(`flight numbers of ${brand.code} ${lo}-${hi} exhausted`);
}

function standardOffset(a: Airport): number {
  return ZONE_OFFSET[a.zone].standard;
}

function offsetOn(a: Airport, dayIndex: number): number {
  const z = ZONE_OFFSET[a.zone];
  return z.standard + (z.dst && dayIndex >= DST_START ? 1 : 0);
}

function lastArrival(it: Itinerary): number {
  const leg = it.legs[it.legs.length - 1] as Leg;
  const o = US_AIRPORTS[leg.origin] as Airport;
  const d = US_AIRPORTS[leg.dest] as Airport;
  return leg.dep + leg.block + 60 * (standardOffset(d) - standardOffset(o));
}

function operatingDays(it: Itinerary): number {
  let n = 0;
  for (let day = it.firstDay; day <= it.lastDay; day++) {
    if (it.weekdays & (1 << (isoWeekday(FIRST_DAY + day) - 1))) n++;
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Daily operations

/** Per-month rate of weather events (Jan … Jul): winter storms, quiet spring, summer thunderstorms. */
const WEATHER_EVENTS_PER_DAY = [1.6, 1.4, 0.9, 0.9, 0.8, 1.3, 1.5] as const;

function flySchedule(rng: Rng, airports: readonly Airport[], itineraries: readonly Itinerary[]): Table {
  const expectedRows = Math.ceil(
    itineraries.reduce((s, it) => s + it.legs.length * operatingDays(it), 0) * 1.01,
  );
  const builder = new TableBuilder('flights', FLIGHT_COLUMNS, expectedRows);
  const hhmmInt = Array.from({ length: 1440 }, (_, m) => String(m === 0 ? 2359 : hhmm(m)));
  const hhmmFloat = Array.from({ length: 1440 }, (_, m) => intFloatCell(m === 0 ? 2400 : hhmm(m)));
  const numberCells = new Map<number, string>();
  const numCell = (n: number): string => {
    let s = numberCells.get(n);
    if (s === undefined) {
      s = String(n);
      numberCells.set(n, s);
    }
    return s;
  };
  const airlineNames = AIRLINES.map((a) => a.name);
  const severity = new Float64Array(airports.length);
  const row: string[] = new Array(FLIGHT_COLUMNS.length).fill('');

  for (let day = 0; day < DAYS; day++) {
    const date = isoDateOfDay(FIRST_DAY + day);
    const dow = isoWeekday(FIRST_DAY + day);
    const dowCell = String(dow);
    const month = new Date((FIRST_DAY + day) * 86_400_000).getUTCMonth();
    const { stress, cancelBase } = dayConditions(rng, day, month, airports, severity);

    for (const it of itineraries) {
      if (day < it.firstDay || day > it.lastDay || !(it.weekdays & (1 << (dow - 1)))) continue;
      if (rng.chance(DAY_SKIP)) continue;
      const retime = it.retime[month] as number;
      let previousCancelled = false;
      let carriedDelay = 0;
      for (const leg of it.legs) {
        const o = airports[leg.origin] as Airport;
        const d = airports[leg.dest] as Airport;
        const crsDep = clampMinute(leg.dep + retime);
        const crsArr = wrapMinute(crsDep + leg.block + 60 * (offsetOn(d, day) - offsetOn(o, day)));
        const sevO = severity[leg.origin] as number;
        const sevD = severity[leg.dest] as number;
        const load = Math.min(1, stress + 0.9 * sevO + 0.35 * sevD);
        const pCancel = cancelBase + 0.5 * sevO * sevO + 0.3 * sevD * sevD + (previousCancelled ? 0.55 : 0);
        const cancelled = rng.chance(pCancel);
        const diverted = !cancelled && rng.chance(0.0015 + 0.02 * sevD);

        row[0] = date;
        row[1] = airlineNames[it.airline] as string;
        row[2] = o.code;
        row[3] = d.code;
        row[4] = boolCell(cancelled);
        row[5] = boolCell(diverted);
        row[6] = hhmmInt[crsDep] as string;
        row[13] = intFloatCell(leg.miles);
        row[14] = dowCell;
        row[15] = it.code;
        row[16] = numCell(it.number);
        row[17] = numCell(it.opNumber);
        row[19] = hhmmInt[crsArr] as string;

        if (cancelled) {
          for (const c of [7, 8, 9, 10, 11, 12, 18, 20]) row[c] = NAN;
          row[21] = '0';
          previousCancelled = true;
          builder.add(row);
          continue;
        }
        previousCancelled = false;
        const depDelay = Math.max(departureDelay(rng, load), carriedDelay - 25);
        row[7] = hhmmFloat[wrapMinute(crsDep + depDelay)] as string;
        row[8] = intFloatCell(Math.max(0, depDelay));
        row[9] = intFloatCell(depDelay);
        if (diverted) {
          for (const c of [10, 11, 12, 18, 20]) row[c] = NAN;
          row[21] = rng.chance(0.1) ? '2' : '1';
          carriedDelay = 0;
          builder.add(row);
          continue;
        }
        const taxiOut = Math.max(
          3,
          Math.round(leg.taxiOut * Math.exp(rng.normal(0, 0.3)) + 10 * load * rng.next()),
        );
        const air = Math.max(8, Math.round(leg.air * (1 + rng.normal(0, 0.035))));
        const taxiIn = taxiInMinutes(rng, leg.taxiIn, load);
        const arrDelay = depDelay + taxiOut + air + taxiIn - leg.block;
        row[10] = hhmmFloat[wrapMinute(crsArr + arrDelay)] as string;
        row[11] = intFloatCell(Math.max(0, arrDelay));
        row[12] = intFloatCell(air);
        row[18] = intFloatCell(taxiIn);
        row[20] = intFloatCell(arrDelay);
        row[21] = '0';
        carriedDelay = arrDelay;
        builder.add(row);
      }
    }
  }
  return builder.build();
}

/**
 * Draws the day's weather (events around random airports, stronger near the centre) into `severity`, and
 * returns the network-wide stress and cancellation base (early January 2022 had mass crew shortages).
 */
function dayConditions(
  rng: Rng,
  day: number,
  month: number,
  airports: readonly Airport[],
  severity: Float64Array,
): { stress: number; cancelBase: number } {
  severity.fill(0);
  const rate = WEATHER_EVENTS_PER_DAY[month] as number;
  let events = 0;
  // Poisson draw by inversion (rate is small).
  for (let p = Math.exp(-rate), s = p, u = rng.next(); u > s; events++) {
    p *= rate / (events + 1);
    s += p;
  }
  for (let e = 0; e < events; e++) {
    const centre = airports[rng.int(0, airports.length - 1)] as Airport;
    const radius = rng.float(60, 450);
    const peak = 0.25 + 0.75 * rng.next() ** 1.5;
    for (let i = 0; i < airports.length; i++) {
      const dist = greatCircleMiles(centre, airports[i] as Airport);
      if (dist < radius) severity[i] = Math.max(severity[i] as number, peak * (1 - dist / radius));
    }
  }
  const crewCrisis = day < 16 ? (16 - day) / 16 : 0;
  return {
    stress: 0.08 + 0.12 * rng.next() + 0.3 * crewCrisis,
    cancelBase: 0.016 + 0.01 * rng.next() + 0.07 * crewCrisis,
  };
}

/** Minutes late (negative = early): most flights push back a few minutes early, a skewed tail is late. */
function departureDelay(rng: Rng, load: number): number {
  if (rng.chance(0.2 + 0.4 * load)) {
    let late = 1 + Math.round(rng.exponential(16 + 55 * load));
    if (rng.chance(0.05)) late += Math.round(rng.exponential(140));
    return Math.min(late, 1500);
  }
  return Math.max(-40, Math.min(0, Math.round(rng.normal(-3.6, 3.6))));
}

function taxiInMinutes(rng: Rng, typical: number, load: number): number {
  if (rng.chance(0.001 + 0.004 * load)) return rng.int(30, 200);
  return Math.max(1, Math.round(typical * Math.exp(rng.normal(0, 0.4))));
}

function hhmm(minute: number): number {
  return Math.floor(minute / 60) * 100 + (minute % 60);
}

function wrapMinute(m: number): number {
  return ((m % 1440) + 1440) % 1440;
}

function clampMinute(m: number): number {
  return Math.min(1435, Math.max(5, m));
}
