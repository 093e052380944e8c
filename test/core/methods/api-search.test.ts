/**
 * Every method that runs on an imported API (issue 23 §1), on a small hand-built API and its query set: the run
 * ends on Finish and its Correct Path Rate is the one recomputed here from the raw calls of the answering path; the
 * tree search steps the API's session through the same target interface as the ReAct loop, and mcts-oracle's
 * Finish reward is the item's gold — the answer matcher when the item has a gold answer, else the gold path as an
 * ordered subsequence of the calls (ToolEvo's environment verdict, read against RestBench's gold).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { surfaceApiDocs } from '../../../core/aids/api-docs.ts';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { runApiQueries } from '../../../core/evals/api-queries.ts';
import { getMethod, METHOD_IDS, methodListing, runsOnApi } from '../../../core/methods/registry.ts';
import type { GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import { createSearch, runSearch, targetSearchEnv } from '../../../core/search/mcts.ts';
import { node, pathTo, solutions } from '../../../core/search/tree.ts';
import type { SessionProgress } from '../../../core/sessions/episode.ts';
import { type ApiToolTarget, apiTarget } from '../../../core/sessions/targets.ts';
import { imported } from '../apis/data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const API = {
  id: 'weather',
  title: 'Weather',
  mode: 'seeded' as const,
  seed: 'w',
  worldSize: 50,
  upstream: null,
};

/** A small API: find a city by name, then read its weather by id; and a distractor. */
const DOCUMENT = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Weather', version: '1' },
  paths: {
    '/cities': {
      get: {
        operationId: 'searchCities',
        summary: 'Search cities by name.',
        parameters: [{ name: 'name', in: 'query', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'Cities',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    results: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: { id: { type: 'integer' }, name: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    '/cities/{city_id}/weather': {
      get: {
        operationId: 'getWeather',
        summary: 'The weather of a city.',
        parameters: [{ name: 'city_id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'Weather',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { temperature: { type: 'integer' } } },
              },
            },
          },
        },
      },
    },
    '/countries': {
      get: {
        operationId: 'listCountries',
        summary: 'List countries.',
        responses: { '200': { description: 'Countries' } },
      },
    },
  },
});

let catalog: ApiCatalog;
let base: ApiSurface;
let pathOnly: QueryItem;
let withAnswer: QueryItem;

beforeAll(async () => {
  catalog = (await imported(DOCUMENT, 'weather.json')).catalog;
  base = baseApiSurface('weather', catalog, 'Weather');
  const parsed = parseQuerySet(
    [
      { query: 'How warm is it in Oslo?', calls: [{ tool: 'searchCities' }, { tool: 'getWeather' }] },
      {
        query: 'How warm is it in Oslo?',
        calls: [{ tool: 'searchCities' }, { tool: 'getWeather' }],
        answer: 42,
      },
    ],
    catalog,
    { format: 'calls' },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  [pathOnly, withAnswer] = parsed.set.items as [QueryItem, QueryItem];
});

/**
 * A model with two steps to offer at every state, by the actions its prompt's trajectory holds:
 * root: search the city | read the weather of city 1 directly; after the search: read its weather | Finish 7;
 * after a weather call: Finish 42. With n = 1 (the ReAct methods) it takes the first.
 */
function forker(): TextModel & { prompts: string[] } {
  const prompts: string[] = [];
  const step = (action: string, input: object) =>
    `Thought: next.\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`;
  return {
    provider: 'test',
    model: 'forker',
    capabilities: { n: true, logprobs: false, seed: true, embeddings: false, simulated: false },
    prompts,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      const prompt = request.messages.map((m) => m.content).join('\n');
      prompts.push(prompt);
      const trajectory = prompt.slice(prompt.lastIndexOf('Question: '));
      const actions = [...trajectory.matchAll(/Action: (\w+)/g)].map((m) => m[1]);
      let options: string[];
      if (actions.length === 0)
        options = [step('searchCities', { name: 'Oslo' }), step('getWeather', { city_id: 1 })];
      else if (actions.at(-1) === 'searchCities')
        options = [step('getWeather', { city_id: 1 }), step('Finish', { answer: 7 })];
      else options = [step('Finish', { answer: 42 })];
      const n = request.n ?? 1;
      return {
        candidates: options.slice(0, n).map((text) => ({ text, finishReason: 'stop' as const })),
        model: 'forker',
        usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

function target(item: QueryItem): ApiToolTarget {
  return apiTarget({
    api: API,
    server: { kind: 'surface', surface: base },
    deps: { catalog, world: new MockWorld('weather', catalog, API.seed), backend: { mode: 'seeded' } },
    now: NOW,
    query: { text: item.query, index: item.index, gold: item.gold },
  });
}

/** The paper's Correct Path Rate recomputed: the gold operations an ordered subsequence of the called ones. */
function subsequence(gold: readonly string[], called: readonly string[]): boolean {
  let i = 0;
  for (const op of called) if (op === gold[i]) i += 1;
  return i === gold.length;
}

/** The operations a transcript's successful calls ran (the small API's tool names are its operations). */
function calledOps(steps: readonly { action?: string; outcome: string }[]): string[] {
  return steps.filter((s) => s.outcome === 'ok' && s.action !== undefined).map((s) => s.action as string);
}

const SEARCH = { simulations: 6, k: 2, maxDepth: 6 };

describe('methods on an imported API', () => {
  it('every method that runs on APIs ends on Finish, scored with Correct Path Rate from its raw calls', async () => {
    const onApi = METHOD_IDS.filter((id) => runsOnApi(id));
    expect(onApi).toEqual([
      'greedy',
      'greedy-memory',
      'mcts',
      'mcts-no-cached-rollout',
      'mcts-no-reflection',
      'mcts-oracle',
      'react-reflexion',
    ]);
    for (const id of onApi) {
      const method = getMethod(id);
      const o = await method.runApi!({
        query: { question: pathOnly.query },
        target: target(pathOnly),
        docs: surfaceApiDocs(base, { now: NOW }),
        options: method.options.parse(id.startsWith('mcts') ? SEARCH : {}),
        model: forker(),
        aids: { updateMemory: [] },
        limits: { maxSteps: 6 },
        seeds: { model: 1, search: 'api' },
        now: NOW,
      });
      expect(o.ending, id).toBe('finish');
      expect(o.steps.at(-1)!.action, id).toBe('Finish');
      const called = calledOps(o.steps);
      const gold = pathOnly.gold.path.map((g) => g.operation);
      expect(o.api!.correctPath, id).toEqual({
        subsequence: subsequence(gold, called),
        set: gold.every((g) => called.includes(g)),
      });
      expect(o.api!.correct, id).toBeNull();
      // The ReAct methods take the first offer (search, weather, Finish): the gold path.
      if (!id.startsWith('mcts')) expect(called, id).toEqual(['searchCities', 'getWeather']);
      else expect(o.search!.nodes, id).toBeGreaterThan(3);
    }
  });

  it('refuses by name what cannot run on an API: w/o tool update (an API has no UpdateTool, so it would be mcts)', () => {
    expect(runsOnApi('mcts-no-tool-update')).toBe(false);
    expect(methodListing().find((m) => m.id === 'mcts-no-tool-update')!.backends).toEqual(['kernel']);
    expect(methodListing().find((m) => m.id === 'mcts-oracle')!.backends).toEqual(['kernel', 'api']);
  });

  it("mcts-oracle's Finish reward is the item's gold path when it has no gold answer", async () => {
    const t = target(pathOnly);
    const tree = createSearch({ question: pathOnly.query, gold: '' }, { ...SEARCH, seed: 'o' }, t.fresh());
    await runSearch(tree, targetSearchEnv({ model: forker(), target: t, now: NOW }));
    const finishes = tree.nodes.filter((n) => n.ending === 'finish');
    // Three distinct paths end in Finish: search→weather→42 (gold path), weather→42, search→7.
    const paths = finishes.map((n) =>
      pathTo(tree, n.id)
        .map((id) => node(tree, id).action)
        .join('>'),
    );
    expect(new Set(paths)).toEqual(
      new Set(['searchCities>getWeather>Finish', 'getWeather>Finish', 'searchCities>Finish']),
    );
    for (const n of finishes) {
      const calls = (n.state as SessionProgress).api!.calls.map((c) => c.operation);
      const gold = pathOnly.gold.path.map((g) => g.operation);
      expect(n.reward).toBe(subsequence(gold, calls) ? 1 : -1);
    }
    expect(solutions(tree).map((id) => pathTo(tree, id).length)).toEqual([3]);
    const oracle = await getMethod('mcts-oracle').runApi!({
      query: { question: pathOnly.query },
      target: target(pathOnly),
      docs: surfaceApiDocs(base, { now: NOW }),
      options: getMethod('mcts-oracle').options.parse(SEARCH),
      model: forker(),
      aids: { updateMemory: [] },
      limits: { maxSteps: 6 },
      seeds: { model: 1, search: 'o' },
      now: NOW,
    });
    expect(oracle.correct).toBe(true);
    expect(oracle.steps.map((s) => s.action)).toEqual(['searchCities', 'getWeather', 'Finish']);
    expect(oracle.api!.correctPath).toEqual({ subsequence: true, set: true });
  });

  it('with a gold answer the reward is the answer matcher (a right answer by the wrong path is +1)', async () => {
    const t = target(withAnswer);
    const tree = createSearch({ question: withAnswer.query, gold: '' }, { ...SEARCH, seed: 'o' }, t.fresh());
    await runSearch(tree, targetSearchEnv({ model: forker(), target: t, now: NOW }));
    const byPath = new Map(
      tree.nodes
        .filter((n) => n.ending === 'finish')
        .map((n) => [
          pathTo(tree, n.id)
            .map((id) => node(tree, id).action)
            .join('>'),
          n.reward,
        ]),
    );
    expect(Object.fromEntries(byPath)).toEqual({
      'searchCities>getWeather>Finish': 1,
      'getWeather>Finish': 1,
      'searchCities>Finish': -1,
    });
  });

  it('runApiQueries runs the searches over a query set with the suite member as options', async () => {
    for (const method of ['mcts', 'mcts-oracle'] as const) {
      const r = await runApiQueries({
        method,
        model: forker(),
        api: API,
        catalog,
        world: new MockWorld('weather', catalog, API.seed),
        server: base,
        docs: surfaceApiDocs(base, { now: NOW }),
        options: SEARCH,
        items: [pathOnly, withAnswer],
        seed: 's',
        now: NOW,
      });
      expect(r.results.map((x) => x.ending)).toEqual(['finish', 'finish']);
      expect(r.correctPath.n).toBe(2);
      expect(r.success).toBe(r.results[1]!.correct ? 100 : 0);
    }
    await expect(
      runApiQueries({
        method: 'mcts',
        model: forker(),
        api: API,
        catalog,
        world: new MockWorld('weather', catalog, API.seed),
        server: base,
        docs: surfaceApiDocs(base, { now: NOW }),
        options: { simulations: 0 },
        items: [pathOnly],
        seed: 's',
        now: NOW,
      }),
    ).rejects.toThrow(/simulations/);
  });
});
