import { describe, expect, it } from 'vitest';
import { TOOLDRIFT_SEARCH_VARIANT } from '../../../core/search/config.ts';
import { createSearch, runSearch, searchEnv, summarizeSearch } from '../../../core/search/mcts.ts';
import { mergedPriors, puctScore, selectChild } from '../../../core/search/puct.ts';
import {
  node,
  parseTree,
  type SearchNode,
  type SearchTree,
  serializeTree,
} from '../../../core/search/tree.ts';
import { PC_SURFACE } from '../../../core/surfaces/builtin.ts';
import { Rng } from '../../../core/util/random.ts';
import { initialState } from '../../../core/world/kernel/state.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { type ScriptedCandidate, scriptedModel } from './scripted.ts';

const WORLD = generateWorld({ seed: 'search-unit', scale: 0.1 });
const Q = 'What is the answer?';
const finish = (tag: string, answer: string, p?: number): ScriptedCandidate => ({
  tag,
  action: 'Finish',
  input: JSON.stringify({ answer }),
  p,
});
const invalid = (tag: string, p?: number): ScriptedCandidate => ({
  tag,
  action: 'Ponder',
  input: '{"x": 1}',
  p,
});

function fakeNode(id: number, visits: number, value: number, prior: number, terminal = false): SearchNode {
  return {
    id,
    parent: 0,
    children: [],
    depth: 1,
    text: '',
    observation: '',
    prompt: null,
    outcome: null,
    state: initialState(),
    prior,
    visits,
    value,
    expanded: false,
    terminal,
    reward: null,
    ending: null,
  };
}

describe('PUCT and priors', () => {
  it('scores eq. 2 with N(s) = Σ children N and picks the maximum, skipping terminal children', () => {
    const tree = createSearch({ question: Q, gold: '42' });
    // children: (N, W, P) = (3, 1, 0.5), (1, 0, 0.3), (0, 0, 0.2), terminal (0, 0, 0.9)
    const kids = [
      fakeNode(1, 3, 1, 0.5),
      fakeNode(2, 1, 0, 0.3),
      fakeNode(3, 0, 0, 0.2),
      fakeNode(4, 0, 0, 0.9, true),
    ];
    tree.nodes.push(...kids);
    const root = node(tree, 0);
    root.children = [1, 2, 3, 4];
    // √4 = 2: 1/3 + 1.25·0.5·2/4 = 0.6458; 0 + 1.25·0.3·2/2 = 0.375; 0 + 1.25·0.2·2/1 = 0.5
    expect(puctScore(kids[0] as SearchNode, 4, 1.25)).toBeCloseTo(1 / 3 + 0.3125, 12);
    expect(puctScore(kids[1] as SearchNode, 4, 1.25)).toBeCloseTo(0.375, 12);
    expect(puctScore(kids[2] as SearchNode, 4, 1.25)).toBeCloseTo(0.5, 12);
    expect(selectChild(tree, root, new Rng(1))?.id).toBe(1);
    // Raising child 3's prior to 0.4 makes it win: 1.0 > 0.6458.
    (kids[2] as SearchNode).prior = 0.4;
    expect(selectChild(tree, root, new Rng(1))?.id).toBe(3);
    for (const k of kids.slice(0, 3)) k.terminal = true;
    expect(selectChild(tree, root, new Rng(1))).toBeNull();
  });

  it('breaks ties by the seeded stream: repeatable per seed, both sides reachable', () => {
    const tree = createSearch({ question: Q, gold: '42' });
    tree.nodes.push(fakeNode(1, 1, 0, 0.5), fakeNode(2, 1, 0, 0.5));
    node(tree, 0).children = [1, 2];
    const picks = Array.from({ length: 20 }, (_, i) => selectChild(tree, node(tree, 0), new Rng(i))?.id);
    expect(picks).toEqual(
      Array.from({ length: 20 }, (_, i) => selectChild(tree, node(tree, 0), new Rng(i))?.id),
    );
    expect(new Set(picks)).toEqual(new Set([1, 2]));
  });

  it('normalises geometric-mean probabilities over merged siblings, uniform without log-probs', () => {
    const c = (text: string, p?: number) => ({
      text,
      candidate:
        p === undefined
          ? { text, finishReason: 'stop' as const }
          : { text, finishReason: 'stop' as const, logprob: { sum: 2 * Math.log(p), count: 2 } },
    });
    const merged = mergedPriors([c('a', 0.6), c('b', 0.2), c('a', 0.2)]);
    expect(merged.map((m) => m.text)).toEqual(['a', 'b']);
    expect(merged[0]?.prior).toBeCloseTo(0.8, 12);
    expect(merged[1]?.prior).toBeCloseTo(0.2, 12);
    const uniform = mergedPriors([c('a'), c('b'), c('a'), c('c')]);
    expect(uniform.map((m) => m.prior)).toEqual([0.5, 0.25, 0.25]);
  });
});

