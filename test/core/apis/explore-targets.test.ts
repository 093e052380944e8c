/**
 * STE and DRAFT on an imported API (issue 23 §2–3): the exploration target of TMDB (its operations through the
 * API session's step over the seeded mock), STE exploring a TMDB operation on the API as imported and on a drifted
 * version, STE's targets since an earlier API surface, and DRAFT documenting TMDB operations from the mock's real
 * answers and errors.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApiSurface } from '../../../core/apis/drift/index.ts';
import { MockWorld } from '../../../core/apis/mock/index.ts';
import { baseApiSurface } from '../../../core/apis/surface/base.ts';
import { apiToolList } from '../../../core/apis/surface/docs.ts';
import type { ApiSurface } from '../../../core/apis/surface/model.ts';
import { toolForOperation } from '../../../core/apis/surface/tools.ts';
import type { ApiCatalog } from '../../../core/apis/types.ts';
import { apiCategory, apiToolDoc, docsetDescriptions } from '../../../core/draft/api.ts';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { docsetToolList } from '../../../core/draft/render.ts';
import { runDraft } from '../../../core/draft/run.ts';
import { initialProgress } from '../../../core/sessions/episode.ts';
import { apiTarget, kernelTarget, toolTarget } from '../../../core/sessions/targets.ts';
import { exploreTool } from '../../../core/ste/engine.ts';
import { steTargetTools } from '../../../core/ste/targets.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { fixedEmbedder, scriptedModel } from '../draft/scripted.ts';
import { scripted, step } from '../ste/scripted.ts';
import { dataText, imported, tmdbImport } from './data.ts';

const NOW = new Date('2026-06-01T00:00:00Z');
const API = {
  id: 'tmdb',
  title: 'TMDB',
  mode: 'seeded' as const,
  seed: 'explore',
  worldSize: 10_000,
  upstream: null,
};

let catalog: ApiCatalog;
let base: ApiSurface;
let drifted: ApiSurface;

beforeAll(async () => {
  catalog = (await tmdbImport()).catalog;
  base = baseApiSurface('tmdb', catalog, 'TMDB');
  drifted = generateApiSurface(base, catalog, {
    seed: '7',
    kinds: ['rename-path', 'rename-params', 'version-prefix', 'rename-operation'],
  });
});

/** A search operation the drift renamed (its tool on the drifted surface). */
function renamedSearch() {
  const op = catalog.operations.find(
    (o) => o.name.startsWith('GET_search-') && toolForOperation(drifted, o.name)?.name !== o.name,
  );
  if (!op) throw new Error('the drift renamed no search operation');
  return toolForOperation(drifted, op.name)!;
}

function target(surface: ApiSurface, docs?: ApiSurface) {
  return apiTarget({
    api: API,
    server: { kind: 'surface', surface },
    ...(docs ? { docs } : {}),
    deps: { catalog, world: new MockWorld('tmdb', catalog, API.seed), backend: { mode: 'seeded' } },
    now: NOW,
  });
}

