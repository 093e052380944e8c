import { beforeAll, describe, expect, it } from 'vitest';
import { pyFloatRepr } from '../../../core/util/python-format.ts';
import { Rng } from '../../../core/util/random.ts';
import { AIRBNB_LISTINGS_PER_SCALE, generateAirbnb } from '../../../core/world/corpora/airbnb.ts';
import { NYC_NEIGHBOURHOODS } from '../../../core/world/corpora/vocab/nyc-neighbourhoods.ts';
import type { Table } from '../../../core/world/table.ts';
import { columnValues, countBy, tableHash } from './table-helpers.ts';

const SPEC_COLUMNS = [
  'id',
  'NAME',
  'host id',
  'host_identity_verified',
  'host name',
  'neighbourhood group',
  'neighbourhood',
  'lat',
  'long',
  'country',
  'country code',
  'instant_bookable',
  'cancellation_policy',
  'room type',
  'Construction year',
  'price',
  'service fee',
  'minimum nights',
  'number of reviews',
  'last review',
  'reviews per month',
  'review rate number',
  'calculated host listings count',
  'availability 365',
  'house_rules',
  'license',
];

let t: Table;
let col: Record<string, string[]>;
/** Rows before the appended duplicate copies. */
let distinct: number;

beforeAll(() => {
  t = generateAirbnb(new Rng('airbnb-test'), 1);
  col = Object.fromEntries(SPEC_COLUMNS.map((c) => [c, columnValues(t, c)]));
  distinct = AIRBNB_LISTINGS_PER_SCALE;
});

describe('airbnb: schema, size and determinism', () => {
  it('has the 26 LoadDB columns (with spaces) in spec order', () => {
    expect(t.columnNames()).toEqual(SPEC_COLUMNS);
    expect(t.columns.find((c) => c.name === 'lat')?.sqlType).toBe('REAL');
    expect(t.columns.find((c) => c.name === 'price')?.sqlType).toBe('TEXT');
  });

  it('is identical for the same seed and differs for another seed', () => {
    expect(tableHash(generateAirbnb(new Rng('airbnb-test'), 1))).toBe(tableHash(t));
    expect(tableHash(generateAirbnb(new Rng('airbnb-test-2'), 1))).not.toBe(tableHash(t));
  });

  it('has 10,000 listings per unit of scale plus ~0.5% duplicate rows (0.1 and 4 work)', () => {
    expect(t.rowCount).toBe(distinct + 50);
    expect(generateAirbnb(new Rng('s'), 0.1).rowCount).toBe(1000 + 5);
    expect(generateAirbnb(new Rng('s'), 4).rowCount).toBe(40_000 + 200);
  });
});

