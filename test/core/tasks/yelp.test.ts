import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { generateYelp, YELP_COLUMNS } from '../../../core/world/corpora/yelp.ts';
import { TableBuilder } from '../../../core/world/table.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import { AIRBNB_TEMPLATES } from '../../../core/world/tasks/templates/airbnb.ts';
import { geodesicDestination } from '../../../core/world/tasks/templates/geodesic.ts';
import {
  canFilterEquals,
  getValueTokenCount,
  printsUnchanged,
} from '../../../core/world/tasks/templates/table-plan.ts';
import {
  boxArea,
  byAppointmentOnly,
  categoryList,
  haversine,
  hoursText,
  isPlainCategory,
  YELP_TEMPLATES,
  yelpIndex,
} from '../../../core/world/tasks/templates/yelp.ts';
import {
  type Gold,
  patternSlots,
  renderQuestion,
  type Slots,
  type TaskTemplate,
} from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';

function worldWith(yelp: World['tables']['yelp'], seed = 'test'): World {
  return { config: { seed, scale: 1 }, tables: { yelp } } as unknown as World;
}

function template(label: string): TaskTemplate {
  const t = YELP_TEMPLATES.find((x) => x.label === label);
  if (!t) throw new Error(`no template ${label}`);
  return t;
}

function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

// ---------------------------------------------------------------------------------------------------------
// Hand-built tables for the gold rules.

type Row = Partial<Record<string, string>>;

const BASE: Record<string, string> = {
  address: '2052 Fairmount Ave',
  city: 'Philadelphia',
  state: 'PA',
  postal_code: '19130',
  latitude: '39.9672',
  longitude: '-75.1742',
  stars: '4.0',
  review_count: '80',
  is_open: '1',
  attributes: "{'BusinessAcceptsCreditCards': 'True'}",
  categories: 'Restaurants, Pizza',
  hours: "{'Monday': '7:0-20:30', 'Tuesday': '7:0-20:30'}",
};

/** Rows get distinct ids, names and addresses unless given. */
function tinyWorld(rows: Row[]): World {
  const b = new TableBuilder('yelp', YELP_COLUMNS, rows.length);
  rows.forEach((r, i) => {
    const row: Row = {
      business_id: `id${String(i).padStart(20, '0')}`,
      name: `Business ${i + 1}`,
      address: `${100 + i} Main St`,
      ...r,
    };
    b.add(YELP_COLUMNS.map((c) => row[c.name] ?? (BASE[c.name] as string)));
  });
  return worldWith(b.build());
}

function outcomes(label: string, world: World, draws = 120): { slots: Slots; gold: Gold }[] {
  const rng = new Rng(`tiny/${label}`);
  const seen = new Map<string, { slots: Slots; gold: Gold }>();
  for (let i = 0; i < draws; i++) {
    const s = template(label).sample({ rng, world });
    if (s) seen.set(JSON.stringify(s), s);
  }
  return [...seen.values()];
}

function golds(label: string, rows: Row[]): Gold[] {
  return outcomes(label, tinyWorld(rows)).map((o) => o.gold);
}

