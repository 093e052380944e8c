/**
 * Training data from search trees: root→Finish trajectories, the seeded choice of ≤ 4 successes per task, SFT
 * chat records and DPO pairs from sibling branches, on a hand-built tree and on a simulated search.
 */
import { describe, expect, it } from 'vitest';
import { TURN_MARKER } from '../../../core/prompts/toolevo.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import {
  dpoPairSet,
  dpoPairs,
  dpoRecord,
  extractTrajectories,
  repeatsFailedCall,
  repeatsFailedStep,
  sameCall,
  selectForTraining,
  selectionReport,
  sftExportLines,
  sftRecord,
  sftToolsPrompt,
  type TrajectoryMeta,
  trajectoryStats,
} from '../../../core/search/trajectories.ts';
import { createTree, type NodeEnding, node, type SearchTree } from '../../../core/search/tree.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

const META: TrajectoryMeta = {
  treeId: 't1',
  explorationId: 'e1',
  taskId: 'coffee-easy-test-0001',
  dataset: 'coffee',
  surfaceId: 's_ood',
  promptSurfaceId: 'pc',
  model: 'sim',
  seed: '7',
};

function add(
  tree: SearchTree,
  parent: number,
  text: string,
  observation: string,
  end?: { ending: NodeEnding; reward: number; answer?: string; newTools?: string[] },
): number {
  const p = node(tree, parent);
  const id = tree.nodes.length;
  tree.nodes.push({
    ...p,
    id,
    parent,
    children: [],
    depth: p.depth + 1,
    text,
    observation,
    prompt: 'toolevo/agent',
    outcome: end?.ending === 'finish' ? { kind: 'finished', correct: end.reward > 0 } : { kind: 'ok' },
    state: {
      ...p.state,
      newTools: end?.newTools ?? p.state.newTools,
      answer: end?.answer ?? p.state.answer,
    },
    terminal: end !== undefined,
    reward: end?.reward ?? null,
    ending: end?.ending ?? null,
  });
  p.children.push(id);
  return id;
}

/**
 * root ─ 1 (load) ─ 3 (Finish right, +1)
 *      │          └ 4 (Finish wrong, −1)
 *      └ 2 (bad)  ─ 5 (depth, −1)
 */
function handTree(): SearchTree {
  const tree = createTree({ question: ' What is x? ', gold: 'A' }, {} as never);
  const s1 = add(tree, 0, 'Thought: load\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}', 'loaded');
  const s2 = add(tree, 0, 'Thought: guess\n\nAction: Nope\n\nAction Input: {}', 'invalid');
  add(tree, s1, 'Thought: done\n\nAction: Finish\n\nAction Input: {"answer": "A"}', 'Answer is CORRECT', {
    ending: 'finish',
    reward: 1,
    answer: 'A',
    newTools: ['(14) GetRow[x], which returns x.'],
  });
  add(tree, s1, 'Thought: done\n\nAction: Finish\n\nAction Input: {"answer": "B"}', 'Answer is WRONG', {
    ending: 'finish',
    reward: -1,
    answer: 'B',
  });
  add(tree, s2, 'Thought: more\n\nAction: Nope\n\nAction Input: {}', 'invalid', {
    ending: 'depth',
    reward: -1,
  });
  return tree;
}

