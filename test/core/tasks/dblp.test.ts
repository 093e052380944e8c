import { describe, expect, it } from 'vitest';
import { Rng } from '../../../core/util/random.ts';
import { buildAuthorNet, generateDblp } from '../../../core/world/corpora/dblp.ts';
import { neighbourCheck, nodeCheck } from '../../../core/world/kernel/graph-tools.ts';
import { runReferencePlan } from '../../../core/world/tasks/reference-plan.ts';
import {
  DBLP_TEMPLATES,
  parsePyLiteral,
  readAuthorNeighbours,
  readEdge,
  readNode,
  readPaperNeighbours,
} from '../../../core/world/tasks/templates/dblp.ts';
import { type Gold, renderQuestion, type Slots, type TaskTemplate } from '../../../core/world/tasks/types.ts';
import type { DblpAuthorRef, DblpGraphs, DblpPaper, World } from '../../../core/world/types.ts';

function template(label: string): TaskTemplate {
  const t = DBLP_TEMPLATES.find((x) => x.label === label);
  if (!t) throw new Error(`no template ${label}`);
  return t;
}

function patternRegex(pattern: string): RegExp {
  const parts = pattern.split(/\{\w+\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('(.+?)')}$`);
}

const worlds = new Map<string, World>();
function dblpWorld(seed: string, scale = 1): World {
  const key = `${seed}/${scale}`;
  let w = worlds.get(key);
  if (!w) {
    w = {
      config: { seed, scale },
      tables: {},
      dblp: generateDblp(new Rng(seed).fork('dblp'), scale),
    } as unknown as World;
    worlds.set(key, w);
  }
  return w;
}

function distinctDraws(
  world: World,
  t: TaskTemplate,
  n: number,
  seed = 'draws',
): { slots: Slots; gold: Gold }[] {
  const rng = new Rng(`${seed}/${t.id}`);
  const seen = new Map<string, { slots: Slots; gold: Gold }>();
  for (let i = 0; i < n * 25 + 100 && seen.size < n; i++) {
    const s = t.sample({ rng, world });
    if (s) {
      const q = renderQuestion(t.question, s.slots);
      if (!seen.has(q)) seen.set(q, s);
    }
  }
  return [...seen.values()];
}

// ---------------------------------------------------------------------------------------------------------
// A hand-built graph for the gold rules.

const ann: DblpAuthorRef = { id: 'a1', name: 'Ann Lee', org: 'Org X' };
const bo: DblpAuthorRef = { id: 'b1', name: 'Bo Chen', org: '' };
const cy: DblpAuthorRef = { id: 'c1', name: 'Cy Diaz', org: 'Org Y, Dept' };
const di: DblpAuthorRef = { id: 'd1', name: 'Di Fox', org: 'Org Z' };
const noId: DblpAuthorRef = { id: '', name: 'No Id', org: '' };

function paper(id: string, title: string, authors: DblpAuthorRef[], extra: Partial<DblpPaper>): DblpPaper {
  return {
    id,
    title,
    authors,
    year: 2022,
    venue: 'V1',
    n_citation: 0,
    keywords: [],
    doc_type: 'Journal',
    page_start: '',
    page_end: '',
    ...extra,
  };
}

/** Papers in processing order; Ann and Bo share p1, p2 and p5 (weight 5, papers [p1, p2, p2, p5, p5]). */
const PAPERS = [
  paper('p1', 'Paper One', [ann, bo], {
    n_citation: 9,
    keywords: [' beta', 'Alpha'],
    page_start: '1',
    page_end: '10',
  }),
  paper('p2', 'Paper Two', [ann, bo, cy], { n_citation: 1, keywords: ['alpha ', 'gamma'] }),
  paper('p3', 'Paper Three', [ann, cy], { n_citation: 7, venue: 'V2' }),
  paper('p4', 'Paper Four', [bo, di, noId], { venue: 'V2' }),
  paper('p5', 'Paper Five', [ann, bo], { n_citation: 1, venue: 'V3', keywords: ['Beta'] }),
];

function tinyGraphs(): DblpGraphs {
  const papers = new Map(PAPERS.map((p) => [p.id, p]));
  const cites = new Map<string, string[]>([
    ['p1', []],
    ['p2', ['p1']],
    ['p3', ['p1', 'x1']],
    ['p4', []],
    ['p5', []],
    ['x1', []],
  ]);
  const citedBy = new Map<string, string[]>([...cites.keys()].map((k) => [k, []]));
  for (const [u, vs] of cites) for (const v of vs) citedBy.get(v)?.push(u);
  return {
    papers,
    externalPaperIds: new Set(['x1']),
    titleToId: new Map(PAPERS.map((p) => [p.title, p.id])),
    cites,
    citedBy,
    ...buildAuthorNet(PAPERS),
  };
}

const tiny = { config: { seed: 'tiny', scale: 1 }, tables: {}, dblp: tinyGraphs() } as unknown as World;

/** The tiny world's gold for the draw with these slots (every draw of the template is enumerated). */
function goldFor(label: string, slots: Slots): Gold | undefined {
  const key = JSON.stringify(slots);
  return distinctDraws(tiny, template(label), 30).find((d) => JSON.stringify(d.slots) === key)?.gold;
}

describe('reading graph observations', () => {
  it('parses Python literals: quotes, escapes, numbers, constants, tuples', () => {
    const text = `{'a': "it's", 'b': [1, -2, 3.5e-3, True, None], 'c': ('x\\n', 'y\\'z', '\\xe9\\u4e2d')}; Degree: 3`;
    const { value, end } = parsePyLiteral(text);
    expect(value).toEqual({ a: "it's", b: [1, -2, 0.0035, true, null], c: ['x\n', "y'z", 'é中'] });
    expect(text.slice(end)).toBe('; Degree: 3');
  });

  it('reads the tools’ outputs on the tiny graph', () => {
    const g = tiny.dblp;
    const obs = (r: { observation: string }) => r.observation;
    expect(readAuthorNeighbours(obs(neighbourCheck(g, 'AuthorNet', 'Ann Lee')))).toEqual({
      degree: 2,
      neighbours: [
        { name: 'Bo Chen', weight: 5 },
        { name: 'Cy Diaz', weight: 3 },
      ],
      totalPapers: 8,
      titles: ['Paper One', 'Paper Two', 'Paper Five', 'Paper Three'],
    });
    expect(readNode(obs(nodeCheck(g, 'PaperNet', 'Paper Two'))).authors).toEqual([
      { id: 'a1', name: 'Ann Lee', org: 'Org X' },
      { id: 'b1', name: 'Bo Chen', org: '' },
      { id: 'c1', name: 'Cy Diaz', org: 'Org Y, Dept' },
    ]);
    expect(readPaperNeighbours(obs(neighbourCheck(g, 'PaperNet', 'Paper One')))).toEqual({
      inDegree: 2,
      outDegree: 0,
    });
    expect(
      readEdge(
        "{'weight': 3, 'papers': ['Paper Two', 'Paper Three', 'Paper Three'], 'n_citation': [1, 7, 7]}",
      ),
    ).toEqual({ weight: 3, papers: ['Paper Two', 'Paper Three', 'Paper Three'], citations: [1, 7, 7] });
  });
});

