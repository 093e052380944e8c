/**
 * Real export lines for the gpu-jobs tests: a small simulated ToolEvo search (the `sim` policy on P_s_OOD), its
 * trajectories and DPO pairs turned into records by the same functions and with the same `meta` fields as
 * functions/routes/exports.ts (`sftExportLines`) and edge/stores/trajectories.ts.
 */
import { TOOLDRIFT_SEARCH_VARIANT } from '../../../core/search/config.ts';
import { createSearch, runSearch, searchEnv } from '../../../core/search/mcts.ts';
import {
  dpoPairs,
  dpoRecord,
  extractTrajectories,
  sftExportLines,
  type TrajectoryMeta,
  trajectoryStats,
} from '../../../core/search/trajectories.ts';
import { createSimModel } from '../../../core/sim/index.ts';
import { PC_SURFACE, S_OOD_SURFACE } from '../../../core/surfaces/builtin.ts';
import { generateTasks } from '../../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../../core/world/tasks/registry.ts';
import { generateWorld } from '../../../core/world/world.ts';

export interface ExportFixture {
  /** The SFT records of the trajectories the default rule selects (as GET /v1/exports/sft.jsonl serves them). */
  sftLines: string[];
  dpoLines: string[];
  /** Every successful trajectory as GET /v1/trajectories?success=true lists it (the fields the manifest reads). */
  listed: { id: string; explorationId: string; taskId: string; reward: number; repeats: number }[];
}

async function build(): Promise<ExportFixture> {
  const world = generateWorld({ seed: 'search-sim', scale: 0.1 });
  const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
    counts: () => ({ test: 1, dev: 0, train: 0 }),
  });
  const model = createSimModel({ preset: 'static' });
  const sftLines: string[] = [];
  const dpoLines: string[] = [];
  const listed: ExportFixture['listed'] = [];
  // Tasks whose trees hold both successes and preference pairs under this seed (coffee-easy, agenda-hard).
  for (const task of tasks.filter((t) => t.id.startsWith('coffee-easy') || t.id.startsWith('agenda-hard'))) {
    // tooldrift's earlier search settings: the task choice above was made under them.
    const tree = createSearch(task, {
      ...TOOLDRIFT_SEARCH_VARIANT,
      simulations: 6,
      k: 3,
      maxDepth: 10,
      seed: 'eval',
    });
    await runSearch(tree, searchEnv(tree, { model, world, surface: S_OOD_SURFACE }));
    const meta: TrajectoryMeta = {
      treeId: `tree-${task.id}`,
      explorationId: 'exp-1',
      taskId: task.id,
      dataset: task.id.split('-')[0] ?? 'coffee',
      surfaceId: 's-ood',
      promptSurfaceId: 'pc',
      model: tree.model ?? 'sim',
      seed: 'eval',
    };
    const successes = extractTrajectories(tree, meta).filter((t) => t.reward === 1);
    for (const t of successes)
      listed.push({
        id: t.id,
        explorationId: meta.explorationId,
        taskId: t.taskId,
        reward: t.reward,
        repeats: trajectoryStats(t.steps).repeats,
      });
    sftLines.push(
      ...sftExportLines(
        successes.map((t) => ({ t, question: task.question })),
        { docsSurface: PC_SURFACE },
      ),
    );
    for (const pair of dpoPairs(tree)) {
      const record = dpoRecord(pair, task, { docsSurface: PC_SURFACE });
      dpoLines.push(
        JSON.stringify({
          ...record,
          meta: {
            ...meta,
            parentNode: pair.parent,
            chosenNode: pair.chosenNode,
            rejectedNode: pair.rejectedNode,
          },
        }),
      );
    }
  }
  return { sftLines, dpoLines, listed };
}

let cached: Promise<ExportFixture> | null = null;

export function exportFixture(): Promise<ExportFixture> {
  cached ??= build();
  return cached;
}

export const jsonl = (lines: readonly string[]) => lines.map((l) => `${l}\n`).join('');
