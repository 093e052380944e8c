/**
 * A failed rewrite is not convergence (issue 25 item 17), and the analyzer and rewriter keep the paper's criteria
 * (item 18): scripted loops on s-in walked by hand — a rewrite that returns the documentation unchanged after a
 * failed call stops as `rewrite-failed` where the paper's rule stops (Δ = 1), or is explored again with
 * `failedRewrite: 'retry'`; a loop without any successful call ends as `no-success`; an unchanged rewrite after a
 * call that worked is convergence. A finished set flags names the server does not serve and never renders them as
 * current documentation; the simulator on s-ood (the case) leaves no retired name marked `converged`.
 */
import { describe, expect, it } from 'vitest';
import { resolveDraftOptions } from '../../../core/draft/config.ts';
import { initialDocSet, markServed, servesName, type ToolDoc } from '../../../core/draft/docset.ts';
import {
  advanceTool,
  type DraftContext,
  explorationSucceeded,
  initialToolState,
} from '../../../core/draft/loop.ts';
import {
  docsetJsonSchema,
  docsetMcpTools,
  docsetOpenApi,
  docsetPromptSurface,
  docsetToolList,
  flaggedTools,
  refinedDescriptions,
} from '../../../core/draft/render.ts';
import { finishDocSet, runDraft } from '../../../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import {
  DRAFT_ANALYZE_CRITERIA,
  DRAFT_REWRITE_SCOPE,
  type DraftAnalyzeInput,
} from '../../../core/prompts/draft.ts';
import { renderPrompt } from '../../../core/prompts/registry.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { scriptedModel } from './scripted.ts';

const world = generateWorld({ seed: 'draft-failed', scale: 0.05 });
const LOAD_DB: ToolDoc = {
  name: 'LoadDB',
  params: [{ name: 'DBName', required: true }],
  description: 'which loads the database DBName.',
};
const NEW_NAME = { name: 'InitializeDatabase', params: [{ name: 'DatabaseName', required: true }] };

const explore = (parameters: Record<string, unknown>, query = 'open flights') =>
  JSON.stringify({ query, setup: [], parameters });
const rewrite = (doc: { name: string; params: { name: string; required: boolean }[] }, description: string) =>
  JSON.stringify({ name: doc.name, parameters: doc.params, description, explore_next: 'more' });

function ctx(model: DraftContext['model']): DraftContext {
  return {
    model,
    embedder: new LexicalEmbeddingModel(),
    world,
    server: S_IN_SURFACE,
    deps: createKernelDeps({}),
  };
}

