/**
 * The toolPool aid (issue 14 item 7, core/retrieval/tool-pool.ts): the surface's tools hidden among distractors,
 * the prompt documenting only the top-k retrieved per step, re-retrieval after a deprecation error, the judge's
 * gate, determinism by seed, resolution through AidContext, and the simulated policy not knowing a tool its prompt
 * does not document.
 */
import { describe, expect, it } from 'vitest';
import { runReactEpisode } from '../../../core/agents/react-loop.ts';
import { type AidContext, AidsSchema, AidUnavailableError, resolveAids } from '../../../core/aids/index.ts';
import { getMethod } from '../../../core/methods/registry.ts';
import { renderToolEvoPrompt, TURN_MARKER } from '../../../core/prompts/toolevo.ts';
import { Bm25Ranker } from '../../../core/retrieval/bm25.ts';
import { syntheticCatalog } from '../../../core/retrieval/catalog.ts';
import {
  buildToolPool,
  deprecatedToolName,
  type PoolTool,
  type ToolGate,
  ToolPoolRetriever,
} from '../../../core/retrieval/tool-pool.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { BUILTIN_SURFACES, PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { renderToolList } from '../../../core/surfaces/docs.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

const catalog = syntheticCatalog({ tools: 2_000, seed: 'pool-test' });
const distractors = catalog.tools.map(({ name, description, parameters }) => ({
  name,
  description,
  ...(parameters ? { parameters } : {}),
}));

function retriever(
  surfaces: readonly Surface[],
  o: { topK?: number; gate?: ToolGate; seed?: string; size?: number } = {},
) {
  const pool = buildToolPool({
    surfaces,
    distractors,
    size: o.size ?? 1_000,
    seed: o.seed ?? 'p',
  });
  return {
    pool,
    r: new ToolPoolRetriever({
      pool,
      ranker: new Bm25Ranker(pool),
      topK: o.topK ?? 2,
      base: surfaces[0] as Surface,
      ...(o.gate ? { gate: o.gate } : {}),
    }),
  };
}

const names = (s: Surface) => s.tools.map((t) => t.name);
const QUESTION = 'What was the coffee price range on 2010-05-03?';

describe('buildToolPool', () => {
  it('hides the surface tools (no Finish, no UpdateTool) among distractors, size tools in all, seeded', () => {
    const { pool } = retriever([S_OOD_SURFACE]);
    expect(pool.length).toBe(1_000);
    const own = pool.filter((t) => t.surface === 's-ood').map((t) => t.name);
    const served = S_OOD_SURFACE.tools.filter((t) => t.kernel !== 'Finish' && t.kernel !== 'UpdateTool');
    expect(own.sort()).toEqual(served.map((t) => t.name).sort());
    expect(pool.filter((t) => t.surface === null).length).toBe(1_000 - served.length);
    const again = buildToolPool({ surfaces: [S_OOD_SURFACE], distractors, size: 1_000, seed: 'p' });
    expect(again.map((t) => t.name)).toEqual(pool.map((t) => t.name));
    const other = buildToolPool({ surfaces: [S_OOD_SURFACE], distractors, size: 1_000, seed: 'q' });
    const at = (p: PoolTool[]) => p.flatMap((t, i) => (t.surface ? [i] : []));
    expect(at(other)).not.toEqual(at(pool));
    // Two surfaces: both versions of each tool are in the pool.
    const both = buildToolPool({ surfaces: [PC_SURFACE, S_OOD_SURFACE], distractors, size: 500, seed: 'p' });
    expect(both.map((t) => t.name)).toEqual(expect.arrayContaining(['LoadDB', 'FilterDB']));
    expect(both.filter((t) => t.surface === 's-ood').length).toBe(served.length);
  });
});