describe('DBLP gold rules (tiny graph)', () => {
  const ab = { author: 'Ann Lee', coauthor: 'Bo Chen' };

  it('count each co-authored paper once, although the edge lists later papers twice', () => {
    expect(goldFor('E7', ab)).toEqual({ type: 'int', value: 3 });
    expect(goldFor('E9', { author: 'Ann Lee' })).toEqual({ type: 'int', value: 4 });
    expect(goldFor('E8', { author: 'Ann Lee' })).toBe('Paper One, Paper Two, Paper Five, Paper Three');
    expect(goldFor('H6', ab)).toBe('11');
    // With the duplicates Cy's papers would sum to 1 + 7 + 7 = 15 > Bo's 13; once each, Bo's 11 beats Cy's 8.
    expect(goldFor('H4', { author: 'Ann Lee' })).toBe('Bo Chen');
    expect(goldFor('H7', { author: 'Ann Lee' })).toEqual({ type: 'int', value: 5 });
  });

  it('ask only unique maxima', () => {
    expect(goldFor('E10', ab)).toBe('V1');
    expect(goldFor('E10', { author: 'Ann Lee', coauthor: 'Cy Diaz' })).toBeUndefined();
    expect(goldFor('H3', { author: 'Ann Lee' })).toBe('Paper One');
    expect(goldFor('H5', { author: 'Ann Lee' })).toBe('V1');
  });

  it('H1 is 1 for collaborators and 2 through a common collaborator; H2 counts common collaborators', () => {
    expect(goldFor('H1', ab)).toEqual({ type: 'int', value: 1 });
    expect(goldFor('H1', { author: 'Ann Lee', coauthor: 'Di Fox' })).toEqual({ type: 'int', value: 2 });
    expect(goldFor('H2', ab)).toBe('1');
  });

  it('paper questions: authors with and without id, pages, degrees, organisations, keywords', () => {
    expect(goldFor('E1', { title: 'Paper Four' })).toBe('Bo Chen, Di Fox, No Id');
    expect(goldFor('E2', { author: 'Bo Chen' })).toBeUndefined();
    expect(goldFor('E3', { title: 'Paper One' })).toEqual({ type: 'int', value: 10 });
    expect(goldFor('E4', { title: 'Paper Three' })).toEqual({ type: 'int', value: 2 });
    expect(goldFor('E5', { title: 'Paper One' })).toEqual({ type: 'int', value: 2 });
    expect(goldFor('H8', { author: 'Ann Lee' })).toBe('Bo Chen');
    expect(goldFor('H9', { title: 'Paper Two' })).toBe('Org X; Org Y, Dept');
    expect(goldFor('H9', { title: 'Paper Four' })).toBe('Org Z');
    expect(goldFor('H10', { author: 'Ann Lee' })).toBe('Alpha; Beta; alpha; beta; gamma');
  });

  it('reference plans reach every tiny gold', async () => {
    for (const t of DBLP_TEMPLATES) {
      for (const d of distinctDraws(tiny, t, 30)) {
        const run = await runReferencePlan(tiny, t, d.slots, d.gold);
        expect(run.correct, `${renderQuestion(t.question, d.slots)} → ${String(run.answer)}`).toBe(true);
      }
    }
  }, 60_000);
});

