/**
 * The synthetic DBLP corpus (spec §2.7): papers of 2021–2023 with authors, organisations, venues, keywords and
 * skewed citation counts, the citation graph PaperNet (u → v: u cites v, plus cited papers outside the set) and
 * the co-author graph AuthorNet, built exactly the way ToolQA's preprocessing built it.
 *
 * How the data is made: research labs (an institution, an area, a PI and members, partner labs) write papers;
 * most authors of a paper come from one lab, some from partner labs, some appear once. Names follow the lab's
 * country, so common names recur across ids as in the real data. Citations prefer well-cited papers of the same
 * area and never point to a later year.
 *
 * AuthorNet construction (`buildAuthorNet`, spec §2.7), over the papers in processing order = ascending
 * n_citation (stable: ties keep generation order):
 * - an author id is added the first time it is seen, with the name and org of that paper's author entry;
 *   `nameToAuthorId[name]` is set at that moment, so it holds the *last newly seen* id carrying that name;
 * - authors with id `''` are ignored;
 * - for each pair of distinct ids on a paper: the first shared paper creates the edge (weight 1, papers [p],
 *   n_citation [c]); every further shared paper adds 2 to weight and appends p and c twice;
 * - adjacency lists are in edge-creation order; both endpoints share one edge object.
 *
 * Invariants the task generator relies on:
 * - `papers` (Map, processing order) holds exactly the titled papers; titles are unique, `titleToId` inverts them.
 * - Paper, author and external ids are distinct 24-hex strings.
 * - `cites`/`citedBy` have a key for every PaperNet node (titled or external); they are inverse of each other;
 *   external papers cite nothing. A paper's references are distinct and never include itself.
 * - Author names are shared by several ids for common names. Ask about an author only if
 *   `uniquelyNamedAuthorIds(graphs)` contains the id: then its name maps back to it and to no other id.
 * - Some authors have org `''`, some papers have no keywords, no pages, or doc_type `''` (as in DBLP); page
 *   strings are digit strings or `''`.
 *
 * Deliberate differences from ToolQA-D: the pair loop visits a paper's author ids in their order on the paper
 * (first occurrence) instead of Python `set` order, which depended on the interpreter's hash seed; this fixes
 * adjacency order deterministically. Cited papers outside the set carry no attributes (not reachable by title).
 */
import type { Rng } from '../../util/random.ts';
import type { DblpAuthorRef, DblpCoauthorEdge, DblpGraphs, DblpPaper } from '../types.ts';
import { NAME_POOLS, type NameRegion, WORLD_NAME_MIX } from './vocab/dblp-names.ts';
import { DEPARTMENTS, INSTITUTIONS, type Institution } from './vocab/dblp-orgs.ts';
import {
  RESEARCH_AREAS,
  type ResearchArea,
  TITLE_ADJECTIVES,
  TITLE_PROPERTIES,
  TITLE_STUDY_KINDS,
  type Venue,
} from './vocab/dblp-topics.ts';

/** Titled papers at scale 1. */
export const DBLP_PAPERS_AT_SCALE_1 = 20_000;

export type AuthorNet = Pick<DblpGraphs, 'authors' | 'nameToAuthorId' | 'coauthors'>;

/** Builds AuthorNet from papers given in processing order (see the module comment for the exact rules). */
export function buildAuthorNet(
  papers: Iterable<Pick<DblpPaper, 'id' | 'authors' | 'n_citation'>>,
): AuthorNet {
  const authors = new Map<string, { name: string; org: string }>();
  const nameToAuthorId = new Map<string, string>();
  const coauthors = new Map<string, Map<string, DblpCoauthorEdge>>();
  for (const paper of papers) {
    const ids: string[] = [];
    const adjacency: Map<string, DblpCoauthorEdge>[] = [];
    for (const a of paper.authors) {
      if (a.id === '') continue;
      let adj = coauthors.get(a.id);
      if (!adj) {
        authors.set(a.id, { name: a.name, org: a.org });
        nameToAuthorId.set(a.name, a.id);
        adj = new Map();
        coauthors.set(a.id, adj);
      }
      if (!ids.includes(a.id)) {
        ids.push(a.id);
        adjacency.push(adj);
      }
    }
    for (let i = 0; i < ids.length; i++) {
      const u = ids[i] as string;
      const adjU = adjacency[i] as Map<string, DblpCoauthorEdge>;
      for (let k = i + 1; k < ids.length; k++) {
        const v = ids[k] as string;
        const edge = adjU.get(v);
        if (!edge) {
          const created: DblpCoauthorEdge = { weight: 1, papers: [paper.id], n_citation: [paper.n_citation] };
          adjU.set(v, created);
          (adjacency[k] as Map<string, DblpCoauthorEdge>).set(u, created);
        } else {
          // The original added the edge in both directions on an undirected graph, so each later shared paper
          // is counted twice (spec §2.7 quirk).
          edge.weight += 2;
          edge.papers.push(paper.id, paper.id);
          edge.n_citation.push(paper.n_citation, paper.n_citation);
        }
      }
    }
  }
  return { authors, nameToAuthorId, coauthors };
}