describe('airbnb: rendering', () => {
  it('writes prices as "$1,083 " with a trailing space and a 20% service fee', () => {
    const price = col.price as string[];
    const fee = col['service fee'] as string[];
    const money = /^\$\d{1,3}(,\d{3})* $/;
    const parse = (s: string): number => Number(s.replace(/[$, ]/g, ''));
    let checked = 0;
    for (let i = 0; i < t.rowCount; i++) {
      const p = price[i] as string;
      const f = fee[i] as string;
      if (p !== 'nan') expect(p).toMatch(money);
      if (f !== 'nan') expect(f).toMatch(money);
      if (p !== 'nan' && f !== 'nan') {
        expect(parse(f)).toBe(Math.round(parse(p) * 0.2));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0.99 * t.rowCount);
    const values = price.filter((p) => p !== 'nan').map(parse);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...values)).toBeLessThanOrEqual(1200);
    expect(values.filter((v) => v >= 1000).length).toBeGreaterThan(0.1 * values.length);
    expect(price.some((p) => /^\$1,\d{3} $/.test(p))).toBe(true);
  });

  it('renders numbers as Python floats/ints and missing values as nan', () => {
    const floatCols = [
      'lat',
      'long',
      'Construction year',
      'minimum nights',
      'number of reviews',
      'reviews per month',
      'review rate number',
      'calculated host listings count',
      'availability 365',
    ];
    for (const c of floatCols) {
      const bad = t.column(c).values.filter((v) => v !== 'nan' && pyFloatRepr(Number(v)) !== v);
      expect(bad, c).toEqual([]);
    }
    expect(t.column('id').values.every((v) => /^[1-9]\d*$/.test(v))).toBe(true);
    expect(t.column('host id').values.every((v) => /^[1-9]\d{8,10}$/.test(v))).toBe(true);
    expect(new Set(t.column('review rate number').values)).toEqual(
      new Set(['1.0', '2.0', '3.0', '4.0', '5.0', 'nan']),
    );
    expect(new Set(t.column('instant_bookable').values)).toEqual(new Set(['True', 'False', 'nan']));
    expect(new Set(t.column('host_identity_verified').values)).toEqual(
      new Set(['verified', 'unconfirmed', 'nan']),
    );
    expect(new Set(t.column('country code').values)).toEqual(new Set(['US', 'nan']));
    expect(
      t
        .column('last review')
        .values.every((v) => v === 'nan' || /^\d{1,2}\/\d{1,2}\/20(1[2-9]|2[0-2])$/.test(v)),
    ).toBe(true);
    expect((col.license as string[]).filter((v) => v !== 'nan').length).toBeLessThan(10);
  });

  it('keeps coordinates in New York with at most 5 decimals', () => {
    for (const [c, lo, hi] of [
      ['lat', 40.5, 40.92],
      ['long', -74.25, -73.7],
    ] as const) {
      const xs = t.column(c).values.map(Number);
      expect(Math.min(...xs)).toBeGreaterThanOrEqual(lo);
      expect(Math.max(...xs)).toBeLessThanOrEqual(hi);
      expect(t.column(c).values.every((v) => /^-?\d+\.\d{1,5}$/.test(v))).toBe(true);
    }
  });
});

describe('airbnb: realistic distributions', () => {
  it('has the real room-type mix', () => {
    const rooms = countBy(col['room type'] as string[]);
    const share = (k: string): number => (rooms.get(k) ?? 0) / t.rowCount;
    expect(share('Entire home/apt')).toBeGreaterThan(0.49);
    expect(share('Entire home/apt')).toBeLessThan(0.55);
    expect(share('Private room')).toBeGreaterThan(0.42);
    expect(share('Private room')).toBeLessThan(0.48);
    expect(share('Shared room')).toBeGreaterThan(0.012);
    expect(share('Shared room')).toBeLessThan(0.035);
    expect(share('Hotel room')).toBeGreaterThan(0);
    expect(share('Hotel room')).toBeLessThan(0.005);
    expect(rooms.size).toBe(4);
  });

  it('places listings in real neighbourhoods of the right borough, busiest in Brooklyn and Manhattan', () => {
    const boroughOf = new Map(NYC_NEIGHBOURHOODS.map((n) => [n.name, n.borough as string]));
    const hood = col.neighbourhood as string[];
    const group = col['neighbourhood group'] as string[];
    const misfiled = hood.filter(
      (h, i) => boroughOf.get(h) !== group[i] && !['nan', 'brookln', 'manhatan'].includes(group[i] as string),
    );
    expect(misfiled).toEqual([]);
    const allowed = new Set([
      'Manhattan',
      'Brooklyn',
      'Queens',
      'Bronx',
      'Staten Island',
      'nan',
      'brookln',
      'manhatan',
    ]);
    expect([...new Set(group)].filter((g) => !allowed.has(g))).toEqual([]);
    const counts = countBy(hood);
    expect(counts.size).toBeGreaterThan(150);
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([h]) => h);
    expect(
      top.filter((h) =>
        [
          'Bedford-Stuyvesant',
          'Williamsburg',
          'Harlem',
          'Bushwick',
          "Hell's Kitchen",
          'Upper West Side',
          'Upper East Side',
          'Midtown',
          'East Village',
          'Chelsea',
          'Crown Heights',
        ].includes(h),
      ).length,
    ).toBeGreaterThanOrEqual(4);
    const cancellation = countBy(col.cancellation_policy as string[]);
    for (const p of ['strict', 'moderate', 'flexible']) {
      expect((cancellation.get(p) ?? 0) / t.rowCount).toBeGreaterThan(0.28);
    }
  });

  it('keeps review columns consistent with each other', () => {
    for (let i = 0; i < t.rowCount; i++) {
      const none = col['number of reviews']?.[i] === '0.0';
      if (
        (col['last review']?.[i] === 'nan') !== none ||
        (col['reviews per month']?.[i] === 'nan') !== none
      ) {
        throw new Error(`row ${i}: ${t.row(i).join(' | ')}`);
      }
    }
    const zero = (col['number of reviews'] as string[]).filter((v) => v === '0.0').length / t.rowCount;
    expect(zero).toBeGreaterThan(0.12);
    expect(zero).toBeLessThan(0.22);
  });

  it('counts each host’s listings in calculated host listings count', () => {
    const hostIds = (col['host id'] as string[]).slice(0, distinct);
    const perHost = countBy(hostIds);
    const counts = col['calculated host listings count'] as string[];
    for (let i = 0; i < distinct; i++) {
      if (counts[i] !== 'nan' && Number(counts[i]) !== perHost.get(hostIds[i] as string)) {
        throw new Error(`row ${i}: count ${counts[i]} but host has ${perHost.get(hostIds[i] as string)}`);
      }
    }
    expect(Math.max(...perHost.values())).toBeGreaterThan(20);
    expect([...perHost.values()].filter((n) => n === 1).length / perHost.size).toBeGreaterThan(0.6);
  });
});

