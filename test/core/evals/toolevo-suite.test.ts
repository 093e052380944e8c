/**
 * Evaluation suites as the paper runs them (issue 17, items 8 and 11): the full test split (`sampleSize: "all"`)
 * within the task-run cap, and an explicit model-call cap whose exhaustion is its own outcome.
 */
import { describe, expect, it } from 'vitest';
import { suiteFromFlags } from '../../../cli/suite.ts';
import { reportNotes } from '../../../cli/table.ts';
import { aggregate } from '../../../core/evals/aggregate.ts';
import { planGroups } from '../../../core/evals/plan.ts';
import { runEvalTask } from '../../../core/evals/run-task.ts';
import {
  type EvalMethod,
  EvalSuiteSchema,
  MAX_TASK_RUNS,
  TABLE5_METHODS,
} from '../../../core/evals/suite.ts';
import { BUDGET_EXHAUSTED, classifyRun } from '../../../core/evals/taxonomy.ts';
import { getMethod, suiteMethodOptions } from '../../../core/methods/registry.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

/** A search method's options in a suite (its defaults when the suite has no member for it). */
function mctsOptions(suite: object, id: EvalMethod = 'mcts'): Record<string, unknown> {
  return suiteMethodOptions(suite, getMethod(id)) as Record<string, unknown>;
}

describe('the full test split', () => {
  it('accepts sampleSize "all" for the 1,530 questions on three surfaces with two methods', () => {
    const suite = EvalSuiteSchema.parse({
      methods: ['greedy', 'mcts'],
      datasets: ['flights', 'coffee', 'airbnb', 'yelp', 'agenda', 'scirex', 'dblp', 'gsm8k'],
      sampleSize: 'all',
    });
    expect(suite.sampleSize).toBe('all');
    // 1,530 questions × 3 surfaces × 2 methods.
    expect(1530 * 3 * 2).toBeLessThanOrEqual(MAX_TASK_RUNS);
    const three = EvalSuiteSchema.safeParse({
      methods: ['greedy', 'greedy-memory', 'mcts'],
      datasets: ['flights', 'coffee', 'airbnb', 'yelp', 'agenda', 'scirex', 'dblp', 'gsm8k'],
      sampleSize: 'all',
    });
    expect(three.success).toBe(false);
    expect(three.error?.issues[0]?.message).toContain('13770 task runs');
    expect(EvalSuiteSchema.safeParse({ sampleSize: 'some' }).success).toBe(false);
  });

  it('plans every task of each cell with "all", sorted', () => {
    const suite = EvalSuiteSchema.parse({ datasets: ['coffee'], surfaces: ['pc'], sampleSize: 'all' });
    const ids = (d: string, diff: string) =>
      Array.from(
        { length: diff === 'hard' ? 130 : 100 },
        (_, i) => `${d}-${diff}-${String(i).padStart(4, '0')}`,
      ).reverse();
    const groups = planGroups(suite, ids);
    expect(groups.map((g) => g.taskIds.length)).toEqual([100, 130]);
    expect(groups[1]?.taskIds).toEqual([...ids('coffee', 'hard')].sort());
  });
});

describe('an explicit model-call cap', () => {
  const world = generateWorld({ seed: 'evals', scale: 0.05 });

  it('is off by default; when a search hits it without a Finish, the run ends as call-budget, counted apart', async () => {
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 1, dev: 0, train: 0 }),
    });
    const task = tasks.find((t) => t.dataset === 'dblp' && t.difficulty === 'hard');
    if (!task) throw new Error('no task');
    expect(mctsOptions(EvalSuiteSchema.parse({})).maxModelCalls).toBeUndefined();
    const suite = EvalSuiteSchema.parse({
      methods: ['mcts'],
      mcts: { simulations: 4, k: 2, maxDepth: 10, maxModelCalls: 1 },
    });
    const o = await runEvalTask({
      method: 'mcts',
      suite,
      task,
      model: createSimModel({ preset: 'static' }),
      world,
      surface: S_OOD_SURFACE,
      docs: PC_SURFACE,
      deps: createKernelDeps({ gold: task.gold }),
    });
    expect(o.modelCalls).toBe(1);
    expect(o.ending).toBe('call-budget');
    expect(o.correct).toBe(false);
    expect(classifyRun(o)).toBe(BUDGET_EXHAUSTED);
    const s = EvalSuiteSchema.parse({
      methods: ['mcts'],
      surfaces: ['pc'],
      datasets: ['dblp'],
      difficulties: ['hard'],
    });
    const row = {
      method: 'mcts',
      surface: 'pc',
      dataset: 'dblp',
      difficulty: 'hard',
      correct: false,
      errorClass: BUDGET_EXHAUSTED,
      modelCalls: 1,
      inputTokens: 0,
      outputTokens: 0,
      latencyMs: 0,
    };
    const [tax] = aggregate(s, new Map(), [row]).taxonomy.rows;
    expect(tax).toMatchObject({ failures: 0, budgetExhausted: 1, runErrors: 0 });
  });
});