/**
 * Author ids whose name no other author id carries (so NeighbourCheck/NodeCheck by name reach exactly this
 * author), in AuthorNet order.
 */
export function uniquelyNamedAuthorIds(graphs: Pick<DblpGraphs, 'authors' | 'nameToAuthorId'>): string[] {
  const count = new Map<string, number>();
  for (const { name } of graphs.authors.values()) count.set(name, (count.get(name) ?? 0) + 1);
  const out: string[] = [];
  for (const [id, { name }] of graphs.authors) {
    if (count.get(name) === 1 && graphs.nameToAuthorId.get(name) === id) out.push(id);
  }
  return out;
}

export function generateDblp(rng: Rng, scale: number): DblpGraphs {
  if (!(scale > 0)) throw new RangeError(`generateDblp: scale must be > 0, got ${scale}`);
  const paperCount = Math.max(200, Math.round(DBLP_PAPERS_AT_SCALE_1 * scale));
  const ids = new IdMaker(rng.fork('ids'));
  const people = new People(rng.fork('people'), ids);
  const labs = makeLabs(rng.fork('labs'), people, Math.max(8, Math.round(paperCount / 15)));
  const { papers: drafts, areas } = writePapers(rng.fork('papers'), labs, people, ids, paperCount);
  const { references, externalIds } = cite(rng.fork('citations'), drafts, areas, ids, paperCount);

  // Processing order: ascending n_citation, ties in generation order (Array.prototype.sort is stable).
  const order = drafts.map((_, i) => i);
  order.sort((a, b) => (drafts[a] as DblpPaper).n_citation - (drafts[b] as DblpPaper).n_citation);

  // PaperNet node k: k < paperCount is drafts[k], otherwise externalIds[k - paperCount]. Nodes enter the graph
  // in the order the original added them: each processed paper, then its not-yet-seen references.
  const idOf = (k: number) =>
    k < paperCount ? (drafts[k] as DblpPaper).id : (externalIds[k - paperCount] as string);
  const seen = new Uint8Array(paperCount + externalIds.length);
  const nodeOrder: number[] = [];
  const citedByIdx: number[][] = Array.from({ length: seen.length }, () => []);
  const papers = new Map<string, DblpPaper>();
  const titleToId = new Map<string, string>();
  for (const i of order) {
    const paper = drafts[i] as DblpPaper;
    papers.set(paper.id, paper);
    titleToId.set(paper.title, paper.id);
    if (!seen[i]) {
      seen[i] = 1;
      nodeOrder.push(i);
    }
    for (const ref of references[i] as number[]) {
      if (!seen[ref]) {
        seen[ref] = 1;
        nodeOrder.push(ref);
      }
      (citedByIdx[ref] as number[]).push(i);
    }
  }
  const cites = new Map<string, string[]>();
  const citedBy = new Map<string, string[]>();
  const externalPaperIds = new Set<string>();
  for (const k of nodeOrder) {
    const id = idOf(k);
    cites.set(id, k < paperCount ? (references[k] as number[]).map(idOf) : []);
    citedBy.set(id, (citedByIdx[k] as number[]).map(idOf));
    if (k >= paperCount) externalPaperIds.add(id);
  }
  const net = buildAuthorNet(papers.values());
  return { papers, externalPaperIds, titleToId, cites, citedBy, ...net };
}

// ---------------------------------------------------------------------------------------------------------------
// Ids and people

const HEX_CODES = Array.from('0123456789abcdef', (ch) => ch.charCodeAt(0));

