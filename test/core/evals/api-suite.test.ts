/**
 * Suites over an imported API's query set (issue 23 §4): the shape and the methods checked by the schema (a search
 * method is refused, named, with the methods that do run on APIs), and the suite checked against the API — an
 * unknown query set, a surface of another API or unknown, a documentation set of another API, and a query set item
 * whose gold operation the chosen surface does not serve — each a problem with the JSON pointer of its field.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import {
  type ApiSuiteContext,
  ApiSuiteSchema,
  checkApiSuite,
  itemCandidates,
  suiteItems,
} from '../../../core/evals/api-suite.ts';
import { dataJson, tmdbImport } from '../apis/data.ts';

let items: QueryItem[];
let draftItems: QueryItem[];
let ctx: ApiSuiteContext;
let base: ApiSurface;

beforeAll(async () => {
  const { catalog } = await tmdbImport();
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  const drifted = generateApiSurface(base, catalog, {
    seed: '5',
    kinds: ['rename-operation', 'rename-path'],
  });
  // A version that dropped an operation the first RestBench query needs.
  const trimmed: ApiSurface = {
    ...structuredClone(base),
    id: 'tmdb-trimmed',
    tools: base.tools.filter((t) => t.operation !== 'GET_search-person'),
  };
  const other: ApiSurface = { ...structuredClone(base), id: 'other', api: 'other' };
  const parsed = parseQuerySet(dataJson('restbench-tmdb/restgpt/datasets/tmdb.json'), catalog);
  if (!parsed.ok) throw new Error('RestBench does not parse');
  items = parsed.set.items;
  const draft = parseQuerySet(dataJson('restbench-tmdb/draft/test_data/TMDB.json'), catalog);
  if (!draft.ok) throw new Error("DRAFT's TMDB file does not parse");
  draftItems = draft.set.items;
  ctx = {
    querysets: new Map([
      ['restbench', { items }],
      ['draft', { items: draftItems }],
    ]),
    surfaces: new Map([
      ['tmdb', base],
      [drifted.id, drifted],
      ['tmdb-trimmed', trimmed],
      ['other', other],
    ]),
    docsets: new Map([
      ['ds-tmdb', { api: 'tmdb' }],
      ['ds-kernel', { api: undefined }],
    ]),
    descriptions: new Map([
      ['tmdb-draft', { api: 'tmdb' }],
      ['other-file', { api: 'other' }],
    ]),
  };
});

function parse(body: unknown) {
  return ApiSuiteSchema.safeParse(body);
}

describe('API suites', () => {
  it('take an API and a query set with defaults: greedy, the API as imported, its own docs, every item', () => {
    const r = parse({ api: 'tmdb', queryset: 'restbench' });
    expect(r.success).toBe(true);
    const suite = r.data!;
    expect(suite).toMatchObject({ methods: ['greedy'], docs: ['imported'], sampleSize: 'all', maxSteps: 20 });
    expect(checkApiSuite(suite, ctx)).toEqual([]);
    expect(suiteItems(suite, items)).toHaveLength(100);
    expect(suiteItems({ ...suite, sampleSize: 3 }, items)).toHaveLength(3);
    const drifted = [...ctx.surfaces.keys()].find((k) => k.startsWith('tmdb-drift'))!;
    const full = parse({
      api: 'tmdb',
      queryset: 'restbench',
      methods: ['greedy', 'react-reflexion', 'greedy-memory'],
      surfaces: ['tmdb', drifted],
      docs: ['imported', 'surface', { docset: 'ds-tmdb' }],
    });
    expect(full.success).toBe(true);
    expect(checkApiSuite(full.data!, ctx)).toEqual([]);
  });

  it('refuse a method that cannot run on an API, naming it and the ones that can', () => {
    const r = parse({ api: 'tmdb', queryset: 'restbench', methods: ['greedy', 'mcts-no-tool-update'] });
    expect(r.success).toBe(false);
    const issue = r.error!.issues[0]!;
    expect(issue.path).toEqual(['methods', 1]);
    expect(issue.message).toBe(
      'method mcts-no-tool-update does not run on imported APIs (it runs on the ToolQA-D kernel only); these do: greedy, greedy-memory, mcts, mcts-no-cached-rollout, mcts-no-reflection, mcts-oracle, react-reflexion',
    );
    expect(
      parse({ api: 'tmdb', queryset: 'restbench', methods: ['greedy', 'greedy'] }).error!.issues[0]!.path,
    ).toEqual(['methods', 1]);
    expect(parse({ api: 'TMDB!', queryset: 'restbench' }).error!.issues[0]!.path).toEqual(['api']);
    expect(parse({ api: 'tmdb', queryset: 'restbench', datasets: ['flights'] }).success).toBe(false);
  });

  it('name the field of what the API does not have', () => {
    const check = (body: object) =>
      checkApiSuite(ApiSuiteSchema.parse({ api: 'tmdb', queryset: 'restbench', ...body }), ctx);
    expect(check({ queryset: 'nope' })).toEqual([
      { pointer: '/queryset', detail: 'API tmdb has no query set nope (it has restbench, draft)' },
    ]);
    expect(check({ surfaces: ['tmdb', 'missing', 'other'] })).toEqual([
      { pointer: '/surfaces/1', detail: 'unknown surface missing' },
      { pointer: '/surfaces/2', detail: 'surface other is a version of API other, not tmdb' },
    ]);
    expect(check({ docs: ['imported', { docset: 'ds-kernel' }, { docset: 'gone' }] })).toEqual([
      {
        pointer: '/docs/1/docset',
        detail: 'documentation set ds-kernel documents kernel tools, not API tmdb',
      },
      { pointer: '/docs/2/docset', detail: 'unknown documentation set gone' },
    ]);
  });

  it('refuse a surface that does not serve a gold operation of the chosen items', () => {
    const problems = checkApiSuite(
      ApiSuiteSchema.parse({ api: 'tmdb', queryset: 'restbench', surfaces: ['tmdb', 'tmdb-trimmed'] }),
      ctx,
    );
    expect(problems).toEqual([
      {
        pointer: '/surfaces/1',
        detail:
          'surface tmdb-trimmed does not serve GET_search-person, which the gold path of item 0 (line 1) of query set restbench calls',
      },
    ]);
  });

  it('take description files, aid rows and method options; name the field of each bad one', () => {
    const r = parse({
      api: 'tmdb',
      queryset: 'draft',
      methods: ['greedy', 'mcts-oracle'],
      docs: ['imported', { description: 'tmdb-draft' }],
      aids: [{}, { toolPool: { pool: 'candidates' } }, { toolPool: { pool: 'all', k: 3, ranker: 'char' } }],
      'mcts-oracle': { simulations: 4, k: 2 },
    });
    expect(r.success).toBe(true);
    expect(r.data!.aids).toEqual([
      {},
      { toolPool: { pool: 'candidates', k: 5, ranker: 'bm25' } },
      { toolPool: { pool: 'all', k: 3, ranker: 'char' } },
    ]);
    expect((r.data as Record<string, unknown>)['mcts-oracle']).toMatchObject({ simulations: 4, k: 2 });
    expect(checkApiSuite(r.data!, ctx)).toEqual([]);
    // Every item of DRAFT's file keeps its 5 candidates, the gold among them.
    for (const item of draftItems) {
      const candidates = itemCandidates(item)!;
      expect(candidates).toHaveLength(5);
      for (const g of item.gold.path) expect(candidates).toContain(g.operation);
    }
    const issue = (body: object) => parse({ api: 'tmdb', queryset: 'draft', ...body }).error!.issues[0]!;
    expect(issue({ aids: [{ toolPool: { pool: 'some' } }] }).path).toEqual(['aids', 0, 'toolPool', 'pool']);
    expect(issue({ aids: [{ toolPool: { pool: 'all', k: 0 } }] }).path).toEqual(['aids', 0, 'toolPool', 'k']);
    expect(issue({ aids: [{ memory: {} }] }).path).toEqual(['aids', 0]);
    expect(issue({ docs: [{ description: 'A B' }] }).path).toEqual(['docs', 0, 'description']);
    expect(issue({ mcts: { simulations: 0 } }).path).toEqual(['mcts', 'simulations']);
    const ablation = issue({
      methods: ['greedy', 'mcts-no-reflection'],
      aids: [{}, { toolPool: { pool: 'all' } }],
    });
    expect(ablation.path).toEqual(['aids', 1, 'toolPool']);
    expect(ablation.message).toBe('method mcts-no-reflection does not use the toolPool aid');

    const check = (body: object) =>
      checkApiSuite(ApiSuiteSchema.parse({ api: 'tmdb', queryset: 'restbench', ...body }), ctx);
    expect(check({ docs: [{ description: 'gone' }, { description: 'other-file' }] })).toEqual([
      { pointer: '/docs/0/description', detail: 'API tmdb has no description file gone' },
      {
        pointer: '/docs/1/description',
        detail: 'description file other-file describes API other, not tmdb',
      },
    ]);
    // RestBench's own file has no candidate lists: the candidates pool needs DRAFT's.
    expect(check({ aids: [{}, { toolPool: { pool: 'candidates' } }] })).toEqual([
      {
        pointer: '/aids/1/toolPool/pool',
        detail:
          'item 0 (line 1) of query set restbench lists no candidate APIs (DRAFT\'s test files do); use pool "all"',
      },
    ]);
    expect(check({ aids: [{ toolPool: { pool: 'all' } }] })).toEqual([]);
  });
});
