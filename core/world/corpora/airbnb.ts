/**
 * The `airbnb` table (spec §2.3): New York City short-term-rental listings with the 26 columns of
 * Airbnb_Open_Data.csv. Hosts own one listing or many (a few companies run dozens to hundreds); listings are
 * placed in real neighbourhoods, inside each neighbourhood's box, with room types, prices and review histories
 * distributed like the original (prices roughly uniform $50–$1,200, service fee 20% of price, review rate
 * numbers 1–5, about a sixth of listings without reviews).
 *
 * Invariants the task generator can rely on:
 * - Rows 0 … n−1 are distinct listings in ascending `id` order; after them come exact copies of a few earlier
 *   rows (≈0.5%, like the original's duplicates). `id` is unique among the distinct listings.
 * - (NAME, neighbourhood) is unique among distinct listings whose NAME is not `nan`, so a NAME+neighbourhood
 *   lookup returns one listing (or its duplicate copy too). The same NAME can recur in other neighbourhoods.
 * - No neighbourhood, borough or room type contains `, `. About 4% of NAMEs do (real titles do); FilterDB
 *   cannot look those up by NAME, but `id` works.
 * - price and service fee are `$` + thousands-separated integer + one trailing space (`$1,083 `, `$217 `),
 *   service fee = round(price × 0.2); either can be `nan` (rare).
 * - last review is `nan` exactly when number of reviews is `0.0`, and then reviews per month is `nan` too.
 * - Numeric columns (Construction year, minimum nights, number of reviews, reviews per month, review rate number,
 *   calculated host listings count, availability 365) render as Python floats; lat/long have ≤ 5 decimals and
 *   stay inside 40.50…40.92 / −74.25…−73.70. calculated host listings count is the host's number of distinct
 *   listings in this table.
 *
 * Deliberate differences from ToolQA-D:
 * - 10,000 × scale listings instead of 102,599; ids are spread over the original's id range.
 * - No NAME contains a newline, and the rare borough misspellings are only `brookln` and `manhatan`.
 */
import type { Rng } from '../../util/random.ts';
import { type ColumnSpec, type Table, TableBuilder } from '../table.ts';
import { fixedDecimalCell, intFloatCell, NAN, withThousands } from './cells.ts';
import { WeightedPicker } from './sampling.ts';
import {
  GENERIC_LISTING_TITLES,
  HOST_COMPANIES,
  HOUSE_RULES,
  LISTING_ADJECTIVES,
  LISTING_COMMA_TAILS,
  LISTING_EMOJI,
  LISTING_FEATURES,
  LISTING_NICKNAME_NOUNS,
  LISTING_PREPOSITIONS,
  LISTING_UNITS,
  type RoomType,
} from './vocab/airbnb-listing-words.ts';
import {
  type Borough,
  NEIGHBOURHOOD_NICKNAMES,
  type Neighbourhood,
  NYC_LANDMARKS,
  NYC_NEIGHBOURHOODS,
} from './vocab/nyc-neighbourhoods.ts';
import { FIRST_NAMES } from './vocab/people-names.ts';

