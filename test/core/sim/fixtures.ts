/**
 * The evaluation harness of the simulator tests: a small world, a fixed task sample (three questions of every
 * dataset × difficulty group that the small world can fill) and greedy ReAct episodes over it on any surface with any skills.
 */
import {
  type KernelReactLoopOptions,
  type ReactEpisode,
  runReactEpisode,
} from '../../../core/agents/react-loop.ts';
import { createSimModel, type SimModelOptions } from '../../../core/sim/index.ts';
import type { SimSkillsInput } from '../../../core/sim/skills.ts';
import type { Surface } from '../../../core/surfaces/model.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import type { Task } from '../../../core/world/tasks/types.ts';
import { generateWorld } from '../../../core/world/world.ts';

export const EVAL_WORLD = generateWorld({ seed: 'sim-eval', scale: 0.1 });

let sample: Promise<Task[]> | null = null;

/** Three test questions per dataset × difficulty group. */
export function evalTasks(): Promise<Task[]> {
  sample ??= generateTasks(EVAL_WORLD, TASK_TEMPLATES, {
    counts: () => ({ test: 3, dev: 0, train: 0 }),
  }).then((g) => g.tasks);
  return sample;
}

export interface SuiteResult {
  success: number;
  episodes: ReactEpisode[];
  tasks: Task[];
}

export type SuiteOptions = Omit<KernelReactLoopOptions, 'model' | 'world' | 'task' | 'surface'> & {
  skills?: SimSkillsInput;
  preset?: SimModelOptions['preset'];
};

/** Runs one greedy episode per task (or with the options' temperature and seed) and reports the success rate. */
export async function runSuite(surface: Surface, opts: SuiteOptions = {}): Promise<SuiteResult> {
  const { skills, preset, ...loop } = opts;
  const model = createSimModel({ skills, preset });
  const tasks = await evalTasks();
  const episodes: ReactEpisode[] = [];
  for (const task of tasks) {
    episodes.push(await runReactEpisode({ ...loop, model, world: EVAL_WORLD, task, surface }));
  }
  return { success: episodes.filter((e) => e.correct).length / tasks.length, episodes, tasks };
}
