import { env } from 'cloudflare:workers';
import { worldSizes } from '../../core/world/catalog.ts';
import { generateTasks } from '../../core/world/tasks/generate.ts';
import { TASK_TEMPLATES } from '../../core/world/tasks/registry.ts';
import type { Task } from '../../core/world/tasks/types.ts';
import type { World } from '../../core/world/types.ts';
import { ContentHash, hashWorld } from '../../core/world/world.ts';
import { worldSeedStatements } from '../../db/world-seed.ts';
import { readConfig } from '../../edge/env.ts';
import { worldFor } from '../../edge/world-runtime.ts';

let seeded: Promise<{ world: World; tasks: Task[] }> | undefined;

/** Seeds the test D1 with the configured (small) world and a few tasks per template, once per isolate. */
export function seedTestWorld(): Promise<{ world: World; tasks: Task[] }> {
  seeded ??= (async () => {
    const config = readConfig(env);
    const world = worldFor(env);
    const { tasks } = await generateTasks(world, TASK_TEMPLATES, {
      counts: () => ({ test: 3, dev: 1, train: 1 }),
    });
    const meta = {
      seed: config.worldSeed,
      scale: config.worldScale,
      hashes: hashWorld(world),
      sizes: worldSizes(world),
      tasks: tasks.length,
      tasksHash: new ContentHash().update(JSON.stringify(tasks)).digest(),
    };
    const statements = [...worldSeedStatements(world, tasks, meta)];
    for (let i = 0; i < statements.length; i += 50) {
      await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
    }
    return { world, tasks };
  })();
  return seeded;
}
