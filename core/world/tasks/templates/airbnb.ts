/**
 * Airbnb templates (spec §7.5 easy E1–E10, §7.6 hard H11–H20): tooldrift's wording, the original's slots, plans
 * and gold rules. Easy questions name one listing (by NAME and neighbourhood for E1, by id otherwise); hard
 * questions aggregate the listings of a neighbourhood or of an area around a listing or a point.
 *
 * Deliberate differences from ToolQA-D:
 * - EVO fixes adopted: prices are compared as numbers (`$1,083 ` → 1083), E4 drops the price cell's trailing
 *   space (`$479`), H11/H13 answers are `$` + one decimal without a space (`$42450.0`), H16 is the numeric
 *   maximum as `$` + integer (`$1152`), H18 and H20 pick the numerically cheapest listing, and H20 lists tied
 *   listings joined by `; `, sorted by code point (draws where that order differs from case-blind alphabetical
 *   order are resampled, so "alphabetical" in the question has one meaning).
 * - H14 uses the EVO gold rule: the box whose sides are 5 km (not miles) north, south, east and west of the
 *   listing along the WGS-84 ellipsoid (geodesic.ts; the plan computes it with the math module only, the
 *   original imported geopy); the question says 5 km and describes the box. Listings without a review rate
 *   number are left out of the average (the original's mean would be nan), and the question says "rated".
 * - Wording follows the computation: H14 asks for the review rate number; H17 says "4 or more" (the original said
 *   "higher than 4" but counted ≥ 4); H18 asks for any listing (the original said "hotel room" but searched all
 *   room types); H19 asks for the private room with the most reviews per month among hosts with at least 2
 *   listings (the original said "highest review rate … can host at least 2 people" but ranked by reviews per
 *   month and filtered on calculated host listings count ≥ 2, which the plan applies numerically in Python
 *   because FilterDB would compare `10.0` < `2` as strings); H20 states the 0.13-degree radius it computes (the
 *   original said "10 miles").
 * - Counts, averages and shares over a neighbourhood (H12, H13, H15, H17) and the H14 box never include a
 *   listing that appears twice in the table (the corpus, like the original, has exact duplicate rows), so "how
 *   many listings" and "the average over the listings" have one reading.
 * - Missing values are not asked about: E2/E5/E6/E8/E9/E10 listings whose cell is `nan` (the original's E8 gold
 *   was the string `NaN`), availability outside 0–365 and non-positive minimum stays, H11 listings without a
 *   price, fee or minimum stay. H13/H16/H18/H20 skip listings without a price, H17 does not count listings
 *   without a rating, H19 considers only listings with reviews.
 * - Ties are resampled where the answer is one listing's name (H18, H19); neighbourhood questions that would
 *   read a single row (H13, H15–H19) are not asked.
 * - Bounded observations: neighbourhoods and areas whose GetValue result would exceed the 1,024-token
 *   observation limit are not asked. A price cell is two tokens (`"$1,083` `",`), a rating one, a NAME several,
 *   so at scale 1 this keeps neighbourhoods up to about 500 listings for H13/H16, 1,000 for H17, fewer for
 *   H18/H19 (names), and H14 boxes up to 1,000 listings (the less dense parts of the city). NAMEs that FilterDB
 *   cannot match (containing `, ` or an operator character) are not used in NAME filters (E1, H11, H14).
 */
import { pyFloatRepr, pyFormatFixed, pyRound, pyStrRepr } from '../../../util/python-format.ts';
import type { Rng } from '../../../util/random.ts';
import { pyStrCompare } from '../../kernel/python-text.ts';
import type { Table } from '../../table.ts';
import { mean, TableIndex } from '../data.ts';
import {
  type CellValue,
  filteredRows,
  getValueColumn,
  getValueColumns,
  pyFloatList,
  pyStrList,
} from '../observations.ts';
import { defineTemplate, type Gold, type SampleContext, type Solver, type TaskTemplate } from '../types.ts';
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

/** The H14 box reaches this far from the listing in each direction (metres). */
export const BOX_DISTANCE = 5000;
/** H20's radius in degrees (Euclidean in latitude/longitude, as the original computed), and its square. */
export const H20_RADIUS = 0.13;
const H20_RADIUS_SQ = 0.0169;
/** The area H20 draws its centre from (the original's bounds). */
export const H20_LON_RANGE = [-74.2589, -73.7004] as const;
export const H20_LAT_RANGE = [40.4774, 40.9176] as const;
/** Random listings tried per H14 draw (most 5 km boxes in a dense city hold too many listings to read). */
const H14_ATTEMPTS = 60;

