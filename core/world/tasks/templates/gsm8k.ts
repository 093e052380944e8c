/**
 * A GSM8K-style arithmetic set (spec §7.15, easy only): grade-school word problems of several steps, generated
 * from tooldrift's own problem kinds with seeded names, items and numbers. There is no corpus: the question holds
 * every number. Gold is the answer as a Python float (`{type: 'float'}`, so EM renders `147.0`); the plan is one
 * PythonInterpreter call that computes it from the question's numbers, then Finish with the printed value.
 *
 * Every kind draws its numbers so that the answer is exact (whole units, or whole cents for money; divisions come
 * out even or are asked as whole boxes/weeks) and unambiguous; the drawing redraws until that holds.
 *
 * Deliberate differences from ToolQA-D: the original used 100 real GSM8K test questions (those ChatGPT got wrong);
 * these are generated problems of the same kind, one template per problem kind.
 */

import type { Rng } from '../../../util/random.ts';
import { FIRST_NAMES } from '../../corpora/vocab/people-names.ts';
import type { Slots, TaskTemplate } from '../types.ts';

/** Money from whole cents as a question writes it: `$12` or `$12.50`. */
function money(cents: number): string {
  return `$${cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2)}`;
}

/** The number of a money slot, as the plan's Python writes it (`$12.50` → `12.50`). */
function amount(slot: string): string {
  return slot.replace('$', '');
}

interface Problem<S extends Slots> {
  label: string;
  question: string;
  goldRule: string;
  /** Draws the slots and the exact answer; null to redraw. */
  draw(rng: Rng): { slots: S; answer: number } | null;
  /** The Python the plan runs: computes the answer from the question's numbers and prints it. */
  code(slots: S): string;
}

/** Redraws per sample before giving up (every kind succeeds within a few draws). */
const DRAWS = 50;

function problem<S extends Slots>(p: Problem<S>): TaskTemplate<S> {
  return {
    id: `gsm8k-easy-${p.label}`,
    dataset: 'gsm8k',
    difficulty: 'easy',
    label: p.label,
    question: p.question,
    goldRule: p.goldRule,
    sample({ rng }) {
      for (let i = 0; i < DRAWS; i++) {
        const d = p.draw(rng);
        if (d) return { slots: d.slots, gold: { type: 'float', value: d.answer } };
      }
      return null;
    },
    *solve(slots) {
      const out = yield { tool: 'PythonInterpreter', args: { Python: p.code(slots) } };
      return out.trim();
    },
  };
}

const name = (rng: Rng) => rng.pick(FIRST_NAMES);
/** A multiple of `step` in [lo, hi]. */
const steps = (rng: Rng, lo: number, hi: number, step: number) =>
  rng.int(Math.ceil(lo / step), Math.floor(hi / step)) * step;

const SUPPLIES = ['notebooks', 'pens', 'pencils', 'erasers', 'folders', 'rulers', 'markers', 'glue sticks'];
const PRODUCTS = [
  'jacket',
  'backpack',
  'desk lamp',
  'bicycle helmet',
  'pair of boots',
  'coffee maker',
  'toaster',
];
const FRUITS = ['apples', 'peaches', 'oranges', 'pears', 'plums', 'lemons'];
const BAKED = ['cookies', 'muffins', 'pancakes', 'brownies', 'biscuits', 'scones'];
const WISHES = ['bicycle', 'guitar', 'video game console', 'skateboard', 'tablet', 'telescope'];
const FRACTIONS: readonly { text: string; num: number; den: number }[] = [
  { text: 'half', num: 1, den: 2 },
  { text: 'a third', num: 1, den: 3 },
  { text: 'a quarter', num: 1, den: 4 },
  { text: 'two thirds', num: 2, den: 3 },
  { text: 'three quarters', num: 3, den: 4 },
  { text: 'a fifth', num: 1, den: 5 },
];

