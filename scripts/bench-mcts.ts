/**
 * `npm run bench:mcts`: the MCTS engine with the simulated policy (Node, in-process).
 *  - simulations per second, and engine milliseconds per model call (wall time minus time inside the model);
 *  - bytes stored per node (each node is one JSON row in the tree's Durable Object);
 *  - model calls per solved task with and without cached rollout, next to the success rate of each (the
 *    comparison is only meaningful at equal success, so both are printed); a task counts as solved when the
 *    search reached a correct Finish anywhere, including in a rollout the uncached variant then discards;
 *  - priors: the original's raw priors (default) against tooldrift's normalised option — success, model calls per
 *    solved task, and the mean sum of sibling priors (the factor by which raw priors scale the exploration term
 *    against normalised ones, whose siblings sum to 1);
 *  - greedy baseline success for reference.
 * Environment: BENCH_TASKS (default 12), BENCH_SIMULATIONS (default 8).
 */

import type { GenerateRequest, TextModel } from '../core/models/types.ts';
import type { SearchConfigInput } from '../core/search/config.ts';
import { createSearch, runSearch, searchEnv, summarizeSearch } from '../core/search/mcts.ts';
import { createSimModel } from '../core/sim/index.ts';
import { S_OOD_SURFACE } from '../core/surfaces/builtin.ts';
import { generateTasks } from '../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../core/world/tasks/registry.ts';
import type { Task } from '../core/world/tasks/types.ts';
import { generateWorld } from '../core/world/world.ts';

const taskCount = Number(process.env.BENCH_TASKS ?? 12);
const simulations = Number(process.env.BENCH_SIMULATIONS ?? 8);

/** Wraps a model to measure the time spent inside it. */
function timed(model: TextModel): { model: TextModel; ms: () => number } {
  let inside = 0;
  const wrapped: TextModel = {
    provider: model.provider,
    model: model.model,
    capabilities: model.capabilities,
    async generate(request: GenerateRequest, signal?: AbortSignal) {
      const t = performance.now();
      try {
        return await model.generate(request, signal);
      } finally {
        inside += performance.now() - t;
      }
    },
  };
  return { model: wrapped, ms: () => inside };
}

interface RunStats {
  solved: number;
  iterations: number;
  modelCalls: number;
  nodes: number;
  bytes: number;
  wallMs: number;
  modelMs: number;
  /** Sum over expanded nodes of their children's priors, and the number of such nodes. */
  priorSum: number;
  families: number;
}

async function runAll(
  world: ReturnType<typeof generateWorld>,
  tasks: Task[],
  config: SearchConfigInput,
): Promise<RunStats> {
  const stats: RunStats = {
    solved: 0,
    iterations: 0,
    modelCalls: 0,
    nodes: 0,
    bytes: 0,
    wallMs: 0,
    modelMs: 0,
    priorSum: 0,
    families: 0,
  };
  for (const task of tasks) {
    const { model, ms } = timed(createSimModel({ preset: 'static', seed: 'bench' }));
    const tree = createSearch(
      { id: task.id, question: task.question, gold: task.gold },
      { ...config, seed: task.id },
    );
    const env = searchEnv(tree, { model, world, surface: S_OOD_SURFACE });
    const t = performance.now();
    await runSearch(tree, env, {});
    stats.wallMs += performance.now() - t;
    stats.modelMs += ms();
    const summary = summarizeSearch(tree);
    // Solved: a correct Finish was reached, kept in the tree or seen by a discarded rollout. Every +1 reaches the
    // root by eq. 4, so the root's wins are (N + W) / 2.
    const root = tree.nodes[0] as { visits: number; value: number };
    if (summary.success || (root.visits + root.value) / 2 > 0) stats.solved++;
    stats.iterations += summary.iterations;
    stats.modelCalls += summary.modelCalls;
    stats.nodes += summary.nodes;
    for (const n of tree.nodes) {
      if (n.children.length === 0) continue;
      stats.families++;
      for (const c of n.children) stats.priorSum += tree.nodes[c]?.prior ?? 0;
    }
    stats.bytes += tree.nodes.reduce(
      (n, node) => n + new TextEncoder().encode(JSON.stringify(node)).length,
      0,
    );
  }
  return stats;
}

async function main(): Promise<void> {
  const world = generateWorld({ seed: 'bench-mcts', scale: 0.3 });
  const { tasks: all } = await generateTasks(world, TASK_TEMPLATES, {
    counts: () => ({ test: 2, dev: 0, train: 0 }),
    groups: [
      { dataset: 'flights', difficulty: 'easy' },
      { dataset: 'coffee', difficulty: 'easy' },
      { dataset: 'coffee', difficulty: 'hard' },
      { dataset: 'airbnb', difficulty: 'easy' },
      { dataset: 'yelp', difficulty: 'easy' },
      { dataset: 'agenda', difficulty: 'easy' },
      { dataset: 'dblp', difficulty: 'easy' },
    ],
  });
  const tasks = all.slice(0, taskCount);
  const base: SearchConfigInput = { simulations, k: 3, maxDepth: 12 };
  const cached = await runAll(world, tasks, { ...base, cachedRollout: true });
  const uncached = await runAll(world, tasks, { ...base, cachedRollout: false });
  const normalised = await runAll(world, tasks, { ...base, priors: 'normalised' });
  const greedy = await runAll(world, tasks, { mode: 'greedy', maxDepth: 12 });

  const perSolved = (s: RunStats) => (s.solved > 0 ? s.modelCalls / s.solved : Number.NaN);
  const f = (x: number, d = 2) => x.toFixed(d);
  console.log(
    `MCTS with the simulated policy (a simulator, not a model) on ${tasks.length} tasks, server surface s-ood, docs pc; M=${simulations}, k=3, T=12.\n`,
  );
  console.log(`simulations per second            ${f((cached.iterations / cached.wallMs) * 1000, 1)}`);
  console.log(
    `engine ms per model call          ${f((cached.wallMs - cached.modelMs) / cached.modelCalls, 3)}  (simulator ms per call ${f(cached.modelMs / cached.modelCalls, 3)})`,
  );
  console.log(
    `bytes stored per node             ${f(cached.bytes / cached.nodes, 0)}  (${cached.nodes} nodes)`,
  );
  console.log(
    `success: cached ${cached.solved}/${tasks.length}, uncached ${uncached.solved}/${tasks.length}, greedy ${greedy.solved}/${tasks.length}`,
  );
  console.log(
    `model calls per solved task       cached rollout ${f(perSolved(cached), 1)}, without ${f(perSolved(uncached), 1)}; ratio ${f(perSolved(uncached) / perSolved(cached))}×`,
  );
  const massRaw = cached.priorSum / cached.families;
  const massNorm = normalised.priorSum / normalised.families;
  console.log(
    `priors raw (default) vs normalised success ${cached.solved}/${tasks.length} vs ${normalised.solved}/${tasks.length}; model calls per solved task ${f(perSolved(cached), 1)} vs ${f(perSolved(normalised), 1)}`,
  );
  console.log(
    `mean Σ sibling priors             raw ${f(massRaw, 3)}, normalised ${f(massNorm, 3)}; exploration term raw/normalised ≈ ${f(massRaw / massNorm)}×`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
