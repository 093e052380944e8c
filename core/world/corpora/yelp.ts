/**
 * The `yelp` table (spec §2.4): businesses in the metros of the public Yelp dataset with the 14 fields of
 * yelp_academic_dataset_business.json. Each business has a category group (restaurants, shopping, home
 * services, …) that drives its name, categories, opening hours, listed attributes and review volume; about one
 * in eight is a location of a national chain (Starbucks, Subway, …), so chain names repeat across cities.
 *
 * Invariants the task generator can rely on:
 * - business_id is a unique 22-character URL-safe id. Rows are in random order (as in the JSON file).
 * - Names of non-chain businesses are unique across the table (a handful of collisions can remain after
 *   retries); chain names repeat, possibly several times in one city or postal code.
 * - No name, city, state, postal_code or category name contains `, `; categories are joined with `, `.
 *   A few city cells use another spelling (`St. Louis` / `Saint Louis` / `St Louis`, `Tampa ` with a trailing
 *   space), as the real data does. `state` is a 2-letter code; postal codes keep leading zeros (`08002`) and
 *   Canadian ones have a space (`T5S 2S2`); a few postal codes and addresses are empty strings.
 * - stars ∈ {1.0, 1.5, …, 5.0} (rendered `4.0`); review_count ≥ 5 (int); is_open `1` or `0` (≈80% open).
 * - attributes and hours are Python dict reprs or `None`; attribute values are strings (`'True'`,
 *   `"u'free'"`, nested dict reprs); `ByAppointmentOnly` appears in many service businesses' attributes.
 *   Hours entries are `'H:M-H:M'` with unpadded minutes (`'7:0-20:30'`), in Monday…Sunday order, closed days
 *   omitted; `'0:0-0:0'` marks round-the-clock days. categories is `None` for a few businesses.
 * - latitude/longitude are floats with 5–10 decimals near the business's city.
 *
 * Deliberate differences from ToolQA-D:
 * - 10,000 × scale businesses in about 260 cities instead of 150,346 in about 1,400.
 * - Yelp's comma category names are written without the comma (`Beer & Wine Shops`, `Wills & Estate Planning`).
 */
import type { Rng } from '../../util/random.ts';
import { type ColumnSpec, type Table, TableBuilder } from '../table.ts';
import { fixedDecimalCell } from './cells.ts';
import { WeightedPicker } from './sampling.ts';
import { FIRST_NAMES, SURNAMES } from './vocab/people-names.ts';
import {
  type AttributeProfile,
  BRAND_WORDS,
  CATEGORY_GROUPS,
  type CategoryGroup,
  CHAINS,
  type ChainSpec,
  CUISINE_NAME_PREFIXES,
  type HoursProfile,
  NAME_ADJECTIVES,
  NAME_THINGS,
  SUB_NAME_WORDS,
} from './vocab/yelp-categories.ts';
import {
  COMMON_STREETS,
  STREET_SUFFIXES,
  YELP_METROS,
  type YelpCity,
  type YelpMetro,
} from './vocab/yelp-places.ts';

export const YELP_COLUMNS: readonly ColumnSpec[] = [
  { name: 'business_id', sqlType: 'TEXT', description: 'Unique 22-character business id.' },
  { name: 'name', sqlType: 'TEXT', description: 'Business name.' },
  { name: 'address', sqlType: 'TEXT', description: 'Street address (may be empty).' },
  { name: 'city', sqlType: 'TEXT', description: 'City.' },
  { name: 'state', sqlType: 'TEXT', description: 'State or province code.' },
  { name: 'postal_code', sqlType: 'TEXT', description: 'Postal code.' },
  { name: 'latitude', sqlType: 'REAL', description: 'Latitude.' },
  { name: 'longitude', sqlType: 'REAL', description: 'Longitude.' },
  { name: 'stars', sqlType: 'REAL', description: 'Star rating, 1.0 to 5.0 in steps of 0.5.' },
  { name: 'review_count', sqlType: 'INTEGER', description: 'Number of reviews.' },
  { name: 'is_open', sqlType: 'INTEGER', description: '1 if open, 0 if permanently closed.' },
  { name: 'attributes', sqlType: 'TEXT', description: 'Business attributes as a Python dict, or None.' },
  { name: 'categories', sqlType: 'TEXT', description: 'Comma-separated categories, or None.' },
  { name: 'hours', sqlType: 'TEXT', description: 'Opening hours per weekday as a Python dict, or None.' },
];

