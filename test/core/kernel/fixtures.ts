/**
 * Small hand-written worlds for the kernel tests (independent of the corpus generators).
 */
import {
  callKernel,
  type KernelDeps,
  type KernelResult,
  type KernelToolName,
} from '../../../core/world/kernel/kernel.ts';
import { type EnvState, initialState } from '../../../core/world/kernel/state.ts';
import { type ColumnSpec, type SqlType, type Table, TableBuilder } from '../../../core/world/table.ts';
import type { DblpCoauthorEdge, DblpGraphs, DblpPaper, Passage, World } from '../../../core/world/types.ts';

function table(name: string, columns: [string, SqlType][], rows: string[][]): Table {
  const specs: ColumnSpec[] = columns.map(([n, sqlType]) => ({ name: n, sqlType, description: n }));
  const b = new TableBuilder(name, specs, 4);
  for (const r of rows) b.add(r);
  return b.build();
}

export const FLIGHT_COLUMNS: [string, SqlType][] = [
  ['FlightDate', 'TEXT'],
  ['Airline', 'TEXT'],
  ['Origin', 'TEXT'],
  ['Dest', 'TEXT'],
  ['Cancelled', 'TEXT'],
  ['DepTime', 'REAL'],
  ['DepDelayMinutes', 'REAL'],
  ['Distance', 'REAL'],
  ['IATA_Code_Marketing_Airline', 'TEXT'],
  ['Flight_Number_Marketing_Airline', 'INTEGER'],
];

export const flightRows: string[][] = [
  ['2022-05-11', 'American Airlines Inc.', 'PHX', 'FLG', 'False', '2031.0', '0.0', '119.0', 'AA', '3263'],
  ['2022-05-11', 'Delta Air Lines Inc.', 'ATL', 'MYR', 'False', '1204.0', '9.0', '317.0', 'DL', '2538'],
  ['2022-05-11', 'Southwest Airlines Co.', 'PHX', 'LAX', 'False', '640.0', '26.0', '370.0', 'WN', '403'],
  ['2022-05-12', 'American Airlines Inc.', 'CLT', 'BOS', 'True', 'nan', 'nan', '728.0', 'AA', '2250'],
  ['2022-05-12', 'Delta Air Lines Inc.', 'ATL', 'BOS', 'False', '1500.0', '100.0', '946.0', 'DL', '1180'],
  ['2022-05-12', 'JetBlue Airways', 'BOS', 'SFO', 'False', '705.0', '12.0', '2704.0', 'B6', '433'],
];

const coffeeRows: string[][] = [
  ['2019-10-09', '97.5', '98.6', '96.1', '97.05', '10115', 'USD'],
  ['2019-10-10', '97.0', '99.15', '96.5', '98.95', '12000', 'USD'],
  ['2020-01-14', '118.5', '120.0', '117.25', '119.1', '15432', 'USD'],
  ['2020-08-03', '110.1', '112.0', '109.6', '111.2', '9001', 'USD'],
  ['2020-08-04', '111.0', '113.0', '110.5', '112.45', '9876', 'USD'],
];

const airbnbRows: string[][] = [
  [
    '35388086',
    'Cozy Harlem Jewel',
    '40.81231',
    '-73.94599',
    '$1,083 ',
    '$217 ',
    '30.0',
    '4.0',
    'Private room',
  ],
  [
    '1001254',
    'Clean & quiet apt home by the park',
    '40.64749',
    '-73.97237',
    '$966 ',
    '$193 ',
    '10.0',
    '5.0',
    'Private room',
  ],
  [
    '1002102',
    'Skylit Midtown Castle',
    '40.75362',
    '-73.98377',
    '$142 ',
    '$28 ',
    '30.0',
    '3.0',
    'Entire home/apt',
  ],
  [
    '1002403',
    'THE VILLAGE OF HARLEM',
    '40.80902',
    '-73.9419',
    '$620 ',
    '$124 ',
    '3.0',
    '4.0',
    'Private room',
  ],
  [
    '1002755',
    'Entire Apt: Spacious Studio',
    '40.68514',
    '-73.95976',
    '$368 ',
    '$74 ',
    '30.0',
    '10.0',
    'Entire home/apt',
  ],
];

const yelpRows: string[][] = [
  [
    'Pns2l4eNsfO8kk83dixA6A',
    'Tapas Bar',
    'Philadelphia',
    'PA',
    '39.9555',
    '-75.1555',
    '4.0',
    'Restaurants, Spanish, Tapas',
  ],
  [
    'mpf3x-BjTdTEA3yCZrAYPw',
    'The Pub',
    'Philadelphia',
    'PA',
    '39.95',
    '-75.17',
    '3.5',
    'Nightlife, Pubs, Bars, American (Traditional), Restaurants',
  ],
  ['tUFrWirKiKi_TAnsVWINQQ', 'Café Olé', 'Tucson', 'AZ', '32.2232', '-110.8807', '4.5', 'Café, Coffee & Tea'],
  ['MTSW4McQd7CbVtyjqoe9mw', 'Unknown Shop', 'Tucson', 'AZ', '32.25', '-110.9', '2.0', 'None'],
];

