import { describe, expect, it } from 'vitest';
import type { ParamSpec, RetiredName, Surface, SurfaceTool } from '../../../core/surfaces/model.ts';
import {
  deprecationHeaders,
  deprecationHeaderValue,
  deprecationLinkHeaderValue,
  fixedClock,
  manualClock,
  parseSchedule,
  resolveSchedule,
  type Schedule,
  ScheduleError,
  sunsetHeaderValue,
  systemClock,
  validateSchedule,
} from '../../../core/surfaces/schedule.ts';
import type { KernelToolName } from '../../../core/world/kernel/kernel.ts';

// Small surfaces shaped like P_c, P_s_in and P_s_OOD (spec §4.2–4.4), built here so the tests do not depend on
// the built-in surface definitions.
function tool(
  kernel: KernelToolName,
  name: string,
  params: ParamSpec[],
  example: Record<string, unknown>,
): SurfaceTool {
  return {
    kernel,
    name,
    params,
    keyMismatch: 'param-error',
    description: `${name} tool.`,
    example,
    lifecycle: { status: 'active' },
  };
}
const rename = (name: string, kernel: string): ParamSpec => ({
  kind: 'rename',
  name,
  kernel,
  description: name,
});

function surface(id: string, tools: SurfaceTool[], retired: RetiredName[] = []): Surface {
  return {
    id,
    title: id,
    description: `${id} surface`,
    tools,
    retired,
    response: { kind: 'plain' },
    messages: { invalidAction: 'invalid', filtered: 'filtered' },
  };
}

const finish = tool('Finish', 'Finish', [rename('answer', 'answer')], { answer: '42' });
const pc = surface('pc', [
  tool('RetrieveAgenda', 'RetrieveAgenda', [rename('keyword', 'keyword')], { keyword: 'opera' }),
  tool('LoadDB', 'LoadDB', [rename('DBName', 'DBName')], { DBName: 'flights' }),
  tool('FilterDB', 'FilterDB', [rename('condition', 'condition')], { condition: 'a=b' }),
  tool('SQLInterpreter', 'SQLInterpreter', [rename('SQL', 'SQL')], { SQL: 'SELECT 1' }),
  finish,
]);
const sIn = surface('s-in', [
  tool(
    'RetrieveAgenda',
    'Fetch_Agenda_Data',
    [rename('Query', 'keyword'), { kind: 'ignored', name: 'return_num', description: 'ignored', example: 3 }],
    { Query: "Stephen's Opera performance", return_num: 3 },
  ),
  tool('LoadDB', 'InitializeDatabase', [rename('DatabaseName', 'DBName')], { DatabaseName: 'flights' }),
  tool(
    'FilterDB',
    'Apply_Database_Filters',
    [
      {
        kind: 'numbered',
        prefix: 'condition',
        kernel: 'condition',
        joiner: ', ',
        singleKey: 'condition',
        description: 'c',
      },
    ],
    { condition1: 'NAME=Chao Zhang', condition2: 'Date<=2004-01-16' },
  ),
  tool('SQLInterpreter', 'ExecuteSQLQuery', [rename('SQLCommand', 'SQL')], { SQLCommand: 'x' }),
  finish,
]);
const sOod = surface('s-ood', [
  tool('RetrieveAgenda', 'Call_Retrieve_On_Agenda', [rename('searchTerm', 'keyword')], { searchTerm: 'x' }),
  tool('LoadDB', 'Init_DB', [rename('databaseIdentifier', 'DBName')], { databaseIdentifier: 'flights' }),
  tool('FilterDB', 'DoFilter_OnDatabase', [rename('filterCriteria', 'condition')], { filterCriteria: 'a=b' }),
  // No SQL tool any more: its old names have no successor.
  finish,
]);
const surfaces = new Map([pc, sIn, sOod].map((s) => [s.id, s]));

const schedule: Schedule = parseSchedule({
  id: 'drift-2026',
  stages: [
    { surface: 'pc', effectiveFrom: '2026-01-01' },
    { surface: 's-in', effectiveFrom: '2026-02-01T00:00:00Z', sunsetAt: '2026-03-01' },
    { surface: 's-ood', effectiveFrom: '2026-04-01T00:00:00Z', sunsetAt: '2026-05-01T00:00:00Z' },
  ],
});

const at = (iso: string) => new Date(iso);
const names = (s: Surface) => s.tools.map((t) => t.name);
const byName = (s: Surface, name: string) => s.tools.find((t) => t.name === name);
const retiredNames = (s: Surface) => s.retired.map((r) => r.name).sort();

