/**
 * ToolEvo's search settings as the paper and its authors' code run them (issue 17, items 1–4 and 9), each pinned
 * on a hand-built tree or a scripted provider, with tooldrift's variants as named options.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTextModel } from '../../../core/models/factory.ts';
import type { Candidate, GenerateRequest, GenerateResponse, TextModel } from '../../../core/models/types.ts';
import { TOOLEVO_FEW_SHOTS } from '../../../core/prompts/few-shots.ts';
import { renderToolEvoPrompt } from '../../../core/prompts/toolevo.ts';
import { answerLeaf } from '../../../core/search/answer.ts';
import { depthExceeded, depthFor, toolevoCodeDepth } from '../../../core/search/config.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import { candidatePriors, selectChild } from '../../../core/search/puct.ts';
import { blankNode, node, type SearchNode, type SearchTree } from '../../../core/search/tree.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { Rng } from '../../../core/util/random.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { completion, type FakeServer, startFakeOpenAI } from '../models/fake-openai-server.ts';
import { type ScriptedCandidate, scriptedModel, stepText } from './scripted.ts';

const WORLD = generateWorld({ seed: 'search-unit', scale: 0.1 });
const Q = 'What is the answer?';
const ponder = (tag: string, p?: number): ScriptedCandidate => ({
  tag,
  action: 'Ponder',
  input: '{"x": 1}',
  p,
});
const env = (tree: SearchTree, model: TextModel) =>
  searchEnv(tree, { model, world: WORLD, surface: PC_SURFACE });

function child(tree: SearchTree, parent: number, over: Partial<SearchNode>): SearchNode {
  const n: SearchNode = { ...blankNode(tree.nodes.length, parent, node(tree, parent).depth + 1), ...over };
  tree.nodes.push(n);
  node(tree, parent).children.push(n.id);
  return n;
}

describe('item 1: depth cut-off', () => {
  it('compares like Algorithm 1 (depth > T) by default, like the code (parent depth > T) or tooldrift (>= T) as options', async () => {
    // A chain of non-Finish steps: each state has one child.
    const script: Record<string, ScriptedCandidate[]> = { root: [ponder('s1')] };
    for (let i = 1; i < 10; i++) script[`s${i}`] = [ponder(`s${i + 1}`)];
    const depthOfEnd = async (depthRule: 'paper' | 'code' | 'tooldrift') => {
      const tree = createSearch(
        { question: Q, gold: '42' },
        { k: 1, simulations: 1, maxDepth: 3, depthRule },
      );
      await runSearch(tree, env(tree, scriptedModel(Q, script)));
      const end = tree.nodes.find((n) => n.ending === 'depth');
      return { depth: end?.depth, reward: end?.reward };
    };
    expect(await depthOfEnd('paper')).toEqual({ depth: 4, reward: -1 });
    expect(await depthOfEnd('code')).toEqual({ depth: 5, reward: -1 });
    expect(await depthOfEnd('tooldrift')).toEqual({ depth: 3, reward: -1 });
    expect([3, 4, 5].map((d) => depthExceeded(d, 3, 'paper'))).toEqual([false, true, true]);
  });

  it("offers the authors' per-dataset table as the preset 'toolevo-code'", () => {
    expect(toolevoCodeDepth('agenda', 'easy')).toBe(8);
    expect(toolevoCodeDepth('scirex', 'easy')).toBe(6);
    expect(toolevoCodeDepth('scirex', 'hard')).toBe(6);
    for (const d of ['flights', 'coffee', 'airbnb', 'yelp', 'dblp']) {
      expect(toolevoCodeDepth(d, 'easy')).toBe(15);
      expect(toolevoCodeDepth(d, 'hard')).toBe(20);
    }
    expect(toolevoCodeDepth('agenda', 'hard')).toBe(20);
    expect(depthFor('toolevo-code', { dataset: 'agenda', difficulty: 'easy' })).toEqual({
      maxDepth: 8,
      depthRule: 'code',
    });
    expect(depthFor('paper', { dataset: 'agenda', difficulty: 'easy' })).toEqual({
      maxDepth: 15,
      depthRule: 'paper',
    });
  });
});

describe('item 2: raw vs normalised priors', () => {
  const c = (text: string, p: number) => ({
    text,
    candidate: { text, finishReason: 'stop' as const, logprob: { sum: 3 * Math.log(p), count: 3 } },
  });

  it('keeps raw exp(mean log-prob) and the first of duplicates by default; normalises and adds as an option', () => {
    const raw = candidatePriors([c('a', 0.6), c('b', 0.2), c('a', 0.3)], 'raw');
    expect(raw.map((r) => r.text)).toEqual(['a', 'b']);
    expect(raw.map((r) => r.prior)).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.2, 12)]);
    const norm = candidatePriors([c('a', 0.6), c('b', 0.2), c('a', 0.3)], 'normalised');
    expect(norm.map((r) => r.prior)).toEqual([expect.closeTo(0.9 / 1.1, 12), expect.closeTo(0.2 / 1.1, 12)]);
  });

  it('changes the PUCT choice as computed by hand', () => {
    // Three candidates of probability 0.9: raw priors 0.9 each, normalised 1/3 each.
    // Visits (N, W): A (3, 2), B (1, 0), C (0, 0); Σ N = 4, √4 = 2, c = 1.25.
    // raw:        A 2/3 + 1.25·0.9·2/4 = 1.229   B 0 + 1.25·0.9·2/2 = 1.125   C 1.25·0.9·2 = 2.25  → C
    // normalised: A 2/3 + 1.25·(1/3)·2/4 = 0.875 B 0.417                      C 0.833            → A
    const choose = (mode: 'raw' | 'normalised') => {
      const tree = createSearch({ question: Q, gold: '42' });
      const priors = candidatePriors([c('A', 0.9), c('B', 0.9), c('C', 0.9)], mode);
      const [a, b, cc] = priors.map((p) => child(tree, 0, { text: p.text, prior: p.prior }));
      Object.assign(a as SearchNode, { visits: 3, value: 2 });
      Object.assign(b as SearchNode, { visits: 1, value: 0 });
      void cc;
      return selectChild(tree, node(tree, 0), new Rng(1))?.text;
    };
    expect(choose('raw')).toBe('C');
    expect(choose('normalised')).toBe('A');
  });
});

/** A provider that answers the root with the given texts (and nothing else). */
function fixedModel(texts: string[]): TextModel & { calls: GenerateRequest[] } {
  const calls: GenerateRequest[] = [];
  return {
    provider: 'scripted',
    model: 'scripted',
    capabilities: { n: true, logprobs: false, seed: true, embeddings: false, simulated: true },
    calls,
    async generate(request): Promise<GenerateResponse> {
      calls.push(request);
      const candidates: Candidate[] = texts.map((text) => ({ text, finishReason: 'stop' }));
      return {
        candidates,
        model: 'scripted',
        usage: { calls: 1, inputTokens: 1, outputTokens: 1, latencyMs: 0, costUsd: 0 },
      };
    },
  };
}