type AirbnbColumn =
  | 'id'
  | 'NAME'
  | 'host name'
  | 'neighbourhood'
  | 'lat'
  | 'long'
  | 'cancellation_policy'
  | 'room type'
  | 'Construction year'
  | 'price'
  | 'service fee'
  | 'minimum nights'
  | 'number of reviews'
  | 'last review'
  | 'reviews per month'
  | 'review rate number'
  | 'calculated host listings count'
  | 'availability 365';

const load = loadDb('airbnb');
const isNan = (cell: string) => cell === 'nan';

/** `$1,083 ` → 1083; `nan` → NaN. */
export function parsePrice(cell: string): number {
  return isNan(cell) ? Number.NaN : Number(cell.replace(/[$,]/g, '').trim());
}

/** Python that turns a price string `p` into a float, as the plans write it. */
const PY_PRICE = "float(p.replace('$', '').replace(',', ''))";

// ---------------------------------------------------------------------------------------------------------
// Reading the table for gold answers.

/** Lazily materialised columns and row groups of one airbnb table (gold computation only). */
export class AirbnbIndex extends TableIndex<AirbnbColumn> {
  private idRows?: Map<string, number[]>;
  private hoodRows?: Map<string, number[]>;
  private listingRows?: Map<string, number[]>;
  private readonly spatialIndexes = new Map<string, LatitudeIndex>();
  readonly boxes = new Map<number, BoxArea | null>();

  /** Whether the row's listing appears more than once in the table. */
  duplicated(row: number): boolean {
    if (!this.idRows) this.idRows = groupRows(this.col('id'));
    return (this.idRows.get(this.cell('id', row))?.length ?? 0) > 1;
  }

  /** Rows of each neighbourhood, in row order; the map's keys are in first-appearance order. */
  hoods(): Map<string, number[]> {
    if (!this.hoodRows) this.hoodRows = groupRows(this.col('neighbourhood'));
    return this.hoodRows;
  }

  hood(name: string): number[] {
    return this.hoods().get(name) ?? [];
  }

  /** Rows with the same NAME and neighbourhood as `row` (the listing and any duplicate copies of it). */
  sameListing(row: number): number[] {
    if (!this.listingRows) {
      const names = this.col('NAME');
      const hoods = this.col('neighbourhood');
      this.listingRows = groupRows(names.map((n, i) => `${n}\u0000${hoods[i]}`));
    }
    return this.listingRows.get(`${this.cell('NAME', row)}\u0000${this.cell('neighbourhood', row)}`) ?? [];
  }

  /** All rows, or only the Shared room ones, by latitude. */
  spatial(sharedOnly = false): LatitudeIndex {
    const key = sharedOnly ? 'shared' : 'all';
    let index = this.spatialIndexes.get(key);
    if (!index) {
      const lats = this.col('lat').map(Number.parseFloat);
      const lons = this.col('long').map(Number.parseFloat);
      const rows = sharedOnly
        ? this.col('room type').flatMap((t, i) => (t === 'Shared room' ? [i] : []))
        : undefined;
      index = new LatitudeIndex(lats, lons, rows);
      this.spatialIndexes.set(key, index);
    }
    return index;
  }
}

function groupRows(values: readonly string[]): Map<string, number[]> {
  const g = new Map<string, number[]>();
  values.forEach((v, i) => {
    const rows = g.get(v);
    if (rows) rows.push(i);
    else g.set(v, [i]);
  });
  return g;
}

const indexes = new WeakMap<Table, AirbnbIndex>();
export function airbnbIndex(table: Table): AirbnbIndex {
  let d = indexes.get(table);
  if (!d) {
    d = new AirbnbIndex(table);
    indexes.set(table, d);
  }
  return d;
}
const data = (ctx: SampleContext) => airbnbIndex(ctx.world.tables.airbnb);

/** A NAME a question can name a listing by (and, with `filterable`, that FilterDB can look up). */
function usableName(name: string, filterable: boolean): boolean {
  if (isNan(name) || name.trim() !== name || name.length === 0) return false;
  return !filterable || canFilterEquals(name);
}

/** The cells of `rows` in one column. */
const cellsOf = (d: AirbnbIndex, column: AirbnbColumn, rows: readonly number[]) =>
  rows.map((r) => d.cell(column, r));