export const AIRBNB_COLUMNS: readonly ColumnSpec[] = [
  { name: 'id', sqlType: 'INTEGER', description: 'Listing id.' },
  { name: 'NAME', sqlType: 'TEXT', description: 'Listing title.' },
  { name: 'host id', sqlType: 'INTEGER', description: 'Host id.' },
  { name: 'host_identity_verified', sqlType: 'TEXT', description: 'verified or unconfirmed.' },
  { name: 'host name', sqlType: 'TEXT', description: 'Host first name or company.' },
  { name: 'neighbourhood group', sqlType: 'TEXT', description: 'Borough.' },
  { name: 'neighbourhood', sqlType: 'TEXT', description: 'Neighbourhood.' },
  { name: 'lat', sqlType: 'REAL', description: 'Latitude.' },
  { name: 'long', sqlType: 'REAL', description: 'Longitude.' },
  { name: 'country', sqlType: 'TEXT', description: 'Country (United States).' },
  { name: 'country code', sqlType: 'TEXT', description: 'Country code (US).' },
  { name: 'instant_bookable', sqlType: 'TEXT', description: 'True if bookable without host approval.' },
  { name: 'cancellation_policy', sqlType: 'TEXT', description: 'strict, moderate or flexible.' },
  {
    name: 'room type',
    sqlType: 'TEXT',
    description: 'Entire home/apt, Private room, Shared room or Hotel room.',
  },
  { name: 'Construction year', sqlType: 'REAL', description: 'Year the building was built.' },
  { name: 'price', sqlType: 'TEXT', description: 'Nightly price, e.g. "$1,083 ".' },
  { name: 'service fee', sqlType: 'TEXT', description: 'Service fee, e.g. "$217 ".' },
  { name: 'minimum nights', sqlType: 'REAL', description: 'Minimum stay in nights.' },
  { name: 'number of reviews', sqlType: 'REAL', description: 'Number of reviews.' },
  { name: 'last review', sqlType: 'TEXT', description: 'Date of the last review, M/D/YYYY.' },
  { name: 'reviews per month', sqlType: 'REAL', description: 'Average reviews per month.' },
  { name: 'review rate number', sqlType: 'REAL', description: 'Review rating, 1 to 5.' },
  { name: 'calculated host listings count', sqlType: 'REAL', description: 'Listings the host has.' },
  { name: 'availability 365', sqlType: 'REAL', description: 'Days available in the next year.' },
  { name: 'house_rules', sqlType: 'TEXT', description: 'House rules text.' },
  { name: 'license', sqlType: 'TEXT', description: 'License number (rarely present).' },
];

export const AIRBNB_LISTINGS_PER_SCALE = 10_000;
const FIRST_ID = 1_001_254;
const LAST_ID = 57_367_417;
const DUPLICATE_SHARE = 0.005;

const LAT_RANGE = [40.5, 40.92] as const;
const LONG_RANGE = [-74.25, -73.7] as const;

/** Room-type mix per borough (Entire, Private, Shared, Hotel); overall ≈ 52 / 45 / 2 / 0.1 %. */
const ROOM_MIX: Readonly<Record<Borough, readonly number[]>> = {
  Manhattan: [0.585, 0.39, 0.022, 0.003],
  Brooklyn: [0.5, 0.48, 0.02, 0],
  Queens: [0.37, 0.6, 0.03, 0],
  Bronx: [0.38, 0.59, 0.03, 0],
  'Staten Island': [0.48, 0.5, 0.02, 0],
};
const ROOM_TYPES: readonly RoomType[] = ['Entire home/apt', 'Private room', 'Shared room', 'Hotel room'];

interface Host {
  id: number;
  name: string;
  listings: number;
  company: boolean;
  verified: string;
  /** Companies concentrate in a few areas. */
  home?: Neighbourhood;
}

