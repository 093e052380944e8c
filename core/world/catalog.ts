/**
 * What each ToolQA-D dataset is, for people and for the API: its context, knowledge format, the tools that
 * solve its questions (spec §1.3), the table schema where there is one, and its size in a given world.
 */
import { AGENDA_COLUMNS } from './corpora/agenda.ts';
import { AIRBNB_COLUMNS } from './corpora/airbnb.ts';
import { COFFEE_COLUMNS } from './corpora/coffee.ts';
import { FLIGHT_COLUMNS } from './corpora/flights.ts';
import { YELP_COLUMNS } from './corpora/yelp.ts';
import type { ColumnSpec } from './table.ts';
import { DATASET_NAMES, type DatasetName, type World } from './types.ts';

export interface DatasetInfo {
  name: DatasetName;
  title: string;
  context: 'temporal' | 'spatial' | 'mathematical' | 'social' | 'scientific' | 'personal';
  format: 'table' | 'text' | 'table+text' | 'graph' | 'none';
  description: string;
  tools: string[];
  /** The table LoadDB loads, if any. */
  columns?: readonly ColumnSpec[];
}

const TABLE_TOOLS = ['LoadDB', 'FilterDB', 'GetValue', 'PythonInterpreter', 'SQLInterpreter', 'Finish'];

export const DATASETS: Record<DatasetName, DatasetInfo> = {
  flights: {
    name: 'flights',
    title: 'US domestic flights, January–July 2022',
    context: 'temporal',
    format: 'table',
    description:
      'One row per scheduled flight: carriers, airports, times, delays, cancellations and diversions.',
    tools: TABLE_TOOLS,
    columns: FLIGHT_COLUMNS,
  },
  coffee: {
    name: 'coffee',
    title: 'Coffee futures prices, 2000–2022',
    context: 'temporal',
    format: 'table',
    description: 'Daily open, high, low, close and volume of coffee futures, one row per trading day.',
    tools: TABLE_TOOLS,
    columns: COFFEE_COLUMNS,
  },
  airbnb: {
    name: 'airbnb',
    title: 'Airbnb listings in New York City',
    context: 'spatial',
    format: 'table',
    description: 'Listings with hosts, neighbourhoods, coordinates, prices, fees and review statistics.',
    tools: TABLE_TOOLS,
    columns: AIRBNB_COLUMNS,
  },
  yelp: {
    name: 'yelp',
    title: 'Yelp businesses',
    context: 'spatial',
    format: 'table',
    description:
      'Businesses with addresses, coordinates, stars, review counts, categories, attributes and hours.',
    tools: TABLE_TOOLS,
    columns: YELP_COLUMNS,
  },
  agenda: {
    name: 'agenda',
    title: 'Personal agendas, 2022',
    context: 'personal',
    format: 'table+text',
    description:
      'Calendar events of about a hundred people, as a table and as one descriptive passage per event.',
    tools: ['RetrieveAgenda', 'LoadDB', 'FilterDB', 'GetValue', 'PythonInterpreter', 'Finish'],
    columns: AGENDA_COLUMNS,
  },
  scirex: {
    name: 'scirex',
    title: 'Machine-learning papers (SciREX style)',
    context: 'scientific',
    format: 'text',
    description: 'Paper sections reporting methods, datasets, metrics, tasks and scores.',
    tools: ['RetrieveScirex', 'PythonInterpreter', 'Finish'],
  },
  dblp: {
    name: 'dblp',
    title: 'DBLP citation and co-authorship graphs',
    context: 'social',
    format: 'graph',
    description: 'PaperNet (papers and citations) and AuthorNet (authors and co-authorships), 2021–2023.',
    tools: ['LoadGraph', 'NeighbourCheck', 'NodeCheck', 'EdgeCheck', 'PythonInterpreter', 'Finish'],
  },
  gsm8k: {
    name: 'gsm8k',
    title: 'Grade-school arithmetic word problems',
    context: 'mathematical',
    format: 'none',
    description: 'Multi-step arithmetic questions with no corpus: solved by computing in Python.',
    tools: ['PythonInterpreter', 'Finish'],
  },
};

export type DatasetSizes = Record<string, number>;

/** The size of every dataset in a world (rows, passages, nodes, edges). */
export function worldSizes(world: World): Record<DatasetName, DatasetSizes> {
  let coauthorEdges = 0;
  for (const edges of world.dblp.coauthors.values()) coauthorEdges += edges.size;
  let citations = 0;
  for (const vs of world.dblp.cites.values()) citations += vs.length;
  const sizes = {} as Record<DatasetName, DatasetSizes>;
  for (const name of DATASET_NAMES) sizes[name] = {};
  for (const name of ['flights', 'coffee', 'airbnb', 'yelp', 'agenda'] as const) {
    sizes[name].rows = world.tables[name].rowCount;
  }
  sizes.agenda.passages = world.agendaPassages.length;
  sizes.scirex.passages = world.scirex.passages.length;
  sizes.scirex.results = world.scirex.results.length;
  sizes.dblp.papers = world.dblp.papers.size;
  sizes.dblp.paperNetNodes = world.dblp.papers.size + world.dblp.externalPaperIds.size;
  sizes.dblp.citations = citations;
  sizes.dblp.authors = world.dblp.authors.size;
  sizes.dblp.coauthorships = coauthorEdges / 2;
  return sizes;
}
