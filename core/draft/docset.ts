/**
 * A DRAFT documentation set: per tool its name, the parameters learned, the description, an example of a call
 * that worked, and the version history with Δ per rewrite and the reason the loop stopped; per category the
 * tool-level description (spec draft.md step 5). A plain JSON value: stored in D1, sent over HTTP, given to agents
 * as their documentation.
 *
 * Categories group the tools a user meets together (ToolBench's "tool" of several endpoints; here the kernel
 * family of the documentation surface's tool): retrieval, database, graph, code and control. Control tools
 * (Finish, UpdateTool) are part of the agent protocol, not of the drifting API: they are copied, not explored.
 */

import { type ApiSurface, isApiSurface } from '../apis/surface/model.ts';
import { servedTools } from '../apis/surface/tools.ts';
import { docLine } from '../prompts/draft.ts';
import { toolStatus } from '../surfaces/adapter.ts';
import type { Surface, SurfaceTool } from '../surfaces/model.ts';
import type { KernelToolName } from '../world/kernel/kernel.ts';
import type { DraftOptions } from './config.ts';

export const DOCSET_FORMAT = 'tooldrift-docset/1';

export interface DocParam {
  name: string;
  required: boolean;
  description?: string;
}

export interface ToolDoc {
  name: string;
  params: DocParam[];
  /** The text after the call form (`which loads …`). */
  description: string;
  /** The parameters of the last exploration call under this name that worked. */
  example?: Record<string, unknown>;
  /** An imported API's operation: its method and path as served (`GET /movie/{movie_id}`); kept across rewrites. */
  route?: string;
}

export interface DocVersion {
  /** 0 for the starting documentation, then the iteration whose rewrite produced it. */
  iteration: number;
  doc: ToolDoc;
  /** Δ parts against the previous version (null for version 0). */
  bleu: number | null;
  cos: number | null;
  delta: number | null;
}

/**
 * Why a tool's loop ended. `converged`: Δ > τ after a rewrite that worked; `max-iterations`: I rewrites without
 * converging; `rewrite-failed`: the loop ended on a failed rewrite (loop.ts `rewriteFailed`: the documentation
 * came back unchanged although the server rejected the iteration's call — Δ = 1 then, which is not
 * convergence); `no-success`: it ended (by Δ > τ or after I rewrites) without any exploration whose call the server
 * accepted, so nothing in the documentation was confirmed by the server; `not-explored`: copied as it was.
 */
export type StopReason = 'converged' | 'max-iterations' | 'rewrite-failed' | 'no-success' | 'not-explored';

/**
 * Why a tool's documentation is not to be taken as current: `rewrite-failed` and `no-success` as in StopReason
 * (from the tool's last run), `not-served` — the documented name is not a tool the explored server serves
 * (retired, sunset or unknown there), checked when the set is finished. A `not-served` entry is never rendered as
 * current documentation (render.ts).
 */
export type DocFlag = 'rewrite-failed' | 'no-success' | 'not-served';

/** The kernel's tool families; an imported API's categories are its resources (`movie`, `person`, …). */
export type KernelCategory = 'retrieval' | 'database' | 'graph' | 'code' | 'control';
export type Category = KernelCategory | (string & {});

export interface DocEntry {
  /** The tool's name in the documentation DRAFT started from (stable across versions). */
  key: string;
  /** For an imported API's set: the base operation the tool serves. */
  operation?: string;
  category: Category;
  doc: ToolDoc;
  versions: DocVersion[];
  stop: StopReason;
  /** What speaks against this documentation (empty: nothing; absent in sets stored before flags existed). */
  flags?: DocFlag[];
  modelCalls: number;
  toolCalls: number;
}

export interface CategoryDoc {
  name: Category;
  /** The tool-level rewrite ('' when not summarised). */
  description: string;
  tools: string[];
}

export interface DocSet {
  format: typeof DOCSET_FORMAT;
  /** The surface whose documentation DRAFT started from, and the surface it explored. */
  source: { docs: string; server: string };
  /** Set when the set documents an imported API's operations (its id): `DocEntry.operation` names them. */
  api?: string;
  /** The documentation set this one continued from (docs that follow drift), or null. */
  parent: string | null;
  model: string;
  /** The encoder that measured φ and Δ (absent in sets stored before it was recorded). */
  encoder?: string;
  /** True when the model was the simulated policy: every figure from this set must say so. */
  simulated: boolean;
  options: DraftOptions;
  tools: DocEntry[];
  categories: CategoryDoc[];
}

