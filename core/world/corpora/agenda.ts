/**
 * The synthetic agenda corpus (spec §2.5): a table of ~100 people's calendar events in 2022 and one
 * natural-language passage per event. The table is what LoadDB `agenda` shows (hard questions, §7.10); the
 * passages are what RetrieveAgenda searches (easy questions, §7.9).
 *
 * Invariants the task generator relies on:
 * - `events[i]`, table row `i` and `passages[i]` describe the same event; ids are `agenda-0000`, `agenda-0001`, …
 *   in row order (zero-padded to 4 digits, wider beyond 9,999). Rows are in shuffled (not date) order.
 * - Table cells are the raw event fields, except start/end times converted by `agendaTimeToTable` as LoadDB does.
 * - For one (person, date) the events never overlap on the 24-hour clock, so their raw (start, end) pairs are
 *   distinct (E1 unique); their kinds and their event strings (ignoring case) differ (E2, E3, E4 unique).
 *   An overnight event (end < start) is always the person's last event that day.
 * - (event, start_time, end_time, date, location) identifies exactly one person (E5 unique).
 * - Multi-day events carry raw times LoadDB cannot convert (`12:00 PM (day 1)` … `6:00 PM (day 3)`); such an
 *   event is the only one of its person on that date. Skip them for duration, overlap and free-slot questions.
 * - No cell contains `, `, `=`, `<` or `>` (FilterDB splits on `, ` and detects those operators, spec §3.3).
 * - Dates are `2022/MM/DD`; a few invalid dates (`2022/02/29`, `2022/04/31`, `2022/09/31`) are real dates of the
 *   corpus with events like any other. At scale 1 every day of 2022 has events (≈16–33 per date).
 * - Passage `i` names the person, the event (case may differ), the raw start and end times, the location
 *   (without trailing spaces) and the date in one of several natural formats (`Sunday, January 16th 2022`,
 *   `September 17, 2022`, `Christmas Day, December 25th, 2022`, `the 5th of March, 2022`, `2022/03/05`, …).
 *
 * Deliberate differences from ToolQA-D: none in the data model. Passages are template-written (the original's
 * were LLM-written) and hold 1–3 flavour sentences.
 */

import { MONTH_NAMES } from '../../util/calendar.ts';
import type { Rng } from '../../util/random.ts';
import type { ColumnSpec, Table } from '../table.ts';
import { TableBuilder } from '../table.ts';
import type { AgendaEvent, Passage } from '../types.ts';
import {
  AGENDA_EVENT_KINDS,
  AGENDA_EVENT_VARIANTS,
  AGENDA_FLAVOUR,
  type AgendaEventKind,
} from './vocab/agenda-events.ts';
import { AGENDA_PEOPLE, type AgendaPerson } from './vocab/agenda-people.ts';
import {
  ALL_IN_ONE_NOUN,
  ALL_IN_ONE_QUOTED,
  ALL_IN_ONE_VERB,
  MULTI_DAY,
  OPENINGS_NOUN,
  OPENINGS_QUOTED,
  OPENINGS_VERB,
  TIME_PLACE,
} from './vocab/agenda-phrasing.ts';

export interface AgendaCorpus {
  events: AgendaEvent[];
  table: Table;
  passages: Passage[];
}

export const AGENDA_COLUMNS: readonly ColumnSpec[] = [
  { name: 'event', sqlType: 'TEXT', description: 'What the calendar entry says' },
  { name: 'start_time', sqlType: 'TEXT', description: 'Start time, HH:MM:SS after loading' },
  { name: 'end_time', sqlType: 'TEXT', description: 'End time, HH:MM:SS after loading' },
  { name: 'location', sqlType: 'TEXT', description: 'Where the event takes place' },
  { name: 'person', sqlType: 'TEXT', description: 'Whose agenda the event is in (first name)' },
  { name: 'date', sqlType: 'TEXT', description: 'Date as YYYY/MM/DD' },
  { name: 'id', sqlType: 'TEXT', description: 'Event id (agenda-NNNN)' },
];

