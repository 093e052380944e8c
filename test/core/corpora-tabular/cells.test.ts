import { describe, expect, it } from 'vitest';
import { pyFloatRepr } from '../../../core/util/python-format.ts';
import { Rng } from '../../../core/util/random.ts';
import {
  boolCell,
  dayNumber,
  fixedDecimalCell,
  floatCell,
  intFloatCell,
  isoDateOfDay,
  isoWeekday,
  withThousands,
} from '../../../core/world/corpora/cells.ts';
import { WeightedPicker } from '../../../core/world/corpora/sampling.ts';

describe('cell renderers (pandas astype(str) forms)', () => {
  it('renders floats, integer-valued floats, nan and bools like Python', () => {
    expect(floatCell(2031)).toBe('2031.0');
    expect(floatCell(0.08)).toBe('0.08');
    expect(floatCell(Number.NaN)).toBe('nan');
    expect(intFloatCell(2031)).toBe('2031.0');
    expect(intFloatCell(-27)).toBe('-27.0');
    expect(intFloatCell(0)).toBe('0.0');
    expect(intFloatCell(-0)).toBe('0.0');
    expect(intFloatCell(123456)).toBe('123456.0');
    expect(intFloatCell(Number.NaN)).toBe('nan');
    expect(boolCell(true)).toBe('True');
    expect(boolCell(false)).toBe('False');
  });

  it('fixedDecimalCell equals repr() of the rounded float', () => {
    const r = new Rng('fixed');
    for (let i = 0; i < 20_000; i++) {
      const d = r.int(1, 10);
      const v = (r.next() - 0.5) * 2 * 10 ** r.int(-3, 4);
      const f = 10 ** d;
      expect(fixedDecimalCell(v, d)).toBe(pyFloatRepr(Math.round(v * f) / f));
    }
    expect(fixedDecimalCell(-73.855352, 5)).toBe('-73.85535');
    expect(fixedDecimalCell(40.8, 5)).toBe('40.8');
    expect(fixedDecimalCell(0.004, 2)).toBe('0.0');
    expect(fixedDecimalCell(Number.NaN, 2)).toBe('nan');
  });

  it('formats thousands and calendar days', () => {
    expect(withThousands(1083)).toBe('1,083');
    expect(withThousands(966)).toBe('966');
    expect(withThousands(1234567)).toBe('1,234,567');
    expect(isoDateOfDay(dayNumber(2022, 1, 1))).toBe('2022-01-01');
    expect(isoWeekday(dayNumber(2022, 1, 1))).toBe(6); // Saturday
    expect(isoWeekday(dayNumber(2022, 5, 16))).toBe(1); // Monday
  });
});

describe('WeightedPicker', () => {
  it('draws in proportion to the weights and never picks zero-weight items', () => {
    const p = new WeightedPicker(['a', 'b', 'c', 'z'], [1, 2, 7, 0]);
    const r = new Rng('picker');
    const counts = { a: 0, b: 0, c: 0, z: 0 };
    for (let i = 0; i < 50_000; i++) counts[p.pick(r) as keyof typeof counts]++;
    expect(counts.z).toBe(0);
    expect(counts.a / 50_000).toBeCloseTo(0.1, 1);
    expect(counts.b / 50_000).toBeCloseTo(0.2, 1);
    expect(counts.c / 50_000).toBeCloseTo(0.7, 1);
  });
});