const agendaRows: string[][] = [
  ['Breakfast meeting', '9:00 AM', '10:00 AM', 'Bluebird Cafe', 'Mia', '2022/08/09', 'agenda-0000'],
  [
    'Sales pitch presentation',
    '10:30 AM',
    '11:30 AM',
    'Hilton Chicago',
    'William',
    '2022/08/09',
    'agenda-0001',
  ],
  ['Lunch with Sam', '12:00 PM', '1 PM', 'Cafe Nero ', 'Mia', '2022/08/09', 'agenda-0002'],
  ['Late show', '11:30 PM', '1:00 AM', 'Comedy Cellar', 'Joshua', '2022/08/09', 'agenda-0003'],
  ['Gym workout', '6 PM', '7:30 PM', 'LA Fitness', 'Joshua', '2022/06/03', 'agenda-0004'],
  ['Festival', '12:00 PM (day 1)', '12 AM', 'Central Park', 'Mia', '2022/02/29', 'agenda-0005'],
];

export const agendaPassages: Passage[] = [
  {
    id: 'agenda-0000',
    text: 'Mia has a breakfast meeting at Bluebird Cafe on Tuesday, August 9th, 2022 from 9:00 AM to 10:00 AM.',
  },
  {
    id: 'agenda-0004',
    text: 'On June 3rd 2022, Joshua goes to the gym for a workout at LA Fitness from 6 PM to 7:30 PM.',
  },
  {
    id: 'agenda-0006',
    text: 'Joshua attends a fitness class on May 11th, 2022 at the YMCA. He loves the gym.',
  },
  { id: 'agenda-0007', text: "Richard's gym session is on 2022/07/14 at Gold's Gym, starting at 7 AM." },
  {
    id: 'agenda-0001',
    text: '\n  William gives a sales pitch presentation at Hilton Chicago on July 5, 2022 at 10:30 AM.\n',
  },
];

export const scirexPassages: Passage[] = [
  { id: 's0', text: 'section : Abstract We propose EAST , an efficient scene text detector .' },
  { id: 's1', text: 'section : Results EAST achieves an F - measure 80.72 % on ICDAR 2015 .' },
  { id: 's2', text: 'section : Experiments FRRN obtains Mean IoU 71.8 on Cityscapes .' },
  { id: 's3', text: 'section : Related Work Scene text detection has been studied widely .' },
];

function paper(id: string, title: string, extra: Partial<DblpPaper> = {}): DblpPaper {
  return {
    id,
    title,
    authors: [],
    year: 2021,
    venue: 'EUROSYS',
    n_citation: 0,
    keywords: [],
    doc_type: 'Conference',
    page_start: '',
    page_end: '',
    ...extra,
  };
}

export const P1 = '53e99784b7602d9701f3ffd1';
export const P2 = '53e99784b7602d9701f3ffd2';
export const P3 = '53e99784b7602d9701f3ffd3';
export const P4 = '53e99784b7602d9701f3ffd4';
export const EXT = '53e99784b7602d9701f3ffe9';

