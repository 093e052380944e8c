/**
 * The README's exploration (coffee train tasks on s-ood with P_c docs, search {simulations 8, k 3, maxDepth 12},
 * seed run-1, the default simulator), searched in process with the functions the server runs, then exported the
 * way the exports do (issue 25 items 9 and 10): no SFT record repeats a failed call and no DPO pair prefers
 * repeating one — recounted by scripts/check-exports.ts's checks from the steps and nodes themselves. The README
 * runs 20 trees per task; here 2 per task keep the test short (`npm run check:exports` checks a served run).
 */
import { describe, expect, it } from 'vitest';
import { outcomeLabel } from '../../../core/methods/method.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import {
  dpoPairSet,
  extractTrajectories,
  selectForTraining,
  type Trajectory,
} from '../../../core/search/trajectories.ts';
import type { SearchTree } from '../../../core/search/tree.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';
import { dpoProblem, repeatedFailedCalls } from '../../../scripts/check-exports.ts';

const TREES_PER_TASK = 2;

describe("the README's exploration, exported (issue 25 items 9 and 10)", () => {
  it('yields no SFT record that repeats a failed call and no DPO pair that prefers repeating one', async () => {
    const world = generateWorld({ seed: 'tooldrift', scale: 1 });
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      groups: [{ dataset: 'coffee', difficulty: 'easy' }],
    });
    // `"tasks": {"dataset": "coffee", "split": "train", "limit": 10}`: the first ten train tasks by id.
    const chosenTasks = tasks
      .filter((t) => t.split === 'train')
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, 10);
    expect(chosenTasks[0]?.id).toBe('coffee-easy-train-0000');
    const model = createSimModel();
    const trajectories: Trajectory[] = [];
    const trees: SearchTree[] = [];
    for (const task of chosenTasks) {
      for (let i = 0; i < TREES_PER_TASK; i++) {
        const tree = createSearch(
          { id: task.id, question: task.question, gold: task.gold, dataset: task.dataset },
          { simulations: 8, k: 3, maxDepth: 12, seed: `run-1/${task.id}/${i}` },
        );
        await runSearch(tree, searchEnv(tree, { model, world, surface: S_OOD_SURFACE, docs: PC_SURFACE }));
        trees.push(tree);
        trajectories.push(
          ...extractTrajectories(tree, {
            treeId: `run-1/${task.id}/${i}`,
            explorationId: 'run-1',
            taskId: task.id,
            dataset: 'coffee',
            surfaceId: 's-ood',
            promptSurfaceId: 'pc',
            model: 'sim',
            seed: 'run-1',
          }),
        );
      }
    }
    const steps = (t: Trajectory) => t.steps.map((s) => ({ text: s.text, outcome: s.outcome }));

    // SFT: the default selection; every record's path recounted.
    const selected = selectForTraining(trajectories, 'run-1');
    const records = trajectories.filter((t) => selected.has(t.id));
    expect(records.length).toBeGreaterThan(0);
    for (const t of records) expect(repeatedFailedCalls(steps(t)), t.id).toBe(0);
    // Not vacuous: the paper's uniform draw would have exported repeating ones.
    const uniform = selectForTraining(trajectories, 'run-1', 4, 'uniform');
    expect(
      trajectories.filter((t) => uniform.has(t.id) && repeatedFailedCalls(steps(t)) > 0).length,
    ).toBeGreaterThan(0);

    // DPO: every pair of every tree, checked against the tree's nodes as GET /v1/trees/{id} lists them.
    let pairs = 0;
    let droppedRepeating = 0;
    for (const tree of trees) {
      const set = dpoPairSet(tree);
      droppedRepeating += set.droppedRepeating;
      const nodes = tree.nodes.map((n) => ({
        id: n.id,
        parent: n.parent,
        text: n.text,
        outcome: outcomeLabel(n.outcome),
        visits: n.visits,
        value: n.value,
      }));
      for (const p of set.pairs) {
        pairs++;
        const meta = {
          parentNode: p.parent,
          chosenNode: p.chosenNode,
          rejectedNode: p.rejectedNode,
          ...(p.values ?? {}),
        };
        expect(dpoProblem(meta, nodes)).toBeNull();
      }
    }
    expect(pairs).toBeGreaterThan(0);
    // Not vacuous either: the rule dropped candidates that would have preferred a repeat.
    expect(droppedRepeating).toBeGreaterThan(0);
  }, 180_000);
});

describe('the export checks (scripts/check-exports.ts)', () => {
  const load = 'Thought: a\n\nAction: LoadDB\n\nAction Input: {"DBName": "coffee"}';
  const init = 'Thought: b\n\nAction: Init_DB\n\nAction Input: {"databaseIdentifier": "coffee"}';
  it('count calls re-sent after they failed, whatever the Thought says', () => {
    const again = load.replace('Thought: a', 'Thought: once more');
    expect(
      repeatedFailedCalls([
        { text: load, outcome: 'rejected' },
        { text: again, outcome: 'rejected' },
      ]),
    ).toBe(1);
    expect(
      repeatedFailedCalls([
        { text: load, outcome: 'ok' },
        { text: load, outcome: 'ok' },
      ]),
    ).toBe(0);
    expect(
      repeatedFailedCalls([
        { text: load, outcome: 'rejected:retired' },
        { text: init, outcome: 'ok' },
      ]),
    ).toBe(0);
  });

  it('fail a pair that prefers repeating a failed call, or whose Q and N are not the tree’s', () => {
    const nodes = [
      { id: 0, parent: null, text: '', outcome: 'none', visits: 4, value: 0 },
      { id: 1, parent: 0, text: load, outcome: 'rejected:retired', visits: 4, value: 0 },
      { id: 2, parent: 1, text: load, outcome: 'rejected:retired', visits: 2, value: 2 },
      { id: 3, parent: 1, text: init, outcome: 'ok', visits: 2, value: -2 },
    ];
    const meta = {
      parentNode: 1,
      chosenNode: 2,
      rejectedNode: 3,
      chosen: { q: 1, n: 2 },
      rejected: { q: -1, n: 2 },
    };
    expect(dpoProblem(meta, nodes)).toMatch(/repeats a call that failed/);
    expect(
      dpoProblem(
        { ...meta, chosenNode: 3, rejectedNode: 2, chosen: meta.rejected, rejected: meta.chosen },
        nodes,
      ),
    ).toBeNull();
    expect(
      dpoProblem(
        { ...meta, chosenNode: 3, rejectedNode: 2, chosen: { q: 0, n: 2 }, rejected: meta.chosen },
        nodes,
      ),
    ).toMatch(/meta\.chosen/);
  });
});
