import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { FLIGHT_COLUMNS, generateFlights } from '../../../core/world/corpora/flights.ts';
import { TableBuilder } from '../../../core/world/table.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import {
  FLIGHTS_TEMPLATES,
  floatAnswer,
  getValueTokens,
  hhmmToClock,
  OBSERVATION_TOKEN_LIMIT,
  splitFlight,
} from '../../../core/world/tasks/templates/flights.ts';
import {
  type Gold,
  patternSlots,
  renderQuestion,
  type Slots,
  type TaskTemplate,
} from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';

function worldWith(flights: World['tables']['flights'], seed = 'test'): World {
  return { config: { seed, scale: 1 }, tables: { flights } } as unknown as World;
}

function template(label: string): TaskTemplate {
  const t = FLIGHTS_TEMPLATES.find((x) => x.label === label);
  if (!t) throw new Error(`no template ${label}`);
  return t;
}

/** The regex an agent simulator derives from a pattern: literal text, slots as lazy groups. */
function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

// ---------------------------------------------------------------------------------------------------------
// Hand-built tables for the gold rules.

type Row = Partial<Record<string, string>>;

const BASE: Record<string, string> = {
  FlightDate: '2022-03-01',
  Airline: 'Delta Air Lines Inc.',
  Origin: 'ATL',
  Dest: 'BOS',
  Cancelled: 'False',
  Diverted: 'False',
  CRSDepTime: '1425',
  DepTime: '1452.0',
  DepDelayMinutes: '27.0',
  DepDelay: '27.0',
  ArrTime: '1716.0',
  ArrDelayMinutes: '16.0',
  AirTime: '120.0',
  Distance: '946.0',
  DayOfWeek: '2',
  IATA_Code_Marketing_Airline: 'DL',
  Flight_Number_Marketing_Airline: '1180',
  Flight_Number_Operating_Airline: '1180',
  TaxiIn: '7.0',
  CRSArrTime: '1700',
  ArrDelay: '16.0',
  DivAirportLandings: '0',
};

function tinyWorld(rows: Row[]): World {
  const b = new TableBuilder('flights', FLIGHT_COLUMNS, rows.length);
  for (const r of rows) b.add(FLIGHT_COLUMNS.map((c) => r[c.name] ?? (BASE[c.name] as string)));
  return worldWith(b.build());
}

/** Every distinct outcome of many draws on a tiny world (null = the draw is rejected). */
function outcomes(label: string, world: World, draws = 60): { slots: Slots; gold: Gold }[] {
  const rng = new Rng(`tiny/${label}`);
  const seen = new Map<string, { slots: Slots; gold: Gold }>();
  for (let i = 0; i < draws; i++) {
    const s = template(label).sample({ rng, world });
    if (s) seen.set(JSON.stringify(s), s);
  }
  return [...seen.values()];
}

function onlyGold(label: string, rows: Row[]): Gold | null {
  const all = outcomes(label, tinyWorld(rows));
  if (all.length === 0) return null;
  expect(all).toHaveLength(1);
  return (all[0] as { gold: Gold }).gold;
}