type ChangeSlots = {
  name: string;
  n1: number;
  item1: string;
  p1: string;
  n2: number;
  item2: string;
  p2: string;
  bill: string;
};
type PrinterSlots = { rate: number; copies: number; pages: number };
type SaleSlots = { product: string; price: string; discount: number; tax: number };
type AgeSlots = { name: string; age: number; name2: string; k: number; years: number };
type BoxSlots = { total: number; fruit: string; size: number; price: string };
type SpeedSlots = { s1: number; h1: number; s2: number; h2: number };
type RecipeSlots = { n: number; baked: string; cups: string; m: number };
type OvertimeSlots = { wage: string; hours: number };
type StickerSlots = { name: string; n: number; fraction: string; k: number };
type FenceSlots = { length: number; width: number; price: string };
type TileSlots = { length: number; width: number; area: number; price: string };
type SavingSlots = { name: string; thing: string; cost: string; have: string; weekly: string };
type PlaySlots = { adults: number; adultPrice: string; children: number; childPrice: string; cost: string };
type TestSlots = { name: string; s1: number; s2: number; s3: number; avg: number };
type TankSlots = { gallons: number; fill: number; leak: number };
type CoinSlots = { quarters: number; dimes: number; nickels: number };
type ClassSlots = { students: number; percent: number; glasses: number };
type PizzaSlots = { friends: number; pizzas: number; slices: number };

/** Whether x (a rational given as numerator/denominator) has at most two decimals. */
const twoDecimals = (numerator: number, denominator: number) => (numerator * 100) % denominator === 0;