/**
 * 24-hex ids shaped like the MongoDB ObjectIds AMiner/DBLP uses: a 4-byte timestamp (2014–2023), a 5-byte
 * "machine" value (one of a few per world) and a 3-byte counter. The counter makes every id distinct.
 */
class IdMaker {
  private readonly codes = new Array<number>(24).fill(0);
  private readonly machines: [number, number][];
  private counter: number;
  constructor(private readonly rng: Rng) {
    this.machines = Array.from({ length: 6 }, () => [rng.nextUint32(), rng.int(0, 255)]);
    this.counter = rng.int(0, 0x3fffff);
  }

  next(): string {
    if (this.counter > 0xffffff) throw new Error('IdMaker: more than 16M ids');
    const time = 0x53e00000 + Math.floor(this.rng.next() * (0x64000000 - 0x53e00000));
    const [machine, extra] = this.rng.pick(this.machines);
    this.put(0, 8, time);
    this.put(8, 8, machine);
    this.put(16, 2, extra);
    this.put(18, 6, this.counter++);
    // One flat string (not a concatenation rope): these ids are hashed into many Maps.
    return String.fromCharCode.apply(null, this.codes);
  }

  private put(at: number, digits: number, word: number): void {
    for (let i = digits - 1; i >= 0; i--) {
      this.codes[at + i] = HEX_CODES[word & 15] as number;
      word >>>= 4;
    }
  }
}

interface Person {
  /** `''` when DBLP did not disambiguate the author. */
  id: string;
  name: string;
  /** The affiliation string this person usually writes. */
  org: string;
  institution: Institution;
}

const REGIONS = Object.keys(WORLD_NAME_MIX) as NameRegion[];
const REGION_WEIGHTS = REGIONS.map((r) => WORLD_NAME_MIX[r]);

class People {
  constructor(
    private readonly rng: Rng,
    private readonly ids: IdMaker,
  ) {}

  create(institution: Institution, withId: boolean): Person {
    const rng = this.rng;
    const region =
      institution.region && rng.chance(0.85) ? institution.region : rng.weighted(REGIONS, REGION_WEIGHTS);
    return {
      id: withId ? this.ids.next() : '',
      name: this.name(region),
      org: affiliation(rng, institution),
      institution,
    };
  }

  private name(region: NameRegion): string {
    const rng = this.rng;
    const pool = NAME_POOLS[region];
    // Popular family names are much more common in some traditions (Wang, Li, Zhang; Kim, Lee, Park).
    const family = pool.family[Math.floor(pool.family.length * rng.next() ** pool.familySkew)] as string;
    let given = rng.pick(pool.given);
    if (region === 'chinese' && rng.chance(0.015)) given = `${given.charAt(0)}.`;
    if (rng.chance(pool.familyFirst)) return `${family} ${given}`;
    if (rng.chance(pool.middleInitial)) given = `${given} ${String.fromCharCode(65 + rng.int(0, 25))}.`;
    return `${given} ${family}`;
  }
}