describe('ToolPoolRetriever', () => {
  it('documents only the top-k tools retrieved for the question, then the control actions', async () => {
    const { r } = retriever([S_OOD_SURFACE], { topK: 2 });
    const docs = await r.docsFor(QUESTION, []);
    expect(docs.tools.length).toBe(4);
    expect(docs.tools.slice(2).map((t) => t.kernel)).toEqual(
      S_OOD_SURFACE.tools
        .filter((t) => t.kernel === 'Finish' || t.kernel === 'UpdateTool')
        .map((t) => t.kernel),
    );
    const { tools, trace } = await r.retrieveFor(QUESTION, []);
    expect(trace).toEqual([{ step: 0, kind: 'step', query: QUESTION, tools: tools.map((t) => t.name) }]);
    expect(names(docs).slice(0, 2)).toEqual(tools.map((t) => t.name));
    // The prompt's tool list shows these four lines and nothing else of the pool.
    expect(renderToolList(docs).split('\n')).toHaveLength(4);
    const one = await retriever([S_OOD_SURFACE], { topK: 1 }).r.docsFor(QUESTION, []);
    expect(one.tools).toHaveLength(3);
  });

  it('adds the tools retrieved at later steps (question + the previous step) and keeps the earlier ones', async () => {
    const { r } = retriever([S_OOD_SURFACE], { topK: 1 });
    const first = names(await r.docsFor(QUESTION, []));
    const step = {
      text: 'Thought: I filter the coffee rows of that date.\nAction: filter_rows\nAction Input: {"condition": "Date=2010-05-03"}',
      observation: 'Error: invalid action',
    };
    const { trace } = await r.retrieveFor(QUESTION, [step]);
    expect(trace.map((t) => t.kind)).toEqual(['step', 'step']);
    expect(trace[1]?.query).toBe(`${QUESTION}\n${step.text}`);
    const later = names(await r.docsFor(QUESTION, [step]));
    expect(later.slice(0, 1)).toEqual(first.slice(0, 1));
    expect(later).toContain(trace[1]?.tools[0]);
  });

  it('re-retrieves from the retired tool after a deprecation error, whatever the gate says', async () => {
    const never: ToolGate = { id: 'never', needsTool: async () => false };
    const { r } = retriever([PC_SURFACE, S_OOD_SURFACE], { topK: 1, gate: never });
    expect(await r.retrieveFor(QUESTION, [])).toEqual({ tools: [], trace: [] });
    const loadDb = S_OOD_SURFACE.retired.find((x) => x.name === 'LoadDB');
    if (!loadDb) throw new Error('s-ood retires LoadDB');
    expect(deprecatedToolName(loadDb.message)).toBe('LoadDB');
    const step = { text: 'Action: LoadDB\nAction Input: {"DBName": "coffee"}', observation: loadDb.message };
    const { tools, trace } = await r.retrieveFor(QUESTION, [step]);
    expect(trace).toHaveLength(1);
    expect(trace[0]?.kind).toBe('deprecation');
    expect(trace[0]?.query).toContain(PC_SURFACE.tools.find((t) => t.name === 'LoadDB')?.description);
    expect(tools.map((t) => t.name)).toEqual([loadDb.successor]);
  });

  it('retrieves only at the steps the judge gates in', async () => {
    const seen: string[] = [];
    const firstOnly: ToolGate = {
      id: 'first-only',
      needsTool: async (text) => {
        seen.push(text);
        return !text.includes('\n');
      },
    };
    const { r } = retriever([S_OOD_SURFACE], { topK: 1, gate: firstOnly });
    const step = { text: 'Thought: now the values\nAction: x\nAction Input: {}', observation: 'Error' };
    const { trace } = await r.retrieveFor(QUESTION, [step, step]);
    expect(trace.map((t) => t.step)).toEqual([0]);
    expect(seen[0]).toBe(QUESTION);
    expect(seen[1]).toBe(`${QUESTION}\n${step.text}\nObservation: ${step.observation}`);
  });
});

/**
 * The actions the worked examples of a prompt take that its tool list does not document: each example's
 * `Action:` names, less the documented names and the successors that example's own deprecation messages name.
 */