describe('trajectories from a hand-built tree', () => {
  it('extracts every root→Finish path with reward, ReAct text, steps and tool updates', () => {
    const ts = extractTrajectories(handTree(), META);
    expect(ts.map((t) => [t.id, t.leafNode, t.reward, t.answer])).toEqual([
      ['t1:3', 3, 1, 'A'],
      ['t1:4', 4, -1, 'B'],
    ]);
    const [ok] = ts;
    expect(ok?.text).toBe(
      'Thought: load\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}\n\nObservation: loaded\n\n' +
        'Thought: done\n\nAction: Finish\n\nAction Input: {"answer": "A"}\n\nObservation: Answer is CORRECT',
    );
    expect(ok?.steps.map((s) => [s.node, s.outcome])).toEqual([
      [1, 'ok'],
      [3, 'finished'],
    ]);
    expect(ok?.toolUpdates).toEqual(['(14) GetRow[x], which returns x.']);
    expect(ok).toMatchObject({ taskId: META.taskId, surfaceId: 's_ood', model: 'sim', seed: '7' });
  });

  it('builds a single-turn SFT record (option) with the P_c agent head as system, the question as user', () => {
    const [ok] = extractTrajectories(handTree(), META);
    const rec = sftRecord(
      ok as never,
      { question: ' What is x? ' },
      { format: 'single-turn', systemPrompt: 'agent-head' },
    );
    expect(rec.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(rec.messages[0]?.content.endsWith(TURN_MARKER)).toBe(true);
    expect(rec.messages[0]?.content).toContain('LoadDB[DBName]');
    expect(rec.messages[0]?.content).not.toContain('GetRow[x]');
    expect(rec.messages[1]?.content).toBe('Question: What is x?');
    expect(rec.messages[2]?.content).toBe(ok?.text);
  });

  it('pairs sibling steps toward success and toward failure, with the shared prefix', () => {
    const pairs = dpoPairs(handTree());
    expect(pairs.map((p) => [p.parent, p.chosenNode, p.rejectedNode])).toEqual([
      [0, 1, 2],
      [1, 3, 4],
    ]);
    expect(pairs[0]?.prefix).toEqual([]);
    expect(pairs[1]?.prefix).toEqual([{ text: node(handTree(), 1).text, observation: 'loaded' }]);
    const rec = dpoRecord(pairs[1] as never, { question: 'What is x?' });
    expect(rec.prompt[1].content).toBe(
      'Question: What is x?\n\nThought: load\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}\n\nObservation: loaded',
    );
    expect(rec.chosen[0].content).toContain('"answer": "A"');
    expect(rec.rejected[0].content).toContain('"answer": "B"');
  });

  it('makes no pair where both siblings can succeed or none can', () => {
    const tree = handTree();
    add(tree, 2, 'Thought: right after all\n\nAction: Finish\n\nAction Input: {}', 'Answer is CORRECT', {
      ending: 'finish',
      reward: 1,
    });
    expect(dpoPairs(tree).map((p) => [p.parent, p.chosenNode, p.rejectedNode])).toEqual([
      [1, 3, 4],
      [2, 6, 5],
    ]);
  });
});

describe('selectForTraining', () => {
  const many = (task: string, n: number, reward: 1 | -1 = 1) =>
    Array.from({ length: n }, (_, i) => ({ id: `${task}/tree${i}:9`, taskId: task, reward }));

  it('keeps at most 4 successes per task, never failures, independent of input order', () => {
    const all = [...many('a', 9), ...many('b', 2), ...many('c', 5, -1)];
    const chosen = selectForTraining(all, 'seed');
    expect([...chosen].filter((id) => id.startsWith('a/'))).toHaveLength(4);
    expect([...chosen].filter((id) => id.startsWith('b/'))).toHaveLength(2);
    expect([...chosen].filter((id) => id.startsWith('c/'))).toHaveLength(0);
    const again = selectForTraining([...all].reverse(), 'seed');
    expect([...again].sort()).toEqual([...chosen].sort());
    const seeds = new Set(['1', '2', '3', '4', '5'].map((s) => [...selectForTraining(all, s)].sort().join()));
    expect(seeds.size).toBeGreaterThan(1);
    expect(selectForTraining(all, 'seed', 1).size).toBe(2);
  });
});

describe('trajectories from a simulated search', () => {
  it('every Finish leaf becomes a trajectory whose text replays its path; pairs split success from failure', async () => {
    const world = generateWorld({ seed: 'search-sim', scale: 0.1 });
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 1, dev: 0, train: 0 }),
    });
    const model = createSimModel({ preset: 'static' });
    let sawPair = false;
    let sawSuccess = false;
    for (const task of tasks.slice(0, 10)) {
      const tree = createSearch(task, { simulations: 6, k: 3, maxDepth: 10, seed: 'eval' });
      await runSearch(tree, searchEnv(tree, { model, world, surface: S_OOD_SURFACE }));
      const ts = extractTrajectories(tree, { ...META, taskId: task.id });
      const finishes = tree.nodes.filter((n) => n.ending === 'finish');
      expect(ts.map((t) => t.leafNode)).toEqual(finishes.map((n) => n.id));
      for (const t of ts) {
        const leaf = node(tree, t.leafNode);
        expect(t.reward).toBe(leaf.reward);
        expect(t.steps.at(-1)?.text).toContain('Finish');
        expect(t.steps).toHaveLength(leaf.depth);
        if (t.reward === 1) sawSuccess = true;
      }
      for (const p of dpoPairs(tree)) {
        sawPair = true;
        expect(node(tree, p.chosenNode).parent).toBe(p.parent);
        expect(node(tree, p.rejectedNode).parent).toBe(p.parent);
        expect(p.prefix).toHaveLength(node(tree, p.chosenNode).depth - 1);
      }
      expect(extractTrajectories(tree, { ...META, taskId: task.id })).toEqual(ts);
    }
    expect(sawSuccess).toBe(true);
    expect(sawPair).toBe(true);
  }, 60_000);
});