export const YELP_BUSINESSES_PER_SCALE = 10_000;
const CHAIN_SHARE = 0.12;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const STAR_VALUES = ['1.0', '1.5', '2.0', '2.5', '3.0', '3.5', '4.0', '4.5', '5.0'] as const;
const LOCAL_STARS = new WeightedPicker(STAR_VALUES, [3, 5, 7, 9, 11, 17, 21, 19, 8]);
const CHAIN_STARS = new WeightedPicker(STAR_VALUES, [8, 16, 22, 20, 14, 10, 6, 3, 1]);
/** Chains that only exist on one side of the border. */
const CANADA_ONLY = new Set(['Tim Hortons']);
const US_ONLY = new Set([
  'Wawa',
  'Walgreens',
  'CVS Pharmacy',
  'Dollar General',
  'Family Dollar',
  'Waffle House',
  'Sonic Drive-In',
  "Jersey Mike's Subs",
  'Firehouse Subs',
  'The Home Depot',
  'Mavis Tires & Brakes',
  'Jiffy Lube',
  'AutoZone Auto Parts',
  "O'Reilly Auto Parts",
  'Advance Auto Parts',
  'Chick-fil-A',
  'Olive Garden Italian Restaurant',
]);

interface PostalArea {
  code: string;
  lat: number;
  lon: number;
}

interface CityPlan {
  city: YelpCity;
  metro: YelpMetro;
  areas: PostalArea[];
  areaPicker: WeightedPicker<PostalArea>;
  /** Standard deviation of business positions around a postal area's centre, in degrees. */
  jitter: number;
}

export function generateYelp(rng: Rng, scale: number): Table {
  if (!(scale > 0)) throw new RangeError(`generateYelp: scale must be positive, got ${scale}`);
  const count = Math.max(1, Math.round(YELP_BUSINESSES_PER_SCALE * scale));
  const plans = planCities(rng.fork('places'));
  const cityPicker = new WeightedPicker(
    plans.map((p) => p.plan),
    plans.map((p) => p.weight),
  );
  const groupPicker = new WeightedPicker(
    CATEGORY_GROUPS,
    CATEGORY_GROUPS.map((g) => g.share),
  );
  const chainPicker = new WeightedPicker(
    CHAINS,
    CHAINS.map((c) => c.weight),
  );
  const r = rng.fork('businesses');
  const ids = new Set<string>();
  const localNames = new Set<string>();
  const builder = new TableBuilder('yelp', YELP_COLUMNS, count);

  for (let i = 0; i < count; i++) {
    const plan = cityPicker.pick(r);
    const canada = plan.metro.addressStyle === 'edmonton';
    let chain: ChainSpec | undefined;
    if (r.chance(CHAIN_SHARE)) {
      chain = chainPicker.pick(r);
      for (let k = 0; k < 8 && (canada ? US_ONLY.has(chain.name) : CANADA_ONLY.has(chain.name)); k++) {
        chain = chainPicker.pick(r);
      }
    }
    const group = chain ? undefined : groupPicker.pick(r);
    const sub = group ? r.pick(group.subs) : undefined;

    const area = plan.areaPicker.pick(r);
    const lat = area.lat + r.normal(0, plan.jitter);
    const lon = area.lon + r.normal(0, plan.jitter * 1.25);
    const decimals = COORDINATE_DECIMALS.pick(r);
    const profile: HoursProfile = chain ? chain.hours : (group as CategoryGroup).hours;
    const attrs: AttributeProfile = chain ? chain.attributes : (group as CategoryGroup).attributes;
    const median = chain ? chain.reviewMedian : (group as CategoryGroup).reviewMedian;
    const isRestaurant = chain ? chain.categories.includes('Restaurants') : group?.root === 'Restaurants';

    builder.add([
      businessId(r, ids),
      chain ? chain.name : localName(r, group as CategoryGroup, sub as string, plan, localNames),
      address(r, plan.metro),
      cityCell(r, plan),
      plan.city.state,
      r.chance(0.003) ? '' : canada ? `${area.code} ${r.int(0, 9)}${letter(r)}${r.int(0, 9)}` : area.code,
      fixedDecimalCell(lat, decimals),
      fixedDecimalCell(lon, decimals),
      (chain ? CHAIN_STARS : LOCAL_STARS).pick(r),
      String(Math.min(7600, Math.max(5, Math.round(Math.exp(r.normal(Math.log(median), 1.05)))))),
      r.chance(isRestaurant ? 0.74 : chain ? 0.86 : 0.84) ? '1' : '0',
      r.chance(0.09)
        ? 'None'
        : attributesRepr(r, attrs, chain ? [0.02, 0.1] : (group as CategoryGroup).appointment),
      r.chance(0.001) ? 'None' : categoriesCell(r, chain, group, sub),
      r.chance(0.15) ? 'None' : hoursRepr(r, profile),
    ]);
  }
  return builder.build();
}

