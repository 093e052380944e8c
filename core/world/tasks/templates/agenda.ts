/**
 * Agenda templates (spec §7.9 easy E1–E5 over the event passages with RetrieveAgenda, §7.10 hard H1–H5 over the
 * agenda table): tooldrift's wording, the original's slots, plans and gold rules.
 *
 * The easy solvers work like an agent reading search results: they build a keyword query from the question,
 * read the passages RetrieveAgenda returns with `readAgendaPassage`, keep the passage whose person, event, date
 * and times agree with the question, and answer from the sentence that states the asked fact; when the first
 * query does not surface the event they try a second one. The reader knows the sentence shapes the corpus writes
 * (`vocab/agenda-phrasing.ts`) the way an agent knows English: each shape becomes a regex whose groups are the
 * facts, with strict patterns for names, dates and times and lazy ones for events and places. A draw whose event retrieval does not surface, or whose
 * passage the reader misreads (a location such as `Chuck E. Cheese` ending a sentence reads as `Chuck E`), is
 * dropped by the task generator as a plan mismatch.
 *
 * Deliberate differences from ToolQA-D:
 * - E4 (how long): an event that runs past midnight lasts end − start + 24 h, written like a Python timedelta
 *   (`3:00:00`); the original subtracted two times of one day and answered `-1 day, 3:00:00`. Multi-day events
 *   (times such as `12:00 PM (day 1)`) are not asked.
 * - H2 (how many people are busy): the window is a random event of the date that ends on the same day, on a
 *   date without multi-day events, so that the plan's FilterDB comparisons are exactly the gold rule (the
 *   original also drew windows of overnight events, which match no row).
 * - H3 (free slots) follows the rule of EVO's corrected answers (spec §7.10, inferred): the maximal free
 *   intervals of at least 60 minutes inside 9:00 AM–6:00 PM after removing the person's events clipped to that
 *   window (an event past midnight occupies the rest of the day), not the original generator's wrap-around gaps.
 *   Dates where the person has a multi-day event, or no free hour at all, are not asked.
 * - H5 asks only about people whose dates fit in one GetValue observation (always the case at scale 1).
 */

import { MONTH_NAMES } from '../../../util/calendar.ts';
import { normalizeAnswer } from '../../answer-match.ts';
import { parseAgendaTime } from '../../corpora/agenda.ts';
import {
  ALL_IN_ONE_NOUN,
  ALL_IN_ONE_QUOTED,
  ALL_IN_ONE_VERB,
  OPENINGS_NOUN,
  OPENINGS_QUOTED,
  OPENINGS_VERB,
  TIME_PLACE,
} from '../../corpora/vocab/agenda-phrasing.ts';
import type { AgendaEvent } from '../../types.ts';
import { filteredRows, getValueColumn, pyStrList } from '../observations.ts';
import type { PlanCall, SampleContext, Solver, TaskTemplate } from '../types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Reading a passage

/** The facts one agenda passage states; `date` is normalised to the table's `YYYY/MM/DD`. */
export interface AgendaFacts {
  person: string;
  event: string;
  date: string;
  start: string;
  end: string;
  location: string;
}

const MONTHS: readonly string[] = MONTH_NAMES;
const MONTH = `(?:${MONTHS.join('|')})`;
const MONTH_ABBR = `(?:${MONTHS.map((m) => m.slice(0, 3)).join('|')})`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
/** A raw agenda time as written in the passages: `9:00 AM`, `6 PM`, `12:00 PM (day 1)`. */
const TIME = String.raw`\d{1,2}(?::\d{2})? [AP]M(?: \(day \d+\))?`;
/** A date phrase: an optional weekday or holiday (`Sunday, `, `Christmas Day, `) and a calendar date. */
const DATE =
  String.raw`(?:[A-Z][\w'.]*(?: [A-Z][\w'.]*)*, )?` +
  `(?:${MONTH} ${DAY},? \\d{4}|the ${DAY} of ${MONTH}, \\d{4}|\\d{1,2} ${MONTH} \\d{4}|${MONTH_ABBR} \\d{1,2}, \\d{4}|\\d{4}/\\d{2}/\\d{2})`;
