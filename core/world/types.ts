/**
 * The shape of a generated ToolQA-D world: what the corpus generators produce and what the kernel tools read.
 * A world is fully determined by (seed, scale); `generateWorld` builds it in memory in any runtime.
 */
import type { Table } from './table.ts';

/** The databases LoadDB accepts (spec §3.2), in LoadDB's order. */
export const DATABASE_NAMES = ['flights', 'coffee', 'airbnb', 'yelp', 'agenda'] as const;
export type DatabaseName = (typeof DATABASE_NAMES)[number];

/** The seven ToolQA-D datasets plus the gsm8k-style arithmetic set (easy only). */
export const DATASET_NAMES = [
  'flights',
  'coffee',
  'airbnb',
  'yelp',
  'agenda',
  'scirex',
  'dblp',
  'gsm8k',
] as const;
export type DatasetName = (typeof DATASET_NAMES)[number];

/** A retrievable text passage (agenda event descriptions, SciREX sections). */
export interface Passage {
  id: string;
  text: string;
}

/** One agenda event as the generator knows it (the table row renders from this; the passage describes it). */
export interface AgendaEvent {
  id: string;
  event: string;
  /** As written in the raw data: `9:00 AM`, `6 PM`, occasionally a free-form value. */
  startTime: string;
  endTime: string;
  location: string;
  person: string;
  /** `YYYY/MM/DD`. */
  date: string;
}

/** A SciREX-style n-ary result tuple (used to make gold answers; the passages state them in prose). */
export interface ScirexResult {
  paperId: string;
  material: string;
  method: string;
  metric: string;
  task: string;
  /** Raw score text as it appears (`94.73`, `22M`, `82.0%`) or a number. */
  score: string | number;
}

export interface ScirexCorpus {
  passages: Passage[];
  results: ScirexResult[];
}

export interface DblpAuthorRef {
  /** 24-hex author id; `''` for an author without id (ignored by AuthorNet). */
  id: string;
  name: string;
  org: string;
}

/** A PaperNet node with full attributes (attribute order matters for NodeCheck's repr, spec §2.7). */
export interface DblpPaper {
  id: string;
  title: string;
  authors: DblpAuthorRef[];
  year: number;
  venue: string;
  n_citation: number;
  keywords: string[];
  doc_type: string;
  page_start: string;
  page_end: string;
}

/** An AuthorNet edge as stored (before EdgeCheck replaces paper ids by titles). */
export interface DblpCoauthorEdge {
  /** 2k − 1 for k shared papers (spec §2.7 quirk). */
  weight: number;
  /** Paper ids, with every paper after the first appended twice (spec §2.7 quirk). */
  papers: string[];
  n_citation: number[];
}

export interface DblpGraphs {
  /** Papers in the title lookup (the 2021+ set), by id, in processing order. */
  papers: Map<string, DblpPaper>;
  /** Cited papers outside the title lookup: nodes that exist in PaperNet but cannot be named by title. */
  externalPaperIds: Set<string>;
  titleToId: Map<string, string>;
  /** PaperNet successors (u cites v), in insertion order; keys include external papers that cite nothing. */
  cites: Map<string, string[]>;
  /** PaperNet predecessors. */
  citedBy: Map<string, string[]>;
  /** AuthorNet nodes: author id → { name, org }. */
  authors: Map<string, { name: string; org: string }>;
  /** Lookup used by the tools: name → author id (the last id seen for that name). */
  nameToAuthorId: Map<string, string>;
  /** AuthorNet adjacency in insertion order: author id → neighbour id → edge. */
  coauthors: Map<string, Map<string, DblpCoauthorEdge>>;
}

export interface WorldConfig {
  seed: string;
  /** 1 = the default sizes of issue 3 (flights ≥ 50,000 rows, …); sizes scale linearly. */
  scale: number;
}

export interface World {
  config: WorldConfig;
  tables: Record<DatabaseName, Table>;
  agendaEvents: AgendaEvent[];
  agendaPassages: Passage[];
  scirex: ScirexCorpus;
  dblp: DblpGraphs;
}