const PROBLEMS: TaskTemplate[] = [
  problem<ChangeSlots>({
    label: 'E1',
    question:
      '{name} buys {n1} {item1} for {p1} each and {n2} {item2} for {p2} each and pays with a {bill} bill. How much change does the cashier give back?',
    goldRule: 'bill − (n1 × p1 + n2 × p2).',
    draw(rng) {
      const [item1, item2] = rng.sample(SUPPLIES, 2) as [string, string];
      const n1 = rng.int(2, 9);
      const n2 = rng.int(2, 9);
      const p1 = steps(rng, 50, 600, 25);
      const p2 = steps(rng, 50, 600, 25);
      const total = n1 * p1 + n2 * p2;
      const bill = [2000, 5000, 10000].find((b) => b > total);
      if (bill === undefined) return null;
      return {
        slots: { name: name(rng), n1, item1, p1: money(p1), n2, item2, p2: money(p2), bill: money(bill) },
        answer: (bill - total) / 100,
      };
    },
    code: (s) =>
      `total = ${s.n1} * ${amount(s.p1)} + ${s.n2} * ${amount(s.p2)}\nprint(round(${amount(s.bill)} - total, 2))`,
  }),
  problem<PrinterSlots>({
    label: 'E2',
    question:
      'A printer prints {rate} pages per minute. How many minutes does it take to print {copies} copies of a {pages}-page report?',
    goldRule: 'copies × pages / rate (drawn to divide evenly).',
    draw(rng) {
      const copies = rng.int(5, 40);
      const pages = rng.int(4, 30);
      const rates: number[] = [];
      for (let r = 6; r <= 60; r++) if ((copies * pages) % r === 0) rates.push(r);
      if (rates.length === 0) return null;
      const rate = rng.pick(rates);
      return { slots: { rate, copies, pages }, answer: (copies * pages) / rate };
    },
    code: (s) => `print(${s.copies} * ${s.pages} / ${s.rate})`,
  }),
  problem<SaleSlots>({
    label: 'E3',
    question:
      'A {product} is priced at {price}. It is sold at {discount}% off, and a {tax}% sales tax is then charged on the discounted price. What is the final price in dollars?',
    goldRule: 'price × (1 − discount/100) × (1 + tax/100), a whole number of cents.',
    draw(rng) {
      const price = rng.int(20, 200);
      const discount = rng.pick([10, 15, 20, 25, 30, 40, 50]);
      const tax = rng.pick([5, 6, 8, 10]);
      // In cents: price·100 · (100 − d)/100 · (100 + t)/100.
      const scaled = price * (100 - discount) * (100 + tax);
      if (scaled % 100 !== 0) return null;
      return {
        slots: { product: rng.pick(PRODUCTS), price: money(price * 100), discount, tax },
        answer: scaled / 100 / 100,
      };
    },
    code: (s) =>
      `sale = ${amount(s.price)} * (1 - ${s.discount} / 100)\nprint(round(sale * (1 + ${s.tax} / 100), 2))`,
  }),
  problem<AgeSlots>({
    label: 'E4',
    question:
      '{name} is {age} years old, and {name2} is {k} times as old as that. What will their combined age be in {years} years?',
    goldRule: '(age + years) + (k × age + years).',
    draw(rng) {
      const [a, b] = rng.sample(FIRST_NAMES, 2) as [string, string];
      const age = rng.int(4, 15);
      const k = rng.int(2, 4);
      const years = rng.int(2, 10);
      return { slots: { name: a, age, name2: b, k, years }, answer: age + years + k * age + years };
    },
    code: (s) => `a = ${s.age}\nb = ${s.k} * a\nprint((a + ${s.years}) + (b + ${s.years}))`,
  }),
  problem<BoxSlots>({
    label: 'E5',
    question:
      'A farmer picks {total} {fruit} and packs them into boxes of {size}. Each full box sells for {price}, and leftover fruit is not sold. How much money do the full boxes bring in?',
    goldRule: '⌊total / size⌋ × price.',
    draw(rng) {
      const size = rng.int(6, 24);
      const total = rng.int(100, 999);
      if (total % size === 0) return null;
      const price = steps(rng, 300, 2000, 25);
      return {
        slots: { total, fruit: rng.pick(FRUITS), size, price: money(price) },
        answer: (Math.floor(total / size) * price) / 100,
      };
    },
    code: (s) => `boxes = ${s.total} // ${s.size}\nprint(round(boxes * ${amount(s.price)}, 2))`,
  }),
  problem<SpeedSlots>({
    label: 'E6',
    question:
      'A train travels at {s1} miles per hour for {h1} hours and then at {s2} miles per hour for {h2} hours. What is its average speed for the whole trip, in miles per hour?',
    goldRule: '(s1 × h1 + s2 × h2) / (h1 + h2), with at most two decimals.',
    draw(rng) {
      const s1 = steps(rng, 30, 90, 5);
      const s2 = steps(rng, 30, 90, 5);
      const h1 = rng.int(1, 5);
      const h2 = rng.int(1, 5);
      const distance = s1 * h1 + s2 * h2;
      if (s1 === s2 || !twoDecimals(distance, h1 + h2)) return null;
      return { slots: { s1, h1, s2, h2 }, answer: (distance * 100) / (h1 + h2) / 100 };
    },
    code: (s) =>
      `distance = ${s.s1} * ${s.h1} + ${s.s2} * ${s.h2}\nprint(round(distance / (${s.h1} + ${s.h2}), 2))`,
  }),
  problem<RecipeSlots>({
    label: 'E7',
    question:
      'A recipe that makes {n} {baked} uses {cups} cups of flour. How many cups of flour are needed for {m} of them?',
    goldRule: 'cups × m / n, with at most two decimals.',
    draw(rng) {
      const n = rng.pick([6, 8, 10, 12, 16, 20, 24]);
      const m = rng.pick([4, 6, 8, 10, 12, 18, 24, 30, 36, 40, 48, 60]);
      const halves = rng.int(2, 8);
      if (m === n || !twoDecimals(halves * m, 2 * n)) return null;
      return {
        slots: { n, baked: rng.pick(BAKED), cups: String(halves / 2), m },
        answer: (halves * m * 100) / (2 * n) / 100,
      };
    },
    code: (s) => `print(round(${s.cups} * ${s.m} / ${s.n}, 2))`,
  }),
  problem<OvertimeSlots>({
    label: 'E8',
    question:
      'A worker earns {wage} per hour for the first 40 hours of a week and one and a half times that rate for every hour beyond 40. How much does the worker earn in a week of {hours} hours?',
    goldRule: '40 × wage + 1.5 × wage × (hours − 40).',
    draw(rng) {
      const wage = steps(rng, 1000, 4000, 50);
      const hours = rng.int(41, 60);
      return {
        slots: { wage: money(wage), hours },
        answer: (40 * wage + (3 * wage * (hours - 40)) / 2) / 100,
      };
    },
    code: (s) => `rate = ${amount(s.wage)}\nprint(round(40 * rate + 1.5 * rate * (${s.hours} - 40), 2))`,
  }),
  problem<StickerSlots>({
    label: 'E9',
    question:
      '{name} had {n} stickers, gave {fraction} of them to a friend, and then lost {k} of the ones that were left. How many stickers are left now?',
    goldRule: 'n − n × fraction − k.',
    draw(rng) {
      const f = rng.pick(FRACTIONS);
      const n = f.den * rng.int(4, 30);
      const left = n - (n * f.num) / f.den;
      if (left < 3) return null;
      const k = rng.int(1, left - 1);
      return { slots: { name: name(rng), n, fraction: f.text, k }, answer: left - k };
    },
    code: (s) => {
      const f = FRACTIONS.find((x) => x.text === s.fraction) as (typeof FRACTIONS)[number];
      return `left = ${s.n} - ${s.n} * ${f.num} / ${f.den}\nprint(left - ${s.k})`;
    },
  }),
  problem<FenceSlots>({
    label: 'E10',
    question:
      'A rectangular garden is {length} feet long and {width} feet wide. Fencing costs {price} per foot. How much does it cost to fence the entire garden?',
    goldRule: '2 × (length + width) × price.',
    draw(rng) {
      const length = rng.int(10, 60);
      const width = rng.int(5, length);
      const price = steps(rng, 200, 1500, 25);
      return { slots: { length, width, price: money(price) }, answer: (2 * (length + width) * price) / 100 };
    },
    code: (s) => `print(round(2 * (${s.length} + ${s.width}) * ${amount(s.price)}, 2))`,
  }),
  problem<TileSlots>({
    label: 'E11',
    question:
      'A floor measures {length} feet by {width} feet. One box of tiles covers {area} square feet and costs {price}, and only whole boxes are sold. How much do the tiles for the whole floor cost?',
    goldRule: '⌈length × width / area⌉ × price.',
    draw(rng) {
      const length = rng.int(8, 30);
      const width = rng.int(6, 25);
      const area = rng.pick([8, 10, 12, 15, 16, 20, 24, 25]);
      const price = steps(rng, 1000, 6000, 50);
      return {
        slots: { length, width, area, price: money(price) },
        answer: (Math.ceil((length * width) / area) * price) / 100,
      };
    },
    code: (s) =>
      `boxes = (${s.length} * ${s.width} + ${s.area} - 1) // ${s.area}\nprint(round(boxes * ${amount(s.price)}, 2))`,
  }),
  problem<SavingSlots>({
    label: 'E12',
    question:
      '{name} wants a {thing} that costs {cost}, has already saved {have}, and puts aside {weekly} more every week. How many weeks will it take to have enough money?',
    goldRule: '⌈(cost − have) / weekly⌉.',
    draw(rng) {
      const cost = rng.int(80, 900);
      const have = rng.int(5, Math.floor(cost / 2));
      const weekly = rng.int(5, 40);
      return {
        slots: {
          name: name(rng),
          thing: rng.pick(WISHES),
          cost: money(cost * 100),
          have: money(have * 100),
          weekly: money(weekly * 100),
        },
        answer: Math.ceil((cost - have) / weekly),
      };
    },
    code: (s) =>
      `needed = ${amount(s.cost)} - ${amount(s.have)}\nprint((needed + ${amount(s.weekly)} - 1) // ${amount(s.weekly)})`,
  }),
  problem<PlaySlots>({
    label: 'E13',
    question:
      'A school play sold {adults} adult tickets at {adultPrice} each and {children} child tickets at {childPrice} each. Costumes and props cost {cost}. How much profit did the play make?',
    goldRule: 'adults × adult price + children × child price − cost (drawn positive).',
    draw(rng) {
      const adults = rng.int(40, 250);
      const children = rng.int(20, 200);
      const adultPrice = steps(rng, 500, 1500, 50);
      const childPrice = steps(rng, 200, adultPrice - 100, 50);
      const income = adults * adultPrice + children * childPrice;
      const cost = rng.int(100, Math.floor(income / 100) - 1);
      return {
        slots: {
          adults,
          adultPrice: money(adultPrice),
          children,
          childPrice: money(childPrice),
          cost: money(cost * 100),
        },
        answer: (income - cost * 100) / 100,
      };
    },
    code: (s) =>
      `income = ${s.adults} * ${amount(s.adultPrice)} + ${s.children} * ${amount(s.childPrice)}\nprint(round(income - ${amount(s.cost)}, 2))`,
  }),
  problem<TestSlots>({
    label: 'E14',
    question:
      '{name} scored {s1}, {s2} and {s3} on the first three math tests. What score is needed on the fourth test for an average of exactly {avg}?',
    goldRule: '4 × avg − (s1 + s2 + s3) (drawn between 50 and 100).',
    draw(rng) {
      const s1 = rng.int(60, 100);
      const s2 = rng.int(60, 100);
      const s3 = rng.int(60, 100);
      const avg = rng.int(70, 95);
      const needed = 4 * avg - (s1 + s2 + s3);
      if (needed < 50 || needed > 100) return null;
      return { slots: { name: name(rng), s1, s2, s3, avg }, answer: needed };
    },
    code: (s) => `print(4 * ${s.avg} - (${s.s1} + ${s.s2} + ${s.s3}))`,
  }),
  problem<TankSlots>({
    label: 'E15',
    question:
      'An empty tank holds {gallons} gallons. A hose fills it at {fill} gallons per minute while a leak drains {leak} gallons per minute. How many minutes does it take to fill the tank?',
    goldRule: 'gallons / (fill − leak), with at most two decimals.',
    draw(rng) {
      const fill = rng.int(6, 30);
      const leak = rng.int(2, fill - 2);
      const gallons = rng.int(20, 120) * 5;
      if (!twoDecimals(gallons, fill - leak)) return null;
      return { slots: { gallons, fill, leak }, answer: (gallons * 100) / (fill - leak) / 100 };
    },
    code: (s) => `print(round(${s.gallons} / (${s.fill} - ${s.leak}), 2))`,
  }),
  problem<CoinSlots>({
    label: 'E16',
    question:
      'A jar contains {quarters} quarters, {dimes} dimes and {nickels} nickels. How many dollars are in the jar?',
    goldRule: '(25 × quarters + 10 × dimes + 5 × nickels) / 100.',
    draw(rng) {
      const quarters = rng.int(3, 80);
      const dimes = rng.int(3, 80);
      const nickels = rng.int(3, 80);
      return {
        slots: { quarters, dimes, nickels },
        answer: (25 * quarters + 10 * dimes + 5 * nickels) / 100,
      };
    },
    code: (s) => `cents = 25 * ${s.quarters} + 10 * ${s.dimes} + 5 * ${s.nickels}\nprint(cents / 100)`,
  }),
  problem<ClassSlots>({
    label: 'E17',
    question:
      'A class has {students} students, and {percent}% of them are girls. If {glasses} of the girls wear glasses, how many girls do not wear glasses?',
    goldRule: 'students × percent / 100 − glasses (a whole number of girls).',
    draw(rng) {
      const students = rng.int(16, 40);
      const percent = rng.pick([25, 40, 50, 60, 75]);
      if ((students * percent) % 100 !== 0) return null;
      const girls = (students * percent) / 100;
      if (girls < 3) return null;
      const glasses = rng.int(1, girls - 1);
      return { slots: { students, percent, glasses }, answer: girls - glasses };
    },
    code: (s) => `girls = ${s.students} * ${s.percent} / 100\nprint(girls - ${s.glasses})`,
  }),
  problem<PizzaSlots>({
    label: 'E18',
    question:
      'A group of {friends} friends orders {pizzas} pizzas, each cut into {slices} slices, and shares them equally. How many slices does each friend get?',
    goldRule: 'pizzas × slices / friends (drawn to divide evenly).',
    draw(rng) {
      const friends = rng.int(3, 12);
      const pizzas = rng.int(2, 9);
      const slices = rng.pick([6, 8, 10, 12]);
      if ((pizzas * slices) % friends !== 0) return null;
      return { slots: { friends, pizzas, slices }, answer: (pizzas * slices) / friends };
    },
    code: (s) => `print(${s.pizzas} * ${s.slices} / ${s.friends})`,
  }),
];

export const GSM8K_TEMPLATES: readonly TaskTemplate[] = PROBLEMS;
