import { beforeAll, describe, expect, it } from 'vitest';
import { PyDict, pyFloatRepr, pyRepr } from '../../../core/util/python-format.ts';
import { Rng } from '../../../core/util/random.ts';
import { CHAINS } from '../../../core/world/corpora/vocab/yelp-categories.ts';
import { generateYelp } from '../../../core/world/corpora/yelp.ts';
import type { Table } from '../../../core/world/table.ts';
import { columnValues, countBy, median, parsePyDict, tableHash } from './table-helpers.ts';

const SPEC_COLUMNS = [
  'business_id',
  'name',
  'address',
  'city',
  'state',
  'postal_code',
  'latitude',
  'longitude',
  'stars',
  'review_count',
  'is_open',
  'attributes',
  'categories',
  'hours',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

let t: Table;
let col: Record<string, string[]>;

beforeAll(() => {
  t = generateYelp(new Rng('yelp-test'), 1);
  col = Object.fromEntries(SPEC_COLUMNS.map((c) => [c, columnValues(t, c)]));
});

describe('yelp: schema, size and determinism', () => {
  it('has the LoadDB columns in spec order', () => {
    expect(t.columnNames()).toEqual(SPEC_COLUMNS);
    expect(t.columns.find((c) => c.name === 'latitude')?.sqlType).toBe('REAL');
    expect(t.columns.find((c) => c.name === 'review_count')?.sqlType).toBe('INTEGER');
  });

  it('is identical for the same seed and differs for another seed', () => {
    expect(tableHash(generateYelp(new Rng('yelp-test'), 1))).toBe(tableHash(t));
    expect(tableHash(generateYelp(new Rng('yelp-test-2'), 1))).not.toBe(tableHash(t));
  });

  it('has 10,000 businesses per unit of scale (0.1 and 4 work)', () => {
    expect(t.rowCount).toBe(10_000);
    expect(generateYelp(new Rng('s'), 0.1).rowCount).toBe(1000);
    expect(generateYelp(new Rng('s'), 4).rowCount).toBe(40_000);
  });
});

describe('yelp: rendering', () => {
  it('gives every business a unique 22-character URL-safe id', () => {
    const ids = col.business_id as string[];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^[A-Za-z0-9_-]{22}$/.test(id))).toBe(true);
  });

  it('renders stars in half steps, int review counts and is_open flags', () => {
    expect(new Set(col.stars)).toEqual(
      new Set(['1.0', '1.5', '2.0', '2.5', '3.0', '3.5', '4.0', '4.5', '5.0']),
    );
    const reviews = (col.review_count as string[]).map(Number);
    expect((col.review_count as string[]).every((v) => /^\d+$/.test(v))).toBe(true);
    expect(Math.min(...reviews)).toBeGreaterThanOrEqual(5);
    expect(median(reviews)).toBeGreaterThanOrEqual(10);
    expect(median(reviews)).toBeLessThanOrEqual(25);
    expect(Math.max(...reviews)).toBeGreaterThan(300);
    expect(new Set(col.is_open)).toEqual(new Set(['0', '1']));
    const open = (col.is_open as string[]).filter((v) => v === '1').length / t.rowCount;
    expect(open).toBeGreaterThan(0.76);
    expect(open).toBeLessThan(0.84);
  });

  it('renders coordinates as Python floats near the metro areas', () => {
    for (const c of ['latitude', 'longitude']) {
      expect(
        t.column(c).values.filter((v) => pyFloatRepr(Number(v)) !== v),
        c,
      ).toEqual([]);
    }
    const lat = (col.latitude as string[]).map(Number);
    const lon = (col.longitude as string[]).map(Number);
    expect(Math.min(...lat)).toBeGreaterThan(27);
    expect(Math.max(...lat)).toBeLessThan(54.5);
    expect(Math.min(...lon)).toBeGreaterThan(-121);
    expect(Math.max(...lon)).toBeLessThan(-74);
    expect((col.latitude as string[]).some((v) => /\.\d{10}$/.test(v))).toBe(true);
  });

  it('writes attributes and hours as Python dict reprs (or None)', () => {
    let appointmentTrue = 0;
    let appointmentFalse = 0;
    for (const text of t.column('attributes').values) {
      if (text === 'None') continue;
      const entries = parsePyDict(text);
      expect(pyRepr(new PyDict(entries))).toBe(text);
      for (const [k, v] of entries) {
        expect(typeof v).toBe('string');
        if (k === 'ByAppointmentOnly') v === 'True' ? appointmentTrue++ : appointmentFalse++;
      }
    }
    expect(appointmentTrue).toBeGreaterThan(0.03 * t.rowCount);
    expect(appointmentFalse).toBeGreaterThan(0.01 * t.rowCount);
    const attrs = col.attributes as string[];
    expect(attrs.some((a) => a.includes(`'WiFi': "u'free'"`))).toBe(true);
    expect(attrs.some((a) => a.includes(`'BusinessParking': "{'garage': `))).toBe(true);
    const noneShare = attrs.filter((a) => a === 'None').length / t.rowCount;
    expect(noneShare).toBeGreaterThan(0.05);
    expect(noneShare).toBeLessThan(0.15);

    for (const text of t.column('hours').values) {
      if (text === 'None') continue;
      const entries = parsePyDict(text);
      expect(pyRepr(new PyDict(entries))).toBe(text);
      const days = entries.map(([d]) => d);
      expect(days).toEqual(WEEKDAYS.filter((d) => days.includes(d)));
      for (const [, v] of entries)
        expect(v).toMatch(/^([1-9]|1\d|2[0-3]|0):(0|15|30|45)-([1-9]|1\d|2[0-3]|0):(0|15|30|45)$/);
    }
    const hours = col.hours as string[];
    expect(hours.some((h) => h.includes("'Monday': '0:0-0:0'"))).toBe(true);
    expect(hours.some((h) => /'\d+:0-\d+:30'/.test(h))).toBe(true);
  });

  it('joins categories with ", " and uses a large category vocabulary', () => {
    const names = new Set<string>();
    for (const c of col.categories as string[]) {
      if (c === 'None') continue;
      const parts = c.split(', ');
      expect(parts.every((p) => p.length > 0 && !p.includes(','))).toBe(true);
      expect(new Set(parts).size).toBe(parts.length);
      for (const p of parts) names.add(p);
    }
    expect(names.size).toBeGreaterThan(500);
    expect(names.has('American (Traditional)')).toBe(true);
    expect((col.categories as string[]).filter((c) => c === 'None').length).toBeLessThan(0.005 * t.rowCount);
  });

  it('uses US ZIP codes and Canadian postal codes, 2-letter states', () => {
    const bad = (col.postal_code as string[]).filter((p, i) =>
      col.state?.[i] === 'AB' ? !/^([A-Z]\d[A-Z] \d[A-Z]\d)?$/.test(p) : !/^(\d{5})?$/.test(p),
    );
    expect(bad).toEqual([]);
    expect((col.postal_code as string[]).some((p) => p.startsWith('0'))).toBe(true);
    const states = countBy(col.state as string[]);
    expect([...states.keys()].sort()).toEqual([
      'AB',
      'AZ',
      'CA',
      'DE',
      'FL',
      'ID',
      'IL',
      'IN',
      'LA',
      'MO',
      'NJ',
      'NV',
      'PA',
      'TN',
    ]);
    expect([...states.entries()].sort((a, b) => b[1] - a[1])[0]?.[0]).toBe('PA');
  });
});

