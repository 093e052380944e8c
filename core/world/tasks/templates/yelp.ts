/**
 * Yelp templates (spec §7.7 easy E1–E11, §7.8 hard H11–H20): tooldrift's wording, the original's slots, plans
 * and gold rules. Easy questions name one business; hard questions aggregate the businesses of a city, a postal
 * code, a category or an area.
 *
 * "Businesses listed under {category}" are the rows whose categories list has that category; the plans select
 * them with FilterDB's `categories=` regular-expression containment (spec §3.3), so a category is only asked
 * about where containment and list membership pick the same rows (no other category name of the group
 * containing it, e.g. `Bars` next to `Wine Bars`; no regex metacharacters, e.g. `American (New)`).
 *
 * Deliberate differences from ToolQA-D:
 * - One value per easy answer: E1 and E5–E11 name a business that has exactly one row for its name and postal
 *   code (E1) or name, postal code, city and state (E5–E11); E2/E3/E4 ask only where the name's rows have a
 *   single city / state / postal code. The original joined several distinct values with `, ` (E1, E2, E5, E6,
 *   E10) or took the first row (E7, E8, E9, E11). Businesses without an address (E1), postal code, hours (E9) or
 *   categories (E10) are not asked.
 * - E7 and E8 draw a closed business / one that works by appointment only half of the time (uniform rows are
 *   ~80% open and mostly not by appointment).
 * - Cities: a city is named by its exact cell (a cell with surrounding spaces such as `Tampa ` cannot be
 *   filtered) and asked about only where businesses listed under another spelling of it (`St. Louis` /
 *   `Saint Louis`, `Philly`; taken from the corpus vocabulary) would not change the answer. H18 and H19 name
 *   the state too (the original named only the city); H12 asks only about postal codes whose businesses all
 *   lie in the named city and state; H16 filters the city and state of the reference business.
 * - H13, H14, H17 resample ties between different businesses for the top spot (the original took the first row);
 *   H20 resamples ties for the most frequent postal code. H16 never asks for a category the reference business
 *   itself has (the original's answer could be the business itself) and requires the nearest candidate to be at
 *   least 2% nearer than the next one, measured along the sphere (the original ranked by squared degree
 *   differences, which is not distance); the plan uses the haversine formula.
 * - H15 and H17 use the 5 km (not miles) WGS-84 geodesic box of the EVO gold (geodesic.ts; the plan computes
 *   it with the math module only) and the question describes the box. H15 and H16 name a business whose name
 *   is unique in the table. H17 applies the category it names (the original ignored it and ranked every
 *   business in the box) and identifies the reference business by address and city (addresses repeat across
 *   cities).
 * - Answers a plan prints with PythonInterpreter are asked only if the tool prints them unchanged (a postal
 *   code such as `00501` would come back as `501.0`).
 * - Bounded observations: groups whose GetValue result would exceed the 1,024-token limit are not asked (at
 *   scale 1 that excludes the largest category groups of the biggest cities, e.g. Restaurants in Philadelphia,
 *   H20 for cities with more than about 1,000 businesses, and H15 boxes with more than about 1,000).
 */
import { pyRound } from '../../../util/python-format.ts';
import type { Rng } from '../../../util/random.ts';
import { YELP_METROS } from '../../corpora/vocab/yelp-places.ts';
import type { Table } from '../../table.ts';
import { mean, TableIndex } from '../data.ts';
import {
  filteredRows,
  getValueColumn,
  getValueColumns,
  pyFloatList,
  pyIntList,
  pyStrList,
} from '../observations.ts';
import { defineTemplate, type Gold, type PlanCall, type SampleContext, type TaskTemplate } from '../types.ts';
import {
  type Box,
  boxConditions,
  geodesicBox,
  geodesicBoxPython,
  LatitudeIndex,
  parseBoxOutput,
} from './geodesic.ts';
import {
  canFilterEquals,
  filterDb,
  getValue,
  getValueFits,
  loadDb,
  OBSERVATION_TOKEN_LIMIT,
  printed,
  printsUnchanged,
  python,
} from './table-plan.ts';

/** The H15/H17 box reaches this far from the business in each direction (metres). */
export const BOX_DISTANCE = 5000;
/** H16: the nearest candidate must be nearer than the next one by this factor. */
export const NEAREST_MARGIN = 1.02;
/** Mean Earth radius (metres) of the haversine distance H16 ranks by. */
const EARTH_RADIUS = 6371008.8;
/** Boxes with more businesses than this are not asked about (H15 can read at most ~1,000 review counts). */
const BOX_ROW_CAP = 4 * OBSERVATION_TOKEN_LIMIT;
/** Random draws tried per sample for templates whose draws are mostly unusable. */
const ATTEMPTS = 40;

