/**
 * The simulated policy on an imported API (issue 23 §6): greedy with the simulator answers RestBench's 100 TMDB
 * queries from the prompt alone, scored with Correct Path Rate. Its numbers are neither 0 nor 100, drift with the
 * documentation of the API as imported (stale) costs it paths, and DRAFT's rewritten descriptions (`TMDB_DRAFT.json`)
 * help it against the original ones — because it acts only on what the prompt says. Labelled a simulator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import { apiToolList } from '../../../core/apis/surface/docs.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { descriptionsByOperation, parseToolInstructions } from '../../../core/draft/restbench.ts';
import { type ApiQueryReport, MethodNotOnApiError, runApiQueries } from '../../../core/evals/api-queries.ts';
import { questionEntity } from '../../../core/sim/api-agent.ts';
import { createSimModel, SIM_MODEL_LABEL } from '../../../core/sim/index.ts';
import { dataJson, tmdbImport } from '../apis/data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const API = {
  id: 'tmdb',
  title: 'TMDB',
  mode: 'seeded' as const,
  seed: 'sim',
  worldSize: 10_000,
  upstream: null,
};

let catalog: ApiCatalog;
let base: ApiSurface;
let drifted: ApiSurface;
let items: QueryItem[];

beforeAll(async () => {
  catalog = (await tmdbImport()).catalog;
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  drifted = generateApiSurface(base, catalog, {
    seed: '5',
    kinds: ['rename-operation', 'rename-params', 'rename-path'],
  });
  const parsed = parseQuerySet(dataJson('restbench-tmdb/restgpt/datasets/tmdb.json'), catalog);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
  items = parsed.set.items;
});

function file(name: string): Record<string, string> {
  const tools = parseToolInstructions(dataJson(`restbench-tmdb/draft/tool_instruction/${name}`));
  const { descriptions, unmatched } = descriptionsByOperation(tools, catalog.operations);
  expect(unmatched).toEqual([]);
  return descriptions;
}

function run(
  server: ApiSurface,
  docs: ApiSurface,
  descriptions?: Record<string, string>,
  skills?: { pUpdate?: number; pReflect?: number; noise?: number },
  subset?: number,
): Promise<ApiQueryReport> {
  return runApiQueries({
    method: 'greedy',
    model: createSimModel({ seed: 'restbench', ...(skills ? { skills } : {}) }),
    api: API,
    catalog,
    world: new MockWorld('tmdb', catalog, API.seed),
    server,
    docs: {
      kind: 'api',
      toolList: apiToolList(docs, { now: NOW, ...(descriptions ? { descriptions } : {}) }),
    },
    items: subset ? items.slice(0, subset) : items,
    maxSteps: 8,
    seed: 'restbench',
    now: NOW,
  });
}

describe('the simulator on TMDB (RestBench, 100 queries)', () => {
  it('scores neither 0 nor 100, loses paths to drift with stale docs, and gains with DRAFT docs', async () => {
    const raw = await run(base, base, file('TMDB_Initial.json'));
    const draft = await run(base, base, file('TMDB_DRAFT.json'));
    const stale = await run(drifted, base);
    const fresh = await run(drifted, drifted);
    expect(raw.model).toBe(SIM_MODEL_LABEL);
    expect(raw.correctPath.n).toBe(100);
    for (const r of [raw, draft, stale, fresh]) {
      expect(r.correctPath.subsequence).toBeGreaterThan(0);
      expect(r.correctPath.subsequence).toBeLessThan(100);
      expect(r.correctPath.set).toBeGreaterThanOrEqual(r.correctPath.subsequence);
      expect(r.success).toBeNull(); // RestBench has no gold answers
    }
    expect(draft.correctPath.subsequence).toBeGreaterThan(raw.correctPath.subsequence);
    expect(stale.correctPath.subsequence).toBeLessThan(raw.correctPath.subsequence);
    expect(stale.correctPath.subsequence).toBeLessThan(fresh.correctPath.subsequence);
    // Stale docs cost calls: refused names are retried under the successors the refusals name.
    expect(stale.callsPerQuery).toBeGreaterThan(raw.callsPerQuery);
    // Every failure gets one Table 7 label, computed from the trajectory as for ToolQA-D runs.
    for (const r of [raw, stale]) {
      const failed = r.results.filter((x) => !x.correctPath?.subsequence).length;
      expect(Object.values(r.taxonomy).reduce((a, b) => a + b, 0)).toBe(failed);
    }
    // With its own docs, wrong paths end in a Finish (incorrect output); stale docs add refused-tool failures.
    expect(raw.taxonomy['incorrect-output']).toBeGreaterThan(0);
    expect(Object.keys(stale.taxonomy).some((k) => k !== 'incorrect-output')).toBe(true);
  }, 60_000);

  it('recovers from stale docs only by reading the refusals: never with pUpdate 0, more often with pUpdate 1', async () => {
    const never = await run(drifted, base, undefined, { pUpdate: 0, pReflect: 0, noise: 0 }, 40);
    const always = await run(drifted, base, undefined, { pUpdate: 1, pReflect: 1, noise: 0 }, 40);
    // Without following a refusal's successor, a renamed tool is never reached.
    expect(never.taxonomy['deprecated-repeat'] ?? 0).toBeGreaterThan(0);
    expect(always.correctPath.subsequence).toBeGreaterThan(never.correctPath.subsequence);
  }, 60_000);

  it('refuses a method that does not run on APIs, naming it', async () => {
    await expect(
      runApiQueries({
        method: 'mcts-no-tool-update',
        model: createSimModel({}),
        api: API,
        catalog,
        world: new MockWorld('tmdb', catalog, API.seed),
        server: base,
        docs: { kind: 'api', toolList: '' },
        items: [],
        seed: 's',
        now: NOW,
      }),
    ).rejects.toThrow(MethodNotOnApiError);
  });

  it('reads the entity a question names', () => {
    expect(questionEntity('give me the number of movies directed by Sofia Coppola')).toBe('Sofia Coppola');
    expect(questionEntity('What is the logo of the Walt Disney?')).toBe('Walt Disney');
    expect(questionEntity('search for "the lord of the rings"')).toBe('the lord of the rings');
    expect(questionEntity('who is the most popular person?')).toBeNull();
  });
});
