/**
 * Task runs of the three methods with the simulated policy: the recorded outcome matches the path that
 * answered, and greedy-memory's carried UpdateTool lines spare later tasks the rediscovery of changed tools.
 */
import { describe, expect, it } from 'vitest';
import { runEvalTask } from '../../../core/evals/run-task.ts';
import { type EvalMethod, EvalSuiteSchema } from '../../../core/evals/suite.ts';
import { classifyRun } from '../../../core/evals/taxonomy.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { createKernelDeps } from '../../../core/world/kernel-deps.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

const world = generateWorld({ seed: 'evals', scale: 0.05 });
const tasksP = generateTasks(world, TASK_TEMPLATES, { counts: () => ({ test: 6, dev: 0, train: 0 }) }).then(
  (g) => [...g.tasks].sort((a, b) => (a.id < b.id ? -1 : 1)),
);

async function group(method: EvalMethod, dataset: string, preset: 'static' | 'adaptive') {
  const model = createSimModel({ preset });
  const suite = EvalSuiteSchema.parse({ methods: [method] });
  const tasks = (await tasksP).filter((t) => t.dataset === dataset && t.difficulty === 'easy');
  let memory: string[] = [];
  let calls = 0;
  let correct = 0;
  for (const task of tasks) {
    const o = await runEvalTask({
      method,
      suite,
      task,
      model,
      world,
      surface: S_OOD_SURFACE,
      docs: PC_SURFACE,
      deps: createKernelDeps({ gold: task.gold }),
      memory,
    });
    if (method === 'greedy-memory') memory = o.toolUpdates;
    calls += o.modelCalls;
    if (o.correct) correct++;
  }
  return { calls, correct, memory, tasks: tasks.length };
}

describe('evaluation task runs', () => {
  it('records greedy and MCTS runs with their answering path, judged against gold', async () => {
    const task = (await tasksP).find((t) => t.dataset === 'coffee' && t.difficulty === 'easy');
    if (!task) throw new Error('no task');
    const model = createSimModel({ preset: 'oracle' });
    for (const method of ['greedy', 'mcts'] as const) {
      const suite = EvalSuiteSchema.parse({
        methods: [method],
        mcts: { simulations: 3, k: 2, maxDepth: 10 },
      });
      let t = 0;
      const o = await runEvalTask({
        method,
        suite,
        task,
        model,
        world,
        surface: PC_SURFACE,
        docs: PC_SURFACE,
        deps: createKernelDeps({ gold: task.gold }),
        clock: () => (t += 7),
      });
      expect(o.correct, method).toBe(true);
      expect(o.ending).toBe('finish');
      expect(o.steps.at(-1)?.outcome).toBe('finished:correct');
      expect(o.steps.at(-1)?.action).toBe('Finish');
      expect(o.modelCalls).toBeGreaterThanOrEqual(o.steps.length);
      expect(o.latencyMs).toBe(7);
      expect(classifyRun({ ...o })).toBeNull();
    }
  });

  it('carries UpdateTool lines across the tasks of a group with greedy-memory: far fewer model calls', async () => {
    for (const dataset of ['flights', 'dblp']) {
      const plain = await group('greedy', dataset, 'adaptive');
      const withMemory = await group('greedy-memory', dataset, 'adaptive');
      expect(plain.memory).toEqual([]);
      expect(withMemory.memory.length).toBeGreaterThan(0);
      // Measured with ToolEvo's per-call few-shots: flights 72 → 39 calls (6/6 correct both), dblp 48 → 30
      // (6/6 → 5/6: the simulator's noise took one step of one task off course).
      expect(withMemory.calls).toBeLessThan(plain.calls * 0.7);
      expect(withMemory.correct).toBeGreaterThanOrEqual(plain.correct - 1);
    }
  });
});