type YelpColumn =
  | 'name'
  | 'address'
  | 'city'
  | 'state'
  | 'postal_code'
  | 'latitude'
  | 'longitude'
  | 'stars'
  | 'review_count'
  | 'is_open'
  | 'attributes'
  | 'categories'
  | 'hours';

const load = loadDb('yelp');

/** The categories of a cell (`None` → none). */
export function categoryList(cell: string): string[] {
  return cell === 'None' ? [] : cell.split(', ');
}

/** A category name `categories=` matches literally (no regex metacharacters) and FilterDB can carry. */
export function isPlainCategory(category: string): boolean {
  return canFilterEquals(category) && !/[\\^$.|?*+()[\]{}]/.test(category);
}

/** Whether a business works by appointment only: its attributes have `'ByAppointmentOnly': 'True'`. */
export function byAppointmentOnly(attributes: string): boolean {
  return /(?:^\{|, )'ByAppointmentOnly': 'True'(?=[,}])/.test(attributes);
}

/** An hours dict repr as `Day: H:M-H:M` entries in stored order joined by `, ` (`None` → null). */
export function hoursText(hours: string): string | null {
  const entries = [...hours.matchAll(/'(\w+)': '([^']*)'/g)].map((m) => `${m[1]}: ${m[2]}`);
  return entries.length === 0 ? null : entries.join(', ');
}

/** Great-circle distance in metres (the same arithmetic as the H16 plan's Python). */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const p1 = (lat1 * Math.PI) / 180;
  const p2 = (lat2 * Math.PI) / 180;
  const dp = p2 - p1;
  const dl = ((lon2 - lon1) * Math.PI) / 180;
  const h = Math.sin(dp / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.sqrt(h));
}

/** Each city name's other spellings in the corpus vocabulary (`Saint Louis` → `St. Louis`, `St Louis`). */
const CITY_SPELLINGS: ReadonlyMap<string, readonly string[]> = (() => {
  const families = new Map<string, Set<string>>();
  for (const metro of YELP_METROS) {
    for (const [official, variant] of metro.variants ?? []) {
      const family = families.get(official) ?? new Set([official]);
      family.add(variant);
      for (const name of family) families.set(name, family);
    }
  }
  return new Map([...families].map(([name, family]) => [name, [...family].filter((n) => n !== name)]));
})();

// ---------------------------------------------------------------------------------------------------------
// Reading the table for gold answers.

/** Lazily materialised columns and row groups of one yelp table (gold computation only). */
export class YelpIndex extends TableIndex<YelpColumn> {
  private spatialIndex?: LatitudeIndex;
  readonly boxes = new Map<number, Area | null>();

  /** Rows of the city (exact cell) in the state. */
  city(city: string, state: string): number[] {
    return this.rows(['city', 'state'], [city, state]);
  }

  /** Rows of the state listed under another spelling of the city. */
  otherSpellings(city: string, state: string): number[] {
    return (CITY_SPELLINGS.get(city) ?? []).flatMap((c) => this.city(c, state));
  }

  hasCategory(row: number, category: string): boolean {
    return categoryList(this.cell('categories', row)).includes(category);
  }

  /** Whether `categories=category` selects exactly the rows with the category among `rows`. */
  containmentIsMembership(rows: readonly number[], category: string): boolean {
    return rows.every((r) => this.cell('categories', r).includes(category) === this.hasCategory(r, category));
  }

  /** All rows by latitude. */
  spatial(): LatitudeIndex {
    if (!this.spatialIndex) {
      this.spatialIndex = new LatitudeIndex(
        this.col('latitude').map(Number.parseFloat),
        this.col('longitude').map(Number.parseFloat),
      );
    }
    return this.spatialIndex;
  }
}

const indexes = new WeakMap<Table, YelpIndex>();
export function yelpIndex(table: Table): YelpIndex {
  let d = indexes.get(table);
  if (!d) {
    d = new YelpIndex(table);
    indexes.set(table, d);
  }
  return d;
}
const data = (ctx: SampleContext) => yelpIndex(ctx.world.tables.yelp);

const cellsOf = (d: YelpIndex, column: YelpColumn, rows: readonly number[]) =>
  rows.map((r) => d.cell(column, r));