describe('yelp: invariants the question templates rely on', () => {
  it('keeps FilterDB values free of ", "', () => {
    for (const c of ['name', 'city', 'state', 'postal_code']) {
      expect(
        (col[c] as string[]).filter((v) => v.includes(', ')),
        c,
      ).toEqual([]);
    }
  });

  it('repeats chain names but keeps local business names (nearly) unique', () => {
    const chains = new Set(CHAINS.map((c) => c.name));
    const names = countBy(col.name as string[]);
    expect(names.get('Starbucks') ?? 0).toBeGreaterThan(20);
    const repeatedLocal = [...names.entries()].filter(([n, k]) => k > 1 && !chains.has(n));
    expect(repeatedLocal.length).toBeLessThan(0.01 * t.rowCount);
    // Most names identify one business, so name-based lookups have plenty of candidates.
    expect([...names.values()].filter((k) => k === 1).length).toBeGreaterThan(0.8 * t.rowCount);
  });

  it('has cities with many businesses and a few spelling variants', () => {
    const cities = countBy(col.city as string[]);
    expect(cities.size).toBeGreaterThan(200);
    expect(cities.get('Philadelphia') ?? 0).toBeGreaterThan(1000);
    expect(cities.has('Saint Louis') && cities.has('St. Louis')).toBe(true);
    // Each city name belongs to one state except genuinely shared names (Franklin TN/IN, O'Fallon MO/IL, …).
    const statesOf = new Map<string, Set<string>>();
    (col.city as string[]).forEach((c, i) => {
      const s = statesOf.get(c) ?? new Set<string>();
      statesOf.set(c, s);
      s.add(col.state?.[i] as string);
    });
    expect([...statesOf.values()].filter((s) => s.size > 1).length).toBeLessThan(12);
  });
});
