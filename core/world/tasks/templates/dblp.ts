/**
 * DBLP templates (spec §7.11 easy E1–E10, §7.12 hard H1–H10) over PaperNet and AuthorNet: tooldrift's wording,
 * the original's slots and plans, and gold rules that count what the question asks.
 *
 * Authors are asked about only when their name is unique (`uniquelyNamedAuthorIds`), so that NodeCheck and
 * NeighbourCheck by name reach them; a plan that looks collaborators up by name (H7's NeighbourCheck on each
 * collaborator) is used only when those names lead back to the right ids, and H4 tells collaborators apart by
 * the author ids of the papers' NodeCheck instead. "An author's papers" are the distinct papers on their
 * AuthorNet edges, in the order NeighbourCheck lists them. Draws whose observations would not fit in 1,024
 * tokens, whose plan would exceed the reference-plan call budget, or whose answer printed by Python would be cut
 * (over 500 characters) are not asked.
 *
 * Deliberate differences from ToolQA-D:
 * - AuthorNet stores every co-authored paper after the first twice on an edge (spec §2.7). Gold answers count each
 *   paper once: E7 (papers A and B wrote together) is the number of distinct papers on the A–B edge (the original
 *   answered the number of common neighbours; EVO's few-shot the edge weight), E8 lists the author's distinct
 *   titles (the original repeated titles), E9 counts them (the original summed the per-edge lists), and E10, H4,
 *   H6 count or sum over distinct papers.
 * - E10, H3, H4, H5 ask only when the answer is unique (the original took an arbitrary or the first maximum).
 * - H1 (how many people to know): B is a collaborator (answer 1) or a collaborator's collaborator (answer 2); in
 *   the original B was always a collaborator, so the answer was always 1.
 * - H5 (EVO fix): the single most frequent venue of the author's papers.
 * - H7: the original counted the edges of the subgraph induced by A's two-hop neighbourhood (up to 500,000 of
 *   them), which no plan can observe within the tool limits; here gold is the number of distinct papers written by
 *   A or any collaborator of A, which one NeighbourCheck per person answers.
 * - H9 (EVO fix, inferred): distinct non-empty organisations in author order, joined with `; `; papers whose
 *   authors have no organisation are not asked.
 * - H10 (EVO fix): all keywords of the author's papers, trimmed, distinct, sorted by code point, joined with `; `.
 */

import { PyInt, type PyRenderable, pyRepr, pyStrRepr } from '../../../util/python-format.ts';
import { uniquelyNamedAuthorIds } from '../../corpora/dblp.ts';
import type { DblpCoauthorEdge, DblpGraphs, DblpPaper } from '../../types.ts';
import type { Gold, PlanCall, SampleContext, Solver, TaskTemplate } from '../types.ts';

// ---------------------------------------------------------------------------------------------------------------
// Reading observations

export type PyValue = string | number | boolean | null | PyValue[] | { [key: string]: PyValue };

/**
 * Parses the Python literal (repr of str, int, float, bool, None, list, tuple, dict) that starts at `from`;
 * tuples become arrays. Returns the value and the index after it.
 */
export function parsePyLiteral(text: string, from = 0): { value: PyValue; end: number } {
  let i = from;
  const fail = (what: string): never => {
    throw new Error(`parsePyLiteral: ${what} at ${i}: ${text.slice(i, i + 40)}`);
  };
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  const value = (): PyValue => {
    skip();
    const c = text[i];
    if (c === "'" || c === '"') return str();
    if (c === '[' || c === '(') {
      const close = c === '[' ? ']' : ')';
      i++;
      const items: PyValue[] = [];
      skip();
      while (text[i] !== close) {
        items.push(value());
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== close) fail('expected , or closing bracket');
        skip();
      }
      i++;
      return items;
    }
    if (c === '{') {
      i++;
      const out: { [key: string]: PyValue } = {};
      skip();
      while (text[i] !== '}') {
        const key = value();
        skip();
        if (text[i] !== ':') fail('expected :');
        i++;
        out[String(key)] = value();
        skip();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail('expected , or }');
        skip();
      }
      i++;
      return out;
    }
    const m = /^(?:True|False|None|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/.exec(text.slice(i, i + 40));
    if (!m) return fail('unexpected character');
    i += m[0].length;
    if (m[0] === 'True') return true;
    if (m[0] === 'False') return false;
    if (m[0] === 'None') return null;
    return Number(m[0]);
  };
  const str = (): string => {
    const quote = text[i];
    i++;
    let out = '';
    while (text[i] !== quote) {
      if (i >= text.length) fail('unterminated string');
      const ch = text[i] as string;
      if (ch !== '\\') {
        out += ch;
        i++;
        continue;
      }
      const e = text[i + 1] as string;
      const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"' };
      if (simple[e] !== undefined) {
        out += simple[e];
        i += 2;
      } else {
        const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
        if (width === 0) fail('unknown escape');
        out += String.fromCodePoint(Number.parseInt(text.slice(i + 2, i + 2 + width), 16));
        i += 2 + width;
      }
    }
    i++;
    return out;
  };
  const v = value();
  return { value: v, end: i };
}