export function generateAirbnb(rng: Rng, scale: number): Table {
  if (!(scale > 0)) throw new RangeError(`generateAirbnb: scale must be positive, got ${scale}`);
  const count = Math.max(1, Math.round(AIRBNB_LISTINGS_PER_SCALE * scale));
  const hosts = makeHosts(rng.fork('hosts'), count);
  // Which host owns each listing slot, scattered so that a host's listings are spread over the id range.
  const owner = new Uint32Array(count);
  {
    let k = 0;
    hosts.forEach((h, i) => {
      for (let j = 0; j < h.listings; j++) owner[k++] = i;
    });
    const r = rng.fork('owners');
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(r.next() * (i + 1));
      const t = owner[i] as number;
      owner[i] = owner[j] as number;
      owner[j] = t;
    }
  }

  const r = rng.fork('listings');
  // Exact duplicate rows go at the end of the file, as in the original: pick their sources up front.
  const dupRng = rng.fork('duplicates');
  const duplicateSources = Array.from({ length: Math.round(count * DUPLICATE_SHARE) }, () =>
    dupRng.int(0, count - 1),
  );
  const wanted = new Set(duplicateSources);
  const kept = new Map<number, string[]>();

  const hoodPicker = new WeightedPicker(
    NYC_NEIGHBOURHOODS,
    NYC_NEIGHBOURHOODS.map((n) => n.weight),
  );
  const usedTitles = new Set<string>();
  const builder = new TableBuilder('airbnb', AIRBNB_COLUMNS, count + duplicateSources.length);
  const meanGap = Math.floor((0.97 * (LAST_ID - FIRST_ID)) / count);
  let id = FIRST_ID;
  for (let i = 0; i < count; i++) {
    if (i > 0) id += r.int(1, Math.max(1, 2 * meanGap - 1));
    const host = hosts[owner[i] as number] as Host;
    const hood = host.home && r.chance(0.6) ? host.home : hoodPicker.pick(r);
    const row = listingRow(r, id, host, hood, usedTitles);
    if (wanted.has(i)) kept.set(i, row);
    builder.add(row);
  }
  for (const i of duplicateSources) builder.add(kept.get(i) as string[]);
  return builder.build();
}

function makeHosts(rng: Rng, listings: number): Host[] {
  const hosts: Host[] = [];
  const usedIds = new Set<number>();
  // Each company name belongs to one host; once all are taken, large portfolios belong to individuals.
  const companies = rng.shuffle(HOST_COMPANIES);
  let remaining = listings;
  // The largest portfolios shrink with the table so small scales are not one company's catalogue.
  const maxPortfolio = Math.max(2, Math.min(330, Math.round(listings / 30)));
  while (remaining > 0) {
    const r = rng.next();
    let n: number;
    if (r < 0.72) n = 1;
    else if (r < 0.87) n = 2;
    else if (r < 0.957) n = rng.int(3, 5);
    else if (r < 0.997) n = rng.int(6, 20);
    else n = 21 + Math.floor((maxPortfolio - 20) * rng.next() ** 3);
    n = Math.min(n, remaining, maxPortfolio);
    remaining -= n;
    const company = n > 20 && companies.length > 0;
    let id = rng.int(100_000_000, 99_999_999_999);
    while (usedIds.has(id)) id = rng.int(100_000_000, 99_999_999_999);
    usedIds.add(id);
    const name = company
      ? (companies.pop() as string)
      : rng.chance(0.002)
        ? NAN
        : rng.chance(0.07)
          ? `${rng.pick(FIRST_NAMES)} & ${rng.pick(FIRST_NAMES)}`
          : rng.pick(FIRST_NAMES);
    const verified = rng.chance(0.003) ? NAN : rng.chance(company ? 0.9 : 0.5) ? 'verified' : 'unconfirmed';
    const home = company || n >= 4 ? pickBusyNeighbourhood(rng) : undefined;
    hosts.push({ id, name, listings: n, company, verified, ...(home ? { home } : {}) });
  }
  return hosts;
}

/** Multi-listing hosts cluster in the busy Manhattan/Brooklyn areas. */
function pickBusyNeighbourhood(rng: Rng): Neighbourhood {
  const busy = NYC_NEIGHBOURHOODS.filter((n) => n.weight >= 900);
  return rng.weighted(
    busy,
    busy.map((n) => n.weight),
  );
}

