import { beforeAll, describe, expect, it } from 'vitest';
import { runPythonTool } from '../../../core/sandbox/python/tool.ts';
import { pyFloatRepr } from '../../../core/util/python-format.ts';
import { Rng } from '../../../core/util/random.ts';
import { AIRBNB_COLUMNS, generateAirbnb } from '../../../core/world/corpora/airbnb.ts';
import { TableBuilder } from '../../../core/world/table.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import {
  AIRBNB_TEMPLATES,
  airbnbIndex,
  boxArea,
  cheapestSharedRoom,
  parsePrice,
} from '../../../core/world/tasks/templates/airbnb.ts';
import { geodesicBox, geodesicBoxPython } from '../../../core/world/tasks/templates/geodesic.ts';
import {
  type Gold,
  patternSlots,
  renderQuestion,
  type Slots,
  type TaskTemplate,
} from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';

function worldWith(airbnb: World['tables']['airbnb'], seed = 'test'): World {
  return { config: { seed, scale: 1 }, tables: { airbnb } } as unknown as World;
}

function template(label: string): TaskTemplate {
  const t = AIRBNB_TEMPLATES.find((x) => x.label === label);
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
  id: '1001254',
  NAME: 'Cozy Room in Harlem',
  'host id': '80014485718',
  host_identity_verified: 'verified',
  'host name': 'Nina',
  'neighbourhood group': 'Manhattan',
  neighbourhood: 'Harlem',
  lat: '40.81231',
  long: '-73.94651',
  country: 'United States',
  'country code': 'US',
  instant_bookable: 'False',
  cancellation_policy: 'strict',
  'room type': 'Private room',
  'Construction year': '2007.0',
  price: '$966 ',
  'service fee': '$193 ',
  'minimum nights': '2.0',
  'number of reviews': '36.0',
  'last review': '10/7/2018',
  'reviews per month': '0.76',
  'review rate number': '4.0',
  'calculated host listings count': '1.0',
  'availability 365': '42.0',
  house_rules: 'nan',
  license: 'nan',
};

/** Rows get distinct ids and names unless given. */
function tinyWorld(rows: Row[]): World {
  const b = new TableBuilder('airbnb', AIRBNB_COLUMNS, rows.length);
  rows.forEach((r, i) => {
    const row: Row = { id: String(2000000 + i), NAME: `Listing ${i + 1}`, ...r };
    b.add(AIRBNB_COLUMNS.map((c) => row[c.name] ?? (BASE[c.name] as string)));
  });
  return worldWith(b.build());
}