/** A NodeCheck observation: the attribute dict (the `; Degree: n` suffix is dropped). */
export function readNode(observation: string): { [key: string]: PyValue } {
  return parsePyLiteral(observation).value as { [key: string]: PyValue };
}

export interface AuthorNeighbourhood {
  degree: number;
  neighbours: { name: string; weight: number }[];
  totalPapers: number;
  titles: string[];
}

/** An AuthorNet NeighbourCheck observation (titles contain no `, ` in this corpus, so the list splits). */
export function readAuthorNeighbours(observation: string): AuthorNeighbourhood {
  const head = /^Degree: (\d+); \d+ neighbors: /.exec(observation);
  if (!head) throw new Error(`not an AuthorNet NeighbourCheck: ${observation.slice(0, 100)}`);
  const list = parsePyLiteral(observation, head[0].length);
  const tail = /^; Total (\d+) papers; Paper list: ([\s\S]*)$/.exec(observation.slice(list.end));
  if (!tail)
    throw new Error(`unexpected NeighbourCheck tail: ${observation.slice(list.end, list.end + 100)}`);
  return {
    degree: Number(head[1]),
    neighbours: (list.value as [string, string][]).map(([name, w]) => ({
      name,
      weight: Number(w.replace('weight: ', '')),
    })),
    totalPapers: Number(tail[1]),
    titles: tail[2] === '' ? [] : (tail[2] as string).split(', '),
  };
}

/** A PaperNet NeighbourCheck observation: in- and out-degree. */
export function readPaperNeighbours(observation: string): { inDegree: number; outDegree: number } {
  const m = /^In degree: (\d+); Out degree: (\d+);/.exec(observation);
  if (!m) throw new Error(`not a PaperNet NeighbourCheck: ${observation.slice(0, 100)}`);
  return { inDegree: Number(m[1]), outDegree: Number(m[2]) };
}

/** An AuthorNet EdgeCheck observation: the papers (titles) and their citation counts, as stored. */
export function readEdge(observation: string): { weight: number; papers: string[]; citations: number[] } {
  const d = parsePyLiteral(observation).value as { weight: number; papers: string[]; n_citation: number[] };
  return { weight: d.weight, papers: d.papers, citations: d.n_citation };
}

// ---------------------------------------------------------------------------------------------------------------
// The graph, as the gold rules read it

interface DblpIndex {
  g: DblpGraphs;
  paperList: DblpPaper[];
  /** Uniquely named author ids (AuthorNet order). */
  askable: string[];
  askableSet: Set<string>;
}

const cache = new WeakMap<DblpGraphs, DblpIndex>();
function dblp(ctx: SampleContext): DblpIndex {
  const g = ctx.world.dblp;
  let d = cache.get(g);
  if (!d) {
    const askable = uniquelyNamedAuthorIds(g);
    d = { g, paperList: [...g.papers.values()], askable, askableSet: new Set(askable) };
    cache.set(g, d);
  }
  return d;
}

const nameOf = (g: DblpGraphs, id: string) => (g.authors.get(id) as { name: string }).name;
const edgesOf = (g: DblpGraphs, id: string) => [
  ...(g.coauthors.get(id) ?? new Map<string, DblpCoauthorEdge>()),
];
const paperOf = (g: DblpGraphs, id: string) => g.papers.get(id) as DblpPaper;

/** An author's distinct papers in NeighbourCheck's order (adjacency order, then each edge's list). */
function authorPaperIds(g: DblpGraphs, id: string): string[] {
  const out = new Set<string>();
  for (const [, edge] of edgesOf(g, id)) for (const p of edge.papers) out.add(p);
  return [...out];
}

