import { beforeAll, describe, expect, it } from 'vitest';
import { hash128, Rng } from '../../../core/util/random.ts';
import { buildAuthorNet, generateDblp, uniquelyNamedAuthorIds } from '../../../core/world/corpora/dblp.ts';
import type { DblpAuthorRef, DblpGraphs, DblpPaper } from '../../../core/world/types.ts';

function fingerprint(g: DblpGraphs): string {
  const plain = {
    papers: [...g.papers.values()],
    external: [...g.externalPaperIds],
    cites: [...g.cites],
    citedBy: [...g.citedBy],
    authors: [...g.authors],
    names: [...g.nameToAuthorId],
    coauthors: [...g.coauthors].map(([id, adj]) => [id, [...adj]]),
  };
  return hash128(JSON.stringify(plain)).join('-');
}

const author = (id: string, name: string, org = ''): DblpAuthorRef => ({ id, name, org });
const paper = (id: string, n_citation: number, authors: DblpAuthorRef[]) => ({ id, n_citation, authors });

describe('buildAuthorNet (spec §2.7 construction, on a hand-made paper list)', () => {
  // Already in processing order (ascending n_citation).
  const papers = [
    paper('p1', 0, [
      author('a', 'Ann Lee', 'Org X'),
      author('b', 'Bo Chen', 'Org B'),
      author('c', 'Ann Lee', 'Org C'),
    ]),
    paper('p2', 5, [author('a', 'A. Lee', 'Org Y'), author('', 'No Id'), author('b', 'Bo Chen', '')]),
    paper('p3', 7, [
      author('b', 'Bo Chen'),
      author('a', 'Ann Lee'),
      author('a', 'Ann Lee'),
      author('d', 'Dee Roy', 'Org D'),
    ]),
    paper('p4', 9, [author('e', 'Eve Solo', 'Org E')]),
  ];
  const net = buildAuthorNet(papers);

  it('adds each non-empty author id once, with the name and org of its first processed paper', () => {
    expect([...net.authors]).toEqual([
      ['a', { name: 'Ann Lee', org: 'Org X' }],
      ['b', { name: 'Bo Chen', org: 'Org B' }],
      ['c', { name: 'Ann Lee', org: 'Org C' }],
      ['d', { name: 'Dee Roy', org: 'Org D' }],
      ['e', { name: 'Eve Solo', org: 'Org E' }],
    ]);
  });

  it('maps a name to the last newly seen id carrying it', () => {
    expect([...net.nameToAuthorId]).toEqual([
      ['Ann Lee', 'c'],
      ['Bo Chen', 'b'],
      ['Dee Roy', 'd'],
      ['Eve Solo', 'e'],
    ]);
  });

  it('counts each further shared paper twice: weight 2k − 1, papers [p1, p2, p2, p3, p3]', () => {
    expect(net.coauthors.get('a')?.get('b')).toEqual({
      weight: 5,
      papers: ['p1', 'p2', 'p2', 'p3', 'p3'],
      n_citation: [0, 5, 5, 7, 7],
    });
    expect(net.coauthors.get('a')?.get('c')).toEqual({ weight: 1, papers: ['p1'], n_citation: [0] });
    expect(net.coauthors.get('b')?.get('d')).toEqual({ weight: 1, papers: ['p3'], n_citation: [7] });
    // One edge object shared by both endpoints.
    expect(net.coauthors.get('b')?.get('a')).toBe(net.coauthors.get('a')?.get('b'));
  });

  it('keeps adjacency in edge-creation order and keeps authors without co-authors as nodes', () => {
    expect([...(net.coauthors.get('a')?.keys() ?? [])]).toEqual(['b', 'c', 'd']);
    expect([...(net.coauthors.get('b')?.keys() ?? [])]).toEqual(['a', 'c', 'd']);
    expect([...(net.coauthors.get('d')?.keys() ?? [])]).toEqual(['b', 'a']);
    expect(net.coauthors.get('e')?.size).toBe(0);
    expect(net.coauthors.has('')).toBe(false);
  });

  it('lists the uniquely named authors', () => {
    expect(uniquelyNamedAuthorIds(net)).toEqual(['b', 'd', 'e']);
  });
});

