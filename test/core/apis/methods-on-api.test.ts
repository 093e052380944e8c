/**
 * Agent methods on an imported API (issue 23 §1): the ReAct methods answer a RestBench query on TMDB through the
 * API's exploration target (the session step over the seeded mock), their prompt lists the API's operations (no
 * ToolQA worked examples), and the run is scored with Correct Path Rate in both definitions; on a drifted surface
 * the stale documentation costs the path, the drifted version's documentation restores it. The tree searches run
 * on APIs too (test/core/methods/api-search.test.ts); the registry says which methods do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import { apiToolList } from '../../../core/apis/surface/docs.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { toolForOperation } from '../../../core/apis/surface/tools.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { getMethod, METHOD_IDS, methodListing, runsOnApi } from '../../../core/methods/registry.ts';
import type { GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import { apiTarget } from '../../../core/sessions/targets.ts';
import { dataJson, tmdbImport } from './data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const API = {
  id: 'tmdb',
  title: 'TMDB',
  mode: 'seeded' as const,
  seed: 'agents',
  worldSize: 10_000,
  upstream: null,
};

let catalog: ApiCatalog;
let base: ApiSurface;
let drifted: ApiSurface;
let q0: QueryItem;

beforeAll(async () => {
  catalog = (await tmdbImport()).catalog;
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  drifted = generateApiSurface(base, catalog, { seed: '5', kinds: ['rename-operation', 'rename-params'] });
  const parsed = parseQuerySet(dataJson('restbench-tmdb/restgpt/datasets/tmdb.json'), catalog);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
  q0 = parsed.set.items[0]!;
});

/**
 * A model that reads only its prompt: it calls the documented tool whose route is `/search/person` with the person
 * the question names, then the documented `/person/{…}/movie_credits` tool with the id the observation showed,
 * then Finish. It takes names and parameters from the tool list it is shown — stale docs mislead it.
 */
function promptReader(): TextModel & { prompts: string[] } {
  const prompts: string[] = [];
  const reply = (text: string): GenerateResponse => ({
    candidates: [{ text, finishReason: 'stop' }],
    model: 'prompt-reader',
    usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
  });
  return {
    provider: 'test',
    model: 'prompt-reader',
    capabilities: { n: false, logprobs: false, seed: true, embeddings: false, simulated: false },
    prompts,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      const prompt = request.messages.map((m) => m.content).join('\n');
      prompts.push(prompt);
      const line = (route: RegExp) => {
        const l = prompt.split('\n').find((x) => route.test(x));
        const m = l ? /^\(\d+\) ([^[]+)\[([^\]]*)\]/.exec(l) : null;
        return m ? { name: m[1]!, params: m[2]!.split(', ') } : null;
      };
      const trajectory = prompt.slice(prompt.lastIndexOf('Question: '));
      const observations = [...trajectory.matchAll(/Observation: (.*)/g)].map((m) => m[1]!);
      if (observations.length === 0) {
        const t = line(/GET \/search\/person:/)!;
        return reply(
          `Thought: find her.\nAction: ${t.name}\nAction Input: {"${t.params[0]}": "Sofia Coppola"}`,
        );
      }
      if (observations.length === 1) {
        const id = /"id":(\d+)/.exec(observations[0]!)?.[1];
        const t = line(/GET \/person\/\{[a-z_]+\}\/movie_credits:/)!;
        return reply(`Thought: her films.\nAction: ${t.name}\nAction Input: {"${t.params[0]}": ${id ?? 0}}`);
      }
      return reply('Thought: done.\nAction: Finish\nAction Input: {"answer": "3"}');
    },
  };
}

function run(id: 'greedy' | 'greedy-memory' | 'react-reflexion', surface: ApiSurface, docs: ApiSurface) {
  const model = promptReader();
  const target = apiTarget({
    api: API,
    server: { kind: 'surface', surface },
    docs,
    deps: { catalog, world: new MockWorld('tmdb', catalog, API.seed), backend: { mode: 'seeded' } },
    now: NOW,
    query: { text: q0.query, queryset: 'restbench', index: 0, gold: q0.gold },
  });
  const method = getMethod(id);
  const outcome = method.runApi!({
    query: { question: q0.query },
    target,
    docs: { kind: 'api', toolList: apiToolList(docs, { now: NOW }) },
    options: method.options.parse({}),
    model,
    aids: { updateMemory: [] },
    limits: { maxSteps: 6 },
    seeds: { model: 1, search: 's' },
    now: NOW,
  });
  return { model, outcome };
}

describe('agent methods on an imported API', () => {
  it('greedy answers a RestBench query on TMDB from the API docs and scores Correct Path Rate 1 in both definitions', async () => {
    const { model, outcome } = run('greedy', base, base);
    const o = await outcome;
    expect(o.ending).toBe('finish');
    expect(o.steps.map((s) => s.outcome)).toEqual(['ok', 'ok', 'finished']);
    expect(o.steps.map((s) => s.action)).toEqual([
      'GET_search-person',
      'GET_person-person_id-movie_credits',
      'Finish',
    ]);
    expect(o.answer).toBe('3');
    expect(o.api).toMatchObject({
      correctPath: { subsequence: true, set: true },
      goldPath: ['GET_search-person', 'GET_person-person_id-movie_credits'],
      correct: null,
    });
    // The prompt lists the API's operations (and Finish), not ToolQA's tools or worked examples.
    expect(model.prompts[0]).toContain(
      'GET_search-person[query, page, include_adult, region], GET /search/person:',
    );
    expect(model.prompts[0]).toContain('(55) Finish[answer]');
    expect(model.prompts[0]).not.toContain('LoadDB');
    expect(model.prompts[0]).not.toContain('Here are some examples');
  });

  it('on a drifted API, stale docs cost the path; the drifted version docs restore it', async () => {
    // Seed 5 renames both operations of the path and their parameters (query → search, person_id → people_ref).
    const renamed = toolForOperation(drifted, 'GET_search-person')!;
    expect(renamed.name).toBe('GetSearchPeople');
    expect(toolForOperation(drifted, 'GET_person-person_id-movie_credits')!.params[0]!.name).toBe(
      'people_ref',
    );
    const stale = await run('react-reflexion', drifted, base).outcome;
    expect(stale.steps[0]!.outcome).toMatch(/^rejected:/);
    expect(stale.steps[0]!.observation).toContain(renamed.name);
    expect(stale.api!.correctPath).toEqual({ subsequence: false, set: false });
    expect(stale.api!.goldOnSurface[0]).toBe('GET /search/person');
    const fresh = await run('greedy-memory', drifted, drifted).outcome;
    expect(fresh.steps.map((s) => s.outcome)).toEqual(['ok', 'ok', 'finished']);
    expect(fresh.steps[0]!.action).toBe(renamed.name);
    expect(fresh.api!.correctPath).toEqual({ subsequence: true, set: true });
  });

  it('says which methods run on an API: the ReAct methods and the tree searches, not the w/o-tool-update ablation', () => {
    const onApi = METHOD_IDS.filter((id) => runsOnApi(id));
    expect(onApi).toContain('mcts');
    expect(onApi).toContain('mcts-oracle');
    expect(runsOnApi('mcts-no-tool-update')).toBe(false);
    const listing = methodListing();
    expect(listing.find((m) => m.id === 'greedy')!.backends).toEqual(['kernel', 'api']);
    expect(listing.find((m) => m.id === 'mcts')!.backends).toEqual(['kernel', 'api']);
    expect(listing.find((m) => m.id === 'mcts-no-tool-update')!.backends).toEqual(['kernel']);
  });
});