function env(tree: SearchTree, model: ReturnType<typeof scriptedModel>) {
  return searchEnv(tree, { model, world: WORLD, surface: PC_SURFACE });
}

const stats = (tree: SearchTree) => tree.nodes.map((n) => [n.visits, n.value]);

describe('the search loop on a scripted provider', () => {
  const script = {
    root: [finish('a', '42', 0.6), invalid('b', 0.2)],
    b: [finish('c', '7', 0.5), finish('d', '8', 0.3)],
  };

  it('expands, rolls out, reuses cached rollout states and back-propagates eq. 4 after every iteration', async () => {
    const model = scriptedModel(Q, script);
    const tree = createSearch(
      { question: Q, gold: '42' },
      { ...TOOLDRIFT_SEARCH_VARIANT, k: 2, simulations: 10, seed: 's' },
    );
    const e = env(tree, model);

    await runSearch(tree, e, { maxIterations: 1 });
    // ids: 0 root, 1 a (+1, prior .75), 2 b (error state, prior .25), 3 c, 4 d (cached rollout children of b)
    expect(tree.nodes.map((n) => n.text.split(' ')[1])).toEqual([undefined, 'a', 'b', 'c', 'd']);
    expect(tree.nodes.map((n) => n.prior)).toEqual(
      [1, 0.75, 0.25, 0.625, 0.375].map((x) => expect.closeTo(x, 12)),
    );
    expect(stats(tree)).toEqual([
      [2, 0],
      [1, 1],
      [1, -1],
      [0, 0],
      [0, 0],
    ]);
    expect(model.calls.map((c) => c.key)).toEqual(['root', 'b']);
    // b was an invalid action: its expansion used the reflection prompt.
    expect(model.calls[1]?.prompt).toContain('Reflection:');
    expect(node(tree, 3).prompt).toBe('toolevo/reflection');
    expect(model.calls[0]?.request).toMatchObject({
      n: 2,
      temperature: 0.5,
      stop: ['Observation:'],
      logprobs: true,
    });

    // Iteration 2: a is terminal, so b is selected; its children all have N = 0 (cached) → evaluated, no call.
    await runSearch(tree, e, { maxIterations: 1 });
    expect(stats(tree)).toEqual([
      [4, -2],
      [1, 1],
      [3, -3],
      [1, -1],
      [1, -1],
    ]);
    expect(model.calls).toHaveLength(2);

    // Iteration 3: every child of b is terminal → b is exhausted; iteration 4 finds the root exhausted.
    const rest = await runSearch(tree, e);
    expect(rest).toMatchObject({ iterations: 2, modelCalls: 0, done: true });
    expect(tree.stopReason).toBe('exhausted');
    expect(node(tree, 2)).toMatchObject({ terminal: true, ending: 'exhausted' });
    expect(stats(tree)).toEqual([
      [4, -2],
      [1, 1],
      [3, -3],
      [1, -1],
      [1, -1],
    ]);
    expect(summarizeSearch(tree)).toMatchObject({ success: true, solutions: [1], bestPath: [2, 3] });
  });

  it("rolls out every new child by default (the authors' code) and one random new child with rollout: 'one' (Alg. 1)", async () => {
    // root → a (invalid), b (invalid), c (Finish 42, correct); a → x (Finish 1); b → y (Finish 2).
    const three = {
      root: [invalid('a', 0.5), invalid('b', 0.5), finish('c', '42', 0.5)],
      a: [finish('x', '1', 0.5)],
      b: [finish('y', '2', 0.5)],
    };
    const all = createSearch({ question: Q, gold: '42' }, { k: 3, simulations: 10, seed: 'r' });
    const allModel = scriptedModel(Q, three);
    await runSearch(all, env(all, allModel), { maxIterations: 1 });
    // Every root child evaluated: a and b rolled out to their wrong Finish (−1 each), c is +1.
    expect(all.config.rollout).toBe('all');
    expect(node(all, 0)).toMatchObject({ visits: 3, value: -1 });
    expect([1, 2, 3].map((id) => node(all, id).visits)).toEqual([1, 1, 1]);
    expect(allModel.calls.map((c) => c.key)).toEqual(['root', 'a', 'b']);

    const picked = new Set<number>();
    for (const seed of ['r', 's', 't', 'u', 'v', 'w']) {
      const one = createSearch({ question: Q, gold: '42' }, { k: 3, simulations: 10, seed, rollout: 'one' });
      const oneModel = scriptedModel(Q, three);
      await runSearch(one, env(one, oneModel), { maxIterations: 1 });
      // One child evaluated and back-propagated; its siblings stay at N = 0 (not rolled out: no model call).
      expect(node(one, 0).visits).toBe(1);
      const visited = [1, 2, 3].filter((id) => node(one, id).visits === 1);
      expect(visited).toHaveLength(1);
      expect([1, 2, 3].filter((id) => node(one, id).visits === 0)).toHaveLength(2);
      const chosen = visited[0] as number;
      picked.add(chosen);
      expect(node(one, 0).value).toBe(chosen === 3 ? 1 : -1);
      expect(oneModel.calls).toHaveLength(chosen === 3 ? 1 : 2);
      // Iteration 2: selection reaches an unvisited sibling through PUCT (Q = 0 beats a −1, or c's +1 wins).
      await runSearch(one, env(one, oneModel), { maxIterations: 1 });
      expect(node(one, 0).visits).toBe(2);
    }
    // The choice is random: over six seeds more than one child was chosen.
    expect(picked.size).toBeGreaterThan(1);
  });

  it('without cached rollout calls the model again for a state the rollout had reached', async () => {
    const model = scriptedModel(Q, script);
    const tree = createSearch(
      { question: Q, gold: '42' },
      { k: 2, simulations: 10, seed: 's', cachedRollout: false },
    );
    await runSearch(tree, env(tree, model), { maxIterations: 2 });
    expect(model.calls.map((c) => c.key)).toEqual(['root', 'b', 'b']);
    expect(tree.nodes).toHaveLength(5);
  });

  it('scopes UpdateTool lines to the subtree of the node that added them', async () => {
    const desc = 'Frobnicate[x], which is an updated version of GetValue.';
    const s = {
      root: [{ tag: 'u', action: 'UpdateTool', input: JSON.stringify({ newtool_desc: desc }) }, invalid('v')],
      u: [invalid('u1'), finish('u2', '1')],
      u1: [finish('u3', '1')],
      v: [finish('v1', '1'), invalid('v2')],
      v2: [finish('v3', '1')],
    };
    for (const toolUpdate of [true, false]) {
      const model = scriptedModel(Q, s);
      const tree = createSearch({ question: Q, gold: '42' }, { k: 2, simulations: 6, seed: 't', toolUpdate });
      await runSearch(tree, env(tree, model));
      const line = `(14) ${desc}`;
      for (const n of tree.nodes.slice(1)) {
        const underU = n.text.includes('Thought: u');
        expect(n.state.newTools, n.text).toEqual(underU && toolUpdate ? [line] : []);
      }
      for (const call of model.calls) {
        expect(call.prompt.includes(line), call.key).toBe(toolUpdate && call.key.startsWith('u'));
      }
      expect(model.calls.some((c) => c.key.startsWith('u'))).toBe(true);
      expect(model.calls.some((c) => c.key.startsWith('v'))).toBe(true);
    }
  });

  it('counts a model-call budget and ends the search on it', async () => {
    const model = scriptedModel(Q, {
      root: [invalid('x'), invalid('y')],
      x: [invalid('x')],
      y: [invalid('y')],
    });
    const tree = createSearch({ question: Q, gold: '42' }, { k: 2, simulations: 50, maxModelCalls: 3 });
    await runSearch(tree, env(tree, model));
    expect(tree).toMatchObject({ done: true, stopReason: 'budget', usage: { modelCalls: 3 } });
    expect(tree.nodes.some((n) => n.ending === 'budget' && n.reward === -1)).toBe(true);
  });

  it('undoes a failed iteration completely', async () => {
    const model = scriptedModel(Q, script);
    const tree = createSearch({ question: Q, gold: '42' }, { k: 2, simulations: 10 });
    const failing = { ...model, generate: async () => Promise.reject(new Error('provider down')) };
    const before = serializeTree(tree);
    await expect(runSearch(tree, env(tree, failing as never))).rejects.toThrow('provider down');
    expect(serializeTree(tree)).toBe(before);
    const roundTrip = parseTree(serializeTree(tree));
    await runSearch(roundTrip, env(roundTrip, model), { maxIterations: 1 });
    expect(roundTrip.nodes).toHaveLength(5);
  });
});