export function dblpFixture(): DblpGraphs {
  const papers = new Map<string, DblpPaper>([
    [
      P1,
      paper(P1, 'M3: end-to-end memory management in elastic system software stacks', {
        authors: [
          { id: '562d199d45cedb3398d51b6e', name: 'David Lion', org: 'University of Toronto' },
          { id: '63721acbec88d95668cac8ea', name: 'Adrian Chiu', org: 'University of Toronto' },
        ],
        n_citation: 3,
        page_start: '507',
        page_end: '522',
      }),
    ],
    [P2, paper(P2, 'The integrated sigma-max system and its application in target recognition')],
    [
      P3,
      paper(P3, "Claire O'Shea's study of graphs", { keywords: [' lacunary fractional spline'], year: 2022 }),
    ],
    [P4, paper(P4, 'Sliding Modes in a Class of Complex-Valued Nonlinear Systems', { n_citation: 5 })],
  ]);
  const titleToId = new Map([...papers.values()].map((p) => [p.title, p.id]));
  const cites = new Map<string, string[]>([
    [P1, [P2, EXT, P3]],
    [P2, []],
    [P3, [P2]],
    [P4, []],
    [EXT, []],
  ]);
  const citedBy = new Map<string, string[]>([
    [P2, [P1, P3]],
    [P3, [P1]],
    [EXT, [P1]],
  ]);
  const authors = new Map([
    ['a0', { name: 'Ning Li', org: 'Argonne National Laboratory' }],
    ['a1', { name: 'Jian Dong', org: 'NUDT' }],
    ['a2', { name: 'Limin Liu', org: 'NUDT' }],
    ['a3', { name: 'Chao Zhang', org: 'Tsinghua University' }],
    ['a4', { name: 'Weihong Lin', org: 'Fudan University' }],
    ['a5', { name: 'Lonely Author', org: '' }],
  ]);
  const nameToAuthorId = new Map([...authors].map(([id, a]) => [a.name, id]));
  const edge = (weight: number, papersOfEdge: string[], n: number[]): DblpCoauthorEdge => ({
    weight,
    papers: papersOfEdge,
    n_citation: n,
  });
  const e01 = edge(1, [P2], [0]);
  const e02 = edge(1, [P2], [0]);
  // Two shared papers: weight 2k − 1 = 3, the second paper listed twice (spec §2.7 quirk).
  const e34 = edge(3, [P4, P3, P3], [5, 0, 0]);
  const coauthors = new Map<string, Map<string, DblpCoauthorEdge>>([
    [
      'a0',
      new Map([
        ['a1', e01],
        ['a2', e02],
      ]),
    ],
    ['a1', new Map([['a0', e01]])],
    ['a2', new Map([['a0', e02]])],
    ['a3', new Map([['a4', e34]])],
    ['a4', new Map([['a3', e34]])],
  ]);
  return {
    papers,
    externalPaperIds: new Set([EXT]),
    titleToId,
    cites,
    citedBy,
    authors,
    nameToAuthorId,
    coauthors,
  };
}

export function fixtureWorld(overrides: Partial<World> = {}): World {
  return {
    config: { seed: 'kernel-test', scale: 0.001 },
    tables: {
      flights: table('flights', FLIGHT_COLUMNS, flightRows),
      coffee: table(
        'coffee',
        [
          ['Date', 'TEXT'],
          ['Open', 'REAL'],
          ['High', 'REAL'],
          ['Low', 'REAL'],
          ['Close', 'REAL'],
          ['Volume', 'INTEGER'],
          ['Currency', 'TEXT'],
        ],
        coffeeRows,
      ),
      airbnb: table(
        'airbnb',
        [
          ['id', 'INTEGER'],
          ['NAME', 'TEXT'],
          ['lat', 'REAL'],
          ['long', 'REAL'],
          ['price', 'TEXT'],
          ['service fee', 'TEXT'],
          ['minimum nights', 'REAL'],
          ['review rate number', 'REAL'],
          ['room type', 'TEXT'],
        ],
        airbnbRows,
      ),
      yelp: table(
        'yelp',
        [
          ['business_id', 'TEXT'],
          ['name', 'TEXT'],
          ['city', 'TEXT'],
          ['state', 'TEXT'],
          ['latitude', 'REAL'],
          ['longitude', 'REAL'],
          ['stars', 'REAL'],
          ['categories', 'TEXT'],
        ],
        yelpRows,
      ),
      agenda: table(
        'agenda',
        [
          ['event', 'TEXT'],
          ['start_time', 'TEXT'],
          ['end_time', 'TEXT'],
          ['location', 'TEXT'],
          ['person', 'TEXT'],
          ['date', 'TEXT'],
          ['id', 'TEXT'],
        ],
        agendaRows,
      ),
    },
    agendaEvents: [],
    agendaPassages,
    scirex: { passages: scirexPassages, results: [] },
    dblp: dblpFixture(),
    ...overrides,
  };
}

/** Dependencies whose interpreters must not be reached. */
export const noInterpreters: KernelDeps = {
  sql: () => Promise.reject(new Error('no SQL in this test')),
  python: () => {
    throw new Error('no Python in this test');
  },
};

/** Runs a sequence of calls from the initial state, returning every result. */
export async function run(
  world: World,
  calls: [KernelToolName, Record<string, unknown>][],
  deps: KernelDeps = noInterpreters,
  state: EnvState = initialState(),
): Promise<KernelResult[]> {
  const out: KernelResult[] = [];
  for (const [tool, args] of calls) {
    const r = await callKernel(world, state, { tool, args }, deps);
    out.push(r);
    state = r.state;
  }
  return out;
}

/** The observation of the last call of a sequence. */
export async function lastObservation(
  world: World,
  calls: [KernelToolName, Record<string, unknown>][],
  deps?: KernelDeps,
): Promise<string> {
  const results = await run(world, calls, deps);
  return (results[results.length - 1] as KernelResult).observation;
}