/** The distinct papers of one edge, with their citation counts. */
function edgePapers(edge: DblpCoauthorEdge): Map<string, number> {
  const out = new Map<string, number>();
  edge.papers.forEach((p, k) => {
    out.set(p, edge.n_citation[k] as number);
  });
  return out;
}

const wordCount = (s: string) => s.split(/\s+/).filter((w) => w !== '').length;

/** Budget for one observation (the limit is 1,024 whitespace tokens; the estimates below are upper bounds). */
const TOKEN_BUDGET = 1000;

/** Upper bound on the whitespace tokens of the author's NeighbourCheck observation. */
function neighbourCheckTokens(g: DblpGraphs, id: string): number {
  let n = 10;
  for (const [nid] of edgesOf(g, id)) n += wordCount(nameOf(g, nid)) + 2;
  for (const p of authorPaperIds(g, id)) n += wordCount(paperOf(g, p).title);
  return n;
}

/** Whether the author's NeighbourCheck fits in one observation and its paper list can be split at `, `. */
function neighbourCheckReadable(g: DblpGraphs, id: string): boolean {
  return (
    neighbourCheckTokens(g, id) <= TOKEN_BUDGET &&
    authorPaperIds(g, id).every((p) => !paperOf(g, p).title.includes(', '))
  );
}

/** Whether every collaborator's name leads back to that collaborator (so EdgeCheck/NeighbourCheck by name work). */
function neighboursReachableByName(g: DblpGraphs, id: string): boolean {
  const names = new Set<string>();
  for (const [nid] of edgesOf(g, id)) {
    const name = nameOf(g, nid);
    if (names.has(name) || g.nameToAuthorId.get(name) !== nid) return false;
    names.add(name);
  }
  return true;
}

/** The most plan calls a template may need per question (the reference runner allows 40). */
const MAX_LOOKUPS = 30;

/** Draws up to `tries` uniquely named authors and returns the first that `ok` accepts. */
function pickAuthor(ctx: SampleContext, ok: (id: string) => boolean, tries = 40): string | null {
  const d = dblp(ctx);
  if (d.askable.length === 0) return null;
  for (let t = 0; t < tries; t++) {
    const id = ctx.rng.pick(d.askable);
    if (ok(id)) return id;
  }
  return null;
}

function pickPaper(ctx: SampleContext, ok: (p: DblpPaper) => boolean, tries = 40): DblpPaper | null {
  const d = dblp(ctx);
  if (d.paperList.length === 0) return null;
  for (let t = 0; t < tries; t++) {
    const p = ctx.rng.pick(d.paperList);
    if (ok(p)) return p;
  }
  return null;
}

/** A uniquely named collaborator of `id`, or null. */
function pickCollaborator(
  ctx: SampleContext,
  id: string,
  ok: (nid: string) => boolean = () => true,
): string | null {
  const d = dblp(ctx);
  const candidates = edgesOf(d.g, id)
    .map(([nid]) => nid)
    .filter((nid) => d.askableSet.has(nid) && ok(nid));
  return candidates.length === 0 ? null : ctx.rng.pick(candidates);
}

/** The single most frequent value, or null when several share the highest count. */
function uniqueMode(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let top = 0;
  let tie = false;
  for (const [v, c] of counts) {
    if (c > top) {
      best = v;
      top = c;
      tie = false;
    } else if (c === top) tie = true;
  }
  return tie ? null : best;
}

/** The key with the strictly largest positive value, or null (tie or no positive value). */
function uniqueArgmax(entries: Iterable<[string, number]>): string | null {
  let best: string | null = null;
  let top = 0;
  let tie = false;
  for (const [k, v] of entries) {
    if (v > top) {
      best = k;
      top = v;
      tie = false;
    } else if (v === top && v > 0) tie = true;
  }
  return tie ? null : best;
}

const int = (value: number): Gold => ({ type: 'int', value });

/** PythonInterpreter cuts outputs longer than 500 characters (spec §3.10 step 5): answers it prints stay shorter. */
const MAX_PRINTED_ANSWER = 500;

// ---------------------------------------------------------------------------------------------------------------
// Plan pieces