/** A full stop that ends a sentence (not the one of `St. Mary's`); `Hex & Co..` ends at the second one. */
const SENTENCE_END = String.raw`(?<!\b(?:St|Dr|Mr|Mrs|Ms|Mt|Jr|Sr|Co))\.(?= |$)`;

type Field = keyof AgendaFacts;

/** An event name in running text: never spans a full stop or a quote (event names contain neither). */
const EVENT = '[^."]+?';
/** A place: a full stop inside it only after an abbreviation or an initial (`St. Mary's`, `Chuck E. Cheese`). */
const PLACE = String.raw`(?:[^.]|\.(?=\S)|(?<=\b(?:St|Dr|Mr|Mrs|Ms|Mt|Jr|Sr|Co|[A-Z]))\.)+?`;

/** What each placeholder of the phrasing templates reads as; `field` names the captured fact. */
const PLACEHOLDERS: Readonly<Record<string, { pattern: string; field?: Field }>> = {
  P: { pattern: '[A-Z][a-z]+', field: 'person' },
  name: { pattern: '[A-Z][a-z]+' },
  E: { pattern: EVENT, field: 'event' },
  aE: { pattern: EVENT, field: 'event' },
  e: { pattern: EVENT, field: 'event' },
  D: { pattern: DATE, field: 'date' },
  S: { pattern: TIME, field: 'start' },
  T: { pattern: TIME, field: 'end' },
  L: { pattern: PLACE, field: 'location' },
  loc: { pattern: PLACE },
  // A noun that names the event (`The game night is set for …`) is marked like the event.
  noun: { pattern: String.raw`(?:[a-z]+(?:[- ][a-z]+)?|\u0001\d+\u0002)` },
  days: { pattern: '\\d+' },
  He: { pattern: '(?:He|She)' },
  he: { pattern: '(?:he|she)' },
  His: { pattern: '(?:His|Her)' },
  his: { pattern: '(?:his|her)' },
  him: { pattern: '(?:him|her)' },
};

interface SentenceShape {
  re: RegExp;
  fields: Field[];
}

/**
 * A phrasing template as a regex over the passage text: placeholders become groups, full stops end sentences.
 * `eventPattern` replaces the generic event pattern (used with `EVENT_MARK` when the reader knows the event).
 */
function shape(template: string, anywhere: boolean, eventPattern?: string): SentenceShape {
  const fields: Field[] = [];
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    source += literal(template.slice(last, m.index));
    const p = PLACEHOLDERS[m[1] as string];
    if (!p) throw new Error(`agenda reader: unknown placeholder ${m[0]} in ${template}`);
    const pattern = p.field === 'event' && eventPattern ? eventPattern : p.pattern;
    if (p.field) {
      source += `(${pattern})`;
      fields.push(p.field);
    } else source += pattern;
    last = (m.index as number) + m[0].length;
  }
  source += literal(template.slice(last));
  return { re: new RegExp(`${anywhere ? '(?:^|(?<=[.!?"] ))' : '^'}${source}`), fields };
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function literal(text: string): string {
  return text.split('.').map(escapeRegex).join(SENTENCE_END);
}

/**
 * Where a known event is named, the reader sees a mark `\u0001n\u0002` (n = the occurrence) instead, so that an
 * event such as `Volunteering at the food bank` is not cut at its first `at`.
 */
const EVENT_MARK = String.raw`(?:(?:[aA]n?|[tT]he) )?\u0001\d+\u0002`;

/** Replaces each whole-word occurrence of the event (any letter case) by a numbered mark. */
function markEvent(text: string, event: string): { marked: string; occurrences: string[] } {
  const occurrences: string[] = [];
  const re = new RegExp(`(?<![A-Za-z])${escapeRegex(event)}(?![A-Za-z])`, 'gi');
  const marked = text.replace(re, (m) => `\u0001${occurrences.push(m) - 1}\u0002`);
  return { marked, occurrences };
}