describe('a failed rewrite is not convergence', () => {
  it('stops as rewrite-failed where the paper stops (Δ = 1), flagged with no-success', async () => {
    const model = scriptedModel({
      explore: [explore({ DBName: 'flights' })],
      analyze: [JSON.stringify({ suggestions: ['the tool is retired'] })],
      // The rewriter ignores the evidence: the documentation comes back unchanged.
      rewrite: [rewrite(LOAD_DB, LOAD_DB.description)],
    });
    const start = initialToolState('LoadDB', 'database', LOAD_DB, [], resolveDraftOptions({ seed: 'f' }));
    const done = await advanceTool(start, ctx(model));
    expect(done.explorations[0]?.call.outcome).toBe('rejected:retired');
    expect(done.versions[1]).toMatchObject({ bleu: 1, delta: 1 });
    expect(done.iteration).toBe(1);
    expect(done.stop).toBe('rewrite-failed');
    expect(done.flags).toEqual(['rewrite-failed', 'no-success']);
  });

  it('`failedRewrite: retry` explores again; the renamed tool that then works converges', async () => {
    const renamed = { ...NEW_NAME, description: 'which loads the database DatabaseName.' };
    const model = scriptedModel({
      explore: [
        explore({ DBName: 'flights' }),
        explore({ DBName: 'coffee' }, 'open coffee'),
        explore({ DatabaseName: 'airbnb' }, 'open airbnb'),
      ],
      analyze: [JSON.stringify({ suggestions: ['x'] })],
      rewrite: [
        rewrite(LOAD_DB, LOAD_DB.description),
        rewrite(renamed, renamed.description),
        rewrite(renamed, renamed.description),
      ],
    });
    const options = resolveDraftOptions({ seed: 'r', failedRewrite: 'retry' });
    const done = await advanceTool(initialToolState('LoadDB', 'database', LOAD_DB, [], options), ctx(model));
    expect(done.explorations.map((e) => [e.call.tool, e.call.outcome])).toEqual([
      ['LoadDB', 'rejected:retired'],
      ['LoadDB', 'rejected:retired'],
      ['InitializeDatabase', 'ok'],
    ]);
    // Iteration 1's Δ = 1 did not stop the loop; iteration 3's unchanged rewrite after a working call did.
    expect(done.versions.slice(1).map((v) => v.delta === 1)).toEqual([true, false, true]);
    expect(done.stop).toBe('converged');
    expect(done.flags).toEqual([]);
    expect(done.doc.name).toBe('InitializeDatabase');
  });

  it('a loop whose calls never succeed ends as no-success, even after I rewrites', async () => {
    const model = scriptedModel({
      explore: [explore({ DBName: 'flights' }), explore({ DBName: 'coffee' }, 'now coffee')],
      analyze: [JSON.stringify({ suggestions: ['x'] })],
      rewrite: [
        rewrite(LOAD_DB, 'which opens a table of flights and airports and more.'),
        rewrite(LOAD_DB, 'which may open some data, perhaps.'),
      ],
    });
    const options = resolveDraftOptions({ seed: 'n', iterations: 2 });
    const done = await advanceTool(initialToolState('LoadDB', 'database', LOAD_DB, [], options), ctx(model));
    expect(done.versions.slice(1).every((v) => (v.delta ?? 1) <= 0.75)).toBe(true);
    expect(done.stop).toBe('no-success');
    expect(done.flags).toEqual(['no-success']);
  });

  it('a call the server accepted counts as a success even when the tool reports an error about the values', () => {
    const e = (outcome: string) => ({
      iteration: 1,
      query: 'q',
      setup: [],
      call: { tool: 'T', parameters: '{}', response: '', outcome },
    });
    expect(['ok', 'error:unknown-node', 'error:sql-error'].map((o) => explorationSucceeded(e(o)))).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      ['rejected:retired', 'rejected:param-error', 'rejected:invalid-action'].map((o) =>
        explorationSucceeded(e(o)),
      ),
    ).toEqual([false, false, false]);
  });

  it('an unchanged rewrite after a call that worked is agreement: converged', async () => {
    const doc = { ...NEW_NAME, description: 'which loads the database DatabaseName.' };
    const model = scriptedModel({
      explore: [explore({ DatabaseName: 'flights' })],
      analyze: [JSON.stringify({ suggestions: ['works'] })],
      rewrite: [rewrite(doc, doc.description)],
    });
    const start = initialToolState('LoadDB', 'database', doc, [], resolveDraftOptions({ seed: 'a' }));
    const done = await advanceTool(start, ctx(model));
    expect(done.explorations[0]?.call.outcome).toBe('ok');
    expect(done.stop).toBe('converged');
    expect(done.flags).toEqual([]);
  });
});

