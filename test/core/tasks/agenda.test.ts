import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { AGENDA_COLUMNS, agendaTimeToTable, generateAgenda } from '../../../core/world/corpora/agenda.ts';
import { TableBuilder } from '../../../core/world/table.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import {
  AGENDA_TEMPLATES,
  agendaDuration,
  formatSlots,
  freeSlots,
  normalizeDatePhrase,
  readAgendaPassage,
} from '../../../core/world/tasks/templates/agenda.ts';
import { type Gold, renderQuestion, type Slots, type TaskTemplate } from '../../../core/world/tasks/types.ts';
import type { AgendaEvent, World } from '../../../core/world/types.ts';

function template(label: string): TaskTemplate {
  const t = AGENDA_TEMPLATES.find((x) => x.label === label);
  if (!t) throw new Error(`no template ${label}`);
  return t;
}

/** The regex an agent simulator derives from a pattern: literal text, slots as lazy groups. */
function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

const worlds = new Map<string, World>();
function agendaWorld(seed: string, scale = 1): World {
  const key = `${seed}/${scale}`;
  let w = worlds.get(key);
  if (!w) {
    const a = generateAgenda(new Rng(seed).fork('agenda'), scale);
    w = {
      config: { seed, scale },
      tables: { agenda: a.table },
      agendaEvents: a.events,
      agendaPassages: a.passages,
    } as unknown as World;
    worlds.set(key, w);
  }
  return w;
}

/** A world from hand-written events (no passages: for the table templates). */
function tinyWorld(events: Omit<AgendaEvent, 'id'>[]): World {
  const b = new TableBuilder('agenda', AGENDA_COLUMNS, events.length);
  const full = events.map((e, i) => ({ ...e, id: `agenda-${String(i).padStart(4, '0')}` }));
  for (const e of full) {
    b.add([
      e.event,
      agendaTimeToTable(e.startTime),
      agendaTimeToTable(e.endTime),
      e.location,
      e.person,
      e.date,
      e.id,
    ]);
  }
  return {
    config: { seed: 'tiny', scale: 1 },
    tables: { agenda: b.build() },
    agendaEvents: full,
    agendaPassages: [],
  } as unknown as World;
}