describe('item 3: empty generations', () => {
  const good = stepText({ tag: 'a', action: 'Finish', input: '{"answer": "42"}' });

  it('one empty sample among k makes the state terminal with −1, back-propagated', async () => {
    const tree = createSearch({ question: Q, gold: '42' }, { k: 2, simulations: 3 });
    await runSearch(tree, env(tree, fixedModel([good, '  '])));
    expect(tree.nodes).toHaveLength(1);
    expect(node(tree, 0)).toMatchObject({
      terminal: true,
      ending: 'empty',
      reward: -1,
      visits: 1,
      value: -1,
    });
    expect(tree.stopReason).toBe('exhausted');
  });

  it("with emptyCandidates 'all' the non-empty sample still becomes a child", async () => {
    const tree = createSearch({ question: Q, gold: '42' }, { k: 2, simulations: 3, emptyCandidates: 'all' });
    await runSearch(tree, env(tree, fixedModel([good, ''])));
    expect(tree.nodes).toHaveLength(2);
    expect(node(tree, 1)).toMatchObject({ ending: 'finish', reward: 1 });
  });

  it('a prompt over the word limit is an empty generation: no call, −1', async () => {
    const model = fixedModel([good]);
    const tree = createSearch({ question: Q, gold: '42' }, { k: 1, simulations: 2, promptWordLimit: 50 });
    await runSearch(tree, env(tree, model));
    expect(model.calls).toHaveLength(0);
    expect(node(tree, 0)).toMatchObject({ ending: 'empty', reward: -1, visits: 1, value: -1 });
  });
});

