/**
 * The simulator in DRAFT's roles: it learns from its prompt alone (a drifted tool's replacement and parameters
 * from the deprecation notices the server returns), its knobs degrade each role, and the documentation it writes
 * makes a greedy agent succeed on a drifted surface where the stale P_c documentation fails.
 */
import { describe, expect, it } from 'vitest';
import { runReactEpisode } from '../../../core/agents/react-loop.ts';
import { docsetPromptSurface, docsetToolList } from '../../../core/draft/render.ts';
import { runDraft } from '../../../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { promptTemplate } from '../../../core/prompts/registry.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import type { SimSkillsInput } from '../../../core/sim/skills.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

const world = generateWorld({ seed: 'draft-sim', scale: 0.05 });

function draft(skills: SimSkillsInput, only?: string[]) {
  return runDraft({
    model: createSimModel({ preset: 'oracle', skills }),
    embedder: new LexicalEmbeddingModel(),
    world,
    docs: PC_SURFACE,
    server: S_IN_SURFACE,
    deps: createKernelDeps({}),
    options: { seed: 'sim-roles' },
    ...(only ? { only } : {}),
  });
}

describe('the simulator as explorer, analyzer and rewriter', () => {
  it('answers each role with JSON read from the prompt text alone', async () => {
    const sim = createSimModel({ preset: 'oracle' });
    const tool = {
      category: 'database',
      name: 'LoadDB',
      description: 'which loads the database DBName. The DBName can be one of the following: flights/coffee.',
      params: [{ name: 'DBName', required: true }],
    };
    const ask = async (messages: ReturnType<ReturnType<typeof promptTemplate>['render']>) =>
      JSON.parse((await sim.generate({ messages, temperature: 0 })).candidates[0]!.text) as Record<
        string,
        unknown
      >;
    const explored = await ask(
      promptTemplate('draft/explore').render({
        tool,
        otherTools: [],
        setupCalls: 3,
        explored: [],
        suggestions: '',
        rejected: [],
      }),
    );
    expect(explored).toMatchObject({ parameters: { DBName: 'flights' }, setup: [] });
    const exploration = {
      query: String(explored.query),
      setup: [],
      call: {
        tool: 'LoadDB',
        parameters: '{"DBName": "flights"}',
        response:
          'Error: LoadDB[DBName] is deprecated and will be removed in future releases. Use OpenStore[StoreName], param example: {"StoreName": "coffee"} instead.',
      },
    };
    const analysis = await ask(promptTemplate('draft/analyze').render({ tool, exploration, history: [] }));
    expect(analysis.suggestions).toEqual([
      'Rename: the tool is now OpenStore with parameters StoreName; LoadDB answers only with a deprecation notice.',
      'Example: {"StoreName":"coffee"}',
    ]);
    const rewritten = await ask(
      promptTemplate('draft/rewrite').render({
        tool,
        exploration,
        history: [],
        suggestions: analysis.suggestions as string[],
      }),
    );
    expect(rewritten).toMatchObject({
      name: 'OpenStore',
      parameters: [{ name: 'StoreName', required: true }],
      description:
        'which loads the database StoreName. The StoreName can be one of the following: flights/coffee. Param example: {"StoreName":"coffee"}.',
    });
  });

  it("reads an imported API's retirement notice as a deprecation naming its successor, and renames the entry", async () => {
    const sim = createSimModel({ preset: 'oracle' });
    const ask = async (messages: ReturnType<ReturnType<typeof promptTemplate>['render']>) =>
      JSON.parse((await sim.generate({ messages, temperature: 0 })).candidates[0]!.text) as Record<
        string,
        unknown
      >;
    const tool = {
      category: 'search',
      name: 'GET_search-movie',
      description:
        'Search for movies by their original, translated and alternative titles; query is the title.',
      params: [
        { name: 'query', required: true },
        { name: 'year', required: false },
      ],
    };
    for (const gone of [
      'is no longer served',
      'was removed on 2026-03-01',
      'will be removed on 2026-03-01T12:00:00.000Z',
    ]) {
      const exploration = {
        query: 'Find the movie Lost in Translation.',
        setup: [],
        call: {
          tool: 'GET_search-movie',
          parameters: '{"query": "Lost in Translation"}',
          response: `GET_search-movie (GET /search/movie) is deprecated and ${gone}. Use getSearchFeature[find, year] (GET /v2/search/feature) instead.`,
        },
      };
      const analysis = await ask(promptTemplate('draft/analyze').render({ tool, exploration, history: [] }));
      expect(analysis.suggestions).toEqual([
        'Rename: the tool is now getSearchFeature with parameters find, year; GET_search-movie answers only with a deprecation notice.',
      ]);
      const rewritten = await ask(
        promptTemplate('draft/rewrite').render({
          tool,
          exploration,
          history: [],
          suggestions: analysis.suggestions as string[],
        }),
      );
      expect(rewritten).toMatchObject({
        name: 'getSearchFeature',
        parameters: [
          { name: 'find', required: true },
          { name: 'year', required: true },
        ],
      });
      // The old parameter's name in the description follows the rename (matched by position).
      expect(rewritten.description).toContain('find is the title');
    }
    // A notice that names no successor is a deprecation without a replacement.
    const none = await ask(
      promptTemplate('draft/analyze').render({
        tool,
        exploration: {
          query: 'q',
          setup: [],
          call: {
            tool: 'GET_search-movie',
            parameters: '{"query": "x"}',
            response: 'GET_search-movie (GET /search/movie) is deprecated and is no longer served.',
          },
        },
        history: [],
      }),
    );
    expect(none.suggestions).toEqual([
      'Deprecated: GET_search-movie is deprecated and no replacement is named.',
    ]);
  });

  it('learns s-in from the server answers: replacements, their parameters and prefixes, and loads before filters', async () => {
    const { docset, states } = await draft({});
    const line = (key: string) =>
      docsetToolList({ ...docset, tools: docset.tools.filter((t) => t.key === key) });
    expect(line('LoadDB')).toMatch(/^\(1\) InitializeDatabase\[DatabaseName\], /);
    expect(line('FilterDB')).toMatch(/^\(1\) Apply_Database_Filters\[condition1, condition2, \.\.\.\], /);
    expect(line('SQLInterpreter')).toContain('SQLCommand must start with "The SQL code is as follows:"');
    expect(line('EdgeCheck')).toContain('NodeInfos, written as "FirstNode[<node>], SecondNode[<node>]"');
    // GetValue's second exploration loads its table with the loader the first one was told to use.
    const getValue = states.find((s) => s.key === 'GetValue')!;
    expect(getValue.explorations[0]?.setup[0]).toMatchObject({ tool: 'LoadDB', outcome: 'rejected:retired' });
    expect(getValue.explorations[1]?.setup[0]).toMatchObject({ tool: 'InitializeDatabase', outcome: 'ok' });
    expect(getValue.explorations[1]?.call.outcome).toBe('ok');
    expect(docset.categories.find((c) => c.name === 'database')?.description).toContain('InitializeDatabase');
  });

  it('knobs: a rewriter that never folds keeps the stale docs (Δ = 1 at once) — a failed rewrite, flagged; an analyzer that never reads too', async () => {
    for (const skills of [{ pRewrite: 0 }, { pAnalyze: 0 }]) {
      const { docset } = await draft(skills, ['LoadDB', 'RetrieveAgenda']);
      for (const key of ['LoadDB', 'RetrieveAgenda']) {
        const t = docset.tools.find((x) => x.key === key)!;
        expect(t.doc.name).toBe(key);
        expect(t.stop).toBe('rewrite-failed');
        expect(t.flags).toEqual(['rewrite-failed', 'no-success', 'not-served']);
        expect(t.versions.map((v) => v.iteration)).toEqual([0, 1]);
        expect(t.versions[1]?.delta).toBeCloseTo(1, 12);
      }
    }
  });

  it('DRAFT documentation lets a greedy static agent solve s-in tasks the stale P_c documentation fails', async () => {
    const { docset } = await draft({});
    const tasks = (
      await generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 1, dev: 0, train: 0 }) })
    ).tasks;
    const agent = createSimModel({ preset: 'static' });
    const rate = async (docs: typeof PC_SURFACE) => {
      let correct = 0;
      for (const task of tasks) {
        const e = await runReactEpisode({
          model: agent,
          world,
          task,
          surface: S_IN_SURFACE,
          docs,
          temperature: 0,
        });
        if (e.correct) correct++;
      }
      return correct / tasks.length;
    };
    const stale = await rate(PC_SURFACE);
    const refined = await rate(docsetPromptSurface(docset, PC_SURFACE));
    expect(refined).toBeGreaterThanOrEqual(stale + 0.3);
  });
});