/** Whether GetValue over these columns of `rows` fits in one observation. */
const fitsRows = (d: AirbnbIndex, columns: readonly AirbnbColumn[], rows: readonly number[]) =>
  // Every cell is at least one token: skip rendering hopelessly large groups.
  rows.length * columns.length < OBSERVATION_TOKEN_LIMIT &&
  getValueFits(columns.map((c) => [c, cellsOf(d, c, rows)] as const));

/** Distinct values in first-appearance order. */
const distinct = <T>(xs: readonly T[]) => [...new Set(xs)];

/** A random neighbourhood (uniform over the names), or null if it does not satisfy `ok`. */
function pickHood(d: AirbnbIndex, rng: Rng, ok: (rows: number[]) => boolean): string | null {
  const names = [...d.hoods().keys()];
  const name = rng.pick(names);
  return ok(d.hood(name)) ? name : null;
}

/** A neighbourhood none of whose listings appears twice in the table. */
const withoutDuplicates = (d: AirbnbIndex, rows: readonly number[]) => rows.every((r) => !d.duplicated(r));

// ---------------------------------------------------------------------------------------------------------
// Easy: one listing.

type NameHoodSlots = { name: string; neighbourhood: string };
type NameIdSlots = { name: string; id: string };
type ListingSlots = { name: string; id: string; neighbourhood: string };

interface ListingSpec {
  label: string;
  question: string;
  goldRule: string;
  column: AirbnbColumn;
  /** The answer from the listing's cell (gold and plan alike); null when the cell cannot make a question. */
  answer(cell: string): string | null;
}

/** A float cell's integer part, when it is a whole number within [min, max]. */
function wholeNumber(
  cell: string,
  min = Number.NEGATIVE_INFINITY,
  max = Number.POSITIVE_INFINITY,
): string | null {
  const x = Number.parseFloat(cell);
  if (!Number.isInteger(x) || x < min || x > max) return null;
  return String(x);
}

const present = (cell: string) => (isNan(cell) ? null : cell);

/** Listings asked by id: the question shows NAME and id (and the neighbourhood unless `withHood` is false). */
function byIdTemplate(spec: ListingSpec, withHood = true): TaskTemplate {
  return defineTemplate<ListingSlots | NameIdSlots>({
    id: `airbnb-easy-${spec.label}`,
    dataset: 'airbnb',
    difficulty: 'easy',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const name = d.cell('NAME', row);
      if (!usableName(name, false)) return null;
      const gold = spec.answer(d.cell(spec.column, row));
      if (gold === null) return null;
      const id = d.cell('id', row);
      const slots = withHood ? { name, id, neighbourhood: d.cell('neighbourhood', row) } : { name, id };
      return { slots, gold };
    },
    *solve({ id }): Solver {
      yield load;
      filteredRows(yield filterDb(`id=${id}`));
      // A listing that appears twice gives two identical cells.
      const cell = String(getValueColumn(yield getValue(spec.column), spec.column)[0]);
      return spec.answer(cell);
    },
  });
}

