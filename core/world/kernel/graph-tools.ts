/**
 * LoadGraph, NeighbourCheck, NodeCheck and EdgeCheck over the DBLP graphs (spec §2.7, §3.5–§3.8). The graphs are
 * read-only and always available (LoadGraph only validates the name). Outputs are Python reprs.
 *
 * Error mapping mirrors the original tool server: a node given as a list/dict is a TypeError (the "something
 * wrong with the arguments" message), any other unknown node is a KeyError (NodeCheck: "node does not exist",
 * EdgeCheck: "no edge"); NeighbourCheck has a single error message for everything.
 *
 * Deliberate differences from ToolQA-D:
 * - EdgeCheck on AuthorNet returns the paper titles without replacing the ids inside the shared graph, so the
 *   same edge can be checked again and NeighbourCheck keeps working on its endpoints.
 * - PaperNet NeighbourCheck lists the cited papers that have a title as a list of titles
 *   (`In degree: 0; Out degree: 23; 23 neighbors: ['A', 'B']`, the shape recorded in the EVO few-shots). The
 *   current original reads a `weight` attribute that citation edges do not have and fails whenever a titled
 *   neighbour exists; inventing a weight would show the agent a number that means nothing.
 */
import { PyDict, PyInt, type PyRenderable, PyTuple, pyRepr } from '../../util/python-format.ts';
import type { DblpGraphs, DblpPaper } from '../types.ts';
import {
  EDGE_ARGUMENTS_WRONG,
  GRAPH_LOADED,
  GRAPH_NOT_IN_LIST,
  graphNotFound,
  NEIGHBOUR_ARGUMENTS_WRONG,
  NO_EDGE,
  NODE_ARGUMENTS_WRONG,
  NODE_NOT_EXIST,
} from './messages.ts';
import { isPyHashable } from './python-text.ts';

export type GraphToolOutcome =
  | { ok: true; observation: string }
  | { ok: false; observation: string; unknown?: true };

const success = (observation: string): GraphToolOutcome => ({ ok: true, observation });
const failure = (observation: string): GraphToolOutcome => ({ ok: false, observation });
/** A KeyError-type failure: the graph name was fine, the node or edge is not there. */
const missing = (observation: string): GraphToolOutcome => ({ ok: false, observation, unknown: true });

/** LoadGraph[GraphName]. */
export function loadGraph(graphName: unknown): GraphToolOutcome {
  if (typeof graphName !== 'string') return failure(GRAPH_NOT_IN_LIST);
  if (graphName.toLowerCase() === 'dblp') return success(GRAPH_LOADED);
  return failure(graphNotFound(graphName));
}

/** A lookup-table access like `dict[node]`: 'unhashable' (TypeError), undefined (KeyError) or the id. */
function lookup(table: ReadonlyMap<string, string>, node: unknown): string | undefined | 'unhashable' {
  if (!isPyHashable(node)) return 'unhashable';
  return typeof node === 'string' ? table.get(node) : undefined;
}

function paperTitle(g: DblpGraphs, id: string): string | undefined {
  return g.papers.get(id)?.title;
}

/** NeighbourCheck[GraphName, Node]. */
export function neighbourCheck(g: DblpGraphs, graphName: unknown, node: unknown): GraphToolOutcome {
  if (graphName === 'PaperNet') {
    const id = lookup(g.titleToId, node);
    if (id === undefined || id === 'unhashable' || !g.papers.has(id))
      return failure(NEIGHBOUR_ARGUMENTS_WRONG);
    const cited = g.cites.get(id) ?? [];
    const citing = g.citedBy.get(id) ?? [];
    const titles: PyRenderable[] = [];
    for (const v of cited) {
      const t = paperTitle(g, v);
      if (t !== undefined) titles.push(t);
    }
    return success(
      `In degree: ${citing.length}; Out degree: ${cited.length}; ${cited.length} neighbors: ${pyRepr(titles)}`,
    );
  }
  if (graphName === 'AuthorNet') {
    const id = lookup(g.nameToAuthorId, node);
    if (id === undefined || id === 'unhashable' || !g.authors.has(id))
      return failure(NEIGHBOUR_ARGUMENTS_WRONG);
    const adjacency = g.coauthors.get(id) ?? new Map();
    const neighbours: PyRenderable[] = [];
    const titles: string[] = [];
    const seen = new Set<string>();
    let totalPapers = 0;
    for (const [nid, edge] of adjacency) {
      const author = g.authors.get(nid);
      if (author) neighbours.push(new PyTuple([author.name, `weight: ${edge.weight}`]));
      for (const pid of edge.papers) {
        const t = paperTitle(g, pid);
        if (t === undefined) return failure(NEIGHBOUR_ARGUMENTS_WRONG);
        totalPapers++;
        if (!seen.has(t)) {
          seen.add(t);
          titles.push(t);
        }
      }
    }
    const degree = adjacency.size + (adjacency.has(id) ? 1 : 0);
    return success(
      `Degree: ${degree}; ${adjacency.size} neighbors: ${pyRepr(neighbours)}; Total ${totalPapers} papers; Paper list: ${titles.join(', ')}`,
    );
  }
  return failure(NEIGHBOUR_ARGUMENTS_WRONG);
}