function undocumentedInExamples(prompt: string, docs: Surface): string[] {
  const start = prompt.indexOf('Here are some examples:');
  if (start < 0) return [];
  const block = prompt.slice(start, prompt.indexOf(TURN_MARKER));
  const out: string[] = [];
  for (const example of block.split(
    /\n\n(?=Question: |Thought: The database is loaded|Thought: I need the Price)/,
  )) {
    const known = new Set(docs.tools.map((t) => t.name));
    for (const line of example.split('\n')) {
      for (const m of line.matchAll(/\bUse (\w+)\[/g)) known.add(m[1] as string);
      const action = /^Action: (.+)$/.exec(line)?.[1];
      if (action !== undefined && !known.has(action)) out.push(action);
    }
  }
  return out;
}

describe('pooled prompts and their worked examples (issue 25 item 21)', () => {
  const COFFEE = 'What was the average closing price of coffee over the first week of March 2015?';
  const pcTools = PC_SURFACE.tools.filter((t) => t.kernel !== 'Finish' && t.kernel !== 'UpdateTool');

  it('never show a call of a tool the prompt does not document (fixed and per-call examples)', async () => {
    for (const topK of [1, 2, 3]) {
      const docs = await retriever([PC_SURFACE], { topK }).r.docsFor(COFFEE, []);
      expect(docs.retrieved).toEqual({ pool: 1_000 });
      expect(docs.tools.length).toBeLessThan(PC_SURFACE.tools.length);
      const prompts = [
        renderToolEvoPrompt({ question: COFFEE, docs }),
        ...['a', 'b', 'c', 'd', 'e', 'f'].map((seed) =>
          renderToolEvoPrompt({ question: COFFEE, docs, fewShots: { dataset: 'coffee', seed } }),
        ),
      ];
      for (const prompt of prompts) expect(undocumentedInExamples(prompt, docs)).toEqual([]);
      // The same documentation without the retrieval mark falls back to P_c names — the leak this guards.
      const { retrieved: _, ...unmarked } = docs;
      expect(
        undocumentedInExamples(renderToolEvoPrompt({ question: COFFEE, docs: unmarked }), docs),
      ).not.toEqual([]);
    }
  });

  it('shows the examples whose tools were retrieved, written with the retrieved names', async () => {
    // A pool of the surface's tools only, every one retrieved: the three fixed examples, in P_c names.
    const only = { topK: pcTools.length, size: pcTools.length };
    const all = await retriever([PC_SURFACE], only).r.docsFor(COFFEE, []);
    const full = renderToolEvoPrompt({ question: COFFEE, docs: all });
    // Three examples, the format block's line and the question.
    expect(full.match(/^Question: /gm)).toHaveLength(5);
    expect(full).toContain('Action: LoadDB');
    expect(undocumentedInExamples(full, all)).toEqual([]);
    // Pooled s-ood documentation: the examples call s-ood's names, never P_c's.
    const oodTools = S_OOD_SURFACE.tools.filter((t) => t.kernel !== 'Finish' && t.kernel !== 'UpdateTool');
    const ood = await retriever([S_OOD_SURFACE], { topK: oodTools.length, size: oodTools.length }).r.docsFor(
      COFFEE,
      [],
    );
    const oodPrompt = renderToolEvoPrompt({ question: COFFEE, docs: ood });
    expect(oodPrompt.match(/^Question: /gm)).toHaveLength(5);
    expect(oodPrompt).not.toMatch(/^Action: (LoadDB|FilterDB|GetValue)$/m);
    expect(undocumentedInExamples(oodPrompt, ood)).toEqual([]);
  });

  it('drops the examples heading when no example fits', async () => {
    const never: ToolGate = { id: 'never', needsTool: async () => false };
    const docs = await retriever([PC_SURFACE], { gate: never }).r.docsFor(COFFEE, []);
    expect(docs.tools.map((t) => t.kernel)).toEqual(['Finish', 'UpdateTool']);
    const prompt = renderToolEvoPrompt({ question: COFFEE, docs });
    expect(prompt).not.toContain('Here are some examples:');
    expect(prompt).not.toMatch(/^Action: (?!the tool to use)/m);
    expect(prompt).toContain(`${TURN_MARKER}\n\nQuestion: ${COFFEE}`);
  });
});

describe('the simulated policy and undocumented tools', () => {
  it('invents a name for a tool its prompt does not document, never the P_c name', async () => {
    const world = generateWorld({ seed: 'pool', scale: 0.05 });
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 1, dev: 0, train: 0 }),
    });
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    const docs: Surface = { ...PC_SURFACE, tools: PC_SURFACE.tools.filter((t) => t.name !== 'LoadDB') };
    const episode = await runReactEpisode({
      model: createSimModel({ preset: 'oracle' }),
      world,
      task,
      surface: PC_SURFACE,
      docs,
      deps: createKernelDeps({ gold: task.gold }),
      maxSteps: 3,
    });
    const actions = episode.steps.map((s) => s.action);
    expect(actions).not.toContain('LoadDB');
    expect(actions[0]).toBe('load_database');
    expect(episode.steps[0]?.outcome.kind).toBe('rejected');
  });
});