const easy: TaskTemplate[] = [
  defineTemplate<NameHoodSlots>({
    id: 'airbnb-easy-E1',
    dataset: 'airbnb',
    difficulty: 'easy',
    label: 'E1',
    question: 'Who is the host of the Airbnb listing {name} in {neighbourhood}?',
    goldRule: 'The host name of the listing with that NAME in that neighbourhood.',
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const name = d.cell('NAME', row);
      const host = d.cell('host name', row);
      if (!usableName(name, true) || isNan(host)) return null;
      if (distinct(cellsOf(d, 'id', d.sameListing(row))).length !== 1) return null;
      return { slots: { name, neighbourhood: d.cell('neighbourhood', row) }, gold: host };
    },
    *solve({ name, neighbourhood }) {
      yield load;
      filteredRows(yield filterDb(`NAME=${name}, neighbourhood=${neighbourhood}`));
      return String(getValueColumn(yield getValue('host name'), 'host name')[0]);
    },
  }),
  byIdTemplate(
    {
      label: 'E2',
      question: 'On how many days of the year is the Airbnb listing {name} (id {id}) available?',
      goldRule:
        'availability 365 as an integer (listings with a missing value or one outside 0–365 are not asked).',
      column: 'availability 365',
      answer: (c) => wholeNumber(c, 0, 365),
    },
    false,
  ),
  byIdTemplate({
    label: 'E3',
    question: 'What type of room does the Airbnb listing {name} (id {id}) in {neighbourhood} offer?',
    goldRule: 'The room type of the listing.',
    column: 'room type',
    answer: present,
  }),
  byIdTemplate({
    label: 'E4',
    question: 'What is the nightly price of the Airbnb listing {name} (id {id}) in {neighbourhood}?',
    goldRule: 'The price cell without its trailing space (`$1,083`); listings without a price are not asked.',
    column: 'price',
    answer: (c) => (isNan(c) ? null : c.trim()),
  }),
  byIdTemplate({
    label: 'E5',
    question:
      'How many nights must a stay at the Airbnb listing {name} (id {id}) in {neighbourhood} last at least?',
    goldRule: 'minimum nights as an integer (missing or non-positive values are not asked).',
    column: 'minimum nights',
    answer: (c) => wholeNumber(c, 1),
  }),
  byIdTemplate({
    label: 'E6',
    question:
      'In which year was the building of the Airbnb listing {name} (id {id}) in {neighbourhood} constructed?',
    goldRule: 'Construction year as an integer (missing values are not asked).',
    column: 'Construction year',
    answer: (c) => wholeNumber(c),
  }),
  byIdTemplate({
    label: 'E7',
    question: 'How many reviews has the Airbnb listing {name} (id {id}) in {neighbourhood} received?',
    goldRule: 'number of reviews as an integer.',
    column: 'number of reviews',
    answer: (c) => wholeNumber(c, 0),
  }),
  byIdTemplate({
    label: 'E8',
    question:
      'On what date (M/D/YYYY) was the Airbnb listing {name} (id {id}) in {neighbourhood} last reviewed?',
    goldRule: 'The last review date as stored (`7/4/2019`); listings without reviews are not asked.',
    column: 'last review',
    answer: present,
  }),
  byIdTemplate({
    label: 'E9',
    question: 'What review rate number does the Airbnb listing {name} (id {id}) in {neighbourhood} have?',
    goldRule: 'review rate number as stored (`4.0`); listings without one are not asked.',
    column: 'review rate number',
    answer: present,
  }),
  byIdTemplate({
    label: 'E10',
    question:
      'On average, how many reviews per month does the Airbnb listing {name} (id {id}) in {neighbourhood} get?',
    goldRule: 'reviews per month as stored (`0.08`); listings without reviews are not asked.',
    column: 'reviews per month',
    answer: present,
  }),
];

// ---------------------------------------------------------------------------------------------------------
// Hard.

type HoodSlots = { neighbourhood: string };
type StaySlots = { name: string; neighbourhood: string; nights: number };
type PointSlots = { lon: string; lat: string };

const dollars1 = (x: number) => `$${pyFormatFixed(x, 1)}`;

/** A hard template over one neighbourhood: the plan filters it, reads `columns` and runs Python on them. */
interface HoodSpec {
  label: string;
  question: string;
  goldRule: string;
  /** Extra FilterDB sub-conditions after the neighbourhood. */
  conditions?: string;
  /** Gold from the rows the plan reads (the neighbourhood's rows passing `conditions`); null to resample. */
  gold(d: AirbnbIndex, rows: number[]): Gold | null;
  /** Whether every listing of the neighbourhood must appear once (counts and averages). */
  distinctListings?: boolean;
  columns: AirbnbColumn[];
  /** Python variable per column. */
  variables: string[];
  /** Code computing the answer from the variables. */
  code: string;
  /** Which rows of the neighbourhood the plan's FilterDB keeps. */
  keep?(d: AirbnbIndex, row: number): boolean;
}