const loadGraph: PlanCall = { tool: 'LoadGraph', args: { GraphName: 'dblp' } };
const nodeCheck = (graph: 'PaperNet' | 'AuthorNet', node: string): PlanCall => ({
  tool: 'NodeCheck',
  args: { GraphName: graph, Node: node },
});
const neighbourCheck = (graph: 'PaperNet' | 'AuthorNet', node: string): PlanCall => ({
  tool: 'NeighbourCheck',
  args: { GraphName: graph, Node: node },
});
const edgeCheck = (a: string, b: string): PlanCall => ({
  tool: 'EdgeCheck',
  args: { GraphName: 'AuthorNet', Node1: a, Node2: b },
});
const python = (code: string): PlanCall => ({ tool: 'PythonInterpreter', args: { Python: code } });

const pyList = (xs: readonly (string | number)[]) =>
  pyRepr(xs.map((x) => (typeof x === 'number' ? new PyInt(x) : x)) as PyRenderable[]);

/** Runs Python and returns its stripped output. */
function* run(code: string): Generator<PlanCall, string, string> {
  return (yield python(code)).trim();
}

/** NodeCheck on each title; returns the attribute dicts in the same order. */
function* paperNodes(titles: readonly string[]): Generator<PlanCall, { [key: string]: PyValue }[], string> {
  const out: { [key: string]: PyValue }[] = [];
  for (const t of titles) out.push(readNode(yield nodeCheck('PaperNet', t)));
  return out;
}

type TitleSlots = { title: string };
type AuthorSlots = { author: string };
type PairSlots = { author: string; coauthor: string };