function listingRow(r: Rng, id: number, host: Host, hood: Neighbourhood, usedTitles: Set<string>): string[] {
  const roomType = r.weighted(ROOM_TYPES, ROOM_MIX[hood.borough]);
  const name = uniqueTitle(r, host, hood, roomType, usedTitles);
  const lat = clamp(hood.lat + r.float(-1, 1) * hood.radius, LAT_RANGE[0], LAT_RANGE[1]);
  const long = clamp(hood.long + r.float(-1, 1) * hood.radius * 1.3, LONG_RANGE[0], LONG_RANGE[1]);
  const price = r.int(50, 1200);
  const reviews = r.chance(0.17)
    ? 0
    : Math.min(1024, Math.max(1, Math.round(Math.exp(r.normal(Math.log(14), 1.25)))));
  // Months since the first review; busy listings collect at most about a dozen reviews a month.
  const monthsListed = Math.max(r.int(1, 120), Math.ceil(reviews / 12));
  const perMonth = r.chance(0.0005) ? r.float(20, 90) : reviews / monthsListed;

  return [
    String(id),
    name,
    String(host.id),
    host.verified,
    host.name,
    boroughCell(r, hood.borough),
    hood.name,
    fixedDecimalCell(lat, 5),
    fixedDecimalCell(long, 5),
    r.chance(0.005) ? NAN : 'United States',
    r.chance(0.001) ? NAN : 'US',
    r.chance(0.001) ? NAN : r.chance(0.5) ? 'True' : 'False',
    r.chance(0.001) ? NAN : r.pick(['strict', 'moderate', 'flexible']),
    roomType,
    r.chance(0.002) ? NAN : intFloatCell(r.int(2003, 2022)),
    r.chance(0.002) ? NAN : dollars(price),
    r.chance(0.002) ? NAN : dollars(Math.round(price * 0.2)),
    minimumNights(r),
    intFloatCell(reviews),
    reviews === 0 ? NAN : lastReview(r),
    reviews === 0 ? NAN : fixedDecimalCell(Math.max(0.01, perMonth), 2),
    r.chance(0.003) ? NAN : intFloatCell(RATINGS.pick(r)),
    r.chance(0.003) ? NAN : intFloatCell(host.listings),
    availability(r),
    r.chance(0.45) ? NAN : houseRules(r),
    r.chance(0.0001) ? `${r.int(10000, 99999)}/AL` : NAN,
  ];
}

function boroughCell(r: Rng, borough: Borough): string {
  if (r.chance(0.0003)) return NAN;
  if (borough === 'Brooklyn' && r.chance(0.0005)) return 'brookln';
  if (borough === 'Manhattan' && r.chance(0.0005)) return 'manhatan';
  return borough;
}

function uniqueTitle(r: Rng, host: Host, hood: Neighbourhood, roomType: RoomType, used: Set<string>): string {
  if (r.chance(0.0025)) return NAN;
  for (let attempt = 0; attempt < 12; attempt++) {
    const title = listingTitle(r, host, hood, roomType);
    const key = `${title}\u0000${hood.name}`;
    if (!used.has(key)) {
      used.add(key);
      return title;
    }
  }
  // Hosts with many similar units number them.
  for (;;) {
    const title = `${listingTitle(r, host, hood, roomType)} - Unit ${r.int(1, 20)}${r.pick(['A', 'B', 'C', 'D', 'F', 'R'])}`;
    const key = `${title}\u0000${hood.name}`;
    if (!used.has(key)) {
      used.add(key);
      return title;
    }
  }
}