describe('generateDblp at scale 1', () => {
  let g: DblpGraphs;
  let papers: DblpPaper[];
  beforeAll(() => {
    g = generateDblp(new Rng('dblp-test'), 1);
    papers = [...g.papers.values()];
  });

  it('is deterministic per seed and differs across seeds', () => {
    const again = generateDblp(new Rng('dblp-small'), 0.2);
    expect(fingerprint(generateDblp(new Rng('dblp-small'), 0.2))).toBe(fingerprint(again));
    expect(fingerprint(generateDblp(new Rng('dblp-other'), 0.2))).not.toBe(fingerprint(again));
  });

  it('has ≥ 20,000 titled papers of 2021–2023 in ascending n_citation order, with unique titles', () => {
    expect(papers.length).toBeGreaterThanOrEqual(20_000);
    const descents = papers.filter((p, i) => i > 0 && p.n_citation < (papers[i - 1] as DblpPaper).n_citation);
    expect(descents).toEqual([]);
    expect(new Set(papers.map((p) => p.year))).toEqual(new Set([2021, 2022, 2023]));
    expect(g.titleToId.size).toBe(papers.length);
    expect(papers.filter((p) => g.titleToId.get(p.title) !== p.id)).toEqual([]);
  });

  it('uses distinct 24-hex ids for papers, external papers and authors', () => {
    const all = [...g.papers.keys(), ...g.externalPaperIds, ...g.authors.keys()];
    expect(all.filter((id) => !/^[0-9a-f]{24}$/.test(id))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
    expect(g.externalPaperIds.size).toBeGreaterThan(1000);
  });

  it('has realistic attributes: skewed citations, upper-case venues, spaced keywords, optional pages', () => {
    const zero = papers.filter((p) => p.n_citation === 0).length;
    expect(zero / papers.length).toBeGreaterThan(0.2);
    expect(zero / papers.length).toBeLessThan(0.6);
    expect(Math.max(...papers.map((p) => p.n_citation))).toBeGreaterThanOrEqual(500);
    const upper = papers.filter((p) => p.venue === p.venue.toUpperCase()).length;
    expect(upper / papers.length).toBeGreaterThan(0.8);
    expect(upper).toBeLessThan(papers.length);
    expect(papers.some((p) => p.keywords.length === 0)).toBe(true);
    expect(papers.some((p) => p.keywords.slice(1).some((k) => k.startsWith(' ')))).toBe(true);
    const odd = papers.filter(
      (p) =>
        !['Journal', 'Conference', ''].includes(p.doc_type) ||
        !/^\d*$/.test(p.page_start) ||
        !/^\d*$/.test(p.page_end) ||
        p.authors.length === 0,
    );
    expect(odd).toEqual([]);
    const paged = papers.filter((p) => p.page_start !== '' && p.page_end !== '');
    expect(paged.length).toBeGreaterThan(5000);
    expect(paged.filter((p) => Number(p.page_end) <= Number(p.page_start))).toEqual([]);
    expect(papers.some((p) => p.authors.some((a) => a.id === ''))).toBe(true);
    expect(papers.some((p) => p.authors.some((a) => /[^\x00-\x7f]/.test(a.name)))).toBe(true);
  });

  it('builds PaperNet with inverse successor/predecessor lists over titled and external nodes', () => {
    const nodes = new Set([...g.papers.keys(), ...g.externalPaperIds]);
    expect(new Set(g.cites.keys())).toEqual(nodes);
    expect(new Set(g.citedBy.keys())).toEqual(nodes);
    const problems: string[] = [];
    const inverse = new Set<string>();
    for (const [v, us] of g.citedBy) for (const u of us) inverse.add(`${u}>${v}`);
    let edges = 0;
    for (const [u, vs] of g.cites) {
      if (new Set(vs).size !== vs.length) problems.push(`${u}: repeated reference`);
      if (vs.includes(u)) problems.push(`${u}: cites itself`);
      if (g.externalPaperIds.has(u) && vs.length > 0) problems.push(`${u}: external paper cites`);
      for (const v of vs) {
        if (!inverse.has(`${u}>${v}`)) problems.push(`${u}>${v}: missing in citedBy`);
        const target = g.papers.get(v);
        if (target && target.year > (g.papers.get(u) as DblpPaper).year)
          problems.push(`${u}>${v}: cites the future`);
      }
      edges += vs.length;
    }
    expect(problems).toEqual([]);
    expect(inverse.size).toBe(edges);
    for (const id of g.externalPaperIds) expect(g.titleToId.has(id)).toBe(false);
    // Easy templates E4/E5 need papers that cite and papers that are cited.
    expect(papers.filter((p) => (g.cites.get(p.id) ?? []).length > 0).length).toBeGreaterThan(10_000);
    expect(papers.filter((p) => (g.citedBy.get(p.id) ?? []).length > 0).length).toBeGreaterThan(5000);
  });

  it('builds AuthorNet from the papers in processing order, with the duplicate-paper quirk', () => {
    const firstSeen = new Map<string, DblpAuthorRef>();
    const shared = new Map<string, string[]>();
    for (const p of papers) {
      const ids = [...new Set(p.authors.map((a) => a.id).filter((id) => id !== ''))];
      for (const a of p.authors) if (a.id !== '' && !firstSeen.has(a.id)) firstSeen.set(a.id, a);
      for (let i = 0; i < ids.length; i++) {
        for (let k = i + 1; k < ids.length; k++) {
          const key = [ids[i], ids[k]].sort().join('|');
          const list = shared.get(key);
          if (list) list.push(p.id);
          else shared.set(key, [p.id]);
        }
      }
    }
    expect(g.authors.size).toBe(firstSeen.size);
    const problems: string[] = [];
    for (const [id, ref] of firstSeen) {
      const node = g.authors.get(id);
      if (node?.name !== ref.name || node.org !== ref.org) problems.push(`${id}: not from its first paper`);
    }
    let edgeCount = 0;
    for (const [u, adj] of g.coauthors) {
      for (const [v, edge] of adj) {
        edgeCount++;
        if (g.coauthors.get(v)?.get(u) !== edge) problems.push(`${u}-${v}: not shared`);
        const ps = shared.get([u, v].sort().join('|')) ?? [];
        const expected = ps.flatMap((p, i) => (i === 0 ? [p] : [p, p]));
        if (edge.weight !== 2 * ps.length - 1) problems.push(`${u}-${v}: weight ${edge.weight}`);
        if (edge.papers.join() !== expected.join()) problems.push(`${u}-${v}: papers ${edge.papers}`);
        const cites = edge.papers.map((p) => (g.papers.get(p) as DblpPaper).n_citation);
        if (edge.n_citation.join() !== cites.join())
          problems.push(`${u}-${v}: n_citation ${edge.n_citation}`);
      }
    }
    expect(problems).toEqual([]);
    expect(edgeCount / 2).toBe(shared.size);
    expect([...g.coauthors.values()].some((adj) => [...adj.values()].some((e) => e.weight >= 5))).toBe(true);
  });

  it('shares common names between ids and leaves plenty of uniquely named authors to ask about', () => {
    const count = new Map<string, number>();
    for (const { name } of g.authors.values()) count.set(name, (count.get(name) ?? 0) + 1);
    expect(Math.max(...count.values())).toBeGreaterThanOrEqual(3);
    const unique = uniquelyNamedAuthorIds(g);
    expect(unique.length).toBeGreaterThan(3000);
    for (const id of unique) {
      const { name } = g.authors.get(id) as { name: string };
      expect(g.nameToAuthorId.get(name)).toBe(id);
      expect(count.get(name)).toBe(1);
    }
    // What the author templates need: collaborators, an organisation, repeated collaborations.
    const askable = unique.filter(
      (id) => (g.coauthors.get(id)?.size ?? 0) > 0 && g.authors.get(id)?.org !== '',
    );
    expect(askable.length).toBeGreaterThan(2000);
    const degrees = [...g.coauthors.values()].map((adj) => adj.size).sort((a, b) => a - b);
    expect(degrees[Math.floor(degrees.length / 2)]).toBeGreaterThanOrEqual(2);
    expect(degrees[Math.floor(degrees.length / 2)]).toBeLessThanOrEqual(20);
    expect(degrees[degrees.length - 1]).toBeGreaterThan(50);
  });
});

describe('generateDblp at other scales', () => {
  it('works at scale 0.1 and 4', () => {
    const small = generateDblp(new Rng('s'), 0.1);
    expect(small.papers.size).toBe(2000);
    expect(uniquelyNamedAuthorIds(small).length).toBeGreaterThan(300);
    const big = generateDblp(new Rng('b'), 4);
    expect(big.papers.size).toBe(80_000);
    expect(big.titleToId.size).toBe(80_000);
  });
});