describe('resolveSchedule: the clock before, within and after deprecation windows', () => {
  it('serves the first stage before and during its time, and points at the first takeover', () => {
    for (const t of ['2025-06-01T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-31T23:59:59.999Z']) {
      const r = resolveSchedule(schedule, surfaces, at(t));
      expect(r.stageIndex).toBe(0);
      expect(r.current).toEqual(pc);
      expect(r.nextChangeAt?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    }
  });

  it('keeps the dropped names working as deprecated tools inside the window', () => {
    const clock = manualClock('2026-02-01T00:00:00Z');
    const r = resolveSchedule(schedule, surfaces, clock.now());
    expect(r.stageIndex).toBe(1);
    expect(names(r.current)).toEqual([
      'Fetch_Agenda_Data',
      'InitializeDatabase',
      'Apply_Database_Filters',
      'ExecuteSQLQuery',
      'Finish',
      'RetrieveAgenda',
      'LoadDB',
      'FilterDB',
      'SQLInterpreter',
    ]);
    expect(byName(r.current, 'LoadDB')).toEqual({
      ...byName(pc, 'LoadDB'),
      lifecycle: {
        status: 'deprecated',
        deprecatedAt: '2026-02-01T00:00:00.000Z',
        sunsetAt: '2026-03-01T00:00:00.000Z',
        successor: 'InitializeDatabase',
      },
    });
    // Finish is served by both stages, so it is neither deprecated nor duplicated.
    expect(byName(r.current, 'Finish')?.lifecycle.status).toBe('active');
    expect(r.current.retired).toEqual([]);
    expect(r.nextChangeAt?.toISOString()).toBe('2026-03-01T00:00:00.000Z');

    clock.set('2026-02-28T23:59:59.999Z');
    expect(resolveSchedule(schedule, surfaces, clock.now()).current).toEqual(r.current);
  });

  it('retires the names at the sunset instant with a spec §4.6 style message', () => {
    const clock = manualClock('2026-02-28T23:59:59.999Z');
    clock.advance(1);
    const r = resolveSchedule(schedule, surfaces, clock.now());
    expect(r.stageIndex).toBe(1);
    expect(names(r.current)).toEqual(names(sIn));
    expect(r.current.tools.every((t) => t.lifecycle.status === 'active')).toBe(true);
    const messages = Object.fromEntries(r.current.retired.map((x) => [x.name, x]));
    // LoadDB and RetrieveAgenda word for word as the spec's v1 observations (RetrieveAgenda as in inference_gpt);
    // a numbered group is written as signature.ts documents it.
    expect(messages.LoadDB).toEqual({
      name: 'LoadDB',
      kernel: 'LoadDB',
      successor: 'InitializeDatabase',
      message:
        'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use InitializeDatabase[DatabaseName], param example: {"DatabaseName": "flights"} instead.',
    });
    expect(messages.FilterDB?.message).toBe(
      'Error: FilterDB[condition] is deprecated and will be removed in future releases. Use Apply_Database_Filters[condition1, condition2, ...], param example: {"condition1": "NAME=Chao Zhang", "condition2": "Date<=2004-01-16"} instead.',
    );
    expect(messages.RetrieveAgenda?.message).toBe(
      `Error: RetrieveAgenda[keyword] is deprecated and will be removed in future releases. Use Fetch_Agenda_Data[Query, return_num], param example: {"Query": "Stephen's Opera performance", "return_num": 3} instead.`,
    );
    expect(r.nextChangeAt?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
  });

  it('points every old name at the newest successor after a second takeover', () => {
    const r = resolveSchedule(schedule, surfaces, at('2026-04-15T12:00:00Z'));
    expect(r.stageIndex).toBe(2);
    expect(byName(r.current, 'InitializeDatabase')?.lifecycle).toEqual({
      status: 'deprecated',
      deprecatedAt: '2026-04-01T00:00:00.000Z',
      sunsetAt: '2026-05-01T00:00:00.000Z',
      successor: 'Init_DB',
    });
    // The SQL tool has no successor on s-ood: it works without one until the sunset …
    expect(byName(r.current, 'ExecuteSQLQuery')?.lifecycle).toEqual({
      status: 'deprecated',
      deprecatedAt: '2026-04-01T00:00:00.000Z',
      sunsetAt: '2026-05-01T00:00:00.000Z',
    });
    const loadDb = r.current.retired.find((x) => x.name === 'LoadDB');
    expect(loadDb?.message).toBe(
      'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use Init_DB[databaseIdentifier], param example: {"databaseIdentifier": "flights"} instead.',
    );
    // … while SQLInterpreter, retired before, has nothing to point to and becomes an unknown name.
    expect(retiredNames(r.current)).toEqual(['FilterDB', 'LoadDB', 'RetrieveAgenda']);
    expect(r.nextChangeAt?.toISOString()).toBe('2026-05-01T00:00:00.000Z');

    const after = resolveSchedule(schedule, surfaces, at('2026-05-01T00:00:00Z'));
    expect(names(after.current)).toEqual(names(sOod));
    expect(retiredNames(after.current)).toEqual([
      'Apply_Database_Filters',
      'Fetch_Agenda_Data',
      'FilterDB',
      'InitializeDatabase',
      'LoadDB',
      'RetrieveAgenda',
    ]);
    expect(after.current.retired.find((x) => x.name === 'Fetch_Agenda_Data')?.successor).toBe(
      'Call_Retrieve_On_Agenda',
    );
    expect(after.nextChangeAt).toBeNull();
  });

  it('keeps a promised sunset when the next stage takes over inside the window', () => {
    const overlapping = parseSchedule({
      id: 'overlap',
      stages: [
        { surface: 'pc', effectiveFrom: '2026-01-01' },
        { surface: 's-in', effectiveFrom: '2026-02-01', sunsetAt: '2026-06-01' },
        { surface: 's-ood', effectiveFrom: '2026-03-01', sunsetAt: '2026-04-01' },
      ],
    });
    const r = resolveSchedule(overlapping, surfaces, at('2026-03-15T00:00:00Z'));
    expect(r.stageIndex).toBe(2);
    expect(byName(r.current, 'LoadDB')?.lifecycle).toEqual({
      status: 'deprecated',
      deprecatedAt: '2026-02-01T00:00:00.000Z',
      sunsetAt: '2026-06-01T00:00:00.000Z',
      successor: 'Init_DB',
    });
    expect(byName(r.current, 'InitializeDatabase')?.lifecycle.sunsetAt).toBe('2026-04-01T00:00:00.000Z');
    expect(r.nextChangeAt?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    const later = resolveSchedule(overlapping, surfaces, at('2026-04-01T00:00:00Z'));
    expect(byName(later.current, 'LoadDB')?.lifecycle.status).toBe('deprecated');
    expect(byName(later.current, 'InitializeDatabase')).toBeUndefined();
    expect(later.nextChangeAt?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
  });

  it('retires at once without a sunsetAt, and keeps a surface’s own retired messages after the window', () => {
    const quirky: RetiredName = {
      name: 'LoadDB',
      kernel: 'LoadDB',
      message: 'the authored text',
      successor: 'InitializeDatabase',
    };
    const withOwn = new Map([
      ['pc', pc],
      ['s-in', { ...sIn, retired: [quirky] }],
    ]);
    const immediate = parseSchedule({
      id: 'no-window',
      stages: [
        { surface: 'pc', effectiveFrom: '2026-01-01' },
        { surface: 's-in', effectiveFrom: '2026-02-01' },
      ],
    });
    const r = resolveSchedule(immediate, withOwn, at('2026-02-01T00:00:00Z'));
    expect(names(r.current)).toEqual(names(sIn));
    expect(r.current.retired.find((x) => x.name === 'LoadDB')).toEqual(quirky);
    expect(retiredNames(r.current)).toEqual(['FilterDB', 'LoadDB', 'RetrieveAgenda', 'SQLInterpreter']);
    expect(r.nextChangeAt).toBeNull();

    const windowed = parseSchedule({
      ...immediate,
      stages: [immediate.stages[0], { ...immediate.stages[1], sunsetAt: '2026-02-10' }],
    });
    const open = resolveSchedule(windowed, withOwn, at('2026-02-05T00:00:00Z'));
    expect(open.current.retired).toEqual([]);
    expect(byName(open.current, 'LoadDB')?.lifecycle.status).toBe('deprecated');
    const closed = resolveSchedule(windowed, withOwn, at('2026-02-10T00:00:00Z'));
    expect(closed.current.retired.find((x) => x.name === 'LoadDB')).toEqual(quirky);
  });

  it('reports exactly the instants at which the resolved surface changes', () => {
    const changes: string[] = [];
    let previous = resolveSchedule(schedule, surfaces, at('2025-12-01T00:00:00Z'));
    let announced = previous.nextChangeAt;
    // Step every three hours through the whole schedule and catch every change of the resolved surface.
    for (
      let t = Date.parse('2025-12-01T03:00:00Z');
      t <= Date.parse('2026-06-15T00:00:00Z');
      t += 3 * 3600_000
    ) {
      const r = resolveSchedule(schedule, surfaces, new Date(t));
      const changed = JSON.stringify(r.current) !== JSON.stringify(previous.current);
      const due = announced !== null && announced.getTime() <= t;
      expect({ t: new Date(t).toISOString(), changed }).toEqual({
        t: new Date(t).toISOString(),
        changed: due,
      });
      if (changed && announced) changes.push(announced.toISOString());
      if (changed) announced = r.nextChangeAt;
      previous = r;
    }
    expect(changes).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
    ]);
    expect(announced).toBeNull();
  });

  it('accepts a plain record of surfaces and names an unknown surface', () => {
    expect(resolveSchedule(schedule, { pc, 's-in': sIn, 's-ood': sOod }, at('2026-02-02')).stageIndex).toBe(
      1,
    );
    expect(() => resolveSchedule(schedule, { pc, 's-in': sIn }, at('2026-01-02'))).toThrow(
      new ScheduleError('schedule drift-2026: stages[2] names unknown surface s-ood'),
    );
    expect(() => resolveSchedule(schedule, { pc, 's-in': sIn, 's-ood': sOod }, new Date(Number.NaN))).toThrow(
      /now is an invalid date/,
    );
  });

  it('refuses a schedule whose order was never checked', () => {
    const unchecked = { id: 'raw', stages: [schedule.stages[1], schedule.stages[0]] } as Schedule;
    expect(() => resolveSchedule(unchecked, surfaces, at('2026-02-02'))).toThrow(
      /stages\[1\]\.effectiveFrom: must be after stages\[0\]\.effectiveFrom/,
    );
  });
});

describe('schedule validation', () => {
  const problems = (value: unknown) => {
    const r = validateSchedule(value);
    return r.ok ? [] : r.problems;
  };

  it('accepts dates and zoned timestamps', () => {
    expect(
      problems({
        id: 's',
        stages: [
          { surface: 'a', effectiveFrom: '2026-01-01' },
          { surface: 'b', effectiveFrom: '2026-01-01T01:00:00+00:30', sunsetAt: '2026-01-01T00:30:01Z' },
        ],
      }),
    ).toEqual([]);
  });

  it('rejects an empty schedule, local times and unknown keys', () => {
    expect(problems({ id: 's', stages: [] })).toEqual(['stages: a schedule needs at least one stage']);
    expect(problems({ id: 's', stages: [{ surface: 'a', effectiveFrom: '2026-01-01T00:00:00' }] })).toEqual([
      'stages[0].effectiveFrom: expected an ISO 8601 date (2026-03-01) or a timestamp with a time zone (2026-03-01T12:00:00Z)',
    ]);
    expect(problems({ id: 's', stages: [{ surface: 'a', effectiveFrom: '2026-02-30' }] })).toHaveLength(1);
    expect(
      problems({ id: 's', stages: [{ surface: 'a', effectiveFrom: '2026-01-01', sunset: '2026-02-01' }] }),
    ).toEqual(['stages[0]: Unrecognized key: "sunset"']);
  });

  it('rejects dates out of order, with every problem named', () => {
    expect(
      problems({
        id: 's',
        stages: [
          { surface: 'a', effectiveFrom: '2026-02-01', sunsetAt: '2026-03-01' },
          { surface: 'b', effectiveFrom: '2026-02-01T00:00:00Z', sunsetAt: '2026-02-01' },
          { surface: 'b', effectiveFrom: '2026-05-01', sunsetAt: '2026-04-01' },
        ],
      }),
    ).toEqual([
      'stages[0].sunsetAt: the first stage has no previous surface whose names could be sunset; remove sunsetAt',
      'stages[1].effectiveFrom: must be after stages[0].effectiveFrom (2026-02-01), got 2026-02-01T00:00:00Z',
      'stages[1].sunsetAt: must be after its deprecation date (effectiveFrom 2026-02-01T00:00:00Z), got 2026-02-01',
      'stages[2].surface: repeats the surface of stages[1] (b); a stage must change the surface',
      'stages[2].sunsetAt: must be after its deprecation date (effectiveFrom 2026-05-01), got 2026-04-01',
    ]);
  });

  it('throws a ScheduleError carrying the problems', () => {
    try {
      parseSchedule({ id: '', stages: [{ surface: 'a', effectiveFrom: '2026-01-01' }] });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ScheduleError);
      expect((e as ScheduleError).problems).toEqual([
        'id: Too small: expected string to have >=1 characters',
      ]);
      expect((e as Error).message).toBe(
        'invalid schedule: id: Too small: expected string to have >=1 characters',
      );
    }
  });
});

describe('deprecation headers', () => {
  it('writes Deprecation as an RFC 9745 structured date in whole seconds', () => {
    expect(deprecationHeaderValue('2026-03-01')).toBe('@1772323200');
    expect(deprecationHeaderValue(new Date('2026-03-01T00:00:00.999Z'))).toBe('@1772323200');
    // The example of RFC 9745 §2.1: Friday, June 30, 2023 at 23:59:59 UTC.
    expect(deprecationHeaderValue('2023-06-30T23:59:59Z')).toBe('@1688169599');
    expect(deprecationHeaderValue('1969-12-31T23:59:59Z')).toBe('@-1');
  });

  it('writes Sunset as an IMF-fixdate', () => {
    expect(sunsetHeaderValue('2026-03-01')).toBe('Sun, 01 Mar 2026 00:00:00 GMT');
    // The example of RFC 9110 §5.6.7.
    expect(sunsetHeaderValue(new Date('1994-11-06T08:49:37Z'))).toBe('Sun, 06 Nov 1994 08:49:37 GMT');
    expect(sunsetHeaderValue('2028-02-29T23:05:09.500+02:00')).toBe('Tue, 29 Feb 2028 21:05:09 GMT');
    expect(sunsetHeaderValue('0099-01-01T00:00:00Z')).toBe('Thu, 01 Jan 0099 00:00:00 GMT');
    expect(() => sunsetHeaderValue('not a date')).toThrow(RangeError);
  });

  it('builds the Link value from the URL builders', () => {
    expect(
      deprecationLinkHeaderValue({ successor: 'https://x.test/tools/A', docs: 'https://x.test/dep/B' }),
    ).toBe('<https://x.test/tools/A>; rel="successor-version", <https://x.test/dep/B>; rel="deprecation"');
    expect(deprecationLinkHeaderValue({})).toBe('');
    expect(() => deprecationLinkHeaderValue({ docs: 'https://x.test/a b' })).toThrow(/not a URI reference/);
    expect(() => deprecationLinkHeaderValue({ successor: 'https://x.test/>' })).toThrow(
      /not a URI reference/,
    );
  });

  it('sets all three headers on a deprecated tool and none on an active one', () => {
    const r = resolveSchedule(schedule, surfaces, at('2026-02-10T00:00:00Z'));
    const urls = {
      toolUrl: (name: string) => `https://tooldrift.test/surfaces/s-in/tools/${encodeURIComponent(name)}`,
      deprecationUrl: (name: string) =>
        `https://tooldrift.test/docs/deprecations#${encodeURIComponent(name)}`,
    };
    expect(deprecationHeaders(byName(r.current, 'LoadDB') as SurfaceTool, urls)).toEqual({
      Deprecation: '@1769904000',
      Sunset: 'Sun, 01 Mar 2026 00:00:00 GMT',
      Link: '<https://tooldrift.test/surfaces/s-in/tools/InitializeDatabase>; rel="successor-version", <https://tooldrift.test/docs/deprecations#LoadDB>; rel="deprecation"',
    });
    expect(deprecationHeaders(byName(r.current, 'LoadDB') as SurfaceTool)).toEqual({
      Deprecation: '@1769904000',
      Sunset: 'Sun, 01 Mar 2026 00:00:00 GMT',
    });
    expect(deprecationHeaders(byName(r.current, 'InitializeDatabase') as SurfaceTool, urls)).toEqual({});
  });
});

describe('clocks', () => {
  it('a fixed clock always answers the same instant, in fresh Date objects', () => {
    const clock = fixedClock('2026-03-01T00:00:00Z');
    const first = clock.now();
    first.setUTCFullYear(1999);
    expect(clock.now().toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(() => fixedClock('tomorrow')).toThrow(RangeError);
  });

  it('a manual clock moves only when advanced or set', () => {
    const clock = manualClock(new Date('2026-02-28T23:00:00Z'));
    expect(clock.now().toISOString()).toBe('2026-02-28T23:00:00.000Z');
    clock.advance(3600_000);
    expect(clock.now().toISOString()).toBe('2026-03-01T00:00:00.000Z');
    clock.advance(-1);
    expect(clock.now().toISOString()).toBe('2026-02-28T23:59:59.999Z');
    clock.set('2027-01-01');
    expect(clock.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });

  it('the system clock reads the real time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});
