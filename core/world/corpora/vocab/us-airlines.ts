/**
 * The 21 operating carriers of the 2022 on-time data (names exactly as the flights table spells them, spec
 * §2.1) with the route-network shape the flights generator gives each: the marketing brands it flies under,
 * each brand's bases (hub weights) and flight-number block, and what kind of airports and distances it serves.
 *
 * Shares are approximate 2022 shares of scheduled flights. Two names contain `, ` (GoJet, CommutAir); they are
 * kept because the real data has them, with small shares so most flights stay filterable by Airline.
 */
import type { AirportZone } from './us-airports.ts';

export interface AirlineBrand {
  /** Marketing IATA code (IATA_Code_Marketing_Airline). */
  code: string;
  /** Share of this carrier's flying done under this brand. */
  weight: number;
  /** Airport code → weight; itineraries start at a base. */
  bases: Readonly<Record<string, number>>;
  /** Inclusive marketing flight-number block used for this brand's itineraries. */
  numbers: readonly [number, number];
}

export interface AirlineProfile {
  name: string;
  share: number;
  brands: readonly AirlineBrand[];
  /** Smallest and largest size tier of the airports it serves away from its bases. */
  spokeSizes: readonly [number, number];
  /** Stage-length window in miles. */
  distance: readonly [number, number];
  /** Weight multiplier for stages under 500 miles (how much it prefers longer flying). */
  shortStage: number;
  /** Zones outside the contiguous US it may serve (Hawaii, Alaska, Caribbean). */
  remote: readonly AirportZone[];
  /** If set, the only airports it serves away from its bases. */
  only?: readonly string[];
  /** Probability an itinerary is a multi-stop through flight under one number (2–4 legs). */
  throughFlights: number;
  /** Probability an itinerary flies only some days of the week. */
  partialWeek: number;
}

const MAINLINE: readonly [number, number] = [1, 2999];
const REGIONAL: readonly [number, number] = [3000, 6999];
const ALASKA_REGIONAL: readonly [number, number] = [2000, 3499];