// ---------------------------------------------------------------------------------------------------------
// Places

function planCities(rng: Rng): { plan: CityPlan; weight: number }[] {
  const totalShare = YELP_METROS.reduce((s, m) => s + m.share, 0);
  const out: { plan: CityPlan; weight: number }[] = [];
  for (const metro of YELP_METROS) {
    const metroWeight = metro.cities.reduce((s, c) => s + c.weight, 0);
    for (const city of metro.cities) {
      // Big cities spread over more ground; their postal areas are scattered around the centre.
      const spread = Math.min(0.09, 0.012 + 0.01 * Math.sqrt(city.weight));
      const areas: PostalArea[] = postalCodes(city.postal).map((code) => ({
        code,
        lat: city.lat + rng.normal(0, spread / 2),
        lon: city.lon + rng.normal(0, (spread / 2) * 1.25),
      }));
      const plan: CityPlan = {
        city,
        metro,
        areas,
        areaPicker: new WeightedPicker(
          areas,
          areas.map(() => 0.2 + rng.next()),
        ),
        jitter: spread / (2 * Math.sqrt(areas.length)) + 0.004,
      };
      out.push({ plan, weight: ((metro.share / totalShare) * city.weight) / metroWeight });
    }
  }
  return out;
}

/** Expands `'19102:53'` ranges and Canadian forward sortation areas. */
function postalCodes(spec: string): string[] {
  const codes: string[] = [];
  for (const part of spec.split(' ')) {
    const m = /^(\d{5}):(\d+)$/.exec(part);
    if (m) {
      const base = Number(m[1]);
      for (let k = 0; k < Number(m[2]); k++) codes.push(String(base + k).padStart(5, '0'));
    } else codes.push(part);
  }
  return codes;
}

function cityCell(r: Rng, plan: CityPlan): string {
  for (const [official, variant, p] of plan.metro.variants ?? []) {
    if (official === plan.city.name && r.chance(p)) return variant;
  }
  return plan.city.name;
}

/** Street names that already end in a street type (`Dale Mabry Hwy`, `US 31`) get no suffix. */
const streetHasSuffix = new Map<string, boolean>();

function address(r: Rng, metro: YelpMetro): string {
  if (r.chance(0.04)) return '';
  if (metro.addressStyle === 'edmonton') {
    const avenue = r.chance(0.5);
    const num = r.int(100, 180);
    return `${r.int(10, 179)}${r.int(0, 9)}${r.int(0, 9)} ${num} ${avenue ? 'Avenue' : 'Street'} ${r.pick(['NW', 'NW', 'NW', 'SW'])}`;
  }
  const street = r.chance(0.6) && metro.streets.length > 0 ? r.pick(metro.streets) : r.pick(COMMON_STREETS);
  let hasSuffix = streetHasSuffix.get(street);
  if (hasSuffix === undefined) {
    hasSuffix = /\b(Hwy|Pike|Rd|Blvd|Ave|St|Way|Ln|Dr)\b|^(US|Route) /.test(street);
    streetHasSuffix.set(street, hasSuffix);
  }
  const dir = r.chance(0.2) ? `${r.pick(['N', 'S', 'E', 'W'])} ` : '';
  const num = r.chance(0.7) ? r.int(100, 9999) : r.int(1, 99);
  let line = `${num} ${dir}${street}${hasSuffix ? '' : ` ${r.pick(STREET_SUFFIXES)}`}`;
  if (r.chance(0.12)) line += r.chance(0.7) ? ` Ste ${r.int(1, 40) * 10}` : ` Unit ${r.int(1, 20)}`;
  return line;
}