describe('item 4: sampling settings reach an OpenAI-compatible server', () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeOpenAI();
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends temperature 0.5 and frequency_penalty 1.2 by default', async () => {
    server.script({
      json: completion([
        { text: stepText({ tag: 'a', action: 'Finish', input: '{"answer": "42"}' }), logprobs: [-0.1] },
      ]),
    });
    const model = createTextModel(
      { provider: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-test', model: 'llama-3-8b' },
      { sleep: async () => {}, seed: 'fp' },
    );
    const tree = createSearch({ question: Q, gold: '42' }, { k: 1, simulations: 1 });
    await runSearch(tree, env(tree, model));
    expect(server.received[0]?.body).toMatchObject({
      temperature: 0.5,
      frequency_penalty: 1.2,
      stop: ['Observation:'],
    });
    expect(tree.config.frequencyPenalty).toBe(1.2);
  });
});

describe('item 9: answer selection without gold', () => {
  it('returns the most visited Finish (ties by Q); the oracle returns the correct one', () => {
    const tree = createSearch({ question: Q, gold: '42' });
    const s = child(tree, 0, { visits: 3, value: 1 });
    const right = child(tree, s.id, { ending: 'finish', terminal: true, reward: 1, visits: 1, value: 1 });
    const wrong = child(tree, s.id, { ending: 'finish', terminal: true, reward: -1, visits: 2, value: -2 });
    right.state = { ...right.state, answer: '42' };
    wrong.state = { ...wrong.state, answer: '7' };
    expect(answerLeaf(tree)).toBe(wrong.id);
    expect(answerLeaf(tree, 'visits')).toBe(wrong.id);
    expect(answerLeaf(tree, 'oracle')).toBe(right.id);
    // Equal visits: the higher Q wins.
    wrong.visits = 1;
    wrong.value = -1;
    expect(answerLeaf(tree)).toBe(right.id);
  });
});

describe('item 5: few-shots per dataset, drawn per call by seed', () => {
  const render = (dataset: string | undefined, seed: string) =>
    renderToolEvoPrompt({ question: Q, docs: PC_SURFACE, fewShots: { dataset, seed } });
  // Question lines: the examples', the format block's and the task's.
  const examplesOf = (prompt: string) => (prompt.match(/^Question: /gm) ?? []).length - 2;

  it('shows one UpdateTool example and two examples of the dataset, the same for the same seed', () => {
    const a = render('coffee', 's/node/1');
    expect(a).toBe(render('coffee', 's/node/1'));
    expect(examplesOf(a)).toBe(2);
    expect((a.match(/Action: UpdateTool/g) ?? []).length).toBe(1);
    expect(a).toContain(TOOLEVO_FEW_SHOTS.find((e) => e.dataset === 'coffee')?.question);
    const draws = new Set(Array.from({ length: 12 }, (_, i) => render('coffee', `s/node/${i}`)));
    expect(draws.size).toBeGreaterThan(1);
    // Without per-call few-shots: tooldrift's three fixed examples and no UpdateTool example.
    const fixed = renderToolEvoPrompt({ question: Q, docs: PC_SURFACE });
    expect(examplesOf(fixed)).toBe(3);
    expect(fixed).not.toContain('Action: UpdateTool');
  });

  it('draws again for every generation call of a search, seeded by the expanded state', async () => {
    const model = scriptedModel(Q, { root: [ponder('a'), ponder('b')], a: [ponder('c')], b: [ponder('d')] });
    const tree = createSearch(
      { question: Q, gold: '42', dataset: 'agenda' },
      { k: 2, simulations: 2, seed: 'fs' },
    );
    await runSearch(tree, env(tree, model));
    const heads = model.calls.map((c) => c.prompt.slice(0, c.prompt.lastIndexOf('Now it is your turn.')));
    expect(heads.length).toBeGreaterThan(2);
    expect(new Set(heads).size).toBeGreaterThan(1);
    for (const p of model.calls.map((c) => c.prompt)) {
      expect((p.match(/Action: UpdateTool/g) ?? []).length).toBe(1);
      expect(p).toContain(TOOLEVO_FEW_SHOTS.find((e) => e.dataset === 'agenda')?.question);
    }
  });
});