function template<S extends Record<string, string>>(
  difficulty: 'easy' | 'hard',
  label: string,
  question: string,
  goldRule: string,
  sample: TaskTemplate<S>['sample'],
  solve: (slots: S) => Solver,
): TaskTemplate<S> {
  return {
    id: `dblp-${difficulty}-${label}`,
    dataset: 'dblp',
    difficulty,
    label,
    question,
    goldRule,
    sample,
    solve,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Easy

const easy: TaskTemplate[] = [
  template<TitleSlots>(
    'easy',
    'E1',
    'Who wrote the paper "{title}"?',
    'The names in the paper’s author list, in order (authors without id included), joined with `, `.',
    (ctx) => {
      const p = pickPaper(ctx, (x) => x.authors.length > 0);
      return p === null ? null : { slots: { title: p.title }, gold: p.authors.map((a) => a.name).join(', ') };
    },
    function* ({ title }) {
      yield loadGraph;
      const node = readNode(yield nodeCheck('PaperNet', title));
      return (node.authors as { name: string }[]).map((a) => a.name).join(', ');
    },
  ),
  template<AuthorSlots>(
    'easy',
    'E2',
    'Which organization is {author} affiliated with in the DBLP author graph?',
    'The AuthorNet `org` of the author (authors without one are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => (d.g.authors.get(x)?.org ?? '') !== '');
      return id === null
        ? null
        : { slots: { author: nameOf(d.g, id) }, gold: (d.g.authors.get(id) as { org: string }).org };
    },
    function* ({ author }) {
      yield loadGraph;
      return String(readNode(yield nodeCheck('AuthorNet', author)).org);
    },
  ),
  template<TitleSlots>(
    'easy',
    'E3',
    'How many pages long is the paper "{title}"?',
    'int(page_end) − int(page_start) + 1 (papers without both pages are not asked).',
    (ctx) => {
      const p = pickPaper(
        ctx,
        (x) => x.page_start !== '' && x.page_end !== '' && Number(x.page_end) - Number(x.page_start) + 1 > 0,
      );
      return p === null
        ? null
        : { slots: { title: p.title }, gold: int(Number(p.page_end) - Number(p.page_start) + 1) };
    },
    function* ({ title }) {
      yield loadGraph;
      const node = readNode(yield nodeCheck('PaperNet', title));
      return yield* run(
        `print(int(${pyStrRepr(String(node.page_end))}) - int(${pyStrRepr(String(node.page_start))}) + 1)`,
      );
    },
  ),
  template<TitleSlots>(
    'easy',
    'E4',
    'How many papers does "{title}" cite in the DBLP citation graph?',
    'The paper’s out-degree in PaperNet (papers citing nothing are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const p = pickPaper(ctx, (x) => (d.g.cites.get(x.id)?.length ?? 0) > 0);
      return p === null
        ? null
        : { slots: { title: p.title }, gold: int((d.g.cites.get(p.id) as string[]).length) };
    },
    function* ({ title }) {
      yield loadGraph;
      return readPaperNeighbours(yield neighbourCheck('PaperNet', title)).outDegree;
    },
  ),
  template<TitleSlots>(
    'easy',
    'E5',
    'How many papers in the DBLP citation graph cite "{title}"?',
    'The paper’s in-degree in PaperNet (uncited papers are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const p = pickPaper(ctx, (x) => (d.g.citedBy.get(x.id)?.length ?? 0) > 0);
      return p === null
        ? null
        : { slots: { title: p.title }, gold: int((d.g.citedBy.get(p.id) as string[]).length) };
    },
    function* ({ title }) {
      yield loadGraph;
      return readPaperNeighbours(yield neighbourCheck('PaperNet', title)).inDegree;
    },
  ),
  template<AuthorSlots>(
    'easy',
    'E6',
    'With how many different people has {author} co-authored papers in the DBLP author graph?',
    'The author’s degree in AuthorNet (authors without co-authors are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0 && neighbourCheckReadable(d.g, x));
      return id === null ? null : { slots: { author: nameOf(d.g, id) }, gold: int(edgesOf(d.g, id).length) };
    },
    function* ({ author }) {
      yield loadGraph;
      return readAuthorNeighbours(yield neighbourCheck('AuthorNet', author)).degree;
    },
  ),
  template<PairSlots>(
    'easy',
    'E7',
    'How many distinct papers did {author} and {coauthor} write together according to the DBLP author graph?',
    'The number of distinct papers on the AuthorNet edge between the two authors.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0);
      const other = id === null ? null : pickCollaborator(ctx, id);
      if (!id || !other) return null;
      const edge = d.g.coauthors.get(id)?.get(other) as DblpCoauthorEdge;
      return {
        slots: { author: nameOf(d.g, id), coauthor: nameOf(d.g, other) },
        gold: int(edgePapers(edge).size),
      };
    },
    function* ({ author, coauthor }) {
      yield loadGraph;
      const edge = readEdge(yield edgeCheck(author, coauthor));
      return yield* run(`papers = ${pyList(edge.papers)}\nprint(len(set(papers)))`);
    },
  ),
  template<AuthorSlots>(
    'easy',
    'E8',
    'Which papers has {author} co-authored according to the DBLP author graph?',
    'The distinct titles on the author’s AuthorNet edges, in NeighbourCheck order, joined with `, `.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 && authorPaperIds(d.g, x).length <= 20 && neighbourCheckReadable(d.g, x),
      );
      if (!id) return null;
      const titles = authorPaperIds(d.g, id).map((p) => paperOf(d.g, p).title);
      return { slots: { author: nameOf(d.g, id) }, gold: titles.join(', ') };
    },
    function* ({ author }) {
      yield loadGraph;
      return readAuthorNeighbours(yield neighbourCheck('AuthorNet', author)).titles.join(', ');
    },
  ),
  template<AuthorSlots>(
    'easy',
    'E9',
    'How many distinct papers has {author} co-authored according to the DBLP author graph?',
    'The number of distinct papers on the author’s AuthorNet edges.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0 && neighbourCheckReadable(d.g, x));
      return id === null
        ? null
        : { slots: { author: nameOf(d.g, id) }, gold: int(authorPaperIds(d.g, id).length) };
    },
    function* ({ author }) {
      yield loadGraph;
      const { titles } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      return yield* run(`titles = ${pyList(titles)}\nprint(len(set(titles)))`);
    },
  ),
  template<PairSlots>(
    'easy',
    'E10',
    'At which venue did {author} and {coauthor} publish most of their joint papers in the DBLP citation graph?',
    'The single most frequent venue over the distinct papers of the two authors’ edge (ties are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0);
      const other = id === null ? null : pickCollaborator(ctx, id);
      if (!id || !other) return null;
      const papers = [...edgePapers(d.g.coauthors.get(id)?.get(other) as DblpCoauthorEdge).keys()];
      if (papers.length > MAX_LOOKUPS) return null;
      const venue = uniqueMode(papers.map((p) => paperOf(d.g, p).venue));
      return venue === null
        ? null
        : { slots: { author: nameOf(d.g, id), coauthor: nameOf(d.g, other) }, gold: venue };
    },
    function* ({ author, coauthor }) {
      yield loadGraph;
      const edge = readEdge(yield edgeCheck(author, coauthor));
      const nodes = yield* paperNodes([...new Set(edge.papers)]);
      const venues = nodes.map((n) => String((n.venue as { raw: string }).raw));
      return yield* run(`venues = ${pyList(venues)}\nprint(max(set(venues), key=venues.count))`);
    },
  ),
];