// ---------------------------------------------------------------------------------------------------------
// Names and categories

function localName(r: Rng, group: CategoryGroup, sub: string, plan: CityPlan, used: Set<string>): string {
  let name = '';
  for (let attempt = 0; attempt < 8; attempt++) {
    name = composeName(r, group, sub, plan);
    if (!used.has(name)) break;
  }
  used.add(name);
  return name;
}

function composeName(r: Rng, group: CategoryGroup, sub: string, plan: CityPlan): string {
  const word = r.pick(SUB_NAME_WORDS[sub] ?? group.nameWords);
  const prefixes = CUISINE_NAME_PREFIXES[sub];
  const x = r.next();
  if (prefixes && x < 0.45) {
    const p = r.pick(prefixes);
    const y = r.next();
    if (y < 0.3) return p;
    if (y < 0.8) return `${p} ${word}`;
    return `${word} ${p}`;
  }
  if (group.root === 'Professional Services' && sub.endsWith('Law') && x < 0.5) {
    return r.chance(0.5)
      ? `Law Offices of ${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`
      : `${r.pick(SURNAMES)} & ${r.pick(SURNAMES)} Law Group`;
  }
  if (group.root === 'Health & Medical' && x < 0.25) {
    const title = sub.includes('Dent') || sub.includes('Orthodont') ? 'DDS' : 'MD';
    return r.chance(0.5)
      ? `Dr. ${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)}`
      : `${r.pick(FIRST_NAMES)} ${r.pick(SURNAMES)} ${title}`;
  }
  if ((group.root === 'Restaurants' || group.root === 'Nightlife') && x < 0.55) {
    return r.chance(0.5)
      ? `The ${r.pick(NAME_ADJECTIVES)} ${r.pick(NAME_THINGS)}`
      : `${r.pick(NAME_ADJECTIVES)} ${r.pick(NAME_THINGS)} ${word}`;
  }
  const y = r.next();
  if (y < 0.2) return `${r.pick(SURNAMES)}'s ${word}`;
  if (y < 0.32) return `${r.pick(FIRST_NAMES)}'s ${word}`;
  if (y < 0.52) return `${r.pick(BRAND_WORDS)} ${word}`;
  if (y < 0.66) return `${r.pick(plan.metro.areas)} ${word}`;
  if (y < 0.76) return `${plan.city.name} ${word}`;
  if (y < 0.86) return `${r.pick(SURNAMES)} & ${r.pick(SURNAMES)} ${word}`;
  if (y < 0.95) return `${r.pick(SURNAMES)} ${word}`;
  if (sub === 'Cafes' || sub === 'Coffee & Tea') return `Café ${r.pick(BRAND_WORDS)}`;
  return `${r.pick(BRAND_WORDS)} ${r.pick(plan.metro.areas)} ${word}`;
}

function categoriesCell(
  r: Rng,
  chain: ChainSpec | undefined,
  group: CategoryGroup | undefined,
  sub?: string,
): string {
  if (chain) return r.shuffle(chain.categories).join(', ');
  const g = group as CategoryGroup;
  const cats = [g.root, sub as string];
  const add = (c: string): void => {
    if (!cats.includes(c)) cats.push(c);
  };
  if (r.chance(0.35)) add(r.pick(g.subs));
  if (r.chance(0.12)) add(r.pick(g.subs));
  for (const [extra, p] of g.extras) if (r.chance(p)) add(extra);
  return r.shuffle(cats).join(', ');
}

// ---------------------------------------------------------------------------------------------------------
// Attributes