function hoodTemplate(spec: HoodSpec): TaskTemplate {
  return defineTemplate<HoodSlots>({
    id: `airbnb-hard-${spec.label}`,
    dataset: 'airbnb',
    difficulty: 'hard',
    label: spec.label,
    question: spec.question,
    goldRule: spec.goldRule,
    sample(ctx) {
      const d = data(ctx);
      let kept: number[] = [];
      const neighbourhood = pickHood(d, ctx.rng, (rows) => {
        if (spec.distinctListings && !withoutDuplicates(d, rows)) return false;
        kept = spec.keep ? rows.filter((r) => spec.keep?.(d, r)) : rows;
        return kept.length >= 2 && fitsRows(d, spec.columns, kept);
      });
      if (neighbourhood === null) return null;
      const gold = spec.gold(d, kept);
      return gold === null ? null : { slots: { neighbourhood }, gold };
    },
    *solve({ neighbourhood }): Solver {
      yield load;
      filteredRows(
        yield filterDb(`neighbourhood=${neighbourhood}${spec.conditions ? `, ${spec.conditions}` : ''}`),
      );
      const obs = yield getValue(spec.columns.join(', '));
      const bindings = spec.columns.map(
        (c, i) => `${spec.variables[i]} = ${pyLiteral(c, getValueColumn(obs, c))}`,
      );
      return printed(yield python(`${bindings.join('\n')}\n${spec.code}`));
    },
  });
}

/** Text columns become Python string lists; numeric ones float lists (`nan` → float('nan')). */
function pyLiteral(column: AirbnbColumn, values: readonly CellValue[]): string {
  const text: readonly AirbnbColumn[] = ['NAME', 'price', 'service fee', 'room type', 'neighbourhood'];
  return text.includes(column) ? pyStrList(values) : pyFloatList(values);
}

/** Prices of the rows that have one. */
const pricesOf = (d: AirbnbIndex, rows: readonly number[]) =>
  rows.map((r) => parsePrice(d.cell('price', r))).filter((p) => !Number.isNaN(p));

/** The only distinct NAME among `rows`, if there is exactly one and it is a real name. */
function soleName(d: AirbnbIndex, rows: readonly number[]): string | null {
  const names = distinct(cellsOf(d, 'NAME', rows));
  const name = names[0] as string;
  return names.length === 1 && usableName(name, false) && printsUnchanged(name) ? name : null;
}