describe('an imported API as an exploration target', () => {
  it('documents, lists and explores the 54 TMDB operations; steps run on the mock; each trial starts clean', async () => {
    const t = target(base);
    expect(t.backend).toBe('api');
    expect(t.explorable()).toHaveLength(54);
    expect(t.explorable()).not.toContain('Finish');
    expect(t.toolLine('GET_search-person')).toBe(
      'GET_search-person[query, page, include_adult, region] (GET /search/person), Search for people.',
    );
    expect(t.toolLine('nope')).toBe('nope');
    expect(t.toolList()).toMatch(/^\(1\) GET_movie-movie_id-keywords\[movie_id\]/);
    expect(t.toolList()).toMatch(/\(55\) Finish\[answer\]/);

    const env = t.fresh();
    expect(env).toEqual(initialProgress());
    const found = await t.step(env, step('GET_search-person', '{"query": "Sofia Coppola"}'));
    expect(found.kind).toBe('ok');
    expect(found.label).toBe('ok');
    const person = (JSON.parse(found.observation) as { results: { id: number; name: string }[] }).results[0]!;
    expect(person.name).toBe('Sofia Coppola');
    // The search materialised the person in the trial's overlay: a later call of the same trial sees it.
    const details = await t.step(found.env, {
      action: 'GET_person-person_id',
      actionInput: { person_id: person.id },
    });
    expect(details.kind).toBe('ok');
    expect(JSON.parse(details.observation)).toMatchObject({ id: person.id, name: 'Sofia Coppola' });
    // The API's refusals reach the explorer as its observation, naming the parameter.
    const bad = await t.step(found.env, { action: 'GET_search-person', actionInput: { name: 'x' } });
    expect(bad.kind).toBe('rejected');
    expect(bad.observation).toMatch(/query/);
    // An operation without required parameters is called with `{}` (ToolQA-D's pattern needs a character inside).
    const empty = await t.step(env, step('GET_tv-popular', '{}'));
    expect(empty.kind).toBe('ok');
    expect(await t.step(env, step('GET_tv-popular', ''))).toMatchObject({
      kind: 'rejected',
      label: 'rejected:filtered',
    });
    const unknown = await t.step(env, step('GET_search_person', '{"query": "x"}'));
    expect(unknown.label).toBe('rejected:invalid-action');
    const done = await t.step(details.env, { action: 'Finish', actionInput: { answer: 'Sofia Coppola' } });
    expect(done).toMatchObject({ kind: 'finished', answer: 'Sofia Coppola', label: 'finished' });
    // The registry builds either backend's target.
    expect(
      toolTarget({
        backend: 'kernel',
        world: generateWorld({ seed: 't', scale: 0.05 }),
        surface: PC_SURFACE,
        deps: createKernelDeps({}),
      }).explorable(),
    ).toHaveLength(11);
    expect(
      kernelTarget({
        world: generateWorld({ seed: 't', scale: 0.05 }),
        surface: PC_SURFACE,
        deps: createKernelDeps({}),
      }).backend,
    ).toBe('kernel');
  });

  it('answers on a drifted surface with the drifted names while the prompts show the stale docs', async () => {
    const t = target(drifted, base);
    const searchOnDrift = renamedSearch();
    expect(t.explorable()).toContain(searchOnDrift.name);
    expect(t.explorable()).not.toContain(searchOnDrift.operation);
    // The prompts document the API as imported (stale once drifted) …
    expect(t.toolLine(searchOnDrift.operation)).toMatch(/^GET_search-/);
    // … and the stale name is refused with its successor.
    const stale = await t.step(t.fresh(), {
      action: searchOnDrift.operation,
      actionInput: { query: 'Sofia Coppola' },
    });
    expect(stale.kind).toBe('rejected');
    expect(stale.observation).toContain(searchOnDrift.name);
  });
});