/** Events at scale 1 (the original table has 10,000). */
export const AGENDA_EVENTS_AT_SCALE_1 = 10_000;

/** Invalid calendar dates that occur in the data, as in the original table. */
export const AGENDA_INVALID_DATES: readonly string[] = ['2022/02/29', '2022/04/31', '2022/09/31'];

const MAX_EVENTS_PER_PERSON_DATE = 4;
const MULTI_DAY_SHARE = 0.004;
const HOUR_ONLY_SHARE = 0.12;
const TRAILING_SPACE_SHARE = 0.02;

const TIME_12H = /^(\d{1,2}):(\d{2}) ([AaPp][Mm])$/;
const HOUR_12H = /^(\d{1,2}) ([AaPp][Mm])$/;

/**
 * LoadDB's conversion of an agenda time (spec §2.5): `H:MM AM/PM` or `H AM/PM` → 24-hour `HH:MM:SS`; anything else
 * is returned unchanged (exactly the values for which `parseAgendaTime` returns null). FilterDB applies the same
 * conversion to `start_time`/`end_time` condition values (spec §3.3).
 */
export function agendaTimeToTable(raw: string): string {
  const minutes = parseAgendaTime(raw);
  if (minutes === null) return raw;
  const hh = Math.floor(minutes / 60);
  return `${pad2(hh)}:${pad2(minutes % 60)}:00`;
}

/** Minutes after midnight of a raw 12-hour time (`9:00 AM`, `6 PM`), or null if LoadDB would not convert it. */
export function parseAgendaTime(raw: string): number | null {
  let hour: number;
  let minute = 0;
  let suffix: string;
  const full = TIME_12H.exec(raw);
  if (full) {
    hour = Number(full[1]);
    minute = Number(full[2]);
    suffix = (full[3] as string).toUpperCase();
  } else {
    const short = HOUR_12H.exec(raw);
    if (!short) return null;
    hour = Number(short[1]);
    suffix = (short[2] as string).toUpperCase();
  }
  if (hour < 1 || hour > 12 || minute > 59) return null;
  const h24 = (hour % 12) + (suffix === 'PM' ? 12 : 0);
  return h24 * 60 + minute;
}

/** A raw 12-hour time as the original data writes it: `9:00 AM`, `12:30 PM`, or `6 PM` when `hourOnly`. */
export function formatAgendaTime(minuteOfDay: number, hourOnly = false): string {
  const m = ((minuteOfDay % 1440) + 1440) % 1440;
  const h24 = Math.floor(m / 60);
  const minute = m % 60;
  const suffix = h24 < 12 ? 'AM' : 'PM';
  const h12 = h24 % 12 === 0 ? 12 : h24 % 12;
  return hourOnly && minute === 0 ? `${h12} ${suffix}` : `${h12}:${pad2(minute)} ${suffix}`;
}

