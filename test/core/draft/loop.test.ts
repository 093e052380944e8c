/**
 * The per-tool DRAFT loop with a scripted model: two iterations walked by hand (a real call on the server surface,
 * a diversity rejection with its feedback, Δ from hand-computed BLEU and fixed embeddings, termination), the I
 * cap and the ablations, and resume-equivalence of chunked runs with a JSON round trip between chunks.
 */
import { describe, expect, it } from 'vitest';
import {
  draftToolEmbedRequests,
  draftToolModelCalls,
  resolveDraftOptions,
} from '../../../core/draft/config.ts';
import type { ToolDoc } from '../../../core/draft/docset.ts';
import { initialDocSet } from '../../../core/draft/docset.ts';
import {
  advanceTool,
  type DraftContext,
  type DraftToolState,
  initialToolState,
} from '../../../core/draft/loop.ts';
import { runDraft, toolStatesFor } from '../../../core/draft/run.ts';
import { LexicalEmbeddingModel } from '../../../core/models/lexical.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_IN_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { fixedEmbedder, scriptedModel } from './scripted.ts';

const world = generateWorld({ seed: 'draft-tests', scale: 0.05 });

const DOC0: ToolDoc = {
  name: 'LoadDB',
  params: [{ name: 'DBName', required: true }],
  description: 'the cat sat on the mat',
};
const LINE0 = 'LoadDB[DBName], the cat sat on the mat';
const LINE1 = 'LoadDB[DBName], the cat is on the mat';
const LINE2 = 'LoadDB[DBName], the cat is on the mat today';

function rewriteAnswer(description: string, next = 'try another database'): string {
  return JSON.stringify({
    name: 'LoadDB',
    parameters: [{ name: 'DBName', required: true }],
    description,
    explore_next: next,
  });
}

function ctxWith(
  model: DraftContext['model'],
  embedder: DraftContext['embedder'],
  server = S_IN_SURFACE,
): DraftContext {
  return { model, embedder, world, server, deps: createKernelDeps({}) };
}

