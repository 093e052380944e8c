import { describe, expect, it } from 'vitest';
import { PyDict, PyInt } from '../../../core/util/python-format.ts';
import { callKernel } from '../../../core/world/kernel/kernel.ts';
import {
  DB_NOT_IN_LIST,
  FILTER_ARGUMENTS_WRONG,
  FILTER_LOAD_FIRST,
  GETVALUE_LOAD_FIRST,
  VALUE_NOT_EXIST,
} from '../../../core/world/kernel/messages.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { type ColumnSpec, TableBuilder } from '../../../core/world/table.ts';
import { fixtureWorld, lastObservation, noInterpreters, run } from './fixtures.ts';

const world = fixtureWorld();
const load = (db: string): ['LoadDB', Record<string, unknown>] => ['LoadDB', { DBName: db }];
const filter = (condition: unknown): ['FilterDB', Record<string, unknown>] => ['FilterDB', { condition }];
const get = (column_name: unknown): ['GetValue', Record<string, unknown>] => ['GetValue', { column_name }];

describe('LoadDB', () => {
  it('reports the columns in table order', async () => {
    expect(await lastObservation(world, [load('coffee')])).toBe(
      'We have successfully loaded the coffee database, including the following columns: Date, Open, High, Low, Close, Volume, Currency.',
    );
    expect(await lastObservation(world, [load('agenda')])).toBe(
      'We have successfully loaded the agenda database, including the following columns: event, start_time, end_time, location, person, date, id.',
    );
  });

  it('lower-cases the name', async () => {
    const [r] = await run(world, [load('FLIGHTS')]);
    expect(r?.observation).toMatch(
      /^We have successfully loaded the flights database, including the following columns: FlightDate, /,
    );
    expect(r?.state.db).toBe('flights');
    expect(r?.outcome).toEqual({ kind: 'ok' });
  });

  it('rejects unknown names and non-strings without touching the loaded table', async () => {
    const rs = await run(world, [
      load('coffee'),
      filter('Date=2020-01-14'),
      load('trains'),
      ['LoadDB', { DBName: new PyInt(3) }],
    ]);
    expect(rs[2]?.observation).toBe(DB_NOT_IN_LIST);
    expect(rs[2]?.observation).toBe(
      'The database you want to query in not in the list. Please change another database for query.',
    );
    expect(rs[3]?.observation).toBe(DB_NOT_IN_LIST);
    expect(rs[3]?.outcome).toEqual({ kind: 'error', reason: 'unknown-database' });
    expect(rs[3]?.state.db).toBe('coffee');
    expect(rs[3]?.state.filters).toEqual(['Date=2020-01-14']);
  });

  it('is the only reset: reloading discards filters and numeric conversions', async () => {
    const rs = await run(world, [load('flights'), filter('Distance>500'), load('flights'), get('Origin')]);
    expect(rs[2]?.state.filters).toEqual([]);
    expect(rs[2]?.state.numericColumns).toEqual([]);
    expect(rs[3]?.observation).toBe('{"Origin": ["PHX", "ATL", "PHX", "CLT", "ATL", "BOS"]}');
  });

  it('counts every load call, successful or not', async () => {
    const rs = await run(world, [load('coffee'), load('nope'), ['LoadGraph', { GraphName: 'dblp' }]]);
    expect(rs.map((r) => r.state.loads)).toEqual([1, 2, 3]);
    expect(rs.map((r) => r.state.steps)).toEqual([1, 2, 3]);
  });
});