describe('table plan helpers', () => {
  it('knows which values FilterDB `=` can match', () => {
    expect(canFilterEquals('Snip Philadelphia')).toBe(true);
    expect(canFilterEquals('T5S 2S2')).toBe(true);
    expect(canFilterEquals('Beer, Wine & Spirits')).toBe(false);
    expect(canFilterEquals('Tampa ')).toBe(false);
    expect(canFilterEquals('A=B')).toBe(false);
    expect(canFilterEquals('')).toBe(false);
  });

  it('counts GetValue tokens like the observation limit does (prices with a trailing space count twice)', () => {
    expect(getValueTokenCount([['stars', ['4.0', '3.5']]])).toBe(3);
    expect(getValueTokenCount([['price', ['$1,083 ', '$966 ']]])).toBe(5);
    expect(getValueTokenCount([['name', ['Snip Philadelphia']]])).toBe(3);
    expect(
      getValueTokenCount([
        ['name', ['A B', 'C']],
        ['stars', ['4.0', '5.0']],
      ]),
    ).toBe(7);
  });

  it('knows which outputs PythonInterpreter prints unchanged', () => {
    expect(printsUnchanged('19406')).toBe(true);
    expect(printsUnchanged('08002')).toBe(true);
    expect(printsUnchanged('00501')).toBe(false);
    expect(printsUnchanged('T5S 2S2')).toBe(true);
    expect(printsUnchanged('Hong Kong Restaurant')).toBe(true);
  });

  it('computes Vincenty destinations (Flinders Peak → Buninyong reference)', () => {
    const dms = (d: number, m: number, s: number) => Math.sign(d) * (Math.abs(d) + m / 60 + s / 3600);
    const [lat, lon] = geodesicDestination(
      dms(-37, 57, 3.7203),
      dms(144, 25, 29.5244),
      dms(306, 52, 5.37),
      54972.271,
    );
    expect(lat).toBeCloseTo(dms(-37, 39, 10.1561), 7);
    expect(lon).toBeCloseTo(dms(143, 55, 35.3839), 7);
  });
});

