/**
 * The documentation aid and the toolPool aid on an imported API (issue 23 §1), on RestBench-TMDB: each documentation
 * kind changes what the agent's prompt lists — the API as imported (stale on a drifted surface) against the served
 * surface's own, a DRAFT documentation set (its refined lines under the names the served surface answers, flagged
 * entries left out), an uploaded description file (DRAFT's `TMDB_DRAFT.json`) — and the pool settings restrict the
 * prompt to the retrieved operations: the item's 5 candidates, or the top k of the whole API.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  docsetApiDocs,
  readDescriptionFile,
  resolveApiDocs,
  surfaceApiDocs,
} from '../../../core/aids/api-docs.ts';
import { apiToolPool, retiredApiTool } from '../../../core/aids/api-pool.ts';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { parseQuerySet, type QueryItem } from '../../../core/apis/querysets.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { servedTools } from '../../../core/apis/surface/tools.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { apiDocSet } from '../../../core/draft/api.ts';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import type { DocSet } from '../../../core/draft/docset.ts';
import { RestBenchFileError } from '../../../core/draft/restbench.ts';
import { itemCandidates } from '../../../core/evals/api-suite.ts';
import { getMethod } from '../../../core/methods/registry.ts';
import type { GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import type { ApiPromptDocs } from '../../../core/prompts/toolevo.ts';
import { apiTarget } from '../../../core/sessions/targets.ts';
import { dataJson, tmdbImport } from '../apis/data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const API = {
  id: 'tmdb',
  title: 'TMDB',
  mode: 'seeded' as const,
  seed: 'docs',
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
  drifted = generateApiSurface(base, catalog, { seed: '5', kinds: ['rename-operation', 'rename-params'] });
  const parsed = parseQuerySet(dataJson('restbench-tmdb/draft/test_data/TMDB.json'), catalog);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems.slice(0, 3)));
  items = parsed.set.items;
});

/** The tool names a prompt's numbered list documents (Finish left out). */
function listed(prompt: string): string[] {
  return [...prompt.matchAll(/^\(\d+\) ([^[\n]+)\[/gm)].map((m) => m[1]!).filter((n) => n !== 'Finish');
}

/** Calls the first tool its prompt lists with `{}`, then finishes; records every prompt. */
function recorder(): TextModel & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    provider: 'test',
    model: 'recorder',
    capabilities: { n: false, logprobs: false, seed: true, embeddings: false, simulated: false },
    prompts,
    async generate(request: GenerateRequest): Promise<GenerateResponse> {
      const prompt = request.messages.map((m) => m.content).join('\n');
      prompts.push(prompt);
      const first = listed(prompt)[0];
      const text =
        prompts.length === 1 && first
          ? `Thought: try it.\nAction: ${first}\nAction Input: {}`
          : 'Thought: done.\nAction: Finish\nAction Input: {"answer": "x"}';
      return {
        candidates: [{ text, finishReason: 'stop' }],
        model: 'recorder',
        usage: { calls: 1, inputTokens: 0, outputTokens: 0, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

async function prompts(
  item: QueryItem,
  server: ApiSurface,
  docs: ApiPromptDocs,
  pool?: ReturnType<typeof apiToolPool>,
): Promise<string[]> {
  const model = recorder();
  const method = getMethod('greedy');
  await method.runApi!({
    query: { question: item.query },
    target: apiTarget({
      api: API,
      server: { kind: 'surface', surface: server },
      deps: { catalog, world: new MockWorld('tmdb', catalog, API.seed), backend: { mode: 'seeded' } },
      now: NOW,
      query: { text: item.query, index: item.index, gold: item.gold },
    }),
    docs,
    options: method.options.parse({}),
    model,
    aids: { updateMemory: [], ...(pool ? { toolPool: pool } : {}) },
    limits: { maxSteps: 4 },
    seeds: { model: 1, search: 's' },
    now: NOW,
  });
  return model.prompts;
}

const sources = () => ({ imported: base, served: drifted, now: NOW });

describe('documentation kinds on an API', () => {
  it('imported docs are stale on a drifted surface; the surface docs list the names it answers', async () => {
    const stale = resolveApiDocs('imported', sources());
    const fresh = resolveApiDocs('surface', sources());
    const [p0] = await prompts(items[0]!, drifted, stale);
    const [p1] = await prompts(items[0]!, drifted, fresh);
    expect(listed(p0!)).toEqual(servedTools(base).map((t) => t.name));
    expect(listed(p1!)).toEqual(servedTools(drifted).map((t) => t.name));
    const renamed = servedTools(drifted).filter((t) => !servedTools(base).some((b) => b.name === t.name));
    expect(renamed.length).toBeGreaterThan(5);
    for (const t of renamed) {
      expect(p0).not.toContain(`${t.name}[`);
      expect(p1).toContain(`${t.name}[`);
    }
    expect(stale.tools).toHaveLength(54);
    expect(stale.toolList.split('\n').at(-1)).toBe(
      '(55) Finish[answer], which returns the answer and finishes the task.',
    );
  });

  it('a DRAFT docset lists its refined lines under names the served surface answers, flagged entries left out', async () => {
    const start = apiDocSet(base, 'tmdb', 'sim', true, resolveDraftOptions({}), catalog);
    const set: DocSet = structuredClone(start);
    const search = set.tools.find((t) => t.operation === 'GET_search-person')!;
    search.doc = {
      ...search.doc,
      description: 'Finds people by name and returns their TMDB ids, for the person endpoints.',
      example: { query: 'Sofia Coppola' },
    };
    search.stop = 'converged';
    const flagged = set.tools.find((t) => t.operation === 'GET_movie-top_rated')!;
    flagged.flags = ['no-success'];
    const gone = set.tools.find((t) => t.operation === 'GET_tv-popular')!;
    gone.flags = ['not-served'];

    const onBase = docsetApiDocs(set, base, NOW);
    expect(onBase.tools!.map((t) => t.operation)).toEqual(
      set.tools.filter((t) => t !== flagged && t !== gone).map((t) => t.operation!),
    );
    const line = onBase.tools!.find((t) => t.operation === 'GET_search-person')!.line;
    expect(line).toBe(
      `${search.doc.name}[${search.doc.params.map((p) => p.name).join(', ')}] (GET /search/person), Finds people by name and returns their TMDB ids, for the person endpoints. Example: {"query":"Sofia Coppola"}.`,
    );
    const [prompt] = await prompts(items[0]!, base, onBase);
    expect(prompt).toContain(line);
    expect(prompt).not.toContain(`${flagged.doc.name}[`);
    expect(prompt).not.toContain(`${gone.doc.name}[`);

    // Served by the drifted surface, the set's names that surface no longer answers are left out too.
    const onDrifted = resolveApiDocs({ docset: 'ds' }, { ...sources(), docsets: new Map([['ds', set]]) });
    const answered = new Set(servedTools(drifted).map((t) => t.name));
    expect(onDrifted.tools!.map((t) => t.name)).toEqual(
      set.tools.filter((t) => t !== flagged && t !== gone && answered.has(t.doc.name)).map((t) => t.doc.name),
    );
    expect(onDrifted.tools!.length).toBeLessThan(onBase.tools!.length);
  });

  it('an uploaded description file replaces the imported descriptions, names unchanged', async () => {
    const file = readDescriptionFile(
      dataJson('restbench-tmdb/draft/tool_instruction/TMDB_DRAFT.json'),
      catalog.operations,
    );
    expect(file).toMatchObject({ tools: 54, unmatched: [] });
    const docs = resolveApiDocs(
      { description: 'f' },
      { ...sources(), served: base, descriptions: new Map([['f', file.descriptions]]) },
    );
    const own = surfaceApiDocs(base, { now: NOW });
    expect(docs.tools!.map((t) => t.name)).toEqual(own.tools!.map((t) => t.name));
    const keywords = docs.tools!.find((t) => t.operation === 'GET_movie-movie_id-keywords')!.line;
    expect(keywords).toContain('This API retrieves the keywords associated with a specific movie');
    expect(own.toolList).not.toContain('This API retrieves the keywords associated with a specific movie');
    const [prompt] = await prompts(items[0]!, base, docs);
    expect(prompt).toContain(keywords);
    expect(() => readDescriptionFile({ '0': { ID: 0, tool_name: '' } }, catalog.operations)).toThrow(
      RestBenchFileError,
    );
    expect(() => resolveApiDocs({ description: 'none' }, sources())).toThrow('no description file none');
  });
});

describe('the toolPool aid on an API', () => {
  it("candidates: the prompt lists exactly the item's 5 candidate APIs", async () => {
    const docs = surfaceApiDocs(base, { now: NOW });
    for (const item of items.slice(0, 5)) {
      const candidates = itemCandidates(item)!;
      const pool = apiToolPool(docs, { pool: 'candidates', k: 5, ranker: 'bm25' }, candidates);
      expect(pool.size).toBe(5);
      const seen = await prompts(item, base, docs, pool);
      const names = listed(seen[0]!);
      const byName = new Map(docs.tools!.map((t) => [t.name, t.operation]));
      expect(names.map((n) => byName.get(n)).sort()).toEqual([...candidates].sort());
      expect(seen[0]).toContain('(6) Finish[answer]');
      // Nothing else of the API is named anywhere in the prompt.
      for (const t of docs.tools!) if (!names.includes(t.name)) expect(seen[0]).not.toContain(`${t.name}[`);
    }
    expect(() => apiToolPool(docs, { pool: 'candidates', k: 5, ranker: 'bm25' }, null)).toThrow(
      'the item lists no candidate APIs',
    );
  });

  it('all: the top k of the whole API per step, accumulating; only retrieved tools are shown', async () => {
    const docs = surfaceApiDocs(base, { now: NOW });
    const item = items[0]!;
    const pool = apiToolPool(docs, { pool: 'all', k: 3, ranker: 'bm25' }, null);
    expect(pool.size).toBe(54);
    const seen = await prompts(item, base, docs, pool);
    const first = listed(seen[0]!);
    expect(first).toHaveLength(3);
    expect(seen[0]).toContain('(4) Finish[answer]');
    const second = listed(seen[1]!);
    expect(second.slice(0, 3)).toEqual(first);
    expect(second.length).toBeGreaterThanOrEqual(3);
    expect(second.length).toBeLessThanOrEqual(6);
    for (const [i, p] of seen.entries()) {
      const shown = listed(p);
      for (const t of docs.tools!)
        if (!shown.includes(t.name)) expect(p, `prompt ${i}`).not.toContain(`${t.name}[`);
    }
    // Retrieval is by the query: a different question gets a different first list.
    const other = listed(
      (
        await prompts(items[5]!, base, docs, apiToolPool(docs, { pool: 'all', k: 3, ranker: 'bm25' }, null))
      )[0]!,
    );
    expect(other).not.toEqual(first);
  });

  it('reads the retired tool an API deprecation names', () => {
    expect(
      retiredApiTool('getPerson (GET /person/{person_id}) is deprecated and was removed on 2026-03-01.'),
    ).toBe('getPerson');
    expect(retiredApiTool('{"id": 1}')).toBeNull();
  });
});