interface Shapes {
  allInOne: SentenceShape[];
  openings: SentenceShape[];
  timeAndPlace: SentenceShape[];
}

function shapes(eventPattern?: string): Shapes {
  return {
    allInOne: [...ALL_IN_ONE_NOUN, ...ALL_IN_ONE_VERB, ...ALL_IN_ONE_QUOTED].map((t) =>
      shape(t, false, eventPattern),
    ),
    openings: [...OPENINGS_NOUN, ...OPENINGS_VERB, ...OPENINGS_QUOTED].map((t) =>
      shape(t, false, eventPattern),
    ),
    timeAndPlace: TIME_PLACE.map((t) => shape(t, true)),
  };
}

const GENERIC_SHAPES = shapes();
const MARKED_SHAPES = shapes(EVENT_MARK);

function capture(list: readonly SentenceShape[], text: string): Partial<AgendaFacts> | null {
  for (const s of list) {
    const m = s.re.exec(text);
    if (!m) continue;
    const out: Partial<AgendaFacts> = {};
    s.fields.forEach((f, i) => {
      out[f] = m[i + 1] as string;
    });
    return out;
  }
  return null;
}

const MONTH_FIRST = new RegExp(`(${MONTH}|${MONTH_ABBR}) (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})`);
const DAY_FIRST = new RegExp(`(\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${MONTH}),? (\\d{4})`);

/** `Sunday, January 16th 2022`, `the 5th of March, 2022`, `Mar 5, 2022`, `2022/03/05` → `2022/03/05`. */
export function normalizeDatePhrase(phrase: string): string | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const numeric = /(\d{4})\/(\d{2})\/(\d{2})/.exec(phrase);
  if (numeric) return `${numeric[1]}/${numeric[2]}/${numeric[3]}`;
  const monthOf = (word: string) => MONTHS.findIndex((m) => m.startsWith(word)) + 1;
  const monthFirst = MONTH_FIRST.exec(phrase);
  if (monthFirst)
    return `${monthFirst[3]}/${pad(monthOf(monthFirst[1] as string))}/${pad(Number(monthFirst[2]))}`;
  const dayFirst = DAY_FIRST.exec(phrase);
  if (dayFirst) return `${dayFirst[3]}/${pad(monthOf(dayFirst[2] as string))}/${pad(Number(dayFirst[1]))}`;
  return null;
}

/**
 * Reads one agenda passage: the opening names person, event and date, a later sentence gives the times and the
 * place (or one sentence says everything). With `knownEvent` the reader looks for that event (in any case, maybe
 * after an article) where the event is named. Null when the passage does not read as such an agenda entry.
 */
export function readAgendaPassage(text: string, knownEvent?: string): AgendaFacts | null {
  let s = GENERIC_SHAPES;
  let read = text;
  let restore = (x: string) => x;
  if (knownEvent !== undefined) {
    const { marked, occurrences } = markEvent(text, knownEvent);
    s = MARKED_SHAPES;
    read = marked;
    restore = (x) => x.replace(/\u0001(\d+)\u0002/g, (_, n: string) => occurrences[Number(n)] as string);
  }
  let facts = capture(s.allInOne, read);
  if (!facts) {
    const opening = capture(s.openings, read);
    const details = opening ? capture(s.timeAndPlace, read) : null;
    if (!opening || !details) return null;
    facts = { ...opening, ...details };
  }
  const { person, event, date, start, end, location } = facts;
  if (!person || !event || !date || !start || !end || !location) return null;
  const day = normalizeDatePhrase(date);
  if (!day) return null;
  return { person, event: restore(event), date: day, start, end, location: restore(location) };
}

// ---------------------------------------------------------------------------------------------------------------
// Shared sampling and plan pieces

type Event = AgendaEvent;