const CATEGORY_OF: Record<KernelToolName, KernelCategory> = {
  RetrieveAgenda: 'retrieval',
  RetrieveScirex: 'retrieval',
  LoadDB: 'database',
  FilterDB: 'database',
  GetValue: 'database',
  LoadGraph: 'graph',
  NeighbourCheck: 'graph',
  NodeCheck: 'graph',
  EdgeCheck: 'graph',
  SQLInterpreter: 'code',
  PythonInterpreter: 'code',
  Finish: 'control',
  UpdateTool: 'control',
};

export const CATEGORIES: readonly KernelCategory[] = ['retrieval', 'database', 'graph', 'code', 'control'];

export function categoryOf(tool: SurfaceTool): KernelCategory {
  return CATEGORY_OF[tool.kernel];
}

/** Whether DRAFT explores a tool of this category. */
export function explored(category: Category): boolean {
  return category !== 'control';
}

/** A surface tool's documentation as its prompt list shows it (no example: the prompt list has none). */
export function surfaceToolDoc(tool: SurfaceTool): ToolDoc {
  const params: DocParam[] = [];
  for (const p of tool.params) {
    if (p.kind === 'numbered') {
      params.push(
        { name: `${p.prefix}1`, required: true, description: p.description },
        { name: `${p.prefix}2`, required: false, description: p.description },
        { name: '...', required: false },
      );
    } else
      params.push({ name: p.name, required: p.kind !== 'flag' || !p.optional, description: p.description });
  }
  return { name: tool.name, params, description: tool.description };
}

/** `Name[a, b], description` of one documented tool. */
export function toolDocLine(doc: ToolDoc): string {
  return docLine(doc);
}

/** The starting documentation set of a surface: every tool as documented, nothing explored yet. */
export function initialDocSet(
  docs: Surface,
  server: string,
  model: string,
  simulated: boolean,
  options: DraftOptions,
): DocSet {
  const tools: DocEntry[] = docs.tools.map((t) => {
    const doc = surfaceToolDoc(t);
    return {
      key: t.name,
      category: categoryOf(t),
      doc,
      versions: [{ iteration: 0, doc, bleu: null, cos: null, delta: null }],
      stop: 'not-explored',
      flags: [],
      modelCalls: 0,
      toolCalls: 0,
    };
  });
  return {
    format: DOCSET_FORMAT,
    source: { docs: docs.id, server },
    parent: null,
    model,
    simulated,
    options,
    tools,
    categories: CATEGORIES.map((name) => ({
      name,
      description: '',
      tools: tools.filter((t) => t.category === name).map((t) => t.key),
    })).filter((c) => c.tools.length > 0),
  };
}

/** The tools' documentation lines in order (the prompt-style list without numbers). */
export function docsetLines(set: DocSet): string[] {
  return set.tools.map((t) => toolDocLine(t.doc));
}

/** A tool's flags (none for entries stored before flags existed). */
export function entryFlags(entry: Pick<DocEntry, 'flags'>): DocFlag[] {
  return entry.flags ?? [];
}

/** Whether the server serves a tool under this name now (not retired, not sunset, not unknown). */
export function servesName(server: Surface | ApiSurface, name: string, now?: Date): boolean {
  if (isApiSurface(server)) return servedTools(server, now).some((t) => t.name === name);
  const tool = server.tools.find((t) => t.name === name);
  return tool !== undefined && toolStatus(tool, now) !== 'sunset';
}

/**
 * The set with each tool's `not-served` flag checked against the explored server: set where the documented name
 * is not served there, cleared where it is (the other flags belong to the tool's last run and stay).
 */
export function markServed(set: DocSet, server: Surface | ApiSurface, now?: Date): DocSet {
  const tools = set.tools.map((t) => {
    const flags: DocFlag[] = entryFlags(t).filter((f) => f !== 'not-served');
    if (!servesName(server, t.doc.name, now)) flags.push('not-served');
    return { ...t, flags };
  });
  return { ...set, tools };
}

/** Equality of two tool documents (names, parameters, description; the example does not count). */
export function sameDoc(a: ToolDoc, b: ToolDoc): boolean {
  return toolDocLine(a) === toolDocLine(b) && JSON.stringify(a.params) === JSON.stringify(b.params);
}