describe('names the server no longer serves are never current documentation', () => {
  it('flags them when the set is finished and leaves them out of every rendering', async () => {
    const model = scriptedModel({
      explore: [explore({ DBName: 'flights' })],
      analyze: [JSON.stringify({ suggestions: ['x'] })],
      rewrite: [rewrite(LOAD_DB, LOAD_DB.description)],
      summarize: [JSON.stringify({ description: 'database tools' })],
    });
    const options = resolveDraftOptions({ seed: 'set' });
    const start = initialDocSet(PC_SURFACE, 's-in', 'scripted', false, options);
    const state = await advanceTool(initialToolState('LoadDB', 'database', LOAD_DB, [], options), ctx(model));
    const { docset } = await finishDocSet(start, [state], { model, server: S_IN_SURFACE });
    const loadDb = docset.tools.find((t) => t.key === 'LoadDB');
    expect(loadDb).toMatchObject({
      stop: 'rewrite-failed',
      flags: ['rewrite-failed', 'no-success', 'not-served'],
    });
    // Every pc name is retired on s-in: only Finish and UpdateTool (served there too) remain current.
    expect(docsetToolList(docset)).toBe(
      docset.tools
        .filter((t) => t.key === 'Finish' || t.key === 'UpdateTool')
        .map(
          (t, i) =>
            `(${i + 1}) ${t.doc.name}[${t.doc.params.map((p) => p.name).join(', ')}], ${t.doc.description}`,
        )
        .join('\n'),
    );
    expect(docsetMcpTools(docset).map((t) => t.name)).toEqual(['Finish', 'UpdateTool']);
    expect(Object.keys(refinedDescriptions(docset))).toEqual(['Finish', 'UpdateTool']);
    expect((docsetJsonSchema(docset).tools as { name: string }[]).map((t) => t.name)).toEqual([
      'Finish',
      'UpdateTool',
    ]);
    expect(Object.keys(docsetOpenApi(docset).paths as object)).toHaveLength(2);
    expect(docsetPromptSurface(docset, PC_SURFACE).tools.map((t) => t.name)).toEqual([
      'Finish',
      'UpdateTool',
    ]);
    expect(flaggedTools(docset).find((f) => f.key === 'LoadDB')).toEqual({
      key: 'LoadDB',
      name: 'LoadDB',
      stop: 'rewrite-failed',
      flags: ['rewrite-failed', 'no-success', 'not-served'],
      current: false,
    });
    // A later check against a surface that serves the name clears `not-served` and keeps the run's flags.
    const onPc = markServed(docset, PC_SURFACE);
    expect(onPc.tools.find((t) => t.key === 'LoadDB')?.flags).toEqual(['rewrite-failed', 'no-success']);
    expect(docsetToolList(onPc)).toContain('LoadDB[DBName]');
  });

  it('counts a sunset tool as not served (from its sunset date on)', () => {
    const tool = S_OOD_SURFACE.tools[0];
    const sunsetting = {
      ...S_OOD_SURFACE,
      tools: [{ ...tool!, lifecycle: { status: 'active' as const, sunsetAt: '2026-03-01' } }],
    };
    expect(servesName(sunsetting, tool!.name, new Date('2026-02-01'))).toBe(true);
    expect(servesName(sunsetting, tool!.name, new Date('2026-03-02'))).toBe(false);
    expect(servesName(sunsetting, 'Unknown')).toBe(false);
  });

  it('the simulator on s-ood (the issue’s run) marks no retired name converged or current', async () => {
    const r = await runDraft({
      model: createSimModel({}),
      embedder: new LexicalEmbeddingModel(),
      world,
      docs: PC_SURFACE,
      server: S_OOD_SURFACE,
      deps: createKernelDeps({}),
      options: { seed: 'issue-25' },
    });
    const current = docsetToolList(r.docset);
    for (const t of r.docset.tools) {
      const served = servesName(S_OOD_SURFACE, t.doc.name);
      if (!served) {
        expect(t.flags, t.key).toContain('not-served');
        expect(current).not.toContain(`${t.doc.name}[`);
      }
      if (t.stop === 'converged') {
        expect(served, t.key).toBe(true);
        const state = r.states.find((s) => s.key === t.key);
        // The server accepted one of its calls (a result, or the tool's own error about the values).
        expect(state?.explorations.some(explorationSucceeded), t.key).toBe(true);
      }
    }
    // With this seed some tool's rewrite fails (the simulator's knob), as in the issue: it is said so.
    expect(r.docset.tools.filter((t) => t.stop === 'rewrite-failed').length).toBeGreaterThan(0);
  });
});

describe('the analyzer’s and rewriter’s criteria (App. Table 6)', () => {
  const input: DraftAnalyzeInput = {
    tool: { category: 'database', name: 'LoadDB', description: LOAD_DB.description, params: LOAD_DB.params },
    exploration: {
      query: 'open flights',
      setup: [],
      call: { tool: 'LoadDB', parameters: '{"DBName": "flights"}', response: 'ok' },
    },
    history: [],
  };

  it('the analyzer checks consistency, completeness and conciseness', () => {
    const text = renderPrompt('draft/analyze', input)[1]?.content ?? '';
    expect(text.split('\n## ')[0]).toBe(
      [
        'Read the documentation and the real call below, and check the documentation on three criteria:',
        '1. Consistency: does the documentation agree with what the tool really did — its name, parameters, formats and behaviour?',
        '2. Completeness: does it leave out anything a user needs to call the tool and read its result?',
        '3. Conciseness: does it contain information that is irrelevant to using the tool?',
        'Error messages, deprecation notices and the shape of the result are evidence. Suggest a change for every criterion the documentation fails.\n',
      ].join('\n'),
    );
    expect(DRAFT_ANALYZE_CRITERIA).toHaveLength(3);
  });

  it('the rewriter keeps to the tool’s functionality and omits irrelevant details', () => {
    const text = renderPrompt('draft/rewrite', { ...input, suggestions: ['drop the history of the API'] })[1]
      ?.content;
    expect(text).toContain(
      `Rewrite the documentation so that it is correct, complete and concise, using the exploration and the suggestions. ${DRAFT_REWRITE_SCOPE}`,
    );
    expect(DRAFT_REWRITE_SCOPE).toBe(
      "Keep to the tool's functionality — what it does, its parameters and their formats, what it returns — and omit details that do not help a user call it.",
    );
  });
});