/** The PaperNet node attribute dict, in the pickle's attribute order. */
export function paperAttributes(p: DblpPaper): PyDict {
  return new PyDict([
    ['title', p.title],
    [
      'authors',
      p.authors.map(
        (a) =>
          new PyDict([
            ['id', a.id],
            ['name', a.name],
            ['org', a.org],
          ]),
      ),
    ],
    ['year', new PyInt(p.year)],
    ['venue', new PyDict([['raw', p.venue]])],
    ['n_citation', new PyInt(p.n_citation)],
    ['keywords', [...p.keywords]],
    ['doc_type', p.doc_type],
    ['page_start', p.page_start],
    ['page_end', p.page_end],
  ]);
}

/** NodeCheck[GraphName, Node]: attribute dict repr + `; Degree: n`. */
export function nodeCheck(g: DblpGraphs, graphName: unknown, node: unknown): GraphToolOutcome {
  if (graphName === 'PaperNet') {
    const id = lookup(g.titleToId, node);
    if (id === 'unhashable') return failure(NODE_ARGUMENTS_WRONG);
    const paper = id === undefined ? undefined : g.papers.get(id);
    if (id === undefined || paper === undefined) return missing(NODE_NOT_EXIST);
    const degree = (g.cites.get(id)?.length ?? 0) + (g.citedBy.get(id)?.length ?? 0);
    return success(`${pyRepr(paperAttributes(paper))}; Degree: ${degree}`);
  }
  if (graphName === 'AuthorNet') {
    const id = lookup(g.nameToAuthorId, node);
    if (id === 'unhashable') return failure(NODE_ARGUMENTS_WRONG);
    const author = id === undefined ? undefined : g.authors.get(id);
    if (id === undefined || author === undefined) return missing(NODE_NOT_EXIST);
    const adjacency = g.coauthors.get(id);
    const degree = (adjacency?.size ?? 0) + (adjacency?.has(id) ? 1 : 0);
    return success(`${pyRepr(new PyDict([['org', author.org]]))}; Degree: ${degree}`);
  }
  return failure(NODE_ARGUMENTS_WRONG);
}

/** EdgeCheck[GraphName, Node1, Node2]. */
export function edgeCheck(
  g: DblpGraphs,
  graphName: unknown,
  node1: unknown,
  node2: unknown,
): GraphToolOutcome {
  if (graphName !== 'PaperNet' && graphName !== 'AuthorNet') return failure(EDGE_ARGUMENTS_WRONG);
  const table = graphName === 'PaperNet' ? g.titleToId : g.nameToAuthorId;
  const u = lookup(table, node1);
  if (u === 'unhashable') return failure(EDGE_ARGUMENTS_WRONG);
  if (u === undefined) return missing(NO_EDGE);
  const v = lookup(table, node2);
  if (v === 'unhashable') return failure(EDGE_ARGUMENTS_WRONG);
  if (v === undefined) return missing(NO_EDGE);
  if (graphName === 'PaperNet') {
    return g.cites.get(u)?.includes(v) ? success('{}') : missing(NO_EDGE);
  }
  const edge = g.coauthors.get(u)?.get(v) ?? g.coauthors.get(v)?.get(u);
  if (edge === undefined) return missing(NO_EDGE);
  const titles: PyRenderable[] = [];
  for (const pid of edge.papers) {
    const t = paperTitle(g, pid);
    if (t === undefined) return missing(NO_EDGE);
    titles.push(t);
  }
  const dict = new PyDict([
    ['weight', new PyInt(edge.weight)],
    ['papers', titles],
    ['n_citation', edge.n_citation.map((n) => new PyInt(n))],
  ]);
  return success(pyRepr(dict));
}