// Attribute values are strings (`'True'`, `"u'free'"`, `"{'garage': False, …}"`). Every key and value here is
// plain ASCII without backslashes or double quotes, so each maker returns the value's Python repr directly and
// the dict is assembled by concatenation (the tests re-render every dict with the shared `pyRepr`).
const tf = (r: Rng, p: number): string => (r.chance(0.02) ? "'None'" : r.chance(p) ? "'True'" : "'False'");
/** Yelp's Python-2 era values: the string `u'free'` or `'free'` (repr'd in double quotes). */
const quoted = (r: Rng, value: string): string => (r.chance(0.5) ? `"u'${value}'"` : `"'${value}'"`);

/** A string holding a dict of flags, e.g. `"{'garage': False, 'street': True}"`. */
function flagDict(r: Rng, keys: readonly string[], pTrue: number): string {
  let out = '"{';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ', ';
    out += `'${keys[i]}': ${r.chance(0.03) ? 'None' : r.chance(pTrue) ? 'True' : 'False'}`;
  }
  return `${out}}"`;
}

/** One of a few values with fixed weights. */
function choice(values: readonly string[], weights: readonly number[]): (r: Rng) => string {
  const picker = new WeightedPicker(values, weights);
  return (r) => picker.pick(r);
}
const PRICE_RANGE = choice(["'1'", "'2'", "'3'", "'4'"], [32, 54, 11, 3]);
const WIFI = choice(['no', 'free', 'paid'], [45, 50, 5]);
const ALCOHOL = choice(['none', 'full_bar', 'beer_and_wine'], [45, 35, 20]);
const ATTIRE = choice(['casual', 'dressy', 'formal'], [92, 7, 1]);
const NOISE = choice(['quiet', 'average', 'loud', 'very_loud'], [25, 60, 11, 4]);
const SMOKING = choice(['no', 'outdoor', 'yes'], [60, 30, 10]);
const COORDINATE_DECIMALS = new WeightedPicker([7, 10, 6, 5], [55, 25, 12, 8]);

const PARKING = ['garage', 'street', 'validated', 'lot', 'valet'] as const;
const AMBIENCE = [
  'romantic',
  'intimate',
  'classy',
  'hipster',
  'divey',
  'touristy',
  'trendy',
  'upscale',
  'casual',
];
const MEALS = ['dessert', 'latenight', 'lunch', 'dinner', 'brunch', 'breakfast'] as const;
const MUSIC = ['dj', 'background_music', 'no_music', 'jukebox', 'live', 'video', 'karaoke'] as const;
const NIGHTS = ['monday', 'tuesday', 'friday', 'wednesday', 'thursday', 'sunday', 'saturday'] as const;
const HAIR = [
  'straightperms',
  'coloring',
  'extensions',
  'africanamerican',
  'curly',
  'kids',
  'perms',
  'asian',
] as const;

type AttrMaker = (r: Rng) => string;
const ATTRS: Readonly<Record<string, AttrMaker>> = {
  BusinessAcceptsCreditCards: (r) => tf(r, 0.96),
  BusinessParking: (r) => flagDict(r, PARKING, 0.3),
  BikeParking: (r) => tf(r, 0.75),
  RestaurantsPriceRange2: PRICE_RANGE,
  RestaurantsTakeOut: (r) => tf(r, 0.9),
  RestaurantsDelivery: (r) => tf(r, 0.55),
  OutdoorSeating: (r) => tf(r, 0.45),
  WiFi: (r) => quoted(r, WIFI(r)),
  Alcohol: (r) => quoted(r, ALCOHOL(r)),
  Caters: (r) => tf(r, 0.5),
  RestaurantsAttire: (r) => quoted(r, ATTIRE(r)),
  Ambience: (r) => {
    // One vibe is true; the rest false (a few unknown).
    const vibe = r.int(0, AMBIENCE.length - 1);
    let out = '"{';
    AMBIENCE.forEach((k, i) => {
      out += `${i > 0 ? ', ' : ''}'${k}': ${r.chance(0.04) ? 'None' : i === vibe ? 'True' : 'False'}`;
    });
    return `${out}}"`;
  },
  NoiseLevel: (r) => quoted(r, NOISE(r)),
  RestaurantsReservations: (r) => tf(r, 0.35),
  RestaurantsGoodForGroups: (r) => tf(r, 0.8),
  GoodForKids: (r) => tf(r, 0.75),
  HasTV: (r) => tf(r, 0.6),
  HappyHour: (r) => tf(r, 0.6),
  RestaurantsTableService: (r) => tf(r, 0.6),
  GoodForMeal: (r) => flagDict(r, MEALS, 0.3),
  WheelchairAccessible: (r) => tf(r, 0.9),
  DogsAllowed: (r) => tf(r, 0.4),
  Music: (r) => flagDict(r, MUSIC, 0.25),
  BestNights: (r) => flagDict(r, NIGHTS, 0.35),
  Smoking: (r) => quoted(r, SMOKING(r)),
  CoatCheck: (r) => tf(r, 0.15),
  GoodForDancing: (r) => tf(r, 0.3),
  AcceptsInsurance: (r) => tf(r, 0.8),
  BusinessAcceptsBitcoin: (r) => tf(r, 0.03),
  HairSpecializesIn: (r) => flagDict(r, HAIR, 0.4),
};