describe('yelp helpers', () => {
  it('reads categories, appointments and hours the way the gold rules need', () => {
    expect(categoryList('Nightlife, Pubs, Bars')).toEqual(['Nightlife', 'Pubs', 'Bars']);
    expect(categoryList('None')).toEqual([]);
    expect(isPlainCategory('Pizza')).toBe(true);
    expect(isPlainCategory('American (New)')).toBe(false);
    expect(byAppointmentOnly("{'BikeParking': 'True', 'ByAppointmentOnly': 'True'}")).toBe(true);
    expect(byAppointmentOnly("{'ByAppointmentOnly': 'False'}")).toBe(false);
    expect(byAppointmentOnly('None')).toBe(false);
    expect(hoursText("{'Monday': '7:0-20:30', 'Sunday': '0:0-0:0'}")).toBe(
      'Monday: 7:0-20:30, Sunday: 0:0-0:0',
    );
    expect(hoursText('None')).toBeNull();
  });

  it('measures great-circle distances', () => {
    expect(haversine(40, -75, 41, -75)).toBeCloseTo(111195, -1);
    expect(haversine(40, -75, 40, -75)).toBe(0);
  });

  it('has 21 templates in spec label order with distinct ids and question patterns', () => {
    expect(YELP_TEMPLATES.map((t) => t.label)).toEqual([
      ...Array.from({ length: 11 }, (_, i) => `E${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `H${i + 11}`),
    ]);
    expect(YELP_TEMPLATES.slice(0, 11).every((t) => t.difficulty === 'easy')).toBe(true);
    expect(YELP_TEMPLATES.slice(11).every((t) => t.difficulty === 'hard')).toBe(true);
    expect(new Set(YELP_TEMPLATES.map((t) => t.question)).size).toBe(21);
    for (const t of YELP_TEMPLATES) expect(t.id).toBe(`yelp-${t.difficulty}-${t.label}`);
  });
});

describe('yelp easy gold rules', () => {
  it('E1: one business per name and postal code, with an address', () => {
    expect(golds('E1', [{ name: 'Snip', address: '2052 Fairmount Ave' }])).toEqual(['2052 Fairmount Ave']);
    expect(golds('E1', [{ name: 'Snip', address: '' }])).toEqual([]);
    expect(golds('E1', [{ name: 'Subway' }, { name: 'Subway' }])).toEqual([]);
    expect(golds('E1', [{ name: 'Subway' }, { name: 'Subway', postal_code: '19131' }]).sort()).toEqual([
      '100 Main St',
      '101 Main St',
    ]);
  });

  it('E2/E3/E4: a single city, state or postal code, even for a chain with several rows', () => {
    expect(golds('E2', [{ name: 'Wawa' }, { name: 'Wawa' }])).toEqual(['Philadelphia']);
    expect(golds('E2', [{ name: 'Wawa' }, { name: 'Wawa', city: 'Media' }])).toEqual([]);
    expect(golds('E3', [{ name: 'Wawa' }, { name: 'Wawa', state: 'NJ' }])).toEqual([]);
    expect(golds('E3', [{ name: 'Gelato Aromi' }])).toEqual(['PA']);
    expect(golds('E4', [{ name: 'Ceviche', postal_code: '33759' }])).toEqual(['33759']);
    expect(golds('E4', [{ name: 'Ceviche' }, { name: 'Ceviche', postal_code: '19131' }])).toEqual([]);
    expect(golds('E4', [{ name: 'Ceviche', postal_code: '' }])).toEqual([]);
  });

  it('E5–E11: cells of the one matching business', () => {
    expect(golds('E5', [{ stars: '3.5' }])).toEqual(['3.5']);
    expect(golds('E6', [{ review_count: '10' }])).toEqual(['10']);
    expect(golds('E7', [{ is_open: '0' }])).toEqual(['No']);
    expect(golds('E7', [{ is_open: '1' }])).toEqual(['Yes']);
    expect(golds('E8', [{ attributes: "{'ByAppointmentOnly': 'True'}" }])).toEqual(['Yes']);
    expect(golds('E8', [{ attributes: 'None' }])).toEqual(['No']);
    expect(golds('E9', [{}])).toEqual(['Monday: 7:0-20:30, Tuesday: 7:0-20:30']);
    expect(golds('E9', [{ hours: 'None' }])).toEqual([]);
    expect(golds('E10', [{ categories: 'Nightlife, Pubs, Bars' }])).toEqual(['Nightlife, Pubs, Bars']);
    expect(golds('E10', [{ categories: 'None' }])).toEqual([]);
    expect(golds('E11', [{ latitude: '36.1484039504', longitude: '-86.8590614945' }])).toEqual([
      '36.1484039504, -86.8590614945',
    ]);
    expect(golds('E5', [{ name: 'Subway' }, { name: 'Subway' }])).toEqual([]);
    expect(golds('E5', [{ city: 'Tampa ' }])).toEqual([]);
  });

  it('E7/E8: draw closed and by-appointment businesses about half of the time', () => {
    const rows: Row[] = Array.from({ length: 100 }, (_, i) => ({
      is_open: i === 0 ? '0' : '1',
      attributes: i === 1 ? "{'ByAppointmentOnly': 'True'}" : 'None',
    }));
    const world = tinyWorld(rows);
    for (const [label, rare] of [
      ['E7', 'No'],
      ['E8', 'Yes'],
    ] as const) {
      const rng = new Rng(`${label}-balance`);
      let hits = 0;
      for (let i = 0; i < 400; i++) if (template(label).sample({ rng, world })?.gold === rare) hits++;
      expect(hits).toBeGreaterThan(150);
      expect(hits).toBeLessThan(250);
    }
  });
});

describe('yelp hard gold rules', () => {
  it('H11: count by category membership; categories that containment would over-match are not asked', () => {
    const rows: Row[] = [
      { categories: 'Restaurants, Pizza' },
      { categories: 'Pizza, Italian' },
      { categories: 'Bars, Nightlife' },
      { categories: 'Wine Bars, Nightlife' },
      { categories: 'Restaurants, Pizza', city: 'Media' },
      { categories: 'American (New), Restaurants' },
    ];
    const all = outcomes('H11', tinyWorld(rows), 300);
    const counts = Object.fromEntries(
      all.filter((o) => o.slots.city === 'Philadelphia').map((o) => [o.slots.category, o.gold]),
    );
    expect(counts).toEqual({
      Pizza: { type: 'int', value: 2 },
      Restaurants: { type: 'int', value: 2 },
      Italian: { type: 'int', value: 1 },
      Nightlife: { type: 'int', value: 2 },
      'Wine Bars': { type: 'int', value: 1 },
    });
  });

  it('cities are not asked where another spelling of the city would change the answer', () => {
    const rows: Row[] = [
      { city: 'Saint Louis', state: 'MO', categories: 'Pizza', is_open: '0' },
      { city: 'St. Louis', state: 'MO', categories: 'Pizza', is_open: '1' },
      { city: 'Saint Louis', state: 'MO', categories: 'Bakeries', is_open: '0' },
    ];
    const h11 = outcomes('H11', tinyWorld(rows), 300).filter((o) => o.slots.city === 'Saint Louis');
    expect(h11.map((o) => o.slots.category)).toEqual(['Bakeries']);
    expect(outcomes('H18', tinyWorld(rows))).toEqual([
      { slots: { city: 'Saint Louis', state: 'MO' }, gold: { type: 'int', value: 2 } },
    ]);
    expect(outcomes('H18', tinyWorld([...rows, { city: 'St Louis', state: 'MO', is_open: '0' }]))).toEqual(
      [],
    );
  });

  it('H12: postal codes whose businesses all lie in the named city', () => {
    expect(golds('H12', [{}, {}, { postal_code: '19131' }])).toContainEqual({ type: 'int', value: 2 });
    expect(golds('H12', [{}, { city: 'Camden', state: 'NJ' }])).toEqual([]);
    expect(golds('H12', [{ postal_code: '' }])).toEqual([]);
  });

  it('H13/H14: the top business; ties between different businesses are not asked', () => {
    const rows: Row[] = [
      { name: 'A', categories: 'Dentists', stars: '4.5', review_count: '10' },
      { name: 'B', categories: 'Dentists', stars: '5.0', review_count: '12' },
      { name: 'C', categories: 'Dentists', stars: '3.0', review_count: '40' },
    ];
    expect(golds('H13', rows)).toEqual(['B']);
    expect(golds('H14', rows)).toEqual(['C']);
    const tied = [...rows, { name: 'D', categories: 'Dentists', stars: '5.0', review_count: '40' }];
    expect(golds('H13', tied)).toEqual([]);
    expect(golds('H14', tied)).toEqual([]);
  });

  it('H15: mean review count in the 5 km box, itself included, rounded to 2', () => {
    const rows: Row[] = [
      { name: 'Home', latitude: '39.9', longitude: '-75.1', review_count: '10' },
      { latitude: '39.93', longitude: '-75.1', review_count: '21' },
      { latitude: '39.9', longitude: '-75.05', review_count: '5' },
      { latitude: '39.97', longitude: '-75.1', review_count: '1000' },
    ];
    const world = tinyWorld(rows);
    expect(boxArea(yelpIndex(world.tables.yelp), 0)?.rows).toEqual([0, 1, 2]);
    const home = outcomes('H15', world).filter((o) => o.slots.name === 'Home');
    expect(home).toEqual([{ slots: { name: 'Home' }, gold: { type: 'float', value: 12 } }]);
  });

  it('H16: the nearest business of the category in the same city, never the business itself', () => {
    const rows: Row[] = [
      { name: 'Home', latitude: '39.9', longitude: '-75.1', categories: 'Bakeries' },
      { name: 'Near', latitude: '39.91', longitude: '-75.1', categories: 'Chinese, Restaurants' },
      { name: 'Far', latitude: '39.95', longitude: '-75.1', categories: 'Chinese' },
      { name: 'Elsewhere', latitude: '39.9', longitude: '-75.1', categories: 'Chinese', city: 'Media' },
    ];
    const home = outcomes('H16', tinyWorld(rows), 400).filter((o) => o.slots.name === 'Home');
    expect(home).toContainEqual({ slots: { category: 'Chinese', name: 'Home' }, gold: 'Near' });
    expect(home.every((o) => o.slots.category !== 'Bakeries')).toBe(true);
    // Two candidates less than 2% apart: not asked.
    const close = [
      ...rows.slice(0, 3),
      { name: 'Near too', latitude: '39.9', longitude: '-75.11295', categories: 'Chinese' },
    ];
    const closeHome = outcomes('H16', tinyWorld(close), 400).filter((o) => o.slots.name === 'Home');
    expect(closeHome.filter((o) => o.slots.category === 'Chinese')).toEqual([]);
  });

  it('H17: the best-rated business of the category inside the box around the address', () => {
    const rows: Row[] = [
      {
        name: 'Home',
        address: '615 Channelside Dr',
        latitude: '39.9',
        longitude: '-75.1',
        categories: 'Tires',
        stars: '2.0',
      },
      { name: 'Good', latitude: '39.92', longitude: '-75.1', categories: 'Tires', stars: '4.0' },
      { name: 'Best but far', latitude: '39.99', longitude: '-75.1', categories: 'Tires', stars: '5.0' },
    ];
    const home = outcomes('H17', tinyWorld(rows), 400).filter(
      (o) => o.slots.address === '615 Channelside Dr',
    );
    expect(home).toEqual([
      { slots: { category: 'Tires', address: '615 Channelside Dr', city: 'Philadelphia' }, gold: 'Good' },
    ]);
  });

  it('H19: mean stars rounded to 2, as a float', () => {
    const rows: Row[] = [
      { categories: 'Limos', stars: '5.0' },
      { categories: 'Limos', stars: '4.5' },
      { categories: 'Limos', stars: '4.0' },
    ];
    const limos = outcomes('H19', tinyWorld(rows)).filter((o) => o.slots.category === 'Limos');
    expect(limos.map((o) => o.gold)).toEqual([{ type: 'float', value: 4.5 }]);
  });

  it('H20: the most frequent postal code; ties are not asked', () => {
    const codes = ['34668', '34668', '34667'];
    expect(
      golds(
        'H20',
        codes.map((postal_code) => ({ postal_code })),
      ),
    ).toEqual(['34668']);
    expect(
      golds(
        'H20',
        [...codes, '34667'].map((postal_code) => ({ postal_code })),
      ),
    ).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated corpora: distinct questions, sampling determinism and reference plans.

const SEEDS = ['1', '2'];
const worlds = new Map<string, World>();

beforeAll(() => {
  for (const seed of SEEDS) worlds.set(seed, worldWith(generateYelp(new Rng(seed).fork('yelp'), 1), seed));
});

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

describe.each(SEEDS)('yelp templates on a generated corpus (seed %s)', (seed) => {
  const world = () => worlds.get(seed) as World;

  it('every template yields 35 distinct questions (test 10 + dev 5 + train 20)', () => {
    for (const t of YELP_TEMPLATES) expect(distinctDraws(world(), t, 35).length, t.id).toBe(35);
  });

  it('fills exactly the slots of its pattern, and questions match only their own pattern (airbnb included)', () => {
    const all = [...YELP_TEMPLATES, ...AIRBNB_TEMPLATES];
    const regexes = all.map((t) => patternRegex(t.question));
    YELP_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(world(), t, 10)) {
        expect(Object.keys(d.slots).sort()).toEqual([...new Set(patternSlots(t.question))].sort());
        const matching = regexes.flatMap((r, j) => (r.test(d.question) ? [j] : []));
        expect(matching, d.question).toEqual([i]);
      }
    });
  });

  it('samples the same questions for the same seed', () => {
    for (const t of YELP_TEMPLATES)
      expect(distinctDraws(world(), t, 5)).toEqual(distinctDraws(world(), t, 5));
  });

  it.each(YELP_TEMPLATES.map((t) => [t.id, t] as const))(
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
        expect(run.steps.find((s) => s.tool === 'LoadDB')).toMatchObject({ args: { DBName: 'yelp' } });
        for (const step of run.steps) {
          expect(step.observation.endsWith(' ...'), `${step.tool} truncated for ${d.question}`).toBe(false);
          expect(step.observation).not.toMatch(/incorrect|failed|does not exist|error/i);
        }
      }
    },
  );
});