const fitsRows = (d: YelpIndex, columns: readonly YelpColumn[], rows: readonly number[]) =>
  // Every cell is at least one token: skip rendering hopelessly large groups.
  rows.length * columns.length < OBSERVATION_TOKEN_LIMIT &&
  getValueFits(columns.map((c) => [c, cellsOf(d, c, rows)] as const));
const distinct = <T>(xs: readonly T[]) => [...new Set(xs)];
const int = (value: number): Gold => ({ type: 'int', value });
const float = (value: number): Gold => ({ type: 'float', value });

/** The only distinct name among `rows`, if there is exactly one and Python prints it unchanged. */
function soleName(d: YelpIndex, rows: readonly number[]): string | null {
  const names = distinct(cellsOf(d, 'name', rows));
  return names.length === 1 && printsUnchanged(names[0] as string) ? (names[0] as string) : null;
}

/** Rows among `rows` with the largest value of a numeric column. */
function topRows(d: YelpIndex, rows: readonly number[], column: 'stars' | 'review_count'): number[] {
  const best = Math.max(...rows.map((r) => d.num(column, r)));
  return rows.filter((r) => d.num(column, r) === best);
}

// ---------------------------------------------------------------------------------------------------------
// Easy: one business.

type BusinessSlots = { name: string; postal_code: string; city: string; state: string };

/** A row to ask about: uniform, or half of the time (when `favour` is given) one of the rows it selects. */
function pickRow(d: YelpIndex, rng: Rng, favour?: RowTest): number {
  if (favour && rng.chance(0.5)) {
    const rows = favouredRows(d, favour);
    if (rows.length > 0) return rng.pick(rows);
  }
  return rng.int(0, d.rowCount - 1);
}

type RowTest = (d: YelpIndex, row: number) => boolean;
const favoured = new WeakMap<YelpIndex, Map<RowTest, number[]>>();

function favouredRows(d: YelpIndex, test: RowTest): number[] {
  let byTest = favoured.get(d);
  if (!byTest) {
    byTest = new Map();
    favoured.set(d, byTest);
  }
  let rows = byTest.get(test);
  if (!rows) {
    rows = [];
    for (let r = 0; r < d.rowCount; r++) if (test(d, r)) rows.push(r);
    byTest.set(test, rows);
  }
  return rows;
}

/** The row's business slots, if name, postal code, city and state name it alone and FilterDB can match them. */
function businessSlots(d: YelpIndex, row: number): BusinessSlots | null {
  const slots = {
    name: d.cell('name', row),
    postal_code: d.cell('postal_code', row),
    city: d.cell('city', row),
    state: d.cell('state', row),
  };
  if (!Object.values(slots).every(canFilterEquals)) return null;
  const rows = d.rows(
    ['name', 'postal_code', 'city', 'state'],
    [slots.name, slots.postal_code, slots.city, slots.state],
  );
  return rows.length === 1 ? slots : null;
}

const businessCondition = (s: BusinessSlots) =>
  `name=${s.name}, postal_code=${s.postal_code}, city=${s.city}, state=${s.state}`;

interface BusinessSpec {
  label: string;
  question: string;
  goldRule: string;
  columns: YelpColumn[];
  /** The answer from the business's cells (gold and plan alike); null when they cannot make a question. */
  answer(cells: Record<string, string>): string | null;
  favour?: RowTest;
}

function businessTemplate(spec: BusinessSpec): TaskTemplate {
  return defineTemplate<BusinessSlots>({
    id: `yelp-easy-${spec.label}`,
    dataset: 'yelp',
    difficulty: 'easy',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const row = pickRow(d, ctx.rng, spec.favour);
      const slots = businessSlots(d, row);
      if (slots === null) return null;
      const gold = spec.answer(Object.fromEntries(spec.columns.map((c) => [c, d.cell(c, row)])));
      return gold === null ? null : { slots, gold };
    },
    *solve(slots) {
      yield load;
      filteredRows(yield filterDb(businessCondition(slots)));
      const cols = getValueColumns(yield getValue(spec.columns.join(', ')));
      return spec.answer(Object.fromEntries(spec.columns.map((c) => [c, String(cols[c]?.[0])])));
    },
  });
}

/** A template whose answer is the single distinct value of `column` among the rows the slots select. */
interface SingleValueSpec<S extends Record<string, string>> {
  label: string;
  question: string;
  goldRule: string;
  /** Slot columns, in FilterDB order. */
  by: (keyof S & YelpColumn)[];
  column: YelpColumn;
}