describe('flights template helpers', () => {
  it('renders hhmm as H:MM the way the spec does', () => {
    expect(hhmmToClock('2143.0')).toBe('21:43');
    expect(hhmmToClock('751.0')).toBe('7:51');
    expect(hhmmToClock('2400.0')).toBe('24:00');
    expect(hhmmToClock('1206')).toBe('12:06');
    expect(hhmmToClock('1000')).toBe('10:00');
  });

  it('writes float answers as Python str(), with zero as 0', () => {
    expect(floatAnswer(15)).toBe('15.0');
    expect(floatAnswer(-10)).toBe('-10.0');
    expect(floatAnswer(0)).toBe('0');
    expect(floatAnswer(2.5)).toBe('2.5');
  });

  it('splits flight designators with digit-bearing carrier codes', () => {
    expect(splitFlight('B61168')).toEqual({ carrier: 'B6', number: '1168' });
    expect(splitFlight('G42595')).toEqual({ carrier: 'G4', number: '2595' });
    expect(splitFlight('UA5839')).toEqual({ carrier: 'UA', number: '5839' });
    expect(() => splitFlight('UA')).toThrow();
  });

  it('counts GetValue tokens as one per column name and one per cell', () => {
    expect(getValueTokens(209, 1)).toBe(210);
    expect(getValueTokens(31, 3)).toBe(96);
    expect(getValueTokens(1023, 1)).toBe(OBSERVATION_TOKEN_LIMIT);
  });

  it('has 20 templates in spec label order with distinct ids and question patterns', () => {
    expect(FLIGHTS_TEMPLATES.map((t) => t.label)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `E${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `H${i + 11}`),
    ]);
    expect(FLIGHTS_TEMPLATES.slice(0, 10).every((t) => t.difficulty === 'easy')).toBe(true);
    expect(FLIGHTS_TEMPLATES.slice(10).every((t) => t.difficulty === 'hard')).toBe(true);
    expect(new Set(FLIGHTS_TEMPLATES.map((t) => t.id)).size).toBe(20);
    expect(new Set(FLIGHTS_TEMPLATES.map((t) => t.question)).size).toBe(20);
    for (const t of FLIGHTS_TEMPLATES) expect(t.id).toBe(`flights-${t.difficulty}-${t.label}`);
  });
});

describe('flights gold rules', () => {
  it('E1/E7/E8: clock answers, skipping missing times and times before 01:00', () => {
    expect(onlyGold('E1', [{ DepTime: '2143.0' }])).toBe('21:43');
    expect(onlyGold('E1', [{ DepTime: '751.0' }])).toBe('7:51');
    expect(onlyGold('E1', [{ DepTime: '2400.0' }])).toBe('24:00');
    expect(onlyGold('E1', [{ DepTime: '26.0' }])).toBeNull();
    expect(onlyGold('E1', [{ DepTime: 'nan', Cancelled: 'True' }])).toBeNull();
    expect(onlyGold('E7', [{ ArrTime: '552.0' }])).toBe('5:52');
    expect(onlyGold('E7', [{ ArrTime: 'nan', Diverted: 'True' }])).toBeNull();
    expect(onlyGold('E8', [{ CRSArrTime: '2359' }])).toBe('23:59');
    expect(onlyGold('E8', [{ CRSArrTime: '45' }])).toBeNull();
  });

  it('E2: Yes for a cancelled flight, No otherwise, and draws cancelled flights often', () => {
    expect(onlyGold('E2', [{ Cancelled: 'True' }])).toBe('Yes');
    expect(onlyGold('E2', [{ Cancelled: 'False' }])).toBe('No');
    const rows: Row[] = Array.from({ length: 100 }, (_, i) => ({
      Flight_Number_Marketing_Airline: String(1000 + i),
      Cancelled: i === 0 ? 'True' : 'False',
    }));
    const world = tinyWorld(rows);
    const rng = new Rng('e2-balance');
    let yes = 0;
    for (let i = 0; i < 400; i++) if (template('E2').sample({ rng, world })?.gold === 'Yes') yes++;
    expect(yes).toBeGreaterThan(150);
    expect(yes).toBeLessThan(250);
  });

  it('E3: distinct flight numbers in row order; airline names with ", " are never asked', () => {
    const rows: Row[] = [
      { Flight_Number_Marketing_Airline: '2873' },
      { Flight_Number_Marketing_Airline: '1176' },
      { Flight_Number_Marketing_Airline: '2873', IATA_Code_Marketing_Airline: 'AA' },
    ];
    const all = outcomes('E3', tinyWorld(rows));
    expect(all).toHaveLength(1);
    expect(all[0]?.gold).toBe('2873, 1176');
    expect(all[0]?.slots).toEqual({
      airline: 'Delta Air Lines Inc.',
      origin: 'ATL',
      dest: 'BOS',
      date: '2022-03-01',
    });
    expect(onlyGold('E3', [{ Airline: 'GoJet Airlines, LLC d/b/a United Express' }])).toBeNull();
  });

  it('E4: |DepTime − CRSDepTime| on hhmm numbers, only when it equals the real minutes', () => {
    expect(onlyGold('E4', [{ CRSDepTime: '1425', DepTime: '1452.0', DepDelay: '27.0' }])).toBe('27');
    expect(onlyGold('E4', [{ CRSDepTime: '1425', DepTime: '1420.0', DepDelay: '-5.0' }])).toBe('5');
    // 1155 → 1200 is 5 minutes, but the hhmm numbers differ by 45.
    expect(onlyGold('E4', [{ CRSDepTime: '1155', DepTime: '1200.0', DepDelay: '5.0' }])).toBeNull();
    expect(onlyGold('E4', [{ CRSDepTime: '1425', DepTime: '1425.0', DepDelay: '0.0' }])).toBeNull();
    expect(onlyGold('E4', [{ DepTime: 'nan', DepDelay: 'nan', Cancelled: 'True' }])).toBeNull();
  });

  it('E5: ArrDelayMinutes as a float string, 0 for on time, and only for a (date, flight) with one row', () => {
    expect(onlyGold('E5', [{ ArrDelayMinutes: '15.0' }])).toBe('15.0');
    expect(onlyGold('E5', [{ ArrDelayMinutes: '0.0' }])).toBe('0');
    expect(onlyGold('E5', [{ ArrDelayMinutes: 'nan' }])).toBeNull();
    // A through flight: two legs of the same flight on the same day.
    const legs: Row[] = [
      { Origin: 'ATL', Dest: 'BOS' },
      { Origin: 'BOS', Dest: 'PWM' },
    ];
    expect(onlyGold('E5', legs)).toBeNull();
    expect(onlyGold('E10', legs)).toBeNull();
    // The same legs on different days are fine.
    const days = outcomes(
      'E5',
      tinyWorld([legs[0] as Row, { ...legs[1], FlightDate: '2022-03-02', ArrDelayMinutes: '3.0' }]),
    );
    expect(days.map((o) => o.gold).sort()).toEqual(['16.0', '3.0']);
    expect(days.map((o) => o.slots)).toContainEqual({ flight: 'DL1180', date: '2022-03-02' });
  });

  it('E6: ArrDelay − DepDelay as a float string', () => {
    expect(onlyGold('E6', [{ ArrDelay: '-15.0', DepDelay: '-5.0' }])).toBe('-10.0');
    expect(onlyGold('E6', [{ ArrDelay: '26.0', DepDelay: '13.0' }])).toBe('13.0');
    expect(onlyGold('E6', [{ ArrDelay: '7.0', DepDelay: '7.0' }])).toBe('0');
    expect(onlyGold('E6', [{ ArrDelay: 'nan', Diverted: 'True' }])).toBeNull();
  });

  it('E9/E10: integer parts of AirTime and TaxiIn', () => {
    expect(onlyGold('E9', [{ AirTime: '142.0' }])).toBe('142');
    expect(onlyGold('E9', [{ AirTime: 'nan' }])).toBeNull();
    expect(onlyGold('E10', [{ TaxiIn: '3.0' }])).toBe('3');
    expect(onlyGold('E10', [{ TaxiIn: '0.0' }])).toBeNull();
  });

  it('H11: the cancelled share of an origin-day, one decimal', () => {
    const day: Row[] = [
      { Cancelled: 'True', Flight_Number_Marketing_Airline: '1' },
      { Flight_Number_Marketing_Airline: '2' },
      { Flight_Number_Marketing_Airline: '3', Dest: 'LGA' },
      { Origin: 'BOS', Dest: 'ATL', Flight_Number_Marketing_Airline: '4' },
      { Flight_Number_Marketing_Airline: '5', FlightDate: '2022-03-02' },
    ];
    expect(onlyGold('H11', day)).toBe('33.3%');
    expect(onlyGold('H11', [{ Cancelled: 'True' }])).toBeNull();
  });

  it('H12: mean DepDelayMinutes of an origin-day; days with a cancellation are not asked', () => {
    const day: Row[] = [
      { DepDelayMinutes: '0.0', Flight_Number_Marketing_Airline: '1' },
      { DepDelayMinutes: '10.0', Flight_Number_Marketing_Airline: '2' },
      { DepDelayMinutes: '5.0', Flight_Number_Marketing_Airline: '3' },
      { DepDelayMinutes: '1.0', Flight_Number_Marketing_Airline: '4' },
    ];
    expect(onlyGold('H12', day)).toBe('4.0');
    expect(
      onlyGold('H12', [
        ...day,
        { Cancelled: 'True', DepDelayMinutes: 'nan', Flight_Number_Marketing_Airline: '5' },
      ]),
    ).toBeNull();
  });

  it('H13: diverted count of a day; days without diversions are not asked', () => {
    expect(
      onlyGold('H13', [{ Diverted: 'True' }, { Diverted: 'True', Flight_Number_Marketing_Airline: '9' }, {}]),
    ).toBe('2');
    expect(onlyGold('H13', [{}])).toBeNull();
  });

  it('H14: counts Distance > 500 numerically (the EVO fix), not > 300', () => {
    const rows = ['400.0', '501.0', '300.0', '500.0', '1200.0', '95.0'].map((d, i) => ({
      Distance: d,
      Flight_Number_Marketing_Airline: String(i + 1),
    }));
    expect(onlyGold('H14', rows)).toBe('2');
  });

  it('H15/H17: mean non-missing AirTime with one decimal and " minutes"', () => {
    const rows: Row[] = [
      { AirTime: '100.0' },
      { AirTime: 'nan', Cancelled: 'True', FlightDate: '2022-03-02' },
      { AirTime: '103.0', FlightDate: '2022-03-03' },
      { AirTime: '104.0', FlightDate: '2022-03-04' },
    ];
    expect(onlyGold('H15', rows)).toBe('102.3 minutes');
    expect(onlyGold('H17', rows)).toBe('102.3 minutes');
    expect(
      onlyGold(
        'H15',
        rows.map((r) => ({ ...r, Airline: 'Commutair Aka Champlain Enterprises, Inc.' })),
      ),
    ).toBeNull();
  });

  it('H16: distinct flight numbers as an int; numbers shared between carriers are not asked', () => {
    const rows: Row[] = [
      { Flight_Number_Marketing_Airline: '10' },
      { Flight_Number_Marketing_Airline: '20' },
      { Flight_Number_Marketing_Airline: '10', FlightDate: '2022-03-02' },
    ];
    expect(onlyGold('H16', rows)).toEqual({ type: 'int', value: 2 });
    expect(
      onlyGold('H16', [
        ...rows,
        { Flight_Number_Marketing_Airline: '20', IATA_Code_Marketing_Airline: 'AA' },
      ]),
    ).toBeNull();
  });

  it('H18: the first flight with the shortest air time on a weekday; ties between flights are not asked', () => {
    const rows: Row[] = [
      { AirTime: '130.0', Flight_Number_Marketing_Airline: '1', DayOfWeek: '6' },
      {
        AirTime: '118.0',
        Flight_Number_Marketing_Airline: '2',
        DayOfWeek: '6',
        IATA_Code_Marketing_Airline: 'B6',
      },
      { AirTime: 'nan', Flight_Number_Marketing_Airline: '3', DayOfWeek: '6', Cancelled: 'True' },
      {
        AirTime: '118.0',
        Flight_Number_Marketing_Airline: '2',
        DayOfWeek: '6',
        IATA_Code_Marketing_Airline: 'B6',
      },
    ];
    const all = outcomes('H18', tinyWorld(rows));
    expect(all).toEqual([{ slots: { origin: 'ATL', dest: 'BOS', weekday: 'Saturday' }, gold: 'B62' }]);
    expect(
      onlyGold('H18', [...rows, { AirTime: '118.0', Flight_Number_Marketing_Airline: '4', DayOfWeek: '6' }]),
    ).toBeNull();
  });

  it('H19: mean of Distance / AirTime over rows with an air time', () => {
    const rows: Row[] = [
      { AirTime: '150.0', Distance: '946.0' },
      { AirTime: '160.0', Distance: '946.0', FlightDate: '2022-03-02' },
      { AirTime: 'nan', Distance: '946.0', FlightDate: '2022-03-03', Diverted: 'True' },
    ];
    // (946/150 + 946/160) / 2 = 6.1097…
    expect(onlyGold('H19', rows)).toBe('6.1');
  });

  it('H20: rows of the operating airline on the day; airline names with ", " are never drawn', () => {
    const rows: Row[] = [
      { Flight_Number_Marketing_Airline: '1' },
      { Flight_Number_Marketing_Airline: '2' },
      { Flight_Number_Marketing_Airline: '3', Airline: 'GoJet Airlines, LLC d/b/a United Express' },
    ];
    const all = outcomes('H20', tinyWorld(rows));
    expect(all).toEqual([{ slots: { airline: 'Delta Air Lines Inc.', date: '2022-03-01' }, gold: '2' }]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated corpora: distinct questions, sampling determinism and reference plans.

const SEEDS = ['1', '2'];
const worlds = new Map<string, World>();

beforeAll(() => {
  for (const seed of SEEDS)
    worlds.set(seed, worldWith(generateFlights(new Rng(seed).fork('flights'), 1), seed));
});

/** Distinct questions from a template's seeded stream (the draw budget of generate.ts). */
function distinctDraws(
  world: World,
  t: TaskTemplate,
  want: number,
): { question: string; slots: Slots; gold: Gold }[] {
  const rng = new Rng(`${world.config.seed}/tasks/${t.id}`);
  const out = new Map<string, { question: string; slots: Slots; gold: Gold }>();
  for (let draw = 0; draw < want * 25 + 100 && out.size < want; draw++) {
    const s = t.sample({ rng, world });
    if (!s) continue;
    const question = renderQuestion(t.question, s.slots);
    if (!out.has(question)) out.set(question, { question, ...s });
  }
  return [...out.values()];
}

describe.each(SEEDS)('flights templates on a generated corpus (seed %s)', (seed) => {
  const world = () => worlds.get(seed) as World;

  it('every template yields 35 distinct questions (test 10 + dev 5 + train 20)', () => {
    for (const t of FLIGHTS_TEMPLATES) expect(distinctDraws(world(), t, 35).length, t.id).toBe(35);
  });

  it('fills exactly the slots of its pattern, and questions match only their own pattern', () => {
    const regexes = FLIGHTS_TEMPLATES.map((t) => patternRegex(t.question));
    FLIGHTS_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(world(), t, 10)) {
        expect(Object.keys(d.slots).sort()).toEqual([...new Set(patternSlots(t.question))].sort());
        const matching = regexes.flatMap((r, j) => (r.test(d.question) ? [j] : []));
        expect(matching, d.question).toEqual([i]);
      }
    });
  });

  it('samples the same questions for the same seed', () => {
    for (const t of FLIGHTS_TEMPLATES)
      expect(distinctDraws(world(), t, 5)).toEqual(distinctDraws(world(), t, 5));
  });

  it.each(FLIGHTS_TEMPLATES.map((t) => [t.id, t] as const))(
    '%s: reference plans reach gold within the observation limit',
    async (_id, t) => {
      const draws = distinctDraws(world(), t, 8);
      expect(draws).toHaveLength(8);
      for (const d of draws) {
        const run = await runReferencePlan(world(), t, d.slots, d.gold);
        expect(
          run.correct,
          `${d.question} gold=${JSON.stringify(d.gold)} answer=${JSON.stringify(run.answer)}`,
        ).toBe(true);
        expect(run.steps[0]).toMatchObject({ tool: 'LoadDB', args: { DBName: 'flights' } });
        for (const step of run.steps) {
          expect(step.observation.endsWith(' ...'), `${step.tool} truncated for ${d.question}`).toBe(false);
          expect(step.observation).not.toMatch(/incorrect|failed|does not exist|error/i);
        }
      }
    },
  );
});