/** Attribute keys each kind of business may list, with the probability of listing each. */
const ATTRIBUTE_KEYS: Readonly<Record<AttributeProfile, readonly (readonly [string, number])[]>> = {
  restaurant: [
    ['RestaurantsTakeOut', 0.85],
    ['RestaurantsDelivery', 0.8],
    ['OutdoorSeating', 0.75],
    ['BusinessAcceptsCreditCards', 0.85],
    ['BusinessParking', 0.8],
    ['BikeParking', 0.6],
    ['RestaurantsPriceRange2', 0.85],
    ['WiFi', 0.6],
    ['Alcohol', 0.65],
    ['Caters', 0.55],
    ['RestaurantsAttire', 0.6],
    ['Ambience', 0.6],
    ['NoiseLevel', 0.55],
    ['RestaurantsReservations', 0.65],
    ['RestaurantsGoodForGroups', 0.7],
    ['GoodForKids', 0.7],
    ['HasTV', 0.65],
    ['HappyHour', 0.25],
    ['RestaurantsTableService', 0.4],
    ['GoodForMeal', 0.5],
    ['WheelchairAccessible', 0.3],
    ['DogsAllowed', 0.2],
  ],
  bar: [
    ['BusinessAcceptsCreditCards', 0.85],
    ['BusinessParking', 0.75],
    ['BikeParking', 0.6],
    ['RestaurantsPriceRange2', 0.8],
    ['WiFi', 0.55],
    ['Alcohol', 0.8],
    ['Ambience', 0.65],
    ['NoiseLevel', 0.6],
    ['RestaurantsGoodForGroups', 0.7],
    ['HasTV', 0.7],
    ['HappyHour', 0.6],
    ['OutdoorSeating', 0.7],
    ['Music', 0.45],
    ['BestNights', 0.4],
    ['Smoking', 0.3],
    ['CoatCheck', 0.3],
    ['GoodForDancing', 0.35],
    ['RestaurantsTakeOut', 0.4],
    ['WheelchairAccessible', 0.3],
    ['DogsAllowed', 0.25],
  ],
  food: [
    ['BusinessAcceptsCreditCards', 0.9],
    ['RestaurantsTakeOut', 0.7],
    ['BusinessParking', 0.75],
    ['BikeParking', 0.65],
    ['WiFi', 0.5],
    ['RestaurantsPriceRange2', 0.75],
    ['OutdoorSeating', 0.5],
    ['RestaurantsDelivery', 0.5],
    ['Caters', 0.4],
    ['WheelchairAccessible', 0.3],
    ['DogsAllowed', 0.25],
  ],
  shopping: [
    ['BusinessAcceptsCreditCards', 0.92],
    ['RestaurantsPriceRange2', 0.7],
    ['BusinessParking', 0.75],
    ['BikeParking', 0.6],
    ['WheelchairAccessible', 0.35],
    ['DogsAllowed', 0.2],
    ['BusinessAcceptsBitcoin', 0.15],
  ],
  beauty: [
    ['BusinessAcceptsCreditCards', 0.92],
    ['BusinessParking', 0.7],
    ['RestaurantsPriceRange2', 0.6],
    ['WheelchairAccessible', 0.35],
    ['BikeParking', 0.45],
    ['GoodForKids', 0.3],
    ['AcceptsInsurance', 0.05],
    ['HairSpecializesIn', 0.1],
    ['WiFi', 0.2],
  ],
  health: [
    ['AcceptsInsurance', 0.5],
    ['BusinessAcceptsCreditCards', 0.8],
    ['BusinessParking', 0.3],
    ['WheelchairAccessible', 0.35],
    ['BikeParking', 0.2],
  ],
  service: [
    ['BusinessAcceptsCreditCards', 0.85],
    ['BusinessParking', 0.45],
    ['WheelchairAccessible', 0.25],
    ['BikeParking', 0.3],
    ['BusinessAcceptsBitcoin', 0.1],
    ['DogsAllowed', 0.1],
    ['RestaurantsPriceRange2', 0.2],
  ],
  active: [
    ['GoodForKids', 0.6],
    ['BusinessAcceptsCreditCards', 0.85],
    ['BusinessParking', 0.65],
    ['BikeParking', 0.55],
    ['WheelchairAccessible', 0.35],
    ['DogsAllowed', 0.25],
    ['RestaurantsPriceRange2', 0.4],
    ['WiFi', 0.2],
  ],
};

