import { beforeAll, describe, expect, it } from 'vitest';
import { MONTH_NAMES } from '../../../core/util/calendar.ts';
import { hash128, Rng } from '../../../core/util/random.ts';
import {
  AGENDA_COLUMNS,
  type AgendaCorpus,
  agendaTimeToTable,
  formatAgendaTime,
  generateAgenda,
  ordinal,
  parseAgendaTime,
} from '../../../core/world/corpora/agenda.ts';
import type { AgendaEvent } from '../../../core/world/types.ts';

const MONTHS: readonly string[] = MONTH_NAMES;

function fingerprint(c: AgendaCorpus): string {
  const rows = Array.from({ length: c.table.rowCount }, (_, i) => c.table.row(i).join('\t'));
  return hash128(JSON.stringify([c.events, c.passages, rows])).join('-');
}

/** Minutes of a day event on the 24-hour clock, overnight events extending past midnight. */
function interval(e: AgendaEvent): [number, number] | null {
  const s = parseAgendaTime(e.startTime);
  const t = parseAgendaTime(e.endTime);
  if (s === null || t === null) return null;
  return [s, t <= s ? t + 1440 : t];
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

describe('agenda time conversion (LoadDB, spec §2.5)', () => {
  it('converts H:MM AM/PM and H AM/PM to HH:MM:SS and leaves anything else unchanged', () => {
    expect(agendaTimeToTable('9:00 AM')).toBe('09:00:00');
    expect(agendaTimeToTable('6 PM')).toBe('18:00:00');
    expect(agendaTimeToTable('12:00 AM')).toBe('00:00:00');
    expect(agendaTimeToTable('12:30 PM')).toBe('12:30:00');
    expect(agendaTimeToTable('11:45 PM')).toBe('23:45:00');
    expect(agendaTimeToTable('12:00 PM (day 1)')).toBe('12:00 PM (day 1)');
    expect(agendaTimeToTable('13:00 PM')).toBe('13:00 PM');
    expect(agendaTimeToTable('noon')).toBe('noon');
  });

  it('writes raw times the way the original data does', () => {
    expect(formatAgendaTime(9 * 60)).toBe('9:00 AM');
    expect(formatAgendaTime(18 * 60, true)).toBe('6 PM');
    expect(formatAgendaTime(18 * 60 + 30, true)).toBe('6:30 PM');
    expect(formatAgendaTime(0)).toBe('12:00 AM');
    expect(formatAgendaTime(12 * 60)).toBe('12:00 PM');
    expect(formatAgendaTime(25 * 60)).toBe('1:00 AM');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '31st',
    ]);
  });
});