describe('DRAFT loop with a scripted model', () => {
  it('walks two iterations — a rejected similar query, real calls, Δ by hand — and stops when Δ > τ (as no-success: no call worked)', async () => {
    const model = scriptedModel({
      explore: [
        JSON.stringify({ query: 'open flights', setup: [], parameters: { DBName: 'flights' } }),
        JSON.stringify({ query: 'open flights again', setup: [], parameters: { DBName: 'flights' } }),
        JSON.stringify({ query: 'open coffee', setup: [], parameters: { DBName: 'coffee' } }),
      ],
      analyze: [
        JSON.stringify({ suggestions: ['say it is deprecated'] }),
        JSON.stringify({ suggestions: ['fine'] }),
      ],
      rewrite: [rewriteAnswer('the cat is on the mat'), rewriteAnswer('the cat is on the mat today')],
    });
    const embedder = fixedEmbedder({
      [LINE0]: [1, 0, 0],
      [LINE1]: [0.6, 0.8, 0],
      [LINE2]: [0.6, 0.8, 0],
      'open flights': [1, 0, 0],
      'open flights again': [0.95, Math.sqrt(1 - 0.95 ** 2), 0],
      'open coffee': [0, 1, 0],
    });
    const options = resolveDraftOptions({ seed: 's' });
    const start = initialToolState('LoadDB', 'database', DOC0, [], options);
    const done = await advanceTool(start, ctxWith(model, embedder));

    expect(done.phase).toBe('done');
    // Δ > τ stopped the loop, but both calls met the retirement notice: nothing was confirmed by the server, so
    // the stop reason is no-success, not converged (issue 25).
    expect(done.stop).toBe('no-success');
    expect(done.flags).toEqual(['no-success']);
    expect(done.iteration).toBe(2);
    expect(model.requests.map((r) => r.role)).toEqual([
      'explore',
      'analyze',
      'rewrite',
      'explore',
      'explore',
      'analyze',
      'rewrite',
    ]);
    expect(done.modelCalls).toBe(7);
    for (const { request } of model.requests) {
      expect(request).toMatchObject({ temperature: 0.2, topP: 1, maxTokens: 2000 });
    }
    // The second exploration attempt was 0.95-similar to "open flights" (≥ φ = 0.9) and was asked again.
    expect(done.diversity).toEqual([
      { iteration: 1, attempts: 1, rejectedSimilarities: [] },
      { iteration: 2, attempts: 2, rejectedSimilarities: [expect.closeTo(0.95, 12)] },
    ]);
    expect(model.requests[4]?.text).toContain('## Too similar');
    expect(model.requests[4]?.text).toContain('- open flights again');
    // The calls really ran on s-in: LoadDB is retired there, and the analyzer saw the deprecation notice.
    expect(done.explorations.map((e) => [e.query, e.call.outcome])).toEqual([
      ['open flights', 'rejected:retired'],
      ['open coffee', 'rejected:retired'],
    ]);
    expect(model.requests[1]?.text).toMatch(/LoadDB\[DBName\] is deprecated .* Use InitializeDatabase/);
    // From iteration 2 the explorer sees the explored queries with their responses and the rewriter's direction.
    expect(model.requests[3]?.text).toContain('## Explored so far\n(1) Query: open flights');
    expect(model.requests[3]?.text).toContain('## Suggestions for exploring\ntry another database');
    expect(model.requests[5]?.text).toContain(`## Earlier versions\nv0: ${LINE0}\nv1: ${LINE1}`);

    // Δ1: tokens "loaddb[dbname], the cat sat on the mat" → "… the cat is on the mat": precisions 6/7, 4/6, 2/5
    // and a smoothed 4-gram 1/(2·5/ln 7)/4; cos 0.6.
    const bleu1 = ((6 / 7) * (4 / 6) * (2 / 5) * (Math.log(7) / 10 / 4)) ** 0.25;
    // Δ2: "… the mat today" is one token longer (BP = 1): 7/8, 6/7, 5/6, 4/5; cos 1.
    const bleu2 = ((7 / 8) * (6 / 7) * (5 / 6) * (4 / 5)) ** 0.25;
    const [v0, v1, v2] = done.versions;
    expect(v0?.delta).toBeNull();
    expect(v1?.bleu).toBeCloseTo(bleu1, 12);
    expect(v1?.cos).toBeCloseTo(0.6, 12);
    expect(v1?.delta).toBeCloseTo((bleu1 + 0.6) / 2, 12);
    expect(v1!.delta!).toBeLessThan(0.75);
    expect(v2?.bleu).toBeCloseTo(bleu2, 12);
    expect(v2?.delta).toBeCloseTo((bleu2 + 1) / 2, 12);
    expect(v2!.delta!).toBeGreaterThan(0.75);
    expect(done.doc.description).toBe('the cat is on the mat today');
  });

  it('accepts the third attempt regardless of similarity (3 attempts), and every query without diversity', async () => {
    const same = JSON.stringify({ query: 'same', setup: [], parameters: { DBName: 'flights' } });
    const script = {
      explore: [same],
      analyze: ['{"suggestions": []}'],
      rewrite: [rewriteAnswer('one'), rewriteAnswer('two words'), rewriteAnswer('three more words')],
    };
    const options = resolveDraftOptions({ iterations: 2, tau: 1 });
    const lexical = new LexicalEmbeddingModel();
    const withDiversity = scriptedModel(script);
    const a = await advanceTool(
      initialToolState('LoadDB', 'database', DOC0, [], options),
      ctxWith(withDiversity, lexical),
    );
    expect(a.diversity.at(-1)).toMatchObject({ iteration: 2, attempts: 3 });
    expect(withDiversity.requests.filter((r) => r.role === 'explore')).toHaveLength(4);

    const ablation = scriptedModel(script);
    const b = await advanceTool(
      initialToolState('LoadDB', 'database', DOC0, [], { ...options, diversity: false }),
      ctxWith(ablation, lexical),
    );
    expect(b.diversity.at(-1)).toMatchObject({ iteration: 2, attempts: 1, rejectedSimilarities: [] });
    expect(ablation.requests.filter((r) => r.role === 'explore')).toHaveLength(2);
  });

  it('stops after the first rewrite when nothing changes (Δ = 1), and runs all I = 5 without adaptive termination', async () => {
    const script = {
      explore: [JSON.stringify({ query: 'q', setup: [], parameters: { DBName: 'flights' } })],
      analyze: ['{"suggestions": []}'],
      rewrite: [rewriteAnswer('the cat sat on the mat')],
    };
    const lexical = new LexicalEmbeddingModel();
    const options = resolveDraftOptions();
    const adaptive = await advanceTool(
      initialToolState('LoadDB', 'database', DOC0, [], options),
      ctxWith(scriptedModel(script), lexical, PC_SURFACE),
    );
    expect(adaptive.stop).toBe('converged');
    expect(adaptive.versions).toHaveLength(2);
    expect(adaptive.versions[1]?.delta).toBeCloseTo(1, 12);

    const fixed = await advanceTool(
      initialToolState('LoadDB', 'database', DOC0, [], { ...options, adaptiveTermination: false }),
      ctxWith(scriptedModel(script), lexical, PC_SURFACE),
    );
    expect(fixed.stop).toBe('max-iterations');
    expect(fixed.versions).toHaveLength(6);
    expect(fixed.explorations).toHaveLength(5);
    // On P_c the call works, and its parameters become the documented example.
    expect(fixed.explorations[0]?.call.outcome).toBe('ok');
    expect(fixed.doc.example).toEqual({ DBName: 'flights' });
  });

  it('degrades gracefully on answers without JSON', async () => {
    const model = scriptedModel({
      explore: ['just words'],
      analyze: ['no json here'],
      rewrite: ['A new description.'],
    });
    const done = await advanceTool(
      initialToolState('LoadDB', 'database', DOC0, [], resolveDraftOptions({ iterations: 1 })),
      ctxWith(model, new LexicalEmbeddingModel()),
    );
    expect(done.explorations[0]).toMatchObject({ query: 'just words', call: { parameters: '{}' } });
    expect(done.doc).toMatchObject({ name: 'LoadDB', description: 'A new description.' });
    // The call without parameters never worked on s-in.
    expect(done.stop).toBe('no-success');
  });
});