describe('STE on an imported API', () => {
  it('explores a TMDB operation: the prompt documents it, trials call the mock, kept exemplars use its names', async () => {
    const model = scripted([
      'User Query: Which movies has Sofia Coppola directed?',
      step('GET_search-person', '{"query": "Sofia Coppola"}'),
      step('Finish', '{"answer": "Lost in Translation"}'),
      'Yes',
      '1. Yes\n2. Yes\n3. Yes',
      'What films did Sofia Coppola direct?',
      'Sofia Coppola directed which movies?',
      'List the movies Sofia Coppola directed.',
      'What has Sofia Coppola directed?',
      'Which films are directed by Sofia Coppola?',
      'Name Sofia Coppola’s films as director.',
    ]);
    const t = target(base);
    const state = await exploreTool(
      { model, target: t },
      { tool: 'GET_search-person', seed: 's', episodes: 1, trials: 1 },
    );
    expect(state.phase).toBe('done');
    const explore = model.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(explore).toContain('GET_search-person[query, page, include_adult, region] (GET /search/person)');
    expect(explore).toContain('(55) Finish[answer]');
    const trial = state.trials[0]!;
    expect(trial.steps[0]).toMatchObject({ action: 'GET_search-person', ok: true });
    expect(trial.steps[0]!.observation).toContain('"name":"Sofia Coppola"');
    expect(trial.finalAnswer).toBe('Lost in Translation');
    // The observation the model read next is the mock's answer.
    expect(model.requests[2]!.messages.at(-1)!.content).toContain('Sofia Coppola');
    expect(state.exemplars).toHaveLength(7);
    expect(state.exemplars.slice(0, 2).map((e) => [e.tool, e.action, e.query])).toEqual([
      ['GET_search-person', 'GET_search-person', 'Which movies has Sofia Coppola directed?'],
      ['GET_search-person', 'GET_search-person', 'What films did Sofia Coppola direct?'],
    ]);
  });

  it('on a drifted surface, a stale call is refused and the exemplar keeps the name that worked', async () => {
    const renamed = renamedSearch();
    const query = renamed.params.find((p) => p.required)!.name;
    const model = scripted([
      'User Query: Find the person Greta Gerwig.',
      step(renamed.operation, '{"query": "Greta Gerwig"}'),
      step(renamed.name, JSON.stringify({ [query]: 'Greta Gerwig' })),
      step('Finish', '{"answer": "found"}'),
      'Yes',
      '1. Yes\n2. Yes\n3. Yes',
    ]);
    const state = await exploreTool(
      { model, target: target(drifted, base) },
      { tool: renamed.name, seed: 's', episodes: 1, trials: 1, paraphrase: false },
    );
    const [stale, fresh] = state.trials[0]!.steps;
    expect(stale).toMatchObject({ ok: false });
    expect(stale!.observation).toContain(renamed.name);
    expect(fresh).toMatchObject({ action: renamed.name, ok: true });
    expect(state.exemplars[0]).toMatchObject({ action: renamed.name });
  });

  it('targets every served operation, or only those whose tool changed since an earlier API surface', () => {
    expect(steTargetTools(base)).toHaveLength(54);
    expect(steTargetTools(base, { since: base })).toEqual([]);
    const renamedOnly = generateApiSurface(base, catalog, { seed: '3', kinds: ['rename-operation'] });
    const changed = steTargetTools(renamedOnly, { since: base });
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.length).toBeLessThan(54);
    const baseNames = new Set(base.tools.map((t) => t.name));
    for (const name of changed) expect(baseNames.has(name)).toBe(false);
    expect(() => steTargetTools(base, { since: PC_SURFACE as never })).toThrow(TypeError);
  });
});

describe('STE on its own catalog (API_descriptions.json, function tools without routes)', () => {
  it('explores a catalog tool through the mock: calls answer, unknown arguments are refused naming the accepted ones', async () => {
    const { catalog: ste } = await imported(dataText('ste/tool_metadata/API_descriptions.json'));
    const surface = baseApiSurface('ste', ste, 'STE');
    const t = apiTarget({
      api: { ...API, id: 'ste', title: 'STE' },
      server: { kind: 'surface', surface },
      deps: { catalog: ste, world: new MockWorld('ste', ste, 'ste'), backend: { mode: 'seeded' } },
      now: NOW,
    });
    const tool = toolForOperation(surface, ste.operations.find((o) => o.operationId === 'add_date')!.name)!;
    expect(t.explorable()).toContain(tool.name);
    expect(t.toolLine(tool.name)).toMatch(/^add_date\[date, days\], /);
    const model = scripted([
      'User Query: What date is 90 days after 2022-10-14?',
      step(tool.name, '{"date": "2022-10-14", "days": 90}'),
      step(tool.name, '{"when": "2022-10-14"}'),
      step('Finish', '{"answer": "2023-01-12"}'),
      'Yes',
    ]);
    const state = await exploreTool(
      { model, target: t },
      { tool: tool.name, seed: 's', episodes: 1, trials: 1, filter: false },
    );
    const [ok, bad] = state.trials[0]!.steps;
    expect(ok).toMatchObject({ action: tool.name, ok: true });
    // STE's catalog describes no responses: the mock answers with an empty body (see core/apis/README.md).
    expect(ok!.observation).toBe('null');
    expect(bad!.ok).toBe(false);
    expect(bad!.observation).toMatch(/when/);
    expect(bad!.observation).toMatch(/date/);
  });
});