describe('generateAgenda at scale 1', () => {
  let c: AgendaCorpus;
  beforeAll(() => {
    c = generateAgenda(new Rng('agenda-test'), 1);
  });

  it('is deterministic per seed and differs across seeds', () => {
    expect(fingerprint(generateAgenda(new Rng('agenda-test'), 1))).toBe(fingerprint(c));
    expect(fingerprint(generateAgenda(new Rng('agenda-other'), 1))).not.toBe(fingerprint(c));
  });

  it('has the LoadDB columns and one row per event, rendered as LoadDB renders it', () => {
    expect(c.table.columnNames()).toEqual([
      'event',
      'start_time',
      'end_time',
      'location',
      'person',
      'date',
      'id',
    ]);
    expect(AGENDA_COLUMNS.map((col) => col.name)).toEqual(c.table.columnNames());
    expect(c.events.length).toBeGreaterThanOrEqual(10_000);
    expect(c.table.rowCount).toBe(c.events.length);
    c.events.forEach((e, i) => {
      expect(e.id).toBe(`agenda-${String(i).padStart(4, '0')}`);
      expect(c.table.row(i)).toEqual([
        e.event,
        agendaTimeToTable(e.startTime),
        agendaTimeToTable(e.endTime),
        e.location,
        e.person,
        e.date,
        e.id,
      ]);
    });
  });

  it('has about 100 people, 2022 dates with 16–33 events each, including a few invalid dates', () => {
    const people = new Set(c.events.map((e) => e.person));
    expect(people.size).toBe(100);
    const byDate = groupBy(c.events, (e) => e.date);
    for (const date of byDate.keys()) expect(date).toMatch(/^2022\/(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])$/);
    expect(byDate.size).toBe(368);
    for (const events of byDate.values()) {
      expect(events.length).toBeGreaterThanOrEqual(16);
      expect(events.length).toBeLessThanOrEqual(33);
    }
    expect(byDate.get('2022/02/29')?.length).toBeGreaterThan(0);
    const dateCounts = [...groupBy(c.events, (e) => e.person).values()].map(
      (es) => new Set(es.map((e) => e.date)).size,
    );
    expect(Math.min(...dateCounts)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...dateCounts)).toBeLessThanOrEqual(115);
  });

  it('keeps the raw-value quirks of the original: hour-only times, unconvertible times, trailing spaces, overnight events', () => {
    const hourOnly = c.events.filter((e) => /^\d{1,2} [AP]M$/.test(e.startTime));
    expect(hourOnly.length).toBeGreaterThan(100);
    const multiDay = c.events.filter((e) => parseAgendaTime(e.startTime) === null);
    expect(multiDay.length).toBeGreaterThan(5);
    expect(multiDay.length).toBeLessThan(100);
    for (const e of multiDay) {
      expect(e.startTime).toMatch(/^\d{1,2}:\d{2} [AP]M \(day 1\)$/);
      expect(e.endTime).toMatch(/^\d{1,2}:\d{2} [AP]M \(day [23]\)$/);
      expect(c.table.cell(Number(e.id.slice(7)), 'start_time')).toBe(e.startTime);
    }
    expect(c.events.some((e) => e.location.endsWith(' '))).toBe(true);
    const overnight = c.events.filter((e) => {
      const s = agendaTimeToTable(e.startTime);
      const t = agendaTimeToTable(e.endTime);
      return parseAgendaTime(e.startTime) !== null && t < s;
    });
    expect(overnight.length).toBeGreaterThan(10);
    expect(new Set(c.events.map((e) => e.event)).size).toBeGreaterThan(300);
  });

  it('gives every easy template exactly one answer', () => {
    const e1 = new Set<string>();
    const e2 = new Set<string>();
    const e5 = new Set<string>();
    for (const e of c.events) {
      // E1: person + times + date → event; E2–E4: person + event + date → location/start/duration.
      e1.add(`${e.person}|${e.startTime}|${e.endTime}|${e.date}`);
      e2.add(`${e.person}|${e.event.toLowerCase()}|${e.date}`);
      // E5: event + times + date + location → person.
      e5.add(`${e.event}|${e.startTime}|${e.endTime}|${e.date}|${e.location}`);
    }
    expect(e1.size).toBe(c.events.length);
    expect(e2.size).toBe(c.events.length);
    expect(e5.size).toBe(c.events.length);
  });

  it("never overlaps one person's events on a date; overnight and multi-day events come last or alone", () => {
    for (const events of groupBy(c.events, (e) => `${e.person}|${e.date}`).values()) {
      const spans = events.map(interval);
      if (spans.some((s) => s === null)) {
        expect(events.length).toBe(1);
        continue;
      }
      const sorted = (spans as [number, number][]).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < sorted.length; i++) {
        expect(sorted[i]?.[0]).toBeGreaterThanOrEqual(sorted[i - 1]?.[1] as number);
      }
      for (const [, end] of sorted.slice(0, -1)) expect(end).toBeLessThanOrEqual(1440);
    }
  });

  it('has no cell FilterDB could not filter on (no ", ", "=", "<", ">")', () => {
    const bad: string[] = [];
    for (let i = 0; i < c.table.rowCount; i++) {
      for (const cell of c.table.row(i)) if (/, |[=<>]/.test(cell)) bad.push(cell);
    }
    expect(bad).toEqual([]);
  });

  it('writes one passage per event that states person, event, date, times and location', () => {
    expect(c.passages.map((p) => p.id)).toEqual(c.events.map((e) => e.id));
    c.events.forEach((e, i) => {
      const text = (c.passages[i] as { text: string }).text;
      expect(text).toContain(e.person);
      expect(text.toLowerCase()).toContain(e.event.toLowerCase());
      expect(text).toContain(e.startTime);
      expect(text).toContain(e.endTime);
      expect(text).toContain(e.location.trim());
      const month = MONTHS[Number(e.date.slice(5, 7)) - 1] as string;
      const day = Number(e.date.slice(8));
      const natural =
        new RegExp(`\\b(${month}|${month.slice(0, 3)})\\b`).test(text) &&
        new RegExp(`\\b${day}(st|nd|rd|th)?\\b`).test(text) &&
        text.includes('2022');
      expect(natural || text.includes(e.date), `${e.id}: ${text}`).toBe(true);
      const sentences = text.split(/(?<=[.!?])\s+(?=[A-Z"])/).length;
      expect(sentences).toBeGreaterThanOrEqual(2);
      expect(sentences).toBeLessThanOrEqual(8);
    });
  });

  it('varies the wording and the date formats of passages', () => {
    const openings = new Set(
      c.passages.map((p, i) =>
        p.text
          .replace((c.events[i] as AgendaEvent).person, 'X')
          .split(' ')
          .slice(0, 3)
          .join(' '),
      ),
    );
    expect(openings.size).toBeGreaterThan(25);
    const texts = c.passages.map((p) => p.text);
    expect(
      texts.some((t) =>
        /\b(Sunday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday), \w+ \d+(st|nd|rd|th) 2022/.test(t),
      ),
    ).toBe(true);
    expect(texts.some((t) => /\b[A-Z][a-z]+ \d{1,2}, 2022/.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('Christmas Day, December 25th, 2022'))).toBe(true);
    expect(texts.some((t) => /the \d+(st|nd|rd|th) of [A-Z][a-z]+, 2022/.test(t))).toBe(true);
    expect(texts.some((t) => /\b(She|He|she|he)\b/.test(t))).toBe(true);
  });
});

describe('generateAgenda at other scales', () => {
  it('works at scale 0.1 with the same invariants on fewer dates', () => {
    const c = generateAgenda(new Rng('small'), 0.1);
    expect(c.events.length).toBe(1000);
    expect(new Set(c.events.map((e) => e.person)).size).toBe(100);
    const dates = new Set(c.events.map((e) => e.date));
    expect(dates.size).toBeGreaterThan(30);
    expect(dates.size).toBeLessThan(60);
    expect(
      new Set(c.events.map((e) => `${e.event}|${e.startTime}|${e.endTime}|${e.date}|${e.location}`)).size,
    ).toBe(1000);
  });

  it('works at scale 4', () => {
    const c = generateAgenda(new Rng('big'), 4);
    expect(c.events.length).toBe(40_000);
    expect(c.events[39_999]?.id).toBe('agenda-39999');
    expect(c.passages.length).toBe(40_000);
    expect(new Set(c.events.map((e) => `${e.person}|${e.startTime}|${e.endTime}|${e.date}`)).size).toBe(
      40_000,
    );
  });

  it('rejects a non-positive scale', () => {
    expect(() => generateAgenda(new Rng(1), 0)).toThrow(RangeError);
  });
});