export function generateAgenda(rng: Rng, scale: number): AgendaCorpus {
  if (!(scale > 0)) throw new RangeError(`generateAgenda: scale must be > 0, got ${scale}`);
  const total = Math.max(60, Math.round(AGENDA_EVENTS_AT_SCALE_1 * scale));
  const dates = chooseDates(rng.fork('dates'), total);
  const perDate = spreadOverDates(rng.fork('per-date'), total, dates.length);
  const scheduled = schedule(rng.fork('schedule'), dates, perDate);
  const order = rng.fork('order').shuffle(scheduled);

  const width = Math.max(4, String(order.length - 1).length);
  const events: AgendaEvent[] = order.map((s, i) => ({
    ...s.event,
    id: `agenda-${String(i).padStart(width, '0')}`,
  }));

  const builder = new TableBuilder('agenda', AGENDA_COLUMNS, events.length);
  for (const e of events) {
    builder.add([
      e.event,
      agendaTimeToTable(e.startTime),
      agendaTimeToTable(e.endTime),
      e.location,
      e.person,
      e.date,
      e.id,
    ]);
  }

  const prose = rng.fork('passages');
  const passages: Passage[] = events.map((e, i) => ({
    id: e.id,
    text: writePassage(prose, e, order[i] as Scheduled),
  }));
  return { events, table: builder.build(), passages };
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

interface CalendarDate {
  text: string;
  month: number;
  day: number;
  /** 0 = Sunday; null for invalid dates. */
  weekday: number | null;
}

function allValidDates(): CalendarDate[] {
  const out: CalendarDate[] = [];
  for (let t = Date.UTC(2022, 0, 1); t < Date.UTC(2023, 0, 1); t += 86_400_000) {
    const d = new Date(t);
    const month = d.getUTCMonth() + 1;
    const day = d.getUTCDate();
    out.push({ text: `2022/${pad2(month)}/${pad2(day)}`, month, day, weekday: d.getUTCDay() });
  }
  return out;
}

function invalidDate(text: string): CalendarDate {
  const [, mm, dd] = text.split('/');
  return { text, month: Number(mm), day: Number(dd), weekday: null };
}

/** About 27 events per date: every day of 2022 at scale ≥ 1, a random subset of days at smaller scales. */
function chooseDates(rng: Rng, total: number): CalendarDate[] {
  const valid = allValidDates();
  const wanted = Math.max(1, Math.min(valid.length + AGENDA_INVALID_DATES.length, Math.round(total / 23.5)));
  const invalidCount = Math.min(AGENDA_INVALID_DATES.length, Math.max(1, Math.round(wanted / 120)));
  const picked =
    wanted - invalidCount >= valid.length ? valid : rng.sample(valid, Math.max(0, wanted - invalidCount));
  return [...picked, ...AGENDA_INVALID_DATES.slice(0, invalidCount).map(invalidDate)];
}

/** Splits `total` events over the dates with weights skewed towards busy days (largest-remainder rounding). */
function spreadOverDates(rng: Rng, total: number, dateCount: number): number[] {
  const weights = Array.from({ length: dateCount }, () => {
    const u = rng.next();
    return 31 - 15 * u * u;
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w * total) / sum);
  const counts = exact.map(Math.floor);
  let missing = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((x, i) => [x - Math.floor(x), i] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of byRemainder) {
    if (missing <= 0) break;
    counts[i] = (counts[i] as number) + 1;
    missing--;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------------------------
// Scheduling

interface Scheduled {
  event: Omit<AgendaEvent, 'id'>;
  person: AgendaPerson;
  kind: AgendaEventKind;
  calendar: CalendarDate;
  /** Number of days for multi-day events, else 1. */
  days: number;
}

interface PersonDay {
  intervals: [number, number][];
  kinds: Set<AgendaEventKind>;
  /** Lower-cased event strings, so two kinds' titles can never coincide on one person's day. */
  titles: Set<string>;
  blocked: boolean;
}

function schedule(rng: Rng, dates: readonly CalendarDate[], perDate: readonly number[]): Scheduled[] {
  const people = AGENDA_PEOPLE;
  const pickPerson = cumulativePicker(people.map(() => rng.float(0.85, 1.05)));
  const byMonth = new Map<
    number,
    { day: AgendaEventKind[]; pickDay: (r: Rng) => number; multi: AgendaEventKind[] }
  >();
  const seasonal = (month: number) => {
    let entry = byMonth.get(month);
    if (!entry) {
      const inSeason = (k: AgendaEventKind) => !k.months || k.months.includes(month);
      const day = AGENDA_EVENT_KINDS.filter((k) => !k.multiDay && inSeason(k));
      const multi = AGENDA_EVENT_KINDS.filter((k) => k.multiDay && inSeason(k));
      entry = { day, pickDay: cumulativePicker(day.map((k) => k.weight ?? 1)), multi };
      byMonth.set(month, entry);
    }
    return entry;
  };
  const out: Scheduled[] = [];

  dates.forEach((calendar, di) => {
    const days = new Map<AgendaPerson, PersonDay>();
    const identities = new Set<string>();
    const kinds = seasonal(calendar.month);

    for (let slot = 0; slot < (perDate[di] as number); slot++) {
      let placed: Scheduled | null = null;
      for (let attempt = 0; attempt < 400 && !placed; attempt++) {
        const person = people[pickPerson(rng)] as AgendaPerson;
        let day = days.get(person);
        if (!day) {
          day = { intervals: [], kinds: new Set(), titles: new Set(), blocked: false };
          days.set(person, day);
        }
        if (day.blocked || day.intervals.length >= MAX_EVENTS_PER_PERSON_DATE) continue;
        const multi = day.intervals.length === 0 && kinds.multi.length > 0 && rng.chance(MULTI_DAY_SHARE);
        const candidate = multi
          ? drawMultiDay(rng, person, calendar, rng.pick(kinds.multi))
          : drawDayEvent(rng, person, calendar, kinds.day[kinds.pickDay(rng)] as AgendaEventKind, day);
        if (!candidate) continue;
        const e = candidate.scheduled.event;
        if (day.titles.has(e.event.toLowerCase())) continue;
        const identity = `${e.event}\u0000${e.startTime}\u0000${e.endTime}\u0000${e.location}`;
        if (identities.has(identity)) continue;
        identities.add(identity);
        day.intervals.push(candidate.interval);
        day.kinds.add(candidate.scheduled.kind);
        day.titles.add(e.event.toLowerCase());
        if (multi) day.blocked = true;
        placed = candidate.scheduled;
      }
      if (!placed)
        throw new Error(`generateAgenda: cannot place event ${slot} on ${calendar.text} (scale too large)`);
      out.push(placed);
    }
  });
  return out;
}

function drawDayEvent(
  rng: Rng,
  person: AgendaPerson,
  calendar: CalendarDate,
  kind: AgendaEventKind,
  day: PersonDay,
): { scheduled: Scheduled; interval: [number, number] } | null {
  if (day.kinds.has(kind)) return null;
  const step = rng.chance(0.1) ? 15 : 30;
  const first = Math.ceil(kind.start[0] / step);
  const last = Math.floor(kind.start[1] / step);
  const start = rng.int(first, Math.max(first, last)) * step;
  const end = start + rng.pick(kind.durations);
  // An overnight event must be the last one of the day, and nothing may overlap.
  for (const [s, e] of day.intervals) {
    if (start < e && s < end) return null;
    if (end > 1440 && s >= start) return null;
    if (e > 1440 && start >= s) return null;
  }
  const hourOnly = rng.chance(HOUR_ONLY_SHARE);
  const event: Omit<AgendaEvent, 'id'> = {
    event: eventText(rng, kind),
    startTime: formatAgendaTime(start, hourOnly),
    endTime: formatAgendaTime(end, hourOnly),
    location: locationText(rng, kind),
    person: person.name,
    date: calendar.text,
  };
  return { scheduled: { event, person, kind, calendar, days: 1 }, interval: [start, end] };
}

function drawMultiDay(
  rng: Rng,
  person: AgendaPerson,
  calendar: CalendarDate,
  kind: AgendaEventKind,
): { scheduled: Scheduled; interval: [number, number] } {
  const days = rng.int(2, 3);
  const start = rng.int(kind.start[0] / 30, kind.start[1] / 30) * 30;
  const end = rng.int(20, 40) * 30;
  const event: Omit<AgendaEvent, 'id'> = {
    event: eventText(rng, kind),
    startTime: `${formatAgendaTime(start)} (day 1)`,
    endTime: `${formatAgendaTime(end)} (day ${days})`,
    location: locationText(rng, kind),
    person: person.name,
    date: calendar.text,
  };
  return { scheduled: { event, person, kind, calendar, days }, interval: [0, 1440 * days] };
}

const SMALL_WORDS = new Set(['a', 'an', 'the', 'of', 'at', 'in', 'on', 'with', 'and', 'for', 'to']);

/** The calendar entry text: the kind's name or a variant; casing is inconsistent, as in the original. */
function eventText(rng: Rng, kind: AgendaEventKind): string {
  const variants = AGENDA_EVENT_VARIANTS[kind.name];
  const name = variants && rng.chance(0.35) ? rng.pick(variants) : kind.name;
  const r = rng.next();
  if (r < 0.75) return name;
  if (r < 0.95) {
    return name
      .split(' ')
      .map((w, i) =>
        i > 0 && SMALL_WORDS.has(w.toLowerCase()) ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1),
      )
      .join(' ');
  }
  // Sentence case, keeping acronyms (NBA).
  return name
    .split(' ')
    .map((w, i) =>
      i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : /[A-Z].*[A-Z]/.test(w) ? w : w.toLowerCase(),
    )
    .join(' ');
}

function locationText(rng: Rng, kind: AgendaEventKind): string {
  const location = rng.pick(kind.locations);
  return rng.chance(TRAILING_SPACE_SHARE) ? `${location} ` : location;
}

// ---------------------------------------------------------------------------------------------------------------
// Passages

const MONTHS: readonly string[] = MONTH_NAMES;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOLIDAYS_2022: Readonly<Record<string, string>> = {
  '01/01': "New Year's Day",
  '02/14': "Valentine's Day",
  '03/17': "St. Patrick's Day",
  '05/08': "Mother's Day",
  '05/30': 'Memorial Day',
  '06/19': "Father's Day",
  '07/04': 'Independence Day',
  '09/05': 'Labor Day',
  '10/31': 'Halloween',
  '11/24': 'Thanksgiving Day',
  '12/24': 'Christmas Eve',
  '12/25': 'Christmas Day',
  '12/31': "New Year's Eve",
};

export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

type DateStyle = (c: CalendarDate) => string;

const WEEKDAY_STYLES: readonly DateStyle[] = [
  (c) => `${weekday(c)}, ${month(c)} ${ordinal(c.day)} 2022`,
  (c) => `${weekday(c)}, ${month(c)} ${c.day}, 2022`,
  (c) => `${weekday(c)}, ${month(c)} ${ordinal(c.day)}, 2022`,
];
const PLAIN_STYLES: readonly DateStyle[] = [
  (c) => `${month(c)} ${c.day}, 2022`,
  (c) => `${month(c)} ${ordinal(c.day)}, 2022`,
  (c) => `the ${ordinal(c.day)} of ${month(c)}, 2022`,
  (c) => `${c.day} ${month(c)} 2022`,
  (c) => `${month(c).slice(0, 3)} ${c.day}, 2022`,
  (c) => c.text,
];
const PLAIN_WEIGHTS = [5, 3, 2, 1.5, 1, 0.8];

function weekday(c: CalendarDate): string {
  return WEEKDAYS[c.weekday ?? 0] as string;
}
function month(c: CalendarDate): string {
  return MONTHS[c.month - 1] as string;
}

function datePhrase(rng: Rng, c: CalendarDate): string {
  const holiday = HOLIDAYS_2022[c.text.slice(5)];
  if (holiday && c.weekday !== null && rng.chance(0.6))
    return `${holiday}, ${month(c)} ${ordinal(c.day)}, 2022`;
  if (c.weekday !== null && rng.chance(0.4)) return (rng.pick(WEEKDAY_STYLES) as DateStyle)(c);
  return rng.weighted(PLAIN_STYLES, PLAIN_WEIGHTS)(c);
}

/** A title-like entry ("Broadway Show") keeps its capitals in running text; others start lower-case. */
function inProse(event: string, verb: boolean): string {
  const words = event.split(' ');
  const titled = words.every((w, i) => (i > 0 && SMALL_WORDS.has(w)) || /^[A-Z]/.test(w));
  if (titled && !verb && words.length > 1) return event;
  return event.charAt(0).toLowerCase() + event.slice(1);
}

const COMPILED = new Map<string, readonly string[]>();

/** Fills `{key}` placeholders; templates are split once into literal/key parts (even indices are literals). */
function fill(template: string, vars: Readonly<Record<string, string>>): string {
  let parts = COMPILED.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    COMPILED.set(template, parts);
  }
  let out = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const key = parts[i] as string;
    out += (vars[key] ?? `{${key}}`) + (parts[i + 1] as string);
  }
  return out;
}