describe('DBLP templates on generated graphs', () => {
  it('are E1–E10 then H1–H10 with distinct patterns', () => {
    expect(DBLP_TEMPLATES.map((t) => t.label)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `E${i + 1}`),
      ...Array.from({ length: 10 }, (_, i) => `H${i + 1}`),
    ]);
    expect(DBLP_TEMPLATES.slice(0, 10).every((t) => t.difficulty === 'easy')).toBe(true);
    expect(new Set(DBLP_TEMPLATES.map((t) => t.question)).size).toBe(20);
  });

  it('every template yields 35 distinct questions at scale 1 (test 10 + dev 5 + train 20)', () => {
    for (const t of DBLP_TEMPLATES) expect(distinctDraws(dblpWorld('alpha'), t, 35).length, t.id).toBe(35);
  });

  it('questions match their own pattern and no other template’s', () => {
    const regexes = DBLP_TEMPLATES.map((t) => patternRegex(t.question));
    DBLP_TEMPLATES.forEach((t, i) => {
      for (const d of distinctDraws(dblpWorld('alpha'), t, 10)) {
        const q = renderQuestion(t.question, d.slots);
        expect(
          regexes.map((r) => r.test(q)),
          q,
        ).toEqual(regexes.map((_, j) => j === i));
      }
    });
  });

  it('answers the plan prints with Python stay under the interpreter’s 500-character cut', () => {
    for (const label of ['H8', 'H10']) {
      for (const d of distinctDraws(dblpWorld('alpha'), template(label), 200)) {
        expect(String(d.gold).length).toBeLessThanOrEqual(500);
      }
    }
  });

  it('sampling is deterministic', () => {
    for (const t of DBLP_TEMPLATES) {
      expect(distinctDraws(dblpWorld('alpha'), t, 5)).toEqual(distinctDraws(dblpWorld('alpha'), t, 5));
    }
  });

  it.each(['alpha', 'beta'])(
    'reference plans reach gold within the call budget (world %s)',
    async (seed) => {
      const world = dblpWorld(seed);
      for (const t of DBLP_TEMPLATES) {
        for (const d of distinctDraws(world, t, 8, `plans-${seed}`)) {
          const run = await runReferencePlan(world, t, d.slots, d.gold);
          expect(run.correct, `${renderQuestion(t.question, d.slots)} → ${String(run.answer)}`).toBe(true);
          for (const s of run.steps)
            expect(s.observation.endsWith(' ...'), `${t.id} ${s.tool} truncated`).toBe(false);
        }
      }
    },
    180_000,
  );
});