const hard: TaskTemplate[] = [
  defineTemplate<StaySlots>({
    id: 'airbnb-hard-H11',
    dataset: 'airbnb',
    difficulty: 'hard',
    label: 'H11',
    question:
      'What is the least a stay of {nights} nights at the Airbnb listing {name} in {neighbourhood} can cost in total, paying the nightly price plus the service fee for every night booked and booking at least the minimum stay?',
    goldRule:
      '(price + service fee) × max(nights, minimum nights), as `$` and one decimal (`$42450.0`); listings with a missing price, fee or minimum stay are not asked.',
    sample(ctx) {
      const d = data(ctx);
      const row = ctx.rng.int(0, d.rowCount - 1);
      const nights = ctx.rng.int(1, 20);
      const name = d.cell('NAME', row);
      if (!usableName(name, true) || distinct(cellsOf(d, 'id', d.sameListing(row))).length !== 1) return null;
      const price = parsePrice(d.cell('price', row));
      const fee = parsePrice(d.cell('service fee', row));
      const minimum = d.num('minimum nights', row);
      if (Number.isNaN(price) || Number.isNaN(fee) || !(minimum >= 1)) return null;
      return {
        slots: { name, neighbourhood: d.cell('neighbourhood', row), nights },
        gold: dollars1((price + fee) * Math.max(nights, minimum)),
      };
    },
    *solve({ name, neighbourhood, nights }) {
      yield load;
      filteredRows(yield filterDb(`NAME=${name}, neighbourhood=${neighbourhood}`));
      const cols = getValueColumns(yield getValue('price, service fee, minimum nights'));
      const price = String(cols.price?.[0]);
      const fee = String(cols['service fee']?.[0]);
      const minimum = String(cols['minimum nights']?.[0]);
      const out = yield python(
        [
          `price = ${pyStrRepr(price)}`,
          `fee = ${pyStrRepr(fee)}`,
          `minimum = ${minimum}`,
          `nights = ${nights}`,
          "p = float(price.replace('$', '').replace(',', ''))",
          "f = float(fee.replace('$', '').replace(',', ''))",
          `print(f'\${(p + f) * max(nights, minimum):.1f}')`,
        ].join('\n'),
      );
      return printed(out);
    },
  }),
  defineTemplate<HoodSlots>({
    id: 'airbnb-hard-H12',
    dataset: 'airbnb',
    difficulty: 'hard',
    label: 'H12',
    question: 'How many Airbnb listings are there in {neighbourhood}?',
    goldRule:
      'The number of rows of the neighbourhood (neighbourhoods with a duplicated listing are not asked).',
    sample(ctx) {
      const d = data(ctx);
      let count = 0;
      const neighbourhood = pickHood(d, ctx.rng, (rows) => {
        count = rows.length;
        return withoutDuplicates(d, rows);
      });
      return neighbourhood === null ? null : { slots: { neighbourhood }, gold: String(count) };
    },
    *solve({ neighbourhood }) {
      yield load;
      return String(filteredRows(yield filterDb(`neighbourhood=${neighbourhood}`)));
    },
  }),
  hoodTemplate({
    label: 'H13',
    question: 'What is the average nightly price of the Airbnb listings in {neighbourhood}?',
    goldRule: 'Mean numeric price over the listings that have one, as `$` and one decimal (`$627.0`).',
    distinctListings: true,
    gold: (d, rows) => {
      const prices = pricesOf(d, rows);
      return prices.length === 0 ? null : dollars1(mean(prices));
    },
    columns: ['price'],
    variables: ['prices'],
    code: `xs = [${PY_PRICE} for p in prices if p != 'nan']\nprint(f'\${sum(xs) / len(xs):.1f}')`,
  }),
  defineTemplate<NameHoodSlots>({
    id: 'airbnb-hard-H14',
    dataset: 'airbnb',
    difficulty: 'hard',
    label: 'H14',
    question:
      'What is the average review rate number of the rated Airbnb listings inside the box that reaches 5 km north, south, east and west of {name} in {neighbourhood}?',
    goldRule:
      'Mean review rate number, rounded to 2 decimals, over the listings with a rating whose lat/long lie in the box bounded by the points 5 km north, south, east and west of the listing (WGS-84 geodesic).',
    sample(ctx) {
      const d = data(ctx);
      for (let attempt = 0; attempt < H14_ATTEMPTS; attempt++) {
        const row = ctx.rng.int(0, d.rowCount - 1);
        const name = d.cell('NAME', row);
        if (!usableName(name, true) || d.duplicated(row)) continue;
        const area = boxArea(d, row);
        if (area === null) continue;
        const rates = area.rows.map((r) => d.num('review rate number', r)).filter((x) => !Number.isNaN(x));
        if (rates.length === 0) continue;
        return {
          slots: { name, neighbourhood: d.cell('neighbourhood', row) },
          gold: pyFloatRepr(pyRound(mean(rates), 2)),
        };
      }
      return null;
    },
    *solve({ name, neighbourhood }) {
      yield load;
      filteredRows(yield filterDb(`NAME=${name}, neighbourhood=${neighbourhood}`));
      const at = getValueColumns(yield getValue('lat, long'));
      const bounds = parseBoxOutput(
        printed(yield python(geodesicBoxPython(String(at.lat?.[0]), String(at.long?.[0]), BOX_DISTANCE))),
      );
      yield load;
      filteredRows(yield filterDb(boxConditions(bounds, 'lat', 'long')));
      const rates = getValueColumn(yield getValue('review rate number'), 'review rate number');
      const out = yield python(
        `rates = ${pyFloatList(rates)}\nrated = [r for r in rates if r == r]\nprint(round(sum(rated) / len(rated), 2))`,
      );
      return printed(out);
    },
  }),
  defineTemplate<HoodSlots>({
    id: 'airbnb-hard-H15',
    dataset: 'airbnb',
    difficulty: 'hard',
    label: 'H15',
    question:
      'What fraction of the Airbnb listings in {neighbourhood} have a flexible cancellation policy (rounded to 2 decimals)?',
    goldRule: 'round(flexible listings / all listings, 2) as Python prints it (`0.31`, `0.3`).',
    sample(ctx) {
      const d = data(ctx);
      let share: number | null = null;
      const neighbourhood = pickHood(d, ctx.rng, (rows) => {
        if (rows.length < 2 || !withoutDuplicates(d, rows)) return false;
        const flexible = rows.filter((r) => d.cell('cancellation_policy', r) === 'flexible').length;
        share = flexible / rows.length;
        // FilterDB cannot report zero rows, so the plan needs at least one flexible listing to count.
        return flexible > 0;
      });
      if (neighbourhood === null || share === null) return null;
      return { slots: { neighbourhood }, gold: pyFloatRepr(pyRound(share, 2)) };
    },
    *solve({ neighbourhood }) {
      yield load;
      const n = filteredRows(yield filterDb(`neighbourhood=${neighbourhood}`));
      const k = filteredRows(yield filterDb('cancellation_policy=flexible'));
      return printed(yield python(`k = ${k}\nn = ${n}\nprint(round(k / n, 2))`));
    },
  }),
  hoodTemplate({
    label: 'H16',
    question: 'What is the highest nightly price of an entire home/apt listed on Airbnb in {neighbourhood}?',
    goldRule:
      'The largest numeric price among the neighbourhood’s Entire home/apt listings, as `$` + integer (`$1152`).',
    conditions: 'room type=Entire home/apt',
    keep: (d, r) => d.cell('room type', r) === 'Entire home/apt',
    gold: (d, rows) => {
      const prices = pricesOf(d, rows);
      return prices.length === 0 ? null : `$${Math.max(...prices)}`;
    },
    columns: ['price'],
    variables: ['prices'],
    code: `print('$' + str(int(max(${PY_PRICE} for p in prices if p != 'nan'))))`,
  }),
  hoodTemplate({
    label: 'H17',
    question: 'How many Airbnb listings in {neighbourhood} have a review rate number of 4 or more?',
    goldRule: 'The number of the neighbourhood’s listings whose review rate number is ≥ 4.',
    distinctListings: true,
    gold: (d, rows) => String(rows.filter((r) => d.num('review rate number', r) >= 4).length),
    columns: ['review rate number'],
    variables: ['rates'],
    code: 'print(sum(1 for r in rates if r >= 4))',
  }),
  hoodTemplate({
    label: 'H18',
    question: 'Which Airbnb listing in {neighbourhood} has the lowest nightly price?',
    goldRule:
      'The NAME of the listing with the smallest numeric price (neighbourhoods where different listings tie are not asked).',
    gold: (d, rows) => {
      const priced = rows.filter((r) => !Number.isNaN(parsePrice(d.cell('price', r))));
      if (priced.length === 0) return null;
      const best = Math.min(...priced.map((r) => parsePrice(d.cell('price', r))));
      return soleName(
        d,
        priced.filter((r) => parsePrice(d.cell('price', r)) === best),
      );
    },
    columns: ['NAME', 'price'],
    variables: ['names', 'prices'],
    code: `cheapest = [(${PY_PRICE}, n) for n, p in zip(names, prices) if p != 'nan']\nprint(min(cheapest)[1])`,
  }),
  hoodTemplate({
    label: 'H19',
    question:
      'Which private room in {neighbourhood}, offered by a host with at least 2 listings, gets the most reviews per month?',
    goldRule:
      'Among the neighbourhood’s Private room listings whose calculated host listings count is ≥ 2 and that have reviews, the NAME with the highest reviews per month (ties between listings are not asked).',
    conditions: 'room type=Private room',
    keep: (d, r) => d.cell('room type', r) === 'Private room',
    gold: (d, rows) => {
      const eligible = rows.filter(
        (r) =>
          d.num('calculated host listings count', r) >= 2 && !Number.isNaN(d.num('reviews per month', r)),
      );
      if (eligible.length === 0) return null;
      const best = Math.max(...eligible.map((r) => d.num('reviews per month', r)));
      return soleName(
        d,
        eligible.filter((r) => d.num('reviews per month', r) === best),
      );
    },
    columns: ['NAME', 'reviews per month', 'calculated host listings count'],
    variables: ['names', 'per_month', 'host_listings'],
    code: 'eligible = [(r, n) for n, r, h in zip(names, per_month, host_listings) if h >= 2 and r == r]\nprint(max(eligible)[1])',
  }),
  defineTemplate<PointSlots>({
    id: 'airbnb-hard-H20',
    dataset: 'airbnb',
    difficulty: 'hard',
    label: 'H20',
    question:
      "Which shared room within 0.13 degrees (straight-line distance in degrees) of longitude {lon}, latitude {lat} has the lowest nightly price on Airbnb? If several tie, give all their names in alphabetical order joined by '; '.",
    goldRule:
      'Among Shared room listings with (long − lon)² + (lat − lat₀)² ≤ 0.0169 and a price, the NAMEs with the smallest numeric price, distinct, sorted by code point, joined by `; `.',
    sample(ctx) {
      const d = data(ctx);
      const lon = ctx.rng.float(H20_LON_RANGE[0], H20_LON_RANGE[1]);
      const lat = ctx.rng.float(H20_LAT_RANGE[0], H20_LAT_RANGE[1]);
      const gold = cheapestSharedRoom(d, lon, lat);
      return gold === null ? null : { slots: { lon: pyFloatRepr(lon), lat: pyFloatRepr(lat) }, gold };
    },
    *solve({ lon, lat }) {
      const bounds = parseBoxOutput(
        printed(
          yield python(
            `lat0 = ${lat}\nlon0 = ${lon}\nprint(lat0 - ${H20_RADIUS}, lat0 + ${H20_RADIUS}, lon0 - ${H20_RADIUS}, lon0 + ${H20_RADIUS})`,
          ),
        ),
      );
      yield load;
      filteredRows(yield filterDb(`room type=Shared room, ${boxConditions(bounds, 'lat', 'long')}`));
      const cols = getValueColumns(yield getValue('NAME, price, lat, long'));
      const code = [
        `names = ${pyStrList(cols.NAME ?? [])}`,
        `prices = ${pyStrList(cols.price ?? [])}`,
        `lats = ${pyFloatList(cols.lat ?? [])}`,
        `longs = ${pyFloatList(cols.long ?? [])}`,
        `lat0 = ${lat}`,
        `lon0 = ${lon}`,
        `near = [(${PY_PRICE}, n) for n, p, la, lo in zip(names, prices, lats, longs) if p != 'nan' and (lo - lon0) * (lo - lon0) + (la - lat0) * (la - lat0) <= ${H20_RADIUS_SQ}]`,
        'best = min(c for c, n in near)',
        "print('; '.join(sorted(set(n for c, n in near if c == best))))",
      ].join('\n');
      return printed(yield python(code));
    },
  }),
];