function singleValueTemplate<S extends Record<string, string>>(spec: SingleValueSpec<S>): TaskTemplate {
  return defineTemplate<S>({
    id: `yelp-easy-${spec.label}`,
    dataset: 'yelp',
    difficulty: 'easy',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const values = spec.by.map((c) => d.cell(c, row));
      if (!values.every(canFilterEquals)) return null;
      const rows = d.rows(spec.by, values);
      const answers = distinct(cellsOf(d, spec.column, rows));
      const gold = answers[0] as string;
      if (answers.length !== 1 || !canFilterEquals(gold) || !fitsRows(d, [spec.column], rows)) return null;
      return { slots: Object.fromEntries(spec.by.map((c, i) => [c, values[i]])) as S, gold };
    },
    *solve(slots) {
      yield load;
      filteredRows(yield filterDb(spec.by.map((c) => `${c}=${slots[c]}`).join(', ')));
      const values = getValueColumn(yield getValue(spec.column), spec.column).map(String);
      return distinct(values).join(', ');
    },
  });
}

const easy: TaskTemplate[] = [
  defineTemplate<{ name: string; postal_code: string }>({
    id: 'yelp-easy-E1',
    dataset: 'yelp',
    difficulty: 'easy',
    label: 'E1',
    question: 'What is the street address of {name} in the {postal_code} postal code area?',
    goldRule: 'The address of the one business with that name and postal code.',
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const name = d.cell('name', row);
      const postal = d.cell('postal_code', row);
      const address = d.cell('address', row);
      if (!canFilterEquals(name) || !canFilterEquals(postal) || !canFilterEquals(address)) return null;
      if (d.rows(['name', 'postal_code'], [name, postal]).length !== 1) return null;
      return { slots: { name, postal_code: postal }, gold: address };
    },
    *solve({ name, postal_code }) {
      yield load;
      filteredRows(yield filterDb(`name=${name}, postal_code=${postal_code}`));
      return String(getValueColumn(yield getValue('address'), 'address')[0]);
    },
  }),
  singleValueTemplate<{ name: string; state: string }>({
    label: 'E2',
    question: 'In which city of {state} is {name} located?',
    goldRule:
      'The city of the business’s rows in that state (names found in several cities of the state are not asked).',
    by: ['name', 'state'],
    column: 'city',
  }),
  singleValueTemplate<{ name: string }>({
    label: 'E3',
    question: 'In which state is {name} located?',
    goldRule: 'The state of the rows with that name (names found in several states are not asked).',
    by: ['name'],
    column: 'state',
  }),
  singleValueTemplate<{ name: string; city: string; state: string }>({
    label: 'E4',
    question: 'What is the postal code of {name} in {city}, {state}?',
    goldRule: 'The postal code of the rows with that name, city and state (several postal codes: not asked).',
    by: ['name', 'city', 'state'],
    column: 'postal_code',
  }),
  businessTemplate({
    label: 'E5',
    question: 'What is the star rating of {name} at postal code {postal_code} in {city}, {state}?',
    goldRule: 'stars as stored (`3.5`).',
    columns: ['stars'],
    answer: (c) => c.stars as string,
  }),
  businessTemplate({
    label: 'E6',
    question: 'How many reviews does {name} at postal code {postal_code} in {city}, {state} have?',
    goldRule: 'review_count.',
    columns: ['review_count'],
    answer: (c) => c.review_count as string,
  }),
  businessTemplate({
    label: 'E7',
    question: 'Is {name} at postal code {postal_code} in {city}, {state} still open?',
    goldRule: '`No` when is_open is 0, else `Yes`.',
    columns: ['is_open'],
    answer: (c) => (c.is_open === '0' ? 'No' : 'Yes'),
    favour: (d, r) => d.cell('is_open', r) === '0',
  }),
  businessTemplate({
    label: 'E8',
    question:
      'Does {name} at postal code {postal_code} in {city}, {state} only serve customers by appointment?',
    goldRule: '`Yes` when the attributes have ByAppointmentOnly set to `True`, else `No`.',
    columns: ['attributes'],
    answer: (c) => (byAppointmentOnly(c.attributes as string) ? 'Yes' : 'No'),
    favour: (d, r) => byAppointmentOnly(d.cell('attributes', r)),
  }),
  businessTemplate({
    label: 'E9',
    question:
      "What are the opening hours of {name} at postal code {postal_code} in {city}, {state}? List them as 'Day: H:M-H:M', separated by commas.",
    goldRule:
      'The hours entries as `Day: H:M-H:M` in stored order joined by `, ` (businesses without hours are not asked).',
    columns: ['hours'],
    answer: (c) => hoursText(c.hours as string),
  }),
  businessTemplate({
    label: 'E10',
    question: 'Which categories is {name} at postal code {postal_code} in {city}, {state} listed under?',
    goldRule: 'The categories cell as stored (businesses without categories are not asked).',
    columns: ['categories'],
    answer: (c) => (c.categories === 'None' ? null : (c.categories as string)),
  }),
  businessTemplate({
    label: 'E11',
    question:
      'What are the latitude and longitude of {name} at postal code {postal_code} in {city}, {state}?',
    goldRule: '`{latitude}, {longitude}` as stored.',
    columns: ['latitude', 'longitude'],
    answer: (c) => `${c.latitude}, ${c.longitude}`,
  }),
];