describe('DRAFT on an imported API', () => {
  it('documents operations with route, parameters and resource, from explorations the mock answered', async () => {
    const doc = apiToolDoc(toolForOperation(base, 'GET_person-person_id-movie_credits')!);
    expect(doc.route).toBe('GET /person/{person_id}/movie_credits');
    expect(doc.params.map((p) => [p.name, p.required])).toEqual([['person_id', true]]);
    expect(apiToolDoc(toolForOperation(base, 'GET_search-person')!).params.map((p) => p.name)).toEqual([
      'query',
      'page',
      'include_adult',
      'region',
    ]);
    expect(apiCategory(toolForOperation(base, 'GET_search-person')!)).toBe('search');
    expect(apiCategory(toolForOperation(drifted, 'GET_movie-movie_id')!)).not.toMatch(/^v\d/);

    const model = scriptedModel({
      explore: [
        JSON.stringify({
          query: 'Who is Sofia Coppola?',
          setup: [],
          parameters: { query: 'Sofia Coppola' },
        }),
        JSON.stringify({ query: 'Search with a name field', setup: [], parameters: { name: 'Sofia' } }),
      ],
      analyze: [JSON.stringify({ suggestions: ['say it returns people with ids'] })],
      rewrite: [
        JSON.stringify({
          name: 'GET_search-person',
          parameters: [{ name: 'query', required: true, description: "the person's name" }],
          description: 'Searches people by name; the results carry ids for /person/{person_id}.',
          explore_next: 'try a wrong parameter',
        }),
        JSON.stringify({
          name: 'GET_search-person',
          parameters: [{ name: 'query', required: true, description: "the person's name (not `name`)" }],
          description:
            'Searches people by name, given as `query` (not `name`); the results carry ids for /person/{person_id}.',
          explore_next: '',
        }),
      ],
      summarize: [JSON.stringify({ description: 'Search endpoints.' })],
    });
    const r = await runDraft({
      model,
      embedder: fixedEmbedder({}),
      target: target(base),
      docs: base,
      catalog,
      options: resolveDraftOptions({
        seed: 'd',
        iterations: 2,
        adaptiveTermination: false,
        diversity: false,
      }),
      only: ['GET_search-person'],
    });
    expect(r.docset.api).toBe('tmdb');
    expect(r.docset.source).toEqual({ docs: 'tmdb', server: 'tmdb' });
    expect(r.docset.tools).toHaveLength(54);
    const entry = r.docset.tools.find((t) => t.key === 'GET_search-person')!;
    expect(entry).toMatchObject({
      operation: 'GET_search-person',
      category: 'search',
      stop: 'max-iterations',
    });
    expect(entry.doc.route).toBe('GET /search/person');
    // The second rewrite acted on the refusal (the text changed), so the loop ran its I = 2 iterations.
    // The example is the call that worked; the failed one does not replace it.
    expect(entry.doc.example).toEqual({ query: 'Sofia Coppola' });
    const [ok, failed] = r.states[0]!.explorations.map((e) => e.call);
    expect(ok!.outcome).toBe('ok');
    // The mock's answer, cut to DRAFT's 2,048 characters.
    expect(ok!.response).toMatch(/^\{"page":1,"results":\[\{/);
    expect(ok!.response).toHaveLength(2048);
    expect(failed!.outcome).toBe('rejected:param-error');
    // The analyzer read the mock's real answer, then its error naming the accepted parameters.
    const analyzed = model.requests.filter((q) => q.role === 'analyze').map((q) => q.text);
    expect(analyzed[0]).toContain(ok!.response);
    expect(analyzed[1]).toMatch(/name/);
    expect(analyzed[1]).toContain('query');
    expect(r.docset.categories.find((c) => c.name === 'search')!.description).toBe('Search endpoints.');
    // The set documents the agent's prompt: its refined descriptions replace the API's own sentences.
    const list = apiToolList(base, { now: NOW, descriptions: docsetDescriptions(r.docset) });
    expect(list).toContain(
      'GET_search-person[query, page, include_adult, region], GET /search/person: Searches people by name, given as `query` (not `name`);',
    );
    expect(list).toContain(
      'GET_tv-popular[page], GET /tv/popular: Get a list of the current popular TV shows',
    );
    expect(docsetToolList(r.docset)).toContain(
      'GET_search-person[query] (GET /search/person), Searches people by name, given as `query` (not `name`); the results carry ids for /person/{person_id}.',
    );
  });
});