describe('FilterDB', () => {
  it('asks to load a database first (checked before the argument type)', async () => {
    expect(await lastObservation(world, [filter('Date=2020-01-14')])).toBe(
      'Please first load the relevant database using `LoadDB` before proceeding with `FilterDB`.',
    );
    expect(await lastObservation(world, [filter(new PyInt(5))])).toBe(FILTER_LOAD_FIRST);
  });

  it('rejects a non-string condition', async () => {
    const rs = await run(world, [load('coffee'), filter(['Date=2020-01-14'])]);
    expect(rs[1]?.observation).toBe(
      'There is something wrong with the arguments you send for filtering. Please modify it.',
    );
    expect(rs[1]?.observation).toBe(FILTER_ARGUMENTS_WRONG);
  });

  it('compares ISO dates as strings (spec example Date>=2019-10-10, Date<=2020-08-03)', async () => {
    const rs = await run(world, [load('coffee'), filter('Date>=2019-10-10, Date<=2020-08-03'), get('Date')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (3 rows).');
    expect(rs[2]?.observation).toBe('{"Date": ["2019-10-10", "2020-01-14", "2020-08-03"]}');
  });

  it('says "(1 rows)" and narrows to one flight with five conditions', async () => {
    const rs = await run(world, [
      load('flights'),
      filter(
        'FlightDate=2022-05-11, Origin=PHX, Dest=FLG, IATA_Code_Marketing_Airline=AA, Flight_Number_Marketing_Airline=3263',
      ),
      get('DepTime'),
    ]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (1 rows).');
    expect(rs[2]?.observation).toBe('{"DepTime": "2031.0"}');
  });

  it('compares numbers lexicographically: review rate number>4 keeps 4.0 and 5.0 but not 10.0', async () => {
    const rs = await run(world, [load('airbnb'), filter('review rate number>4'), get('review rate number')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (3 rows).');
    expect(rs[2]?.observation).toBe('{"review rate number": ["4.0", "5.0", "4.0"]}');
  });

  it('DepDelayMinutes>10 keeps "9.0" and "nan" (lexicographic quirk)', async () => {
    const rs = await run(world, [load('flights'), filter('DepDelayMinutes>10'), get('DepDelayMinutes')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (5 rows).');
    expect(rs[2]?.observation).toBe('{"DepDelayMinutes": ["9.0", "26.0", "nan", "100.0", "12.0"]}');
  });

  it('string equality is exact: DepTime=2031 does not match 2031.0, Cancelled=True does match', async () => {
    expect(await lastObservation(world, [load('flights'), filter('DepTime=2031')])).toBe(
      'The filtering query DepTime=2031 is incorrect. Please modify the condition.',
    );
    expect(await lastObservation(world, [load('flights'), filter('Cancelled=True')])).toBe(
      'We have successfully filtered the data (1 rows).',
    );
  });

  it('compares Distance numerically and GetValue then lists it as JSON numbers', async () => {
    const rs = await run(world, [load('flights'), filter('Distance > 500'), get('Distance, Origin')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (3 rows).');
    expect(rs[1]?.state.numericColumns).toEqual(['Distance']);
    expect(rs[2]?.observation).toBe('{"Distance": [728.0, 946.0, 2704.0], "Origin": ["CLT", "ATL", "BOS"]}');
  });

  it('a single converted row is shown as str(float) inside a JSON string', async () => {
    const rs = await run(world, [load('flights'), filter('Distance>2000'), get('Distance')]);
    expect(rs[2]?.observation).toBe('{"Distance": "2704.0"}');
  });

  it('trims around the operator and treats lat/long numerically', async () => {
    const rs = await run(world, [load('airbnb'), filter('lat >= 40.7, long<-73.95'), get('NAME')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (1 rows).');
    expect(rs[2]?.observation).toBe('{"NAME": "Skylit Midtown Castle"}');
  });

  it('uses string comparison for a numeric column when the value is not a float', async () => {
    // "119.0" < "abc" for every cell: nothing is greater, so the filter is rejected.
    expect(await lastObservation(world, [load('flights'), filter('Distance>abc')])).toBe(
      'The filtering query Distance>abc is incorrect. Please modify the condition.',
    );
    expect(await lastObservation(world, [load('flights'), filter('Distance<abc')])).toBe(
      'We have successfully filtered the data (6 rows).',
    );
  });

  it('after conversion, a str value fails under ordering and matches nothing under =', async () => {
    const rs = await run(world, [
      load('flights'),
      filter('Distance>100'),
      filter('Distance>abc'),
      filter('Distance=abc'),
    ]);
    expect(rs[2]?.observation).toBe(
      'we have failed when conducting the Distance>abc command. Please make changes.',
    );
    expect(rs[3]?.observation).toBe(
      'The filtering query Distance=abc is incorrect. Please modify the condition.',
    );
    expect(rs[3]?.state.filters).toEqual(['Distance>100']);
  });

  it('numeric = compares floats (Distance=728 matches 728.0)', async () => {
    expect(await lastObservation(world, [load('flights'), filter('Distance=728')])).toBe(
      'We have successfully filtered the data (1 rows).',
    );
  });

  it('converts agenda times at load and converts 12-hour filter values', async () => {
    const rs = await run(world, [
      load('agenda'),
      filter('date=2022/08/09, start_time<=12:00, end_time>=10:30'),
      get('event, start_time, end_time, location'),
    ]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (1 rows).');
    expect(rs[2]?.observation).toBe(
      '{"event": "Sales pitch presentation", "start_time": "10:30:00", "end_time": "11:30:00", "location": "Hilton Chicago"}',
    );
  });

  it('start_time>=9:00 AM compares against 09:00:00; unparsable raw times stay as they are', async () => {
    const rs = await run(world, [load('agenda'), filter('start_time>=9:00 AM'), get('start_time, end_time')]);
    expect(rs[1]?.observation).toBe('We have successfully filtered the data (6 rows).');
    expect(rs[2]?.observation).toBe(
      '{"start_time": ["09:00:00", "10:30:00", "12:00:00", "23:30:00", "18:00:00", "12:00 PM (day 1)"], ' +
        '"end_time": ["10:00:00", "11:30:00", "13:00:00", "01:00:00", "19:30:00", "00:00:00"]}',
    );
  });

  it('categories= is a case-sensitive regex containment test', async () => {
    const spanish = await run(world, [load('yelp'), filter('categories=Spanish'), get('name')]);
    expect(spanish[1]?.observation).toBe('We have successfully filtered the data (1 rows).');
    expect(spanish[2]?.observation).toBe('{"name": "Tapas Bar"}');
    expect(await lastObservation(world, [load('yelp'), filter('categories=spanish')])).toBe(
      'The filtering query categories=spanish is incorrect. Please modify the condition.',
    );
    // Parentheses form a group, so the literal text "American (Traditional)" is not found.
    expect(await lastObservation(world, [load('yelp'), filter('categories=American (Traditional)')])).toBe(
      'The filtering query categories=American (Traditional) is incorrect. Please modify the condition.',
    );
    expect(await lastObservation(world, [load('yelp'), filter('categories=Tea|Tapas')])).toBe(
      'We have successfully filtered the data (2 rows).',
    );
  });

  it('an invalid categories regex is a failed command; a catastrophic one returns promptly', async () => {
    expect(await lastObservation(world, [load('yelp'), filter('categories=(Bars')])).toBe(
      'we have failed when conducting the categories=(Bars command. Please make changes.',
    );
    const started = performance.now();
    expect(await lastObservation(world, [load('yelp'), filter('categories=(a|a)*(.*)*$x')])).toBe(
      'The filtering query categories=(a|a)*(.*)*$x is incorrect. Please modify the condition.',
    );
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('restores the view from before the call when a sub-condition leaves 0 rows', async () => {
    const rs = await run(world, [
      load('flights'),
      filter('FlightDate=2022-05-11'),
      filter('Origin=PHX, Dest=XYZ'),
      get('Origin'),
    ]);
    expect(rs[2]?.observation).toBe(
      'The filtering query Dest=XYZ is incorrect. Please modify the condition.',
    );
    expect(rs[2]?.outcome).toEqual({ kind: 'error', reason: 'filter-incorrect' });
    expect(rs[2]?.state.filters).toEqual(['FlightDate=2022-05-11']);
    expect(rs[3]?.observation).toBe('{"Origin": ["PHX", "ATL", "PHX"]}');
  });

  it('keeps earlier sub-conditions when one has no operator (no restore)', async () => {
    const rs = await run(world, [
      load('flights'),
      filter('Origin=PHX, Dest, Airline=JetBlue Airways'),
      get('Dest'),
    ]);
    expect(rs[1]?.observation).toBe('The filtering query Dest is incorrect. Please modify the condition.');
    expect(rs[1]?.state.filters).toEqual(['Origin=PHX']);
    expect(rs[2]?.observation).toBe('{"Dest": ["FLG", "LAX"]}');
  });

  it('an empty condition is a sub-condition without operator', async () => {
    expect(await lastObservation(world, [load('flights'), filter('')])).toBe(
      'The filtering query  is incorrect. Please modify the condition.',
    );
  });

  it('fails on an unknown column, keeping earlier sub-conditions', async () => {
    const rs = await run(world, [load('flights'), filter('Origin=PHX, Gate=5, Dest=FLG'), get('Dest')]);
    expect(rs[1]?.observation).toBe(
      'we have failed when conducting the Gate=5 command. Please make changes.',
    );
    expect(rs[1]?.outcome).toEqual({ kind: 'error', reason: 'filter-failed' });
    expect(rs[2]?.observation).toBe('{"Dest": ["FLG", "LAX"]}');
  });

  it('splits only on comma + space, so values containing ", " cannot be filtered', async () => {
    expect(
      await lastObservation(world, [
        load('flights'),
        filter('Airline=GoJet Airlines, LLC d/b/a United Express'),
      ]),
    ).toBe('The filtering query Airline=GoJet Airlines is incorrect. Please modify the condition.');
    expect(await lastObservation(world, [load('flights'), filter('Origin=PHX,Dest=FLG')])).toBe(
      'The filtering query Origin=PHX,Dest=FLG is incorrect. Please modify the condition.',
    );
  });

  it('detects operators in the order >=, <=, >, <, = and ignores text after a second occurrence', async () => {
    // `>` wins over `=`: the column becomes "Origin=PHX" and does not exist.
    expect(await lastObservation(world, [load('flights'), filter('Origin=PHX>1')])).toBe(
      'we have failed when conducting the Origin=PHX>1 command. Please make changes.',
    );
    expect(await lastObservation(world, [load('flights'), filter('Origin=PHX=ignored')])).toBe(
      'We have successfully filtered the data (2 rows).',
    );
    expect(await lastObservation(world, [load('flights'), filter('Dest>=LAX')])).toBe(
      'We have successfully filtered the data (3 rows).',
    );
  });

  it('accumulates across calls until the next LoadDB', async () => {
    const rs = await run(world, [load('flights'), filter('Origin=PHX'), filter('Dest=FLG'), get('Airline')]);
    expect(rs[2]?.observation).toBe('We have successfully filtered the data (1 rows).');
    expect(rs[3]?.observation).toBe('{"Airline": "American Airlines Inc."}');
  });

  it('a conversion by the first sub-condition survives the zero-row restore (in-place mutation quirk)', async () => {
    const first = await run(world, [load('flights'), filter('Distance>99999'), get('Distance')]);
    expect(first[1]?.observation).toBe(
      'The filtering query Distance>99999 is incorrect. Please modify the condition.',
    );
    expect(first[1]?.state.numericColumns).toEqual(['Distance']);
    expect(first[2]?.observation).toBe('{"Distance": [119.0, 317.0, 370.0, 728.0, 946.0, 2704.0]}');
    const later = await run(world, [load('flights'), filter('Origin=PHX, Distance>99999'), get('Distance')]);
    expect(later[1]?.state.numericColumns).toEqual([]);
    expect(later[2]?.observation).toBe(
      '{"Distance": ["119.0", "317.0", "370.0", "728.0", "946.0", "2704.0"]}',
    );
  });

  it('a float value on a column that cannot be converted matches nothing under = and fails otherwise', async () => {
    const specs: ColumnSpec[] = [
      { name: 'Distance', sqlType: 'TEXT', description: '' },
      { name: 'Origin', sqlType: 'TEXT', description: '' },
    ];
    const b = new TableBuilder('flights', specs);
    b.add(['100.0', 'AAA']);
    b.add(['unknown', 'BBB']);
    const odd = fixtureWorld();
    odd.tables.flights = b.build();
    expect(await lastObservation(odd, [load('flights'), filter('Distance=100')])).toBe(
      'The filtering query Distance=100 is incorrect. Please modify the condition.',
    );
    expect(await lastObservation(odd, [load('flights'), filter('Distance>50')])).toBe(
      'we have failed when conducting the Distance>50 command. Please make changes.',
    );
    // Once the unconvertible row is filtered out, the conversion succeeds.
    expect(await lastObservation(odd, [load('flights'), filter('Origin=AAA, Distance>50')])).toBe(
      'We have successfully filtered the data (1 rows).',
    );
  });
});

describe('GetValue', () => {
  it('asks to load a database first', async () => {
    expect(await lastObservation(world, [get('Close')])).toBe(
      'Please first load the relevant database using `LoadDB` before proceeding with `GetValue`.',
    );
    expect(await lastObservation(world, [get(new PyInt(1))])).toBe(GETVALUE_LOAD_FIRST);
  });

  it('rejects unknown columns and non-strings', async () => {
    expect(await lastObservation(world, [load('coffee'), get('Price')])).toBe(
      'The value you are querying does not exist. Please modify it.',
    );
    expect(await lastObservation(world, [load('coffee'), get('Close, Price')])).toBe(VALUE_NOT_EXIST);
    expect(await lastObservation(world, [load('coffee'), get('Close,')])).toBe(VALUE_NOT_EXIST);
    expect(await lastObservation(world, [load('coffee'), get(new PyDict([['a', 'Close']]))])).toBe(
      VALUE_NOT_EXIST,
    );
  });

  it('returns a JSON object of strings for exactly one row', async () => {
    expect(await lastObservation(world, [load('coffee'), filter('Date=2020-01-14'), get('Open')])).toBe(
      '{"Open": "118.5"}',
    );
  });

  it('returns lists for several rows, drops duplicate names, keeps trailing spaces', async () => {
    expect(
      await lastObservation(world, [
        load('airbnb'),
        filter('room type=Private room, review rate number=4.0'),
        get('price, service fee,price ,minimum nights'),
      ]),
    ).toBe(
      '{"price": ["$1,083 ", "$620 "], "service fee": ["$217 ", "$124 "], "minimum nights": ["30.0", "3.0"]}',
    );
  });

  it('escapes non-ASCII like json.dumps', async () => {
    expect(await lastObservation(world, [load('yelp'), filter('city=Tucson'), get('name')])).toBe(
      '{"name": ["Caf\\u00e9 Ol\\u00e9", "Unknown Shop"]}',
    );
  });

  it('is cut to 1024 tokens on large results', async () => {
    const specs: ColumnSpec[] = [{ name: 'Close', sqlType: 'REAL', description: '' }];
    const b = new TableBuilder('coffee', specs);
    for (let i = 0; i < 3000; i++) b.add([`${100 + i}.5`]);
    const big = fixtureWorld();
    big.tables.coffee = b.build();
    const obs = await lastObservation(big, [load('coffee'), get('Close')]);
    const tokens = obs.split(' ');
    expect(tokens).toHaveLength(1025);
    expect(tokens[0]).toBe('{"Close":');
    expect(tokens[1]).toBe('["100.5",');
    expect(tokens[1023]).toBe('"1122.5",');
    expect(obs.endsWith(' "1122.5", ...')).toBe(true);
  });
});

describe('table state', () => {
  it('is a JSON value; a revived state on an identical fresh world gives the same observations', async () => {
    const rs = await run(world, [
      load('flights'),
      filter('Distance>300, Origin=ATL'),
      filter('DepDelayMinutes>10'),
    ]);
    const revived = JSON.parse(JSON.stringify(rs[2]?.state));
    expect(revived).toEqual(rs[2]?.state);
    const fresh = fixtureWorld();
    const a = await callKernel(
      world,
      rs[2]!.state,
      { tool: 'GetValue', args: { column_name: 'Distance, Dest' } },
      noInterpreters,
    );
    const b = await callKernel(
      fresh,
      revived,
      { tool: 'GetValue', args: { column_name: 'Distance, Dest' } },
      noInterpreters,
    );
    expect(b.observation).toBe(a.observation);
    // "9.0" > "10" lexicographically, so the 9-minute delay survives DepDelayMinutes>10.
    expect(a.observation).toBe('{"Distance": [317.0, 946.0], "Dest": ["MYR", "BOS"]}');
  });

  it('never mutates the input state', async () => {
    const s = initialState();
    const frozen = JSON.stringify(s);
    await callKernel(world, s, { tool: 'LoadDB', args: { DBName: 'coffee' } }, noInterpreters);
    expect(JSON.stringify(s)).toBe(frozen);
  });
});