// ---------------------------------------------------------------------------------------------------------
// Hard.

type CitySlots = { city: string; state: string };
type CityCategorySlots = { category: string; city: string; state: string };

/** A city (exact cell) and state drawn through a random row, if FilterDB can match them. */
function pickCity(d: YelpIndex, rng: Rng): (CitySlots & { rows: number[] }) | null {
  const row = rng.int(0, d.rowCount - 1);
  const city = d.cell('city', row);
  const state = d.cell('state', row);
  if (!canFilterEquals(city) || !canFilterEquals(state)) return null;
  return { city, state, rows: d.city(city, state) };
}

/**
 * A category of a random row and that row's city: the category is plain, containment selects exactly its
 * businesses in the city, and no business listed under another spelling of the city has it.
 */
function pickCityCategory(d: YelpIndex, rng: Rng): (CityCategorySlots & { rows: number[] }) | null {
  const row = rng.int(0, d.rowCount - 1);
  const city = d.cell('city', row);
  const state = d.cell('state', row);
  if (!canFilterEquals(city) || !canFilterEquals(state)) return null;
  const category = randomCategory(d, rng, [row]);
  if (category === null) return null;
  const cityRows = d.city(city, state);
  if (!d.containmentIsMembership(cityRows, category)) return null;
  if (d.otherSpellings(city, state).some((r) => d.hasCategory(r, category))) return null;
  return { category, city, state, rows: cityRows.filter((r) => d.hasCategory(r, category)) };
}

const cityCategoryCondition = (s: CityCategorySlots) =>
  `categories=${s.category}, city=${s.city}, state=${s.state}`;

interface CityCategorySpec {
  label: string;
  question: string;
  goldRule: string;
  /** Gold from the category's rows in the city; null to resample. */
  gold(d: YelpIndex, rows: number[]): Gold | null;
  columns: YelpColumn[];
  variables: string[];
  code: string;
}

/** Python list literal of a column's values: strings for text columns, ints or floats for numbers. */
function pyLiteral(column: YelpColumn, values: readonly (string | number)[]): string {
  if (column === 'review_count' || column === 'is_open') return pyIntList(values);
  if (column === 'stars' || column === 'latitude' || column === 'longitude') return pyFloatList(values);
  return pyStrList(values);
}

function cityCategoryTemplate(spec: CityCategorySpec): TaskTemplate {
  return defineTemplate<CityCategorySlots>({
    id: `yelp-hard-${spec.label}`,
    dataset: 'yelp',
    difficulty: 'hard',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const picked = pickCityCategory(d, ctx.rng);
      if (picked === null || !fitsRows(d, spec.columns, picked.rows)) return null;
      const gold = spec.gold(d, picked.rows);
      const { category, city, state } = picked;
      return gold === null ? null : { slots: { category, city, state }, gold };
    },
    *solve(slots) {
      yield load;
      filteredRows(yield filterDb(cityCategoryCondition(slots)));
      const obs = yield getValue(spec.columns.join(', '));
      const bindings = spec.columns.map(
        (c, i) => `${spec.variables[i]} = ${pyLiteral(c, getValueColumn(obs, c))}`,
      );
      return printed(yield python(`${bindings.join('\n')}\n${spec.code}`));
    },
  });
}

/** The area around a business: its 5 km box and the rows inside. */
export interface Area {
  box: Box;
  rows: number[];
}