describe('mcts, mcts-oracle and the Table 5 ablations', () => {
  const world = generateWorld({ seed: 'evals', scale: 0.05 });

  it('runs the same search for mcts and mcts-oracle; only the answer rule differs (oracle ≥ mcts)', async () => {
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 2, dev: 0, train: 0 }),
    });
    const settings = { simulations: 4, k: 3, maxDepth: 8 };
    const suite = EvalSuiteSchema.parse({
      methods: ['mcts', 'mcts-oracle'],
      mcts: settings,
      'mcts-oracle': settings,
    });
    const model = createSimModel({ preset: 'static' });
    let runs = 0;
    for (const task of tasks.filter((t) => t.dataset === 'coffee' || t.dataset === 'agenda')) {
      const run = (method: 'mcts' | 'mcts-oracle') =>
        runEvalTask({
          method,
          suite,
          task,
          model,
          world,
          surface: S_OOD_SURFACE,
          docs: PC_SURFACE,
          deps: createKernelDeps({ gold: task.gold }),
        });
      const [plain, oracle] = [await run('mcts'), await run('mcts-oracle')];
      expect(oracle.modelCalls).toBe(plain.modelCalls);
      if (plain.correct) expect(oracle.correct).toBe(true);
      runs++;
    }
    // (On these tasks the two rules agree: a Finish is visited at most once and ties go to the higher Q, so the
    // rules part only where a correct Finish was never evaluated — see core/search/answer.ts and the hand-built
    // tree in test/core/search/toolevo-faithful.test.ts.)
    expect(runs).toBeGreaterThan(3);
  });

  it("builds the Table-5-shaped suite from the CLI flag, with the paper's settings (no reflection prompt)", () => {
    const suite = EvalSuiteSchema.parse(suiteFromFlags({ table5: true, sample: '1' }));
    expect(suite.methods).toEqual([...TABLE5_METHODS]);
    for (const m of TABLE5_METHODS) expect(mctsOptions(suite, m).reflectionPrompt, m).toBe(false);
    const explicit = EvalSuiteSchema.parse(suiteFromFlags({ table5: true, 'reflection-prompt': true }));
    for (const m of TABLE5_METHODS) expect(mctsOptions(explicit, m).reflectionPrompt, m).toBe(true);
    const capped = EvalSuiteSchema.parse(
      suiteFromFlags({ methods: 'mcts', 'mcts-max-calls': '50', 'mcts-depth-preset': 'toolevo-code' }),
    );
    expect(mctsOptions(capped)).toMatchObject({
      maxModelCalls: 50,
      depthPreset: 'toolevo-code',
      reflectionPrompt: false,
    });
  });

  it('labels upper bounds and simulator-measured ablations in the printed report', () => {
    const row = (method: string) => ({
      method,
      surface: 'pc',
      cells: [],
      average: null,
      averageEasy: null,
      averageHard: null,
    });
    const notes = reportNotes({
      table: [row('mcts'), row('mcts-oracle'), row('mcts-no-reflection')] as never,
      model: { provider: 'sim', name: 'tooldrift-sim-v1', simulated: true },
    }).join('');
    expect(notes).toContain('mcts-oracle: upper bound');
    expect(notes).toContain('mcts: answer chosen without gold');
    expect(notes).toContain('Simulator behaviour');
    expect(notes).toContain('Ablation rows describe how the simulator reacts');
    const real = reportNotes({
      table: [row('mcts-no-reflection')] as never,
      model: { provider: 'openai', name: 'x', simulated: false },
    });
    expect(real).toEqual([]);
  });
});