interface AgendaIndex {
  byDate: Map<string, Event[]>;
  byPerson: Map<string, Event[]>;
  dates: string[];
  people: string[];
}

const indexCache = new WeakMap<readonly Event[], AgendaIndex>();
function agenda(ctx: SampleContext): AgendaIndex {
  const events = ctx.world.agendaEvents;
  let index = indexCache.get(events);
  if (!index) {
    const byDate = new Map<string, Event[]>();
    const byPerson = new Map<string, Event[]>();
    const add = (map: Map<string, Event[]>, key: string, e: Event) => {
      const list = map.get(key);
      if (list) list.push(e);
      else map.set(key, [e]);
    };
    for (const e of events) {
      add(byDate, e.date, e);
      add(byPerson, e.person, e);
    }
    index = { byDate, byPerson, dates: [...byDate.keys()].sort(), people: [...byPerson.keys()].sort() };
    indexCache.set(events, index);
  }
  return index;
}

/** Minutes after midnight of both times, or null for multi-day events whose times LoadDB cannot convert. */
function span(e: Event): [number, number] | null {
  const s = parseAgendaTime(e.startTime);
  const t = parseAgendaTime(e.endTime);
  return s === null || t === null ? null : [s, t];
}

const sameText = (a: string, b: string) => normalizeAnswer(a) === normalizeAnswer(b);
/** Places compare without the trailing spaces some table cells carry. */
const samePlace = (a: string, b: string) => a.trim() === b.trim();

const retrieve = (keyword: string): PlanCall => ({ tool: 'RetrieveAgenda', args: { keyword } });
const load: PlanCall = { tool: 'LoadDB', args: { DBName: 'agenda' } };
const filter = (condition: string): PlanCall => ({ tool: 'FilterDB', args: { condition } });
const getValue = (columns: string): PlanCall => ({ tool: 'GetValue', args: { column_name: columns } });
const python = (code: string): PlanCall => ({ tool: 'PythonInterpreter', args: { Python: code } });

/** Searches with each query in turn and returns the first passage that reads as the wanted event. */
function* findPassage(
  queries: readonly string[],
  wanted: (f: AgendaFacts) => boolean,
  knownEvent?: string,
): Generator<PlanCall, AgendaFacts | null, string> {
  for (const q of queries) {
    const observation = yield retrieve(q);
    for (const passage of observation.split('\n')) {
      const facts = readAgendaPassage(passage.trim(), knownEvent);
      if (facts && wanted(facts)) return facts;
    }
  }
  return null;
}