/** Every distinct outcome of many draws on a tiny world. */
function outcomes(label: string, world: World, draws = 80): { slots: Slots; gold: Gold }[] {
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

describe('airbnb template helpers', () => {
  it('parses price cells as numbers', () => {
    expect(parsePrice('$1,083 ')).toBe(1083);
    expect(parsePrice('$50 ')).toBe(50);
    expect(parsePrice('nan')).toBeNaN();
  });

  it('has 20 templates in spec label order with distinct ids and question patterns', () => {
    expect(AIRBNB_TEMPLATES.map((t) => t.label)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `E${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `H${i + 11}`),
    ]);
    expect(AIRBNB_TEMPLATES.slice(0, 10).every((t) => t.difficulty === 'easy')).toBe(true);
    expect(AIRBNB_TEMPLATES.slice(10).every((t) => t.difficulty === 'hard')).toBe(true);
    expect(new Set(AIRBNB_TEMPLATES.map((t) => t.question)).size).toBe(20);
    for (const t of AIRBNB_TEMPLATES) expect(t.id).toBe(`airbnb-${t.difficulty}-${t.label}`);
  });
});

describe('the 5 km box in the Python sandbox', () => {
  it('prints exactly the bounds the gold answers use', () => {
    for (const [lat, lon] of [
      ['40.81231', '-73.94651'],
      ['40.5', '-74.25'],
      ['39.9672', '-75.1742'],
      ['53.5461245', '-113.4938229'],
    ] as const) {
      const box = geodesicBox(Number(lat), Number(lon), 5000);
      const { observation } = runPythonTool(geodesicBoxPython(lat, lon, 5000), null);
      expect(observation).toBe([box.latMin, box.latMax, box.lonMin, box.lonMax].map(pyFloatRepr).join(' '));
    }
  });
});

describe('airbnb easy gold rules', () => {
  it('E1: the host name by NAME and neighbourhood; NAMEs FilterDB cannot match are not asked', () => {
    expect(onlyGold('E1', [{ NAME: 'Sunny Loft', 'host name': 'Alan' }])).toBe('Alan');
    expect(onlyGold('E1', [{ NAME: 'Sunny loft, steps to the train' }])).toBeNull();
    expect(onlyGold('E1', [{ NAME: 'Loft <3 Harlem' }])).toBeNull();
    expect(onlyGold('E1', [{ NAME: 'nan' }])).toBeNull();
    expect(onlyGold('E1', [{ 'host name': 'nan' }])).toBeNull();
  });

  it('E2/E5/E6/E7: whole numbers from float cells; missing and impossible values are not asked', () => {
    expect(onlyGold('E2', [{ 'availability 365': '347.0' }])).toBe('347');
    expect(onlyGold('E2', [{ 'availability 365': '0.0' }])).toBe('0');
    expect(onlyGold('E2', [{ 'availability 365': '-3.0' }])).toBeNull();
    expect(onlyGold('E2', [{ 'availability 365': '400.0' }])).toBeNull();
    expect(onlyGold('E2', [{ 'availability 365': 'nan' }])).toBeNull();
    expect(onlyGold('E5', [{ 'minimum nights': '30.0' }])).toBe('30');
    expect(onlyGold('E5', [{ 'minimum nights': '-1.0' }])).toBeNull();
    expect(onlyGold('E6', [{ 'Construction year': '2003.0' }])).toBe('2003');
    expect(onlyGold('E6', [{ 'Construction year': 'nan' }])).toBeNull();
    expect(onlyGold('E7', [{ 'number of reviews': '0.0' }])).toBe('0');
  });

  it('E2 names the listing by NAME and id; the others add the neighbourhood', () => {
    const [e2] = outcomes('E2', tinyWorld([{ NAME: 'Sunny, bright room', id: '32113500' }]));
    expect(e2?.slots).toEqual({ name: 'Sunny, bright room', id: '32113500' });
    const [e3] = outcomes('E3', tinyWorld([{ NAME: 'Sunny Loft', id: '7', 'room type': 'Shared room' }]));
    expect(e3).toEqual({
      slots: { name: 'Sunny Loft', id: '7', neighbourhood: 'Harlem' },
      gold: 'Shared room',
    });
  });

  it('E4: the price without its trailing space (EVO fix)', () => {
    expect(onlyGold('E4', [{ price: '$1,146 ' }])).toBe('$1,146');
    expect(onlyGold('E4', [{ price: '$479 ' }])).toBe('$479');
    expect(onlyGold('E4', [{ price: 'nan' }])).toBeNull();
  });

  it('E8/E9/E10: cells as stored; listings without reviews are not asked', () => {
    expect(onlyGold('E8', [{ 'last review': '7/4/2019' }])).toBe('7/4/2019');
    expect(onlyGold('E8', [{ 'last review': 'nan' }])).toBeNull();
    expect(onlyGold('E9', [{ 'review rate number': '5.0' }])).toBe('5.0');
    expect(onlyGold('E9', [{ 'review rate number': 'nan' }])).toBeNull();
    expect(onlyGold('E10', [{ 'reviews per month': '0.08' }])).toBe('0.08');
    expect(onlyGold('E10', [{ 'reviews per month': 'nan' }])).toBeNull();
  });
});

describe('airbnb hard gold rules', () => {
  it('H11: (price + fee) × max(nights, minimum nights) as $ and one decimal', () => {
    const long = outcomes(
      'H11',
      tinyWorld([{ price: '$1,000 ', 'service fee': '$200 ', 'minimum nights': '30.0' }]),
    );
    expect(long.length).toBeGreaterThan(5);
    for (const o of long) expect(o.gold).toBe('$36000.0');
    const short = outcomes(
      'H11',
      tinyWorld([{ price: '$100 ', 'service fee': '$20 ', 'minimum nights': '2.0' }]),
    );
    expect(short.length).toBeGreaterThan(5);
    for (const o of short) expect(o.gold).toBe(`$${120 * Math.max(Number(o.slots.nights), 2)}.0`);
    expect(onlyGold('H11', [{ 'service fee': 'nan' }])).toBeNull();
  });

  it('H12: the row count; neighbourhoods with a duplicated listing are not asked', () => {
    const rows: Row[] = [
      { neighbourhood: 'Rosedale' },
      { neighbourhood: 'Rosedale' },
      { neighbourhood: 'Rosedale' },
      { neighbourhood: 'Harlem', id: '5' },
      { neighbourhood: 'Harlem', id: '5', NAME: 'Listing 4' },
    ];
    expect(outcomes('H12', tinyWorld(rows))).toEqual([{ slots: { neighbourhood: 'Rosedale' }, gold: '3' }]);
  });

  it('H13: the mean numeric price of listings with a price, as $ and one decimal', () => {
    expect(onlyGold('H13', [{ price: '$1,000 ' }, { price: '$201 ' }, { price: 'nan' }])).toBe('$600.5');
    expect(onlyGold('H13', [{ price: '$100 ' }])).toBeNull();
  });

  it('H15: round(flexible / all, 2); neighbourhoods without a flexible listing are not asked', () => {
    const rows: Row[] = Array.from({ length: 7 }, (_, i) => ({
      cancellation_policy: i < 3 ? 'flexible' : i < 6 ? 'moderate' : 'nan',
    }));
    expect(onlyGold('H15', rows)).toBe('0.43');
    expect(onlyGold('H15', [{ cancellation_policy: 'flexible' }, { cancellation_policy: 'moderate' }])).toBe(
      '0.5',
    );
    expect(onlyGold('H15', [{}, {}])).toBeNull();
  });

  it('H16: the numeric maximum over entire homes (EVO fix: $1,182 beats $984), as $ + integer', () => {
    const rows: Row[] = [
      { 'room type': 'Entire home/apt', price: '$984 ' },
      { 'room type': 'Entire home/apt', price: '$1,182 ' },
      { 'room type': 'Private room', price: '$1,190 ' },
      { 'room type': 'Entire home/apt', price: 'nan' },
    ];
    expect(onlyGold('H16', rows)).toBe('$1182');
  });

  it('H17: listings with a review rate number of 4 or more (nan is not counted)', () => {
    const rates = ['4.0', '5.0', '3.0', 'nan', '1.0', '4.0'];
    expect(
      onlyGold(
        'H17',
        rates.map((r) => ({ 'review rate number': r })),
      ),
    ).toBe('3');
  });

  it('H18: the numerically cheapest listing; ties between listings are not asked', () => {
    const rows: Row[] = [
      { NAME: 'A', price: '$1,182 ' },
      { NAME: 'B', price: '$99 ' },
      { NAME: 'C', price: '$984 ' },
      { NAME: 'D', price: 'nan' },
    ];
    expect(onlyGold('H18', rows)).toBe('B');
    expect(onlyGold('H18', [...rows, { NAME: 'E', price: '$99 ' }])).toBeNull();
  });

  it('H19: most reviews per month among private rooms of hosts with ≥ 2 listings (numerically: 10 ≥ 2)', () => {
    const rows: Row[] = [
      { NAME: 'Solo host', 'reviews per month': '9.5', 'calculated host listings count': '1.0' },
      { NAME: 'Ten listings', 'reviews per month': '3.1', 'calculated host listings count': '10.0' },
      { NAME: 'Two listings', 'reviews per month': '2.2', 'calculated host listings count': '2.0' },
      { NAME: 'No reviews', 'reviews per month': 'nan', 'calculated host listings count': '5.0' },
      {
        NAME: 'Entire place',
        'room type': 'Entire home/apt',
        'reviews per month': '8.0',
        'calculated host listings count': '3.0',
      },
    ];
    expect(onlyGold('H19', rows)).toBe('Ten listings');
  });

  it('H14: the mean rating inside the 5 km geodesic box; duplicated listings in the box are not asked', () => {
    const box = geodesicBox(40.6, -74.1, 5000);
    // 5 km is about 0.045° of latitude and 0.059° of longitude here.
    expect(box.latMax - 40.6).toBeCloseTo(0.045, 3);
    expect(box.lonMax + 74.1).toBeCloseTo(0.0593, 3);
    const rows: Row[] = [
      { NAME: 'Home', lat: '40.6', long: '-74.1', 'review rate number': '5.0' },
      { lat: '40.64', long: '-74.1', 'review rate number': '2.0' },
      { lat: '40.66', long: '-74.1', 'review rate number': '1.0' },
      { lat: '40.6', long: '-74.05', 'review rate number': '3.0' },
      { lat: '40.6', long: '-74.03', 'review rate number': '1.0' },
      { lat: '40.59', long: '-74.12', 'review rate number': 'nan' },
    ];
    const world = tinyWorld(rows);
    const d = airbnbIndex(world.tables.airbnb);
    expect(boxArea(d, 0)?.rows).toEqual([0, 1, 3, 5]);
    const homes = outcomes('H14', world).filter((o) => o.slots.name === 'Home');
    expect(homes).toEqual([{ slots: { name: 'Home', neighbourhood: 'Harlem' }, gold: '3.33' }]);
    const withCopy = tinyWorld([...rows, { ...rows[1], id: '2000001', NAME: 'Listing 2' }]);
    expect(boxArea(airbnbIndex(withCopy.tables.airbnb), 0)).toBeNull();
  });

  it('H20: cheapest shared rooms within 0.13°, ties joined by "; " in an order that is also alphabetical', () => {
    const shared = (lat: string, long: string, price: string, NAME: string): Row => ({
      'room type': 'Shared room',
      lat,
      long,
      price,
      NAME,
    });
    const world = tinyWorld([
      shared('40.7', '-73.9', '$80 ', 'Bunk A'),
      shared('40.75', '-73.95', '$60 ', 'Couch'),
      shared('40.7', '-74.2', '$20 ', 'Far away'),
      shared('40.72', '-73.92', '$60 ', 'Bed near park'),
      { lat: '40.7', long: '-73.9', price: '$10 ', NAME: 'Private' },
    ]);
    const d = airbnbIndex(world.tables.airbnb);
    expect(cheapestSharedRoom(d, -73.9, 40.7)).toBe('Bed near park; Couch');
    // Code-point and case-blind orders disagree for these names: not asked.
    const mixed = tinyWorld([
      shared('40.7', '-73.9', '$60 ', 'apple room'),
      shared('40.71', '-73.9', '$60 ', 'Banana bed'),
    ]);
    expect(cheapestSharedRoom(airbnbIndex(mixed.tables.airbnb), -73.9, 40.7)).toBeNull();
    // A room exactly on the circle would depend on rounding: not asked.
    const edge = tinyWorld([
      shared('40.7', '-73.9', '$60 ', 'Edge'),
      shared('40.75', '-73.9', '$50 ', 'Inside'),
    ]);
    expect(cheapestSharedRoom(airbnbIndex(edge.tables.airbnb), -73.9, 40.83)).toBeNull();
    expect(cheapestSharedRoom(d, -74.25, 40.5)).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated corpora: distinct questions, sampling determinism and reference plans.

const SEEDS = ['1', '2'];
const worlds = new Map<string, World>();

beforeAll(() => {
  for (const seed of SEEDS)
    worlds.set(seed, worldWith(generateAirbnb(new Rng(seed).fork('airbnb'), 1), seed));
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

describe.each(SEEDS)('airbnb templates on a generated corpus (seed %s)', (seed) => {
  const world = () => worlds.get(seed) as World;

  it('every template yields 35 distinct questions (test 10 + dev 5 + train 20)', () => {
    for (const t of AIRBNB_TEMPLATES) expect(distinctDraws(world(), t, 35).length, t.id).toBe(35);
  });

  it('fills exactly the slots of its pattern, and questions match only their own pattern', () => {
    const regexes = AIRBNB_TEMPLATES.map((t) => patternRegex(t.question));
    AIRBNB_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(world(), t, 10)) {
        expect(Object.keys(d.slots).sort()).toEqual([...new Set(patternSlots(t.question))].sort());
        const matching = regexes.flatMap((r, j) => (r.test(d.question) ? [j] : []));
        expect(matching, d.question).toEqual([i]);
      }
    });
  });

  it('samples the same questions for the same seed', () => {
    for (const t of AIRBNB_TEMPLATES)
      expect(distinctDraws(world(), t, 5)).toEqual(distinctDraws(world(), t, 5));
  });

  it.each(AIRBNB_TEMPLATES.map((t) => [t.id, t] as const))(
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
        expect(run.steps.find((s) => s.tool === 'LoadDB')).toMatchObject({ args: { DBName: 'airbnb' } });
        for (const step of run.steps) {
          expect(step.observation.endsWith(' ...'), `${step.tool} truncated for ${d.question}`).toBe(false);
          expect(step.observation).not.toMatch(/incorrect|failed|does not exist|error/i);
        }
      }
    },
  );
});