/** Distinct questions from up to the generator's draw budget. */
function distinctDraws(
  world: World,
  t: TaskTemplate,
  n: number,
  seed = 'draws',
): { slots: Slots; gold: Gold }[] {
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

describe('agenda passage reader', () => {
  it('reads an opening plus a time-and-place sentence', () => {
    expect(
      readAgendaPassage(
        'Coming up on Sunday, March 27th 2022, Joshua has a pottery class planned. It is scheduled from 1:30 PM to 4:00 PM, and the venue is Brooklyn Clay. He plans to arrive early to find a good seat.',
      ),
    ).toEqual({
      person: 'Joshua',
      event: 'a pottery class',
      date: '2022/03/27',
      start: '1:30 PM',
      end: '4:00 PM',
      location: 'Brooklyn Clay',
    });
  });

  it('reads one all-in-one sentence and does not run an event across sentences', () => {
    expect(
      readAgendaPassage(
        "On November 21, 2022, Savannah has decided to watch the soccer match. She will grab a quick bite beforehand. She'll be at The Football Factory from 3 PM to 5 PM.",
      ),
    ).toEqual({
      person: 'Savannah',
      event: 'watch the soccer match',
      date: '2022/11/21',
      start: '3 PM',
      end: '5 PM',
      location: 'The Football Factory',
    });
    expect(
      readAgendaPassage(
        '"Surprise birthday party" is on Andrew\'s calendar for Wednesday, August 10, 2022: 1:00 PM to 3:00 PM at Grand Hall. He still needs to pick up a gift on the way.',
      ),
    ).toMatchObject({
      person: 'Andrew',
      event: 'Surprise birthday party',
      start: '1:00 PM',
      location: 'Grand Hall',
    });
  });

  it('keeps abbreviations inside places and knows a multi-word event when told', () => {
    expect(
      readAgendaPassage(
        "Mia is going to a blood donation on 2022/02/29. The donation runs from 9:00 AM to 10:00 AM at St. Mary's Hospital. It is one of the highlights of her week.",
      ),
    ).toMatchObject({ date: '2022/02/29', location: "St. Mary's Hospital" });
    expect(
      readAgendaPassage(
        'Olivia will attend board game night at Hex & Co. on Sunday, December 11th 2022, from 8:30 PM to 12:30 AM. She is excited.',
      ),
    ).toMatchObject({ location: 'Hex & Co.', end: '12:30 AM' });
    const text =
      'On Friday, October 28th, 2022, Leo has volunteering at the food bank at City Harvest Food Bank from 11:00 AM to 1:00 PM.';
    expect(readAgendaPassage(text)?.location).not.toBe('City Harvest Food Bank');
    expect(readAgendaPassage(text, 'Volunteering at the food bank')).toMatchObject({
      event: 'volunteering at the food bank',
      location: 'City Harvest Food Bank',
    });
  });

  it('rejects text that is not an agenda entry', () => {
    expect(readAgendaPassage('The weather was nice. Nothing else happened.')).toBeNull();
  });

  it('normalises the date phrases of the passages', () => {
    expect(normalizeDatePhrase('Sunday, January 16th 2022')).toBe('2022/01/16');
    expect(normalizeDatePhrase('Christmas Day, December 25th, 2022')).toBe('2022/12/25');
    expect(normalizeDatePhrase('the 5th of March, 2022')).toBe('2022/03/05');
    expect(normalizeDatePhrase('14 June 2022')).toBe('2022/06/14');
    expect(normalizeDatePhrase('Sep 9, 2022')).toBe('2022/09/09');
    expect(normalizeDatePhrase('2022/04/31')).toBe('2022/04/31');
    expect(normalizeDatePhrase('someday')).toBeNull();
  });

  it('reads the passages of a generated corpus (places like "Chuck E. Cheese" ending a sentence excepted)', () => {
    const w = agendaWorld('reader');
    let wrong = 0;
    w.agendaEvents.forEach((e, i) => {
      const f = readAgendaPassage(w.agendaPassages[i]?.text as string, e.event);
      const right =
        f !== null &&
        f.person === e.person &&
        f.date === e.date &&
        f.start === e.startTime &&
        f.end === e.endTime &&
        f.location === e.location.trim();
      if (!right) wrong++;
    });
    expect(wrong / w.agendaEvents.length).toBeLessThan(0.002);
  });
});

describe('agenda gold rules', () => {
  it('E4: durations are timedeltas, past midnight adding a day', () => {
    expect(agendaDuration('8:00 PM', '11:00 PM')).toBe('3:00:00');
    expect(agendaDuration('9:00 AM', '9:30 AM')).toBe('0:30:00');
    expect(agendaDuration('6 PM', '8:30 PM')).toBe('2:30:00');
    expect(agendaDuration('10:00 PM', '1:00 AM')).toBe('3:00:00');
    expect(agendaDuration('12:00 PM (day 1)', '6:00 PM (day 3)')).toBeNull();
  });

  it('H3: maximal free intervals of at least an hour inside 9:00 AM–6:00 PM (spec §7.10 examples)', () => {
    const h = (x: number) => x * 60;
    expect(formatSlots(freeSlots([[h(20), h(22)]]))).toBe('9:00 AM-6:00 PM');
    expect(formatSlots(freeSlots([[h(7), h(10)]]))).toBe('10:00 AM-6:00 PM');
    expect(
      formatSlots(
        freeSlots([
          [h(19.5), h(22.5)],
          [h(14), h(16)],
        ]),
      ),
    ).toBe('9:00 AM-2:00 PM, 4:00 PM-6:00 PM');
    // Past midnight: occupies the rest of the day; gaps under an hour are not slots.
    expect(formatSlots(freeSlots([[h(17), h(1)]]))).toBe('9:00 AM-5:00 PM');
    expect(
      freeSlots([
        [h(9.5), h(10)],
        [h(10.75), h(17.5)],
      ]),
    ).toEqual([]);
    expect(formatSlots(freeSlots([[h(11), h(12.25)]]))).toBe('9:00 AM-11:00 AM, 12:15 PM-6:00 PM');
  });

  const day = '2022/03/01';
  const tiny = tinyWorld([
    {
      event: 'Yoga class',
      startTime: '9:00 AM',
      endTime: '11:00 AM',
      location: 'Studio',
      person: 'Alice',
      date: day,
    },
    {
      event: 'Team meeting',
      startTime: '10:30 AM',
      endTime: '12:00 PM',
      location: 'Office',
      person: 'Bob',
      date: day,
    },
    {
      event: 'Client lunch',
      startTime: '11:00 AM',
      endTime: '1:00 PM',
      location: 'The Palm',
      person: 'Carol',
      date: day,
    },
    {
      event: 'Art walk',
      startTime: '2 PM',
      endTime: '3 PM',
      location: 'Chelsea',
      person: 'Alice',
      date: day,
    },
    {
      event: 'Night shift',
      startTime: '11:00 PM',
      endTime: '1:00 AM',
      location: 'Hospital',
      person: 'Dan',
      date: day,
    },
  ]);

  it('H2: distinct people overlapping a window; past-midnight events end early and never form windows', async () => {
    const expected: Record<string, number> = { '9:00 AM': 2, '10:30 AM': 3, '11:00 AM': 2, '2 PM': 1 };
    const draws = distinctDraws(tiny, template('H2'), 10);
    expect(draws.map((d) => d.slots.start).sort()).toEqual(Object.keys(expected).sort());
    for (const d of draws) {
      expect(d.gold).toEqual({ type: 'int', value: expected[d.slots.start as string] });
      expect((await runReferencePlan(tiny, template('H2'), d.slots, d.gold)).correct).toBe(true);
    }
  });

  it('H3, H4: free slots and events of one person and date', async () => {
    for (const label of ['H3', 'H4']) {
      const alice = distinctDraws(tiny, template(label), 5).find((d) => d.slots.person === 'Alice');
      expect(alice?.gold).toBe(label === 'H3' ? '11:00 AM-2:00 PM, 3:00 PM-6:00 PM' : 'Yoga class, Art walk');
      const run = await runReferencePlan(tiny, template(label), alice?.slots as Slots, alice?.gold as Gold);
      expect(run.correct).toBe(true);
    }
  });

  it('H1, H5: row and distinct-date counts are ints', () => {
    expect(distinctDraws(tiny, template('H1'), 2)).toEqual([
      { slots: { date: day }, gold: { type: 'int', value: 5 } },
    ]);
    const alice = distinctDraws(tiny, template('H5'), 4).find((d) => d.slots.person === 'Alice');
    expect(alice?.gold).toEqual({ type: 'int', value: 1 });
  });
});

describe('agenda templates on generated corpora', () => {
  it('are 5 easy then 5 hard templates in spec label order with distinct patterns', () => {
    expect(AGENDA_TEMPLATES.map((t) => `${t.difficulty}-${t.label}`)).toEqual([
      'easy-E1',
      'easy-E2',
      'easy-E3',
      'easy-E4',
      'easy-E5',
      'hard-H1',
      'hard-H2',
      'hard-H3',
      'hard-H4',
      'hard-H5',
    ]);
    expect(new Set(AGENDA_TEMPLATES.map((t) => t.question)).size).toBe(10);
  });

  it('every template yields 35 distinct questions at scale 1 (test 10 + dev 5 + train 20)', () => {
    for (const t of AGENDA_TEMPLATES)
      expect(distinctDraws(agendaWorld('alpha'), t, 35).length, t.id).toBe(35);
  });

  it('questions match their own pattern and no other template’s', () => {
    const regexes = AGENDA_TEMPLATES.map((t) => patternRegex(t.question));
    AGENDA_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(agendaWorld('alpha'), t, 10)) {
        const q = renderQuestion(t.question, d.slots);
        expect(
          regexes.map((r) => r.test(q)),
          q,
        ).toEqual(regexes.map((_, j) => j === i));
      }
    });
  });

  it('sampling is deterministic', () => {
    for (const t of AGENDA_TEMPLATES) {
      expect(distinctDraws(agendaWorld('alpha'), t, 5)).toEqual(distinctDraws(agendaWorld('alpha'), t, 5));
    }
  });

  it.each(['alpha', 'beta'])(
    'reference plans reach gold (world %s)',
    async (seed) => {
      const world = agendaWorld(seed);
      for (const t of AGENDA_TEMPLATES) {
        for (const d of distinctDraws(world, t, 8, `plans-${seed}`)) {
          const run = await runReferencePlan(world, t, d.slots, d.gold);
          expect(run.correct, `${renderQuestion(t.question, d.slots)} → ${String(run.answer)}`).toBe(true);
        }
      }
    },
    120_000,
  );
});