export const AIRLINES: readonly AirlineProfile[] = [
  {
    name: 'Southwest Airlines Co.',
    share: 0.165,
    brands: [
      {
        code: 'WN',
        weight: 1,
        numbers: [1, 4999],
        bases: {
          MDW: 3,
          DAL: 3,
          HOU: 2.5,
          BWI: 3,
          DEN: 3,
          LAS: 3,
          PHX: 2.5,
          MCO: 2,
          ATL: 1.5,
          BNA: 2,
          AUS: 1.5,
          OAK: 1.5,
          SJC: 1,
          SMF: 1,
          LAX: 1.5,
          SAN: 1.5,
          STL: 1.2,
          MCI: 1,
          TPA: 1.2,
          FLL: 1,
          MSY: 1,
          SAT: 0.8,
          HNL: 0.4,
        },
      },
    ],
    spokeSizes: [3, 5],
    distance: [140, 2700],
    shortStage: 1,
    remote: ['HI'],
    throughFlights: 0.55,
    partialWeek: 0.1,
  },
  {
    name: 'Delta Air Lines Inc.',
    share: 0.125,
    brands: [
      {
        code: 'DL',
        weight: 1,
        numbers: MAINLINE,
        bases: { ATL: 7, MSP: 2.2, DTW: 2.2, SLC: 2, JFK: 1.5, LGA: 1.2, BOS: 1, LAX: 1, SEA: 1.2 },
      },
    ],
    spokeSizes: [2, 5],
    distance: [200, 3000],
    shortStage: 0.9,
    remote: ['HI', 'AST'],
    throughFlights: 0.03,
    partialWeek: 0.06,
  },
  {
    name: 'American Airlines Inc.',
    share: 0.115,
    brands: [
      {
        code: 'AA',
        weight: 1,
        numbers: MAINLINE,
        bases: { DFW: 6, CLT: 4, ORD: 1.8, PHX: 2, MIA: 2, PHL: 1.8, DCA: 1.2, LAX: 1, JFK: 0.8, LGA: 0.8 },
      },
    ],
    spokeSizes: [2, 5],
    distance: [200, 3000],
    shortStage: 0.9,
    remote: ['HI', 'AST'],
    throughFlights: 0.03,
    partialWeek: 0.06,
  },
  {
    name: 'SkyWest Airlines Inc.',
    share: 0.105,
    brands: [
      { code: 'UA', weight: 0.4, numbers: REGIONAL, bases: { DEN: 3, ORD: 2, SFO: 2, LAX: 1.5, IAH: 1 } },
      { code: 'DL', weight: 0.33, numbers: REGIONAL, bases: { SLC: 3, MSP: 2, DTW: 1.5, LAX: 1, SEA: 1.5 } },
      { code: 'AA', weight: 0.17, numbers: REGIONAL, bases: { DFW: 2, PHX: 2, ORD: 1, LAX: 1 } },
      { code: 'AS', weight: 0.1, numbers: ALASKA_REGIONAL, bases: { SEA: 2, LAX: 1, PDX: 1, SFO: 1 } },
    ],
    spokeSizes: [1, 4],
    distance: [90, 1300],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'United Air Lines Inc.',
    share: 0.085,
    brands: [
      {
        code: 'UA',
        weight: 1,
        numbers: MAINLINE,
        bases: { ORD: 2.5, DEN: 3, IAH: 2.5, EWR: 2.2, SFO: 2, IAD: 1.5, LAX: 1 },
      },
    ],
    spokeSizes: [2, 5],
    distance: [200, 5000],
    shortStage: 0.8,
    remote: ['HI', 'AST'],
    throughFlights: 0.03,
    partialWeek: 0.06,
  },
  {
    name: 'Republic Airlines',
    share: 0.04,
    brands: [
      { code: 'AA', weight: 0.4, numbers: REGIONAL, bases: { DCA: 2, PHL: 2, CLT: 1.5, LGA: 1.5 } },
      { code: 'DL', weight: 0.3, numbers: REGIONAL, bases: { LGA: 2, BOS: 1.5, DCA: 1 } },
      { code: 'UA', weight: 0.3, numbers: REGIONAL, bases: { EWR: 2, IAD: 1.5, ORD: 1.5 } },
    ],
    spokeSizes: [1, 4],
    distance: [90, 1200],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Envoy Air',
    share: 0.035,
    brands: [{ code: 'AA', weight: 1, numbers: REGIONAL, bases: { DFW: 3, ORD: 2, MIA: 1, LGA: 1 } }],
    spokeSizes: [1, 4],
    distance: [90, 1200],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Endeavor Air Inc.',
    share: 0.033,
    brands: [
      { code: 'DL', weight: 1, numbers: REGIONAL, bases: { MSP: 2, DTW: 2, ATL: 2, LGA: 1.5, JFK: 1 } },
    ],
    spokeSizes: [1, 4],
    distance: [90, 1200],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Comair Inc.',
    share: 0.03,
    brands: [{ code: 'AA', weight: 1, numbers: REGIONAL, bases: { CLT: 3, DCA: 1.5, PHL: 1 } }],
    spokeSizes: [1, 4],
    distance: [90, 1100],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'JetBlue Airways',
    share: 0.037,
    brands: [{ code: 'B6', weight: 1, numbers: MAINLINE, bases: { JFK: 4, BOS: 3, FLL: 2, MCO: 1.5 } }],
    spokeSizes: [3, 5],
    distance: [180, 2800],
    shortStage: 0.8,
    remote: ['AST'],
    throughFlights: 0.02,
    partialWeek: 0.1,
  },
  {
    name: 'Alaska Airlines Inc.',
    share: 0.033,
    brands: [
      { code: 'AS', weight: 1, numbers: [1, 1999], bases: { SEA: 4, PDX: 1.5, ANC: 2, SFO: 1, LAX: 1 } },
    ],
    spokeSizes: [1, 5],
    distance: [150, 2900],
    shortStage: 0.5,
    remote: ['AK', 'HI'],
    throughFlights: 0.08,
    partialWeek: 0.08,
  },
  {
    name: 'Spirit Air Lines',
    share: 0.033,
    brands: [
      {
        code: 'NK',
        weight: 1,
        numbers: [1, 3499],
        bases: { FLL: 2, LAS: 2, MCO: 2, DTW: 1.5, ATL: 1, DFW: 1, EWR: 0.7, ORD: 0.7 },
      },
    ],
    spokeSizes: [3, 5],
    distance: [200, 2600],
    shortStage: 0.8,
    remote: ['AST'],
    throughFlights: 0.02,
    partialWeek: 0.2,
  },
  {
    name: 'Frontier Airlines Inc.',
    share: 0.022,
    brands: [
      { code: 'F9', weight: 1, numbers: [1, 4999], bases: { DEN: 4, LAS: 1.5, MCO: 1.5, PHL: 1, ATL: 1 } },
    ],
    spokeSizes: [2, 5],
    distance: [200, 2600],
    shortStage: 0.8,
    remote: ['AST'],
    throughFlights: 0.02,
    partialWeek: 0.3,
  },
  {
    name: 'Allegiant Air',
    share: 0.016,
    brands: [
      {
        code: 'G4',
        weight: 1,
        numbers: [1, 3999],
        bases: { LAS: 2, SFB: 2, PIE: 2, AZA: 2, PGD: 1, USA: 1, LCK: 1, BLV: 1, PVU: 0.5, BLI: 0.5 },
      },
    ],
    spokeSizes: [1, 3],
    distance: [200, 2300],
    shortStage: 0.4,
    remote: [],
    throughFlights: 0,
    partialWeek: 1,
  },
  {
    name: 'Mesa Airlines Inc.',
    share: 0.02,
    brands: [{ code: 'UA', weight: 1, numbers: REGIONAL, bases: { IAH: 2, DEN: 1.5, IAD: 1.5 } }],
    spokeSizes: [1, 4],
    distance: [90, 1200],
    shortStage: 2.5,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Horizon Air',
    share: 0.013,
    brands: [
      { code: 'AS', weight: 1, numbers: ALASKA_REGIONAL, bases: { SEA: 3, PDX: 2, BOI: 0.7, SFO: 0.5 } },
    ],
    spokeSizes: [1, 4],
    distance: [90, 1000],
    shortStage: 1,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Hawaiian Airlines Inc.',
    share: 0.011,
    brands: [{ code: 'HA', weight: 1, numbers: [1, 999], bases: { HNL: 5, OGG: 1, KOA: 0.5, LIH: 0.5 } }],
    spokeSizes: [2, 5],
    distance: [90, 5100],
    shortStage: 1,
    remote: ['HI'],
    only: [
      'OGG',
      'KOA',
      'LIH',
      'ITO',
      'HNL',
      'LAX',
      'SFO',
      'SEA',
      'PDX',
      'OAK',
      'SJC',
      'SAN',
      'SMF',
      'LAS',
      'PHX',
      'JFK',
      'BOS',
      'AUS',
      'LGB',
      'ONT',
    ],
    throughFlights: 0,
    partialWeek: 0.1,
  },
  {
    name: 'Air Wisconsin Airlines Corp',
    share: 0.012,
    brands: [{ code: 'UA', weight: 1, numbers: REGIONAL, bases: { ORD: 3, IAD: 1 } }],
    spokeSizes: [1, 3],
    distance: [90, 900],
    shortStage: 1,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'GoJet Airlines, LLC d/b/a United Express',
    share: 0.011,
    brands: [{ code: 'UA', weight: 1, numbers: REGIONAL, bases: { ORD: 2, IAD: 1.5, DEN: 1, EWR: 1 } }],
    spokeSizes: [1, 4],
    distance: [90, 1100],
    shortStage: 0.9,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Commutair Aka Champlain Enterprises, Inc.',
    share: 0.012,
    brands: [{ code: 'UA', weight: 1, numbers: REGIONAL, bases: { EWR: 2, IAD: 1.5, IAH: 1.5, DEN: 1 } }],
    spokeSizes: [1, 3],
    distance: [90, 900],
    shortStage: 1,
    remote: [],
    throughFlights: 0.02,
    partialWeek: 0.08,
  },
  {
    name: 'Capital Cargo International',
    share: 0.004,
    brands: [{ code: 'AA', weight: 1, numbers: REGIONAL, bases: { PHL: 1, CLT: 1 } }],
    spokeSizes: [1, 3],
    distance: [90, 800],
    shortStage: 1,
    remote: [],
    throughFlights: 0,
    partialWeek: 0.1,
  },
];