// ---------------------------------------------------------------------------------------------------------------
// Hard

/** Ids at exactly two hops from `id`. */
function twoHops(g: DblpGraphs, id: string): string[] {
  const near = new Set<string>([id, ...edgesOf(g, id).map(([n]) => n)]);
  const out = new Set<string>();
  for (const [n] of edgesOf(g, id)) for (const [m] of edgesOf(g, n)) if (!near.has(m)) out.add(m);
  return [...out];
}

/** Whether the two authors' collaborator names identify the collaborators (name intersection = id intersection). */
function namesIdentifyCommon(g: DblpGraphs, a: string, b: string): boolean {
  const byName = new Map<string, string>();
  for (const x of [a, b]) {
    const seen = new Set<string>();
    for (const [nid] of edgesOf(g, x)) {
      const name = nameOf(g, nid);
      if (seen.has(name)) return false;
      seen.add(name);
      const other = byName.get(name);
      if (other !== undefined && other !== nid) return false;
      byName.set(name, nid);
    }
  }
  return true;
}

const hard: TaskTemplate[] = [
  template<PairSlots>(
    'hard',
    'H1',
    'How long is the shortest chain of co-authorships from {author} to {coauthor} in the DBLP co-author network?',
    'The shortest-path length between the two authors in AuthorNet: 1 for collaborators, 2 for a collaborator’s collaborator.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0 && neighbourCheckReadable(d.g, x));
      if (!id) return null;
      const readable = (x: string) => d.askableSet.has(x) && neighbourCheckReadable(d.g, x);
      const far = ctx.rng.chance(0.5);
      const pool = far
        ? twoHops(d.g, id).filter(readable)
        : edgesOf(d.g, id)
            .map(([n]) => n)
            .filter(readable);
      if (pool.length === 0) return null;
      const other = ctx.rng.pick(pool);
      return { slots: { author: nameOf(d.g, id), coauthor: nameOf(d.g, other) }, gold: int(far ? 2 : 1) };
    },
    function* ({ author, coauthor }) {
      yield loadGraph;
      const mine = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author)).neighbours.map(
        (n) => n.name,
      );
      if (mine.includes(coauthor)) return 1;
      const theirs = readAuthorNeighbours(yield neighbourCheck('AuthorNet', coauthor)).neighbours.map(
        (n) => n.name,
      );
      return mine.some((n) => theirs.includes(n)) ? 2 : 3;
    },
  ),
  template<PairSlots>(
    'hard',
    'H2',
    'How many collaborators do {author} and {coauthor} have in common in the DBLP co-author network?',
    'The number of common AuthorNet neighbours of the two (collaborating) authors.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0 && neighbourCheckReadable(d.g, x));
      const other =
        id === null
          ? null
          : pickCollaborator(
              ctx,
              id,
              (x) => neighbourCheckReadable(d.g, x) && namesIdentifyCommon(d.g, id, x),
            );
      if (!id || !other) return null;
      const mine = new Set(edgesOf(d.g, id).map(([n]) => n));
      const common = edgesOf(d.g, other).filter(([n]) => mine.has(n)).length;
      return { slots: { author: nameOf(d.g, id), coauthor: nameOf(d.g, other) }, gold: String(common) };
    },
    function* ({ author, coauthor }) {
      yield loadGraph;
      const a = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author)).neighbours.map((n) => n.name);
      const b = readAuthorNeighbours(yield neighbourCheck('AuthorNet', coauthor)).neighbours.map(
        (n) => n.name,
      );
      return yield* run(`a = ${pyList(a)}\nb = ${pyList(b)}\nprint(len(set(a) & set(b)))`);
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H3',
    'Which paper co-authored by {author} has the most citations in the DBLP citation graph?',
    'Among the author’s distinct papers, the title with the strictly largest n_citation (> 0; ties are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 &&
          authorPaperIds(d.g, x).length <= MAX_LOOKUPS &&
          neighbourCheckReadable(d.g, x),
      );
      if (!id) return null;
      const best = uniqueArgmax(authorPaperIds(d.g, id).map((p) => [p, paperOf(d.g, p).n_citation]));
      return best === null ? null : { slots: { author: nameOf(d.g, id) }, gold: paperOf(d.g, best).title };
    },
    function* ({ author }) {
      yield loadGraph;
      const { titles } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      const nodes = yield* paperNodes(titles);
      const citations = nodes.map((n) => Number(n.n_citation));
      return yield* run(
        `titles = ${pyList(titles)}\ncitations = ${pyList(citations)}\nprint(titles[citations.index(max(citations))])`,
      );
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H4',
    'With which collaborator does {author} share the most citations in the DBLP co-author network?',
    'The collaborator whose shared distinct papers have the strictly largest total n_citation (> 0; ties, and winners whose name another collaborator shares, are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 &&
          authorPaperIds(d.g, x).length <= MAX_LOOKUPS &&
          neighbourCheckReadable(d.g, x),
      );
      if (!id) return null;
      const totals = edgesOf(d.g, id).map(([n, e]): [string, number] => [
        n,
        [...edgePapers(e).values()].reduce((a, b) => a + b, 0),
      ]);
      const best = uniqueArgmax(totals);
      if (best === null) return null;
      // The answer is a name: no other collaborator may carry it.
      const name = nameOf(d.g, best);
      if (edgesOf(d.g, id).filter(([n]) => nameOf(d.g, n) === name).length > 1) return null;
      return { slots: { author: nameOf(d.g, id) }, gold: name };
    },
    function* ({ author }) {
      // The papers' author lists carry ids, so collaborators who share a name stay apart.
      yield loadGraph;
      const { titles } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      const rows: string[] = [];
      for (const node of yield* paperNodes(titles)) {
        const authors = node.authors as { id: string; name: string }[];
        const others = new Map(
          authors.filter((a) => a.id !== '' && a.name !== author).map((a) => [a.id, a.name]),
        );
        for (const [coId, coName] of others) {
          rows.push(`    (${pyStrRepr(coId)}, ${pyStrRepr(coName)}, ${Number(node.n_citation)}),`);
        }
      }
      return yield* run(
        [
          'rows = [',
          ...rows,
          ']',
          'totals = {}',
          'names = {}',
          'for author_id, name, citations in rows:',
          '    totals[author_id] = totals.get(author_id, 0) + citations',
          '    names[author_id] = name',
          'print(names[max(totals, key=totals.get)])',
        ].join('\n'),
      );
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H5',
    'In which venue has {author} published the most papers according to the DBLP citation graph?',
    'The single most frequent venue of the author’s distinct papers (ties are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 &&
          authorPaperIds(d.g, x).length <= MAX_LOOKUPS &&
          neighbourCheckReadable(d.g, x),
      );
      if (!id) return null;
      const venue = uniqueMode(authorPaperIds(d.g, id).map((p) => paperOf(d.g, p).venue));
      return venue === null ? null : { slots: { author: nameOf(d.g, id) }, gold: venue };
    },
    function* ({ author }) {
      yield loadGraph;
      const { titles } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      const nodes = yield* paperNodes(titles);
      const venues = nodes.map((n) => String((n.venue as { raw: string }).raw));
      return yield* run(`venues = ${pyList(venues)}\nprint(max(set(venues), key=venues.count))`);
    },
  ),
  template<PairSlots>(
    'hard',
    'H6',
    'How many citations in total have the papers co-authored by {author} and {coauthor} received in the DBLP citation graph?',
    'The sum of n_citation over the distinct papers on the two authors’ AuthorNet edge.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0);
      const other = id === null ? null : pickCollaborator(ctx, id);
      if (!id || !other) return null;
      const edge = d.g.coauthors.get(id)?.get(other) as DblpCoauthorEdge;
      const total = [...edgePapers(edge).values()].reduce((a, b) => a + b, 0);
      return { slots: { author: nameOf(d.g, id), coauthor: nameOf(d.g, other) }, gold: String(total) };
    },
    function* ({ author, coauthor }) {
      yield loadGraph;
      const edge = readEdge(yield edgeCheck(author, coauthor));
      return yield* run(
        `papers = ${pyList(edge.papers)}\ncites = ${pyList(edge.citations)}\nprint(sum(dict(zip(papers, cites)).values()))`,
      );
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H7',
    'How many distinct papers have {author} and all of his or her collaborators co-authored in the DBLP author graph?',
    'The number of distinct papers on the AuthorNet edges of the author or of any of the author’s collaborators.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 &&
          edgesOf(d.g, x).length <= MAX_LOOKUPS &&
          neighbourCheckReadable(d.g, x) &&
          neighboursReachableByName(d.g, x) &&
          edgesOf(d.g, x).every(([n]) => neighbourCheckReadable(d.g, n)),
      );
      if (!id) return null;
      const papers = new Set(authorPaperIds(d.g, id));
      for (const [n] of edgesOf(d.g, id)) for (const p of authorPaperIds(d.g, n)) papers.add(p);
      return { slots: { author: nameOf(d.g, id) }, gold: int(papers.size) };
    },
    function* ({ author }) {
      yield loadGraph;
      const me = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      const lists = [me.titles];
      for (const { name } of me.neighbours)
        lists.push(readAuthorNeighbours(yield neighbourCheck('AuthorNet', name)).titles);
      return yield* run(
        ['papers = set()', ...lists.map((l) => `papers.update(${pyList(l)})`), 'print(len(papers))'].join(
          '\n',
        ),
      );
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H8',
    'Who has co-authored the most papers with {author} in the DBLP co-author network?',
    'The names of all collaborators with the largest edge weight, in adjacency order, joined with `, `.',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(ctx, (x) => edgesOf(d.g, x).length > 0 && neighbourCheckReadable(d.g, x));
      if (!id) return null;
      const edges = edgesOf(d.g, id);
      const top = Math.max(...edges.map(([, e]) => e.weight));
      const gold = edges
        .filter(([, e]) => e.weight === top)
        .map(([n]) => nameOf(d.g, n))
        .join(', ');
      return gold.length > MAX_PRINTED_ANSWER ? null : { slots: { author: nameOf(d.g, id) }, gold };
    },
    function* ({ author }) {
      yield loadGraph;
      const { neighbours } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      return yield* run(
        [
          `names = ${pyList(neighbours.map((n) => n.name))}`,
          `weights = ${pyList(neighbours.map((n) => n.weight))}`,
          "print(', '.join(n for n, w in zip(names, weights) if w == max(weights)))",
        ].join('\n'),
      );
    },
  ),
  template<TitleSlots>(
    'hard',
    'H9',
    'Which institutions took part in the paper "{title}" according to the DBLP citation graph?',
    'The distinct non-empty organisations of the paper’s authors, in author order, joined with `; ` (papers without any are not asked).',
    (ctx) => {
      const p = pickPaper(ctx, (x) => x.authors.some((a) => a.org !== ''));
      if (!p) return null;
      const orgs = [...new Set(p.authors.map((a) => a.org).filter((o) => o !== ''))];
      return { slots: { title: p.title }, gold: orgs.join('; ') };
    },
    function* ({ title }) {
      yield loadGraph;
      const node = readNode(yield nodeCheck('PaperNet', title));
      const orgs = (node.authors as { org: string }[]).map((a) => a.org).filter((o) => o !== '');
      return [...new Set(orgs)].join('; ');
    },
  ),
  template<AuthorSlots>(
    'hard',
    'H10',
    'Which keywords appear on the papers {author} has co-authored in the DBLP citation graph?',
    'All keywords of the author’s distinct papers, trimmed, distinct, sorted by code point, joined with `; ` (authors without keywords, or with over 500 characters of them, are not asked).',
    (ctx) => {
      const d = dblp(ctx);
      const id = pickAuthor(
        ctx,
        (x) =>
          edgesOf(d.g, x).length > 0 && authorPaperIds(d.g, x).length <= 12 && neighbourCheckReadable(d.g, x),
      );
      if (!id) return null;
      const keywords = new Set<string>();
      for (const p of authorPaperIds(d.g, id))
        for (const k of paperOf(d.g, p).keywords) keywords.add(k.trim());
      const gold = [...keywords].sort(codePointOrder).join('; ');
      if (keywords.size === 0 || gold.length > MAX_PRINTED_ANSWER) return null;
      return { slots: { author: nameOf(d.g, id) }, gold };
    },
    function* ({ author }) {
      yield loadGraph;
      const { titles } = readAuthorNeighbours(yield neighbourCheck('AuthorNet', author));
      const nodes = yield* paperNodes(titles);
      const keywords = nodes.flatMap((n) => (n.keywords as string[]).map(String));
      return yield* run(
        `keywords = ${pyList(keywords)}\nprint('; '.join(sorted(set(k.strip() for k in keywords))))`,
      );
    },
  ),
];

/** Python's string order (by code point; JS compares UTF-16 code units). */
function codePointOrder(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = ((x[i] as string).codePointAt(0) as number) - ((y[i] as string).codePointAt(0) as number);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

export const DBLP_TEMPLATES: readonly TaskTemplate[] = [...easy, ...hard];