describe('resolution and use by methods', () => {
  const world = generateWorld({ seed: 'pool', scale: 0.05 });
  const ctx: AidContext = {
    surface: async (id) => BUILTIN_SURFACES.find((s) => s.id === id) ?? null,
    docset: async () => null,
    toolset: async (id, limit) => (id === 'catalog' ? distractors.slice(0, limit) : null),
  };

  it('resolves through AidContext, answering an unknown toolset or surface at its field', async () => {
    const ok = await resolveAids(
      AidsSchema.parse({ toolPool: { pool: 'catalog', size: 300, topK: 3 } }),
      's-ood',
      ctx,
    );
    expect(ok.toolPool?.size).toBe(300);
    expect(ok.toolPool?.topK).toBe(3);
    expect(ok.toolPool?.gate).toBe('always');
    const fails: [unknown, string][] = [
      [{ toolPool: { pool: 'nope' } }, 'aids.toolPool.pool'],
      [{ toolPool: { pool: 'catalog', surfaces: ['pc', 'no-such'] } }, 'aids.toolPool.surfaces.1'],
    ];
    for (const [aids, field] of fails) {
      const err = await resolveAids(AidsSchema.parse(aids), 's-ood', ctx).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AidUnavailableError);
      expect((err as AidUnavailableError).field).toBe(field);
    }
    const noCtx = await resolveAids(AidsSchema.parse({ toolPool: { pool: 'catalog' } }), 's-ood', {
      surface: ctx.surface,
      docset: ctx.docset,
    }).catch((e: unknown) => e);
    expect((noCtx as Error).message).toMatch(/not available yet here/);
  });

  it('greedy and mcts read only the retrieved tools, deterministically', async () => {
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 1, dev: 0, train: 0 }),
    });
    const task = tasks.find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    const aids = AidsSchema.parse({ toolPool: { pool: 'catalog', size: 500, topK: 2 } });
    for (const id of ['greedy', 'mcts'] as const) {
      const prompts: string[] = [];
      const sim = createSimModel({ preset: 'adaptive' });
      const model = {
        ...sim,
        generate: (req: Parameters<typeof sim.generate>[0], signal?: AbortSignal) => {
          prompts.push(req.messages.map((m) => m.content).join('\n'));
          return sim.generate(req, signal);
        },
      };
      const run = async () =>
        getMethod(id).run({
          task: {
            id: task.id,
            question: task.question,
            gold: task.gold,
            dataset: 'coffee',
            difficulty: 'easy',
          },
          options: getMethod(id).options.parse(id === 'mcts' ? { simulations: 2, k: 2, maxDepth: 8 } : {}),
          model,
          world,
          surface: S_OOD_SURFACE,
          deps: createKernelDeps({ gold: task.gold }),
          aids: await resolveAids(aids, 's-ood', ctx),
          limits: { maxSteps: 8 },
          seeds: { model: 7, search: 'pool-test' },
        });
      const a = await run();
      const first = prompts[0] ?? '';
      // The first prompt lists 2 retrieved tools + Finish + UpdateTool (numbered 1–4), not the whole surface.
      expect(first).toContain('(4) ');
      expect(first).not.toMatch(/^\(5\) /m);
      const b = await run();
      expect(b.steps.map((s) => s.text)).toEqual(a.steps.map((s) => s.text));
      expect(b.answer).toBe(a.answer);
    }
  });
});