/**
 * The 5 km box around a business and the rows inside, or null when a row lies on a bound or the box holds more
 * than BOX_ROW_CAP businesses (too many for H15 to read, and not worth searching for H17's categories).
 */
export function boxArea(d: YelpIndex, row: number): Area | null {
  const cached = d.boxes.get(row);
  if (cached !== undefined) return cached;
  const box = geodesicBox(d.num('latitude', row), d.num('longitude', row), BOX_DISTANCE);
  const rows = d.spatial().inside(box, BOX_ROW_CAP);
  const area = rows === null ? null : { box, rows };
  d.boxes.set(row, area);
  return area;
}

/** One category of a random row among `rows`, if it is plain. */
function randomCategory(d: YelpIndex, rng: Rng, rows: readonly number[]): string | null {
  const categories = categoryList(d.cell('categories', rng.pick(rows)));
  if (categories.length === 0) return null;
  const category = rng.pick(categories);
  return isPlainCategory(category) ? category : null;
}

/** A business whose name is unique in the table (and FilterDB can match), through a random row. */
function uniquelyNamed(d: YelpIndex, rng: Rng): number | null {
  const row = rng.int(0, d.rowCount - 1);
  const name = d.cell('name', row);
  return canFilterEquals(name) && d.rows(['name'], [name]).length === 1 ? row : null;
}

/** The plan steps that read a business's coordinates and compute its box; returns the printed bounds. */
function* boxAround(condition: string): Generator<PlanCall, string[], string> {
  yield load;
  filteredRows(yield filterDb(condition));
  const at = getValueColumns(yield getValue('latitude, longitude'));
  const out = yield python(
    geodesicBoxPython(String(at.latitude?.[0]), String(at.longitude?.[0]), BOX_DISTANCE),
  );
  return parseBoxOutput(printed(out));
}

