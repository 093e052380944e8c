import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { pythonStr } from '../../../core/world/answer-match.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import { GSM8K_TEMPLATES } from '../../../core/world/tasks/templates/gsm8k.ts';
import {
  type Gold,
  patternSlots,
  renderQuestion,
  type Slots,
  type TaskTemplate,
} from '../../../core/world/tasks/types.ts';
import type { World } from '../../../core/world/types.ts';

/** gsm8k has no corpus: the question carries every number. */
const world = { config: { seed: 'gsm8k', scale: 1 }, tables: {} } as unknown as World;

function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

function distinctDraws(t: TaskTemplate, n: number, seed = 'draws'): { slots: Slots; gold: Gold }[] {
  const rng = new Rng(`${seed}/${t.id}`);
  const seen = new Map<string, { slots: Slots; gold: Gold }>();
  for (let i = 0; i < n * 25 + 100 && seen.size < n; i++) {
    const s = t.sample({ rng, world });
    if (s) {
      const q = renderQuestion(t.question, s.slots);
      if (!seen.has(q)) seen.set(q, s);
    }
  }
  return [...seen.values()];
}

describe('gsm8k-style problems', () => {
  it('are at least 15 easy problem kinds, labelled E1… in order, with distinct patterns', () => {
    expect(GSM8K_TEMPLATES.length).toBeGreaterThanOrEqual(15);
    GSM8K_TEMPLATES.forEach((t, i) => {
      expect(t.id).toBe(`gsm8k-easy-E${i + 1}`);
      expect(t.dataset).toBe('gsm8k');
      expect(t.difficulty).toBe('easy');
    });
    expect(new Set(GSM8K_TEMPLATES.map((t) => t.question)).size).toBe(GSM8K_TEMPLATES.length);
  });

  it('gold is a positive Python float with at most two decimals (EM renders `147.0`)', () => {
    for (const t of GSM8K_TEMPLATES) {
      for (const { gold } of distinctDraws(t, 40)) {
        expect(gold, t.id).toMatchObject({ type: 'float' });
        const value = (gold as { value: number }).value;
        expect(value, t.id).toBeGreaterThan(0);
        expect(Math.abs(Math.round(value * 100) - value * 100), `${t.id} ${value}`).toBeLessThan(1e-6);
      }
    }
    expect(pythonStr({ type: 'float', value: 147 })).toBe('147.0');
  });

  it('every slot of a draw appears in the question and money is written with a dollar sign', () => {
    for (const t of GSM8K_TEMPLATES) {
      for (const { slots } of distinctDraws(t, 5)) {
        expect(Object.keys(slots).sort(), t.id).toEqual([...new Set(patternSlots(t.question))].sort());
        for (const [k, v] of Object.entries(slots)) {
          if (typeof v === 'string' && v.startsWith('$'))
            expect(v, `${t.id} ${k}`).toMatch(/^\$\d+(\.\d\d)?$/);
        }
      }
    }
  });

  it('gold follows each kind’s rule (recomputed from the question’s numbers)', () => {
    const m = (v: unknown) => Number(String(v).replace('$', ''));
    const n = (v: unknown) => Number(v);
    const fractions: Record<string, number> = {
      half: 1 / 2,
      'a third': 1 / 3,
      'a quarter': 1 / 4,
      'two thirds': 2 / 3,
      'three quarters': 3 / 4,
      'a fifth': 1 / 5,
    };
    const rules: Record<string, (s: Slots) => number> = {
      E1: (s) => m(s.bill) - n(s.n1) * m(s.p1) - n(s.n2) * m(s.p2),
      E2: (s) => (n(s.copies) * n(s.pages)) / n(s.rate),
      E3: (s) => m(s.price) * (1 - n(s.discount) / 100) * (1 + n(s.tax) / 100),
      E4: (s) => n(s.age) + n(s.k) * n(s.age) + 2 * n(s.years),
      E5: (s) => Math.floor(n(s.total) / n(s.size)) * m(s.price),
      E6: (s) => (n(s.s1) * n(s.h1) + n(s.s2) * n(s.h2)) / (n(s.h1) + n(s.h2)),
      E7: (s) => (n(s.cups) * n(s.m)) / n(s.n),
      E8: (s) => 40 * m(s.wage) + 1.5 * m(s.wage) * (n(s.hours) - 40),
      E9: (s) => n(s.n) * (1 - (fractions[String(s.fraction)] as number)) - n(s.k),
      E10: (s) => 2 * (n(s.length) + n(s.width)) * m(s.price),
      E11: (s) => Math.ceil((n(s.length) * n(s.width)) / n(s.area)) * m(s.price),
      E12: (s) => Math.ceil((m(s.cost) - m(s.have)) / m(s.weekly)),
      E13: (s) => n(s.adults) * m(s.adultPrice) + n(s.children) * m(s.childPrice) - m(s.cost),
      E14: (s) => 4 * n(s.avg) - n(s.s1) - n(s.s2) - n(s.s3),
      E15: (s) => n(s.gallons) / (n(s.fill) - n(s.leak)),
      E16: (s) => (25 * n(s.quarters) + 10 * n(s.dimes) + 5 * n(s.nickels)) / 100,
      E17: (s) => (n(s.students) * n(s.percent)) / 100 - n(s.glasses),
      E18: (s) => (n(s.pizzas) * n(s.slices)) / n(s.friends),
    };
    expect(Object.keys(rules)).toEqual(GSM8K_TEMPLATES.map((t) => t.label));
    for (const t of GSM8K_TEMPLATES) {
      for (const { slots, gold } of distinctDraws(t, 30)) {
        const expected = (rules[t.label] as (s: Slots) => number)(slots);
        expect((gold as { value: number }).value, `${t.id} ${JSON.stringify(slots)}`).toBeCloseTo(
          expected,
          9,
        );
      }
    }
  });

  it('every template yields 35 distinct questions (test 10 + dev 5 + train 20)', () => {
    for (const t of GSM8K_TEMPLATES) expect(distinctDraws(t, 35).length, t.id).toBe(35);
  });

  it('questions match their own pattern and no other template’s', () => {
    const regexes = GSM8K_TEMPLATES.map((t) => patternRegex(t.question));
    GSM8K_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(t, 10)) {
        const q = renderQuestion(t.question, d.slots);
        expect(
          regexes.map((r) => r.test(q)),
          q,
        ).toEqual(regexes.map((_, j) => j === i));
      }
    });
  });

  it('sampling is deterministic', () => {
    for (const t of GSM8K_TEMPLATES) expect(distinctDraws(t, 5)).toEqual(distinctDraws(t, 5));
  });

  it.each(['alpha', 'beta'])(
    'the PythonInterpreter plan reaches gold (draws %s)',
    async (seed) => {
      for (const t of GSM8K_TEMPLATES) {
        for (const d of distinctDraws(t, 8, seed)) {
          const run = await runReferencePlan(world, t, d.slots, d.gold);
          expect(run.steps.map((s) => s.tool)).toEqual(['PythonInterpreter', 'Finish']);
          expect(run.correct, `${renderQuestion(t.question, d.slots)} → ${String(run.answer)}`).toBe(true);
        }
      }
    },
    120_000,
  );
});