/** A listing title in one of the shapes real titles take. */
function listingTitle(r: Rng, host: Host, hood: Neighbourhood, roomType: RoomType): string {
  const adj = r.pick(LISTING_ADJECTIVES);
  const unit = r.pick(LISTING_UNITS[roomType]);
  const area = areaName(r, hood);
  const x = r.next();
  if (host.company && x < 0.5) return `${adj} ${unit} in ${area} by ${host.name}`;
  if (x < 0.02) return r.pick(GENERIC_LISTING_TITLES);
  if (x < 0.27) return `${adj} ${unit} in ${area}`;
  if (x < 0.36) return `${adj} ${unit} ${r.pick(LISTING_PREPOSITIONS)} ${landmark(r, hood.borough)}`;
  if (x < 0.46) return `${adj} ${area} ${r.pick(LISTING_NICKNAME_NOUNS)}`;
  if (x < 0.56) return `${adj} ${unit} ${r.pick(LISTING_FEATURES)}`;
  if (x < 0.63) return `${adj} & ${r.pick(LISTING_ADJECTIVES)} ${unit} in ${area}`;
  if (x < 0.71) return `${unit} in ${area} ${r.pick(LISTING_FEATURES)}`;
  if (x < 0.76) return `${area} ${unit}`;
  if (x < 0.8) return `${adj} ${unit} in Prime ${area}`;
  if (x < 0.85) return `${adj} ${unit} in ${area}`.toLowerCase();
  if (x < 0.88) return `${adj} ${unit} in ${area}`.toUpperCase();
  if (x < 0.92) return `${adj} ${unit.toLowerCase()}, ${r.pick(LISTING_COMMA_TAILS)}`;
  if (x < 0.94) {
    const e = r.pick(LISTING_EMOJI);
    return r.chance(0.5) ? `${e} ${adj} ${unit} in ${area} ${e}` : `${adj} ${unit} in ${area} ${e}`;
  }
  if (x < 0.95) return `"The ${r.pick(LISTING_NICKNAME_NOUNS)}" - ${adj} ${unit} in ${area}`;
  if (x < 0.98) return `${adj} ${unit} in ${area}!`;
  return `${adj} ${unit} ${r.pick(LISTING_PREPOSITIONS)} ${landmark(r, hood.borough)} ${r.pick(LISTING_FEATURES)}`;
}

/** How a title refers to the listing's area: the neighbourhood, a nickname, the borough or the city. */
function areaName(r: Rng, hood: Neighbourhood): string {
  const x = r.next();
  const nick = NEIGHBOURHOOD_NICKNAMES[hood.name];
  if (nick && x < 0.25) return r.pick(nick);
  if (x < 0.7) return hood.name;
  if (x < 0.92) return hood.borough;
  return r.pick(['NYC', 'New York', 'the City']);
}

function landmark(r: Rng, borough: Borough): string {
  const near = NYC_LANDMARKS.filter(([, b]) => b === borough);
  return near.length > 0 ? (r.pick(near)[0] as string) : 'the subway';
}

function dollars(n: number): string {
  return `$${withThousands(n)} `;
}

function minimumNights(r: Rng): string {
  if (r.chance(0.003)) return NAN;
  if (r.chance(0.0005)) return intFloatCell(r.pick([-1, -3, -10]));
  const x = r.next();
  let n: number;
  if (x < 0.25) n = 1;
  else if (x < 0.45) n = 2;
  else if (x < 0.6) n = 3;
  else if (x < 0.75) n = r.int(4, 7);
  else if (x < 0.87) n = 30;
  else if (x < 0.95) n = r.int(10, 29);
  else n = r.pick([31, 45, 60, 90, 120, 180, 365]);
  return intFloatCell(n);
}

const REVIEW_YEARS = new WeightedPicker(
  [2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022],
  [1, 2, 3, 6, 7, 8, 10, 30, 8, 15, 10],
);
const RATINGS = new WeightedPicker([1, 2, 3, 4, 5], [9, 22.75, 22.75, 22.75, 22.75]);

function lastReview(r: Rng): string {
  const year = REVIEW_YEARS.pick(r);
  const month = r.int(1, 12);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${month}/${r.int(1, days)}/${year}`;
}

function availability(r: Rng): string {
  if (r.chance(0.004)) return NAN;
  const x = r.next();
  if (x < 0.15) return intFloatCell(0);
  if (x < 0.2) return intFloatCell(365);
  if (x < 0.203) return intFloatCell(r.chance(0.5) ? r.int(-10, -1) : r.int(366, 426));
  return intFloatCell(r.int(1, 364));
}

function houseRules(r: Rng): string {
  const rules = r.sample(HOUSE_RULES, r.int(1, 4)).join(' ');
  return r.chance(0.1) ? rules.toLowerCase() : rules;
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
