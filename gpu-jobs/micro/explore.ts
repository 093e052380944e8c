/**
 * Training data for the micro recipe without a server: ToolEvo's tree search with the **simulated policy**
 * (core/search, core/sim) on the train split of a seeded world, then the records `GET /v1/exports/sft.jsonl`
 * would serve for that exploration by default, through the route's own code path (`sftExportLines`: the
 * `repeat-free` selection, ≤ 4 successes per task seeded by the exploration id, multi-turn records with ToolEvo's
 * SFT prompt over P_c, the same `meta`), validated by gpu-jobs/validate.ts.
 * Every trajectory comes from the simulator, never from a language model.
 *
 *   npx tsx gpu-jobs/micro/explore.ts --surface s-in --seed micro-1 --out runs/micro/s-in.sft.jsonl
 *     [--per-group 6] [--trees 2] [--simulations 8] [--k 3] [--world-seed tooldrift] [--world-scale 0.2]
 *
 * Exit codes: 0 written and valid, 1 defects in the records, 2 usage error.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createSearch, runSearch, searchEnv } from '../../core/search/mcts.ts';
import { extractTrajectories, sftExportLines, type Trajectory } from '../../core/search/trajectories.ts';
import { createSimModel } from '../../core/sim/index.ts';
import { PC_SURFACE, S_IN_SURFACE, S_OOD_SURFACE } from '../../core/surfaces/builtin.ts';
import type { Surface } from '../../core/surfaces/model.ts';
import { generateTasks } from '../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../core/world/tasks/registry.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { generateWorld } from '../../core/world/world.ts';
import { formatReport, validateJsonl } from '../validate.ts';

export const BUILTIN_SURFACES: Readonly<Record<string, Surface>> = {
  pc: PC_SURFACE,
  's-in': S_IN_SURFACE,
  's-ood': S_OOD_SURFACE,
};

/** The datasets of the paper's tables (GSM8K is not among them, spec §10). */
export const MICRO_DATASETS = ['flights', 'coffee', 'yelp', 'airbnb', 'dblp', 'scirex', 'agenda'] as const;

export interface WorldSpec {
  seed: string;
  scale: number;
}

/** The demo's world: small enough that its tasks generate in seconds, seeded like the server's. */
export const MICRO_WORLD: WorldSpec = { seed: 'tooldrift', scale: 0.2 };

/** Tasks of one split, `perGroup` for each dataset × difficulty of the paper's tables, in a fixed order. */
export async function microTasks(world: World, split: 'train' | 'test', perGroup: number): Promise<Task[]> {
  const groups = MICRO_DATASETS.flatMap((dataset) =>
    (['easy', 'hard'] as const).map((difficulty) => ({ dataset, difficulty })),
  );
  const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
    counts: () => ({
      train: split === 'train' ? perGroup : 0,
      dev: 0,
      test: split === 'test' ? perGroup : 0,
    }),
    groups,
  });
  return tasks.filter((t) => t.split === split);
}

export interface ExploreOptions {
  surface: string;
  /** The exploration's id and seed (selection and every tree seed derive from it). */
  seed: string;
  perGroup: number;
  treesPerTask: number;
  simulations: number;
  k: number;
  world: WorldSpec;
  /** Called after each tree, for progress. */
  onTree?: (done: number, total: number) => void;
}

export interface ExploreResult {
  /** SFT JSON Lines, one record per selected trajectory (what the exports API serves). */
  jsonl: string;
  trees: number;
  trajectories: number;
  successes: number;
  records: number;
}

/** Explores every train task with the simulator and returns the exported SFT records. */
export async function exploreToSft(options: ExploreOptions): Promise<ExploreResult> {
  const surface = BUILTIN_SURFACES[options.surface];
  if (!surface) throw new Error(`unknown surface ${options.surface} (pc, s-in, s-ood)`);
  const world = generateWorld(options.world);
  const tasks = await microTasks(world, 'train', options.perGroup);
  const model = createSimModel({ provider: 'sim', model: 'tooldrift-sim-v1' });
  const explorationId = options.seed;
  const found: Trajectory[] = [];
  const questions = new Map<string, string>();
  const total = tasks.length * options.treesPerTask;
  let done = 0;
  for (const task of tasks) {
    questions.set(task.id, task.question);
    for (let t = 0; t < options.treesPerTask; t++) {
      const treeId = `${explorationId}/${task.id}/${t}`;
      const tree = createSearch(
        { id: task.id, question: task.question, gold: task.gold },
        { seed: treeId, simulations: options.simulations, k: options.k },
      );
      await runSearch(tree, searchEnv(tree, { model, world, surface }));
      found.push(
        ...extractTrajectories(tree, {
          treeId,
          explorationId,
          taskId: task.id,
          dataset: task.dataset,
          surfaceId: surface.id,
          promptSurfaceId: PC_SURFACE.id,
          model: model.model,
          seed: treeId,
        }),
      );
      options.onTree?.(++done, total);
    }
  }
  const lines = sftExportLines(
    found.map((t) => ({ t, question: questions.get(t.taskId) as string })),
    { docsSurface: PC_SURFACE },
  );
  return {
    jsonl: lines.map((l) => `${l}\n`).join(''),
    trees: total,
    trajectories: found.length,
    successes: found.filter((t) => t.reward === 1).length,
    records: lines.length,
  };
}

export function positiveInt(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got ${raw}`);
  return n;
}

export async function main(argv: string[]): Promise<number> {
  let options: ExploreOptions;
  let out: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        surface: { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        'per-group': { type: 'string' },
        trees: { type: 'string' },
        simulations: { type: 'string' },
        k: { type: 'string' },
        'world-seed': { type: 'string' },
        'world-scale': { type: 'string' },
      },
      strict: true,
    });
    if (!values.surface || !values.seed || !values.out) throw new Error('give --surface, --seed and --out');
    if (!BUILTIN_SURFACES[values.surface]) throw new Error(`--surface must be pc, s-in or s-ood`);
    const scale = values['world-scale'] === undefined ? MICRO_WORLD.scale : Number(values['world-scale']);
    if (!(scale > 0)) throw new Error(`--world-scale must be > 0`);
    out = values.out;
    options = {
      surface: values.surface,
      seed: values.seed,
      perGroup: positiveInt(values['per-group'], 'per-group', 6),
      treesPerTask: positiveInt(values.trees, 'trees', 2),
      simulations: positiveInt(values.simulations, 'simulations', 8),
      k: positiveInt(values.k, 'k', 3),
      world: { seed: values['world-seed'] ?? MICRO_WORLD.seed, scale },
    };
  } catch (error) {
    process.stderr.write(`explore: ${error instanceof Error ? error.message : String(error)}\n`);
    process.stderr.write(
      'usage: npx tsx gpu-jobs/micro/explore.ts --surface pc|s-in|s-ood --seed SEED --out FILE [--per-group 6] [--trees 2] [--simulations 8] [--k 3] [--world-seed tooldrift] [--world-scale 0.2]\n',
    );
    return 2;
  }
  const result = await exploreToSft({
    ...options,
    onTree: (done, total) => process.stderr.write(`\rexplore ${options.surface}: tree ${done}/${total}`),
  });
  process.stderr.write('\n');
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, result.jsonl);
  const report = validateJsonl('sft', result.jsonl, { maxLength: 4096 });
  process.stdout.write(
    `${out}: ${result.records} SFT records from ${result.trees} trees (${result.successes}/${result.trajectories} Finish paths correct; simulator trajectories)\n`,
  );
  process.stdout.write(`${formatReport(out, report)}\n`);
  return report.defects.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`explore: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