// ---------------------------------------------------------------------------------------------------------
// Areas.

/** The H14 area around a listing: its box and the rows inside it. */
export interface BoxArea {
  box: Box;
  rows: number[];
}

/**
 * The 5 km box around a listing and the rows inside, or null when the question cannot be asked: a row lies on
 * a bound, a listing inside appears twice, or the review rate numbers would not fit in one observation.
 */
export function boxArea(d: AirbnbIndex, row: number): BoxArea | null {
  const cached = d.boxes.get(row);
  if (cached !== undefined) return cached;
  const box = geodesicBox(d.num('lat', row), d.num('long', row), BOX_DISTANCE);
  const rows = d.spatial().inside(box, OBSERVATION_TOKEN_LIMIT);
  const area =
    rows !== null && !rows.some((r) => d.duplicated(r)) && fitsRows(d, ['review rate number'], rows)
      ? { box, rows }
      : null;
  d.boxes.set(row, area);
  return area;
}

/** H20's gold for a centre, or null when the question cannot be asked. */
export function cheapestSharedRoom(d: AirbnbIndex, lon: number, lat: number): string | null {
  const box: Box = {
    latMin: lat - H20_RADIUS,
    latMax: lat + H20_RADIUS,
    lonMin: lon - H20_RADIUS,
    lonMax: lon + H20_RADIUS,
  };
  const inside = d.spatial(true).inside(box, OBSERVATION_TOKEN_LIMIT);
  if (inside === null) return null;
  if (inside.length === 0 || !fitsRows(d, ['NAME', 'price', 'lat', 'long'], inside)) return null;
  const near: [number, string][] = [];
  for (const r of inside) {
    const la = d.num('lat', r);
    const lo = d.num('long', r);
    const d2 = (lo - lon) * (lo - lon) + (la - lat) * (la - lat);
    if (Math.abs(d2 - H20_RADIUS_SQ) < 1e-12) return null;
    const price = parsePrice(d.cell('price', r));
    if (d2 <= H20_RADIUS_SQ && !Number.isNaN(price)) near.push([price, d.cell('NAME', r)]);
  }
  if (near.length === 0) return null;
  const best = Math.min(...near.map(([p]) => p));
  const names = distinct(near.filter(([p]) => p === best).map(([, n]) => n)).sort(pyStrCompare);
  // "Alphabetical" must mean one order: code-point order (Python's sorted) and case-blind order agree.
  const caseBlind = [...names].sort(
    (a, b) => pyStrCompare(a.toLowerCase(), b.toLowerCase()) || pyStrCompare(a, b),
  );
  if (caseBlind.some((n, i) => n !== names[i])) return null;
  const answer = names.join('; ');
  // PythonInterpreter cuts outputs longer than 500 characters.
  if (!names.every((n) => usableName(n, false)) || !printsUnchanged(answer) || answer.length > 400)
    return null;
  return answer;
}

export const AIRBNB_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