function writePassage(rng: Rng, e: AgendaEvent, s: Scheduled): string {
  const { kind, person } = s;
  const she = person.pronoun === 'she';
  const verb = kind.form === 'verb';
  const prose = inProse(e.event, verb);
  const article = kind.article === '' ? '' : /^[aeiou]/i.test(prose) ? 'an' : 'a';
  const vars: Record<string, string> = {
    P: person.name,
    name: person.name,
    E: e.event,
    e: prose,
    aE: article ? `${article} ${prose}` : prose,
    D: datePhrase(rng, s.calendar),
    S: e.startTime,
    T: e.endTime,
    L: e.location.trim(),
    loc: e.location.trim(),
    noun: kind.noun,
    days: String(s.days),
    He: she ? 'She' : 'He',
    he: she ? 'she' : 'he',
    His: she ? 'Her' : 'His',
    his: she ? 'her' : 'his',
    him: she ? 'her' : 'him',
  };

  const sentences: string[] = [];
  const flavour = pickFlavour(rng, kind);
  if (rng.chance(0.25)) {
    const pool = rng.chance(0.2) ? ALL_IN_ONE_QUOTED : verb ? ALL_IN_ONE_VERB : ALL_IN_ONE_NOUN;
    sentences.push(rng.pick(pool));
    if (s.days > 1) sentences.push(rng.pick(MULTI_DAY));
    sentences.push(...flavour);
  } else {
    const openings = rng.chance(0.15) ? OPENINGS_QUOTED : verb ? OPENINGS_VERB : OPENINGS_NOUN;
    sentences.push(rng.pick(openings));
    // Sometimes a flavour sentence sits between the opening and the practical details.
    if (flavour.length > 1 && rng.chance(0.3)) sentences.push(flavour.shift() as string);
    sentences.push(rng.pick(TIME_PLACE));
    if (s.days > 1) sentences.push(rng.pick(MULTI_DAY));
    sentences.push(...flavour);
  }
  return sentences.map((t) => capitalize(fill(t, vars))).join(' ');
}

const FLAVOUR_POOLS = new Map<AgendaEventKind['category'], readonly string[]>();

/** 1–3 distinct flavour sentences: maybe one specific to the kind, the rest from its category and generic ones. */
function pickFlavour(rng: Rng, kind: AgendaEventKind): string[] {
  let pool = FLAVOUR_POOLS.get(kind.category);
  if (!pool) {
    pool = [...AGENDA_FLAVOUR[kind.category], ...AGENDA_FLAVOUR.generic];
    FLAVOUR_POOLS.set(kind.category, pool);
  }
  const r = rng.next();
  const count = r < 0.4 ? 1 : r < 0.8 ? 2 : 3;
  const picked: string[] = [];
  if (kind.flavour && rng.chance(0.6)) picked.push(rng.pick(kind.flavour));
  while (picked.length < count) {
    const t = rng.pick(pool);
    if (!picked.includes(t)) picked.push(t);
  }
  return rng.shuffle(picked);
}

/** Sampling by cumulative weights with binary search (the weight lists here are long and reused). */
function cumulativePicker(weights: readonly number[]): (rng: Rng) => number {
  const cum = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    cum[i] = total;
  });
  return (rng) => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cum[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