/** A timedelta-style duration `H:MM:SS` between two raw times, past midnight when the end is earlier. */
export function agendaDuration(start: string, end: string): string | null {
  const s = parseAgendaTime(start);
  const t = parseAgendaTime(end);
  if (s === null || t === null) return null;
  const minutes = t > s ? t - s : t - s + 1440;
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:00`;
}

// ---------------------------------------------------------------------------------------------------------------
// Easy: one event, through the passages

type PersonEventSlots = { person: string; event: string; date: string };
type WindowSlots = { person: string; start_time: string; end_time: string; date: string };
type WhoSlots = { event: string; start_time: string; end_time: string; date: string; location: string };

function randomEvent(ctx: SampleContext): Event {
  const events = ctx.world.agendaEvents;
  return events[ctx.rng.int(0, events.length - 1)] as Event;
}

/** E2–E4: the person's entry with this event on this date. */
function personEventTemplate(
  label: string,
  question: string,
  goldRule: string,
  answer: (e: Event) => string | null,
  read: (f: AgendaFacts) => string | null,
): TaskTemplate<PersonEventSlots> {
  return {
    id: `agenda-easy-${label}`,
    dataset: 'agenda',
    difficulty: 'easy',
    label,
    question,
    goldRule,
    sample(ctx) {
      const e = randomEvent(ctx);
      const gold = answer(e);
      if (gold === null) return null;
      return { slots: { person: e.person, event: e.event, date: e.date }, gold };
    },
    *solve({ person, event, date }): Solver {
      const facts = yield* findPassage(
        [`${person} ${event} ${date}`, `${person} ${date}`],
        (f) => f.person === person && f.date === date && sameText(f.event, event),
        event,
      );
      return facts ? (read(facts) ?? '') : '';
    },
  };
}

const e1: TaskTemplate<WindowSlots> = {
  id: 'agenda-easy-E1',
  dataset: 'agenda',
  difficulty: 'easy',
  label: 'E1',
  question: 'What was {person} doing from {start_time} to {end_time} on {date}?',
  goldRule: 'The event of the entry with that person, date, start and end time (raw text).',
  sample(ctx) {
    const e = randomEvent(ctx);
    return {
      slots: { person: e.person, start_time: e.startTime, end_time: e.endTime, date: e.date },
      gold: e.event,
    };
  },
  *solve({ person, start_time, end_time, date }) {
    const facts = yield* findPassage(
      [`${person} ${start_time} ${end_time} ${date}`, `${person} ${date}`],
      (f) => f.person === person && f.date === date && f.start === start_time && f.end === end_time,
    );
    return facts ? facts.event : '';
  },
};

const e5: TaskTemplate<WhoSlots> = {
  id: 'agenda-easy-E5',
  dataset: 'agenda',
  difficulty: 'easy',
  label: 'E5',
  question: 'Who went to "{event}" from {start_time} to {end_time} on {date} at {location}?',
  goldRule: 'The person of the only entry with that event, times, date and location.',
  sample(ctx) {
    const e = randomEvent(ctx);
    return {
      slots: {
        event: e.event,
        start_time: e.startTime,
        end_time: e.endTime,
        date: e.date,
        location: e.location,
      },
      gold: e.person,
    };
  },
  *solve({ event, start_time, end_time, date, location }) {
    const facts = yield* findPassage(
      [`${event} ${start_time} ${end_time} ${date} ${location}`, `${event} ${location} ${date}`],
      (f) =>
        f.date === date &&
        f.start === start_time &&
        f.end === end_time &&
        sameText(f.event, event) &&
        samePlace(f.location, location),
      event,
    );
    return facts ? facts.person : '';
  },
};

const easy: TaskTemplate[] = [
  e1,
  personEventTemplate(
    'E2',
    'Where did {person}\'s calendar entry "{event}" on {date} take place?',
    'The location of that entry (raw text; surrounding spaces do not matter).',
    (e) => e.location,
    (f) => f.location,
  ),
  personEventTemplate(
    'E3',
    'At what time did {person}\'s calendar entry "{event}" on {date} start?',
    'The raw start time of that entry (`8:00 PM`, `6 PM`).',
    (e) => e.startTime,
    (f) => f.start,
  ),
  personEventTemplate(
    'E4',
    'How long did {person}\'s calendar entry "{event}" on {date} last?',
    'End − start as a timedelta `H:MM:SS`, adding a day when the entry ends after midnight (multi-day entries are not asked).',
    (e) => agendaDuration(e.startTime, e.endTime),
    (f) => agendaDuration(f.start, f.end),
  ),
  e5,
];

// ---------------------------------------------------------------------------------------------------------------
// Hard: the agenda table

/** 9:00 AM and 6:00 PM in minutes: the window of the free-slot question. */
const DAY_START = 540;
const DAY_END = 1080;
const MIN_SLOT = 60;

/**
 * Free intervals of at least an hour inside 9:00 AM–6:00 PM around the given events (minutes after midnight;
 * an event whose end is not after its start runs past midnight).
 */
export function freeSlots(events: readonly [number, number][]): [number, number][] {
  const busy = events
    .map(([s, e]) => [s, e > s ? e : 1440] as [number, number])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const slots: [number, number][] = [];
  let freeFrom = DAY_START;
  for (const [s0, e0] of busy) {
    const s = Math.max(s0, DAY_START);
    const e = Math.min(e0, DAY_END);
    if (s >= e) continue;
    if (s - freeFrom >= MIN_SLOT) slots.push([freeFrom, s]);
    freeFrom = Math.max(freeFrom, e);
  }
  if (DAY_END - freeFrom >= MIN_SLOT) slots.push([freeFrom, DAY_END]);
  return slots;
}

/** `9:00 AM`, `1:30 PM`: the 12-hour style of the free-slot answers (always with minutes). */
function clock(minutes: number): string {
  const h = Math.floor(minutes / 60);
  return `${((h + 11) % 12) + 1}:${String(minutes % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The free-slot answer: `9:00 AM-1:00 PM, 3:00 PM-6:00 PM`. */
export function formatSlots(slots: readonly [number, number][]): string {
  return slots.map(([a, b]) => `${clock(a)}-${clock(b)}`).join(', ');
}

/** The plan's Python for H3: the same rule as `freeSlots`, on the table's `HH:MM:SS` times. */
function freeSlotsCode(starts: string, ends: string): string {
  return [
    `starts = ${starts}`,
    `ends = ${ends}`,
    'def minutes(t):',
    "    h, m, s = t.split(':')",
    '    return int(h) * 60 + int(m)',
    'busy = sorted((minutes(s), minutes(e) if minutes(e) > minutes(s) else 1440) for s, e in zip(starts, ends))',
    'def clock(x):',
    '    h, m = divmod(x, 60)',
    `    return f"{(h + 11) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"`,
    'slots = []',
    `free_from = ${DAY_START}`,
    'for s, e in busy:',
    `    s, e = max(s, ${DAY_START}), min(e, ${DAY_END})`,
    '    if s >= e:',
    '        continue',
    `    if s - free_from >= ${MIN_SLOT}:`,
    "        slots.append(f'{clock(free_from)}-{clock(s)}')",
    '    free_from = max(free_from, e)',
    `if ${DAY_END} - free_from >= ${MIN_SLOT}:`,
    `    slots.append(f'{clock(free_from)}-{clock(${DAY_END})}')`,
    "print(', '.join(slots))",
  ].join('\n');
}

/** Whether every event of the list has convertible times (no multi-day entries). */
const allTimed = (events: readonly Event[]) => events.every((e) => span(e) !== null);

/** Most dates one GetValue observation can list (one token per value plus the key, under 1,024 tokens). */
const MAX_LISTED_VALUES = 1000;

type DateSlots = { date: string };
type BusySlots = { start: string; end: string; date: string };
type PersonDateSlots = { person: string; date: string };
type PersonSlots = { person: string };

const h1: TaskTemplate<DateSlots> = {
  id: 'agenda-hard-H1',
  dataset: 'agenda',
  difficulty: 'hard',
  label: 'H1',
  question: 'How many events are listed for {date} in the agenda table?',
  goldRule: 'The number of rows with that date.',
  sample(ctx) {
    const a = agenda(ctx);
    const date = ctx.rng.pick(a.dates);
    return { slots: { date }, gold: { type: 'int', value: (a.byDate.get(date) as Event[]).length } };
  },
  *solve({ date }) {
    yield load;
    return filteredRows(yield filter(`date=${date}`));
  },
};

const h2: TaskTemplate<BusySlots> = {
  id: 'agenda-hard-H2',
  dataset: 'agenda',
  difficulty: 'hard',
  label: 'H2',
  question:
    'How many different people have something scheduled between {start} and {end} on {date} in the agenda table?',
  goldRule:
    'The number of distinct persons with an event that date starting before the end and ending after the start (times of one day, so an event past midnight ends early).',
  sample(ctx) {
    const a = agenda(ctx);
    const date = ctx.rng.pick(a.dates);
    const events = a.byDate.get(date) as Event[];
    if (!allTimed(events)) return null;
    const window = ctx.rng.pick(events);
    const [ws, we] = span(window) as [number, number];
    if (we <= ws) return null;
    const busy = new Set(
      events
        .filter((e) => {
          const [s, t] = span(e) as [number, number];
          return s < we && t > ws;
        })
        .map((e) => e.person),
    );
    return {
      slots: { start: window.startTime, end: window.endTime, date },
      gold: { type: 'int', value: busy.size },
    };
  },
  *solve({ start, end, date }) {
    yield load;
    yield filter(`date=${date}, start_time<${end}, end_time>${start}`);
    const people = getValueColumn(yield getValue('person'), 'person');
    const out = yield python(`people = ${pyStrList(people)}\nprint(len(set(people)))`);
    return out.trim();
  },
};

const h3: TaskTemplate<PersonDateSlots> = {
  id: 'agenda-hard-H3',
  dataset: 'agenda',
  difficulty: 'hard',
  label: 'H3',
  question:
    'Which free slots of at least one hour does {person} have between 9:00 AM and 6:00 PM on {date} in the agenda table?',
  goldRule:
    'The maximal free intervals of ≥ 60 minutes within 9:00 AM–6:00 PM around the person’s events, as `9:00 AM-1:00 PM, 3:00 PM-6:00 PM`.',
  sample(ctx) {
    const a = agenda(ctx);
    const e = randomEvent(ctx);
    const mine = (a.byDate.get(e.date) as Event[]).filter((x) => x.person === e.person);
    if (!allTimed(mine)) return null;
    const slots = freeSlots(mine.map((x) => span(x) as [number, number]));
    if (slots.length === 0) return null;
    return { slots: { person: e.person, date: e.date }, gold: formatSlots(slots) };
  },
  *solve({ person, date }) {
    yield load;
    yield filter(`person=${person}, date=${date}`);
    const obs = yield getValue('start_time, end_time');
    const starts = pyStrList(getValueColumn(obs, 'start_time'));
    const ends = pyStrList(getValueColumn(obs, 'end_time'));
    const out = yield python(freeSlotsCode(starts, ends));
    return out.trim();
  },
};

const h4: TaskTemplate<PersonDateSlots> = {
  id: 'agenda-hard-H4',
  dataset: 'agenda',
  difficulty: 'hard',
  label: 'H4',
  question: 'Which events does {person} have on {date} in the agenda table?',
  goldRule: 'The distinct events of that person and date, in table order, joined with `, `.',
  sample(ctx) {
    const e = randomEvent(ctx);
    const a = agenda(ctx);
    const mine = (a.byDate.get(e.date) as Event[]).filter((x) => x.person === e.person);
    // byDate keeps table order.
    return {
      slots: { person: e.person, date: e.date },
      gold: [...new Set(mine.map((x) => x.event))].join(', '),
    };
  },
  *solve({ person, date }) {
    yield load;
    yield filter(`person=${person}, date=${date}`);
    const events = getValueColumn(yield getValue('event'), 'event').map(String);
    return [...new Set(events)].join(', ');
  },
};

const h5: TaskTemplate<PersonSlots> = {
  id: 'agenda-hard-H5',
  dataset: 'agenda',
  difficulty: 'hard',
  label: 'H5',
  question: 'On how many distinct dates does {person} have something scheduled in the agenda table?',
  goldRule: 'The number of distinct dates with at least one event of that person.',
  sample(ctx) {
    const a = agenda(ctx);
    const person = ctx.rng.pick(a.people);
    const events = a.byPerson.get(person) as Event[];
    if (events.length > MAX_LISTED_VALUES) return null;
    return { slots: { person }, gold: { type: 'int', value: new Set(events.map((e) => e.date)).size } };
  },
  *solve({ person }) {
    yield load;
    yield filter(`person=${person}`);
    const dates = getValueColumn(yield getValue('date'), 'date');
    const out = yield python(`dates = ${pyStrList(dates)}\nprint(len(set(dates)))`);
    return out.trim();
  },
};

const hard: TaskTemplate[] = [h1, h2, h3, h4, h5];

export const AGENDA_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