describe('training data worth training on (issue 17, items 14–16)', () => {
  const call = (action: string, input: string, outcome: string, observation = 'ok', reason?: string) => ({
    text: `Thought: t\n\nAction: ${action}\n\nAction Input: ${input}`,
    observation,
    action,
    outcome,
    node: 0,
    prompt: null,
    ...(reason ? { reason } : {}),
  });
  const finish = call('Finish', '{"answer": "A"}', 'finished', 'Answer is CORRECT');
  const deprecated = call(
    'LoadDB',
    '{"DBName": "coffee"}',
    'rejected',
    'LoadDB is deprecated; use Init_DB',
    'retired',
  );
  // Hits the deprecation, repeats the deprecated call, then recovers: 4 steps.
  const looping = [deprecated, deprecated, call('Init_DB', '{"DBName": "coffee"}', 'ok'), finish];
  // Hits the deprecation once, recovers: 4 steps too (an UpdateTool step).
  const clean = [
    deprecated,
    call('Init_DB', '{"DBName": "coffee"}', 'ok'),
    call('UpdateTool', '{"newtool_desc": "Init_DB[DBName]"}', 'ok'),
    finish,
  ];

  it('reports steps, deprecation errors met and repeats per trajectory', () => {
    expect(trajectoryStats(looping)).toEqual({ steps: 4, deprecationErrors: 2, repeats: 1 });
    expect(trajectoryStats(clean)).toEqual({ steps: 4, deprecationErrors: 1, repeats: 0 });
    // Older records without a reason: the deprecation message's wording tells.
    const { reason: _, ...old } = deprecated;
    expect(trajectoryStats([old, finish]).deprecationErrors).toBe(1);
  });

  it('selects by default only successes that repeat no failed call, fewer than 4 when fewer exist (issue 25 item 9)', () => {
    // The case (coffee-easy-train-0000): two clean successes and two that repeat a call 3 times, plus more.
    const thrice = [
      deprecated,
      deprecated,
      deprecated,
      deprecated,
      call('Init_DB', '{"DBName": "coffee"}', 'ok'),
      finish,
    ];
    const ts = [
      { id: 'a:1', taskId: 'a', reward: 1, steps: thrice },
      { id: 'a:2', taskId: 'a', reward: 1, steps: clean },
      { id: 'a:3', taskId: 'a', reward: 1, steps: [...clean, finish, finish] },
      { id: 'a:4', taskId: 'a', reward: 1, steps: thrice },
      { id: 'a:5', taskId: 'a', reward: 1, steps: looping },
      { id: 'a:6', taskId: 'a', reward: -1, steps: clean },
      { id: 'b:1', taskId: 'b', reward: 1, steps: looping },
    ];
    expect(trajectoryStats(thrice).repeats).toBe(3);
    for (const seed of ['1', '2', '3', '4', '5', '6']) {
      const chosen = selectForTraining(ts, seed);
      expect([...chosen].sort()).toEqual(['a:2', 'a:3']);
      expect(selectForTraining(ts, seed, 4, 'repeat-free')).toEqual(chosen);
      // The report says what was left out and why.
      expect(selectionReport(ts, chosen)).toEqual({
        tasks: 2,
        successes: 6,
        selected: 2,
        droppedRepeating: 4,
        droppedOverLimit: 0,
        tasksWithoutRecord: 1,
      });
    }
    // One slot: one of the two clean ones, at random.
    const one = new Set(['1', '2', '3', '4', '5', '6'].map((s) => [...selectForTraining(ts, s, 1)][0]));
    expect([...one].sort()).toEqual(['a:2', 'a:3']);
    expect(selectionReport(ts, selectForTraining(ts, '1', 1))).toMatchObject({
      droppedRepeating: 4,
      droppedOverLimit: 1,
    });
  });

  it("keeps tooldrift's clean ranking and the paper's uniform draw as options", () => {
    const ts = [
      { id: 'a:1', taskId: 'a', reward: 1, steps: looping },
      { id: 'a:2', taskId: 'a', reward: 1, steps: clean },
      { id: 'a:3', taskId: 'a', reward: 1, steps: [...clean, finish, finish] },
    ];
    for (const seed of ['1', '2', '3', '4', '5', '6'])
      expect([...selectForTraining(ts, seed, 1, 'clean')]).toEqual(['a:2']);
    // clean fills the slots: the clean ones first (shorter first), then the looping one.
    expect([...selectForTraining(ts, '1', 2, 'clean')].sort()).toEqual(['a:2', 'a:3']);
    expect([...selectForTraining(ts, '1', 4, 'clean')].sort()).toEqual(['a:1', 'a:2', 'a:3']);
    const uniform = new Set(
      ['1', '2', '3', '4', '5', '6', '7', '8'].map((s) => [...selectForTraining(ts, s, 1, 'uniform')][0]),
    );
    expect(uniform.has('a:1')).toBe(true);
    // A listing's precomputed repeats count stands in for the steps.
    expect(repeatsFailedCall({ repeats: 2 })).toBe(true);
    expect(repeatsFailedCall({ steps: clean })).toBe(false);
  });

  it('exports the lines of whole tasks: each (exploration, task) selected on its own, seeded by its exploration', () => {
    const row = (id: string, explorationId: string, taskId: string, steps: unknown[], reward = 1) => ({
      t: {
        id,
        treeId: id.split(':')[0] as string,
        explorationId,
        taskId,
        dataset: 'coffee',
        surfaceId: 's-in',
        promptSurfaceId: 'pc',
        model: 'sim',
        seed: '7',
        toolUpdates: [],
        reward,
        steps,
      },
      question: `Question of ${taskId}?`,
    });
    const rows = [
      row('e2/a:1', 'e2', 'a', clean),
      row('e1/b:1', 'e1', 'b', looping),
      row('e1/a:3', 'e1', 'a', [...clean, finish]),
      row('e1/a:1', 'e1', 'a', clean),
      row('e1/a:2', 'e1', 'a', looping),
      row('e1/a:4', 'e1', 'a', clean, -1),
    ];
    const parse = (lines: string[]) =>
      lines.map((l) => JSON.parse(l) as { messages: unknown[]; meta: Record<string, unknown> });
    // repeat-free (default): the repeating successes and the failure are left out; groups in (exploration, task)
    // order, records in id order, whatever order the rows came in.
    const lines = parse(sftExportLines(rows));
    expect(lines.map((l) => l.meta.trajectoryId)).toEqual(['e1/a:1', 'e1/a:3', 'e2/a:1']);
    expect(parse(sftExportLines([...rows].reverse()))).toEqual(lines);
    expect(lines[0]?.messages).toEqual(sftRecord({ steps: clean }, { question: 'Question of a?' }).messages);
    expect(lines[0]?.meta.selection).toEqual({ rule: 'repeat-free', ...trajectoryStats(clean) });
    // Each group is the selection of its own exploration's seed, under any rule and limit.
    for (const selection of ['clean', 'uniform'] as const) {
      const ids = parse(sftExportLines(rows, { selection, perTask: 2 })).map((l) => l.meta.trajectoryId);
      const expected = [
        ...selectForTraining(
          rows.filter((r) => r.t.explorationId === 'e1').map((r) => r.t),
          'e1',
          2,
          selection,
        ),
        ...selectForTraining(
          rows.filter((r) => r.t.explorationId === 'e2').map((r) => r.t),
          'e2',
          2,
          selection,
        ),
      ].sort();
      expect(ids).toEqual(expected);
    }
    expect(parse(sftExportLines(rows, { selection: 'uniform' }))[0]?.meta.selection).toMatchObject({
      rule: 'uniform',
    });
  });

  it('writes a multi-turn SFT record by default: assistant turns per step, observations as user turns', () => {
    const rec = sftRecord({ steps: clean }, { question: 'What is x?' });
    expect(rec.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(rec.messages[0]?.content).toBe(sftToolsPrompt());
    expect(rec.messages[0]?.content).toContain('LoadDB[DBName]');
    expect(rec.messages[0]?.content).not.toContain(TURN_MARKER);
    expect(rec.messages[3]?.content).toBe('Observation: LoadDB is deprecated; use Init_DB');
    // No assistant turn holds environment text; the Finish verdict is not part of the conversation.
    for (const m of rec.messages.filter((x) => x.role === 'assistant'))
      expect(m.content).not.toContain('Observation');
    expect(rec.messages.at(-1)?.content).toBe(finish.text);
    expect(JSON.stringify(rec)).not.toContain('Answer is CORRECT');
  });

  it('never prefers re-sending a call that failed on the path over a step that does not (issue 25 item 10)', () => {
    // root ─ 1 LoadDB → deprecation error
    //          ├ 2 LoadDB again (repeat) ─ 4 Init_DB ─ 6 Finish right (+1)
    //          ├ 3 Init_DB (switch)      ─ 5 Finish wrong (−1)
    //          └ 7 GetValue (no repeat)  ─ 8 Finish right (+1)
    const tree = createTree({ question: 'What is x?', gold: 'A' }, {} as never);
    const load = 'Thought: load\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}';
    const s1 = add(
      tree,
      0,
      load,
      'Error: LoadDB[DBName] is deprecated … Use Init_DB[databaseIdentifier] instead.',
    );
    node(tree, s1).outcome = { kind: 'rejected', reason: 'retired' };
    const s2 = add(
      tree,
      s1,
      load.replace('Thought: load', 'Thought: once more'),
      'Error: LoadDB … deprecated',
    );
    node(tree, s2).outcome = { kind: 'rejected', reason: 'retired' };
    const init = 'Thought: switch\n\nAction: Init_DB\n\nAction Input: {"databaseIdentifier": "coffee"}';
    const s3 = add(tree, s1, init, 'loaded');
    const s4 = add(tree, s2, init, 'loaded');
    add(tree, s3, 'Thought: x\n\nAction: Finish\n\nAction Input: {"answer": "B"}', 'Answer is INCORRECT', {
      ending: 'finish',
      reward: -1,
    });
    add(tree, s4, 'Thought: x\n\nAction: Finish\n\nAction Input: {"answer": "A"}', 'Answer is CORRECT', {
      ending: 'finish',
      reward: 1,
    });
    const s7 = add(tree, s1, 'Thought: y\n\nAction: GetValue\n\nAction Input: {"column_name": "x"}', 'x');
    add(tree, s7, 'Thought: x\n\nAction: Finish\n\nAction Input: {"answer": "A"}', 'Answer is CORRECT', {
      ending: 'finish',
      reward: 1,
    });
    // Visits and values as a search would have left them.
    Object.assign(node(tree, s2), { visits: 3, value: 1 });
    Object.assign(node(tree, s3), { visits: 2, value: -2 });
    Object.assign(node(tree, s7), { visits: 1, value: 1 });
    const set = dpoPairSet(tree);
    // Under node 1 the repeat (2) beat the switch (3) only because its subtree later recovered: dropped.
    expect(set.droppedRepeating).toBe(1);
    expect(set.pairs.map((p) => [p.parent, p.chosenNode, p.rejectedNode])).toEqual([[s1, s7, s3]]);
    for (const p of set.pairs)
      expect(
        repeatsFailedStep(
          p.prefix.map((s) => ({ ...s, failed: true })),
          p.chosen,
        ),
      ).toBe(false);
    // Both sides' Q and N, for an audit of the preference.
    expect(set.pairs[0]?.values).toEqual({ chosen: { q: 1, n: 1 }, rejected: { q: -1, n: 2 } });
    // A repeat on both sides is no preference for repeating: such a pair stays.
    expect(repeatsFailedStep([{ text: load, observation: 'e', failed: true }], load)).toBe(true);
    expect(repeatsFailedStep([{ text: load, observation: 'e', failed: false }], load)).toBe(false);
    expect(repeatsFailedStep([{ text: load, observation: 'e', failed: true }], init)).toBe(false);
  });

  it('makes no DPO pair whose sides make the same call, and counts those dropped', () => {
    const tree = handTree();
    // A sibling of node 3 (correct Finish) with the same call but other Thought wording, below a failure.
    const same = add(
      tree,
      1,
      'Thought: other words\n\nAction: Finish\n\nAction Input: {"answer":  "A"}',
      'x',
    );
    add(tree, same, 'Thought: x\n\nAction: Nope\n\nAction Input: {}', 'invalid', {
      ending: 'depth',
      reward: -1,
    });
    const set = dpoPairSet(tree);
    expect(set.dropped).toBe(1);
    for (const p of set.pairs) expect(sameCall(p.chosen, p.rejected)).toBe(false);
    expect(set.pairs.map((p) => [p.parent, p.chosenNode, p.rejectedNode])).toEqual([
      [0, 1, 2],
      [1, 3, 4],
    ]);
    expect(
      sameCall(
        'Thought: a\nAction: F\nAction Input: {"x": 1}',
        'Thought: b\nAction: F\nAction Input: {"x":1}',
      ),
    ).toBe(true);
  });
});