interface AttributePlan {
  /** The dict-entry prefix, `'Key': `. */
  prefix: string;
  p: number;
  make: AttrMaker;
}

/** Per profile: prefix, listing probability and value maker of each key, resolved once. */
const ATTRIBUTE_PLANS = {} as Record<AttributeProfile, readonly AttributePlan[]>;
for (const profile of Object.keys(ATTRIBUTE_KEYS) as AttributeProfile[]) {
  ATTRIBUTE_PLANS[profile] = ATTRIBUTE_KEYS[profile].map(([key, p]) => ({
    prefix: `'${key}': `,
    p,
    make: ATTRS[key] as AttrMaker,
  }));
}

function attributesRepr(r: Rng, profile: AttributeProfile, appointment: readonly [number, number]): string {
  const parts: string[] = [];
  for (const a of ATTRIBUTE_PLANS[profile]) {
    if (r.chance(a.p)) parts.push(a.prefix + a.make(r));
  }
  if (r.chance(appointment[0]))
    parts.push(`'ByAppointmentOnly': ${r.chance(appointment[1]) ? "'True'" : "'False'"}`);
  if (parts.length === 0) return 'None';
  // Listed in no particular order, as in the real data.
  for (let i = parts.length - 1; i > 0; i--) {
    const j = Math.floor(r.next() * (i + 1));
    const x = parts[i] as string;
    parts[i] = parts[j] as string;
    parts[j] = x;
  }
  return `{${parts.join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------------------
// Hours

/** An opening span from space-separated alternatives in Yelp's unpadded `H:M` form. */
function span(r: Rng, opens: string, closes: string): string {
  return `${r.pick(alternatives(opens))}-${r.pick(alternatives(closes))}`;
}

const splitCache = new Map<string, readonly string[]>();
function alternatives(spec: string): readonly string[] {
  let parts = splitCache.get(spec);
  if (parts === undefined) {
    parts = spec.split(' ');
    splitCache.set(spec, parts);
  }
  return parts;
}

/** Opening hours in Yelp's shape: weekday → 'H:M-H:M', closed days left out. */
function hoursRepr(r: Rng, profile: HoursProfile): string {
  const days: (string | undefined)[] = new Array(7).fill(undefined);
  const every = (text: string, from = 0, to = 6): void => {
    for (let d = from; d <= to; d++) days[d] = text;
  };
  switch (profile) {
    case 'allday':
      every('0:0-0:0');
      break;
    case 'restaurant': {
      const weekday = span(r, '11:0 11:30 11:0 10:30 12:0 16:0 7:0', '21:0 21:30 22:0 22:0 23:0 20:0');
      every(weekday);
      // Later closing on Friday and Saturday.
      if (r.chance(0.6))
        every(
          weekday.replace(/-(\d+):/, (_, h: string) => `-${(Number(h) + 1) % 24}:`),
          4,
          5,
        );
      if (r.chance(0.25)) days[0] = undefined;
      if (r.chance(0.15)) days[6] = span(r, '10:0 11:0 12:0', '20:0 21:0');
      break;
    }
    case 'breakfast':
      every(span(r, '6:0 6:30 7:0', '14:0 14:30 15:0'));
      break;
    case 'cafe':
      every(span(r, '6:0 6:30 7:0 5:30', '17:0 18:0 19:0 20:0 21:0'), 0, 4);
      every(span(r, '7:0 8:0', '17:0 18:0 20:0'), 5, 6);
      break;
    case 'bar':
      every(span(r, '11:0 16:0 17:0 15:0', '2:0 0:0 1:0 23:0'));
      if (r.chance(0.4)) days[0] = undefined;
      break;
    case 'retail':
      every(span(r, '10:0 9:0 10:0 11:0', '21:0 20:0 18:0 19:0'), 0, 5);
      if (r.chance(0.75)) days[6] = span(r, '11:0 12:0 10:0', '18:0 17:0 19:0');
      break;
    case 'office':
      every(span(r, '8:0 9:0 8:30 7:30', '17:0 18:0 17:30 16:0'), 0, 4);
      if (r.chance(0.25)) days[5] = span(r, '9:0 8:0 10:0', '13:0 14:0 12:0 16:0');
      break;
    case 'medical':
      every(span(r, '8:0 7:30 9:0 7:0', '17:0 16:30 18:0 19:0'), 0, 4);
      if (r.chance(0.3)) days[4] = span(r, '8:0 7:0', '12:0 13:0 14:0');
      if (r.chance(0.1)) days[5] = span(r, '8:0 9:0', '12:0 13:0');
      break;
    case 'salon':
      every(span(r, '9:0 10:0 9:30', '19:0 20:0 18:0'), 1, 4);
      days[5] = span(r, '9:0 8:0', '17:0 16:0 18:0');
      if (r.chance(0.5)) days[0] = days[1];
      if (r.chance(0.3)) days[6] = span(r, '11:0 10:0', '17:0 16:0');
      break;
    case 'auto':
      every(span(r, '7:30 8:0 7:0', '17:30 18:0 17:0'), 0, 4);
      if (r.chance(0.6)) days[5] = span(r, '8:0 7:30', '14:0 13:0 16:0');
      break;
    case 'gym':
      if (r.chance(0.2)) every('0:0-0:0');
      else {
        every(span(r, '5:0 5:30 6:0', '22:0 23:0 21:0'), 0, 4);
        every(span(r, '7:0 8:0', '19:0 18:0 20:0'), 5, 6);
      }
      break;
    case 'venue':
      every(span(r, '10:0 9:0 11:0 17:0', '17:0 18:0 22:0 23:0'), 2, 6);
      if (r.chance(0.3)) days[1] = days[2];
      break;
  }
  // A few listings show 0:0-0:0 for every day (Yelp's marker for "open 24 hours" or unknown).
  if (r.chance(0.03)) every('0:0-0:0');
  const parts: string[] = [];
  days.forEach((d, i) => {
    if (d !== undefined) parts.push(`'${WEEKDAYS[i]}': '${d}'`);
  });
  return parts.length === 0 ? 'None' : `{${parts.join(', ')}}`;
}

// ---------------------------------------------------------------------------------------------------------
// Small helpers

const idCodes = new Array<number>(22);

function businessId(r: Rng, used: Set<string>): string {
  for (;;) {
    // 5 characters (30 bits) per 32-bit draw.
    for (let i = 0; i < 22; i += 5) {
      let bits = r.nextUint32();
      for (let k = i; k < i + 5 && k < 22; k++) {
        idCodes[k] = ID_ALPHABET.charCodeAt(bits & 63);
        bits >>>= 6;
      }
    }
    const id = String.fromCharCode(...idCodes);
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

function letter(r: Rng): string {
  return 'ABCEGHJKLMNPRSTVWXYZ'[r.int(0, 19)] as string;
}