describe('airbnb: invariants the question templates rely on', () => {
  it('lists distinct listings in ascending id order, then exact copies of earlier rows', () => {
    const ids = (col.id as string[]).map(Number);
    for (let i = 1; i < distinct; i++)
      if (!((ids[i] as number) > (ids[i - 1] as number))) throw new Error(`id order at ${i}`);
    expect(ids[0]).toBeGreaterThanOrEqual(1_001_254);
    expect(ids[distinct - 1]).toBeLessThanOrEqual(57_367_417);
    const rowById = new Map<string, string>();
    for (let i = 0; i < distinct; i++) rowById.set(col.id?.[i] as string, t.row(i).join('\u0001'));
    for (let i = distinct; i < t.rowCount; i++)
      expect(t.row(i).join('\u0001')).toBe(rowById.get(col.id?.[i] as string));
  });

  it('makes NAME + neighbourhood unique among distinct listings, and few NAMEs unusable in FilterDB', () => {
    const keys = new Set<string>();
    let named = 0;
    for (let i = 0; i < distinct; i++) {
      const name = col.NAME?.[i] as string;
      if (name === 'nan') continue;
      named++;
      keys.add(`${name}\u0000${col.neighbourhood?.[i]}`);
    }
    expect(keys.size).toBe(named);
    expect(named).toBeGreaterThan(0.99 * distinct);
    const withComma = (col.NAME as string[]).filter((n) => n.includes(', ')).length / t.rowCount;
    expect(withComma).toBeGreaterThan(0.01);
    expect(withComma).toBeLessThan(0.07);
    for (const c of ['neighbourhood', 'neighbourhood group', 'room type', 'cancellation_policy']) {
      expect(
        (col[c] as string[]).some((v) => v.includes(', ')),
        c,
      ).toBe(false);
    }
    // Some names repeat across neighbourhoods (generic titles), like the real data.
    expect(new Set(col.NAME).size).toBeLessThan(distinct);
  });

  it('has private rooms with multi-listing hosts and shared rooms to recommend', () => {
    const rooms = col['room type'] as string[];
    const hostCount = col['calculated host listings count'] as string[];
    const multi = rooms.filter((r, i) => r === 'Private room' && Number(hostCount[i]) >= 2).length;
    expect(multi).toBeGreaterThan(500);
    expect(rooms.filter((r) => r === 'Shared room').length).toBeGreaterThan(100);
  });
});