describe('DRAFT with the simulator', () => {
  const sim = () => createSimModel({ preset: 'adaptive' });

  it('is deterministic: the same seed gives the same documentation set', async () => {
    const run = () =>
      runDraft({
        model: sim(),
        embedder: new LexicalEmbeddingModel(),
        world,
        docs: PC_SURFACE,
        server: S_IN_SURFACE,
        deps: createKernelDeps({}),
        options: { seed: 'det' },
        only: ['LoadDB', 'GetValue', 'EdgeCheck'],
      });
    const [a, b] = [await run(), await run()];
    expect(JSON.stringify(a.docset)).toBe(JSON.stringify(b.docset));
    expect(a.docset.simulated).toBe(true);
  });

  it('resumes: chunks of one step with a JSON round trip between them equal one run', async () => {
    const options = resolveDraftOptions({ seed: 'resume' });
    const set = initialDocSet(PC_SURFACE, S_IN_SURFACE.id, 'sim', true, options);
    for (const start of toolStatesFor(set, ['GetValue', 'NeighbourCheck'])) {
      const ctx = ctxWith(sim(), new LexicalEmbeddingModel());
      const whole = await advanceTool(start, ctx);
      let chunked: DraftToolState = start;
      let chunks = 0;
      while (chunked.phase !== 'done') {
        chunked = JSON.parse(JSON.stringify(await advanceTool(chunked, ctx, 1))) as DraftToolState;
        chunks++;
      }
      expect(chunks).toBeGreaterThan(3);
      expect(chunked).toEqual(JSON.parse(JSON.stringify(whole)));
    }
  });

  it('stays within the per-tool bounds a quota check counts: model calls and encoder requests', async () => {
    // Every query looks alike to this encoder, so φ rejects each Explorer attempt but the last: the most requests
    // φ can make. Termination off: every iteration runs.
    const options = resolveDraftOptions({
      seed: 'bounds',
      iterations: 4,
      diversityAttempts: 3,
      adaptiveTermination: false,
      failedRewrite: 'retry',
    });
    const set = initialDocSet(PC_SURFACE, S_IN_SURFACE.id, 'sim', true, options);
    for (const start of toolStatesFor(set, ['GetValue', 'LoadDB'])) {
      let requests = 0;
      const alike = {
        provider: 'test',
        model: 'alike',
        dimensions: 2,
        async embed(texts: string[]) {
          requests++;
          return texts.map(() => [1, 0]);
        },
      };
      const done = await advanceTool(start, ctxWith(sim(), alike));
      expect(done.phase).toBe('done');
      expect(done.modelCalls).toBeLessThanOrEqual(draftToolModelCalls(options) - 1); // − its category's rewrite
      expect(requests).toBeLessThanOrEqual(draftToolEmbedRequests(options));
      // From the tool's own log: φ embeds every attempt after the first iteration, Δ every rewrite.
      const attempts = done.diversity.filter((d) => d.iteration > 1).reduce((n, d) => n + d.attempts, 0);
      expect(requests).toBe(attempts + done.versions.length - 1);
      expect(attempts).toBe((options.iterations - 1) * options.diversityAttempts);
    }
  });
});