const hard: TaskTemplate[] = [
  defineTemplate<CityCategorySlots>({
    id: 'yelp-hard-H11',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H11',
    question: 'How many businesses listed under {category} are there in {city}, {state}?',
    goldRule: 'The number of businesses of the city and state whose categories include the category.',
    sample(ctx) {
      const picked = pickCityCategory(data(ctx), ctx.rng);
      if (picked === null) return null;
      const { category, city, state } = picked;
      return { slots: { category, city, state }, gold: int(picked.rows.length) };
    },
    *solve(slots) {
      yield load;
      return filteredRows(yield filterDb(cityCategoryCondition(slots)));
    },
  }),
  defineTemplate<{ postal_code: string; city: string; state: string }>({
    id: 'yelp-hard-H12',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H12',
    question: 'How many businesses are there in the {postal_code} postal code area of {city}, {state}?',
    goldRule: 'The number of businesses with that postal code (all of them in the named city and state).',
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const slots = {
        postal_code: d.cell('postal_code', row),
        city: d.cell('city', row),
        state: d.cell('state', row),
      };
      if (!canFilterEquals(slots.postal_code) || !canFilterEquals(slots.city)) return null;
      const rows = d.rows(['postal_code'], [slots.postal_code]);
      if (!rows.every((r) => d.cell('city', r) === slots.city && d.cell('state', r) === slots.state))
        return null;
      return { slots, gold: int(rows.length) };
    },
    *solve({ postal_code }) {
      yield load;
      return filteredRows(yield filterDb(`postal_code=${postal_code}`));
    },
  }),
  cityCategoryTemplate({
    label: 'H13',
    question: 'Which business listed under {category} in {city}, {state} has the highest star rating?',
    goldRule:
      'The name of the category’s business in the city with the most stars (ties between businesses are not asked).',
    gold: (d, rows) => soleName(d, topRows(d, rows, 'stars')),
    columns: ['name', 'stars'],
    variables: ['names', 'stars'],
    code: 'print(names[stars.index(max(stars))])',
  }),
  cityCategoryTemplate({
    label: 'H14',
    question: 'Which business listed under {category} in {city}, {state} has the most reviews?',
    goldRule:
      'The name of the category’s business in the city with the largest review_count (ties are not asked).',
    gold: (d, rows) => soleName(d, topRows(d, rows, 'review_count')),
    columns: ['name', 'review_count'],
    variables: ['names', 'counts'],
    code: 'print(names[counts.index(max(counts))])',
  }),
  defineTemplate<{ name: string }>({
    id: 'yelp-hard-H15',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H15',
    question:
      'What is the average review count (rounded to 2 decimals) of the businesses inside the box that reaches 5 km north, south, east and west of {name}?',
    goldRule:
      'round(mean review_count, 2) over the businesses whose latitude/longitude lie in the box bounded by the points 5 km north, south, east and west of the business (WGS-84 geodesic), itself included.',
    sample(ctx) {
      const d = data(ctx);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const row = uniquelyNamed(d, ctx.rng);
        if (row === null) continue;
        const area = boxArea(d, row);
        if (area === null || !fitsRows(d, ['review_count'], area.rows)) continue;
        const counts = area.rows.map((r) => d.num('review_count', r));
        return { slots: { name: d.cell('name', row) }, gold: float(pyRound(mean(counts), 2)) };
      }
      return null;
    },
    *solve({ name }) {
      const bounds = yield* boxAround(`name=${name}`);
      yield load;
      filteredRows(yield filterDb(boxConditions(bounds, 'latitude', 'longitude')));
      const counts = getValueColumn(yield getValue('review_count'), 'review_count');
      return printed(
        yield python(`counts = ${pyIntList(counts)}\nprint(round(sum(counts) / len(counts), 2))`),
      );
    },
  }),
  defineTemplate<{ category: string; name: string }>({
    id: 'yelp-hard-H16',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H16',
    question: 'Which business listed under {category} in the same city as {name} is closest to it?',
    goldRule:
      'Among the businesses of the reference business’s city and state whose categories include the category (which the reference business does not have), the name of the one with the smallest great-circle distance; asked only when it is at least 2% nearer than the next one.',
    sample(ctx) {
      const d = data(ctx);
      const row = uniquelyNamed(d, ctx.rng);
      if (row === null) return null;
      const city = d.cell('city', row);
      const state = d.cell('state', row);
      if (!canFilterEquals(city) || !canFilterEquals(state)) return null;
      const cityRows = d.city(city, state);
      const category = randomCategory(d, ctx.rng, cityRows);
      if (category === null || d.hasCategory(row, category)) return null;
      if (!d.containmentIsMembership(cityRows, category)) return null;
      if (d.otherSpellings(city, state).some((r) => d.hasCategory(r, category))) return null;
      const candidates = cityRows.filter((r) => d.hasCategory(r, category));
      if (!fitsRows(d, ['name', 'latitude', 'longitude'], candidates)) return null;
      const lat = d.num('latitude', row);
      const lon = d.num('longitude', row);
      const ranked = candidates
        .map((r) => ({ r, km: haversine(lat, lon, d.num('latitude', r), d.num('longitude', r)) }))
        .sort((a, b) => a.km - b.km);
      const [first, second] = ranked;
      if (!first || (second && second.km < first.km * NEAREST_MARGIN)) return null;
      const answer = soleName(d, [first.r]);
      return answer === null ? null : { slots: { category, name: d.cell('name', row) }, gold: answer };
    },
    *solve({ category, name }) {
      yield load;
      filteredRows(yield filterDb(`name=${name}`));
      const home = getValueColumns(yield getValue('latitude, longitude, city, state'));
      yield load;
      filteredRows(
        yield filterDb(`city=${home.city?.[0]}, state=${home.state?.[0]}, categories=${category}`),
      );
      const cols = getValueColumns(yield getValue('name, latitude, longitude'));
      const code = [
        'import math',
        '',
        'def distance(lat1, lon1, lat2, lon2):',
        '    p1 = lat1 * math.pi / 180',
        '    p2 = lat2 * math.pi / 180',
        '    dp = p2 - p1',
        '    dl = (lon2 - lon1) * math.pi / 180',
        '    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2',
        `    return 2 * ${EARTH_RADIUS} * math.asin(math.sqrt(h))`,
        '',
        `names = ${pyStrList(cols.name ?? [])}`,
        `lats = ${pyFloatList(cols.latitude ?? [])}`,
        `lons = ${pyFloatList(cols.longitude ?? [])}`,
        `lat0 = ${home.latitude?.[0]}`,
        `lon0 = ${home.longitude?.[0]}`,
        'dists = [distance(lat0, lon0, la, lo) for la, lo in zip(lats, lons)]',
        'print(names[dists.index(min(dists))])',
      ].join('\n');
      return printed(yield python(code));
    },
  }),
  defineTemplate<{ category: string; address: string; city: string }>({
    id: 'yelp-hard-H17',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H17',
    question:
      'Among the businesses listed under {category} inside the box that reaches 5 km north, south, east and west of {address} in {city}, which has the highest star rating?',
    goldRule:
      'The name of the business with the most stars among those whose categories include the category and whose latitude/longitude lie in the 5 km geodesic box around the business at that address (ties between businesses are not asked).',
    sample(ctx) {
      const d = data(ctx);
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const row = ctx.rng.int(0, d.rowCount - 1);
        const address = d.cell('address', row);
        const city = d.cell('city', row);
        if (!canFilterEquals(address) || !canFilterEquals(city)) continue;
        if (d.rows(['address', 'city'], [address, city]).length !== 1) continue;
        const area = boxArea(d, row);
        if (area === null) continue;
        const category = randomCategory(d, ctx.rng, area.rows);
        if (category === null || !d.containmentIsMembership(area.rows, category)) continue;
        const candidates = area.rows.filter((r) => d.hasCategory(r, category));
        if (!fitsRows(d, ['name', 'stars'], candidates)) continue;
        const answer = soleName(d, topRows(d, candidates, 'stars'));
        if (answer === null) continue;
        return { slots: { category, address, city }, gold: answer };
      }
      return null;
    },
    *solve({ category, address, city }) {
      const bounds = yield* boxAround(`address=${address}, city=${city}`);
      yield load;
      filteredRows(
        yield filterDb(`${boxConditions(bounds, 'latitude', 'longitude')}, categories=${category}`),
      );
      const cols = getValueColumns(yield getValue('name, stars'));
      const code = `names = ${pyStrList(cols.name ?? [])}\nstars = ${pyFloatList(cols.stars ?? [])}\nprint(names[stars.index(max(stars))])`;
      return printed(yield python(code));
    },
  }),
  defineTemplate<CitySlots>({
    id: 'yelp-hard-H18',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H18',
    question: 'How many businesses in {city}, {state} have closed for good?',
    goldRule: 'The number of businesses of the city and state with is_open = 0.',
    sample(ctx) {
      const d = data(ctx);
      const picked = pickCity(d, ctx.rng);
      if (picked === null) return null;
      const closed = (r: number) => d.cell('is_open', r) === '0';
      const count = picked.rows.filter(closed).length;
      // FilterDB cannot report zero rows.
      if (count === 0 || d.otherSpellings(picked.city, picked.state).some(closed)) return null;
      return { slots: { city: picked.city, state: picked.state }, gold: int(count) };
    },
    *solve({ city, state }) {
      yield load;
      return filteredRows(yield filterDb(`city=${city}, state=${state}, is_open=0`));
    },
  }),
  cityCategoryTemplate({
    label: 'H19',
    question:
      'What is the average star rating (rounded to 2 decimals) of the businesses listed under {category} in {city}, {state}?',
    goldRule: 'round(mean stars, 2) over the category’s businesses in the city and state.',
    gold: (d, rows) => float(pyRound(mean(rows.map((r) => d.num('stars', r))), 2)),
    columns: ['stars'],
    variables: ['stars'],
    code: 'print(round(sum(stars) / len(stars), 2))',
  }),
  defineTemplate<CitySlots>({
    id: 'yelp-hard-H20',
    dataset: 'yelp',
    difficulty: 'hard',
    label: 'H20',
    question: 'Which postal code has the most businesses in {city}, {state}?',
    goldRule: 'The most frequent postal code among the city’s businesses (ties are not asked).',
    sample(ctx) {
      const d = data(ctx);
      const picked = pickCity(d, ctx.rng);
      if (picked === null || d.otherSpellings(picked.city, picked.state).length > 0) return null;
      if (!fitsRows(d, ['postal_code'], picked.rows)) return null;
      const counts = new Map<string, number>();
      for (const code of cellsOf(d, 'postal_code', picked.rows))
        counts.set(code, (counts.get(code) ?? 0) + 1);
      const best = Math.max(...counts.values());
      const modes = [...counts].filter(([, n]) => n === best).map(([code]) => code);
      const mode = modes[0] as string;
      if (modes.length !== 1 || !canFilterEquals(mode) || !printsUnchanged(mode)) return null;
      return { slots: { city: picked.city, state: picked.state }, gold: mode };
    },
    *solve({ city, state }) {
      yield load;
      filteredRows(yield filterDb(`city=${city}, state=${state}`));
      const codes = getValueColumn(yield getValue('postal_code'), 'postal_code');
      return printed(yield python(`codes = ${pyStrList(codes)}\nprint(max(set(codes), key=codes.count))`));
    },
  }),
];

export const YELP_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