/** One of the affiliation styles found in DBLP; `''` for authors without affiliation. */
function affiliation(rng: Rng, inst: Institution): string {
  const r = rng.next();
  if (r < 0.08) return '';
  if (inst.company) {
    if (r < 0.6) return inst.name;
    if (r < 0.85) return `${inst.name}, ${inst.city}, ${inst.country}`;
    return `${inst.short}, ${inst.city}, ${inst.countryShort}`;
  }
  const [dept, deptShort] = rng.pick(DEPARTMENTS);
  if (r < 0.45) return inst.name;
  if (r < 0.7) return `${dept}, ${inst.name}, ${inst.city}, ${inst.country}`;
  if (r < 0.92) return `${inst.short}, ${deptShort}, ${inst.city}, ${inst.countryShort}`;
  return `${dept.replace(/^(Department|School|College|Institute) of /, '')} ${inst.name}, ${inst.country}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Labs

interface Lab {
  institution: Institution;
  area: ResearchArea;
  secondArea: ResearchArea;
  /** members[0] is the PI. */
  members: Person[];
  memberWeights: number[];
  productivity: number;
  partners: Lab[];
}

function makeLabs(rng: Rng, people: People, count: number): Lab[] {
  // Chinese institutions publish a large share of DBLP's 2021+ papers.
  const instWeights = INSTITUTIONS.map((i) => (i.region === 'chinese' ? 2.2 : 1));
  const labs: Lab[] = [];
  for (let l = 0; l < count; l++) {
    const institution = rng.weighted(INSTITUTIONS, instWeights);
    const size = rng.weighted([3, 4, 5, 6, 7, 8, 9, 10, 12, 14], [6, 9, 10, 10, 9, 7, 5, 4, 3, 2]);
    const members = Array.from({ length: size }, () => people.create(institution, !rng.chance(0.02)));
    labs.push({
      institution,
      area: rng.pick(RESEARCH_AREAS),
      secondArea: rng.pick(RESEARCH_AREAS),
      members,
      memberWeights: members.map((_, i) => (i === 0 ? 1 : rng.float(0.15, 1))),
      // Pareto-distributed output: a few labs write many papers.
      productivity: Math.min(25, (1 / (1 - rng.next())) ** (1 / 1.5)),
      partners: [],
    });
  }
  const byArea = new Map<ResearchArea, Lab[]>();
  for (const lab of labs) {
    const list = byArea.get(lab.area);
    if (list) list.push(lab);
    else byArea.set(lab.area, [lab]);
  }
  for (const lab of labs) {
    const sameArea = byArea.get(lab.area) as Lab[];
    const pool = sameArea.length >= 4 ? sameArea : labs;
    const wanted = Math.min(rng.int(1, 3), pool.length - 1);
    while (lab.partners.length < wanted) {
      const partner = rng.pick(pool);
      if (partner !== lab && !lab.partners.includes(partner)) lab.partners.push(partner);
    }
  }
  return labs;
}

// ---------------------------------------------------------------------------------------------------------------
// Papers

const AUTHOR_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const pickAuthorCount = cumulativePicker([6, 16, 22, 21, 14, 9, 5.5, 3, 1.5, 0.9, 0.6, 0.5]);
const GENERAL_VENUES: readonly Venue[] = [
  { raw: 'IEEE ACCESS', docType: 'Journal', impact: 0.7 },
  { raw: 'SENSORS', docType: 'Journal', impact: 0.7 },
  { raw: 'APPLIED SCIENCES-BASEL', docType: 'Journal', impact: 0.5 },
  { raw: 'MATHEMATICAL PROBLEMS IN ENGINEERING', docType: 'Journal', impact: 0.4 },
  { raw: 'ELECTRONICS', docType: 'Journal', impact: 0.5 },
];

/** Papers in generation order, with the index (in RESEARCH_AREAS) of each paper's area. */
function writePapers(
  rng: Rng,
  labs: Lab[],
  people: People,
  ids: IdMaker,
  count: number,
): { papers: DblpPaper[]; areas: number[] } {
  const pickLab = cumulativePicker(labs.map((l) => l.productivity));
  const titles = new Set<string>();
  const out: DblpPaper[] = [];
  const areas: number[] = [];
  for (let p = 0; p < count; p++) {
    const lab = labs[pickLab(rng)] as Lab;
    const area = rng.chance(0.8) ? lab.area : lab.secondArea;
    const year = rng.weighted([2021, 2022, 2023], [40, 37, 23]);
    const venue = rng.chance(0.1) ? rng.pick(GENERAL_VENUES) : rng.pick(area.venues);
    let title = makeTitle(rng, area);
    while (titles.has(title)) title = makeTitle(rng, area);
    titles.add(title);
    const [pageStart, pageEnd] = pages(rng, venue);
    areas.push(RESEARCH_AREAS.indexOf(area));
    out.push({
      id: ids.next(),
      title,
      authors: chooseAuthors(rng, lab, people),
      year,
      venue: venue.raw,
      n_citation: citations(rng, year, venue),
      keywords: keywords(rng, area),
      doc_type: rng.chance(0.03) ? '' : venue.docType,
      page_start: pageStart,
      page_end: pageEnd,
    });
  }
  return { papers: out, areas };
}

function chooseAuthors(rng: Rng, lab: Lab, people: People): DblpAuthorRef[] {
  const k = AUTHOR_COUNTS[pickAuthorCount(rng)] as number;
  const { members, memberWeights } = lab;
  const pi = members[0] as Person;
  const chosen: Person[] = [];
  // Members other than the PI not yet on the paper, drawn by activity weight.
  let remaining = members.length - 1;
  const taken = new Uint8Array(members.length);
  const takeMember = (): Person | null => {
    if (remaining === 0) return null;
    let total = 0;
    for (let i = 1; i < members.length; i++) if (!taken[i]) total += memberWeights[i] as number;
    let r = rng.next() * total;
    let i = 1;
    for (; i < members.length - 1; i++) {
      if (taken[i]) continue;
      r -= memberWeights[i] as number;
      if (r < 0) break;
    }
    while (taken[i]) i--;
    taken[i] = 1;
    remaining--;
    return members[i] as Person;
  };
  const piLast = k >= 2 && rng.chance(0.75);
  const body = piLast ? k - 1 : k;
  while (chosen.length < body) {
    const r = rng.next();
    let person: Person | null;
    if (r < 0.08 && chosen.length > 0) person = people.create(rng.pick(INSTITUTIONS), !rng.chance(0.3));
    else if (r < 0.2 && chosen.length > 0) person = rng.pick(rng.pick(lab.partners).members);
    else person = takeMember();
    if (!person) person = piLast || chosen.includes(pi) ? people.create(lab.institution, true) : pi;
    if (!chosen.includes(person)) chosen.push(person);
  }
  if (piLast && !chosen.includes(pi)) chosen.push(pi);
  return chosen.map((person) => {
    const r = rng.next();
    // Affiliations drift between papers: mostly the usual string, sometimes another style or none.
    const org = r < 0.88 ? person.org : r < 0.96 ? affiliation(rng, person.institution) : '';
    return { id: person.id, name: person.name, org };
  });
}

function citations(rng: Rng, year: number, venue: Venue): number {
  const zeroShare = year === 2023 ? 0.5 : year === 2022 ? 0.33 : 0.22;
  if (rng.chance(zeroShare)) return 0;
  const mu = 1.0 + (2023 - year) * 0.45 + Math.log(venue.impact);
  const n = Math.floor(Math.exp(rng.normal(mu, 1.25)));
  return Math.min(20_000, Math.max(1, n));
}

function pages(rng: Rng, venue: Venue): [string, string] {
  const r = rng.next();
  if (venue.docType === 'Conference') {
    if (r < 0.65) {
      const start = rng.int(1, 900);
      return [String(start), String(start + rng.int(4, 13))];
    }
    return r < 0.7 ? [String(rng.int(1, 300)), ''] : ['', ''];
  }
  if (r < 0.55) {
    const start = rng.int(1, 6000);
    return [String(start), String(start + rng.int(5, 24))];
  }
  // Journals with article numbers give only a start page.
  return r < 0.75 ? [String(rng.int(1, 9999)), ''] : ['', ''];
}

function keywords(rng: Rng, area: ResearchArea): string[] {
  if (rng.chance(0.3)) return [];
  const picked = rng.sample(area.keywords, rng.int(2, 7));
  const capitalised = rng.chance(0.3);
  const cased = picked.map((k) => (capitalised ? k.charAt(0).toUpperCase() + k.slice(1) : k));
  // Many DBLP records keep the space that followed the separator: ['game awareness', ' game elements', …].
  return rng.chance(0.45) ? cased.map((k, i) => (i === 0 ? k : ` ${k}`)) : cased;
}

const ACRONYM_LETTERS = 'ABCDEFGHIJKLMNOPRSTUVWXYZ';

function acronym(rng: Rng): string {
  const n = rng.int(2, 6);
  let s = '';
  for (let i = 0; i < n; i++) s += ACRONYM_LETTERS[rng.int(0, ACRONYM_LETTERS.length - 1)];
  const r = rng.next();
  if (r < 0.2) return `${s}${rng.int(2, 9)}`;
  if (r < 0.35) return `${s.charAt(0).toLowerCase()}${s.slice(1)}`;
  if (r < 0.5) return `Deep${s}`;
  return s;
}

function makeTitle(rng: Rng, area: ResearchArea): string {
  const M = rng.pick(area.methods);
  const P = rng.pick(area.problems);
  const C = rng.pick(area.contexts);
  const A = rng.pick(TITLE_ADJECTIVES);
  let title: string;
  switch (rng.int(0, 11)) {
    case 0:
      title = `${M} for ${P}`;
      break;
    case 1:
      title = `${M} for ${P} ${C}`;
      break;
    case 2:
      title = `${acronym(rng)}: ${M} for ${P}`;
      break;
    case 3:
      title = `Towards ${A} ${P} via ${M}`;
      break;
    case 4:
      title = `${A} ${P} with ${M} ${C}`;
      break;
    case 5:
      title = `On the ${rng.pick(TITLE_PROPERTIES)} of ${M} ${C}`;
      break;
    case 6:
      title = `${P} ${C}: ${rng.pick(TITLE_STUDY_KINDS)}`;
      break;
    case 7:
      title = `A ${A} ${M} Approach to ${P}`;
      break;
    case 8:
      title = `${acronym(rng)}: ${A} ${P} ${C}`;
      break;
    case 9:
      title = `Learning ${A} Representations for ${P} ${C}`;
      break;
    case 10:
      title = `Rethinking ${M} for ${A} ${P}`;
      break;
    default:
      title = `${M}-Based ${P} ${C}`;
  }
  // DBLP titles come in title case or sentence case, and some keep a final period.
  if (rng.chance(0.35)) title = sentenceCase(title);
  if (rng.chance(0.1)) title += '.';
  return title;
}

/** Lower-cases words except the first, words after a colon and acronym-like words (`DeepXY`, `SLAM`, `5G`). */
function sentenceCase(title: string): string {
  const words = title.split(' ');
  return words
    .map((w, i) =>
      i === 0 || /\d/.test(w) || /[^-][A-Z]/.test(w.slice(1)) || words[i - 1]?.endsWith(':')
        ? w
        : w.toLowerCase(),
    )
    .join(' ');
}

// ---------------------------------------------------------------------------------------------------------------
// Citations

/**
 * Reference lists by generation index, as PaperNet node numbers (k < paper count: a paper of the set; otherwise
 * `externalIds[k - paper count]`): papers of the same area and of a year not after the citing paper, chosen with
 * probability growing with their citation count, plus older papers outside the set (popular ones cited more).
 */
function cite(
  rng: Rng,
  papers: readonly DblpPaper[],
  areas: readonly number[],
  ids: IdMaker,
  count: number,
): { references: number[][]; externalIds: string[] } {
  const byArea: number[][] = RESEARCH_AREAS.map(() => []);
  areas.forEach((a, i) => {
    (byArea[a] as number[]).push(i);
  });
  const pickers = byArea.map((members) =>
    cumulativePicker(members.map((i) => ((papers[i] as DblpPaper).n_citation + 1) ** 0.8)),
  );
  const externalPerArea = Math.max(20, Math.round((count * 0.9) / RESEARCH_AREAS.length));
  const externalIds = Array.from({ length: externalPerArea * RESEARCH_AREAS.length }, () => ids.next());

  const references = papers.map((paper, self) => {
    if (rng.chance(0.3)) return [];
    const a = areas[self] as number;
    const members = byArea[a] as number[];
    const pick = pickers[a] as (rng: Rng) => number;
    const inSet = Math.min(25, geometric(rng, 4));
    const outside = Math.min(60 - inSet, geometric(rng, 7));
    const refs: number[] = [];
    for (let t = 0; t < inSet * 3 && refs.length < inSet && members.length > 1; t++) {
      const target = members[pick(rng)] as number;
      if (target === self || (papers[target] as DblpPaper).year > paper.year || refs.includes(target))
        continue;
      refs.push(target);
    }
    const base = count + a * externalPerArea;
    for (let t = 0; t < outside; t++) {
      const target = base + Math.floor(externalPerArea * rng.next() ** 2.5);
      if (!refs.includes(target)) refs.push(target);
    }
    // Reference lists mix both kinds in no particular order.
    for (let i = refs.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [refs[i], refs[j]] = [refs[j] as number, refs[i] as number];
    }
    return refs;
  });
  return { references, externalIds };
}

/** Sampling by cumulative weights with binary search: O(log n) per draw for long weight lists. */
function cumulativePicker(weights: readonly number[]): (rng: Rng) => number {
  const cum = new Float64Array(weights.length);
  let total = 0;
  weights.forEach((w, i) => {
    total += w;
    cum[i] = total;
  });
  return (rng) => lowerBound(cum, rng.next() * total);
}

function geometric(rng: Rng, mean: number): number {
  return Math.floor(rng.exponential(mean));
}

function lowerBound(cum: Float64Array, x: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cum[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
