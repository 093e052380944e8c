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
  suiteItems,
} from '../../../core/evals/api-suite.ts';
import { dataJson, tmdbImport } from '../apis/data.ts';

let items: QueryItem[];
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
  ctx = {
    querysets: new Map([['restbench', { items }]]),
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
    const r = parse({ api: 'tmdb', queryset: 'restbench', methods: ['greedy', 'mcts'] });
    expect(r.success).toBe(false);
    const issue = r.error!.issues[0]!;
    expect(issue.path).toEqual(['methods', 1]);
    expect(issue.message).toBe(
      'method mcts does not run on imported APIs (it runs on the ToolQA-D kernel only); these do: greedy, greedy-memory, react-reflexion',
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
      { pointer: '/queryset', detail: 'API tmdb has no query set nope (it has restbench)' },
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
});
